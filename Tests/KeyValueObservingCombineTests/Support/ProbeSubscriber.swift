import Foundation
import KeyValueObservingCombine
import Synchronization

/// A subscriber whose demand a test controls, recording what it is sent
/// from any thread and whether two calls ever overlapped.
///
/// Guarded by `NSLock` rather than `Mutex`: the thread sanitizer does not
/// see `Mutex`'s contended path on Linux and would report its users.
final class ProbeSubscriber<Value: Sendable>: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: the mutable state is only touched under `lock`.
  typealias Input = Value
  typealias Failure = Never

  private let lock = NSLock()
  private var received: [Value] = []
  private var subscription: (any Subscription)?
  private let firstDemand: Subscribers.Demand
  private let demandPerValue: Subscribers.Demand
  private let inside = Atomic<Int>(0)
  private let overlaps = Atomic<Int>(0)
  private let completed: Counter?

  /// Called with each value, inside `receive(_:)`, after it is recorded.
  var onValue: ((Value) -> Void)?

  /// A subscriber that asks for `firstDemand` when it is subscribed and for
  /// `demandPerValue` more with each value; `completed` counts completions.
  init(
    firstDemand: Subscribers.Demand = .unlimited,
    demandPerValue: Subscribers.Demand = .none,
    completed: Counter? = nil
  ) {
    self.firstDemand = firstDemand
    self.demandPerValue = demandPerValue
    self.completed = completed
  }

  func receive(subscription: any Subscription) {
    lock.withLock { self.subscription = subscription }
    if firstDemand > 0 {
      subscription.request(firstDemand)
    }
  }

  func receive(_ input: Value) -> Subscribers.Demand {
    if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
      overlaps.add(1, ordering: .relaxed)
    }
    lock.withLock { received.append(input) }
    onValue?(input)
    inside.subtract(1, ordering: .acquiringAndReleasing)
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Never>) {
    completed?.increment()
  }

  /// Asks the subscription for `demand` more values.
  func request(_ demand: Subscribers.Demand) {
    lock.withLock { subscription }?.request(demand)
  }

  /// Cancels the subscription and lets go of it.
  func cancel() {
    let subscription = lock.withLock {
      defer { self.subscription = nil }
      return self.subscription
    }
    subscription?.cancel()
  }

  /// What it was sent, in order.
  var values: [Value] {
    lock.withLock { received }
  }

  /// How many times a value arrived while another was being received.
  var overlappingCalls: Int {
    overlaps.load(ordering: .relaxed)
  }
}

/// A counter shared across threads.
final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  func increment() {
    value.add(1, ordering: .relaxed)
  }

  var count: Int {
    value.load(ordering: .relaxed)
  }
}
