@testable import KeyValueObserving
import Testing

@Suite("Observing a model graph: every key of every object reachable")
struct GraphObservationTests {
  @Test("one registration hears every key of the root and of the objects its links reach")
  func everyKey() {
    let milk = OutlineItem("milk")
    let outline = Outline()
    outline.items = [milk]
    let (events, token) = recordGraph(outline)
    outline.title = "Groceries"
    milk.text = "Milk"
    milk.done = true
    #expect(
      events.elements == [
        GraphEvent("outline", "title", old: "", new: "Groceries"),
        GraphEvent("milk", "text", old: "", new: "Milk"),
        GraphEvent("milk", "done", old: "false", new: "true"),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("each change names its key by string and by key path, and hands the object with its type")
  func keyAndObject() {
    let milk = OutlineItem("milk")
    let outline = Outline()
    outline.items = [milk]
    var seen: [KeyValueGraphChange] = []
    let token = outline.observeGraph { seen.append($0) }
    milk.text = "Milk"
    #expect(seen.count == 1)
    #expect(seen.first?.key == "text")
    #expect(seen.first?.keyPath == \OutlineItem.text)
    #expect((seen.first?.object as? OutlineItem) === milk)
    #expect(seen.first?.change.newValue as? String == "Milk")
    withExtendedLifetime(token) {}
  }

  @Test("a change kept after its graph ended and its objects were freed still names its key; two graphs' changes share one key")
  func keptChangeOutlivesGraph() {
    var seen: [KeyValueGraphChange] = []
    do {
      let milk = OutlineItem("milk")
      let outline = Outline()
      outline.items = [milk]
      let first = outline.observeGraph { seen.append($0) }
      let second = outline.observeGraph { seen.append($0) }
      milk.text = "Milk"
      first.invalidate()
      second.invalidate()
    }
    // The change holds its object; the graph, its classes and the token are gone.
    #expect(seen.count == 2)
    #expect(seen.map(\.key) == ["text", "text"])
    #expect(seen.allSatisfy { $0.keyPath == \OutlineItem.text })
    #expect(seen[0].graphKey === seen[1].graphKey)
    #expect(seen.first?.inverse.key == "text")
  }

  @Test("an object a change brings in is heard from that change on, its handler included; one that leaves is not")
  func arrivalsAndDepartures() {
    let outline = Outline()
    let eggs = OutlineItem("eggs")
    var token: KeyValueObservation?
    let events = Recorder<GraphEvent>()
    token = outline.observeGraph { change in
      events.append(GraphEvent(change))
      // The item the insertion brought is observed already.
      if change.key == "items", change.change.kind == .insertion { eggs.text = "from the handler" }
    }
    outline.mutableArrayValue(for: \.items).append(eggs)
    eggs.done = true
    outline.mutableArrayValue(for: \.items).removeAll()
    eggs.text = "gone"
    #expect(
      events.elements == [
        GraphEvent("outline", "items", .insertion, new: "[eggs]", indexes: [0..<1]),
        GraphEvent("eggs", "text", old: "", new: "from the handler"),
        GraphEvent("eggs", "done", old: "false", new: "true"),
        GraphEvent("outline", "items", .removal, old: "[eggs]", indexes: [0..<1]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("children at any depth are followed, and a whole subtree leaves with its root")
  func subtrees() {
    let leaf = OutlineItem("leaf")
    let branch = OutlineItem("branch", children: [leaf])
    let outline = Outline()
    outline.items = [branch]
    let (events, token) = recordGraph(outline, options: .new)
    leaf.text = "deep"
    outline.items = []
    leaf.text = "unheard"
    branch.text = "unheard"
    #expect(
      events.elements == [
        GraphEvent("leaf", "text", new: "deep"),
        GraphEvent("outline", "items", new: "[]"),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("an item moved from one parent to another stays observed")
  func moves() {
    let item = OutlineItem("item")
    let first = OutlineItem("first", children: [item])
    let second = OutlineItem("second")
    let outline = Outline()
    outline.items = [first, second]
    let (events, token) = recordGraph(outline, options: .new)
    // Added to the second parent, then taken from the first.
    second.children.append(item)
    first.children.removeAll()
    item.text = "moved"
    // Taken first, then added: it leaves and comes back.
    second.children = []
    first.children = [item]
    item.done = true
    #expect(events.elements.suffix(2) == [GraphEvent("first", "children", new: "[item]"), GraphEvent("item", "done", new: "true")])
    #expect(events.elements.contains(GraphEvent("item", "text", new: "moved")))
    withExtendedLifetime(token) {}
  }

  @Test("a link back to a parent, and a cycle, are visited once; a cycle cut off from the root leaves")
  func cycles() {
    let child = OutlineItem("child")
    let parent = OutlineItem("parent", children: [child])
    let note = OutlineNote("note")
    note.owner = parent
    parent.note = note  // parent → note → parent, both strong
    let outline = Outline()
    outline.items = [parent]
    let (events, token) = recordGraph(outline, options: .new)
    child.text = "once"
    note.body = "once"
    #expect(events.elements == [GraphEvent("child", "text", new: "once"), GraphEvent("note", "body", new: "once")])
    outline.items = []
    child.text = "unheard"
    note.body = "unheard"
    parent.text = "unheard"
    #expect(events.count == 3)
    note.owner = nil  // breaks the cycle the test made
    withExtendedLifetime(token) {}
  }

  @Test("optional and weak to-one links, sets and dictionaries of objects are followed")
  func linkKinds() {
    let selected = OutlineItem("selected")
    let named = OutlineItem("named")
    let tag = OutlineTag("tag")
    let note = OutlineNote("note")
    selected.note = note
    let outline = Outline()
    outline.items = [selected]
    let (events, token) = recordGraph(outline, options: .new)
    outline.selection = selected
    outline.byName = ["n": named]
    outline.tags = [tag]
    named.text = "by name"
    tag.color = 3
    note.body = "noted"
    #expect(events.elements.suffix(3) == [
      GraphEvent("named", "text", new: "by name"),
      GraphEvent("tag", "color", new: "3"),
      GraphEvent("note", "body", new: "noted"),
    ])
    outline.tags = []
    tag.color = 4
    #expect(events.elements.last == GraphEvent("outline", "tags", new: "{}"))
    withExtendedLifetime(token) {}
  }

  @Test("an object reachable only through a weak link is observed")
  func weakOnly() {
    let selected = OutlineItem("selected")
    let outline = Outline()
    outline.selection = selected
    let (events, token) = recordGraph(outline, options: .new)
    selected.text = "weakly held"
    #expect(events.elements == [GraphEvent("selected", "text", new: "weakly held")])
    withExtendedLifetime(token) {}
  }

  @Test("an ignored key is neither heard nor followed")
  func ignoredKeys() {
    let hidden = OutlineItem("hidden")
    let outline = Outline()
    let (events, token) = recordGraph(outline)
    outline.cached = hidden
    hidden.text = "unheard"
    #expect(events.elements.isEmpty)
    withExtendedLifetime(token) {}
  }

  @Test("a plain class in a link is reported once, and not followed")
  func plainClass() {
    let outline = Outline()
    let printer = PlainPrinter()
    let queued = OutlineItem("queued")
    printer.queue = [queued]
    var token: KeyValueObservation?
    var events = Recorder<GraphEvent>()
    let reported = capturingDiagnostics {
      (events, token) = recordGraph(outline, options: .new)
      outline.printer = printer
      outline.printer = PlainPrinter()
    }
    queued.text = "unheard"
    #expect(reported.map(\.kind) == [.unobservableGraphObject])
    #expect(reported.first?.message.contains("PlainPrinter") == true)
    #expect(events.count == 2)
    withExtendedLifetime(token) {}
  }

  @Test("the report of a plain class runs with no lock of the graph's held: its handler may end the graph")
  func reportOutsideTheLock() {
    let outline = Outline()
    let token = outline.observeGraph { _ in }
    let reports = Counter()
    KeyValueObservingDiagnostic.withHandler({ _ in
      token.invalidate()
      reports.increment()
    }) {
      outline.printer = PlainPrinter()
    }
    #expect(reports.count == 1)
    #expect(!token.isActive)
  }

  @Test(".prior sends a notification before each change, with the old value only")
  func prior() {
    let outline = Outline()
    let (events, token) = recordGraph(outline, options: [.old, .new, .prior])
    outline.title = "T"
    #expect(
      events.elements == [
        GraphEvent("outline", "title", old: "", isPrior: true),
        GraphEvent("outline", "title", old: "", new: "T"),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("the values follow the options: none, .new only, .old only")
  func trimmedValues() {
    let outline = Outline()
    let (none, first) = recordGraph(outline, options: [])
    let (newOnly, second) = recordGraph(outline, options: .new)
    let (oldOnly, third) = recordGraph(outline, options: .old)
    outline.title = "T"
    #expect(none.elements == [GraphEvent("outline", "title")])
    #expect(newOnly.elements == [GraphEvent("outline", "title", new: "T")])
    #expect(oldOnly.elements == [GraphEvent("outline", "title", old: "")])
    withExtendedLifetime((first, second, third)) {}
  }

  @Test(".initial sends every key of every object once, at once, with its value if .new is asked")
  func initial() {
    let note = OutlineNote("note")
    note.body = "b"
    let item = OutlineItem("item", text: "t")
    item.note = note
    let outline = Outline()
    outline.items = [item]
    let (events, token) = recordGraph(outline, options: [.initial, .new])
    let bodies = events.elements.filter { $0.object == "note" }
    #expect(bodies == [GraphEvent("note", "body", new: "b"), GraphEvent("note", "owner", new: "nil")])
    #expect(events.elements.filter { $0.object == "item" }.map(\.key) == ["text", "done", "children", "parent", "note"])
    #expect(events.elements.filter { $0.object == "outline" }.count == 6)
    withExtendedLifetime(token) {}
  }

  @Test("with .deallocation, a weak link whose object is freed is a setting of its holder to nil")
  func weakLinkFreed() {
    let outline = Outline()
    let (events, token) = recordGraph(outline, options: [.new, .deallocation])
    do {
      let selected = OutlineItem("selected")
      outline.selection = selected
    }
    #expect(outline.selection == nil)
    #expect(events.elements == [GraphEvent("outline", "selection", new: "selected"), GraphEvent("outline", "selection", new: "nil")])
    withExtendedLifetime(token) {}
  }

  @Test("without .deallocation, a freed object leaves silently")
  func freedSilently() {
    let outline = Outline()
    let (events, token) = recordGraph(outline, options: .new)
    do {
      let selected = OutlineItem("selected")
      outline.selection = selected
    }
    #expect(events.elements == [GraphEvent("outline", "selection", new: "selected")])
    outline.title = "still heard"
    #expect(events.count == 2)
    #expect(token.isActive)
  }

  @Test("invalidate() stops every object's notifications and releases the handler's captures")
  func invalidation() {
    final class Capture: Sendable {}
    let item = OutlineItem("item")
    let outline = Outline()
    outline.items = [item]
    weak var captured: Capture?
    var count = 0
    let token: KeyValueObservation = {
      let capture = Capture()
      captured = capture
      return outline.observeGraph { _ in
        withExtendedLifetime(capture) {}
        count += 1
      }
    }()
    item.text = "heard"
    #expect(captured != nil)
    token.invalidate()
    #expect(captured == nil)
    #expect(!token.isActive)
    item.text = "unheard"
    outline.title = "unheard"
    #expect(count == 1)
  }

  @Test("the root freed ends the observation; objects outliving it are no longer heard")
  func rootFreed() {
    let item = OutlineItem("item")
    var count = 0
    var token: KeyValueObservation?
    do {
      let outline = Outline()
      outline.items = [item]
      token = outline.observeGraph { _ in count += 1 }
      item.text = "heard"
    }
    item.text = "unheard"
    #expect(count == 1)
    #expect(token?.isActive == false)
  }

  @Test("other observers of the same keys still hear them, in registration order")
  func alongsideObservers() {
    let outline = Outline()
    var heard: [String] = []
    let before = outline.observe(\.title) { _, _ in heard.append("observe before") }
    let graph = outline.observeGraph { _ in heard.append("graph") }
    let after = outline.observe(\.title) { _, _ in heard.append("observe after") }
    outline.title = "T"
    #expect(heard == ["observe before", "graph", "observe after"])
    graph.invalidate()
    outline.title = "U"
    #expect(heard.suffix(2) == ["observe before", "observe after"])
    withExtendedLifetime((before, after)) {}
  }

  @Test("the observation info lists a graph's registration once per object, an undo stack's recording too; each ends once")
  func listedOnce() {
    let outline = Outline()
    let token = outline.observeGraph { _ in }
    let undo = KeyValueUndoStack(isolation: nil)
    let recording = undo.record(outline, isolation: nil)
    #expect(outline.observationInfo.filter { "\($0)".contains("observeGraph") }.count == 2)
    token.invalidate()
    #expect(outline.observationInfo.filter { "\($0)".contains("observeGraph") }.count == 1)
    recording.invalidate()
    #expect(outline.observationInfo.isEmpty)
    outline.title = "after"
    #expect(!undo.canUndo)
  }

  @Test("to-many changes carry their kind, indexes and elements; a replacement drops the old and brings the new")
  func toMany() {
    let a = OutlineItem("a")
    let b = OutlineItem("b")
    let outline = Outline()
    outline.items = [a]
    let (events, token) = recordGraph(outline)
    outline.mutableArrayValue(for: \.items)[0] = b
    a.text = "unheard"
    b.text = "heard"
    #expect(
      events.elements == [
        GraphEvent("outline", "items", .replacement, old: "[a]", new: "[b]", indexes: [0..<1]),
        GraphEvent("b", "text", old: "", new: "heard"),
      ])
    withExtendedLifetime(token) {}
  }
}
