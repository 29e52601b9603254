import Dispatch
import Foundation
import KeyValueObserving

/// One run of a scenario under a schedule: real threads, one running at a
/// time. The running thread holds the baton; at each schedule point it
/// asks ``choose(at:)`` who runs next, and if another thread, wakes it and
/// waits for the baton to come back. Everything here is touched only by
/// the baton's holder (the semaphores order those touches), or by the test
/// thread before the first thread starts and after the run ends.
final class Execution: @unchecked Sendable {
  enum Status {
    /// May run.
    case runnable
    /// Waits for another thread to move (a lock it holds, an end it is
    /// making): runs again only when none can.
    case waiting
    case finished
  }

  private var status: [Status]
  private let semaphores: [DispatchSemaphore]
  private let ended = DispatchSemaphore(value: 0)
  private let schedule: Schedule
  private let maxSteps: Int

  /// Random schedules: each thread's priority, and the steps at which the
  /// running thread drops to the lowest.
  private var priorities: [Int] = []
  private var changeSteps: Set<Int> = []

  /// The steps made so far.
  private(set) var step = 0
  /// The decisions made: where more than one thread could run.
  private(set) var decisions: [Decision] = []
  /// What went wrong in the run itself: a deadlock, a livelock.
  private(set) var failure: String?
  /// Whether a prescribed schedule could not be followed (see
  /// ``choose(continuing:)``).
  private(set) var diverged = false

  private var preemptions = 0
  /// Rechecks by waiting threads since any thread moved on, and when
  /// they passed the count after which the time is looked at.
  private var idleRechecks = 0 {
    didSet { if idleRechecks == 0 { idleSince = nil } }
  }
  private var idleSince: ContinuousClock.Instant?
  private var nextRecheck = 0

  init(threads: Int, schedule: Schedule, maxSteps: Int) {
    status = Array(repeating: .runnable, count: threads)
    semaphores = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
    self.schedule = schedule
    self.maxSteps = maxSteps
    if case .random(let seed, let points, let steps) = schedule {
      var random = SplitMix64(seed: seed)
      priorities = Array(0..<threads).shuffled(using: &random).map { $0 + points + 1 }
      if steps > 0 {
        for _ in 0..<points { changeSteps.insert(Int.random(in: 1...steps, using: &random)) }
      }
    }
  }

  /// Runs `bodies`, one thread each, to their end; `false` when they did
  /// not end within a minute (a thread blocked where the runtime has no
  /// schedule point), a bound on a hung test, not a timing.
  func start(_ bodies: [() -> Void]) -> Bool {
    _ = Self.installHook
    for (index, body) in bodies.enumerated() {
      let context = ThreadContext(execution: self, index: index)
      let body = UncheckedSendable(body)
      let thread = Thread { [semaphores] in
        semaphores[index].wait()
        let retained = Unmanaged.passRetained(context)
        SchedulePoint.setThreadContext(retained.toOpaque())
        body.value()
        SchedulePoint.setThreadContext(nil)
        retained.release()
        self.finish(index)
      }
      thread.stackSize = 1 << 22
      thread.start()
    }
    let first = choose(continuing: nil)
    semaphores[first].signal()
    return ended.wait(timeout: .now() + 60) == .success
  }

  /// Thread `index` reached a schedule point of `kind`.
  fileprivate func reached(_ index: Int, kind: UInt8) {
    step += 1
    // Rechecks while every thread waits are the deadlock check's to judge.
    if step > maxSteps && idleRechecks == 0 {
      fail("no end after \(maxSteps) steps: a livelock")
      park(index)
    }
    if kind == SchedulePoint.waiting.rawValue {
      status[index] = .waiting
    } else {
      if kind == SchedulePoint.atomic.rawValue, status.indices.contains(where: { $0 != index && status[$0] == .waiting }) {
        // A write may be what the waiting threads wait for (a lock
        // released, a word cleared): they may run again. A wait loop's
        // rechecks are loads, so threads that only wait never wake each
        // other; a lone waiter's own writes wake nobody.
        idleRechecks = 0
        for other in status.indices where other != index && status[other] == .waiting { status[other] = .runnable }
      }
      if changeSteps.contains(step), !priorities.isEmpty {
        priorities[index] = (priorities.min() ?? 0) - 1
      }
    }
    let continuing = status[index] == .runnable ? index : nil
    let next = choose(continuing: continuing)
    if failure != nil { park(index) }
    guard next != index else { return }
    hand(to: next, from: index)
  }

  /// Thread `index` ended its body.
  private func finish(_ index: Int) {
    status[index] = .finished
    idleRechecks = 0
    for other in status.indices where status[other] == .waiting { status[other] = .runnable }
    guard status.contains(where: { $0 != .finished }) else {
      ended.signal()
      return
    }
    let next = choose(continuing: nil)
    if failure != nil {
      ended.signal()
      return
    }
    semaphores[next].signal()
  }

  /// Who runs next. `continuing`: the running thread, when it could go on.
  private func choose(continuing: Int?) -> Int {
    var candidates = status.indices.filter { status[$0] == .runnable }
    if candidates.isEmpty {
      // Every thread left waits: each rechecks in turn, and when they
      // have all rechecked many times with none moving on, for two
      // seconds, none can. (What they wait for may be held by a thread
      // outside the run — another test's, in a process-wide lock of the
      // runtime — which moves on in its own time: hence the seconds.)
      let waiting = status.indices.filter { status[$0] == .waiting }
      idleRechecks += 1
      if idleRechecks > 200 * waiting.count {
        let now = ContinuousClock.now
        if let since = idleSince {
          if now - since > .seconds(2) {
            fail("deadlock: threads \(waiting) each wait for another, and none can move")
            return waiting.first ?? 0
          }
        } else {
          idleSince = now
        }
        sched_yield()
      }
      nextRecheck = (nextRecheck + 1) % waiting.count
      return waiting[nextRecheck]
    }
    let chosen: Int
    switch schedule {
    case .random:
      chosen = candidates.max { priorities[$0] < priorities[$1] }!
    case .prescribed(let choices):
      if candidates.count >= 2, decisions.count < choices.count {
        let prescribed = choices[decisions.count]
        if candidates.contains(prescribed) {
          chosen = prescribed
        } else {
          // Another path than the run the schedule came from: a thread
          // outside the run (another test's) held a process-wide lock of
          // the runtime, and a thread here waited for it. The rest of the
          // run goes on by the default rule; the search skips it.
          diverged = true
          chosen = continuing.flatMap { candidates.contains($0) ? $0 : nil } ?? candidates[0]
        }
      } else {
        chosen = continuing.flatMap { candidates.contains($0) ? $0 : nil } ?? candidates[0]
      }
    }
    if candidates.count >= 2 {
      candidates.sort()
      decisions.append(
        Decision(candidates: candidates, continuing: continuing, chosen: chosen, preemptionsBefore: preemptions)
      )
      if let continuing, chosen != continuing { preemptions += 1 }
    }
    return chosen
  }

  private func hand(to next: Int, from index: Int) {
    if status[next] == .waiting { status[next] = .runnable }
    semaphores[next].signal()
    semaphores[index].wait()
  }

  private func fail(_ message: String) {
    if failure == nil { failure = message }
  }

  /// Stops thread `index` for good, a failed run's threads: they stay
  /// blocked (a deadlock's would spin for ever), and the test goes on.
  private func park(_ index: Int) -> Never {
    ended.signal()
    while true { semaphores[index].wait() }
  }

  /// The hook every thread with a context calls at each schedule point.
  private static let installHook: Void = {
    SchedulePoint.install { context, kind in
      Unmanaged<ThreadContext>.fromOpaque(context)._withUnsafeGuaranteedRef { thread in
        thread.execution.reached(thread.index, kind: kind)
      }
    }
  }()
}

/// What a thread of an execution hands its schedule points.
private final class ThreadContext: @unchecked Sendable {
  // @unchecked Sendable: immutable; the execution is touched only by the
  // baton's holder.
  let execution: Execution
  let index: Int

  init(execution: Execution, index: Int) {
    self.execution = execution
    self.index = index
  }
}

