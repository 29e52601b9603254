import KeyValueObserving
import Testing

/// A deterministic generator, so that a failing seed replays.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("Undo stack: random edits of a graph, undone and redone")
struct UndoModelTests {
  /// A list of items in the outline: the document's, or an item's
  /// children, edited through its proxy.
  struct ItemList {
    let count: () -> Int
    let insert: (OutlineItem, Int) -> Void
    let remove: (Int) -> Void
    let sort: () -> Void
    let move: (Int, Int) -> Void

    init<Root: KeyValueObservable>(_ proxy: KeyValueMutableArray<Root, OutlineItem>) {
      count = { proxy.endIndex }
      insert = { proxy.insert($0, at: $1) }
      remove = { proxy.remove(at: $0) }
      sort = { proxy.sort(by: UndoModelTests.order) }
      move = { proxy.move(fromOffsets: [$0..<$0 + 1], toOffset: $1) }
    }
  }

  static func order(_ lhs: OutlineItem, _ rhs: OutlineItem) -> Bool {
    if lhs.text != rhs.text { return lhs.text < rhs.text }
    return lhs.name < rhs.name
  }

  /// Every list of items in the outline, the document's first.
  func lists(of outline: Outline) -> [ItemList] {
    [ItemList(outline.mutableArrayValue(for: \.items))]
      + allItems(of: outline).map { ItemList($0.mutableArrayValue(for: \.children)) }
  }

  func allItems(of outline: Outline) -> [OutlineItem] {
    var items: [OutlineItem] = []
    var pending = outline.items
    while let item = pending.popLast() {
      items.append(item)
      pending += item.children
    }
    return items
  }

  /// One random edit of the kind a user makes.
  func edit(_ outline: Outline, tags: [OutlineTag], serial: inout Int, using random: inout SplitMix) {
    let items = allItems(of: outline)
    let lists = lists(of: outline)
    let list = lists.randomElement(using: &random)!
    serial += 1
    switch Int.random(in: 0..<11, using: &random) {
    case 0: outline.title = "title \(serial)"
    case 1: items.randomElement(using: &random)?.text = "text \(serial)"
    case 2: items.randomElement(using: &random)?.done.toggle()
    case 3: list.insert(OutlineItem("i\(serial)", text: "new"), Int.random(in: 0...list.count(), using: &random))
    case 4: if list.count() > 0 { list.remove(Int.random(in: 0..<list.count(), using: &random)) }
    case 5: list.sort()
    case 6:
      if list.count() > 1 {
        list.move(Int.random(in: 0..<list.count(), using: &random), Int.random(in: 0...list.count(), using: &random))
      }
    case 7: outline.mutableSetValue(for: \.tags).insert(tags.randomElement(using: &random)!)
    case 8: if let tag = outline.tags.randomElement(using: &random) { outline.mutableSetValue(for: \.tags).remove(tag) }
    case 9: outline.tags.randomElement(using: &random)?.color = serial
    default:
      // A whole assignment, and a note with its own key.
      if let item = items.randomElement(using: &random) {
        if item.note == nil { item.note = OutlineNote("n\(serial)") } else { item.note!.body = "body \(serial)" }
      } else {
        outline.items = [OutlineItem("r\(serial)", text: "reset", children: [OutlineItem("c\(serial)")])]
      }
    }
  }

  @Test("each undo gives back the state before its step, and each redo the state after it", arguments: 0..<40)
  func randomSequences(seed: UInt64) throws {
    var random = SplitMix(state: seed)
    let outline = Outline()
    let tags = ["red", "green", "blue"].map(OutlineTag.init)
    let undo = KeyValueUndoStack(isolation: nil)
    let recording = undo.record(outline, isolation: nil)
    var serial = 0
    var states = [snapshot(outline)]
    for step in 0..<Int.random(in: 5...30, using: &random) {
      // A step of one to three edits, as one command makes; a step whose
      // edits all assign what was there makes none.
      undo.group(named: "step \(step)") {
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          edit(outline, tags: tags, serial: &serial, using: &random)
        }
      }
      if undo.undoActionName == "step \(step)" { states.append(snapshot(outline)) }
    }
    // Undo half, redo some, and check each state on the way.
    var position = states.count - 1
    for _ in 0..<Int.random(in: 0...position, using: &random) {
      try undo.undo()
      position -= 1
      #expect(snapshot(outline) == states[position], "seed \(seed), undo to state \(position)")
    }
    for _ in 0..<Int.random(in: 0...(states.count - 1 - position), using: &random) {
      try undo.redo()
      position += 1
      #expect(snapshot(outline) == states[position], "seed \(seed), redo to state \(position)")
    }
    while undo.canUndo {
      try undo.undo()
      position -= 1
    }
    #expect(position == 0, "seed \(seed)")
    #expect(snapshot(outline) == states[0], "seed \(seed)")
    while undo.canRedo {
      try undo.redo()
      position += 1
      #expect(snapshot(outline) == states[position], "seed \(seed), redo to state \(position)")
    }
    #expect(position == states.count - 1, "seed \(seed)")
    withExtendedLifetime(recording) {}
  }
}
