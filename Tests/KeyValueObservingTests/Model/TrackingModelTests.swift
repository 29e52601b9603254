import KeyValueObserving
import PropertyBased
import Testing

// Model-based tests of tracked closures and bindings: random operation
// sequences on `Cell`s, checked after each operation against what a plain
// reference computes from the cells' values.

/// One operation of a sequence, decoded from a number.
enum TrackingOperation: CustomStringConvertible {
  case writeA(cell: Int, value: Int)
  case writeB(cell: Int, value: Int)
  /// Links cell 2 to another cell, or unlinks it.
  case link(to: Int?)
  /// Several writes inside one `withChange` of the first cell's `a`.
  case grouped(cell: Int, value: Int, other: Int)
  /// A write of cell 0's `a` made inside an observer of cell 1's `b`.
  case armInnerWrite(Int)
  case invalidate
  case restart(fromTarget: Bool)

  static let numbers = 0...(1 << 40)

  init(_ number: Int) {
    let cell = (number / 16) % 4
    let value = (number / 64) % 5
    switch number % 16 {
    case 0..<4: self = .writeA(cell: cell, value: value)
    case 4..<8: self = .writeB(cell: cell, value: value)
    case 8, 9: self = .link(to: cell == 2 ? nil : cell)
    case 10, 11: self = .grouped(cell: cell, value: value, other: (cell + 1) % 4)
    case 12: self = .armInnerWrite(value)
    case 13: self = .invalidate
    default: self = .restart(fromTarget: value % 2 == 0)
    }
  }

  var description: String {
    switch self {
    case .writeA(let cell, let value): "cell\(cell).a = \(value)"
    case .writeB(let cell, let value): "cell\(cell).b = \(value)"
    case .link(let to): "cell2.link = \(to.map { "cell\($0)" } ?? "nil")"
    case .grouped(let cell, let value, let other): "withChange(cell\(cell).a) { a = \(value); cell\(other).b = \(value) }"
    case .armInnerWrite(let value): "observer of cell1.b writes cell0.a = \(value) once"
    case .invalidate: "invalidate"
    case .restart(let fromTarget): "restart\(fromTarget ? " from target" : "")"
    }
  }

  /// Carries the operation out on `cells`.
  func apply(to cells: [Cell]) {
    switch self {
    case .writeA(let cell, let value): cells[cell].a = value
    case .writeB(let cell, let value): cells[cell].b = value
    case .link(let to): cells[2].link = to.map { cells[$0] }
    case .grouped(let cell, let value, let other):
      cells[cell].withChange(for: \.a) {
        cells[cell].a = value
        cells[other].b = value
      }
    case .armInnerWrite, .invalidate, .restart: break
    }
  }
}

/// What the tracked closure reads, and what it writes: a branch on cell
/// 0's `a`, a chain, a computed key, and a write of a key it reads.
private func program(_ cells: [Cell], writes: Bool) -> String {
  let head = cells[0].a
  let branch = head % 2 == 0 ? "b1=\(cells[1].b)" : "link=\(cells[2].link?.a ?? -1)"
  if writes { cells[3].b = head }
  return "\(head) \(branch) total3=\(cells[3].total)"
}

/// The (cell, key) pairs `program` reads with the cells as they are.
private func reads(_ cells: [Cell]) -> Set<String> {
  var keys: Set<String> = ["0.a", "3.a", "3.b"]
  if cells[0].a % 2 == 0 {
    keys.insert("1.b")
  } else {
    keys.insert("2.link")
    if let linked = cells[2].link, let index = cells.firstIndex(where: { $0 === linked }) { keys.insert("\(index).a") }
  }
  return keys
}

/// The keys an operation changes.
private func changedKeys(by operation: TrackingOperation) -> Set<String> {
  switch operation {
  case .writeA(let cell, _): ["\(cell).a"]
  case .writeB(let cell, _): ["\(cell).b"]
  case .link: ["2.link"]
  case .grouped(let cell, _, let other): ["\(cell).a", "\(other).b"]
  case .armInnerWrite, .invalidate, .restart: []
  }
}

/// Runs `operations` against a tracked closure; returns the first
/// difference from the reference, or `nil`.
private func trackedDifference(_ operations: [TrackingOperation], writes: Bool) -> String? {
  let cells = (0..<4).map { _ in Cell() }
  var runs = 0
  var seen = ""
  func start() -> KeyValueObservation {
    withKeyValueObservation {
      runs += 1
      seen = program(cells, writes: writes)
    }
  }
  var token: KeyValueObservation? = start()
  var expectedRuns = 1
  var lastReads = reads(cells)
  defer { for cell in cells { cell.link = nil } }
  for (step, operation) in operations.enumerated() {
    switch operation {
    case .invalidate:
      token?.invalidate()
      token = nil
    case .restart:
      token?.invalidate()
      token = start()
      expectedRuns += 1
      lastReads = reads(cells)
    default:
      operation.apply(to: cells)
      if token != nil, !changedKeys(by: operation).isDisjoint(with: lastReads) {
        expectedRuns += 1
        lastReads = reads(cells)
      }
    }
    if runs != expectedRuns {
      return "step \(step) (\(operation)): \(runs) runs, expected \(expectedRuns)"
    }
    if token != nil {
      let expected = program(cells, writes: false)
      if seen != expected { return "step \(step) (\(operation)): saw \(seen), expected \(expected)" }
    }
  }
  return nil
}

/// What the two-way binding of `bindingDifference` does, written plainly:
/// the values of cell 0's `a` and cell 1's `b`, and how many times each
/// side's counting observer is told. It follows the binding's rules: every
/// set notifies; the binding writes the other side only when it holds
/// another value; while it writes, the first change of the written side is
/// its echo, and any other change waits and is carried after the write,
/// read anew. The counting observers are told before the binding (they
/// registered first), and cell 1's may write cell 0's `a` once.
private final class BindingReference {
  enum Side { case a, b }

  var a = 0
  var b = 0
  var bound = true
  var innerWrite: Int? = nil
  var notes = (a0: 0, b1: 0)
  /// Open `withChange` of `a`: writes of `a` join it, notified at its end.
  var aChangeOpen = false
  var aChangedInGroup = false
  private var writing: Side? = nil
  private var echoTold = false
  private var waiting: [Side] = []

  init(a: Int, b: Int) {
    self.a = a
    self.b = b
  }

  func setA(_ value: Int) {
    a = value
    if aChangeOpen {
      aChangedInGroup = true
      return
    }
    notifyA()
  }

  func notifyA() {
    notes.a0 += 1
    if bound { told(.a) }
  }

  func setB(_ value: Int) {
    b = value
    notes.b1 += 1
    if let value = innerWrite {
      innerWrite = nil
      setA(value)
    }
    if bound { told(.b) }
  }

  /// `withChange(for: \.a)` around `body`.
  func groupA(_ body: () -> Void) {
    aChangeOpen = true
    aChangedInGroup = false
    body()
    aChangeOpen = false
    notifyA()
  }

  /// The binding's handler for a change of `side`.
  func told(_ side: Side) {
    if let writing {
      if writing == side && !echoTold {
        echoTold = true
      } else if !waiting.contains(side) {
        waiting.append(side)
      }
      return
    }
    var side = side
    while true {
      write(from: side)
      guard !waiting.isEmpty else {
        writing = nil
        return
      }
      side = waiting.contains(.a) ? .a : .b
      waiting.removeAll { $0 == side }
    }
  }

  /// Starts the binding, writing from `fromB`'s side.
  func start(fromB: Bool) {
    bound = true
    told(fromB ? .b : .a)
  }

  private func write(from side: Side) {
    echoTold = false
    switch side {
    case .a:
      writing = .b
      if b != a + 10 { setB(a + 10) }
    case .b:
      writing = .a
      if a != b - 10 { setA(b - 10) }
    }
  }
}

/// Runs `operations` against a two-way binding of cell 0's `a` and cell
/// 1's `b` (through +10 and its inverse) and a one-way binding of cell
/// 2's computed `total` to cell 3's `a`, with observers counting each
/// side's notifications and one that writes inside them; returns the
/// first difference from ``BindingReference``, or `nil`.
private func bindingDifference(_ operations: [TrackingOperation]) -> String? {
  let cells = (0..<4).map { _ in Cell() }
  var notes = (a0: 0, b1: 0)
  var innerWrite: Int? = nil
  let counters = [
    cells[0].observe(\.a) { _, _ in notes.a0 += 1 },
    cells[1].observe(\.b) { _, _ in
      notes.b1 += 1
      if let value = innerWrite {
        innerWrite = nil
        cells[0].a = value
      }
    },
  ]
  func bindTwoWay(fromTarget: Bool) -> KeyValueObservation {
    cells[0].bind(
      \.a, twoWayTo: \.b, on: cells[1], initialValueFrom: fromTarget ? .target : .source,
      transform: { $0 + 10 }, inverse: { $0 - 10 }
    )
  }
  let reference = BindingReference(a: cells[0].a, b: cells[1].b)
  var twoWay: KeyValueObservation? = bindTwoWay(fromTarget: false)
  reference.start(fromB: false)
  let oneWay = cells[2].bind(\.total, to: \.a, on: cells[3])
  // A write of the one-way target itself holds until the source changes.
  var targetWritten = false
  defer { for cell in cells { cell.link = nil } }
  for (step, operation) in operations.enumerated() {
    switch operation {
    case .invalidate:
      twoWay?.invalidate()
      twoWay = nil
      reference.bound = false
    case .restart(let fromTarget):
      twoWay?.invalidate()
      twoWay = bindTwoWay(fromTarget: fromTarget)
      reference.bound = false
      reference.start(fromB: fromTarget)
    case .armInnerWrite(let value):
      innerWrite = value
      reference.innerWrite = value
    default:
      let keys = changedKeys(by: operation)
      if keys.contains("3.a") { targetWritten = true }
      if keys.contains("2.a") || keys.contains("2.b") { targetWritten = false }
      operation.apply(to: cells)
      switch operation {
      case .writeA(0, let value): reference.setA(value)
      case .writeB(1, let value): reference.setB(value)
      case .grouped(0, let value, _):
        // Its other write is cell 1's `b`.
        reference.groupA {
          reference.setA(value)
          reference.setB(value)
        }
      default: break
      }
    }
    if notes != reference.notes {
      return "step \(step) (\(operation)): notifications (a0, b1) \(notes), expected \(reference.notes)"
    }
    if (cells[0].a, cells[1].b) != (reference.a, reference.b) {
      return "step \(step) (\(operation)): (cell0.a, cell1.b) (\(cells[0].a), \(cells[1].b)), expected "
        + "(\(reference.a), \(reference.b))"
    }
    if twoWay != nil, cells[1].b != cells[0].a + 10 {
      return "step \(step) (\(operation)): cell1.b \(cells[1].b) is not cell0.a \(cells[0].a) + 10"
    }
    if !targetWritten, cells[3].a != cells[2].total {
      return "step \(step) (\(operation)): cell3.a \(cells[3].a) is not cell2.total \(cells[2].total)"
    }
  }
  withExtendedLifetime((counters, oneWay)) {}
  return nil
}

@Suite("Model-based: tracked closures and bindings against a reference")
struct TrackingModelTests {
  @Test("a tracked closure runs once per change of what its last run read, and sees the current values")
  func trackedClosure() async {
    await propertyCheck(count: 500, input: Gen.int(in: TrackingOperation.numbers).array(of: 1...30)) { numbers in
      let operations = numbers.map(TrackingOperation.init)
      for writes in [false, true] {
        let difference = trackedDifference(operations, writes: writes)
        #expect(difference == nil, "\(difference ?? "") (writes: \(writes))\n\(operations.map(\.description).joined(separator: "\n"))")
      }
    }
  }

  @Test("bound sides stay equal, each write reaches the other side once, and nothing echoes")
  func bindings() async {
    await propertyCheck(count: 500, input: Gen.int(in: TrackingOperation.numbers).array(of: 1...30)) { numbers in
      let operations = numbers.map(TrackingOperation.init)
      let difference = bindingDifference(operations)
      #expect(difference == nil, "\(difference ?? "")\n\(operations.map(\.description).joined(separator: "\n"))")
    }
  }
}
