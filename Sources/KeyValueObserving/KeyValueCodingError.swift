/// Why a string key was refused.
///
/// Every API that takes a string key throws it instead of crashing; typed key
/// paths never throw.
///
/// ```swift
/// do {
///     try person.willChangeValue(forKey: "nmae")
/// } catch let error as KeyValueCodingError {
///     print(error)  // Person has no observable property "nmae"
/// }
/// ```
public enum KeyValueCodingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The key, or a component of a key path, is empty.
  ///
  /// ```swift
  /// try person.didChangeValue(forKey: "")  // throws .emptyKey(keyPath: "", type: "Person")
  /// ```
  case emptyKey(keyPath: String, type: String)

  /// The type has no property with this name that key-value coding can
  /// reach (for the will/did-change forms: no observable stored one).
  ///
  /// ```swift
  /// try person.willChangeValue(forKey: "nmae")  // throws .unknownKey(key: "nmae", type: "Person")
  /// ```
  case unknownKey(key: String, type: String)

  /// The value's type is not the property's.
  ///
  /// ```swift
  /// try person.setValue("old", forKey: "age")
  /// // throws .typeMismatch(key: "age", type: "Person", expected: "Int", actual: "String")
  /// ```
  case typeMismatch(key: String, type: String, expected: String, actual: String)

  /// The property cannot be set: a constant, or a computed property without
  /// a setter.
  ///
  /// ```swift
  /// try person.setValue(2, forKey: "id")  // throws .readOnly(key: "id", type: "Person")
  /// ```
  case readOnly(key: String, type: String)

  /// A component of a key path before the last one holds `nil`.
  ///
  /// ```swift
  /// try person.setValue("Oslo", forKeyPath: "address.city")
  /// // throws .nilIntermediate(keyPath: "address.city", key: "address", type: "Person")
  /// ```
  case nilIntermediate(keyPath: String, key: String, type: String)

  /// A component of a key path before the last one holds a value that is
  /// not a `@KeyValueObservable` object (a value type, or a class not
  /// marked), so key-value coding cannot reach the keys after it.
  ///
  /// ```swift
  /// try person.value(forKeyPath: "name.count")
  /// // throws .notAnObservableObject(keyPath: "name.count", key: "name", type: "Person")
  /// ```
  case notAnObservableObject(keyPath: String, key: String, type: String)

  /// For the observing forms (`addObserver`, a controller's string key
  /// paths): `key` is a property nothing announces — a `@KeyValueIgnored`,
  /// `lazy` or property-wrapped one —, so no change on the key path could
  /// ever notify.
  ///
  /// It is thrown when `key` is the path's last component, or when the path
  /// reads nothing else that announces its changes.
  ///
  /// ```swift
  /// try person.addObserver(logger, forKeyPath: "cache")
  /// // throws .neverNotifies(keyPath: "cache", key: "cache", type: "Person")
  /// ```
  case neverNotifies(keyPath: String, key: String, type: String)

  /// A change record lacks what applying it needs: `missing` is
  /// ``KeyValueChangeKey/new``, ``KeyValueChangeKey/old`` or
  /// ``KeyValueChangeKey/indexes``. An inverse takes its new value from the
  /// original's old one, so it needs a change observed with `.old`.
  ///
  /// ```swift
  /// try person.apply(KeyValueObservedChange(kind: .setting), to: \.name)
  /// // throws .incompleteChange(key: "name", type: "Person", kind: .setting, missing: .new)
  /// ```
  case incompleteChange(key: String, type: String, kind: KeyValueChange, missing: KeyValueChangeKey)

  /// A change record's indexes lie outside the array it is applied to,
  /// which holds `count` elements.
  ///
  /// ```swift
  /// try person.apply(KeyValueObservedChange(kind: .removal, indexes: [5..<6]), to: \.tags)
  /// // throws .indexesOutOfRange(key: "tags", type: "Person", indexes: [5..<6], count: 2)
  /// ```
  case indexesOutOfRange(key: String, type: String, indexes: KeyValueIndexSet, count: Int)

  /// A change record names one number of indexes and carries another
  /// number of elements (`elementCount`).
  ///
  /// ```swift
  /// try person.apply(KeyValueObservedChange(kind: .insertion, newValue: ["a", "b"], indexes: [0..<1]), to: \.tags)
  /// // throws .elementCountMismatch(key: "tags", type: "Person", indexes: [0..<1], elementCount: 2)
  /// ```
  case elementCountMismatch(key: String, type: String, indexes: KeyValueIndexSet, elementCount: Int)

  /// A removal or replacement record whose old elements are not the ones
  /// the array holds at its indexes now: the array changed since the change
  /// was recorded, and applying it would take out other elements.
  ///
  /// ```swift
  /// try person.apply(removalOfB, to: \.tags)  // tags is ["a", "c"] now
  /// // throws .elementsChanged(key: "tags", type: "Person", indexes: [1..<2])
  /// ```
  case elementsChanged(key: String, type: String, indexes: KeyValueIndexSet)

  /// A to-many change record (an insertion, removal or replacement) names
  /// a property that holds neither an array nor a set.
  ///
  /// ```swift
  /// try person.apply(KeyValueObservedChange(kind: .insertion, newValue: 1, indexes: [0..<1]), to: \.age)
  /// // throws .notACollection(key: "age", type: "Person", kind: .insertion)
  /// ```
  case notACollection(key: String, type: String, kind: KeyValueChange)

  /// What went wrong, in a sentence.
  ///
  /// ```swift
  /// print(KeyValueCodingError.unknownKey(key: "nmae", type: "Person"))
  /// // Person has no property "nmae" that key-value coding can reach
  /// ```
  public var description: String {
    switch self {
    case .emptyKey(let keyPath, let type):
      keyPath.isEmpty ? "empty key for \(type)" : "empty component in key path \"\(keyPath.abbreviated)\" for \(type)"
    case .unknownKey(let key, let type):
      "\(type) has no property \"\(key.abbreviated)\" that key-value coding can reach"
    case .typeMismatch(let key, let type, let expected, let actual):
      "\(type).\(key.abbreviated) holds \(expected); a value of type \(actual) cannot be set"
    case .readOnly(let key, let type):
      "\(type).\(key.abbreviated) is read-only"
    case .nilIntermediate(let keyPath, let key, let type):
      "\(type).\(key.abbreviated) is nil, so key path \"\(keyPath.abbreviated)\" cannot go on"
    case .notAnObservableObject(let keyPath, let key, let type):
      "\(type).\(key.abbreviated) does not hold a @KeyValueObservable object, "
        + "so key path \"\(keyPath.abbreviated)\" cannot go on"
    case .incompleteChange(let key, let type, let kind, let missing):
      "the \(kind) record of \(type).\(key.abbreviated) has no \(missing.changePart), so it cannot be applied"
        + (missing == .new ? " (an inverse takes it from the original's old value: observe with .old)" : "")
    case .indexesOutOfRange(let key, let type, let indexes, let count):
      "indexes \(indexes) are out of range for \(type).\(key.abbreviated), which holds \(count.elementCount)"
    case .elementCountMismatch(let key, let type, let indexes, let elementCount):
      "a change of \(type).\(key.abbreviated) at \(indexes.count) \(indexes.count == 1 ? "index" : "indexes") (\(indexes)) "
        + "carries \(elementCount.elementCount)"
    case .elementsChanged(let key, let type, let indexes):
      "the elements of \(type).\(key.abbreviated) at \(indexes) are not the ones the record changes: "
        + "the array changed since the change was recorded"
    case .notACollection(let key, let type, let kind):
      "\(type).\(key.abbreviated) holds neither an array nor a set, so a record of kind \(kind) cannot be applied to it"
    case .neverNotifies(let keyPath, let key, let type) where keyPath == key:
      "\(type).\(key.abbreviated) cannot be observed: no assignment notifies it (it is @KeyValueIgnored, lazy or property-wrapped)"
    case .neverNotifies(let keyPath, let key, let type):
      "\(type).\(key.abbreviated) cannot be observed: no assignment notifies it (it is @KeyValueIgnored, lazy or property-wrapped), "
        + "so key path \"\(keyPath.abbreviated)\" would never fire"
    }
  }
}

extension KeyValueChangeKey {
  /// The part of a change record this key names, for messages: "new
  /// value", "old value", "indexes".
  fileprivate var changePart: String {
    switch self {
    case .new: "new value"
    case .old: "old value"
    default: rawValue
    }
  }
}
