import KeyValueObserving
import Testing

/// The schedule explorer itself: it interleaves, it replays, and it tells
/// a deadlock from a wait.
@Suite("Scheduled: the explorer itself", .enabled(if: SchedulePoint.areCompiledIn))
struct ScheduledExplorerTests {
  /// Two threads each write the key once; the promise "the first thread's
  /// write is the last" is false under some schedules.
  private func lastWriterScenario() -> ScenarioRun {
    let object = Junction()
    var heard: [Int] = []
    let token = object.observe(\.a, options: .new) { _, change in heard.append(change.newValue!) }
    return ScenarioRun(
      threads: [{ object.a = 1 }, { object.a = 2 }],
      check: {
        _ = token
        return heard.last == 1 ? nil : "heard \(heard)"
      }
    )
  }

  @Test("random schedules find an order one thread after the other never shows")
  func randomSchedulesInterleave() {
    var explorer = ScheduleExplorer("last writer, random", randomSchedules: 100, preemptionBound: nil)
    explorer.recordsIssues = false
    let failure = explorer.explore(lastWriterScenario)
    #expect(failure?.message == "heard [1, 2]")
  }

  @Test("the exhaustive search finds it too, with no random schedule")
  func exhaustiveSearchInterleaves() {
    var explorer = ScheduleExplorer("last writer, exhaustive", randomSchedules: 0, preemptionBound: 1)
    explorer.recordsIssues = false
    let failure = explorer.explore(lastWriterScenario)
    #expect(failure != nil)
    guard case .prescribed = failure?.schedule else {
      Issue.record("the failure came from no prescribed schedule: \(String(describing: failure))")
      return
    }
  }

  @Test("a failing schedule replays: the same failure, from its printed form")
  func failingScheduleReplays() throws {
    let explorer = ScheduleExplorer("last writer, replay", randomSchedules: 0, preemptionBound: nil)
    // Priorities alone, no change point: the order a seed gives does not
    // move when another test's tracking scope, open at the same time, adds
    // steps to a change (`activeTrackingScopes` is process-wide), so the
    // run is the same in a parallel test run too.
    let failing = try #require(
      (0..<32).lazy.map { Schedule.random(seed: $0, changePoints: 0, steps: 0) }
        .first { explorer.run(lastWriterScenario, $0).failure != nil }
    )
    let parsed = try #require(Schedule(parsing: failing.description))
    #expect(parsed == failing)
    let first = explorer.run(lastWriterScenario, parsed)
    let second = explorer.run(lastWriterScenario, parsed)
    #expect(first.failure == "heard [1, 2]")
    #expect(second.failure == first.failure)
  }

  @Test("threads that only wait, for each other, are a deadlock: reported, not a hang")
  func deadlockIsReported() {
    let explorer = ScheduleExplorer("waiting for ever", randomSchedules: 0, preemptionBound: nil)
    let outcome = explorer.run(
      {
        // Each waits at the runtime's wait point, for a flag nobody sets.
        let waitForever = { while true { SchedulePoint.reach(.waiting) } }
        return ScenarioRun(threads: [waitForever, waitForever], check: { nil })
      },
      .random(seed: 1, changePoints: 0, steps: 0)
    )
    #expect(outcome.failure?.hasPrefix("deadlock") == true)
  }
}
