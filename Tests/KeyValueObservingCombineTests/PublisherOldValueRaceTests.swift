import Dispatch
import Foundation
@testable import KeyValueObserving
@testable import KeyValueObservingCombine
import Synchronization
import Testing

/// A value whose deinit records whether the subscription's lock was held
/// by the freeing thread: the project's rule is that nothing is released
/// under a lock.
final class LockWatchedValue: @unchecked Sendable {
  let name: String
  let onDeinit: (String) -> Void

  init(_ name: String, onDeinit: @escaping (String) -> Void) {
    self.name = name
    self.onDeinit = onDeinit
  }

  deinit { onDeinit(name) }
}

@KeyValueObservable
final class WatchedHolder: @unchecked Sendable {
  var item: LockWatchedValue?
  var items: [Int] = []
}

/// A subscriber that keeps its subscription, typed, so that a test can
/// read the subscription's lock word.
final class TypedProbe<Object: KeyValueObservable, Value>: Subscriber, @unchecked Sendable {
  typealias Input = Value
  typealias Failure = Never
  private let lock = NSLock()
  private var received: [Value] = []
  var subscription: KeyValueObservingSubscription<Object, Value>?
  let firstDemand: Subscribers.Demand

  init(firstDemand: Subscribers.Demand) { self.firstDemand = firstDemand }

  func receive(subscription: any Subscription) {
    let typed = subscription as! KeyValueObservingSubscription<Object, Value>
    self.subscription = typed
    if firstDemand > 0 { typed.request(firstDemand) }
  }

  func receive(_ input: Value) -> Subscribers.Demand {
    lock.withLock { received.append(input) }
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {}

  var values: [Value] { lock.withLock { received } }

  /// Whether the subscription's lock is held (by anyone; the tests below
  /// are single-threaded where they ask). Linux: the word is 0 when free.
  var lockIsHeld: Bool {
    guard let subscription else { return false }
    return subscription.state.line.load(as: Int32.self) != 0
  }
}

@Suite("publisher(for:) .old and the subscription's lock: what is released under it, what two changes share")
struct PublisherOldValueRaceTests {
  @Test(
    "a waiting value replaced while demand is zero is released after the subscription's lock",
    .enabled(if: lockWordReadable)
  )
  func replacedWaitingValueReleasedAfterLock() {
    let holder = WatchedHolder()
    let probe = TypedProbe<WatchedHolder, LockWatchedValue?>(firstDemand: .none)
    let freedUnderLock = Mutex<[String]>([])
    let freed = Mutex<[String]>([])
    let onDeinit: (String) -> Void = { name in
      if probe.lockIsHeld { freedUnderLock.withLock { $0.append(name) } }
      freed.withLock { $0.append(name) }
    }
    holder.publisher(for: \.item, options: [.new]).subscribe(probe)
    holder.item = LockWatchedValue("first", onDeinit: onDeinit)
    // The first waits as the newest value (demand zero); the second
    // replaces it, and the holder let go of the first already.
    holder.item = LockWatchedValue("second", onDeinit: onDeinit)
    #expect(freed.withLock { $0 } == ["first"])
    #expect(
      freedUnderLock.withLock { $0 }.isEmpty,
      "DeliveryState.arrive replaced the waiting value inside the subscription's lock: its deinit ran under it"
    )
    probe.subscription?.cancel()
  }

  @Test(
    "with .old, two threads' to-many changes of one key each send their old value",
    .timeLimit(.minutes(1))
  )
  func concurrentToManyChangesEachSendOld() {
    let holder = WatchedHolder()
    let probe = ProbeSubscriber<[Int]>()
    // Registered first: its prior notification (which keeps the whole value
    // before the change) runs before the gate's.
    holder.publisher(for: \.items, options: [.old]).subscribe(probe)
    let atPrior = DispatchSemaphore(value: 0)
    let otherDone = DispatchSemaphore(value: 0)
    let aFinished = DispatchSemaphore(value: 0)
    let aThread = Mutex<Bool>(false)
    let aIdentity = Mutex<pthread_t?>(nil)
    // Holds thread A in its prior notification, after the subscription
    // kept A's value before the change, until thread B made a whole change.
    let gate = holder.observe(\.items, options: .prior) { _, change in
      guard change.isPrior, aIdentity.withLock({ $0 }) == pthread_self(), !aThread.withLock({ $0 }) else { return }
      aThread.withLock { $0 = true }
      atPrior.signal()
      otherDone.wait()
    }
    let handed = UncheckedSendableBox(holder)
    let a = Thread {
      aIdentity.withLock { $0 = pthread_self() }
      handed.value.mutableArrayValue(for: \.items).append(1)
      aFinished.signal()
    }
    a.start()
    atPrior.wait()
    // Thread B (this one): a whole change while A waits before its store.
    handed.value.mutableArrayValue(for: \.items).append(2)
    otherDone.signal()
    aFinished.wait()
    // B's change was made on [], A's on [2]: each change sends the value
    // before it, as Apple's KVO keeps one per change.
    #expect(probe.values.count == 2, "a change's old value was lost: sent \(probe.values)")
    withExtendedLifetime(gate) {}
    probe.cancel()
  }

  @Test("with .old, a change nested in another observer's prior callback: one change, its old value, nothing left over")
  func nestedToManyChangeKeepsOuterOld() {
    let holder = WatchedHolder()
    let probe = ProbeSubscriber<[Int]>()
    holder.publisher(for: \.items, options: [.old]).subscribe(probe)
    let nested = Mutex<Bool>(false)
    let inner = holder.observe(\.items, options: .prior) { object, change in
      guard change.isPrior, !nested.withLock({ $0 }) else { return }
      nested.withLock { $0 = true }
      // A second change of the same key on this thread, inside the first.
      object.mutableArrayValue(for: \.items).append(9)
    }
    holder.mutableArrayValue(for: \.items).append(1)
    #expect(holder.items == [9, 1])
    // As observe reports it: the nested change makes the outer one a
    // setting of the whole array, one change whose old value is [].
    #expect(probe.values == [[]], "sent \(probe.values)")
    // What the outer change kept was taken: the next change sends its own.
    holder.mutableArrayValue(for: \.items).append(2)
    #expect(probe.values == [[], [9, 1]], "sent \(probe.values)")
    withExtendedLifetime(inner) {}
    probe.cancel()
  }
}

/// Whether a test may read the lock word as an integer: not on Darwin.
let lockWordReadable: Bool = {
  #if canImport(Darwin)
    false
  #else
    true
  #endif
}()

/// A value handed to another thread, ordered by semaphores.
final class UncheckedSendableBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
