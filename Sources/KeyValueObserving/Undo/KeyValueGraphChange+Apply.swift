extension KeyValueGraphChange {
  /// Makes the change this record describes on its object, as
  /// ``KeyValueObservable/apply(_:to:)`` makes a typed one: through the
  /// key's setter or its collection proxy, notifying observers as the
  /// original change did.
  ///
  /// The record's values are cast to the property's type first: a setting's
  /// whole value (an optional property's as an optional), a to-many
  /// change's elements as an array or a set. A record that does not fit
  /// throws, and changes nothing.
  ///
  /// ```swift
  /// var changes: [KeyValueGraphChange] = []
  /// let token = document.observeGraph { changes.append($0) }
  /// document.items[0].text = "Milk"
  ///
  /// try changes[0].inverse.apply()  // the text is back, observers told
  /// try changes[0].apply()          // and "Milk" again
  /// ```
  ///
  /// - Throws: What ``KeyValueObservable/apply(_:to:)`` throws, and
  ///   ``KeyValueCodingError/typeMismatch(key:type:expected:actual:)`` when a
  ///   value is not of the property's type;
  ///   ``KeyValueCodingError/readOnly(key:type:)`` when the key path cannot
  ///   write (a constant, or a computed property without a setter; Swift
  ///   makes the key path of a stored `private(set)` property writable
  ///   wherever it is made, so a record of one applies, as undo needs);
  ///   ``KeyValueCodingError/unknownKey(key:type:)`` when the key path is
  ///   not rooted at the object's class or a superclass of it.
  public func apply() throws(KeyValueCodingError) {
    try object.apply(erased: change, at: keyPath, key: key)
  }
}

extension KeyValueObservable {
  /// ``KeyValueGraphChange/apply()`` on this object, whose class is the
  /// one `keyPath` is rooted at or a subclass of it.
  func apply(erased change: KeyValueObservedChange<Any>, at keyPath: AnyKeyPath, key: String) throws(KeyValueCodingError) {
    guard let root = type(of: keyPath).rootType as? any KeyValueObservable.Type else {
      throw .unknownKey(key: key, type: "\(Self.self)")
    }
    try root.apply(erased: change, at: keyPath, key: key, to: self)
  }

  /// ``KeyValueGraphChange/apply()`` where `Self` is the class `keyPath` is
  /// rooted at: its value type opened, the record cast to it, and the
  /// typed ``apply(_:to:)`` called.
  static func apply(
    erased change: KeyValueObservedChange<Any>,
    at keyPath: AnyKeyPath,
    key: String,
    to object: any KeyValueObservable
  ) throws(KeyValueCodingError) {
    let typeName = "\(type(of: object))"
    guard let root = object as? Self else { throw .unknownKey(key: key, type: typeName) }
    func apply<Value>(_: Value.Type) -> KeyValueCodingError? {
      guard let writable = keyPath as? ReferenceWritableKeyPath<Self, Value> else {
        return .readOnly(key: key, type: typeName)
      }
      do throws(KeyValueCodingError) {
        try root.apply(change.cast(to: Value.self, key: key, type: typeName), to: writable)
        return nil
      } catch {
        return error
      }
    }
    if let error = _openExistential(type(of: keyPath).valueType, do: apply) {
      throw error
    }
  }
}

extension KeyValueObservedChange<Any> {
  /// The same change with its values cast to `Target`, where each lies
  /// (see `assignable(_:as:)`), or a type mismatch naming the first that is
  /// not one.
  func cast<Target>(to _: Target.Type, key: String, type: String) throws(KeyValueCodingError) -> KeyValueObservedChange<Target> {
    func cast(_ value: Any?) throws(KeyValueCodingError) -> Target? {
      guard let value else { return nil }
      guard let cast = withUnsafePointer(to: value, { assignable($0, as: Target.self) }) else {
        throw .typeMismatch(key: key, type: type, expected: "\(Target.self)", actual: "\(Swift.type(of: value))")
      }
      return cast
    }
    return KeyValueObservedChange<Target>(
      kind: kind, newValue: try cast(newValue), oldValue: try cast(oldValue), positions: positions, isPrior: isPrior
    )
  }
}
