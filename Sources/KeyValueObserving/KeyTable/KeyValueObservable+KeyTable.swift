// What the runtime asks about a class's keys, answered from its key table
// (``KeyValueObservable/_$kvoKeys``). Called on the object's dynamic type,
// they reach the table of the most derived marked class.

extension KeyValueObservable {
  /// The slot of the observable stored property `keyPath` names: for a
  /// class whose key paths are all rooted at itself or at a superclass, a
  /// search of its table.
  ///
  /// ```swift
  /// Person._$kvoSlot(for: \Person.name)  // 0
  /// ```
  public static func _$kvoSlot(for keyPath: AnyKeyPath) -> Int? {
    _$kvoKeys.slot(for: keyPath)
  }

  /// How many observable keys the class has, its superclasses' included.
  ///
  /// ```swift
  /// Person._$kvoKeyCount  // 2 for `var name`, `var age`
  /// ```
  public static var _$kvoKeyCount: Int { _$kvoKeys.keyCount }

  /// The slot of the observable stored property called `key`.
  ///
  /// ```swift
  /// Person._$kvoSlot(forKey: "age")  // 1
  /// ```
  public static func _$kvoSlot(forKey key: String) -> Int? {
    _$kvoKeys.slot(forKey: key)
  }

  /// The name of the observable stored property at `slot`.
  ///
  /// ```swift
  /// Person._$kvoKey(forSlot: 1)  // "age"
  /// ```
  public static func _$kvoKey(forSlot slot: Int) -> String? {
    _$kvoKeys.key(forSlot: slot)?.name
  }

  /// A key path to the observable stored property at `slot`, rooted at the
  /// class that declares it.
  ///
  /// ```swift
  /// Person._$kvoKeyPath(forSlot: 1)  // \Person.age
  /// ```
  public static func _$kvoKeyPath(forSlot slot: Int) -> AnyKeyPath? {
    _$kvoKeys.key(forSlot: slot)?.keyPath
  }

  /// The same key path rooted at an optional of the class that declares
  /// the property (`\Person?.?.age`).
  static func optionallyRootedKeyPath(forSlot slot: Int) -> AnyKeyPath? {
    _$kvoKeys.key(forSlot: slot)?.optionallyRootedKeyPath
  }

  /// The class whose table this is: the most derived class the macro
  /// marked. An object whose dynamic type is another one belongs to a
  /// subclass the macro did not see, whose overrides the table cannot know.
  static var _$kvoMarkedType: AnyObject.Type { _$kvoKeys.markedType }

  /// A key path to the readable property called `key` that is not an
  /// observable stored one (a constant, a computed or an ignored
  /// property), rooted at the class that declares it.
  static func _$kvoOtherKeyPath(forKey key: String) -> AnyKeyPath? {
    _$kvoKeys.otherKey(forKey: key)?.keyPath
  }

  /// The getter of the computed property `keyPath` names, as a
  /// `@MainActor` function from the class that declares it to the
  /// property's type, when the class declares it with a getter the table
  /// can call: observing it then reads it with a direct call, not a key
  /// path projection. `@MainActor` only so that it compiles whether the
  /// getter is isolated to the main actor or not (the macro cannot see a
  /// module's default isolation); the function has the layout of a plain
  /// one, and the runtime calls it where it would read the key path.
  static func _$kvoGetter(for keyPath: AnyKeyPath) -> Any? {
    _$kvoKeys.key(for: keyPath)?.getter
  }

  /// Whether the property called `key` is a constant (`let`).
  static func _$kvoIsConstant(forKey key: String) -> Bool {
    _$kvoKeys.otherKey(forKey: key)?.isConstant ?? false
  }

  /// The key path the observations of the property `keyPath` names are
  /// filed under, and its announcements made under (see
  /// ``_KeyValueKeyTable/filingKeyPath(for:)``): the same whatever class
  /// of the hierarchy `keyPath` is rooted at.
  static func _$kvoFilingKeyPath(_ keyPath: AnyKeyPath) -> AnyKeyPath {
    _$kvoKeys.filingKeyPath(for: keyPath)
  }

  /// The filing key path of the computed property of the class or a
  /// superclass that `keyPath` names, whose writes key-value coding and
  /// bindings announce; `nil` for any other key path.
  static func _$kvoFilingKeyPath(ofComputed keyPath: AnyKeyPath) -> AnyKeyPath? {
    _$kvoKeys.filingKeyPath(ofComputed: keyPath)
  }

  /// Whether the property called `key` is stored but announces nothing:
  /// an ignored or a lazy one.
  static func _$kvoIsUnannounced(forKey key: String) -> Bool {
    _$kvoSlot(forKey: key) == nil && _$kvoKeys.otherKey(forKey: key)?.isUnannounced == true
  }

  /// Whether the property called `key` has a `private(set)` or
  /// `fileprivate(set)` setter, which key-value coding must not call by
  /// string (the key path the class builds for itself is writable).
  static func _$kvoIsReadOnly(forKey key: String) -> Bool {
    _$kvoKeys.isReadOnly(forKey: key)
  }

  /// The name of the property `keyPath` names, when it is one property of
  /// the class (observable or not), for messages: on some platforms a key
  /// path to a macro-written property describes itself as
  /// `<computed 0x…>`.
  static func _$kvoName(for keyPath: AnyKeyPath) -> String? {
    _$kvoKeys.key(for: keyPath)?.name
  }
}
