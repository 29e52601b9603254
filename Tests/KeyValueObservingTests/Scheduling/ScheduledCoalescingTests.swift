import Dispatch
import Foundation
@testable import KeyValueObserving
import Testing

/// A coalesced job's request and start, and the pending-job bookkeeping
/// `waitForCoalescedRuns()` waits on, each held at its window: with the
/// schedule explorer (the interleavings), and with real threads (what the
/// processor reorders, which the thread sanitizer sees).
@Suite("Scheduled: a coalesced job's request racing its start", .enabled(if: SchedulePoint.areCompiledIn))
struct ScheduledCoalescingTests {
  @Test("a request that finds the job waiting is served by it: the job starts after it, and sees its change")
  func requestRacingStart() {
    ScheduleExplorer("coalescing: a request racing the job's start").explore {
      let box = JobBox()
      // The request that enqueued the job, made before.
      _ = box.job.request()
      return ScenarioRun(
        threads: [
          {
            box.payload = 1
            box.joined = !box.job.request(0b10)
          },
          {
            box.asked = box.job.start()
            box.seen = box.payload
          },
        ],
        check: {
          if box.joined {
            if box.asked != 0b11 { return "the job took \(box.asked), not the request that joined it" }
            if box.seen != 1 { return "the job a request joined read the state before that request's change" }
            return box.job.isWaiting ? "a job waits though the one asked for took every request" : nil
          }
          // Made after the start: the request enqueues the next job.
          if box.asked != 0b01 { return "the job took \(box.asked), with a request that enqueued another" }
          return box.job.start() == 0b10 ? nil : "the next job does not take the request that enqueued it"
        }
      )
    }
  }
}

@Suite("Coalescing: real threads held at a job's windows")
struct CoalescingWindowTests {
  @Test("a request that finds the job waiting releases its change to the job: the sanitizer sees the edge", arguments: 0..<50)
  func joinedRequestReleasesItsChange(round: Int) {
    let box = JobBox()
    // The request that enqueued the job, on this thread before both.
    _ = box.job.request()
    let done = DispatchGroup()
    let shared = UncheckedSendable(box)
    done.enter()
    onNewThread {
      // A plain write, then the request that finds the job waiting,
      // asked already for what this one asks.
      shared.value.payload = 42 + round
      shared.value.joined = !shared.value.job.request()
      // Relaxed: no edge of its own from this thread to the job's.
      shared.value.requested.store(1, ordering: .relaxed)
      done.leave()
    }
    done.enter()
    onNewThread {
      // Held until the request has been made, then the job starts.
      while shared.value.requested.load(ordering: .relaxed) == 0 {}
      shared.value.asked = shared.value.job.start()
      // The job's read: ordered after the change only by the request
      // and the start (a data race for the sanitizer, were it not).
      shared.value.seen = shared.value.payload
      done.leave()
    }
    done.wait()
    #expect(box.joined)
    #expect(box.asked == 1)
    #expect(box.seen == 42 + round)
  }

  @Test("a waiter waits for a job running on another thread and for what it enqueues there, not for what others enqueue")
  func waiterFollowsTheRunningJob() async {
    let outer = PendingJobs.enqueued()
    let calls = WaiterCalls()
    let settled = UncheckedSendable(calls)
    PendingJobs.whenDone { settled.value.called() }
    // Enqueued on this thread, where no job runs: not the waiter's.
    let unrelated = PendingJobs.enqueued()
    // The job runs on a thread of its own and enqueues one there: the
    // waiter waits for it too.
    let inner = await withCheckedContinuation { (ran: CheckedContinuation<UInt, Never>) in
      onNewThread {
        var enqueued: UInt = 0
        PendingJobs.run(outer) { enqueued = PendingJobs.enqueued() }
        ran.resume(returning: enqueued)
      }
    }
    #expect(calls.count == 0, "the waiter was told before the job its job enqueued ran")
    await withCheckedContinuation { (told: CheckedContinuation<Void, Never>) in
      calls.whenCalled { told.resume() }
      onNewThread { PendingJobs.run(inner) {} }
    }
    // Told, with the unrelated job still pending.
    #expect(calls.count == 1)
    PendingJobs.run(unrelated) {}
    #expect(calls.count == 1, "the waiter was told twice")
  }
}

/// A coalesced job, what its request and its start saw, and a value the
/// requester changes: plain memory, which the job reads.
private final class JobBox: @unchecked Sendable {
  // @unchecked Sendable: each test orders its accesses, which is what it
  // checks.
  let job = CoalescedJob()
  /// Set, relaxed, once the requester's request returned.
  let requested = AtomicUInt(0)
  var payload = 0
  var joined = false
  var asked: UInt = 0
  var seen = 0
}

/// How many times a waiter was told, and who waits for the first.
private final class WaiterCalls: @unchecked Sendable {
  // @unchecked Sendable: under `lock`.
  private let lock = NSLock()
  private var calls = 0
  private var waiting: (() -> Void)?

  var count: Int { lock.withLock { calls } }

  func called() {
    let first = lock.withLock { () -> (() -> Void)? in
      calls += 1
      defer { waiting = nil }
      return waiting
    }
    first?()
  }

  /// Calls `body` once the waiter is told: at once if it was.
  func whenCalled(_ body: @escaping () -> Void) {
    let now = lock.withLock { () -> Bool in
      if calls > 0 { return true }
      waiting = body
      return false
    }
    if now { body() }
  }
}
