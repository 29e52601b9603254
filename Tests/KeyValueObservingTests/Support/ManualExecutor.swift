import Foundation

@testable import KeyValueObserving

/// A serial executor that runs nothing by itself: the test runs its jobs,
/// one at a time, on the thread it chooses (a schedule explorer's, say),
/// so that when a job runs is the test's input.
final class ManualExecutor: SerialExecutor, @unchecked Sendable {
  // @unchecked Sendable: `jobs` is only touched under `lock`.
  private let lock = NSLock()
  private var jobs: [UnownedJob] = []

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    lock.withLock { jobs.append(job) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  /// How many jobs wait.
  var count: Int { lock.withLock { jobs.count } }

  /// Runs the oldest waiting job on this thread; `false` when none waits.
  @discardableResult
  func runNext() -> Bool {
    let next = lock.withLock { jobs.isEmpty ? nil : jobs.removeFirst() }
    guard let next else { return false }
    next.runSynchronously(on: asUnownedSerialExecutor())
    return true
  }

  /// Runs jobs until none waits, those they enqueue included.
  func runAll() {
    while runNext() {}
  }
}

/// An actor whose jobs run only when the test runs them (see
/// ``ManualExecutor``).
actor ManualActor {
  nonisolated let executor = ManualExecutor()

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// Runs `body` isolated to the actor, now, on this thread: as a job of
  /// the actor, run at once, and every job it enqueues on the actor left
  /// waiting. The actor's queue must be empty.
  nonisolated func runNow(_ body: @escaping @Sendable (isolated ManualActor) -> Void) {
    precondition(executor.count == 0, "the manual actor has jobs waiting")
    CoalescedJob.enqueue(on: self) { self.assumeIsolated { body($0) } }
    executor.runNext()
  }
}
