// The change record `observeGraph` hands its handler borrows its parts, as
// a parameter does: the changed object and the values are bits of what the
// write under way owns, and the record is never destroyed. A handler that
// keeps the change copies it, and the copy must own what it refers to.
// Each value shape the boxing takes is here: one an `Any` holds inline
// (an `Int`, a `String`, a class reference), one it boxes (a wide struct),
// and existentials. Also in Checks/Optimised, where
// the release build's path runs under the address sanitizer.
import KeyValueObserving
import Testing

// MARK: Models

protocol BorrowShape: AnyObject {}
final class BorrowCircle: BorrowShape {}
final class BorrowSquare: BorrowShape {}

/// Wider than the three words an `Any` holds inline, with a reference.
struct BorrowWide: Equatable {
  var first = 0
  var second = 0
  var third = 0
  var name = ""
}

/// Not observable: held by a key as a value.
final class BorrowPayload: @unchecked Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

@KeyValueObservable
final class BorrowNode: @unchecked Sendable {
  var text = ""
  var count = 0
  var wide = BorrowWide()
  var payload: BorrowPayload?
  var shape: any BorrowShape = BorrowCircle()
  var anything: AnyObject = BorrowPayload("first")
  var shapeType: any BorrowShape.Type = BorrowCircle.self
  var children: [BorrowNode] = []
}

/// A string long enough to be held on the heap, made at run time.
private func heapString(_ seed: Int) -> String {
  String(repeating: "value \(seed) ", count: 4)
}

@Suite("A graph change handed over borrowed: a kept copy owns its object and values")
struct GraphBorrowedChangeTests {
  @Test("a change the handler keeps holds its object and its values after both are gone")
  func keptChangeOwnsItsParts() {
    var kept: [KeyValueGraphChange] = []
    weak var weakNode: BorrowNode?
    weak var weakPayload: BorrowPayload?
    do {
      let node = BorrowNode()
      weakNode = node
      let token = node.observeGraph { kept.append($0) }
      node.text = heapString(1)
      node.count = 7
      node.wide = BorrowWide(first: 1, second: 2, third: 3, name: heapString(2))
      let payload = BorrowPayload(heapString(3))
      weakPayload = payload
      node.payload = payload
      node.text = heapString(4)
      token.invalidate()
    }
    // Nothing but the kept changes holds the node and the payload now.
    #expect(weakNode != nil)
    #expect(weakPayload != nil)
    #expect(kept.map(\.key) == ["text", "count", "wide", "payload", "text"])
    #expect(kept[0].change.oldValue as? String == "")
    #expect(kept[0].change.newValue as? String == heapString(1))
    #expect(kept[1].change.newValue as? Int == 7)
    #expect(kept[2].change.newValue as? BorrowWide == BorrowWide(first: 1, second: 2, third: 3, name: heapString(2)))
    #expect((kept[3].change.newValue as? BorrowPayload?)??.name == heapString(3))
    #expect(kept[4].change.oldValue as? String == heapString(1))
    #expect((kept[4].object as? BorrowNode)?.text == heapString(4))
    kept.removeAll()
    // The copies owned one reference each, and gave it back.
    #expect(weakNode == nil)
    #expect(weakPayload == nil)
  }

  @Test("a change the handler only reads keeps nothing alive")
  func readChangeHoldsNothing() {
    weak var weakNode: BorrowNode?
    weak var weakPayload: BorrowPayload?
    var texts: [String] = []
    do {
      let node = BorrowNode()
      weakNode = node
      let token = node.observeGraph { change in
        if let text = change.change.newValue as? String { texts.append(text) }
      }
      let payload = BorrowPayload("read")
      weakPayload = payload
      node.payload = payload
      node.payload = nil
      node.text = heapString(5)
      node.wide.name = heapString(6)
      token.invalidate()
    }
    #expect(texts == [heapString(5)])
    #expect(weakNode == nil)
    #expect(weakPayload == nil)
  }

  @Test("a value whose type is an existential reads as its own type, in casts, `type(of:)` and printing")
  func existentialValuesReadAsTheirTypes() {
    let node = BorrowNode()
    var changes: [KeyValueGraphChange] = []
    let token = node.observeGraph { changes.append($0) }
    node.shape = BorrowSquare()
    node.anything = BorrowCircle()
    node.shapeType = BorrowSquare.self
    token.invalidate()
    try? #require(changes.count == 3)
    guard changes.count == 3 else { return }
    let types = changes.flatMap { [$0.change.oldValue, $0.change.newValue] }.map { $0.map { "\(type(of: $0))" } }
    #expect(types == ["BorrowCircle", "BorrowSquare", "BorrowPayload", "BorrowCircle", "BorrowCircle.Type", "BorrowSquare.Type"])
    #expect(changes[0].change.newValue is BorrowSquare)
    #expect(changes[0].change.newValue.map { String(describing: $0) }?.hasSuffix("BorrowSquare") == true)
    #expect(changes[2].change.newValue as? any BorrowShape.Type == BorrowSquare.self as any BorrowShape.Type)
  }

  @Test("a to-many change kept by the handler keeps its elements and its indexes")
  func keptToManyChange() {
    var kept: [KeyValueGraphChange] = []
    weak var weakChild: BorrowNode?
    do {
      let node = BorrowNode()
      node.children = (0..<5).map { _ in BorrowNode() }
      weakChild = node.children[3]
      let token = node.observeGraph { kept.append($0) }
      let removed = [node.children[1], node.children[3]].map(ObjectIdentifier.init)
      node.mutableArrayValue(for: \.children).removeAll { removed.contains(ObjectIdentifier($0)) }
      token.invalidate()
    }
    #expect(kept.map(\.change.kind) == [.removal])
    #expect(kept.first?.change.indexes == [1..<2, 3..<4])
    #expect((kept.first?.change.oldValue as? [BorrowNode])?.count == 2)
    #expect(weakChild != nil)
    kept.removeAll()
    #expect(weakChild == nil)
  }

  @Test("an undo stack and a classic observer keep the same values as the graph's handler")
  func receiversCopyWhatTheyKeep() throws {
    let node = BorrowNode()
    let undo = KeyValueUndoStack()
    let recording = undo.record(node)
    let log = ChangeLog()
    try node.addObserver(log, forKeyPath: "text", options: [.old, .new])
    node.text = heapString(7)
    node.wide = BorrowWide(first: 9, name: heapString(8))
    #expect(node.removeObserver(log, forKeyPath: "text"))
    #expect(log.last?.change[.new] as? String == heapString(7))
    #expect(log.last?.change[.old] as? String == "")
    try undo.undo()
    #expect(node.wide == BorrowWide())
    try undo.undo()
    #expect(node.text == "")
    try undo.redo()
    #expect(node.text == heapString(7))
    recording.invalidate()
  }
}
