import KeyValueObserving
import Testing

/// The repeat of a change two recorded graphs hear (an object both share)
/// under forced interleavings: `LockedState.record` compares it with the
/// change another recording kept with its lock released, between the lock word's
/// release and its taking again, both schedule points.
@Suite("Scheduled: a change two recordings hear, racing the stack on another thread", .enabled(if: SchedulePoint.areCompiledIn))
struct ScheduledUndoRepeatTests {
  /// Two outlines sharing `shared`; `other` is in the first alone.
  struct Graphs {
    let shared = OutlineItem("shared")
    let other = OutlineItem("other")
    let first = Outline()
    let second = Outline()
    let undo = KeyValueUndoStack(isolation: nil)
    let recordings: [KeyValueObservation]

    init() {
      first.items = [shared, other]
      second.items = [shared]
      recordings = [undo.record(first, isolation: nil), undo.record(second, isolation: nil)]
    }

    /// Undoes every step: how many there were, at most 10.
    func undoAll() -> Int {
      var steps = 0
      while undo.canUndo && steps < 10 {
        try? undo.undo()
        steps += 1
      }
      withExtendedLifetime((recordings, first, second)) {}
      return steps
    }
  }

  @Test("the shared object's change racing another object's: each is kept once")
  func sharedChangeRacingAnotherChange() {
    ScheduleExplorer("undo repeat: shared change racing another change", exhaustiveLimit: 1_000).explore {
      let graphs = Graphs()
      return ScenarioRun(
        threads: [{ graphs.shared.text = "shared" }, { graphs.other.text = "other" }],
        check: {
          let steps = graphs.undoAll()
          if steps != 2 { return "\(steps) steps for two changes" }
          if graphs.shared.text != "" || graphs.other.text != "" {
            return "after the undos: shared \(graphs.shared.text), other \(graphs.other.text)"
          }
          return nil
        }
      )
    }
  }

  @Test("the shared object's change racing removeAll(): at most one step is left, and it takes the change back")
  func sharedChangeRacingRemoveAll() {
    ScheduleExplorer("undo repeat: shared change racing removeAll", exhaustiveLimit: 1_000).explore {
      let graphs = Graphs()
      return ScenarioRun(
        threads: [{ graphs.shared.text = "shared" }, { graphs.undo.removeAll() }],
        check: {
          let steps = graphs.undoAll()
          if steps > 1 { return "\(steps) steps for one change" }
          if steps == 1 && graphs.shared.text != "" { return "the step left did not take the change back" }
          return nil
        }
      )
    }
  }

  @Test("the shared object's change racing withoutRecording: kept at most once")
  func sharedChangeRacingWithoutRecording() {
    ScheduleExplorer("undo repeat: shared change racing withoutRecording", exhaustiveLimit: 1_000).explore {
      let graphs = Graphs()
      return ScenarioRun(
        threads: [{ graphs.shared.text = "shared" }, { graphs.undo.withoutRecording { graphs.other.text = "quiet" } }],
        check: {
          let steps = graphs.undoAll()
          if steps > 1 { return "\(steps) steps for one recorded change" }
          if graphs.other.text != "quiet" { return "the change made without recording was undone" }
          return nil
        }
      )
    }
  }
}
