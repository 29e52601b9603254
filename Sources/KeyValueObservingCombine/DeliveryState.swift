#if canImport(Combine)
  import Combine
#elseif OpenCombine
  import OpenCombine
#endif

/// What a subscription owes its subscriber: the pure half of
/// ``KeyValueObservingSubscription``, changed only under its lock.
///
/// Three rules, each a promise to the subscriber:
/// - **Never more than asked for.** A value is sent only against demand.
/// - **The newest value waits.** A change made while the demand is zero is
///   kept until the subscriber asks again, replacing any value kept
///   before it, so a slow subscriber sees the current value, not a backlog.
/// - **One call at a time, in order.** A thread that finds another thread
///   delivering hands its value over instead of calling the subscriber
///   itself; the delivering thread sends it after the one it is sending.
///   Values accepted against demand wait in `waiting` for that.
///
/// Invariants: `newest` is set only while `demand` is zero (demand that
/// arrives takes it into `waiting` at once, ahead of later values), and
/// `waiting` is empty while nobody delivers.
///
/// Not API.
@usableFromInline
struct DeliveryState<Value> {
  /// How many more values the subscriber asked for.
  @usableFromInline var demand = Subscribers.Demand.none
  /// Whether a thread is calling the subscriber.
  @usableFromInline var isDelivering = false
  /// Values counted against the demand that the delivering thread sends next.
  @usableFromInline var waiting = ValueQueue<Value>()
  /// The newest value that arrived with no demand left.
  @usableFromInline var newest: Value?

  @inlinable
  init() {}

  /// A value arrived. Returns it when the caller is to deliver it now, and
  /// from then on the caller is the delivering thread.
  @inlinable
  mutating func arrive(_ value: Value, replacing replaced: inout Value?) -> Value? {
    guard demand > 0 else {
      // The replaced value goes out in `replaced`, to be released after
      // the lock: its deinit may run any code.
      replaced = newest
      newest = value
      return nil
    }
    demand -= 1
    guard !isDelivering else {
      waiting.append(value)
      return nil
    }
    isDelivering = true
    return value
  }

  /// The subscriber asked for `more`. Returns a value for the caller to
  /// deliver now, as the delivering thread.
  @inlinable
  mutating func request(_ more: Subscribers.Demand) -> Value? {
    guard !isDelivering else {
      add(more)
      return nil
    }
    // Nobody delivers, so nothing waits: a kept value goes out at once,
    // without passing through the queue.
    demand += more
    guard demand > 0, let kept = newest else { return nil }
    newest = nil
    demand -= 1
    isDelivering = true
    return kept
  }

  /// The subscriber took a value and asked for `more`. Returns the next
  /// value to deliver, or `nil` when the delivering thread is done.
  @inlinable
  mutating func delivered(adding more: Subscribers.Demand) -> Value? {
    add(more)
    if let next = waiting.popFirst() {
      return next
    }
    isDelivering = false
    return nil
  }

  /// Adds demand; a value kept for lack of it is accepted first.
  @inlinable
  mutating func add(_ more: Subscribers.Demand) {
    demand += more
    if demand > 0, let kept = newest {
      newest = nil
      demand -= 1
      waiting.append(kept)
    }
  }
}
