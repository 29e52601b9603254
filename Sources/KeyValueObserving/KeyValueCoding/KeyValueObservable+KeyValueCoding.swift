extension KeyValueObservable {
  /// The value of the property called `key`: any observable stored
  /// property, and any other readable instance property the class declares
  /// (constants, computed, lazy and ignored properties). An optional
  /// property that holds `nil` gives `nil`, one that holds a value gives the
  /// value itself.
  ///
  /// Access control holds by string as in code: a `private` or
  /// `fileprivate` property cannot be reached at all (`.unknownKey`, and it
  /// cannot be observed by string either); one with a `private(set)` or
  /// `fileprivate(set)` setter is readable but not settable (`.readOnly`).
  ///
  /// Driven by the table the macro writes: no reflection at call time.
  ///
  /// ```swift
  /// let person = Person(name: "Ada", age: 36)
  /// try person.value(forKey: "name") as? String  // "Ada"
  /// try person.value(forKey: "summary")          // "Ada, 36" (computed)
  /// try person.value(forKey: "nmae")             // throws .unknownKey
  /// ```
  ///
  /// - Throws: ``KeyValueCodingError/emptyKey(keyPath:type:)`` or
  ///   ``KeyValueCodingError/unknownKey(key:type:)``.
  public func value(forKey key: String) throws(KeyValueCodingError) -> Any? {
    let keyPath = try Self.readableKeyPath(forKey: key)
    return flattened(self[keyPath: keyPath])
  }

  /// Sets the property called `key` through its setter, so that its
  /// observers are notified once, as for an assignment. `nil` sets an
  /// optional property to `nil`. A failed set changes nothing.
  ///
  /// A computed property with a setter is announced here, as Objective-C
  /// KVO announces it: its observers — by key path and by string — are
  /// told, with its getter read before and after, whatever storage the
  /// setter writes (a defaults store, a C struct, another object). A
  /// plain assignment to it in code announces nothing the setter does not
  /// itself write to observable properties: announce it in the setter with
  /// ``withChange(for:_:)`` where that matters.
  ///
  /// ```swift
  /// try person.setValue(37, forKey: "age")       // observers of age are notified
  /// try person.setValue(nil, forKey: "nickname") // an optional property
  /// try person.setValue("37", forKey: "age")     // throws .typeMismatch
  /// try person.setValue(2, forKey: "id")         // throws .readOnly
  /// try account.setValue(0, forKey: "balance")   // private(set): throws .readOnly
  /// ```
  ///
  /// - Throws: ``KeyValueCodingError`` when `key` is empty or unknown, when
  ///   the property is read-only, or when `value` is not of its type.
  public func setValue(_ value: Any?, forKey key: String) throws(KeyValueCodingError) {
    // An observable stored property: assigned by the class's own table,
    // as typed code.
    let keys = Self._$kvoKeys
    if let slot = keys.slot(forKey: key) {
      guard !keys.isReadOnly(forKey: key) else { throw .readOnly(key: key, type: "\(Self.self)") }
      func assign(_ value: UnsafePointer<Any>?) -> (handled: Bool, outcome: _KeyValueStorageAccess.Outcome) {
        accessStorage(ofSlot: slot, .assign(object: .passUnretained(self), value: value, slot: slot), staticKeys: keys)
      }
      // The value where it lies, not copied out of its optional: an `Any?`
      // that holds a value is laid out as that `Any` (its `nil` is an
      // extra inhabitant of the type field).
      let (handled, outcome) = withUnsafePointer(to: value) { optional in
        assign(value == nil ? nil : UnsafeRawPointer(optional).assumingMemoryBound(to: Any.self))
      }
      if handled {
        guard let expected = outcome.mismatchedType else { return }
        throw .typeMismatch(
          key: key, type: "\(Self.self)", expected: "\(expected)", actual: value.map { "\(type(of: $0))" } ?? "nil"
        )
      }
    }
    // Any other property, through its key path.
    let keyPath = try Self.readableKeyPath(forKey: key)
    let typeName = "\(Self.self)"
    guard !Self._$kvoIsReadOnly(forKey: key) else { throw .readOnly(key: key, type: typeName) }
    let keyPathType = type(of: keyPath)
    // A computed property's setter announces nothing itself (the macro
    // cannot see what it writes: a defaults store, a C struct, another
    // object), so its write is announced here, as Objective-C KVO's
    // swizzled setter announces it: its observers read the getter before
    // and after. Changes its setter makes to observable properties join
    // this one.
    let announced = Self._$kvoFilingKeyPath(ofComputed: keyPath) == nil ? nil : _$kvoObservedStorage?.takeUnretainedValue()

    // Opens the key path's root and value types, then writes through it.
    func write<Root>(_: Root.Type) -> KeyValueCodingError? {
      func write<Value>(_: Value.Type) -> KeyValueCodingError? {
        guard let writable = keyPath as? ReferenceWritableKeyPath<Root, Value>, let root = self as? Root else {
          return .readOnly(key: key, type: typeName)
        }
        let newValue: Value
        if let value {
          guard let converted = value as? Value else {
            return .typeMismatch(key: key, type: typeName, expected: "\(Value.self)", actual: "\(type(of: value))")
          }
          newValue = converted
        } else if let optional = Value.self as? any OptionalValue.Type, let none = optional.nilValue as? Value {
          newValue = none
        } else {
          return .typeMismatch(key: key, type: typeName, expected: "\(Value.self)", actual: "nil")
        }
        announced?.forwardManualChange(of: keyPath, isPrior: true)
        root[keyPath: writable] = newValue
        announced?.forwardManualChange(of: keyPath, isPrior: false)
        return nil
      }
      return _openExistential(keyPathType.valueType, do: write)
    }
    if let error = _openExistential(keyPathType.rootType, do: write) {
      throw error
    }
  }

  /// The value at a dotted key path such as `"address.city"`: each
  /// component but the last must hold a `@KeyValueObservable` object.
  ///
  /// ```swift
  /// try person.value(forKeyPath: "address.city") as? String
  /// ```
  ///
  /// - Throws: ``KeyValueCodingError`` for an empty path or component
  ///   (`"a..b"`), an unknown key, a `nil` intermediate, or an intermediate
  ///   that is not an observable object.
  public func value(forKeyPath keyPath: String) throws(KeyValueCodingError) -> Any? {
    let (object, key) = try destination(of: keyPath)
    return try object.value(forKey: key)
  }

  /// Sets the value at a dotted key path such as `"address.city"`, through
  /// the last object's setter (its observers, and those of any chain through
  /// it, are notified once; a computed last property's write is announced
  /// to the observations of that property on the last object, as
  /// ``setValue(_:forKey:)`` announces it).
  ///
  /// ```swift
  /// try person.setValue("Oslo", forKeyPath: "address.city")
  /// ```
  ///
  /// - Throws: ``KeyValueCodingError`` as ``value(forKeyPath:)`` and
  ///   ``setValue(_:forKey:)`` do.
  public func setValue(_ value: Any?, forKeyPath keyPath: String) throws(KeyValueCodingError) {
    let (object, key) = try destination(of: keyPath)
    try object.setValue(value, forKey: key)
  }

  /// The object that holds the last component of `path`, and that
  /// component.
  private func destination(of path: String) throws(KeyValueCodingError) -> (any KeyValueObservable, String) {
    let components = try Self.components(of: path)
    var object: any KeyValueObservable = self
    for key in components.dropLast() {
      let typeName = "\(type(of: object))"
      guard let next = try object.value(forKey: key) else {
        throw .nilIntermediate(keyPath: path, key: key, type: typeName)
      }
      guard let observable = next as? any KeyValueObservable else {
        throw .notAnObservableObject(keyPath: path, key: key, type: typeName)
      }
      object = observable
    }
    return (object, components[components.count - 1])
  }

  /// The keys of a dotted key path; an empty path or component throws.
  static func components(of path: String) throws(KeyValueCodingError) -> [String] {
    let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard !components.contains(where: \.isEmpty) else {
      throw .emptyKey(keyPath: path, type: "\(Self.self)")
    }
    return components
  }

  /// The key path of the property called `key`.
  static func readableKeyPath(forKey key: String) throws(KeyValueCodingError) -> AnyKeyPath {
    guard !key.isEmpty else { throw .emptyKey(keyPath: key, type: "\(Self.self)") }
    if let slot = _$kvoSlot(forKey: key), let keyPath = _$kvoKeyPath(forSlot: slot) {
      return keyPath
    }
    guard let keyPath = _$kvoOtherKeyPath(forKey: key) else {
      throw unknownKeyError(key)
    }
    return keyPath
  }
}
