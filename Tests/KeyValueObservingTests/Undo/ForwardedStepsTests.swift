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
}
