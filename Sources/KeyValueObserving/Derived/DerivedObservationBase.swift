/// The observation of a key path that is not one stored property of the
/// observed object: a computed property, a chain through other observable
/// objects, or a property with declared dependencies.
///
/// It registers with every (object, key) the key path's value depends on
/// (see ``resolveDependencies(tracked:read:)``), asking each for a will
/// and a did. At the outermost will on a thread it reads the old value; at
/// the matching did it reads the key path again, tracking the reads,
/// re-registers with what the value depends on now (a branch taken, a link
/// replaced), and notifies once. Nested wills on one thread — a dependency
/// changed while another changes — join the change open there, in the
/// thread's record of changes that stored keys use too (see
/// ``DerivedChange``, which ``DerivedObservation`` keeps typed).
///
/// This class keeps the state and does the bookkeeping, without generics, so
/// that none of it pays for run-time type lookups; ``DerivedObservation``
/// adds the typed reads and the handler.
///
/// It is also its own anchor: the registration that files it in the
/// observed object's storage, under its key path (or, a tracked closure's,
/// in its host's one slot: see ``ObservationHost``), and that its token
/// names. Invalidating the token removes it, and the observed object's
/// deinit closes the storage with it; either way ``registrationEnded()``
/// ends the observation. Manual `willChangeValue`/`didChangeValue` on the
/// key path reach it there. Owned by that storage and by its dependency
/// registrations.
@usableFromInline
class DerivedObservationBase: _KeyValueRegistration, @unchecked Sendable {
  // @unchecked Sendable: `state` is behind its lock; the rest is immutable,
  // atomic, or guarded by the registration base class.

  /// An ordinary allocation, not cache lines of its own, which cost
  /// every derived observation 32 B more: the lock is taken to number
  /// each read of the value and to change what it depends on, by the
  /// thread that changes a dependency, so only two threads changing what
  /// two derived observations depend on can meet on a line the allocator
  /// gave both; a storage's lock, which every write to an observed key
  /// takes, keeps its own lines.
  private let state = LockedState(State(), ownsCacheLines: false)

  /// The observed key path.
  let anyKeyPath: AnyKeyPath

  /// The observed object's storage.
  let rootStorage: _KeyValueObservationStorage

  /// Set once, when the observation ends; checked before each callback.
  /// Last, so that a subclass's one-byte fields share its word.
  private let ended = AtomicFlag(false)

  private struct State {
    /// The registrations with what the value depends on, in the order the
    /// reads found them.
    var dependencies: RegisteredDependencies = []
    /// Whether a verifying read can check its reads against
    /// `dependencies` (see ``TrackingScope``): not when declared
    /// dependencies counted, which only a full resolution finds.
    var isVerifiable = true
    /// Numbers the reads of the value, so that a slower read on one thread
    /// cannot replace the dependencies a later read on another installed.
    var nextRead = 0
    var appliedRead = -1
  }

  /// An observation of `keyPath` on the object of `rootStorage`, with
  /// `options`, filed in `slot` or, by default, under the key path.
  init(keyPath: AnyKeyPath, rootStorage: _KeyValueObservationStorage, options: KeyValueObservingOptions, slot: Int) {
    self.anyKeyPath = keyPath
    self.rootStorage = rootStorage
    super.init(options: options, slot: slot, receiver: .forwarding)
  }

  // MARK: Filed as a registration

  override var anchorKeyPath: AnyKeyPath? { anyKeyPath }

  override var keyDescription: String? { keyPathDescription }

  override func registrationEnded() {
    end()
  }

  /// A manual change of the key path, from the storage it is filed in.
  final override func forwardChange(isPrior: Bool, from object: AnyObject?) {
    if isPrior {
      dependencyWillChange(from: self, on: object)
    } else {
      dependencyDidChange(from: self, on: object)
    }
  }

  /// A manual did of the observed key path with no will open on this
  /// thread: reported, as for a stored key, and nothing is notified.
  @usableFromInline
  final func reportUnmatchedManualDid() {
    reportProblem(
      .unmatchedDidChange,
      "didChangeValue of \(keyPathDescription) without a matching willChangeValue on this thread; nothing was notified"
    )
  }

  /// Whether the observation ended: invalidated, or the object deinitialised.
  @usableFromInline
  final var isEnded: Bool { ended.load(ordering: .acquiring) }

  /// A dependency is about to change on `object`, as `sender` (a
  /// registration with it, or this observation, filed as its own anchor,
  /// with no object) says. Overridden
  /// with the typed reads.
  func dependencyWillChange(from sender: _KeyValueRegistration, on object: AnyObject?) {}

  /// A dependency changed on `object`, as `sender` says; also sent by a
  /// registration that ended since its will, to close the change.
  /// Overridden with the typed reads.
  func dependencyDidChange(from sender: _KeyValueRegistration, on object: AnyObject?) {}

  /// One of the dependencies' registrations was removed (a read no longer
  /// needs it), or its object deinitialised. Called with no lock held.
  func dependencyEnded() {}

  /// Reads the value again and notifies, for a tracked closure's run that
  /// ``Rerun`` scheduled. Overridden with the typed read.
  func runScheduled() {}

  // MARK: Dependencies

  /// Numbers a read of the value (pass the number to
  /// ``install(_:read:verifiable:)``) and gives the dependencies the read
  /// can be checked against, when there is such a list.
  ///
  /// With `wantsLast`, it also gives the address of the registration with
  /// the last dependency, when the dependencies can be checked and that one
  /// is not among the others (see ``DerivedObservation/chainEnd``). Only
  /// the address: the registration may be gone, its object freed.
  @usableFromInline
  final func beginRead(wantsLast: Bool) -> NumberedRead {
    state.withLock { state in
      defer { state.nextRead += 1 }
      var last: UnsafeMutableRawPointer? = nil
      if wantsLast, state.isVerifiable, let final = state.dependencies.last,
        !state.dependencies.dropLast().contains(where: { $0.isSame(as: final.dependency) })
      {
        last = Unmanaged.passUnretained(final).toOpaque()
      }
      return NumberedRead(number: state.nextRead, expected: state.isVerifiable ? state.dependencies : nil, last: last)
    }
  }

  /// Reads the value with `read`, tracking what it reads, and registers
  /// with what it depends on now, as read `numbered`: the untyped part of a
  /// typed read (see ``DerivedObservation/refresh(_:)``). When the reads
  /// are exactly the dependencies it had, nothing is resolved or registered
  /// (see ``TrackingScope``).
  @usableFromInline
  final func trackRead(_ numbered: NumberedRead, _ read: (inout [ReadKey]) -> Void) {
    var scope = numbered.expected.map(TrackingScope.init(verifying:)) ?? TrackingScope(capacity: 8)
    var keys: [ReadKey] = []
    withAccessTracking(in: &scope) { read(&keys) }
    if scope.matchedExpected && keys.isEmpty { return }
    let reads = scope.reads
    install(
      resolveDependencies(tracked: reads, read: keys),
      read: numbered.number,
      verifiable: keys.isEmpty && reads.allSatisfy { $0.declaringObject == nil }
    )
  }

  /// Registers with `dependencies` and drops registrations with anything
  /// else, unless a later read installed its own already. `verifiable`:
  /// whether they were found without declared dependencies, so that the
  /// next read can check its reads against them.
  final func install(_ dependencies: [Dependency], read: Int, verifiable: Bool) {
    let stale: RegisteredDependencies = state.withLock { state in
      guard !isEnded, read > state.appliedRead else { return [] }
      state.appliedRead = read
      state.isVerifiable = verifiable
      // Usually the value depends on the same keys as before.
      if dependencies.count == state.dependencies.count
        && zip(dependencies, state.dependencies).allSatisfy({ $1.isSame(as: $0) })
      {
        return []
      }
      var previous = state.dependencies
      var next: RegisteredDependencies = []
      next.reserveCapacity(dependencies.count)
      for dependency in dependencies {
        if let index = previous.firstIndex(where: { $0.isSame(as: dependency) }) {
          next.append(previous.remove(at: index))
          continue
        }
        let registration = DependencyRegistration(forwardingTo: self, dependency: dependency)
        // Storage locks are taken inside this one, never the other way
        // round: the storages call out only after releasing their own lock.
        if dependency.storage.add(registration) {
          next.append(registration)
        }
      }
      state.dependencies = next
      return previous
    }
    // Removed after the lock, so that ``dependencyEnded()`` is never called
    // under it: no other read can reach these registrations any more, as
    // they left the list above.
    for registration in stale {
      registration.remove()
    }
  }

  /// Whether every object the value depends on was freed (or it depends
  /// on nothing): nothing can change it any more.
  final var dependsOnFreedObjectsOnly: Bool {
    state.withLock { state in state.dependencies.allSatisfy { $0.storage.isClosed } }
  }

  /// The observed key path as the user wrote it: `closure` for a tracked
  /// closure; the string key path for one observed by string (a classic
  /// observer's, which its target keeps); the property's name for one property
  /// (`fullName`); the properties and subscripts it goes through
  /// (`address?.street`, whatever the objects on the way are now: a cycle
  /// of links, or a `nil` one, describes it the same); Swift's description
  /// without its root type where it names the properties; and otherwise —
  /// a component that is no property of an observable class, on a platform
  /// where key paths have no names at run time — the keys read, each one
  /// read on another object continuing the path before it
  /// (`address.street`).
  final var keyPathDescription: String {
    switch observerSource {
    case .trackedClosure: return "closure"
    case .classic(let target): return target.keyPath
    default: break
    }
    if let written = rootStorage.objectType.writtenDescription(of: anyKeyPath) { return written }
    let described = "\(anyKeyPath)"
    if !described.hasText("<computed") {
      let withoutRoot = described.drop { $0 != "." }.dropFirst()
      return withoutRoot.isEmpty ? described : String(withoutRoot)
    }
    var paths: [String] = []
    for dependency in currentDependencies() {
      let key = dependency.keyName
      if dependency.storage === rootStorage || paths.isEmpty {
        paths.append(key)
      } else {
        paths[paths.count - 1] += "." + key
      }
    }
    switch paths.count {
    case 0:
      // Reads nothing observable: the key path's components, a property no
      // key table names shown by its class and type.
      return KeyPathComponents(of: anyKeyPath)?.readable ?? described
    case 1: return paths[0]
    default: return "derived(\(paths.joined(separator: ", ")))"
    }
  }

  /// What the value depends on now, one key each, named on its object's
  /// type where that is not the observed object's: `address`,
  /// `Address.street`.
  final override var dependencyDescriptions: [String] {
    let rootType = ObjectIdentifier(rootStorage.objectType)
    return currentDependencies().map { dependency in
      let type = dependency.storage.objectType
      let key = dependency.keyName
      return ObjectIdentifier(type) == rootType && dependency.storage === rootStorage ? key : "\(type).\(key)"
    }
  }

  final func currentDependencies() -> [Dependency] {
    state.withLock { $0.dependencies }.map(\.dependency)
  }

  /// Who receives the changes, for ``KeyValueObservable/observationInfo``.
  override var observerDescription: String { "derived observation" }

  /// The type of the value of the key the last read registered with last
  /// (see ``KeyPathComponents/unannouncingClass(lastRead:)``), or `nil`.
  final var lastDependencyValueType: Any.Type? {
    guard let last = currentDependencies().last,
      let keyPath = last.storage.objectType._$kvoKeyPath(forSlot: last.slot)
    else { return nil }
    return type(of: keyPath).valueType
  }

  /// How many keys the value depends on now.
  final var dependencyCount: Int {
    state.withLock { $0.dependencies.count }
  }

  /// Ends the observation and removes its registrations; idempotent.
  final func end() {
    let (first, registered): (Bool, RegisteredDependencies) = state.withLock { state in
      guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return (false, []) }
      defer { state.dependencies = [] }
      return (true, state.dependencies)
    }
    for registration in registered {
      registration.remove()
    }
    if first {
      didEnd()
    }
  }

  /// Told once, with no lock held, that the observation ended.
  func didEnd() {}
}
