import KeyValueObserving
import Testing

/// A board whose move changes two counts, and the status they make.
@KeyValueObservable
final class TaskBoard {
  var open = 10
  var done = 3
  var status: String { "\(open) open, \(done) done" }

  /// One item done: two properties change.
  func complete() {
    open -= 1
    done += 1
  }
}

/// A status line that keeps every text it was given.
final class StatusLine {
  var lines: [String] = []
  var text = "" {
    didSet { lines.append(text) }
  }
}

/// A field both ways, which keeps every value it was given.
@KeyValueObservable
final class CountField {
  var value = 0
  @KeyValueIgnored var written: [Int] = []
}

@Suite("Coalesced bindings: one write per job of the actor")
struct CoalescedBindingTests {
  @Test("a move that changes two properties shows one status line, coalesced; two without")
  @MainActor
  func oneStatusLinePerMove() async {
    let board = TaskBoard()
    let coalescedLine = StatusLine()
    let eachChangeLine = StatusLine()
    let coalesced = board.bind(\.status, to: \.text, on: coalescedLine, coalesced: true)
    let eachChange = board.bind(\.status, to: \.text, on: eachChangeLine)
    board.complete()
    #expect(coalescedLine.lines == ["10 open, 3 done"], "written inside the job of the changes")
    await waitForCoalescedRuns()
    #expect(coalescedLine.lines == ["10 open, 3 done", "9 open, 4 done"])
    #expect(eachChangeLine.lines == ["10 open, 3 done", "9 open, 3 done", "9 open, 4 done"])
    board.complete()
    await waitForCoalescedRuns()
    #expect(coalescedLine.lines.last == "8 open, 5 done")
    #expect(coalescedLine.lines.count == 3)
    withExtendedLifetime((coalesced, eachChange)) {}
  }

  @Test("two jobs, two writes: 30 times alike")
  @MainActor
  func twoJobsTwoWrites() async {
    for round in 0..<30 {
      let board = TaskBoard()
      let line = StatusLine()
      let token = board.bind(\.status, to: \.text, on: line, coalesced: true)
      board.complete()
      await Task.yield()
      board.complete()
      await waitForCoalescedRuns()
      #expect(line.lines == ["10 open, 3 done", "9 open, 4 done", "8 open, 5 done"], "round \(round)")
      withExtendedLifetime(token) {}
    }
  }

  @Test("the transform form coalesces too, and runs once per job")
  @MainActor
  func transformCoalesced() async {
    let board = TaskBoard()
    let line = StatusLine()
    var transforms = 0
    let token = board.bind(\.open, to: \.text, on: line, coalesced: true) { open in
      transforms += 1
      return "\(open) left"
    }
    board.open = 5
    board.open = 4
    board.open = 3
    await waitForCoalescedRuns()
    #expect(line.lines == ["10 left", "3 left"])
    #expect(transforms == 2)
    withExtendedLifetime(token) {}
  }

  @Test("both ways: each side's changes in one job give one write of the other, the side changed last wins")
  @MainActor
  func twoWayCoalesced() async {
    let board = TaskBoard()
    let field = CountField()
    var written: [Int] = []
    let observer = field.observe(\.value, options: .new) { _, change in written.append(change.newValue!) }
    let token = board.bind(\.open, twoWayTo: \.value, on: field, initialValueFrom: .source, coalesced: true)
    #expect(field.value == 10)
    board.open = 9
    board.open = 8
    await waitForCoalescedRuns()
    #expect(field.value == 8)
    #expect(written == [10, 8], "one write per job, not one per change")
    field.value = 1
    field.value = 2
    await waitForCoalescedRuns()
    #expect(board.open == 2)
    #expect(written == [10, 8, 1, 2], "the field's own changes, and no echo back to it")
    board.open = 5
    field.value = 6  // changed last, in the same job
    await waitForCoalescedRuns()
    #expect(board.open == 6)
    #expect(field.value == 6)
    withExtendedLifetime((token, observer)) {}
  }

  @Test("invalidated while a write is pending: nothing is written after invalidate() returns")
  @MainActor
  func invalidatedWhilePending() async {
    let board = TaskBoard()
    let line = StatusLine()
    let token = board.bind(\.status, to: \.text, on: line, coalesced: true)
    board.complete()
    token.invalidate()
    await waitForCoalescedRuns()
    #expect(line.lines == ["10 open, 3 done"])
    #expect(!token.isActive)
  }

  @Test("the target freed while a write is pending: nothing is written, the binding ends")
  @MainActor
  func targetFreedWhilePending() async {
    let board = TaskBoard()
    var line: StatusLine? = StatusLine()
    weak let weakLine = line
    let token = board.bind(\.status, to: \.text, on: line!, coalesced: true)
    board.complete()
    line = nil
    await waitForCoalescedRuns()
    #expect(weakLine == nil)
    #expect(!token.isActive)
  }

  @Test("a coalesced closure that writes what a coalesced binding reads: one wait covers both")
  @MainActor
  func closureThenBinding() async {
    let board = TaskBoard()
    let field = CountField()
    let line = StatusLine()
    let copy = withKeyValueObservation(tracking: .coalesced) { field.value = board.open * 2 }
    let shown = field.bind(\.value, to: \.text, on: line, coalesced: true) { "\($0)" }
    board.open = 4
    await waitForCoalescedRuns()
    #expect(line.lines == ["20", "8"])
    withExtendedLifetime((copy, shown)) {}
  }

  @Test("coalesced on a custom actor, changed on another thread during one job: one write, on the actor")
  func onACustomActor() async {
    let lines = await BindingWorkshop().bindAndChangeElsewhere()
    #expect(lines == ["10 open, 3 done", "8 open, 5 done"])
  }

  @Test("coalesced with no actor is reported, and writes at each change")
  func coalescedWithoutActor() {
    let board = TaskBoard()
    let line = StatusLine()
    let diagnostics = capturingDiagnostics {
      let token = nonisolatedCoalescedBinding(board, line)
      board.complete()
      withExtendedLifetime(token) {}
    }
    #expect(line.lines == ["10 open, 3 done", "9 open, 3 done", "9 open, 4 done"])
    #expect(diagnostics.map(\.kind) == [.coalescingWithoutActor])
  }
}

/// `bind(…, coalesced: true)` from code isolated to no actor.
nonisolated func nonisolatedCoalescedBinding(_ board: TaskBoard, _ line: StatusLine) -> KeyValueObservation {
  board.bind(\.status, to: \.text, on: line, coalesced: true)
}

/// An actor that binds its own models, coalesced.
actor BindingWorkshop {
  /// A status line bound on this actor, its board moved twice on another
  /// thread during one job: the lines written.
  func bindAndChangeElsewhere() async -> [String] {
    let board = TaskBoard()
    let line = StatusLine()
    let token = board.bind(\.status, to: \.text, on: line, coalesced: true)
    let handed = UncheckedSendable(board)
    onAnotherThreadAndWait {
      handed.value.complete()
      handed.value.complete()
    }
    await waitForCoalescedRuns()
    withExtendedLifetime(token) {}
    return line.lines
  }
}
