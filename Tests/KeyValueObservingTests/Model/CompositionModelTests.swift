import KeyValueObserving
import PropertyBased
import Testing

// A model-based test of bindings and tracked closures composed: random
// operation sequences on five cells' `a`, run against the library and
// against `CompositionReference`, compared after every operation: each
// cell's value, how many changes each counting observer was told, what
// every counting observer, tracked closure and the watcher saw (in one
// order), the diagnostics reported, and which tokens are active.

/// One operation of a sequence, decoded from a number.
enum CompositionOperation: CustomStringConvertible {
  /// Cells 0–4.
  case write(cell: Int, value: Int)
  /// Cells 0–3, two different ones.
  case bind(source: Int, target: Int, twoWay: Bool, fromTarget: Bool)
  /// The same two-way binding as one made before, made again.
  case bindAgain(pick: Int, fromTarget: Bool)
  /// Refused: a property bound to itself.
  case bindToItself(cell: Int, twoWay: Bool)
  /// Ends one of the bindings the sequence made.
  case invalidate(pick: Int)
  /// An observer of a cell's `a` (0–3) that sets it to 3 when it is
  /// greater, registered now; or, when there is one, its end.
  case toggleClamp(cell: Int)
  /// An observer of a cell's `a` (0–3) that, at its first notification,
  /// ends itself and writes a cell's `a` (0–3): a change no binding's
  /// chain holds back, made while a binding may be writing.
  case armRelay(cell: Int, to: Int, value: Int)
  /// Binds a cell's `a` (0–3) to cell 4's both ways through +10 and −10,
  /// ending the binding this operation made before: cell 4 is bound by
  /// no other, so that it is in no cycle.
  case bindShifted(cell: Int, fromTarget: Bool)
  /// A tracked closure that reads cell 0's `a` and binds cell 1's to cell
  /// 2's in each run, or its end (and its binding's).
  case toggleBinder
  /// A tracked closure that reads cell 3's `a` and, in each run,
  /// observes cell 1's with `.initial` (a handler that reads cells 1 and
  /// 2) and starts a tracked closure that reads cell 0's and writes it to
  /// cell 3's when it is at most 3; or their end. Only values no clamp
  /// changes: a write that a clamp undoes at every run never settles,
  /// and with several bindings between them each round of one runs the
  /// hundred rounds of the next, seconds or minutes for one sequence.
  case toggleNesting

  static let numbers = 0...(1 << 40)

  init(_ number: Int) {
    var rest = number
    func take(_ count: Int) -> Int {
      defer { rest /= count }
      return rest % count
    }
    let kind = take(23)
    let cell = take(4)
    let other = (cell + 1 + take(3)) % 4
    let anyCell = take(5)
    let value = take(7)
    let flag = take(2) == 1
    let fromTarget = take(2) == 1
    let pick = take(64)
    switch kind {
    case 0..<6: self = .write(cell: anyCell, value: value)
    case 6..<9: self = .bind(source: cell, target: other, twoWay: kind != 8, fromTarget: fromTarget)
    case 9: self = .bindAgain(pick: pick, fromTarget: fromTarget)
    case 10: self = .bindToItself(cell: cell, twoWay: flag)
    case 11, 12: self = .invalidate(pick: pick)
    case 13, 14: self = .toggleClamp(cell: cell)
    case 15, 16: self = .bindShifted(cell: cell, fromTarget: fromTarget)
    case 17, 18: self = .toggleBinder
    case 19, 20: self = .armRelay(cell: cell, to: other, value: value)
    default: self = .toggleNesting
    }
  }

  var description: String {
    switch self {
    case .write(let cell, let value): "cell\(cell).a = \(value)"
    case .bind(let source, let target, let twoWay, let fromTarget):
      twoWay
        ? "bind cell\(source).a ⇄ cell\(target).a from \(fromTarget ? "target" : "source")"
        : "bind cell\(source).a → cell\(target).a"
    case .bindAgain(let pick, let fromTarget):
      "bind two-way binding #\(pick) mod count again from \(fromTarget ? "target" : "source")"
    case .bindToItself(let cell, let twoWay): "bind cell\(cell).a \(twoWay ? "⇄" : "→") itself"
    case .invalidate(let pick): "invalidate binding #\(pick) mod count"
    case .toggleClamp(let cell): "arm or disarm the clamp of cell\(cell).a"
    case .armRelay(let cell, let other, let value): "arm a relay: cell\(cell).a's next change sets cell\(other).a = \(value)"
    case .bindShifted(let cell, let fromTarget):
      "bind cell\(cell).a ⇄ cell4.a through +10/−10 from \(fromTarget ? "target" : "source")"
    case .toggleBinder: "arm or disarm the binder closure"
    case .toggleNesting: "arm or disarm the nesting closure"
    }
  }
}

/// The library side: the cells, a counting observer of each cell's `a`
/// (registered first), and the registrations the operations make, which
/// record what they see in `trace`.
private final class CompositionHarness {
  let cells = (0..<5).map { _ in Cell() }
  var trace: [CompositionEvent] = []
  private var counters: [KeyValueObservation] = []
  private var clamps: [Int: KeyValueObservation] = [:]
  private var relays: [KeyValueObservation] = []
  private var binder: KeyValueObservation?
  private var binderBinding: KeyValueObservation?
  private var outer: KeyValueObservation?
  private var nested: KeyValueObservation?
  private var watcher: KeyValueObservation?

  init() {
    for (index, cell) in cells.enumerated() {
      counters.append(cell.observe(\.a) { [unowned self] cell, _ in trace.append(.counted(cell: index, value: cell.a)) })
    }
  }

  func takeTrace() -> [CompositionEvent] {
    defer { trace = [] }
    return trace
  }

  func bind(_ source: Int, to target: Int, twoWay: Bool, fromTarget: Bool) -> KeyValueObservation {
    guard twoWay else { return cells[source].bind(\.a, to: \.a, on: cells[target]) }
    return cells[source].bind(\.a, twoWayTo: \.a, on: cells[target], initialValueFrom: fromTarget ? .target : .source)
  }

  func bindShifted(_ cell: Int, fromTarget: Bool) -> KeyValueObservation {
    cells[cell].bind(
      \.a, twoWayTo: \.a, on: cells[4], initialValueFrom: fromTarget ? .target : .source,
      transform: { $0 + 10 }, inverse: { $0 - 10 }
    )
  }

  /// Returns whether it armed the clamp.
  func toggleClamp(on index: Int) -> Bool {
    if let clamp = clamps.removeValue(forKey: index) {
      clamp.invalidate()
      return false
    }
    clamps[index] = cells[index].observe(\.a) { cell, _ in
      if cell.a > 3 { cell.a = 3 }
    }
    return true
  }

  func armRelay(on index: Int, to other: Int, value: Int) {
    var relay: KeyValueObservation? = nil
    relay = cells[index].observe(\.a) { [unowned self] _, _ in
      guard let token = relay else { return }
      relay = nil
      token.invalidate()
      cells[other].a = value
    }
    relays.append(relay!)
  }

  /// Returns whether it armed the closure.
  func toggleBinder() -> Bool {
    if let binder {
      binder.invalidate()
      self.binder = nil
      binderBinding?.invalidate()
      binderBinding = nil
      return false
    }
    binder = withKeyValueObservation { [unowned self] in
      let read = cells[0].a
      trace.append(.binderRan(read: read))
      binderBinding?.invalidate()
      binderBinding = cells[1].bind(\.a, twoWayTo: \.a, on: cells[2], initialValueFrom: read % 2 == 0 ? .source : .target)
    }
    return true
  }

  /// Returns whether it armed the closure.
  func toggleNesting() -> Bool {
    if let outer {
      outer.invalidate()
      self.outer = nil
      nested?.invalidate()
      nested = nil
      watcher?.invalidate()
      watcher = nil
      return false
    }
    outer = withKeyValueObservation { [unowned self] in
      trace.append(.outerRan(read: cells[3].a))
      watcher?.invalidate()
      watcher = cells[1].observe(\.a, options: .initial) { [unowned self] _, _ in
        trace.append(.watched(cell1: cells[1].a, cell2: cells[2].a))
      }
      nested?.invalidate()
      nested = withKeyValueObservation { [unowned self] in
        let read = cells[0].a
        trace.append(.nestedRan(read: read))
        if read <= 3 { cells[3].a = read }
      }
    }
    return true
  }

  /// Ends every registration, before the harness goes.
  func end() {
    for token in counters + relays + Array(clamps.values) + [binder, binderBinding, outer, nested, watcher].compactMap(\.self) {
      token.invalidate()
    }
  }
}

/// A binding a sequence made and has not invalidated: the library's token
/// and the reference's binding.
private struct MadeBinding {
  let token: KeyValueObservation
  let model: CompositionReference.Binding
  let shifted: Bool

  var description: String {
    "cell\(model.source).a \(model.twoWay ? "⇄" : "→") cell\(model.target).a\(shifted ? " (+10)" : "")"
  }
}

/// Runs `operations` against the library and the reference; returns the
/// first difference, with the steps run (their picks resolved), or `nil`.
private func compositionDifference(_ operations: [CompositionOperation]) -> String? {
  let harness = CompositionHarness()
  let reference = CompositionReference(cells: harness.cells.count)
  defer { harness.end() }
  var bindings: [MadeBinding] = []
  var steps: [String] = []
  for operation in operations {
    var step = operation.description
    var refusedToken: KeyValueObservation? = nil
    let reported = capturingDiagnostics {
      switch operation {
      case .write(let cell, let value):
        harness.cells[cell].a = value
        reference.set(cell, to: value)
      case .bind(let source, let target, let twoWay, let fromTarget):
        let token = harness.bind(source, to: target, twoWay: twoWay, fromTarget: fromTarget)
        // One way, the source's value is written at once.
        let model = reference.bind(source, to: target, twoWay: twoWay, initial: twoWay && fromTarget ? .target : .source)!
        bindings.append(MadeBinding(token: token, model: model, shifted: false))
      case .bindAgain(let pick, let fromTarget):
        let twoWay = bindings.filter { $0.model.twoWay && !$0.shifted }
        guard !twoWay.isEmpty else {
          step = "bind again: no two-way binding"
          return
        }
        let again = twoWay[pick % twoWay.count].model
        step = "bind cell\(again.source).a ⇄ cell\(again.target).a again from \(fromTarget ? "target" : "source")"
        let token = harness.bind(again.source, to: again.target, twoWay: true, fromTarget: fromTarget)
        let model = reference.bind(again.source, to: again.target, twoWay: true, initial: fromTarget ? .target : .source)!
        bindings.append(MadeBinding(token: token, model: model, shifted: false))
      case .bindToItself(let cell, let twoWay):
        refusedToken = harness.bind(cell, to: cell, twoWay: twoWay, fromTarget: false)
        _ = reference.bind(cell, to: cell, twoWay: twoWay, initial: .source)
      case .invalidate(let pick):
        guard !bindings.isEmpty else {
          step = "invalidate: no binding"
          return
        }
        let ended = bindings.remove(at: pick % bindings.count)
        step = "invalidate \(ended.description)"
        ended.token.invalidate()
        reference.end(ended.model)
      case .toggleClamp(let cell):
        step = "\(harness.toggleClamp(on: cell) ? "arm" : "disarm") the clamp of cell\(cell).a"
        reference.toggleClamp(on: cell)
      case .bindShifted(let cell, let fromTarget):
        if let index = bindings.firstIndex(where: \.shifted) {
          let ended = bindings.remove(at: index)
          ended.token.invalidate()
          reference.end(ended.model)
        }
        let token = harness.bindShifted(cell, fromTarget: fromTarget)
        let model = reference.bind(cell, to: 4, twoWay: true, shift: 10, initial: fromTarget ? .target : .source)!
        bindings.append(MadeBinding(token: token, model: model, shifted: true))
      case .armRelay(let cell, let other, let value):
        harness.armRelay(on: cell, to: other, value: value)
        reference.armRelay(on: cell, to: other, value: value)
      case .toggleBinder:
        step = "\(harness.toggleBinder() ? "arm" : "disarm") the binder closure"
        reference.toggleBinder()
      case .toggleNesting:
        step = "\(harness.toggleNesting() ? "arm" : "disarm") the nesting closure"
        reference.toggleNesting()
      }
    }.map(\.kind.name)
    steps.append(step)
    let expectedTrace = reference.takeTrace()
    let receivedTrace = harness.takeTrace()
    let difference = compare(
      reported: reported, expected: reference.takeDiagnostics(),
      trace: receivedTrace, expected: expectedTrace,
      values: harness.cells.map(\.a), expected: reference.values
    )
    let inactive = bindings.filter { !$0.token.isActive }.map(\.description)
    let problem =
      difference
      ?? (refusedToken?.isActive == true ? "the token of a binding to itself is active" : nil)
      ?? (inactive.isEmpty ? nil : "tokens of bindings not invalidated are inactive: \(inactive)")
    if let problem {
      let numbered = steps.enumerated().map { "  \($0.offset): \($0.element)" }.joined(separator: "\n")
      return "after step \(steps.count - 1): \(problem)\nsteps run:\n\(numbered)"
    }
  }
  return nil
}

/// The first difference between what the library did in one step and
/// what the reference says, or `nil`.
private func compare(
  reported: [String], expected expectedDiagnostics: [String],
  trace: [CompositionEvent], expected expectedTrace: [CompositionEvent],
  values: [Int], expected expectedValues: [Int]
) -> String? {
  if reported != expectedDiagnostics {
    return "diagnostics \(reported), expected \(expectedDiagnostics)"
  }
  func counts(_ trace: [CompositionEvent]) -> [Int] {
    values.indices.map { cell in trace.count { $0.countedCell == cell } }
  }
  if counts(trace) != counts(expectedTrace) {
    return "changes told to the counting observers of cells 0–4: \(counts(trace)), expected \(counts(expectedTrace))"
  }
  if trace != expectedTrace {
    let first = zip(trace, expectedTrace).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(trace.count, expectedTrace.count)
    let window = max(0, first - 3)
    return "what the registrations saw differs at event \(first): received \(Array(trace.dropFirst(window).prefix(8))), "
      + "expected \(Array(expectedTrace.dropFirst(window).prefix(8))) (from event \(window))"
  }
  if values != expectedValues {
    return "cells' a \(values), expected \(expectedValues)"
  }
  return nil
}

extension CompositionEvent {
  fileprivate var countedCell: Int? {
    if case .counted(let cell, _) = self { return cell }
    return nil
  }
}

/// How many sequences a run checks: `KVO_MODEL_RUNS` for a long local run.
private let sequenceCount = Int(ProcessInfoLite.environment("KVO_MODEL_RUNS") ?? "") ?? 400

@Suite("Model-based: bindings and tracked closures composed, against a reference")
struct CompositionModelTests {
  @Test("cells, counting observers, closure runs and diagnostics match the reference after every operation")
  func matchesReference() async {
    await propertyCheck(count: sequenceCount, input: Gen.int(in: CompositionOperation.numbers).array(of: 1...30)) { numbers in
      let operations = numbers.map(CompositionOperation.init)
      let difference = compositionDifference(operations)
      #expect(
        difference == nil,
        "\(difference ?? "")\noperations:\n\(operations.map(\.description).joined(separator: "\n"))"
      )
    }
  }
}
