import KeyValueObserving
import Testing

/// An undo manager as `UndoManager` behaves: a registration made while it
/// undoes goes onto its redo stack, one made while it redoes or at any
/// other time onto its undo stack, and a new registration outside both
/// clears redo.
final class FakeUndoManager {
  struct Action {
    var name: String
    var run: () -> Void
  }

  private(set) var undoStack: [Action] = []
  private(set) var redoStack: [Action] = []
  private var undoing = false
  private var redoing = false
  private var pendingName = ""

  func registerUndo(_ run: @escaping () -> Void) {
    let action = Action(name: "", run: run)
    if undoing {
      redoStack.append(action)
    } else {
      if !redoing { redoStack.removeAll() }
      undoStack.append(action)
    }
  }

  func setActionName(_ name: String) {
    if undoing { redoStack[redoStack.count - 1].name = name } else { undoStack[undoStack.count - 1].name = name }
  }

  func undo() {
    guard let action = undoStack.popLast() else { return }
    undoing = true
    action.run()
    undoing = false
  }

  func redo() {
    guard let action = redoStack.popLast() else { return }
    redoing = true
    action.run()
    redoing = false
  }

  var undoMenuTitle: String { undoStack.last.map { "Undo \($0.name)" } ?? "Undo" }
  var redoMenuTitle: String { redoStack.last.map { "Redo \($0.name)" } ?? "Redo" }
}

@Suite("Undo stack: steps forwarded to another undo manager")
struct ForwardedStepsTests {
  @Test("a manager that behaves as UndoManager undoes and redoes the stack's steps, with their names")
  func drivenByAManager() {
    let outline = Outline()
    let undo = KeyValueUndoStack(isolation: nil)
    let recording = undo.record(outline, isolation: nil)
    let manager = FakeUndoManager()
    undo.forwardSteps { name, replay in
      manager.registerUndo { try? replay() }
      manager.setActionName(name)
    }
    undo.group(named: "Title") { outline.title = "Groceries" }
    undo.group(named: "Add") { outline.mutableArrayValue(for: \.items).append(OutlineItem("milk")) }
    #expect(manager.undoMenuTitle == "Undo Add")
    manager.undo()
    #expect(outline.items.isEmpty && outline.title == "Groceries")
    #expect(manager.undoMenuTitle == "Undo Title" && manager.redoMenuTitle == "Redo Add")
    manager.undo()
    #expect(outline.title == "")
    #expect(manager.undoStack.isEmpty && manager.redoStack.count == 2)
    manager.redo()
    manager.redo()
    #expect(outline.title == "Groceries" && outline.items.map(\.name) == ["milk"])
    #expect(manager.undoMenuTitle == "Undo Add" && manager.redoStack.isEmpty)
    manager.undo()
    outline.title = "New"
    #expect(manager.redoStack.isEmpty)
    #expect(manager.undoStack.count == 2)
    withExtendedLifetime(recording) {}
  }

  @Test("stopping releases the handler and what it captured; later steps stay on the stack")
  func stopped() throws {
    final class Window {}
    let outline = Outline()
    let undo = KeyValueUndoStack(isolation: nil)
    let recording = undo.record(outline, isolation: nil)
    let manager = FakeUndoManager()
    var window: Window? = Window()
    weak var closedWindow: Window?
    closedWindow = window
    undo.forwardSteps { [window] _, replay in
      withExtendedLifetime(window) { manager.registerUndo { try? replay() } }
    }
    window = nil
    outline.title = "Groceries"
    #expect(manager.undoStack.count == 1)
    #expect(closedWindow != nil, "the handler keeps what it captured while it forwards")
    undo.stopForwardingSteps()
    #expect(closedWindow == nil, "stopping releases the handler")
    outline.title = "Shopping"
    #expect(manager.undoStack.count == 1, "a step closed after the stop is not handed over")
    try undo.undo()
    #expect(outline.title == "Groceries")
    manager.undo()
    #expect(outline.title == "", "a replay handed over before the stop still works")
    withExtendedLifetime(recording) {}
  }

  @Test("a replay holds the stack weakly: a freed stack replays nothing, and no cycle keeps it")
  func replayAfterTheStackIsFreed() {
    let outline = Outline()
    let manager = FakeUndoManager()
    weak var freed: KeyValueUndoStack?
    do {
      let undo = KeyValueUndoStack(isolation: nil)
      freed = undo
      let recording = undo.record(outline, isolation: nil)
      undo.forwardSteps { _, replay in manager.registerUndo { try? replay() } }
      outline.title = "Groceries"
      recording.invalidate()
    }
    #expect(freed == nil, "stack → handler → manager → replay must not hold the stack")
    #expect(manager.undoStack.count == 1)
    manager.undo()
    #expect(outline.title == "Groceries")
  }
}
