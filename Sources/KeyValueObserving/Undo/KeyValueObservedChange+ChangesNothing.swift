extension KeyValueObservedChange<Any> {
  /// Whether the change leaves the property as it was: a setting whose
  /// new value equals its old one (`==` for an `Equatable` value, the same
  /// object for a class instance), or a to-many change of no elements,
  /// such as inserting a set's member again. A setting of a value that is
  /// neither kind is never equal, so it is recorded.
  ///
  /// ```swift
  /// person.name = person.name                       // no undo step
  /// person.mutableSetValue(for: \.tags).insert("a") // none either, when "a" was there
  /// ```
  ///
  /// Each value's type is asked at run time: a recording compares a
  /// setting of an `Equatable` key earlier, with `==` found once for the
  /// key (``GraphHandler/dropsEqualSettings``).
  func changesNothing() -> Bool {
    switch kind {
    case .setting:
      guard let oldValue, let newValue else { return false }
      return valuesEqual(oldValue, newValue)
    case .insertion:
      return isEmptyCollection(newValue)
    case .removal:
      return isEmptyCollection(oldValue)
    case .replacement:
      return isEmptyCollection(oldValue) && isEmptyCollection(newValue)
    }
  }
}

/// Whether `value` is a collection of no elements: the elements of a
/// to-many change.
private func isEmptyCollection(_ value: Any?) -> Bool {
  (value as? any Collection)?.isEmpty ?? false
}

/// `==` on two values of one `Equatable` type, `===` on two objects (an
/// optional's wrapped ones included, and an array's, element by element);
/// `false` for anything else.
func valuesEqual(_ lhs: Any, _ rhs: Any) -> Bool {
  compareValues(lhs, rhs) ?? false
}

/// Whether two values are equal, as ``valuesEqual(_:_:)`` says, or `nil`
/// when neither `==` nor identity can tell.
func compareValues(_ lhs: Any, _ rhs: Any) -> Bool? {
  if let lhs = lhs as? any Equatable {
    return lhs.isEqual(to: rhs)
  }
  if let lhs = lhs as? any OptionalValue, let rhs = rhs as? any OptionalValue {
    switch (lhs.wrappedValue, rhs.wrappedValue) {
    case (nil, nil): return true
    case (let lhs?, let rhs?): return compareValues(lhs, rhs)
    default: return false
    }
  }
  if let lhs = lhs as? any ObjectArray {
    return lhs.holdsTheSameObjects(as: rhs)
  }
  // A class instance that is not Equatable: the same object.
  guard type(of: lhs) is AnyClass, type(of: rhs) is AnyClass else { return nil }
  return lhs as AnyObject === rhs as AnyObject
}

extension Equatable {
  /// `self == other`, when `other` is of this type.
  fileprivate func isEqual(to other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}

/// An array of class instances, which two assignments hold equal when they
/// hold the same objects in the same order.
private protocol ObjectArray {
  func holdsTheSameObjects(as other: Any) -> Bool
}

extension Array: ObjectArray where Element: AnyObject {
  fileprivate func holdsTheSameObjects(as other: Any) -> Bool {
    guard let other = other as? Self, other.count == count else { return false }
    return zip(self, other).allSatisfy { $0 === $1 }
  }
}
