import Dispatch
import Foundation
import KeyValueObserving
import Testing

/// Two keys a coalesced closure reads, and a key it may write.
@KeyValueObservable
final class Tally {
  var name = ""
  var count = 0
  var echo = ""
}

/// The rule of `.coalesced`: the changes of one job of the closure's actor
/// run it once, after that job; a change in a later job runs it again.
/// No test sleeps: `waitForCoalescedRuns()` and the order of the actor's
/// queue say when a run has happened.
@Suite("Coalescing: one run per job of the actor")
struct CoalescingTests {
  @Test("six changes in one job of the main actor run it once, after the job: 30 times alike")
  @MainActor
  func sixChangesOneRun() async {
    for round in 0..<30 {
      let tally = Tally()
      var seen: [String] = []
      let token = withKeyValueObservation(tracking: .coalesced) { seen.append("\(tally.name) \(tally.count)") }
      tally.name = "a"
      tally.count = 1
      tally.name = "b"
      tally.count = 2
      tally.name = "c"
      tally.count = 3
      #expect(seen == [" 0"], "round \(round): a run inside the job that made the changes")
      // The run was enqueued on the main actor at the first change; the
      // rest of this task comes back to the main actor after it.
      await Task.yield()
      #expect(seen == [" 0", "c 3"], "round \(round): the run is still pending in a later job")
      await waitForCoalescedRuns()
      #expect(seen == [" 0", "c 3"], "round \(round)")
      withExtendedLifetime(token) {}
    }
  }

  @Test("changes in two jobs of the main actor run it twice: 30 times alike")
  @MainActor
  func twoJobsTwoRuns() async {
    for round in 0..<30 {
      let tally = Tally()
      var seen: [String] = []
      let token = withKeyValueObservation(tracking: .coalesced) { seen.append("\(tally.name) \(tally.count)") }
      tally.name = "a"
      tally.count = 1
      await Task.yield()  // ends the job; what follows is a later one
      tally.name = "b"
      tally.count = 2
      await waitForCoalescedRuns()
      #expect(seen == [" 0", "a 1", "b 2"], "round \(round)")
      withExtendedLifetime(token) {}
    }
  }

  @Test("a job enqueued after the changes runs after the run, whatever enqueues it: 30 times alike")
  @MainActor
  func laterTaskRunsAfter() async {
    for round in 0..<30 {
      let tally = Tally()
      var seen: [String] = []
      let token = withKeyValueObservation(tracking: .coalesced) { seen.append("\(tally.name)") }
      tally.name = "a"
      let later = Task { @MainActor in
        seen.append("later job")
        tally.name = "b"
      }
      await later.value
      await waitForCoalescedRuns()
      #expect(seen == ["", "a", "later job", "b"], "round \(round)")
      withExtendedLifetime(token) {}
    }
  }

  @Test("the rule holds on a custom actor: one run per job, two jobs two runs")
  func customActor() async {
    let workshop = Workshop()
    for round in 0..<30 {
      let (oneJob, twoJobs) = await workshop.runBoth()
      #expect(oneJob == [" 0", "c 3"], "round \(round)")
      #expect(twoJobs == [" 0", "a 1", "b 2"], "round \(round)")
    }
  }

  @Test("on an actor with an executor of its own, each run is on its thread, changes from another thread included")
  func customExecutor() async {
    let workshop = ThreadBoundWorkshop()
    let (actorThread, runThreads, seen) = await workshop.changeFromElsewhere()
    #expect(runThreads == [actorThread, actorThread])
    #expect(seen == ["", "y"])
  }

  @Test("changes made on another thread while the actor runs one job: one run, on the actor")
  @MainActor
  func changeFromAnotherThread() async {
    for round in 0..<30 {
      let tally = Tally()
      var seen: [String] = []
      let token = withKeyValueObservation(tracking: .coalesced) {
        MainActor.assertIsolated()
        seen.append(tally.name)
      }
      let handed = UncheckedSendable(tally)
      // This job holds the main actor while the other thread changes.
      onAnotherThreadAndWait {
        handed.value.name = "x"
        handed.value.name = "y"
      }
      await waitForCoalescedRuns()
      #expect(seen == ["", "y"], "round \(round)")
      withExtendedLifetime(token) {}
    }
  }
}

/// Runs `body` on a thread of its own and waits for it to return: the
/// caller's job (and so its actor) is held meanwhile.
func onAnotherThreadAndWait(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  onNewThread {
    body()
    done.signal()
  }
  done.wait()
}

extension CoalescingTests {
  @Test("waitForCoalescedRuns returns at once when nothing is pending")
  @MainActor
  func nothingPending() async {
    await waitForCoalescedRuns()
  }

  @Test("waitForCoalescedRuns also waits for the runs the waited-for runs schedule")
  @MainActor
  func waitsForWhatRunsSchedule() async {
    let tally = Tally()
    var echoes: [String] = []
    // The first closure writes what the second reads: its run schedules
    // the second's.
    let writer = withKeyValueObservation(tracking: .coalesced) { tally.echo = "echo of \(tally.name)" }
    let reader = withKeyValueObservation(tracking: .coalesced) { echoes.append(tally.echo) }
    await waitForCoalescedRuns()
    echoes = []
    tally.name = "a"
    await waitForCoalescedRuns()
    #expect(echoes == ["echo of a"])
    withExtendedLifetime((writer, reader)) {}
  }

  @Test("a tracked value coalesced hands the value before the job's first change as the old one")
  @MainActor
  func trackedValueOldValue() async {
    let tally = Tally()
    var changes: [String] = []
    let token = withKeyValueObservation(of: { tally.count * 10 }, options: [.old, .new], tracking: .coalesced) {
      changes.append("\($0.oldValue!) → \($0.newValue!)")
    }
    tally.count = 1
    tally.count = 2
    await waitForCoalescedRuns()
    tally.count = 3
    await waitForCoalescedRuns()
    #expect(changes == ["0 → 20", "20 → 30"])
    withExtendedLifetime(token) {}
  }

  @Test("invalidated while a run is pending: no run after invalidate() returns, and the captures go")
  @MainActor
  func invalidatedWhilePending() async {
    let tally = Tally()
    var runs = 0
    weak var weakCapture: Tally?
    var token: KeyValueObservation?
    do {
      let capture = Tally()
      weakCapture = capture
      token = withKeyValueObservation(tracking: .coalesced) {
        _ = capture
        runs += 1
        _ = tally.count
      }
    }
    tally.count = 1  // a run is pending
    token!.invalidate()
    #expect(!token!.isActive)
    await waitForCoalescedRuns()
    #expect(runs == 1, "only the first run")
    #expect(weakCapture == nil, "the pending job let go of the closure once it ran")
    tally.count = 2
    await waitForCoalescedRuns()
    #expect(runs == 1)
  }

  @Test("released while a run is pending: no run")
  @MainActor
  func releasedWhilePending() async {
    let tally = Tally()
    var runs = 0
    var token: KeyValueObservation? = withKeyValueObservation(tracking: .coalesced) {
      runs += 1
      _ = tally.count
    }
    tally.count = 1
    token = nil
    await waitForCoalescedRuns()
    #expect(runs == 1)
    _ = token
  }
}

/// An actor that observes its own models with coalesced closures.
actor Workshop {
  /// Six changes in one job, then, anew, changes in two jobs: what each
  /// closure saw.
  func runBoth() async -> (oneJob: [String], twoJobs: [String]) {
    let first = Tally()
    var oneJob: [String] = []
    let one = withKeyValueObservation(tracking: .coalesced) { oneJob.append("\(first.name) \(first.count)") }
    first.name = "a"
    first.count = 1
    first.name = "b"
    first.count = 2
    first.name = "c"
    first.count = 3
    await Task.yield()
    let second = Tally()
    var twoJobs: [String] = []
    let two = withKeyValueObservation(tracking: .coalesced) { twoJobs.append("\(second.name) \(second.count)") }
    second.name = "a"
    second.count = 1
    await Task.yield()
    second.name = "b"
    second.count = 2
    await waitForCoalescedRuns()
    withExtendedLifetime((one, two)) {}
    return (oneJob, twoJobs)
  }
}

/// An actor whose jobs run on one thread of their own.
actor ThreadBoundWorkshop {
  private let executor = SingleThreadExecutor()

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// A coalesced closure on this actor, its key changed twice on another
  /// thread during one job: the actor's thread, the threads the runs ran
  /// on, and what they saw.
  func changeFromElsewhere() async -> (UInt, [UInt], [String]) {
    let tally = Tally()
    var threads: [UInt] = []
    var seen: [String] = []
    let token = withKeyValueObservation(tracking: .coalesced) {
      seen.append(tally.name)
      threads.append(currentThread())
    }
    let handed = UncheckedSendable(tally)
    onAnotherThreadAndWait {
      handed.value.name = "x"
      handed.value.name = "y"
    }
    await waitForCoalescedRuns()
    withExtendedLifetime(token) {}
    return (currentThread(), threads, seen)
  }
}
