import KeyValueObserving
import Testing

/// The state of an outline a user sees, as one string: what undo must
/// restore exactly.
func snapshot(_ outline: Outline) -> String {
  let tags = outline.tags.map { "\($0.name)=\($0.color)" }.sorted().joined(separator: ",")
  return "\(outline.title) {\(outline.items.map(snapshot).joined(separator: ", "))} tags:\(tags)"
}

/// The state of an item and its children, as one string.
func snapshot(_ item: OutlineItem) -> String {
  let children = item.children.isEmpty ? "" : "[" + item.children.map(snapshot).joined(separator: ", ") + "]"
  return "\(item.name):\(item.text)\(item.done ? "✓" : "")\(item.note.map { "(\($0.body))" } ?? "")\(children)"
}

@Suite("Undo stack: steps recorded from a graph's changes")
struct UndoStackTests {
  /// A stack of no actor: each change outside a group is a step.
  func stack(recording outline: Outline) -> (KeyValueUndoStack, KeyValueObservation) {
    let undo = KeyValueUndoStack(isolation: nil)
    return (undo, undo.record(outline, isolation: nil))
  }

  @Test("a setting is undone to its old value and redone to its new one, with observers told")
  func setting() throws {
    let outline = Outline()
    outline.title = "Draft"
    let (undo, recording) = stack(recording: outline)
    let titles = Recorder<String>()
    let observer = outline.observe(\.title) { outline, _ in titles.append(outline.title) }
    #expect(!undo.canUndo && !undo.canRedo)
    outline.title = "Groceries"
    #expect(undo.canUndo && !undo.canRedo)
    try undo.undo()
    #expect(outline.title == "Draft")
    #expect(!undo.canUndo && undo.canRedo)
    try undo.redo()
    #expect(outline.title == "Groceries")
    #expect(undo.canUndo && !undo.canRedo)
    #expect(titles.elements == ["Groceries", "Draft", "Groceries"])
    withExtendedLifetime((recording, observer)) {}
  }

  @Test("a named group is one step, whose name the Edit menu shows on both sides")
  func namedGroup() throws {
    let outline = Outline()
    let (undo, recording) = stack(recording: outline)
    let before = snapshot(outline)
    undo.group(named: "Add Milk") {
      outline.title = "Groceries"
      outline.mutableArrayValue(for: \.items).append(OutlineItem("milk", text: "Milk"))
      outline.items[0].done = true
    }
    let after = snapshot(outline)
    #expect(undo.undoActionName == "Add Milk" && undo.redoActionName == "")
    try undo.undo()
    #expect(snapshot(outline) == before)
    #expect(undo.undoActionName == "" && undo.redoActionName == "Add Milk")
    #expect(!undo.canUndo)
    try undo.redo()
    #expect(snapshot(outline) == after)
    #expect(undo.undoActionName == "Add Milk")
    withExtendedLifetime(recording) {}
  }

  /// What the Edit menu shows, as one string.
  func menu(_ undo: KeyValueUndoStack) -> String {
    "\(undo.canUndo ? "undo" : "-") '\(undo.undoActionName)' \(undo.canRedo ? "redo" : "-") '\(undo.redoActionName)'"
  }

  @Test("the Edit menu follows each recorded change: a name replaced by a step of none, redo cleared, a group's first change")
  func menuFollowsEachChange() throws {
    let outline = Outline()
    let initial = outline.title
    let (undo, recording) = stack(recording: outline)
    undo.group(named: "Rename") { outline.title = "Groceries" }
    #expect(menu(undo) == "undo 'Rename' - ''")
    // A step of no name after a named one: the name goes.
    outline.title = "Shopping"
    #expect(menu(undo) == "undo '' - ''")
    outline.title = "Errands"
    #expect(menu(undo) == "undo '' - ''")
    try undo.undo()
    try undo.undo()
    #expect(menu(undo) == "undo 'Rename' redo ''")
    // A new change clears the redo steps.
    outline.title = "Chores"
    #expect(menu(undo) == "undo '' - ''")
    try undo.undo()
    try undo.undo()
    #expect(menu(undo) == "- '' redo 'Rename'")
    // A group counts from its first change, which clears redo too.
    undo.beginGroup(named: "Drag")
    #expect(menu(undo) == "- '' redo 'Rename'")
    outline.title = "Dragged"
    #expect(menu(undo) == "undo 'Drag' - ''")
    outline.title = "Dropped"
    #expect(menu(undo) == "undo 'Drag' - ''")
    undo.endGroup()
    #expect(menu(undo) == "undo 'Drag' - ''")
    try undo.undo()
    #expect(outline.title == initial)
    #expect(menu(undo) == "- '' redo 'Drag'")
    // A group inside one of no name names its step.
    undo.beginGroup()
    outline.title = "Moved"
    #expect(menu(undo) == "undo '' - ''")
    undo.group(named: "Move") { outline.title = "Moved again" }
    #expect(menu(undo) == "undo 'Move' - ''")
    undo.endGroup()
    #expect(menu(undo) == "undo 'Move' - ''")
    withExtendedLifetime(recording) {}
  }

  @Test("groups nest: the inner group's changes are the outer step's, and the outer name wins")
  func nestedGroups() throws {
    let outline = Outline()
    let (undo, recording) = stack(recording: outline)
    undo.group(named: "Outer") {
      outline.title = "a"
      undo.group(named: "Inner") { outline.title = "b" }
      outline.title = "c"
    }
    try undo.undo()
    #expect(outline.title == "")
    #expect(!undo.canUndo)
    #expect(undo.redoActionName == "Outer")
    withExtendedLifetime(recording) {}
  }

  @Test("beginGroup and endGroup make one step across calls; an unbalanced end is reported and does nothing")
  func manualGroups() throws {
    let outline = Outline()
    let (undo, recording) = stack(recording: outline)
    undo.beginGroup(named: "Drag")
    outline.title = "1"
    outline.title = "2"
    undo.endGroup()
    let reported = capturingDiagnostics { undo.endGroup() }
    #expect(reported.map(\.kind) == [.unbalancedUndoGroup])
    try undo.undo()
    #expect(outline.title == "")
    withExtendedLifetime(recording) {}
  }

  @Test("undo inside a group is reported and changes nothing")
  func undoInsideGroup() throws {
    let outline = Outline()
    let (undo, recording) = stack(recording: outline)
    outline.title = "a"
    let reported = try capturingDiagnostics {
      try undo.group {
        outline.title = "b"
        try undo.undo()
      }
    }
    #expect(reported.map(\.kind) == [.unbalancedUndoGroup])
    #expect(outline.title == "b")
    try undo.undo()
    #expect(outline.title == "a")
    withExtendedLifetime(recording) {}
  }

  @Test("an equal-value assignment makes no step, for values and for objects; nor does re-inserting a member")
  func equalValues() {
    let outline = Outline()
    let item = OutlineItem("a", text: "x")
    let tag = OutlineTag("red")
    outline.items = [item]
    outline.tags = [tag]
    item.note = OutlineNote("n")
    let (undo, recording) = stack(recording: outline)
    item.text = "x"
    item.note = item.note
    outline.items = outline.items
    outline.mutableSetValue(for: \.tags).insert(tag)
    outline.mutableSetValue(for: \.tags).remove(OutlineTag("absent"))
    #expect(!undo.canUndo)
    item.text = "y"
    #expect(undo.canUndo)
    withExtendedLifetime(recording) {}
  }

  @Test("a setting is equal as its type's == says: optionals, a custom ==, -0.0 for 0.0 make no step; NaN for NaN makes one")
  func equalAsTheTypeSays() throws {
    let settings = UndoSettings()
    let undo = KeyValueUndoStack(isolation: nil)
    let recording = undo.record(settings, isolation: nil)
    settings.limit = nil
    settings.ratio = -0.0
    settings.label = CaseInsensitiveLabel("DRAFT")
    #expect(!undo.canUndo)
    settings.limit = 3
    settings.limit = 3
    try undo.undo()
    #expect(settings.limit == nil && !undo.canUndo)
    settings.ratio = .nan
    settings.ratio = .nan
    try undo.undo()
    #expect(settings.ratio.isNaN && undo.canUndo)
    try undo.undo()
    #expect(settings.ratio == 0 && !undo.canUndo)
    withExtendedLifetime(recording) {}
  }

  @Test("with a classic observer, a graph and an undo stack on one key, an equal setting reaches the first two and makes no step")
  func equalSettingWithOtherReceivers() throws {
    let settings = UndoSettings()
    let log = ChangeLog()
    try settings.addObserver(log, forKeyPath: "label", options: [.old, .new])
    let heard = Recorder<String>()
    let graph = settings.observeGraph { heard.append($0.key) }
    let undo = KeyValueUndoStack(isolation: nil)
    let recording = undo.record(settings, isolation: nil)
    settings.label = CaseInsensitiveLabel("DRAFT")
    #expect(log.calls.count == 1 && heard.elements == ["label"])
    #expect(!undo.canUndo)
    settings.label = CaseInsensitiveLabel("final")
    #expect(log.calls.count == 2 && heard.elements == ["label", "label"])
    try undo.undo()
    #expect(settings.label.text == "DRAFT" && !undo.canUndo)
    settings.removeObserver(log, forKeyPath: "label")
    withExtendedLifetime((graph, recording)) {}
  }

  @Test("an equal object set on a link makes no step, and the graph follows it: its changes are steps, the old one's are not")
  func equalObjectOnALink() throws {
    let badge = UndoBadge(label: UndoLabel("a"))
    let old = badge.label
    let undo = KeyValueUndoStack(isolation: nil)
    let recording = undo.record(badge, isolation: nil)
    let replacement = UndoLabel("a")
    badge.label = replacement
    #expect(!undo.canUndo)
    old.text = "old"
    #expect(!undo.canUndo)
    replacement.text = "b"
    #expect(undo.canUndo)
    try undo.undo()
    #expect(replacement.text == "a" && badge.label === replacement)
    withExtendedLifetime(recording) {}
  }

  @Test("a new change clears the redo steps")
  func newChangeClearsRedo() throws {
    let outline = Outline()
    let (undo, recording) = stack(recording: outline)
    outline.title = "a"
    try undo.undo()
    #expect(undo.canRedo)
    outline.title = "b"
    #expect(!undo.canRedo)
    try undo.redo()
    #expect(outline.title == "b")
    withExtendedLifetime(recording) {}
  }

  @Test("the levels limit drops the oldest steps, at once when lowered")
  func levels() throws {
    let outline = Outline()
    let (undo, recording) = stack(recording: outline)
    for title in ["a", "b", "c", "d"] { outline.title = title }
    undo.levelsOfUndo = 2
    try undo.undo()
    try undo.undo()
    #expect(outline.title == "b")
    #expect(!undo.canUndo)
    undo.levelsOfUndo = 1
    #expect(undo.canRedo)
    try undo.redo()
    #expect(outline.title == "c")
    try undo.redo()
    #expect(outline.title == "d")
    // Redone, the steps are undo steps again, and the levels hold them.
    try undo.undo()
    #expect(outline.title == "c")
    #expect(!undo.canUndo)
    withExtendedLifetime(recording) {}
  }

  @Test("withoutRecording makes no step; removeAll forgets every step")
  func withoutRecordingAndRemoveAll() throws {
    let outline = Outline()
    let (undo, recording) = stack(recording: outline)
    undo.withoutRecording { outline.title = "loaded" }
    #expect(!undo.canUndo)
    outline.title = "edited"
    try undo.undo()
    #expect(outline.title == "loaded")
    undo.removeAll()
    #expect(!undo.canUndo && !undo.canRedo)
    withExtendedLifetime(recording) {}
  }

  @Test("insertions, removals, a sort and a move through the proxy, and set changes, are undone and redone")
  func toManyChanges() throws {
    let outline = Outline()
    let tag = OutlineTag("red")
    outline.items = ["c", "a", "b"].map { OutlineItem($0, text: $0) }
    let (undo, recording) = stack(recording: outline)
    let items = outline.mutableArrayValue(for: \.items)
    var states = [snapshot(outline)]
    items.insert(OutlineItem("d", text: "d"), at: 1)
    states.append(snapshot(outline))
    items.remove(at: 0)
    states.append(snapshot(outline))
    items.sort { $0.text < $1.text }
    states.append(snapshot(outline))
    items.move(fromOffsets: [0..<1], toOffset: 3)
    states.append(snapshot(outline))
    outline.mutableSetValue(for: \.tags).insert(tag)
    states.append(snapshot(outline))
    tag.color = 3
    states.append(snapshot(outline))
    outline.mutableSetValue(for: \.tags).remove(tag)
    states.append(snapshot(outline))
    for state in states.reversed().dropFirst() {
      try undo.undo()
      #expect(snapshot(outline) == state)
    }
    #expect(!undo.canUndo)
    for state in states.dropFirst() {
      try undo.redo()
      #expect(snapshot(outline) == state)
    }
    withExtendedLifetime(recording) {}
  }

  @Test("a removed item's own edits are undone after the removal is")
  func removedItemEdits() throws {
    let outline = Outline()
    let item = OutlineItem("a", text: "first", children: [OutlineItem("child", text: "c")])
    outline.items = [item]
    let (undo, recording) = stack(recording: outline)
    item.children[0].text = "edited"
    outline.mutableArrayValue(for: \.items).remove(at: 0)
    try undo.undo()
    #expect(outline.items.first === item)
    try undo.undo()
    #expect(item.children[0].text == "c")
    withExtendedLifetime(recording) {}
  }

  @Test("the changes of an object freed since are dropped, and a step left with none is skipped")
  func freedObjects() throws {
    let outline = Outline()
    let (undo, recording) = stack(recording: outline)
    outline.title = "kept"
    weak var freed: OutlineItem?
    do {
      let item = OutlineItem("gone")
      freed = item
      undo.withoutRecording { outline.items = [item] }
      item.text = "edited"
      undo.withoutRecording { outline.items = [] }
    }
    #expect(freed == nil)
    #expect(undo.canUndo)
    try undo.undo()  // skips the freed item's step
    #expect(outline.title == "")
    #expect(!undo.canUndo)
    withExtendedLifetime(recording) {}
  }

  @Test("an undo that cannot apply throws, puts back what it changed, and keeps its step")
  func failedUndo() throws {
    let outline = Outline()
    let (undo, recording) = stack(recording: outline)
    undo.group {
      outline.title = "t"
      outline.mutableArrayValue(for: \.items).append(OutlineItem("a"))
    }
    // Changed behind the stack's back: the insertion's index is gone.
    undo.withoutRecording { outline.items = [] }
    let before = snapshot(outline)
    #expect(throws: KeyValueCodingError.self) { try undo.undo() }
    #expect(snapshot(outline) == before)
    #expect(undo.canUndo && !undo.canRedo)
    withExtendedLifetime(recording) {}
  }

  @Test("canUndo and canRedo are observable")
  func observableFlags() throws {
    let outline = Outline()
    let (undo, recording) = stack(recording: outline)
    let flags = Recorder<String>()
    let canUndo = undo.observe(\.canUndo) { undo, _ in flags.append("undo \(undo.canUndo)") }
    let canRedo = undo.observe(\.canRedo) { undo, _ in flags.append("redo \(undo.canRedo)") }
    outline.title = "a"
    outline.title = "b"
    try undo.undo()
    try undo.undo()
    #expect(flags.elements == ["undo true", "redo true", "undo false"])
    withExtendedLifetime((recording, canUndo, canRedo)) {}
  }
}

@Suite("Undo stack: one step per job of its actor")
@MainActor
struct UndoStackGroupingTests {
  @Test("changes made in one job are one step, closed after the job; the next job's are the next step")
  func oneStepPerJob() async throws {
    let outline = Outline()
    let undo = KeyValueUndoStack()
    let recording = undo.record(outline)
    outline.title = "a"
    outline.mutableArrayValue(for: \.items).append(OutlineItem("x"))
    await waitForCoalescedRuns()
    outline.title = "b"
    await waitForCoalescedRuns()
    try undo.undo()
    #expect(outline.title == "a" && outline.items.count == 1)
    try undo.undo()
    #expect(outline.title == "" && outline.items.isEmpty)
    #expect(!undo.canUndo)
    withExtendedLifetime(recording) {}
  }

  @Test("undo in the job that made the changes closes their step first")
  func undoInTheSameJob() throws {
    let outline = Outline()
    let undo = KeyValueUndoStack()
    let recording = undo.record(outline)
    outline.title = "a"
    outline.title = "b"
    #expect(undo.canUndo)
    try undo.undo()
    #expect(outline.title == "")
    withExtendedLifetime(recording) {}
  }

  @Test("a group opened at the outermost level closes the job's step: one command is one step")
  func groupClosesTheJobsStep() async throws {
    let outline = Outline()
    let undo = KeyValueUndoStack()
    let recording = undo.record(outline)
    outline.title = "typed"
    undo.group(named: "Rename") { outline.title = "renamed" }
    outline.title = "typed again"
    await waitForCoalescedRuns()
    try undo.undo()
    #expect(outline.title == "renamed")
    #expect(undo.undoActionName == "Rename")
    try undo.undo()
    #expect(outline.title == "typed")
    try undo.undo()
    #expect(outline.title == "")
    withExtendedLifetime(recording) {}
  }

  @Test("setActionName names the step the job has open")
  func actionName() async {
    let outline = Outline()
    let undo = KeyValueUndoStack()
    let recording = undo.record(outline)
    outline.title = "a"
    undo.setActionName("Typing")
    await waitForCoalescedRuns()
    #expect(undo.undoActionName == "Typing")
    withExtendedLifetime(recording) {}
  }
}

@Suite("Undo stack: what it refuses, and what it keeps once")
struct UndoStackGuardTests {
  @Test("an undo whose removal finds other elements at its indexes throws and changes nothing")
  func arrayChangedBehindTheStack() throws {
    let outline = Outline()
    outline.items = [OutlineItem("milk"), OutlineItem("bread")]
    let undo = KeyValueUndoStack(isolation: nil)
    let recording = undo.record(outline, isolation: nil)
    undo.group(named: "Add Eggs") { outline.mutableArrayValue(for: \.items).insert(OutlineItem("eggs"), at: 1) }
    undo.withoutRecording { outline.mutableArrayValue(for: \.items).insert(OutlineItem("jam"), at: 0) }
    let before = snapshot(outline)
    #expect(throws: KeyValueCodingError.elementsChanged(key: "items", type: "Outline", indexes: [1..<2])) {
      try undo.undo()
    }
    #expect(snapshot(outline) == before)
    #expect(undo.canUndo)
    withExtendedLifetime(recording) {}
  }

  @Test("a change of an object two recorded graphs share is one change of the step")
  func overlappingRecordings() throws {
    let first = Outline("first")
    let second = Outline("second")
    let shared = OutlineItem("shared")
    first.items = [shared]
    second.items = [shared]
    let undo = KeyValueUndoStack(isolation: nil)
    let recordings = [undo.record(first, isolation: nil), undo.record(second, isolation: nil), undo.record(first, isolation: nil)]
    undo.group(named: "Add") { shared.mutableArrayValue(for: \.children).append(OutlineItem("child")) }
    undo.group(named: "Rename") { shared.text = "renamed" }
    try undo.undo()
    try undo.undo()
    #expect(shared.children.isEmpty && shared.text == "")
    #expect(!undo.canUndo)
    try undo.redo()
    try undo.redo()
    #expect(shared.children.map(\.name) == ["child"] && shared.text == "renamed")
    withExtendedLifetime(recordings) {}
  }

  @Test("lowering the levels keeps the redo steps; removeAll closes a group left open")
  func levelsKeepRedoAndRemoveAllClosesGroups() throws {
    let outline = Outline()
    let undo = KeyValueUndoStack(isolation: nil)
    let recording = undo.record(outline, isolation: nil)
    for title in ["a", "b", "c", "d"] { outline.title = title }
    try undo.undo()
    try undo.undo()
    try undo.undo()
    undo.levelsOfUndo = 1
    try undo.redo()
    try undo.redo()
    try undo.redo()
    #expect(outline.title == "d")
    undo.beginGroup(named: "Drag")
    outline.title = "dragged"
    undo.removeAll()
    outline.title = "after"
    try undo.undo()
    #expect(outline.title == "dragged")
    withExtendedLifetime(recording) {}
  }
}

/// A label equal to another of the same text, whatever the object.
@KeyValueObservable
final class UndoLabel: Equatable {
  var text: String

  init(_ text: String) { self.text = text }

  static func == (lhs: UndoLabel, rhs: UndoLabel) -> Bool { lhs.text == rhs.text }
}

/// A badge that links to its label.
@KeyValueObservable
final class UndoBadge {
  var label: UndoLabel

  init(label: UndoLabel) { self.label = label }
}

/// A label whose `==` ignores case.
struct CaseInsensitiveLabel: Equatable {
  var text: String
  init(_ text: String) { self.text = text }
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.text.lowercased() == rhs.text.lowercased() }
}

@KeyValueObservable
final class UndoSettings {
  var limit: Int? = nil
  var ratio = 0.0
  var label = CaseInsensitiveLabel("draft")
}
