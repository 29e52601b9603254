/// One observable key of one object that a derived key depends on.
struct Dependency {
  /// The object's storage, which the derived observation registers with.
  let storage: _KeyValueObservationStorage
  let slot: Int

  /// Tells dependencies apart: storages are kept alive by whoever holds a
  /// dependency, so their identities are not reused meanwhile.
  struct Key: Hashable {
    let storage: ObjectIdentifier
    let slot: Int
  }

  var key: Key { Key(storage: ObjectIdentifier(storage), slot: slot) }
}

/// Reads `keyPath` on `root` and finds what its value depends on: every
/// observable key the read touched (found by tracking the getters it ran),
/// and the keys declared through ``KeyValueObservingCustomization``, theirs
/// in turn, on whichever object declares them.
///
/// Declared key paths are read on their object too, so that a declared
/// dependency through a chain depends on each link. Each (object, key path)
/// is read once, so cycles of declarations end.
///
/// ```swift
/// let (value, dependencies) = resolveDependencies(of: \.summary, on: person)
/// ```
func resolveDependencies<Root: KeyValueObservable, Value>(
  of keyPath: KeyPath<Root, Value>,
  on root: Root
) -> (value: Value, dependencies: [Dependency]) {
  let (value, accesses) = withAccessTracking { root[keyPath: keyPath] }
  var resolution = DependencyResolution()
  if let customization = root._$kvoStorage().customization {
    resolution.declare(customization.keyPathsAffectingValue(for: keyPath), on: root)
    resolution.read.insert(.init(object: ObjectIdentifier(root), keyPath: keyPath))
  }
  resolution.add(accesses)
  resolution.readDeclared()
  return (value, resolution.dependencies)
}

/// The work list of ``resolveDependencies(of:on:)``.
private struct DependencyResolution {
  struct Read: Hashable {
    let object: ObjectIdentifier
    let keyPath: AnyKeyPath
  }

  var dependencies: [Dependency] = []
  var read: Set<Read> = []
  private var seen: Set<Dependency.Key> = []
  private var pending: [(object: any KeyValueObservable, keyPath: AnyKeyPath)] = []
  /// Keeps every object read alive, so that object identities stay unique.
  private var objects: [any KeyValueObservable] = []

  mutating func declare(_ keyPaths: Set<AnyKeyPath>, on object: any KeyValueObservable) {
    for keyPath in keyPaths {
      pending.append((object, keyPath))
    }
  }

  /// Records tracked reads, and queues what their keys are declared to
  /// depend on.
  mutating func add(_ accesses: [TrackedAccess]) {
    for access in accesses {
      let storage = access.object._$kvoStorage()
      let dependency = Dependency(storage: storage, slot: access.slot)
      guard seen.insert(dependency.key).inserted else { continue }
      dependencies.append(dependency)
      objects.append(access.object)
      if let customization = storage.customization,
        let keyPath = storage.objectType._$kvoKeyPath(forSlot: access.slot)
      {
        declare(customization.keyPathsAffectingValue(for: keyPath), on: access.object)
      }
    }
  }

  /// Reads every queued declared key path on its object, tracking the reads,
  /// until nothing new is declared.
  mutating func readDeclared() {
    while let (object, keyPath) = pending.popLast() {
      guard read.insert(Read(object: ObjectIdentifier(object), keyPath: keyPath)).inserted else { continue }
      objects.append(object)
      let (_, accesses) = withAccessTracking { read(keyPath, on: object) }
      add(accesses)
    }
  }

  private func read(_ keyPath: AnyKeyPath, on object: some KeyValueObservable) -> Any? {
    object[keyPath: keyPath]
  }
}
