#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif
import KeyValueObserving

/// The subscription a ``KeyValueObservingPublisher`` gives each subscriber:
/// one observation of the key path, and the subscriber's demand.
///
/// The storage half: a lock around the ``DeliveryState``, the subscriber
/// and the observation's token. State changes under the lock; the
/// subscriber is called, and the token invalidated, after it.
///
/// It keeps the subscriber and the token, never the observed object: the
/// object's registration keeps the subscription until the subscription is
/// cancelled or the object is freed, and either ends it the same way —
/// subscriber, token and waiting values released, nothing sent.
///
/// Not API.
@usableFromInline
final class KeyValueObservingSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  @unchecked Sendable
where Downstream.Failure == Never {
  // @unchecked Sendable: every stored property is reached under `state`'s lock.

  @usableFromInline typealias Value = Downstream.Input

  /// What the lock guards.
  @usableFromInline
  struct State {
    @usableFromInline var delivery = DeliveryState<Value>()
    /// The subscriber, until the subscription ends.
    @usableFromInline var downstream: Downstream?
    /// The observation, until the subscription ends.
    @usableFromInline var token: KeyValueObservation?

    @inlinable
    init(downstream: Downstream?) {
      self.downstream = downstream
    }
  }

  @usableFromInline let state: LockedState<State>

  @inlinable
  init(downstream: Downstream) {
    state = LockedState(State(downstream: downstream))
  }

  /// Starts observing `keyPath` on `object`. A value sent at once
  /// (`.initial`) waits for the subscriber's first demand.
  @inlinable
  func start<Object: KeyValueObservable>(
    observing keyPath: KeyPath<Object, Value>,
    of object: Object,
    options: KeyValueObservingOptions
  ) {
    // The registration carries the values the publisher sends: the new one,
    // and the old one before a change when `.prior` asks for it.
    var registrationOptions = KeyValueObservingOptions.new
    if options.contains(.initial) {
      registrationOptions.insert(.initial)
    }
    if options.contains(.prior) {
      registrationOptions.formUnion([.prior, .old])
    }
    let hooks = ObservationHooks(
      describeObserver: { "publisher(for:) subscriber \(Downstream.self)" },
      ended: { self.cancel() }
    )
    let token = object.observe(keyPath, options: registrationOptions, hooks: hooks) { object, change in
      self.receive(Self.value(of: change, at: keyPath, in: object))
    }
    state.withLock { $0.token = token }
  }

  /// The value a change sends: the whole value of the key — after the
  /// change, or before it for a prior notification.
  ///
  /// A setting carries it; a to-many change carries only the elements at
  /// its indexes, so the key is read.
  @inlinable
  static func value<Object>(
    of change: KeyValueObservedChange<Value>,
    at keyPath: KeyPath<Object, Value>,
    in object: Object
  ) -> Value {
    if change.kind == .setting, let value = change.isPrior ? change.oldValue : change.newValue {
      return value
    }
    return object[keyPath: keyPath]
  }

  /// A change's value arrived: sends it if the subscriber has demand and no
  /// other thread is sending, hands it to the sending thread if one is, or
  /// keeps it as the newest value otherwise.
  @inlinable
  func receive(_ value: Value) {
    let send = state.withLock { state -> (Downstream, Value)? in
      guard let downstream = state.downstream, let first = state.delivery.arrive(value) else { return nil }
      return (downstream, first)
    }
    if let (downstream, first) = send {
      deliver(first, to: downstream)
    }
  }

  /// Sends `first`, then whatever other threads handed over meanwhile, as
  /// long as the subscriber has demand and the subscription lasts.
  @inlinable
  func deliver(_ first: Value, to downstream: Downstream) {
    var value = first
    while true {
      let more = downstream.receive(value)
      let next = state.withLock { state -> Value? in
        guard state.downstream != nil else { return nil }
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
  @inlinable
  func request(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    let send = state.withLock { state -> (Downstream, Value)? in
      guard let downstream = state.downstream, let first = state.delivery.request(demand) else { return nil }
      return (downstream, first)
    }
    if let (downstream, first) = send {
      deliver(first, to: downstream)
    }
  }

  /// Ends the subscription: the observation is removed before this returns,
  /// the subscriber is released and sent nothing more. Idempotent; also
  /// how the subscription ends when its object is freed.
  @inlinable
  func cancel() {
    // Everything leaves the lock together and is released after it: a
    // subscriber's or a value's deinit is user code.
    let ended = state.withLock { state in
      var ended = State(downstream: nil)
      swap(&state, &ended)
      return ended
    }
    ended.token?.invalidate()
  }

  @usableFromInline
  var description: String { "KeyValueObserving" }
}
