/// What the macro-generated key table of a class is built with: one call per
/// property, in declaration order. A property's key path comes in as the
/// `case` pattern its line matches against the key the call returns (see
/// ``_KeyValueKey/~=(_:_:)``).
///
/// Not generic over the class: what a line hands over is typed by the
/// property's value alone, so that the code behind a line is compiled once
/// per value type in a module, not once per property.
///
/// Not API: the table `@KeyValueObservable` writes calls it.
public final class _KeyValueKeyTableBuilder {
  var stored: [_KeyValueKey] = []
  var others: [_KeyValueKey] = []
  var readOnlyKeys: [String] = []
  var overriddenKeys: [String] = []

  init() {}

  /// The next observable stored property, whose storage the table reaches
  /// through `get`, which reads an object's, and `modify`, which hands it
  /// to a body in place. `keyedByString: false` for a `private` one, which
  /// key-value coding does not find by name.
  ///
  /// Specialised where the table is built, once per value type, so that
  /// the jobs done on the storage (an assignment by string, a proxy's
  /// mutation in place, a chain's read) run as code specialised for the
  /// value type (see ``_KeyValueTypedStorage``).
  ///
  /// The line matches the key against the property's key path, and a
  /// second pattern against the same property's key path rooted at an
  /// optional of the class (see ``_KeyValueOptionalRootMatch``).
  @inlinable @inline(never)
  public func stored<Value>(
    _ name: String,
    keyedByString: Bool = true,
    get: @escaping (AnyObject) -> Value,
    modify: @escaping ((inout Value) -> Void, AnyObject) -> Void
  ) -> (_KeyValueKey, _KeyValueOptionalRootMatch) {
    let storage = _KeyValueTypedStorage(hasPropertyObservers: false, get: get, modify: modify)
    let key = append(stored: _KeyValueKey(name, isKeyedByString: keyedByString, storage: { $0.perform(storage) }))
    return (key, _KeyValueOptionalRootMatch(key: key))
  }

  /// The next observable stored property, whose storage the table reaches
  /// only through its key path, the third pattern of the line: a property
  /// with observers of its own.
  public func stored(
    _ name: String,
    keyedByString: Bool = true
  ) -> (_KeyValueKey, _KeyValueOptionalRootMatch, _KeyValueKeyStorageMatch) {
    let key = append(stored: _KeyValueKey(name, isKeyedByString: keyedByString))
    return (key, _KeyValueOptionalRootMatch(key: key), _KeyValueKeyStorageMatch(key: key))
  }

  /// Adds `key` to the observable stored properties and returns it.
  @usableFromInline
  func append(stored key: _KeyValueKey) -> _KeyValueKey {
    stored.append(key)
    return key
  }

  /// A stored property that announces nothing: an ignored or a lazy one.
  /// Readable by string; a string key path that reads it and nothing
  /// observable is refused, naming it.
  public func unannounced(_ name: String) -> _KeyValueKey {
    let key = _KeyValueKey(name, isUnannounced: true)
    others.append(key)
    return key
  }

  /// A readable property that is not an observable stored one, nor a
  /// constant, nor an unannounced stored one: a computed property the
  /// table has no getter for (an override, one with attributes), or
  /// another the macro cannot classify.
  public func other(_ name: String) -> _KeyValueKey {
    let key = _KeyValueKey(name)
    others.append(key)
    return key
  }

  /// A constant (`let`) property: readable by string, and observable by
  /// string as Objective-C KVO allows, with a registration that never
  /// fires.
  public func constant(_ name: String) -> _KeyValueKey {
    let key = _KeyValueKey(name, isConstant: true)
    others.append(key)
    return key
  }

  /// A computed property with its getter, which observing it calls instead
  /// of projecting its key path. `@MainActor`, so that it compiles whether
  /// the getter is isolated to the main actor or not (see
  /// ``KeyValueObservable/_$kvoGetter(for:)``).
  public func computed<Root, Value>(_ name: String, _ getter: @escaping @MainActor (Root) -> Value) -> _KeyValueKey {
    let key = _KeyValueKey(name, getter: getter)
    others.append(key)
    return key
  }

  /// Properties whose setter is `private(set)` or `fileprivate(set)`:
  /// readable by string, never set by string.
  public func readOnly(_ names: String...) {
    readOnlyKeys += names
  }

  /// Properties of a superclass that the class overrides.
  public func overrides(_ names: String...) {
    overriddenKeys += names
  }
}
