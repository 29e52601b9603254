import KeyValueObserving
import Testing

@Suite("Initial values that call main-actor initializers")
struct IsolatedInitialValueTests {
  @Test("a property that writes its type: its initial value is made once, and the link observes and reads by string")
  func typedLink() throws {
    let workspace = Workspace()
    #expect(workspace.selection === workspace.selection)
    #expect(workspace.selection.index == 1)
    #expect(workspace.history.map(\.index) == [0])
    let seen = Recorder<Int>()
    let token = workspace.observe(\.selection.index, options: .new) { _, change in seen.values.append(change.newValue) }
    workspace.selection.index = 5
    workspace.selection = Selection(index: 7)
    #expect(seen.values == [5, 7])
    #expect(try workspace.value(forKeyPath: "selection.index") as? Int == 7)
    try workspace.setValue(Selection(index: 9), forKey: "selection")
    #expect(seen.values == [5, 7, 9])
    token.invalidate()
  }

  @Test("an untyped one in a class that says @MainActor: storage isolated, reached through its key path")
  func untypedLinkInMainActorClass() throws {
    let pane = Pane()
    #expect(pane.selection.index == 2)
    let seen = Recorder<Int>()
    let token = pane.observe(\.selection.index, options: [.old, .new]) { _, change in
      seen.olds.append(change.oldValue)
      seen.values.append(change.newValue)
    }
    try pane.setValue(Selection(index: 4), forKey: "selection")
    pane.selection.index = 6
    #expect(seen.olds == [2, 4])
    #expect(seen.values == [4, 6])
    #expect(try pane.value(forKeyPath: "selection.index") as? Int == 6)
    token.invalidate()
  }
}
