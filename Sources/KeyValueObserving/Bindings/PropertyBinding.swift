/// What a binding says of itself to ``KeyValueObservationGraph`` and
/// ``KeyValueObservable/observationInfo``.
///
/// Not API; `package` because ``ObserverSource`` names it.
@usableFromInline
package protocol BindingIdentity: AnyObject, Sendable {
  /// `binding Person.nickname ⇄ Field.text`.
  var description: String { get }
  /// The storages of the bound objects that are observable and alive.
  func boundStorages() -> [_KeyValueObservationStorage]
}

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
/// binding. A change it is told while a thread writes is either the echo
/// of that write (the written side, changed on the writing thread: not
/// sent back), or a change to carry after it: the writing thread then
/// reads that side again and writes the other, until nothing waits. So
/// writes racing on two threads end with the value of the last one on
/// both sides. Nothing is called under the lock.
final class PropertyBinding<Source: KeyValueObservable, Target: AnyObject, SourceValue, TargetValue>:
  BindingIdentity, @unchecked Sendable
{
  // @unchecked Sendable: the objects are reached through the runtime's
  // atomic reference counts, the propagation state behind its lock; the
  // rest is immutable or written once before the binding is shared.

  private let source: UnownedReference<Source>
  private let target: UnownedReference<Target>
  private let sourceKeyPath: KeyPath<Source, SourceValue>
  private let targetKeyPath: ReferenceWritableKeyPath<Target, TargetValue>
  private let forward: (SourceValue) -> TargetValue
  /// Both ways: the source's writable key path, and the inverse.
  private let backward: (keyPath: ReferenceWritableKeyPath<Source, SourceValue>, convert: (TargetValue) -> SourceValue)?

  package let description: String
  private let host = ObservationHost()
  private let propagation = LockedState(Propagation())
  private let ended = AtomicFlag(false)
  /// The registrations with the source's and the target's key paths; set
  /// once each, before the first write.
  private var registrations: [RegistrationHandle] = []
  private let targetStorage: _KeyValueObservationStorage?

  /// How many times one write may be carried back and forth before the
  /// binding gives up (a `didSet` that keeps changing the other side).
  private static var roundLimit: Int { 100 }

  private struct Propagation {
    /// The thread writing for the binding, or 0.
    var writer: UInt = 0
    /// The side it is writing.
    var written: KeyValueBindingSide? = nil
    /// A side that changed meanwhile, to be carried over after.
    var waiting: KeyValueBindingSide? = nil
  }

  init(
    source: Source,
    _ sourceKeyPath: KeyPath<Source, SourceValue>,
    target: Target,
    _ targetKeyPath: ReferenceWritableKeyPath<Target, TargetValue>,
    forward: @escaping (SourceValue) -> TargetValue,
    backward: (keyPath: ReferenceWritableKeyPath<Source, SourceValue>, convert: (TargetValue) -> SourceValue)?
  ) {
    self.source = UnownedReference(source)
    self.target = UnownedReference(target)
    self.sourceKeyPath = sourceKeyPath
    self.targetKeyPath = targetKeyPath
    self.forward = forward
    self.backward = backward
    self.targetStorage = (target as? any KeyValueObservable)?._$kvoStorage()
    let arrow = backward == nil ? "→" : "⇄"
    description = "binding \(Source.self).\(Source.describe(sourceKeyPath)) \(arrow) \(Target.self).\(Self.describe(targetKeyPath))"
  }

  private static func describe(_ keyPath: AnyKeyPath) -> String {
    (Target.self as? any KeyValueObservable.Type)?.describe(keyPath) ?? KeyPathComponents(of: keyPath)?.readable
      ?? "\(keyPath)"
  }

  package func boundStorages() -> [_KeyValueObservationStorage] {
    var storages: [_KeyValueObservationStorage] = []
    if let source = source.object, let storage = source._$kvoObservedStorage { storages.append(storage.takeUnretainedValue()) }
    if let targetStorage, !targetStorage.isClosed { storages.append(targetStorage) }
    return storages
  }

  /// Registers with both objects, writes the side across from
  /// `initialValueFrom`, and returns the binding's token.
  func start(
    source: Source,
    observingTarget: ((Target, ObservationHooks, @escaping () -> Void) -> RegistrationHandle)?,
    initialValueFrom initial: KeyValueBindingSide,
    site: RegistrationSite
  ) -> KeyValueObservation {
    let hooks = ObservationHooks(source: .binding(self), ended: { [self] in end() })
    registrations.append(
      source.register(sourceKeyPath, options: [], hooks: hooks, site: site) { [self] _, _ in carry(from: .source) }
    )
    if let observingTarget, let target = target.object {
      registrations.append(
        observingTarget(target, hooks) { [self] in carry(from: .target) }
      )
    } else if let targetStorage {
      // One way to an observable object: told when it is freed.
      let watch = BindingAnchor(self, keyDescription: Self.describe(targetKeyPath))
      watch.site = site
      if targetStorage.add(watch) {
        registrations.append(RegistrationHandle(storage: targetStorage, registration: .passUnretained(watch)))
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

  /// Carries `side`'s value, read now, to the other side, and whatever
  /// changes meanwhile after it (see the type's discussion).
  ///
  /// Read now, not taken from the change: observers told before the
  /// binding may have changed the side again, and told it first.
  private func carry(from side: KeyValueBindingSide) {
    guard !ended.load(ordering: .acquiring) else { return }
    let thread = currentThreadIdentity()
    let writes = propagation.withLock { state -> Bool in
      if state.writer == thread, state.written == side { return false }  // the echo of this thread's write
      if state.writer != 0 {
        state.waiting = side
        return false
      }
      state.writer = thread
      state.written = side.other
      return true
    }
    guard writes else { return }
    var side = side
    var rounds = 0
    while true {
      write(from: side)
      let next = propagation.withLock { state -> KeyValueBindingSide? in
        guard let waiting = state.waiting, rounds < Self.roundLimit else {
          state = Propagation()
          return nil
        }
        state.waiting = nil
        state.written = waiting.other
        return waiting
      }
      guard let next else { break }
      rounds += 1
      side = next
    }
    if rounds == Self.roundLimit {
      reportProblem(
        .bindingDidNotSettle,
        "\(description) was carried back and forth \(Self.roundLimit) times for one change and stopped: a property "
          + "observer on one side keeps changing the other; the two sides may now differ"
      )
    }
  }

  /// Writes the side across from `side` with `side`'s value; ends the
  /// binding if an object is gone.
  private func write(from side: KeyValueBindingSide) {
    guard let sourceObject = source.object, let targetObject = target.object else {
      return end()
    }
    switch side {
    case .source:
      targetObject[keyPath: targetKeyPath] = forward(sourceObject[keyPath: sourceKeyPath])
    case .target:
      guard let backward else { return }
      sourceObject[keyPath: backward.keyPath] = backward.convert(targetObject[keyPath: targetKeyPath])
    }
  }

  /// Ends the binding: once, from the token, a freed object, or a write
  /// that found one gone.
  func end() {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    withExtendedLifetime(self) {
      for registration in registrations {
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
