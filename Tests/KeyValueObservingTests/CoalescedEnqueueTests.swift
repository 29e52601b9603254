import KeyValueObserving
import Testing

/// The claim ``CoalescingTests`` rests on, checked without timing: the
/// change that asks for a coalesced run puts its job on the actor's own
/// executor before it returns, from any thread, with no hop through the
/// global executor on the way.
@Suite("Coalescing: the run's job goes straight onto the actor's executor")
struct CoalescedEnqueueTests {
  @Test("a change made off the actor enqueues one job on the actor's executor before it returns; later changes join it")
  func enqueuedOnTheExecutorAtOnce() {
    let workshop = ManualActor()
    let tally = UncheckedSendable(Tally())
    let seen = Recorder<String>()
    let notes = ScenarioNotes()
    workshop.runNow { _ in
      notes.token = withKeyValueObservation(tracking: .coalesced) { seen.append(tally.value.name) }
    }
    #expect(seen.elements == [""])
    #expect(workshop.executor.count == 0)
    // This thread is on no actor.
    tally.value.name = "x"
    #expect(workshop.executor.count == 1, "the run's job is not on the actor's executor when the change returns")
    tally.value.name = "y"
    tally.value.count = 1
    #expect(workshop.executor.count == 1, "a change before the job started enqueued another")
    #expect(seen.elements == [""])
    workshop.executor.runAll()
    #expect(seen.elements == ["", "y"])
    tally.value.name = "z"
    #expect(workshop.executor.count == 1)
    workshop.executor.runAll()
    #expect(seen.elements == ["", "y", "z"])
    notes.token?.invalidate()
    tally.value.name = "after"
    // An invalidated closure asks for no job; one already asked for runs
    // and does nothing.
    workshop.executor.runAll()
    #expect(seen.elements == ["", "y", "z"])
  }
}
