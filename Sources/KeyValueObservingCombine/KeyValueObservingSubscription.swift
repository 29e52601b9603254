#if canImport(Combine)
  import Combine
#elseif OpenCombine
  import OpenCombine
#endif
import KeyValueObserving

/// The subscription a ``KeyValueObservingPublisher`` gives each subscriber:
/// one observation of the key path, and the subscriber's demand.
///
/// The storage half: a lock around the ``DeliveryState``, the subscriber
/// and the observation's registration. State changes under the lock; the
/// subscriber is called, and the registration removed, after it.
///
/// It keeps the subscriber and the registration (the pair a token would
/// hold, without a token object of its own), never the observed object: the
/// object's registration keeps the subscription until the subscription is
/// cancelled or the object is freed, and either ends it the same way —
/// subscriber, registration and waiting values released, nothing sent but,
/// for a freed object observed with `.deallocation`, `.finished`.
///
/// Generic over the object and the value, not the subscriber, which is
/// reached through a ``Receiver``: so the subscription's code is
/// specialised where the publisher was made (see
/// ``KeyValueObservingPublisher``), whatever generic code of Combine's the
/// subscriber came through.
///
/// Not API.
@usableFromInline
final class KeyValueObservingSubscription<Object: KeyValueObservable, Value>: Subscription, CustomStringConvertible,
  @unchecked Sendable
{
  // @unchecked Sendable: every stored property is reached under `state`'s lock.

  /// What the lock guards.
  @usableFromInline
  struct State {
    @usableFromInline var delivery = DeliveryState<Value>()
    /// The subscriber, until the subscription ends.
    @usableFromInline var receiver: Receiver<Value>?
    /// The observation, until the subscription ends.
    @usableFromInline var registration: RegistrationHandle?
    /// With `.old`, each open change's whole value before it, read
    /// at its prior notification and sent after it, with the thread that
    /// makes the change: changes nest on one thread, and run at once on
    /// several.
    @usableFromInline var valuesBeforeChanges: [(thread: UInt, value: Value)] = []

    @inlinable
    init(receiver: Receiver<Value>?) {
      self.receiver = receiver
    }
  }

  @usableFromInline let state: LockedState<State>

  /// The observed key path, read for a change that does not carry the
  /// whole value.
  @usableFromInline let keyPath: KeyPath<Object, Value>

  /// What the subscriber asked to be sent. Kept here, not captured, so
  /// that the registration's closure captures the subscription alone.
  @usableFromInline let options: KeyValueObservingOptions

  /// ``request(_:)`` and ``cancel()`` as code specialised for `Object` and
  /// `Value`.
  ///
  /// Combine calls the two through the `Subscription` protocol from its own
  /// generic code, which reaches this class's generic implementation; that
  /// implementation only calls these, made where the types are known, so that
  /// the work runs specialised instead of asking the runtime for the
  /// metadata of every generic type it touches (about 14,000 instructions
  /// for a first request, against a few hundred).
  @usableFromInline let entryPoints: EntryPoints

  @usableFromInline
  struct EntryPoints {
    @usableFromInline let request: (KeyValueObservingSubscription, Subscribers.Demand) -> Void
    @usableFromInline let cancel: (KeyValueObservingSubscription) -> Void

    @inlinable
    init(
      request: @escaping (KeyValueObservingSubscription, Subscribers.Demand) -> Void,
      cancel: @escaping (KeyValueObservingSubscription) -> Void
    ) {
      self.request = request
      self.cancel = cancel
    }
  }

  @inlinable
  init(keyPath: KeyPath<Object, Value>, options: KeyValueObservingOptions, receiver: Receiver<Value>) {
    self.keyPath = keyPath
    self.options = options
    state = LockedState(State(receiver: receiver), ownsCacheLines: false)
    entryPoints = EntryPoints(request: { $0.add($1) }, cancel: { $0.end() })
  }

  /// A subscription for `receiver`, observing `keyPath` on `object`. A
  /// value sent at once (`.initial`) waits for the subscriber's first
  /// demand.
  @inlinable
  static func started(
    observing keyPath: KeyPath<Object, Value>,
    of object: Object,
    options: KeyValueObservingOptions,
    site: RegistrationSite,
    receiver: Receiver<Value>
  ) -> KeyValueObservingSubscription {
    let subscription = KeyValueObservingSubscription(keyPath: keyPath, options: options, receiver: receiver)
    subscription.start(observing: keyPath, of: object, options: options, site: site)
    return subscription
  }

  /// Registers the observation. Its closures capture the subscription
  /// alone, which then serves as their context: no allocation of their own.
  ///
  /// Takes the key path the caller has, not the stored one: where the
  /// caller's is a literal, the compiler reads the `.initial` value
  /// through the property itself instead of the key path.
  @inlinable
  func start(
    observing keyPath: KeyPath<Object, Value>,
    of object: Object,
    options: KeyValueObservingOptions,
    site: RegistrationSite
  ) {
    // The registration carries the values the publisher sends: the new one
    // after a change (`.new`), the old one before it (`.prior`) or after
    // it (`.old`). A to-many change carries only the elements it touched,
    // so `.old` reads the whole value at a prior notification.
    let sendsNew = options.contains(.new)
    let sendsPrior = options.contains(.prior)
    let sendsOld = options.contains(.old)
    // Without `.new`, a change with no old value cannot be told from the
    // initial notification: the initial value is read here instead.
    let readsInitial = options.contains(.initial) && !sendsNew
    var registrationOptions = options.intersection(sendsNew ? [.initial, .new, .deallocation] : [.deallocation])
    if sendsPrior || sendsOld {
      registrationOptions.formUnion([.prior, .old])
    }
    // Ended by the object's deinit (a cancel takes the receiver out
    // first): with `.deallocation` the subscriber hears the publisher
    // finish.
    let finishes = options.contains(.deallocation)
    let hooks = ObservationHooks(
      source: .publisher,
      ended: { self.end(finishing: finishes) }
    )
    let registration = object.register(keyPath, options: registrationOptions, hooks: hooks, site: site) { object, change in
      self.send(change, of: object)
    }
    if readsInitial { receive(object[keyPath: keyPath]) }
    // Nothing can have ended the subscription yet: only its owner, who does
    // not have it before this returns, or the object's deinit, which the
    // caller's reference holds off, can end it.
    state.withLock { $0.registration = registration }
  }

  /// The value a change sends: the whole value of the key — after the
  /// change, or before it for a prior notification.
  ///
  /// A setting carries it; a to-many change carries only the elements at
  /// its indexes, so the key is read.
  @inlinable
  func value(of change: KeyValueObservedChange<Value>, in object: Object) -> Value {
    if change.kind == .setting, let value = change.isPrior ? change.oldValue : change.newValue {
      return value
    }
    return object[keyPath: keyPath]
  }

  /// Sends what `change` carries that the subscriber asked for: at a
  /// prior notification the value before (`.prior`), after the change the
  /// value before (`.old`), then the value after (`.new`).
  @inlinable
  func send(_ change: KeyValueObservedChange<Value>, of object: Object) {
    if change.isPrior {
      if options.contains(.prior) { receive(value(of: change, in: object)) }
      if options.contains(.old) { keep(value(of: change, in: object)) }
      return
    }
    // Every prior notification kept a value and every change takes one, so
    // that a change nested in another's prior callback (which turns the
    // outer one into a setting) leaves the outer one's value in place.
    if options.contains(.old), let kept = takeValueBeforeChange() {
      receive(change.kind == .setting ? change.oldValue ?? kept : kept)
    }
    if options.contains(.new) { receive(value(of: change, in: object)) }
  }

  /// Keeps `value`, the whole value before a change, until the change
  /// this thread is making is made.
  @inlinable
  func keep(_ value: Value) {
    let thread = currentThreadID()
    state.withLock { $0.valuesBeforeChanges.append((thread, value)) }
  }

  /// The value ``keep(_:)`` kept for the change this thread just made, if
  /// any: the innermost of its open changes.
  @inlinable
  func takeValueBeforeChange() -> Value? {
    let thread = currentThreadID()
    return state.withLock { state -> Value? in
      guard let index = state.valuesBeforeChanges.lastIndex(where: { $0.thread == thread }) else { return nil }
      return state.valuesBeforeChanges.remove(at: index).value
    }
  }

  /// A change's value arrived: sends it if the subscriber has demand and no
  /// other thread is sending, hands it to the sending thread if one is, or
  /// keeps it as the newest value otherwise.
  @inlinable
  func receive(_ value: Value) {
    var replaced: Value? = nil
    deliver { $0.arrive(value, replacing: &replaced) }
    _ = replaced
  }

  /// Applies `change` to the delivery state under the lock and, when it
  /// makes this thread the delivering one, delivers what it returned.
  @inlinable
  func deliver(after change: (inout DeliveryState<Value>) -> Value?) {
    let send = state.withLock { state -> (Receiver<Value>, Value)? in
      guard let receiver = state.receiver, let first = change(&state.delivery) else { return nil }
      return (receiver, first)
    }
    if let (receiver, first) = send {
      deliver(first, to: receiver)
    }
  }

  /// Sends `first`, then whatever other threads handed over meanwhile, as
  /// long as the subscriber has demand and the subscription lasts.
  @inlinable
  func deliver(_ first: Value, to receiver: Receiver<Value>) {
    var value = first
    while true {
      let more = receiver.receive(value)
      let next = state.withLock { state -> Value? in
        guard state.receiver != nil else { return nil }
        return state.delivery.delivered(adding: more)
      }
      guard let next else { return }
      value = next
    }
  }

  /// Adds to the subscriber's demand and sends what waited for it.
  ///
  /// Combine asks for positive demand; a request for none asks for
  /// nothing, and is ignored rather than trapped on.
  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    entryPoints.request(self, demand)
  }

  /// Ends the subscription: the observation is removed before this returns,
  /// the subscriber is released and sent nothing more. Idempotent.
  @usableFromInline
  func cancel() {
    entryPoints.cancel(self)
  }

  /// ``request(_:)``'s work.
  @inlinable
  func add(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    deliver { $0.request(demand) }
  }

  /// ``cancel()``'s work; also how the subscription ends when its object
  /// is freed, `finishing` the subscriber then if it was not cancelled.
  @inlinable
  func end(finishing: Bool = false) {
    // Everything leaves the lock together and is released after it: a
    // subscriber's or a value's deinit is user code.
    let ended = state.withLock { state in
      var ended = State(receiver: nil)
      swap(&state, &ended)
      return ended
    }
    ended.registration?.remove()
    if finishing { ended.receiver?.finish() }
  }

  @usableFromInline
  var description: String { "KeyValueObserving" }
}
