/// The jobs ``CoalescedJob/enqueue(on:_:)`` enqueued that have not run
/// yet, process-wide, and who waits for them: what
/// ``waitForCoalescedRuns(isolation:)`` waits for.
///
/// ```swift
/// let ticket = PendingJobs.enqueued()       // when a job is enqueued
/// PendingJobs.run(ticket) { serve() }       // the job, on its actor
/// PendingJobs.whenDone { print("settled") } // once every job pending now, and what they enqueue, ran
/// ```
///
/// Each job has a ticket. A waiter takes the tickets pending at its call;
/// a job enqueued while a job runs, on that job's thread, joins every
/// waiter that waits for the running one; the waiter is done when its
/// tickets are. So a waiter waits for the runs pending at its call and
/// for the runs they cause, and so on, and not for the runs another
/// test, or another part of the app, starts meanwhile.
///
/// One lock, taken twice per job; the waiters' callbacks are called
/// after it.
enum PendingJobs {
  private struct Waiter {
    var tickets: Set<UInt>
    let done: @Sendable () -> Void
  }

  private struct State {
    var nextTicket: UInt = 1
    var pending: Set<UInt> = []
    var waiters: [Waiter] = []
  }

  private static let state = LockedState(State())

  /// The ticket of the job running on this thread, if one does.
  private static let running = ThreadLocal(.runningJob)

  /// Counts a job enqueued now: its ticket, for ``run(_:_:)``.
  static func enqueued() -> UInt {
    let cause = running.value.map { UInt(bitPattern: $0) }
    return state.withLock { state in
      let ticket = state.nextTicket
      // Never 0, which the running slot reads as no job.
      state.nextTicket = state.nextTicket &+ 1 == 0 ? 1 : state.nextTicket &+ 1
      state.pending.insert(ticket)
      if let cause {
        for index in state.waiters.indices where state.waiters[index].tickets.contains(cause) {
          state.waiters[index].tickets.insert(ticket)
        }
      }
      return ticket
    }
  }

  /// Runs `job`, the job of `ticket`, marked as running on this thread,
  /// then counts it done and calls the waiters it was the last of.
  static func run(_ ticket: UInt, _ job: () -> Void) {
    let outer = running.value
    running.value = UnsafeMutableRawPointer(bitPattern: ticket)
    job()
    running.value = outer
    finished(ticket)
  }

  /// Counts the job of `ticket` done.
  private static func finished(_ ticket: UInt) {
    // Moved out under the lock, called and released after it.
    var done: [Waiter] = []
    state.withLock { state in
      state.pending.remove(ticket)
      var index = 0
      while index < state.waiters.count {
        state.waiters[index].tickets.remove(ticket)
        if state.waiters[index].tickets.isEmpty {
          state.waiters.swapAt(index, state.waiters.count - 1)
          done.append(state.waiters.removeLast())
        } else {
          index += 1
        }
      }
    }
    for waiter in done { waiter.done() }
  }

  /// Calls `done` once every job pending now has run, and every job
  /// enqueued while one of them ran, on its thread, and so on; at once,
  /// on this thread, when none is pending. A job its executor never runs
  /// keeps it waiting.
  static func whenDone(_ done: @escaping @Sendable () -> Void) {
    let now = state.withLock { state -> Bool in
      guard !state.pending.isEmpty else { return true }
      state.waiters.append(Waiter(tickets: state.pending, done: done))
      return false
    }
    if now { done() }
  }

  /// How many jobs are pending, process-wide: for tests.
  static var count: Int {
    state.withLock { $0.pending.count }
  }
}
