/// The keys of one class marked `@KeyValueObservable`: its observable stored
/// properties in slot order, after its superclass's, and the other
/// properties key-value coding reads by name.
///
/// The macro writes one table per class, built once on first use, one line
/// per property (see ``_KeyValueKeyTableBuilder``); every question the
/// runtime asks about a class's keys — the slot of a key path or of a
/// string, the name of a slot, the storage behind it — is answered here,
/// from data, by code compiled once in this module. The class's accessors
/// never consult it: they know their slot.
///
/// Not API: macro-generated members build it.
public final class _KeyValueKeyTable: @unchecked Sendable {
  // @unchecked Sendable: built completely before anyone else sees it (in a
  // static constant's initializer, or before it enters the generic cache),
  // and never changed afterwards.

  /// The class the macro marked, whose table this is (see
  /// ``KeyValueObservable/_$kvoMarkedType``).
  let markedType: AnyObject.Type
  /// The table of the nearest marked superclass.
  let superTable: _KeyValueKeyTable?
  /// The slot of the first of this class's own keys: its superclass's key
  /// count.
  public let firstSlot: Int
  /// This class's observable stored properties, in slot order.
  let stored: [_KeyValueKey]
  /// This class's other readable properties: constants, computed and
  /// ignored properties.
  let others: [_KeyValueKey]
  /// Names of properties whose setter is `private(set)` or
  /// `fileprivate(set)`.
  let readOnlyKeys: [String]
  /// Whether this class or a superclass has read-only keys: most have none,
  /// and a setter by string then asks nothing more.
  let hasReadOnlyKeys: Bool
  /// The superclass's slots whose properties this class overrides: their
  /// storage is the superclass's, but the override's accessors must run.
  let overriddenSlots: [Int]
  /// What the storage jobs need of the class as a whole.
  @usableFromInline let classFunctions: ClassFunctions
  /// What hands the events of each of this class's own observable stored
  /// properties to Swift Observation, in slot order, in a class that it
  /// tracks (see ``ObservationReporter``); empty in any other. Unmanaged,
  /// so that an event borrows its reporter without a retain and a release
  /// (each an atomic operation); the table owns them.
  @usableFromInline let observationReporters: [Unmanaged<AnyObject>?]

  /// Functions of an object of the class (or of a subclass) that the
  /// storage jobs call: made where the table is built, with the class's
  /// type, so that each is a direct read or call.
  /// A class, so that a job borrows one reference instead of copying
  /// three closures.
  @usableFromInline
  final class ClassFunctions {
    /// The object's observation storage (its `_$kvoObservedStorage`).
    @usableFromInline let observedStorage: (AnyObject) -> Unmanaged<_KeyValueObservationStorage>?
    /// Runs a change of the object's slot as one mutation, as Swift
    /// Observation sees it (its `_$kvoObservedMutation(ofSlot:_:)`); `nil`
    /// for a class that is not `Observable`, whose changes are just made.
    @usableFromInline let observedMutation: ((AnyObject, Int, () -> Void) -> Void)?
    /// The object as the observable it is, for code generic over it.
    @usableFromInline let observable: (AnyObject) -> any KeyValueObservable

    @inlinable
    init<Root: KeyValueObservable>(of _: Root.Type) {
      observable = { unsafeDowncast($0, to: Root.self) }
      observedStorage = { unsafeDowncast($0, to: Root.self)._$kvoObservedStorage }
      observedMutation =
        isTrackedByObservation(Root.self)
        ? { object, slot, mutation in unsafeDowncast(object, to: Root.self)._$kvoObservedMutation(ofSlot: slot, mutation) }
        : nil
    }
  }

  /// Builds the table of `type` with `build`, after the keys of
  /// `superTable`.
  ///
  /// ```swift
  /// let table = _KeyValueKeyTable(Person.self) { _ = $0 }
  /// ```
  @inlinable
  public convenience init<Root: KeyValueObservable>(
    _ type: Root.Type,
    after superTable: _KeyValueKeyTable? = nil,
    _ build: (_KeyValueKeyTableBuilder) -> Void
  ) {
    self.init(type, ClassFunctions(of: type), after: superTable, build)
  }

  @usableFromInline
  init(
    _ type: AnyObject.Type,
    _ classFunctions: ClassFunctions,
    after superTable: _KeyValueKeyTable?,
    _ build: (_KeyValueKeyTableBuilder) -> Void
  ) {
    let builder = _KeyValueKeyTableBuilder()
    build(builder)
    markedType = type
    self.superTable = superTable
    self.classFunctions = classFunctions
    firstSlot = superTable?.keyCount ?? 0
    stored = builder.stored
    others = builder.others
    readOnlyKeys = builder.readOnlyKeys
    hasReadOnlyKeys = !readOnlyKeys.isEmpty || (superTable?.hasReadOnlyKeys ?? false)
    overriddenSlots = superTable.map { table in builder.overriddenKeys.compactMap { table.slot(forKey: $0) } } ?? []
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), classFunctions.observedMutation != nil {
      observationReporters = stored.map { key in
        key.keyPath.flatMap { ObservationReporter.make(for: $0) }.map { Unmanaged.passRetained($0 as AnyObject) }
      }
    } else {
      observationReporters = []
    }
  }

  deinit {
    for reporter in observationReporters {
      reporter?.release()
    }
  }

  /// The reporter of the property at `slot`, this class's or a
  /// superclass's, if Swift Observation tracks the class.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @usableFromInline
  func observationReporter(forSlot slot: Int) -> Unmanaged<ObservationReporter>? {
    guard slot >= firstSlot else { return superTable?.observationReporter(forSlot: slot) }
    return ownObservationReporter(forSlot: slot)
  }

  /// The reporter of one of this class's own properties, or `nil` for
  /// any other slot. Inlined into each tracked class's event member, which
  /// finds its properties' reporters with a subtraction and a bounds check.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @inlinable @inline(__always)
  func ownObservationReporter(forSlot slot: Int) -> Unmanaged<ObservationReporter>? {
    let index = slot &- firstSlot
    guard index >= 0, index < observationReporters.count, let reporter = observationReporters[index] else { return nil }
    return Unmanaged.fromOpaque(reporter.toOpaque())
  }

  /// The tables of generic classes (and classes inside generic types),
  /// which cannot hold a static constant: one per specialization.
  private static let generic = LockedState([ObjectIdentifier: _KeyValueKeyTable]())

  /// The table of `type`, a generic class or one inside a generic type:
  /// built on first use, once per specialization, and kept.
  @inlinable
  public static func shared<Root: KeyValueObservable>(
    _ type: Root.Type,
    after superTable: @autoclosure () -> _KeyValueKeyTable? = nil,
    _ build: (_KeyValueKeyTableBuilder) -> Void
  ) -> _KeyValueKeyTable {
    shared(type, ClassFunctions(of: type), after: superTable, build)
  }

  @usableFromInline
  static func shared(
    _ type: AnyObject.Type,
    _ classFunctions: @autoclosure () -> ClassFunctions,
    after superTable: () -> _KeyValueKeyTable?,
    _ build: (_KeyValueKeyTableBuilder) -> Void
  ) -> _KeyValueKeyTable {
    let id = ObjectIdentifier(type)
    if let table = generic.withLock({ $0[id] }) { return table }
    // Built outside the lock: the superclass's table may be built here too.
    let table = _KeyValueKeyTable(type, classFunctions(), after: superTable(), build)
    return generic.withLock { tables in
      if let first = tables[id] { return first }
      tables[id] = table
      return table
    }
  }

  /// How many observable keys the class has, its superclasses' included.
  public var keyCount: Int { firstSlot + stored.count }

  /// The slot of the observable stored property `keyPath` names, rooted at
  /// this class or at a superclass.
  func slot(for keyPath: AnyKeyPath) -> Int? {
    ownSlot(for: keyPath) ?? superTable?.slot(for: keyPath)
  }

  /// The slot of one of this class's own observable stored properties that
  /// `keyPath` names, rooted at this class.
  private func ownSlot(for keyPath: AnyKeyPath) -> Int? {
    stored.firstIndex { $0.keyPath == keyPath }.map { firstSlot + $0 }
  }

  /// The slot of the observable stored property `keyPath` names, for a
  /// class whose subclasses may form key paths to its properties rooted at
  /// themselves: a key path rooted at this class is found in the table, one
  /// rooted at `root`, a subclass, by `probe` — the class's own cases,
  /// written with that root — once per key path and root.
  public func slot(for keyPath: AnyKeyPath, in root: AnyObject.Type, probe: () -> Int?) -> Int? {
    if let slot = ownSlot(for: keyPath) { return slot }
    guard ObjectIdentifier(root) != ObjectIdentifier(markedType) else { return nil }
    return _KeyPathSlotCache.slot(for: keyPath, in: root, declaredIn: markedType, orCompute: probe)
  }

  /// The slot of the observable stored property called `key`; private ones
  /// have none.
  func slot(forKey key: String) -> Int? {
    if let index = stored.firstIndex(where: { $0.isKeyedByString && $0.name == key }) { return firstSlot + index }
    return superTable?.slot(forKey: key)
  }

  /// The key of `slot`, this class's or a superclass's.
  func key(forSlot slot: Int) -> _KeyValueKey? {
    guard slot >= firstSlot else { return superTable?.key(forSlot: slot) }
    return slot - firstSlot < stored.count ? stored[slot - firstSlot] : nil
  }

  /// Hands `access` the storage of the property at `slot`; `false` where
  /// this class overrides it.
  func accessStorage(ofSlot slot: Int, _ access: _KeyValueStorageAccess) -> Bool {
    guard slot >= firstSlot else {
      return !overriddenSlots.contains(slot) && (superTable?.accessStorage(ofSlot: slot, access) ?? false)
    }
    let index = slot - firstSlot
    return index < stored.count && stored[index].storage?(access) == true
  }

  /// The property `keyPath` names among this class's keys, stored or not,
  /// or its superclasses'.
  func key(for keyPath: AnyKeyPath) -> _KeyValueKey? {
    stored.first { $0.keyPath == keyPath } ?? others.first { $0.keyPath == keyPath } ?? superTable?.key(for: keyPath)
  }

  /// The readable property called `key` that is not an observable stored
  /// one.
  func otherKey(forKey key: String) -> _KeyValueKey? {
    others.first { $0.name == key } ?? superTable?.otherKey(forKey: key)
  }

  /// Whether the property called `key` is read-only by string.
  func isReadOnly(forKey key: String) -> Bool {
    hasReadOnlyKeys && (readOnlyKeys.contains(key) || (superTable?.isReadOnly(forKey: key) ?? false))
  }
}

/// One property in a ``_KeyValueKeyTable``: its name, its key path, and,
/// for an observable stored property, its storage; for a computed one, its
/// getter where the table has it.
///
/// Not API: ``_KeyValueKeyTableBuilder`` makes them.
public final class _KeyValueKey {
  /// The property's name.
  @usableFromInline let name: String
  /// Whether key-value coding finds the property by its name: not for a
  /// `private` observable property, which keeps its slot.
  @usableFromInline let isKeyedByString: Bool
  /// The property's key path, rooted at the class that declares it; set by
  /// the `case` pattern that names it (see ``~=(_:_:)``). Like ``storage``,
  /// set while the table is built and only read afterwards: unchecked, so
  /// that reading it costs no exclusivity check.
  @exclusivity(unchecked) private(set) var keyPath: AnyKeyPath?
  /// The same property's key path rooted at an optional of the class,
  /// `\Person?.?.name`: what a key path through an optional link
  /// (`\Team.lead?.name`) is made of past that link (see `StoredChain`).
  /// Set by the line's second pattern, as ``keyPath`` by its first.
  @exclusivity(unchecked) fileprivate(set) var optionallyRootedKeyPath: AnyKeyPath?
  /// Does a job on the property's backing storage with its types: a
  /// function compiled where the table is built (see
  /// ``_KeyValueStorageAccess``).
  @exclusivity(unchecked) @usableFromInline var storage: ((_KeyValueStorageAccess) -> Bool)?
  /// The getter of a computed property, as a `@MainActor (Root) -> Value`
  /// (see ``KeyValueObservable/_$kvoGetter(for:)``).
  @usableFromInline let getter: Any?
  /// Whether the property is a constant (`let`): observable by string,
  /// never changing.
  @usableFromInline let isConstant: Bool
  /// Whether the property is stored but announces nothing: an ignored or a
  /// lazy one (see ``_KeyValueKeyTableBuilder/unannounced(_:)``).
  @usableFromInline let isUnannounced: Bool

  @usableFromInline
  init(
    _ name: String,
    isKeyedByString: Bool = true,
    storage: ((_KeyValueStorageAccess) -> Bool)? = nil,
    getter: Any? = nil,
    isConstant: Bool = false,
    isUnannounced: Bool = false
  ) {
    self.name = name
    self.isKeyedByString = isKeyedByString
    self.storage = storage
    self.getter = getter
    self.isConstant = isConstant
    self.isUnannounced = isUnannounced
  }

  /// Keeps the key path of the `case` pattern that names the property.
  /// The table is `nonisolated`, and a key path to a property isolated to
  /// a global actor (a `@MainActor` class's, or any class's in a module
  /// whose default isolation is the main actor) cannot be an expression
  /// there; it can be a pattern.
  public static func ~= (pattern: AnyKeyPath, key: _KeyValueKey) -> Bool {
    key.keyPath = pattern
    return true
  }
}

/// The key of an observable stored property, waiting for the property's
/// key path rooted at an optional of the class (`\Person?.?.name`) as a
/// `case` pattern.
///
/// Not API: ``_KeyValueKeyTableBuilder/stored(_:keyedByString:get:modify:)``
/// makes it.
public struct _KeyValueOptionalRootMatch {
  @usableFromInline let key: _KeyValueKey

  @usableFromInline
  init(key: _KeyValueKey) {
    self.key = key
  }

  /// Keeps `pattern`, the key path rooted at an optional of the class.
  public static func ~= (pattern: AnyKeyPath, match: _KeyValueOptionalRootMatch) -> Bool {
    match.key.optionallyRootedKeyPath = pattern
    return true
  }
}

/// The key of a property whose storage the table may reach only by key path
/// (a property with observers of its own, which run with its isolation),
/// waiting for that key path as a `case` pattern.
///
/// Not API: ``_KeyValueKeyTableBuilder/stored(_:keyedByString:)`` makes it.
public struct _KeyValueKeyStorageMatch {
  @usableFromInline let key: _KeyValueKey

  @usableFromInline
  init(key: _KeyValueKey) {
    self.key = key
  }

  /// Gives the key storage reached through `pattern`, the key path to it.
  /// Not specialised for the property's types: such properties are few,
  /// and the table's line costs one call.
  public static func ~= <Root: KeyValueObservable, Value>(
    pattern: ReferenceWritableKeyPath<Root, Value>,
    match: _KeyValueKeyStorageMatch
  ) -> Bool {
    let storage = _KeyValueTypedStorage<Value>(
      hasPropertyObservers: true,
      get: { unsafeDowncast($0, to: Root.self)[keyPath: pattern] },
      modify: { body, object in body(&unsafeDowncast(object, to: Root.self)[keyPath: pattern]) }
    )
    match.key.storage = { access in access.perform(storage) }
    return true
  }
}
