import KeyValueObserving
import Testing

/// A value that holds a reference, so that a test can tell when the
/// stack lets go of it.
struct UndoPayload {
  final class Tracker {}
  let tracker = Tracker()
}

@KeyValueObservable
final class UndoCounter {
  var count = 0
  var payload = UndoPayload()
}

/// Steps and changes by the hundred: the stack keeps its changes in
/// chunks of a fixed size, and these cross their bounds, from the end
/// (undo, redo) and from the start (the levels).
@Suite("Undo stack: many steps, many changes a step")
struct UndoManyStepsTests {
  @Test("a step of 150 changes and 100 steps of one undo and redo in order, state by state")
  func manyChangesAndSteps() throws {
    let counter = UndoCounter()
    let undo = KeyValueUndoStack()
    let recording = undo.record(counter)
    defer { recording.invalidate() }
    undo.group(named: "Count") {
      for value in 1...150 { counter.count = value }
    }
    var before: [Int] = [0]
    for value in 151...250 {
      before.append(counter.count)
      counter.count = value
    }
    for expected in before.reversed() {
      try undo.undo()
      #expect(counter.count == expected)
    }
    #expect(!undo.canUndo)
    #expect(undo.redoActionName == "Count")
    for expected in before.dropFirst() + [250] {
      try undo.redo()
      #expect(counter.count == expected)
    }
    #expect(!undo.canRedo)
    // The big step again, undone in one go, after the steps above it.
    for _ in 0..<100 { try undo.undo() }
    #expect(counter.count == 150)
    try undo.undo()
    #expect(counter.count == 0)
  }

  @Test("with 70 levels, 200 steps of 3 changes keep the newest 70, and the values of the rest are let go")
  func levelsDropTheOldestAcrossChunks() throws {
    let counter = UndoCounter()
    let undo = KeyValueUndoStack()
    undo.levelsOfUndo = 70
    let recording = undo.record(counter)
    defer { recording.invalidate() }
    var trackers: [() -> UndoPayload.Tracker?] = []
    for step in 1...200 {
      undo.group {
        let payload = UndoPayload()
        trackers.append { [weak tracker = payload.tracker] in tracker }
        counter.payload = payload
        counter.count = step * 10
        counter.count = step * 10 + 1
      }
    }
    // The old payloads of the dropped steps are freed: 130 steps, each
    // holding the payload before its own.
    #expect(trackers.prefix(129).allSatisfy { $0() == nil })
    #expect(trackers.suffix(71).allSatisfy { $0() != nil })
    for step in (131...200).reversed() {
      try undo.undo()
      #expect(counter.count == (step - 1) * 10 + 1)
    }
    #expect(!undo.canUndo)
    try undo.undo()
    #expect(counter.count == 1_301)
  }

  @Test("a new change lets go of the redo steps' values, removeAll() of the rest")
  func removeAllReleasesEverything() throws {
    let counter = UndoCounter()
    let undo = KeyValueUndoStack()
    let recording = undo.record(counter)
    defer { recording.invalidate() }
    var trackers: [() -> UndoPayload.Tracker?] = []
    for _ in 0..<100 {
      let payload = UndoPayload()
      trackers.append { [weak tracker = payload.tracker] in tracker }
      counter.payload = payload
    }
    for _ in 0..<30 { try undo.undo() }
    #expect(undo.canRedo)
    counter.payload = UndoPayload()
    undo.removeAll()
    #expect(trackers.allSatisfy { $0() == nil })
    #expect(!undo.canUndo && !undo.canRedo)
  }
}
