/// One observable key of one object that a derived key depends on, as a
/// resolution finds it (see ``DependencyRegistration`` for one registered
/// with): a stored property, by its slot, or a computed one declared as a
/// dependency, by the key path its announcements are made under (see
/// ``KeyValueObservable/setValue(_:forKey:)``).
@usableFromInline
struct Dependency {
  /// The object's storage, which the derived observation registers with.
  /// Holding it keeps its identity from being reused.
  @usableFromInline let storage: _KeyValueObservationStorage
  @usableFromInline let slot: Int
  /// A computed property's filing key path (see
  /// ``_KeyValueKeyTable/filingKeyPath(for:)``), with ``slot`` the
  /// registrations' key-path slot; `nil` for a stored property.
  let keyPath: AnyKeyPath?

  init(storage: _KeyValueObservationStorage, slot: Int, keyPath: AnyKeyPath? = nil) {
    self.storage = storage
    self.slot = slot
    self.keyPath = keyPath
  }

  func isSame(as other: Dependency) -> Bool {
    storage === other.storage && slot == other.slot && keyPath == other.keyPath
  }

  /// Whether it is its object's lifetime (see ``ObjectLifetime``).
  var isLifetime: Bool { keyPath === ObjectLifetime.keyPath }

  /// The key's name on its object's type (`#3` where the type has none).
  var keyName: String {
    if isLifetime { return ObjectLifetime.keyName }
    if let keyPath { return storage.objectType._$kvoName(for: keyPath) ?? "\(keyPath)" }
    return storage.objectType._$kvoKey(forSlot: slot) ?? "#\(slot)"
  }
}

/// A key that reading a derived key read on some object, and whose declared
/// dependencies (see ``KeyValueObservingCustomization``) therefore count.
@usableFromInline
struct ReadKey {
  let object: any KeyValueObservable
  let keyPath: AnyKeyPath
  /// Whether it is the observed key path itself, under which the
  /// observation is filed; otherwise a property a chain goes through or
  /// ends in, past its first key.
  let isObservedKey: Bool
}

/// What a derived key depends on: every observable key that reading it
/// touched (`tracked`, found by tracking the getters it ran), and the keys
/// declared through ``KeyValueObservingCustomization`` for the keys it read
/// (`read`: the observed key path itself, or each component of a string key
/// path) and for the tracked keys, theirs in turn, on whichever object
/// declares them.
///
/// Declared key paths are read on their object too, with tracking, so that a
/// declared dependency through a chain depends on each link. Each (object,
/// key path) is read once, so cycles of declarations end.
func resolveDependencies(tracked accesses: [TrackedAccess], read keys: [ReadKey]) -> [Dependency] {
  var resolution = DependencyResolution(expectedCount: accesses.count)
  var lifetimes: [any KeyValueObservable] = []
  for key in keys {
    if key.keyPath === ObjectLifetime.keyPath {
      lifetimes.append(key.object)
      continue
    }
    // A computed property a chain goes through or ends in, past its first
    // key (under which the observation itself is filed), is heard through
    // its announcements, as a declared one is.
    if !key.isObservedKey {
      resolution.addIfComputed(key.keyPath, on: key.object)
    }
    guard let customization = type(of: key.object) as? any KeyValueObservingCustomization.Type else { continue }
    resolution.markRead(key.keyPath, on: key.object)
    resolution.declare(customization.keyPathsAffectingValue(for: key.keyPath), on: key.object)
  }
  resolution.add(accesses)
  resolution.readDeclared()
  // Last, after the keys read on the way to the objects.
  for object in lifetimes {
    resolution.addLifetime(of: object)
  }
  return resolution.dependencies
}

/// The work list of ``resolveDependencies(tracked:read:)``.
private struct DependencyResolution {
  private struct Read: Hashable {
    let object: ObjectIdentifier
    let keyPath: AnyKeyPath
  }

  private struct Key: Hashable {
    let storage: ObjectIdentifier
    let slot: Int
    let keyPath: AnyKeyPath?
  }

  private(set) var dependencies: [Dependency] = []
  /// Filled only once there are too many dependencies to search one by one.
  private var seen: Set<Key> = []
  private var read: Set<Read> = []
  private var pending: [(object: any KeyValueObservable, keyPath: AnyKeyPath)] = []
  /// Keeps every object whose declarations were read alive, so that the
  /// identities in `read` stay unique.
  private var objects: [any KeyValueObservable] = []

  private static let linearSearchLimit = 16

  init(expectedCount: Int) {
    dependencies.reserveCapacity(expectedCount)
  }

  mutating func markRead(_ keyPath: AnyKeyPath, on object: any KeyValueObservable) {
    read.insert(Read(object: ObjectIdentifier(object), keyPath: keyPath))
    objects.append(object)
  }

  mutating func declare(_ keyPaths: Set<AnyKeyPath>, on object: any KeyValueObservable) {
    for keyPath in keyPaths {
      pending.append((object, keyPath))
    }
  }

  /// Records tracked reads, and queues what their keys are declared to
  /// depend on.
  mutating func add(_ accesses: [TrackedAccess]) {
    for access in accesses {
      let storage = access.storage
      guard insert(Dependency(storage: storage, slot: access.slot)) else { continue }
      if let object = access.declaringObject, let customization = storage.customization,
        let keyPath = storage.objectType._$kvoKeyPath(forSlot: access.slot)
      {
        objects.append(object)
        declare(customization.keyPathsAffectingValue(for: keyPath), on: object)
      }
    }
  }

  /// Adds `dependency` unless it is there already.
  private mutating func insert(_ dependency: Dependency) -> Bool {
    if dependencies.count < Self.linearSearchLimit {
      guard !dependencies.contains(where: { $0.isSame(as: dependency) }) else { return false }
    } else {
      if seen.isEmpty {
        seen = Set(dependencies.map { Key(storage: ObjectIdentifier($0.storage), slot: $0.slot, keyPath: $0.keyPath) })
      }
      guard
        seen.insert(Key(storage: ObjectIdentifier(dependency.storage), slot: dependency.slot, keyPath: dependency.keyPath))
          .inserted
      else {
        return false
      }
    }
    dependencies.append(dependency)
    return true
  }

  /// Reads every queued declared key path on its object, tracking the reads,
  /// until nothing new is declared. A declared key's own declarations count
  /// too, so that a computed key declared by another is followed even when
  /// its getter reads nothing observable.
  mutating func readDeclared() {
    while let (object, keyPath) = pending.popLast() {
      guard read.insert(Read(object: ObjectIdentifier(object), keyPath: keyPath)).inserted else { continue }
      objects.append(object)
      addIfComputed(keyPath, on: object)
      let (_, accesses) = withAccessTracking { Self.read(keyPath, on: object) }
      if let customization = type(of: object) as? any KeyValueObservingCustomization.Type {
        declare(customization.keyPathsAffectingValue(for: keyPath), on: object)
      }
      add(accesses)
    }
  }

  /// Depends on `keyPath` of `object` when it names a computed property:
  /// one over storage nothing tracks is heard through its announcements
  /// (a write through key-value coding or a binding, or `withChange` in
  /// its setter), filed under its key path.
  mutating func addIfComputed(_ keyPath: AnyKeyPath, on object: any KeyValueObservable) {
    guard let filed = type(of: object)._$kvoFilingKeyPath(ofComputed: keyPath) else { return }
    _ = insert(Dependency(storage: object._$kvoStorage(), slot: _KeyValueRegistration.keyPathSlot, keyPath: filed))
  }

  /// Depends on the lifetime of `object` (see ``ObjectLifetime``).
  mutating func addLifetime(of object: any KeyValueObservable) {
    _ = insert(Dependency(storage: object._$kvoStorage(), slot: _KeyValueRegistration.keyPathSlot, keyPath: ObjectLifetime.keyPath))
  }

  private static func read(_ keyPath: AnyKeyPath, on object: some KeyValueObservable) -> Any? {
    object[keyPath: keyPath]
  }
}
