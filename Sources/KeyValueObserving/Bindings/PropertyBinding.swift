/// A binding of a property of `Source` to a property of `Target`: one way
/// (each change of the source's value is written to the target), or two
/// ways (and each change of the target's to the source).
///
/// It observes the source's key path (and the target's, both ways) with
/// registrations of its own, and is named by a token through an
/// ``ObservationHost``, whose storage it closes to end: when the token
/// ends, when either object is freed, or when a write finds the target
/// gone. It holds neither object alive.
///
/// **One writer at a time, no echo, both sides equal.** One thread at a
/// time writes for a binding (``gate``). On that thread, the first change
/// it is told of the side it writes is the echo of its write (not sent
/// back); a later one — an observer correcting the written value — and a
/// change of the other side meanwhile wait, and are carried after the
/// write, reading that side anew. An `Equatable` value is not written
/// where the side holds it already, and, both ways, is read back after the
/// write: a `didSet` that corrected it is carried back too. A change told
/// on another thread while one writes is a race on the bound pair, whose
/// storage nothing synchronises: it is reported, once, and carried after
/// the write. A write that would reach the property a write under way on
/// the thread carries from is not made (``BindingWriteChain``): chains and
/// rings of bindings settle in one pass. Nothing is locked; the gate
/// is one atomic word.
///
/// A coalesced binding carries through ``BindingCoalescing``.
@usableFromInline
final class PropertyBinding<Source: KeyValueObservable, Target: AnyObject, SourceValue, TargetValue>:
  BindingIdentity, @unchecked Sendable
{
  // @unchecked Sendable: the objects are reached through the runtime's
  // atomic reference counts, the gate is atomic; the rest is immutable or
  // written once before the binding is shared.

  /// Holds the key paths, reads and writes (see ``BindingAccessor``).
  @usableFromInline typealias Accessor = BindingAccessor<Source, Target, SourceValue, TargetValue>

  @usableFromInline let source: UnownedReference<Source>
  @usableFromInline let target: UnownedReference<Target>
  @usableFromInline let accessor: Accessor
  /// Whether the binding carries the target's changes back.
  private let isTwoWay: Bool
  /// The key paths, as the accessors handed them over: for registering,
  /// for describing, and for naming the sides in the write chain.
  @usableFromInline let sourceKeyPath: KeyPath<Source, SourceValue>
  @usableFromInline let targetKeyPath: ReferenceWritableKeyPath<Target, TargetValue>

  /// Who writes for the binding: 0 while nobody does; else the writing
  /// thread's identity shifted left by ``threadShift``, with
  /// ``targetWritten`` when it writes the target, ``echoTold`` once the
  /// written side's own change was told, a bit per side that changed
  /// meanwhile (``waiting(_:)``), and ``raced`` when one of them changed
  /// on another thread.
  @usableFromInline let gate = AtomicUInt(0)
  @inlinable static var targetWritten: UInt { 1 }
  @inlinable static var echoTold: UInt { 8 }
  @inlinable static var raced: UInt { 16 }
  @inlinable static var threadShift: UInt { 5 }

  @inlinable static func waiting(_ side: KeyValueBindingSide) -> UInt { side == .source ? 2 : 4 }

  /// How many times one change may be carried back and forth on its own
  /// thread before the binding gives up (a `didSet` that keeps changing
  /// the other side).
  @inlinable static var roundLimit: Int { 100 }

  @usableFromInline package let description: String
  private let host = ObservationHost()
  @usableFromInline let ended = AtomicFlag(false)
  /// Whether the binding is counted in ``lookingBindings``, until it ends.
  private let countedAsLooking = AtomicFlag(false)
  /// Whether a racing write was reported: once per binding.
  private let raceReported = AtomicFlag(false)
  /// The registrations with the source's and the target's key paths, or
  /// `nil` once the binding ended: it may end (a change on another thread
  /// finding the target freed) while `start` still registers.
  private let registrations = LockedState<[RegistrationHandle]?>([])
  private let targetStorage: _KeyValueObservationStorage?
  /// Whether the target is `@KeyValueObservable`: only then can another
  /// binding carry from its property.
  @usableFromInline let targetIsObservable: Bool
  /// How a write of each side is announced when it is a computed
  /// property of a `@KeyValueObservable` class (see
  /// ``ComputedWriteAnnouncement``); `nil` for a stored one, which
  /// announces its own writes.
  @usableFromInline let sourceAnnouncement: ComputedWriteAnnouncement?
  @usableFromInline let targetAnnouncement: ComputedWriteAnnouncement?
  /// The sides' key paths, described for messages.
  let sourceKeyDescription: String
  let targetKeyDescription: String
  /// The actor the binding was made on, whose writes check that they run
  /// there: only in a debug build (see `isolationCheckedInDebugBuilds`).
  @usableFromInline let isolation: (any Actor)?
  /// Carries changes once per job of its actor; `nil`: at each change.
  @usableFromInline let coalescing: BindingCoalescing?

  /// A binding of `source` to `target` through `accessor`'s key paths,
  /// checked on `isolation` and coalesced by `coalescing` when given; made
  /// where `bind` is called, so that the accessor is specialised there.
  @usableFromInline
  init(
    source: Source, target: Target, twoWay: Bool, accessor: Accessor, isolation: (any Actor)?,
    coalescing: BindingCoalescing?
  ) {
    self.coalescing = coalescing
    self.source = UnownedReference(source)
    self.target = UnownedReference(target)
    self.accessor = accessor
    self.isTwoWay = twoWay
    self.isolation = isolation
    let keyPaths = accessor.keyPaths
    sourceKeyPath = keyPaths.source
    targetKeyPath = keyPaths.target
    self.targetStorage = (target as? any KeyValueObservable)?._$kvoStorage()
    self.targetIsObservable = targetStorage != nil
    self.sourceAnnouncement = ComputedWriteAnnouncement.ofComputed(sourceKeyPath, on: source)
    if let observableTarget = target as? any KeyValueObservable {
      self.targetAnnouncement = ComputedWriteAnnouncement.ofComputed(targetKeyPath, on: observableTarget)
    } else {
      self.targetAnnouncement = nil
    }
    self.sourceKeyDescription = "\(Source.self).\(Source.describe(sourceKeyPath))"
    self.targetKeyDescription = Self.describe(targetKeyPath)
    let arrow = twoWay ? "⇄" : "→"
    description = "binding \(sourceKeyDescription) \(arrow) \(Target.self).\(targetKeyDescription)"
  }

  private static func describe(_ keyPath: AnyKeyPath) -> String {
    (Target.self as? any KeyValueObservable.Type)?.describe(keyPath) ?? KeyPathComponents(of: keyPath)?.readable
      ?? "\(keyPath)"
  }

  @usableFromInline package func boundStorages() -> [_KeyValueObservationStorage] {
    var storages: [_KeyValueObservationStorage] = []
    if let source = source.object, let storage = source._$kvoObservedStorage { storages.append(storage.takeUnretainedValue()) }
    if let targetStorage, !targetStorage.isClosed { storages.append(targetStorage) }
    return storages
  }

  /// Registers with both objects (`observeTarget` registers with the
  /// target, both ways), writes the side across from `initialValueFrom`,
  /// and returns the binding's token. The handlers are made by the caller,
  /// where the types are known. A property bound to itself is refused.
  @usableFromInline
  func start(
    source: Source,
    site: RegistrationSite,
    initialValueFrom initial: KeyValueBindingSide,
    sourceChanged: @escaping (Source, KeyValueObservedChange<SourceValue>) -> Void,
    observeTarget: ((Target, ReferenceWritableKeyPath<Target, TargetValue>, ObservationHooks) -> RegistrationHandle)?
  ) -> KeyValueObservation {
    if let target = target.object, property(.source, of: source, target) == property(.target, of: source, target) {
      reportProblem(
        .bindingToItself,
        "\(description) at \(site.description ?? "a call") is refused: it binds a property to itself, which is "
          + "equal to itself already; the token it returned is inactive"
      )
      return KeyValueObservation(RegistrationHandle(storage: nil, registration: nil))
    }
    // A binding that writes a value that is not `Equatable` to a property
    // another binding can carry from reads the write chain.
    let writesUnequatable = (!(TargetValue.self is any Equatable.Type) && targetIsObservable)
      || (observeTarget != nil && !(SourceValue.self is any Equatable.Type))
    if writesUnequatable {
      countedAsLooking.store(true, ordering: .relaxed)
      lookingBindings.add(1, ordering: .relaxed)
    }
    // Made inside a tracked closure's run, the binding's reads are its own.
    let hidden = _KeyValueAccessTracking.suspendTracking()
    defer { _KeyValueAccessTracking.resumeTracking(hidden) }
    let hooks = ObservationHooks(source: .binding(self), ended: { [self] in end() })
    // A freed object on a side's path (a `weak` link's) changes its value,
    // as a setter would: carried too, so that the sides stay equal.
    keep(source.register(sourceKeyPath, options: .deallocation, hooks: hooks, site: site, changeHandler: sourceChanged))
    if let observeTarget, let target = target.object {
      keep(observeTarget(target, targetKeyPath, hooks))
    } else if let targetStorage {
      // One way to an observable object: told when it is freed.
      let watch = BindingAnchor(self, keyDescription: targetKeyDescription)
      watch.site = site
      if targetStorage.add(watch) {
        keep(RegistrationHandle(storage: targetStorage, registration: .passUnretained(watch)))
      }
    }
    let storage = host.storage
    let anchor = BindingAnchor(self)
    anchor.site = site
    // The host is alive, so its storage is open and the addition succeeds.
    _ = storage.add(anchor)
    carry(from: initial, isFirst: true)
    return KeyValueObservation(RegistrationHandle(storage: storage, registration: .passUnretained(anchor)))
  }

  /// `side`'s property, as the write chain names it.
  @inlinable
  func property(_ side: KeyValueBindingSide, of source: Source, _ target: Target) -> BoundProperty {
    side == .source
      ? BoundProperty(object: ObjectIdentifier(source), keyPath: sourceKeyPath)
      : BoundProperty(object: ObjectIdentifier(target), keyPath: targetKeyPath)
  }

  /// `side` changed: carries its value to the other side, and whatever
  /// changes meanwhile after it (see the type's discussion).
  /// `sourceObject`, when given, is the source, alive: the object a change
  /// was told on. Inlinable, so that it is specialised where `bind` is
  /// called, for the types there.
  @inlinable
  func carry(from side: KeyValueBindingSide, sourceObject: Source? = nil, isFirst: Bool = false) {
    if let isolation { checkIsolation(isolation, changed: side) }
    let thread = currentThreadIdentity() << Self.threadShift
    var state = gate.load(ordering: .relaxed)
    while true {
      if state == 0 {
        let claimed = thread | (side == .source ? Self.targetWritten : 0)
        let (exchanged, current) = gate.compareExchange(expected: 0, desired: claimed, ordering: .acquiring)
        if exchanged { break }
        state = current
        continue
      }
      var desired = state | Self.waiting(side)
      let writing: KeyValueBindingSide = state & Self.targetWritten != 0 ? .target : .source
      let onThisThread = state >> Self.threadShift == thread >> Self.threadShift
      if !onThisThread {
        desired |= Self.raced
      } else if writing == side && state & Self.echoTold == 0 {
        // The change its own write makes: told first, and not sent back.
        desired = state | Self.echoTold
      }
      let (exchanged, current) = gate.compareExchange(expected: state, desired: desired, ordering: .acquiringAndReleasing)
      if exchanged {
        if !onThisThread { reportRace(changed: side) }
        return
      }
      state = current
    }
    var side = side
    var given = sourceObject
    var rounds = 0
    var first = isFirst
    while true {
      let corrected = write(from: side, sourceObject: given, isFirst: first)
      given = nil
      first = false
      guard let next = nextWaiting(thread: thread, rounds: &rounds, corrected: corrected) else { return }
      side = next
    }
  }

  /// After a write: gives the gate up when nothing waits, or takes the
  /// side that changed meanwhile (`nil` when there is none, or after
  /// ``roundLimit`` rounds on this thread). `corrected` is the side the
  /// write found corrected, which waits too.
  @inlinable
  func nextWaiting(thread: UInt, rounds: inout Int, corrected: KeyValueBindingSide?) -> KeyValueBindingSide? {
    let bothWaiting = Self.waiting(.source) | Self.waiting(.target)
    var state = gate.load(ordering: .acquiring)
    while true {
      var waiting = state & bothWaiting
      if let corrected { waiting |= Self.waiting(corrected) }
      if waiting == 0 || rounds == Self.roundLimit {
        let (exchanged, current) = gate.compareExchange(expected: state, desired: 0, ordering: .acquiringAndReleasing)
        if exchanged {
          if waiting != 0 { reportUnsettled() }
          return nil
        }
        state = current
        continue
      }
      let next: KeyValueBindingSide = waiting & Self.waiting(.source) != 0 ? .source : .target
      let rest = waiting & ~Self.waiting(next)
      let desired = thread | rest | (next == .source ? Self.targetWritten : 0)
      let (exchanged, current) = gate.compareExchange(expected: state, desired: desired, ordering: .acquiringAndReleasing)
      if exchanged {
        // A round another thread's change asked for is that thread's
        // race, reported already; only this thread's own count.
        if state & Self.raced == 0 { rounds += 1 }
        return next
      }
      state = current
    }
  }

  /// Writes the side across from `side` with `side`'s value read now,
  /// unless a write under way on this thread carries from that side (the
  /// value came back to where its change started) and this is not the
  /// binding's first write;
  /// ends the binding if an object is gone. Returns the written side when
  /// the write was corrected.
  @inlinable
  func write(from side: KeyValueBindingSide, sourceObject given: Source?, isFirst: Bool) -> KeyValueBindingSide? {
    // Ended meanwhile (its token invalidated by an observer of the write
    // before): it carries nothing more, a correction included.
    guard !ended.load(ordering: .acquiring) else { return nil }
    // The source a change was told on is alive for the write: borrowed,
    // not retained again; otherwise held here while the write lasts.
    let held = given == nil ? source.object : nil
    guard let sourceReference = given.map({ Unmanaged.passUnretained($0) }) ?? held.map({ Unmanaged.passUnretained($0) }),
      let targetObject = target.object
    else {
      end()
      return nil
    }
    return withExtendedLifetime(held) {
      sourceReference._withUnsafeGuaranteedRef { sourceObject in
        write(from: side, of: sourceObject, to: targetObject, isFirst: isFirst)
      }
    }
  }

  /// ``write(from:sourceObject:isFirst:)`` with both objects alive.
  @inlinable @inline(__always)
  func write(
    from side: KeyValueBindingSide, of sourceObject: Source, to targetObject: Target, isFirst: Bool
  ) -> KeyValueBindingSide? {
    let written: KeyValueBindingSide = side == .source ? .target : .source
    // Only a value that is not `Equatable` needs the look: an equal value
    // is not written, so a ring of `Equatable` values stops where its
    // value comes back, and a change made meanwhile (an observer's, on
    // the property a write further out carries from) is carried like any
    // other. Only an observable object's property can be what a binding
    // carries from: a write to any other needs no look. Nor does a
    // binding's first write, which carries no change around a ring: it
    // makes the sides equal, wherever it is made.
    let writtenIsEquatable = written == .source
      ? SourceValue.self is any Equatable.Type : TargetValue.self is any Equatable.Type
    let looks = !isFirst && !writtenIsEquatable && (written == .source || targetIsObservable)
    let writtenProperty = looks ? property(written, of: sourceObject, targetObject) : nil
    let announced = (written == .target ? targetAnnouncement : sourceAnnouncement).map(Unmanaged.passUnretained)
    // Nobody reads the chain while no binding looks at it.
    guard lookingBindings.load(ordering: .relaxed) != 0 else {
      return accessor.write(side, sourceObject, targetObject, announced) == .corrected ? written : nil
    }
    var entry = BindingWriteChain.Entry(
      from: property(side, of: sourceObject, targetObject), ended: AtomicFlagPointer(ended.address)
    )
    let outcome = withUnsafeMutablePointer(to: &entry) { entry -> BoundWrite? in
      guard BindingWriteChain.enter(entry, unlessCarryingFrom: writtenProperty) else { return nil }
      defer { BindingWriteChain.leave(entry) }
      return accessor.write(side, sourceObject, targetObject, announced)
    }
    return outcome == .corrected ? written : nil
  }

  @usableFromInline
  func reportUnsettled() {
    reportProblem(
      .bindingDidNotSettle,
      "\(description) was carried back and forth \(Self.roundLimit) times for one change and stopped: each write "
        + "changed the other side again (a didSet or an observer that changes it, or a transform and inverse that "
        + "do not give back the value they were given); the two sides may now differ"
    )
  }

  /// A change of `side` told on one thread while another writes for the
  /// binding: reported once.
  @usableFromInline
  func reportRace(changed side: KeyValueBindingSide) {
    guard !raceReported.exchange(true, ordering: .relaxed) else { return }
    let changed = side == .source ? sourceKeyDescription : "\(Target.self).\(targetKeyDescription)"
    reportProblem(
      .bindingWrittenConcurrently,
      "\(description): \(changed) changed on one thread while the binding was writing on another. A bound pair is "
        + "written by one thread or actor at a time, as any property is: the binding adds a writer to each side, "
        + "and storage that nothing synchronises can tear. Write both properties on one thread or actor (the main "
        + "actor, for UI); the change was carried after the write"
    )
  }

  /// Keeps `registration` for ``end()``, or removes it at once if the
  /// binding ended meanwhile.
  private func keep(_ registration: RegistrationHandle) {
    let kept = registrations.withLock { list -> Bool in
      guard list != nil else { return false }
      list!.append(registration)
      return true
    }
    if !kept { registration.remove() }
  }

  /// Ends the binding: once, from the token, a freed object, or a write
  /// that found one gone.
  @usableFromInline
  func end() {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    if countedAsLooking.exchange(false, ordering: .relaxed) {
      lookingBindings.subtract(1, ordering: .relaxed)
    }
    withExtendedLifetime(self) {
      let kept = registrations.withLock { list in
        defer { list = nil }
        return list ?? []
      }
      // Removed after the lock: a registration's end calls back here.
      for registration in kept {
        registration.remove()
      }
      host.storage.close()
    }
  }
}
