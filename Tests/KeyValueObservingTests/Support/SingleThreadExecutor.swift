import Foundation

/// A serial executor that runs every job on one dedicated thread, so that
/// a test can make two tasks take turns on the same thread deterministically.
final class SingleThreadExecutor: SerialExecutor, @unchecked Sendable {
  // @unchecked Sendable: `jobs` is only touched under `condition`'s lock.
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var thread: Thread?

  init() {
    let thread = Thread { [unowned self] in self.runJobs() }
    self.thread = thread
    thread.start()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  private func runJobs() {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: asUnownedSerialExecutor())
    }
  }
}

/// An actor whose work runs on one thread, shared by every task that uses it.
actor OneThreadActor {
  private let executor = SingleThreadExecutor()

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// Runs `body` on the actor's thread.
  func run<Result: Sendable>(_ body: @Sendable () throws -> Result) rethrows -> Result {
    try body()
  }

  /// The identity of the thread the actor runs on.
  func threadIdentity() -> ObjectIdentifier {
    ObjectIdentifier(Thread.current)
  }
}
