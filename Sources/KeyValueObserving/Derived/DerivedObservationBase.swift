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
/// (a key path's), ``TrackedClosure`` and ``TrackedObservation`` (a tracked
/// closure's, and a tracked value's: see ``TrackedObservationBase``) add the
/// typed reads and the handler, and share the typed change path (see
/// ``DerivedValueObservation``).
///
/// A key path's observation is also its own anchor: the registration that
/// files it in the observed object's storage, under its key path, and that
/// its token names. Invalidating the token removes it, and the observed
/// object's deinit closes the storage with it; either way
/// ``registrationEnded()`` ends the observation. Manual
/// `willChangeValue`/`didChangeValue` on the key path reach it there. Owned
/// by that storage and by its dependency registrations. A tracked closure's
/// is filed nowhere: its token owns it, and ends it.
@usableFromInline
class DerivedObservationBase: _KeyValueRegistration, @unchecked Sendable {
  // @unchecked Sendable: `state` is behind its lock; the rest is immutable,
  // atomic, or guarded by the registration base class.

  /// What the value depends on, behind a lock in this object (see
  /// ``LockedDependencies``).
  private let state = LockedDependencies()

  /// The change a thread opens when no other thread has it open, so that
  /// a change allocates nothing; its identity names the observation's
  /// changes in the threads' records (see ``DerivedChange``). Made by the
  /// first will (``DerivedValueObservation/ownChange()``), so that an
  /// observation nothing has changed yet pays for no change; retained, set
  /// once.
  @usableFromInline let ownChangeMade = AtomicUInt(0)
  /// The thread that has the own change open (its
  /// `currentThreadIdentity()`), or 0: set and cleared only by that thread,
  /// so a thread that reads its own identity here has the change open.
  @usableFromInline let ownChangeThread = AtomicUInt(0)
  /// How many changes made for a thread (when another had the own change)
  /// are open, on all threads: while there are none, a thread without the
  /// own change has no change of this observation open.
  @usableFromInline let sharedChangesOpen = AtomicInt(0)

  /// Set once an object on the path that cannot be heard freed was
  /// reported (see ``reportUnheardDeallocation(of:)``).
  let unheardReported = AtomicFlag(false)

  /// Set once, when the observation ends; checked before each callback.
  /// Last, so that a subclass's one-byte fields share its word.
  private let ended = AtomicFlag(false)

  /// An observation with `options`, filed in `slot` of the storage it is
  /// filed in, if any.
  init(options: KeyValueObservingOptions, slot: Int) {
    super.init(options: options, slot: slot, receiver: .forwarding)
  }

  deinit {
    // Ended with its own change open on a thread whose did never came
    // (a will-change of the observed key path left open): the thread's
    // record still names the change, so it is kept.
    let ownChange = ownChangeMade.load(ordering: .acquiring)
    if ownChange != 0, ownChangeThread.load(ordering: .acquiring) == 0,
      let pointer = UnsafeRawPointer(bitPattern: ownChange)
    {
      Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
  }

  /// The storage of the object whose value is observed; `nil` for a
  /// tracked closure, which observes no one object.
  var observedStorage: _KeyValueObservationStorage? { nil }

  // MARK: Filed as a registration

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

  /// Whether the observation ended: invalidated, or the object
  /// deinitialised. Also once its anchor was removed, under the storage's
  /// lock and before the token's word was cleared, while ``end()`` is still
  /// to come: an `invalidate()` that finds the word clear returns before
  /// the end, and no change on its thread may call the handler after.
  @usableFromInline
  final var isEnded: Bool { ended.load(ordering: .acquiring) || !isLive }

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
  /// needs it), or its object deinitialised: then `freed` is that
  /// registration. Called with no lock held.
  func dependencyEnded(freed: DependencyRegistration?) {}

  /// Whether `registration` is one of the dependencies' registrations.
  @usableFromInline
  final func isRegistered(_ registration: _KeyValueRegistration) -> Bool {
    state.withLock { state in state.dependencies.contains { $0 === registration } }
  }

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

  /// Runs `body` under the lock if the registration at `address` is the
  /// last dependency: ordered with any re-registration, which replaces the
  /// dependencies under the same lock.
  @usableFromInline
  final func ifLastDependency(is address: UnsafeMutableRawPointer, _ body: () -> Void) {
    state.withLock { state in
      guard let final = state.dependencies.last, Unmanaged.passUnretained(final).toOpaque() == address else { return }
      body()
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
    scope.keepsObjects = hearsDeallocation
    track(read, in: &scope, number: numbered.number)
  }

  /// ``trackRead(_:_:)`` from the start: numbers the read itself, and
  /// checks it against the dependencies copied once, straight from the
  /// lock into the scope — the read of a value that is no chain found.
  @usableFromInline
  final func trackRead(_ read: (inout [ReadKey]) -> Void) {
    var (scope, number) = state.withLock { state -> (TrackingScope?, Int) in
      defer { state.nextRead += 1 }
      return (state.isVerifiable ? TrackingScope(verifying: state.dependencies) : nil, state.nextRead)
    }
    if scope == nil { scope = TrackingScope(capacity: 8) }
    scope!.keepsObjects = hearsDeallocation
    track(read, in: &scope!, number: number)
  }

  /// Runs `read` in `scope`, and registers with what it read, unless it
  /// read exactly what the scope expected.
  private func track(_ read: (inout [ReadKey]) -> Void, in scope: inout TrackingScope, number: Int) {
    var keys: [ReadKey] = []
    withAccessTracking(in: &scope) { read(&keys) }
    if scope.matchedExpected && keys.isEmpty { return }
    let reads = scope.reads
    // A key that holds an object whose keys were not read (`item != nil`)
    // may change its object, or lose it, without the reads changing: the
    // next read is not checked against these, but resolved anew.
    let holdsUnreadObjects = hearsDeallocation && watchHeldObjects(of: reads, into: &keys)
    install(
      resolveDependencies(tracked: reads, read: keys),
      read: number,
      verifiable: keys.isEmpty && !holdsUnreadObjects && reads.allSatisfy { $0.declaringObject == nil }
    )
  }

  /// Registers with `dependencies` and drops registrations with anything
  /// else, unless a later read installed its own already. `verifiable`:
  /// whether they were found without declared dependencies, so that the
  /// next read can check its reads against them.
  final func install(_ dependencies: [Dependency], read: Int, verifiable: Bool) {
    // What the storages let go of while this lock is held: released after
    // it, as any release may run a deinit that ends this observation.
    var released: [AnyObject] = []
    let stale: [DependencyRegistration] = state.withLock { state in
      guard !isEnded, read > state.appliedRead else { return [] }
      state.appliedRead = read
      state.isVerifiable = verifiable
      // Usually the value depends on the same keys as before.
      if dependencies.count == state.dependencies.count
        && zip(dependencies, state.dependencies).allSatisfy({ $1.isSame(as: $0) })
      {
        return []
      }
      var previous = Array(state.dependencies)
      var next: RegisteredDependencies = []
      next.reserveCapacity(dependencies.count)
      for dependency in dependencies {
        if let index = previous.firstIndex(where: { $0.isSame(as: dependency) }) {
          next.append(previous.remove(at: index))
          continue
        }
        let registration = DependencyRegistration(forwardingTo: self, dependency: dependency, walkedByChain: walksChain)
        // Storage locks are taken inside this one, never the other way
        // round: the storages call out only after releasing their own lock.
        if dependency.storage.add(registration, releasingInto: &released) {
          next.append(registration)
        }
      }
      state.dependencies = next
      return previous
    }
    released = []
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

  /// What is observed, as the user wrote it: `closure` for a tracked
  /// closure; a key path's observation describes its key path (see
  /// ``description(of:on:)``).
  var keyPathDescription: String { "closure" }

  /// `keyPath`, observed on the object of `rootStorage`, as the user wrote
  /// it: the string key path for one observed by string (a classic
  /// observer's, which its target keeps); the property's name for one
  /// property (`fullName`); the properties and subscripts it goes through
  /// (`address?.street`, whatever the objects on the way are now: a cycle
  /// of links, or a `nil` one, describes it the same); Swift's description
  /// without its root type where it names the properties; and otherwise —
  /// a component that is no property of an observable class, on a platform
  /// where key paths have no names at run time — the keys read, each one
  /// read on another object continuing the path before it
  /// (`address.street`).
  final func description(of keyPath: AnyKeyPath, on rootStorage: _KeyValueObservationStorage) -> String {
    if case .classic(let target) = observerSource { return target.keyPath }
    if let written = rootStorage.objectType.writtenDescription(of: keyPath) { return written }
    let described = "\(keyPath)"
    if !described.hasText("<computed") {
      let withoutRoot = described.drop { $0 != "." }.dropFirst()
      return withoutRoot.isEmpty ? described : String(withoutRoot)
    }
    var paths: [String] = []
    for dependency in currentDependencies() where !dependency.isLifetime {
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
      return KeyPathComponents(of: keyPath)?.readable ?? described
    case 1: return paths[0]
    default: return "derived(\(paths.joined(separator: ", ")))"
    }
  }

  /// What the value depends on now, one key each, named on its object's
  /// type where that is not the observed object's: `address`,
  /// `Address.street`.
  final override var dependencyDescriptions: [String] {
    let rootStorage = observedStorage
    return currentDependencies().map { dependency in
      let type = dependency.storage.objectType
      let key = dependency.keyName
      return dependency.storage === rootStorage ? key : "\(type).\(key)"
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

  /// Ends the observation and removes its registrations; idempotent. The
  /// token that owns it, if one does, turns inactive: its word is cleared
  /// here, under the lock, and the token's reference let go of — unless
  /// the token's `invalidate()` marked the word, ending it itself, which
  /// lets go then (see ``KeyValueObservation``).
  final func end() {
    let (first, registered, tokenWord): (Bool, RegisteredDependencies, UInt) = state.withLock { state in
      guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return (false, [], 0) }
      defer {
        state.dependencies = []
        state.tokenWord = nil
      }
      // Cleared under the lock: a token in its deinit, which waits for
      // the word, cannot go before this is done with it.
      let claimed = state.tokenWord.map { $0.atomicExchange(0 as UInt, ordering: .acquiringAndReleasing) } ?? 0
      return (true, state.dependencies, claimed)
    }
    for registration in registered {
      registration.remove()
    }
    if first {
      didEnd()
    }
    // The token's reference, unless its `invalidate()` keeps it to let go
    // of: released last, as it may be the last one.
    if tokenWord & KeyValueObservation.endingBit == 0,
      let address = UnsafeRawPointer(bitPattern: tokenWord & ~KeyValueObservation.ownedBits)
    {
      Unmanaged<AnyObject>.fromOpaque(address).release()
    }
  }

  /// Gives the token whose word is at `tokenWord` the observation to own;
  /// `false`, and nothing given, when it ended already.
  final func attachToken(word tokenWord: UnsafeMutableRawPointer) -> Bool {
    state.withLock { state in
      guard !isEnded else { return false }
      state.tokenWord = tokenWord
      return true
    }
  }

  /// Told once, with no lock held, that the observation ended.
  func didEnd() {}

  /// Whether the value may be read by walking a chain of stored
  /// properties (``StoredChain``), which reads each key under the lock of
  /// its storage: its registrations say so to the keys' writers.
  var walksChain: Bool { false }
}
