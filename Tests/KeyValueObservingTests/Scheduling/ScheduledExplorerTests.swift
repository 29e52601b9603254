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

  @Test("a failing schedule replays exactly: the same steps, decisions and failure")
  func failingScheduleReplays() throws {
    var explorer = ScheduleExplorer("last writer, replay", randomSchedules: 100, preemptionBound: 1)
    explorer.recordsIssues = false
    let failure = try #require(explorer.explore(lastWriterScenario))
    let parsed = try #require(Schedule(parsing: failure.schedule.description))
    #expect(parsed == failure.schedule)
    let first = explorer.run(lastWriterScenario, parsed)
    let second = explorer.run(lastWriterScenario, parsed)
    #expect(first.failure == failure.message)
    #expect(second.failure == failure.message)
    #expect(first.steps == second.steps)
    #expect(first.decisions.map(\.chosen) == second.decisions.map(\.chosen))
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
