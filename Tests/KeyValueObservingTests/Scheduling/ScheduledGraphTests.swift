import KeyValueObserving
import Testing

/// Model-graph observation under forced interleavings: an `invalidate()`
/// racing a change, and an object leaving the graph on one thread while
/// another changes it. Each check runs after both threads, on the test's
/// thread, and writes to learn which objects the graph still hears.
@Suite("Scheduled: a model graph changed on two threads", .enabled(if: SchedulePoint.areCompiledIn))
struct ScheduledGraphTests {
  @Test("invalidate() racing a change of an object in the graph: the handler's captures are released once both return")
  func invalidateRacingAChange() {
    ScheduleExplorer("graph: invalidate racing a change").explore {
      let notes = ScenarioNotes()
      let outline = Outline()
      let milk = OutlineItem("milk")
      outline.items = [milk]
      let captured = OutlineNote("captured")
      notes.captured = captured
      notes.token = outline.observeGraph { _ in _ = captured }
      return ScenarioRun(
        threads: [{ milk.text = "Milk" }, { notes.token?.invalidate() }],
        check: {
          if notes.captured != nil { return "the graph's handler and its captures outlived invalidate() and the change" }
          return notes.token?.isActive == false ? nil : "the graph's observation is still active"
        }
      )
    }
  }

  @Test("invalidate() racing a change: no change made on the invalidating thread after it returns is heard")
  func invalidateThenWrite() {
    ScheduleExplorer("graph: invalidate, then a write on the same thread").explore {
      let notes = ScenarioNotes()
      let outline = Outline()
      let milk = OutlineItem("milk")
      outline.items = [milk]
      notes.token = outline.observeGraph { _ in
        if notes.invalidated.contains(currentThread()) {
          notes.breaks("the graph's handler ran for a change made after invalidate() returned on its thread")
        }
      }
      return ScenarioRun(
        threads: [
          { outline.mutableArrayValue(for: \.items).append(OutlineItem("eggs")) },
          {
            notes.token?.invalidate()
            notes.invalidated.insert(currentThread())
            milk.text = "after"
            outline.title = "after"
          },
        ],
        check: { notes.broken }
      )
    }
  }

  @Test("a graph's token invalidated on two threads, each then writing: no handler after its invalidate() returns")
  func invalidateRacingInvalidate() {
    ScheduleExplorer("graph: invalidate racing invalidate, each then a write").explore {
      let notes = ScenarioNotes()
      let outline = Outline()
      let milk = OutlineItem("milk")
      outline.items = [milk]
      let token = outline.observeGraph { _ in
        if notes.invalidated.contains(currentThread()) {
          notes.breaks("the graph's handler ran for a change made after invalidate() returned on its thread")
        }
      }
      // The second invalidate() returns once the first cleared the token,
      // before the first took the graph's registrations out.
      let invalidateThenWrite = { (write: () -> Void) in
        token.invalidate()
        notes.invalidated.insert(currentThread())
        write()
      }
      return ScenarioRun(
        threads: [{ invalidateThenWrite { milk.text = "one" } }, { invalidateThenWrite { outline.title = "two" } }],
        check: { notes.broken }
      )
    }
  }

  @Test("the root freed on one thread while another invalidates, then writes: no handler after invalidate() returns")
  func rootFreedRacingInvalidateThenWrite() {
    ScheduleExplorer("graph: root freed racing invalidate, then a write").explore {
      let notes = ScenarioNotes()
      var outline: Outline? = Outline()
      let milk = OutlineItem("milk")
      outline!.items = [milk]
      notes.token = outline!.observeGraph { _ in
        if notes.invalidated.contains(currentThread()) {
          notes.breaks("the graph's handler ran for a change made after invalidate() returned on its thread")
        }
      }
      let dropper = UncheckedSendable(HandedReference(outline.take()!))
      return ScenarioRun(
        threads: [
          { _ = dropper.value.take() },
          {
            notes.token?.invalidate()
            notes.invalidated.insert(currentThread())
            milk.text = "after"
          },
        ],
        check: { notes.broken }
      )
    }
  }

  @Test("an object removed on one thread while another changes its text: it is not heard afterwards, its sibling is")
  func removalRacingAWrite() {
    ScheduleExplorer("graph: a node removed while another thread writes to it").explore {
      let outline = Outline()
      let milk = OutlineItem("milk")
      let eggs = OutlineItem("eggs")
      outline.items = [milk, eggs]
      let heard = Recorder<GraphEvent>()
      let token = outline.observeGraph(options: .new) { heard.append(GraphEvent($0)) }
      return ScenarioRun(
        threads: [{ outline.mutableArrayValue(for: \.items).remove(at: 0) }, { milk.text = "racing" }],
        check: {
          let before = heard.count
          milk.text = "after"
          eggs.text = "after"
          let after = Array(heard.elements.dropFirst(before))
          withExtendedLifetime(token) {}
          return after == [GraphEvent("eggs", "text", new: "after")] ? nil : "after the race the graph heard \(after)"
        }
      )
    }
  }

  @Test("an object removed while another thread drops a child it shares with a sibling: the child is still heard")
  func removalRacingADroppedSharedChild() {
    ScheduleExplorer("graph: a node removed while another thread unlinks its shared child").explore {
      let outline = Outline()
      let leaf = OutlineItem("leaf")
      let milk = OutlineItem("milk")
      let eggs = OutlineItem("eggs")
      milk.children = [leaf]
      eggs.children = [leaf]
      outline.items = [milk, eggs]
      let heard = Recorder<GraphEvent>()
      let token = outline.observeGraph(options: .new) { heard.append(GraphEvent($0)) }
      return ScenarioRun(
        threads: [{ outline.mutableArrayValue(for: \.items).remove(at: 0) }, { milk.children = [] }],
        check: {
          let before = heard.count
          leaf.text = "after"
          let after = Array(heard.elements.dropFirst(before))
          withExtendedLifetime(token) {}
          // eggs, still in the graph, links to leaf.
          return after == [GraphEvent("leaf", "text", new: "after")] ? nil : "after the race the graph heard \(after)"
        }
      )
    }
  }

  @Test("an object removed while another thread links a new object to it: the new object is not heard")
  func removalRacingALink() {
    ScheduleExplorer("graph: a node removed while another thread links to a new object").explore {
      let outline = Outline()
      let milk = OutlineItem("milk")
      outline.items = [milk]
      let note = OutlineNote("note")
      let heard = Recorder<GraphEvent>()
      let token = outline.observeGraph(options: .new) { heard.append(GraphEvent($0)) }
      return ScenarioRun(
        threads: [{ outline.mutableArrayValue(for: \.items).remove(at: 0) }, { milk.note = note }],
        check: {
          let before = heard.count
          note.body = "after"
          outline.title = "after"
          let after = Array(heard.elements.dropFirst(before))
          withExtendedLifetime(token) {}
          // Nothing reachable from the outline links to the note.
          return after == [GraphEvent("outline", "title", new: "after")] ? nil : "after the race the graph heard \(after)"
        }
      )
    }
  }

  @Test("an object joining on one thread while another drops a child it shares with a sibling: the child is still heard")
  func joinRacingADroppedSharedChild() {
    ScheduleExplorer("graph: a node joining while another thread unlinks its shared child").explore {
      let outline = Outline()
      let leaf = OutlineItem("leaf")
      let milk = OutlineItem("milk")
      let eggs = OutlineItem("eggs")
      milk.children = [leaf]
      eggs.children = [leaf]
      outline.items = [eggs]
      let heard = Recorder<GraphEvent>()
      let token = outline.observeGraph(options: .new) { heard.append(GraphEvent($0)) }
      return ScenarioRun(
        threads: [{ outline.mutableArrayValue(for: \.items).append(milk) }, { milk.children = [] }],
        check: {
          let before = heard.count
          leaf.text = "after"
          milk.text = "after"
          let after = Array(heard.elements.dropFirst(before))
          withExtendedLifetime(token) {}
          return after == [GraphEvent("leaf", "text", new: "after"), GraphEvent("milk", "text", new: "after")]
            ? nil : "after the race the graph heard \(after)"
        }
      )
    }
  }
}
