import KeyValueObserving
import Testing

/// The undo stack called back into from the observers it notifies: the
/// mirrors an observer's own undo changed, and an undo asked for during
/// another. Each is forced on one thread, as the notifications come.
@Suite("Undo stack: re-entered from its own notifications")
struct UndoStackReentrancyTests {
  /// A stack of no actor: each change outside a group is a step.
  func stack(recording outline: Outline) -> (KeyValueUndoStack, KeyValueObservation) {
    let undo = KeyValueUndoStack(isolation: nil)
    return (undo, undo.record(outline, isolation: nil))
  }

  @Test("an observer of canUndo that undoes at once: the mirrors end as the stack is, not as it was before")
  func canUndoObserverUndoes() throws {
    let outline = Outline()
    let (undo, recording) = stack(recording: outline)
    var undid = false
    let observer = undo.observe(\.canUndo) { undo, _ in
      guard undo.canUndo, !undid else { return }
      undid = true
      try? undo.undo()
    }
    // The change's publish writes canUndo = true; the observer's undo
    // publishes canRedo = true inside it; the outer publish goes on.
    outline.title = "typed"
    #expect(undid && outline.title == "")
    #expect(!undo.canUndo && undo.canRedo)
    try undo.redo()
    #expect(outline.title == "typed")
    #expect(undo.canUndo && !undo.canRedo)
    withExtendedLifetime((recording, observer)) {}
  }

  @Test("an observer of canRedo that changes the document when an undo fills it: the redo that change cleared is not named")
  func canRedoObserverChangesTheDocument() throws {
    let outline = Outline()
    let milk = OutlineItem("milk")
    outline.items = [milk]
    let (undo, recording) = stack(recording: outline)
    undo.group(named: "Rename") { outline.title = "a" }
    var changed = false
    let observer = undo.observe(\.canRedo) { undo, _ in
      guard undo.canRedo, !changed else { return }
      changed = true
      milk.text = "new"
    }
    // The undo's last publish writes canRedo = true; the observer's change
    // clears the redo step inside it, and publishes; the outer publish
    // goes on to the action names.
    try undo.undo()
    #expect(changed && outline.title == "" && milk.text == "new")
    #expect(undo.canUndo && !undo.canRedo)
    #expect(undo.undoActionName == "" && undo.redoActionName == "")
    try undo.undo()
    #expect(milk.text == "" && !undo.canUndo)
    withExtendedLifetime((recording, observer)) {}
  }

  @Test("undo() asked by an observer an undo notified is refused and reported: both steps stay, for undo and for redo")
  func undoDuringUndoIsRefused() throws {
    let outline = Outline()
    let milk = OutlineItem("milk")
    outline.items = [milk]
    let (undo, recording) = stack(recording: outline)
    outline.title = "a"
    undo.group(named: "Edit") {
      outline.title = "b"
      milk.text = "Milk"
    }
    var asked = false
    // The undo of "Edit" puts the text back first, then the title.
    let observer = milk.observe(\.text) { _, _ in
      guard !asked else { return }
      asked = true
      try? undo.undo()
    }
    let reported = try capturingDiagnostics { try undo.undo() }
    #expect(asked)
    #expect(reported.map(\.kind) == [.unbalancedUndoGroup])
    #expect(outline.title == "a" && milk.text == "")
    #expect(undo.redoActionName == "Edit")
    try undo.redo()
    #expect(outline.title == "b" && milk.text == "Milk")
    try undo.undo()
    try undo.undo()
    #expect(outline.title == "" && milk.text == "")
    #expect(!undo.canUndo)
    withExtendedLifetime((recording, observer)) {}
  }

  @Test("undo() asked while a failed undo puts back what it changed is refused: the document ends as it was")
  func undoDuringPutBackIsRefused() throws {
    let outline = Outline()
    let (undo, recording) = stack(recording: outline)
    undo.group {
      outline.mutableArrayValue(for: \.items).append(OutlineItem("a"))
      outline.title = "t"
    }
    // Changed behind the stack's back: the insertion's index is gone, so
    // the undo takes the title back, fails, and puts the title back.
    undo.withoutRecording { outline.items = [] }
    let before = snapshot(outline)
    var asked = false
    let observer = outline.observe(\.title) { outline, _ in
      guard outline.title == "t", !asked else { return }
      asked = true
      try? undo.undo()
    }
    let reported = capturingDiagnostics {
      #expect(throws: KeyValueCodingError.self) { try undo.undo() }
    }
    #expect(asked)
    #expect(reported.map(\.kind) == [.unbalancedUndoGroup])
    #expect(snapshot(outline) == before)
    #expect(undo.canUndo && !undo.canRedo)
    withExtendedLifetime((recording, observer)) {}
  }

  @Test("a change an undo's notification makes is part of the redo step: redo takes it back with the rest")
  func changeDuringUndoIsRedone() throws {
    let outline = Outline()
    let milk = OutlineItem("milk")
    outline.items = [milk]
    let (undo, recording) = stack(recording: outline)
    milk.text = "Milk"
    let observer = milk.observe(\.text) { milk, _ in
      if milk.text.isEmpty { outline.title = "emptied" }
    }
    try undo.undo()
    #expect(milk.text == "" && outline.title == "emptied")
    #expect(!undo.canUndo && undo.canRedo)
    try undo.redo()
    #expect(milk.text == "Milk" && outline.title == "")
    withExtendedLifetime((recording, observer)) {}
  }
}

@Suite("Undo stack: the job that closes a step, and the groups and undos beside it")
@MainActor
struct UndoStackClosingJobTests {
  @Test("a job's step closing after a group opened in a later job closes nothing: a drag over jobs stays one step")
  func closingJobFindsAGroupOpen() async throws {
    let outline = Outline()
    let undo = KeyValueUndoStack()
    let recording = undo.record(outline)
    outline.title = "typed"
    undo.beginGroup(named: "Drag")
    outline.title = "dragged 1"
    // The typed step's closing job runs here, with the drag's group open.
    await waitForCoalescedRuns()
    outline.title = "dragged 2"
    await waitForCoalescedRuns()
    undo.endGroup()
    #expect(undo.undoActionName == "Drag")
    try undo.undo()
    #expect(outline.title == "typed")
    try undo.undo()
    #expect(outline.title == "")
    #expect(!undo.canUndo)
    withExtendedLifetime(recording) {}
  }

  @Test("a step undone in its own job, then a new change: the first closing job leaves the new step to its own")
  func closingJobAfterAnUndo() async throws {
    let outline = Outline()
    let undo = KeyValueUndoStack()
    let recording = undo.record(outline)
    outline.title = "a"
    try undo.undo()
    outline.title = "b"
    outline.mutableArrayValue(for: \.items).append(OutlineItem("x"))
    await waitForCoalescedRuns()
    #expect(!undo.canRedo)
    try undo.undo()
    #expect(outline.title == "" && outline.items.isEmpty)
    #expect(!undo.canUndo)
    withExtendedLifetime(recording) {}
  }
}

/// A stack used from two threads at once: a misuse (it belongs to its
/// actor), which must leave it sound. Forced with the schedule explorer.
@Suite("Scheduled: an undo stack changed on two threads", .enabled(if: SchedulePoint.areCompiledIn))
struct ScheduledUndoStackTests {
  @Test("undo() on one thread while another changes the document: the mirrors end as the stack is")
  func undoRacingAChange() {
    ScheduleExplorer("undo stack: undo racing a change", exhaustiveLimit: 1_000).explore {
      let outline = Outline()
      let milk = OutlineItem("milk")
      outline.items = [milk]
      let undo = KeyValueUndoStack(isolation: nil)
      let recording = undo.record(outline, isolation: nil)
      outline.title = "a"
      return ScenarioRun(
        threads: [{ try? undo.undo() }, { milk.text = "racing" }],
        check: {
          defer { withExtendedLifetime(recording) {} }
          let (canUndo, canRedo) = (undo.canUndo, undo.canRedo)
          if !canUndo && !canRedo { return "both mirrors are false after a change and an undo" }
          // What undo and redo do must agree with the mirrors read before.
          let before = snapshot(outline)
          try? undo.undo()
          let undid = snapshot(outline) != before
          if undid != canUndo { return "canUndo was \(canUndo), and undo() \(undid ? "changed" : "left") \(before)" }
          try? undo.redo()
          if canRedo && !canUndo, snapshot(outline) == before {
            return "canRedo was true, and redo() changed nothing"
          }
          return nil
        }
      )
    }
  }

  @Test("stopForwardingSteps() racing a change that closes a step: the handler is released once both return, and hears no later step")
  func stopForwardingRacingAStep() {
    ScheduleExplorer("undo stack: stopForwardingSteps racing a step", exhaustiveLimit: 1_000).explore {
      let notes = ForwardingNotes()
      let outline = Outline()
      let milk = OutlineItem("milk")
      outline.items = [milk]
      let undo = KeyValueUndoStack(isolation: nil)
      let recording = undo.record(outline, isolation: nil)
      let captured = OutlineNote("captured")
      notes.captured = captured
      undo.forwardSteps { _, _ in
        _ = captured
        if notes.stopped.contains(currentThread()) {
          notes.breaks("a step closed after stopForwardingSteps() returned on its thread was forwarded")
        }
      }
      return ScenarioRun(
        threads: [
          { milk.text = "racing" },
          {
            undo.stopForwardingSteps()
            notes.stopped.insert(currentThread())
            outline.title = "after"
          },
        ],
        check: {
          defer { withExtendedLifetime(recording) {} }
          if let broken = notes.broken { return broken }
          // Both steps stay on the stack, forwarded or not.
          try? undo.undo()
          try? undo.undo()
          if outline.title != "" || milk.text != "" { return "after two undos: \(snapshot(outline))" }
          return notes.captured == nil ? nil : "the forwarding handler's capture outlived stopForwardingSteps() and the step"
        }
      )
    }
  }

  @Test("two threads each change the document: each change is kept, and undone")
  func twoChangesRacing() {
    ScheduleExplorer("undo stack: two changes racing", exhaustiveLimit: 1_000).explore {
      let outline = Outline()
      let milk = OutlineItem("milk")
      outline.items = [milk]
      let undo = KeyValueUndoStack(isolation: nil)
      let recording = undo.record(outline, isolation: nil)
      return ScenarioRun(
        threads: [{ outline.title = "racing" }, { milk.text = "racing" }],
        check: {
          defer { withExtendedLifetime(recording) {} }
          guard undo.canUndo, !undo.canRedo else { return "canUndo \(undo.canUndo), canRedo \(undo.canRedo)" }
          try? undo.undo()
          try? undo.undo()
          if outline.title != "" || milk.text != "" || undo.canUndo {
            return "after two undos: \(snapshot(outline)), canUndo \(undo.canUndo)"
          }
          return nil
        }
      )
    }
  }
}

/// What a forwarding scenario's threads note: the handler's capture, the
/// threads whose `stopForwardingSteps()` returned, and the first promise
/// broken. The explorer runs one thread at a time.
private final class ForwardingNotes: @unchecked Sendable {
  weak var captured: AnyObject?
  var stopped: Set<UInt> = []
  var broken: String?

  func breaks(_ message: String) {
    if broken == nil { broken = message }
  }
}
