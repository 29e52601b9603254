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
/// **No echo, and both sides equal.** One thread at a time writes for a
/// binding (``gate``). A change it is told while a thread writes is either
/// the echo of that write (the written side, changed on the writing
/// thread: not sent back), or a change to carry after it: the writing
/// thread then reads that side again and writes the other, until nothing
/// waits. So writes racing on two threads end with the value of the last
/// one on both sides. The value carried is the side's value read then, not
/// the change's: observers told before the binding may have changed it
/// again, and told it first. Nothing is locked; the gate is one atomic
/// word.
///
/// Its carrying is inlinable, so that it is specialised where `bind` is
/// called: key paths of known types, no run-time type lookups.
@usableFromInline
final class PropertyBinding<Source: KeyValueObservable, Target: AnyObject, SourceValue, TargetValue>:
  BindingIdentity, @unchecked Sendable
{
  // @unchecked Sendable: the objects are reached through the runtime's
  // atomic reference counts, the gate is atomic; the rest is immutable or
  // written once before the binding is shared.

  @usableFromInline let source: UnownedReference<Source>
  @usableFromInline let target: UnownedReference<Target>
  @usableFromInline let sourceKeyPath: KeyPath<Source, SourceValue>
  /// Reads the source's value and writes it, converted, to the target.
  @usableFromInline let forward: (Source, Target) -> Void
  /// Both ways: reads the target's value and writes it, converted, to the
  /// source.
  @usableFromInline let backward: ((Source, Target) -> Void)?

  /// Who writes for the binding: 0 while nobody does; else the writing
  /// thread's identity shifted left by ``threadShift``, with
  /// ``targetWritten`` when it writes the target, and a bit per side that
  /// changed meanwhile (``waiting(_:)``).
  @usableFromInline let gate = AtomicUInt(0)
  @usableFromInline static var targetWritten: UInt { 1 }
  @usableFromInline static var threadShift: UInt { 3 }

  @usableFromInline static func waiting(_ side: KeyValueBindingSide) -> UInt { side == .source ? 2 : 4 }

  /// How many times one write may be carried back and forth before the
  /// binding gives up (a `didSet` that keeps changing the other side).
  @usableFromInline static var roundLimit: Int { 100 }

  @usableFromInline package let description: String
  private let host = ObservationHost()
  private let ended = AtomicFlag(false)
  /// The registrations with the source's and the target's key paths, or
  /// `nil` once the binding ended: it may end (a change on another thread
  /// finding the target freed) while `start` still registers.
  private let registrations = LockedState<[RegistrationHandle]?>([])
  private let targetStorage: _KeyValueObservationStorage?
  private let targetKeyDescription: String

  /// A binding of `sourceKeyPath` to `targetKeyPath`, which `forward`
  /// (and, both ways, `backward`) read and write: closures made where the
  /// key paths are literals, so that the optimiser can turn their
  /// projections into direct accesses.
  @usableFromInline
  init(
    source: Source,
    _ sourceKeyPath: KeyPath<Source, SourceValue>,
    target: Target,
    _ targetKeyPath: ReferenceWritableKeyPath<Target, TargetValue>,
    forward: @escaping (Source, Target) -> Void,
    backward: ((Source, Target) -> Void)?
  ) {
    self.source = UnownedReference(source)
    self.target = UnownedReference(target)
    self.sourceKeyPath = sourceKeyPath
    self.forward = forward
    self.backward = backward
    self.targetStorage = (target as? any KeyValueObservable)?._$kvoStorage()
    self.targetKeyDescription = Self.describe(targetKeyPath)
    let arrow = backward == nil ? "→" : "⇄"
    description = "binding \(Source.self).\(Source.describe(sourceKeyPath)) \(arrow) \(Target.self).\(targetKeyDescription)"
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
  /// where the types are known.
  @usableFromInline
  func start(
    source: Source,
    site: RegistrationSite,
    initialValueFrom initial: KeyValueBindingSide,
    sourceChanged: @escaping (Source, KeyValueObservedChange<SourceValue>) -> Void,
    observeTarget: ((Target, ObservationHooks) -> RegistrationHandle)?
  ) -> KeyValueObservation {
    let hooks = ObservationHooks(source: .binding(self), ended: { [self] in end() })
    keep(source.register(sourceKeyPath, options: [], hooks: hooks, site: site, changeHandler: sourceChanged))
    if let observeTarget, let target = target.object {
      keep(observeTarget(target, hooks))
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
    carry(from: initial)
    return KeyValueObservation(RegistrationHandle(storage: storage, registration: .passUnretained(anchor)))
  }

  /// Carries `side`'s value to the other side, and whatever changes
  /// meanwhile after it (see the type's discussion). `sourceObject`, when
  /// given, is the source, alive: the object a change was told on.
  @inlinable
  func carry(from side: KeyValueBindingSide, sourceObject: Source? = nil) {
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
      // The echo of this thread's own write: the side it is writing.
      let writing: KeyValueBindingSide = state & Self.targetWritten != 0 ? .target : .source
      if state >> Self.threadShift == thread >> Self.threadShift, writing == side { return }
      let (exchanged, current) = gate.compareExchange(
        expected: state, desired: state | Self.waiting(side), ordering: .acquiringAndReleasing
      )
      if exchanged { return }
      state = current
    }
    var side = side
    var given = sourceObject
    var rounds = 0
    while true {
      write(from: side, sourceObject: given)
      given = nil
      guard let next = nextWaiting(thread: thread, rounds: &rounds) else { return }
      side = next
    }
  }

  /// After a write: gives the gate up when nothing waits, or takes the
  /// side that changed meanwhile (`nil` when there is none, or after
  /// ``roundLimit`` rounds).
  @inlinable
  func nextWaiting(thread: UInt, rounds: inout Int) -> KeyValueBindingSide? {
    var state = gate.load(ordering: .acquiring)
    while true {
      let waitingSource = state & Self.waiting(.source) != 0
      let waitingTarget = state & Self.waiting(.target) != 0
      if !waitingSource && !waitingTarget || rounds == Self.roundLimit {
        let (exchanged, current) = gate.compareExchange(expected: state, desired: 0, ordering: .acquiringAndReleasing)
        if exchanged {
          if rounds == Self.roundLimit { reportUnsettled() }
          return nil
        }
        state = current
        continue
      }
      let next: KeyValueBindingSide = waitingSource ? .source : .target
      let rest = state & (Self.waiting(.source) | Self.waiting(.target)) & ~Self.waiting(next)
      let desired = thread | rest | (next == .source ? Self.targetWritten : 0)
      let (exchanged, current) = gate.compareExchange(expected: state, desired: desired, ordering: .acquiringAndReleasing)
      if exchanged {
        rounds += 1
        return next
      }
      state = current
    }
  }

  /// Writes the side across from `side` with `side`'s value read now;
  /// ends the binding if an object is gone.
  @inlinable
  func write(from side: KeyValueBindingSide, sourceObject given: Source?) {
    guard let sourceObject = given ?? source.object, let targetObject = target.object else {
      return end()
    }
    switch side {
    case .source: forward(sourceObject, targetObject)
    case .target: backward?(sourceObject, targetObject)
    }
  }

  @usableFromInline
  func reportUnsettled() {
    reportProblem(
      .bindingDidNotSettle,
      "\(description) was carried back and forth \(Self.roundLimit) times for one change and stopped: a property "
        + "observer on one side keeps changing the other; the two sides may now differ"
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

/// A registration of a binding that only ends it: the one that files it
/// in its host's storage (what its token names), and, one way to an
/// observable object, the one that tells it the target was freed.
final class BindingAnchor: _KeyValueRegistration, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base class guards.
  let binding: any BindingIdentity & BindingEnding
  private let givenKeyDescription: String?

  init(_ binding: some BindingIdentity & BindingEnding, keyDescription: String? = nil) {
    self.binding = binding
    self.givenKeyDescription = keyDescription
    super.init(options: [], slot: Self.keyPathSlot)
  }

  override var keyDescription: String? { givenKeyDescription }

  override var anchorKeyPath: AnyKeyPath? { \ObservationHost.self }

  override var observerDescription: String { binding.description }

  override var observerSource: ObserverSource { .binding(binding) }

  override func registrationEnded() {
    binding.end()
  }
}

/// A binding's end, for its anchor.
protocol BindingEnding: AnyObject {
  func end()
}

extension PropertyBinding: BindingEnding {}
