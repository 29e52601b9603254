import Dispatch
import KeyValueObserving
import Testing

/// An item a selection picks, with a name a field edits.
@KeyValueObservable
final class Item {
  var name: String
  /// A value that is not `Equatable`: the binding cannot tell an equal one.
  var tag = Tag(number: 0)

  init(name: String) {
    self.name = name
  }
}

/// Tokens a handler makes, kept for the test.
final class TokenList: @unchecked Sendable {
  // @unchecked Sendable: written by one thread at a time in these tests.
  private var tokens: [KeyValueObservation] = []
  private var claimed = false
  /// `true` the first time only.
  func claim() -> Bool {
    defer { claimed = true }
    return !claimed
  }
  func set(_ new: [KeyValueObservation]) { tokens = new }
}

/// A value with no `Equatable` conformance.
struct Tag {
  var number: Int
}

@Suite("bind and withKeyValueObservation together: runs, cycles, corrections, threads")
struct BindingCompositionTests {
  // MARK: A run observes what its closure reads itself

  @Test("a binding made inside a run: the run does not run again for what the binding reads")
  func bindingInsideRun() {
    let flag = Cell()
    let source = Cell()
    let view = Cell()
    var runs = 0
    var binding: KeyValueObservation?
    let token = withKeyValueObservation {
      runs += 1
      _ = flag.a
      binding = source.bind(\.a, to: \.a, on: view)
    }
    source.a = 7
    #expect(runs == 1)
    #expect(view.a == 7)
    flag.a = 1
    #expect(runs == 2)
    source.a = 8
    #expect(runs == 2 && view.a == 8)
    withExtendedLifetime((token, binding)) {}
  }

  @Test("an observe(.initial) made inside a run: its first read and its handler's reads are its own")
  func initialObservationInsideRun() {
    let flag = Cell()
    let observed = Cell()
    let readByHandler = Cell()
    var runs = 0
    var inner: KeyValueObservation?
    var handled = 0
    let token = withKeyValueObservation {
      runs += 1
      _ = flag.a
      inner = observed.observe(\.total, options: [.initial, .new]) { _, _ in
        handled += 1
        _ = readByHandler.b
      }
    }
    #expect(handled == 1)
    observed.a = 1
    readByHandler.b = 1
    #expect(runs == 1)
    #expect(handled == 2)
    withExtendedLifetime((token, inner)) {}
  }

  @Test("a nested tracked closure's reads are its own: each runs for what it read")
  func nestedTrackedClosure() {
    let outerCell = Cell()
    let innerCell = Cell()
    var outerRuns = 0
    var innerRuns = 0
    var inner: KeyValueObservation?
    let token = withKeyValueObservation {
      outerRuns += 1
      _ = outerCell.a
      inner = withKeyValueObservation {
        innerRuns += 1
        _ = innerCell.a
      }
    }
    innerCell.a = 1
    #expect((outerRuns, innerRuns) == (1, 2))
    outerCell.a = 1  // a new inner closure replaces the old one
    #expect((outerRuns, innerRuns) == (2, 3))
    innerCell.a = 2
    #expect((outerRuns, innerRuns) == (2, 4))
    withExtendedLifetime((token, inner)) {}
  }

  @Test("a binding told of a change a run makes reads for itself, not for the run")
  func bindingDuringRun() {
    let source = Cell()
    let target = Cell()
    let binding = source.bind(\.b, to: \.a, on: target)
    let trigger = Cell()
    var runs = 0
    let token = withKeyValueObservation {
      runs += 1
      source.b = trigger.a  // the binding reads source.b as it carries it
    }
    #expect(target.a == 0)
    source.b = 5  // not read by the closure itself: no run
    #expect(runs == 1 && target.a == 5)
    trigger.a = 2
    #expect(runs == 2 && target.a == 2)
    withExtendedLifetime((token, binding)) {}
  }

  @Test("an observe handler a run's write calls reads for itself, not for the run")
  func observeHandlerDuringRun() {
    let written = Cell()
    let readByHandler = Cell()
    let counter = written.observe(\.a) { _, _ in _ = readByHandler.a }
    var runs = 0
    let token = withKeyValueObservation {
      runs += 1
      written.a = 1
    }
    readByHandler.a = 5
    #expect(runs == 1)
    withExtendedLifetime((token, counter)) {}
  }

  @Test("the selection binds the field to the selected item: typing writes the field once, and the item")
  func selectionBindsField() {
    let items = [Item(name: "Ada"), Item(name: "Grace")]
    let selection = Cell()
    let field = StandInField()
    var fieldWrites = 0
    let counter = field.observe(\.text) { _, _ in fieldWrites += 1 }
    var binding: KeyValueObservation?
    let token = withKeyValueObservation {
      // The previous binding ends first: alive, it would carry the new
      // item's name, written to the field, to the item it bound.
      binding?.invalidate()
      binding = items[selection.a].bind(\.name, twoWayTo: \.text, on: field, initialValueFrom: .source)
    }
    #expect(field.text == "Ada")
    fieldWrites = 0
    field.text = "typed"
    #expect(fieldWrites == 1)
    #expect(items[0].name == "typed")
    selection.a = 1
    #expect(field.text == "Grace")
    field.text = "Hedy"
    #expect(items.map(\.name) == ["typed", "Hedy"])
    withExtendedLifetime((token, binding, counter)) {}
  }

  @Test("a to-many change, a binding of the collection and a tracked closure over it, together")
  func toManyThroughBindingAndClosure() {
    let source = Cell()
    let target = Cell()
    var counts: [Int] = []
    let binding = source.bind(\.items, to: \.items, on: target)
    let closure = withKeyValueObservation { counts.append(target.items.count) }
    // A `.prior` observer of the source that sets the list folds into the
    // proxy's call: the binding carries the value after it, once.
    var folded = false
    let prior = source.observe(\.items, options: .prior) { source, change in
      guard change.isPrior, !folded else { return }
      folded = true
      source.items = [9, 8]
    }
    source.mutableArrayValue(for: \.items).append(1)
    #expect(source.items == [9, 8, 1] && target.items == [9, 8, 1])
    #expect(counts == [0, 3])
    source.mutableArrayValue(for: \.items).remove(at: 0)
    #expect(target.items == [8, 1] && counts == [0, 3, 2])
    withExtendedLifetime((binding, closure, prior)) {}
  }

  // MARK: Cycles settle in one pass

  /// Counts the changes of `keyPath` on each of `objects`, by observers
  /// registered before anything else observes it.
  private func counting<Object: KeyValueObservable, Value>(
    _ objects: [Object], _ keyPath: KeyPath<Object, Value>
  ) -> ([ChangeCount], [KeyValueObservation]) {
    let counts = objects.map { _ in ChangeCount() }
    let tokens = zip(objects, counts).map { object, count in object.observe(keyPath) { _, _ in count.increment() } }
    return (counts, tokens)
  }

  @Test("the same two-way binding made twice: one write is one change of each side")
  func duplicateTwoWay() {
    let (a, b) = (Cell(), Cell())
    let (counts, counters) = counting([a, b], \.a)
    let diagnostics = capturingDiagnostics {
      let bindings = (
        a.bind(\.a, twoWayTo: \.a, on: b, initialValueFrom: .source),
        a.bind(\.a, twoWayTo: \.a, on: b, initialValueFrom: .source)
      )
      a.a = 1
      #expect(counts.map(\.count) == [1, 1])
      b.a = 2
      #expect(counts.map(\.count) == [2, 2])
      #expect((a.a, b.a) == (2, 2))
      withExtendedLifetime(bindings) {}
    }
    #expect(diagnostics.isEmpty)
    withExtendedLifetime(counters) {}
  }

  @Test("a triangle of two-way bindings and a one-way ring: one write is one change of each")
  func triangleAndRing() {
    let cells = [Cell(), Cell(), Cell()]
    let (counts, counters) = counting(cells, \.a)
    let diagnostics = capturingDiagnostics {
      let triangle = (0..<3).map { cells[$0].bind(\.a, twoWayTo: \.a, on: cells[($0 + 1) % 3], initialValueFrom: .source) }
      cells[0].a = 1
      #expect(counts.map(\.count) == [1, 1, 1])
      cells[2].a = 2
      #expect(counts.map(\.count) == [2, 2, 2])
      triangle.forEach { $0.invalidate() }
      let ring = (0..<3).map { cells[$0].bind(\.a, to: \.a, on: cells[($0 + 1) % 3]) }
      cells[1].a = 3
      #expect(counts.map(\.count) == [3, 3, 3])
      #expect(cells.map(\.a) == [3, 3, 3])
      withExtendedLifetime(ring) {}
    }
    #expect(diagnostics.isEmpty)
    withExtendedLifetime(counters) {}
  }

  @Test("values that are not Equatable: a ring stops where its change started")
  func ringOfNonEquatableValues() {
    let items = [Item(name: "a"), Item(name: "b"), Item(name: "c")]
    let (counts, counters) = counting(items, \.tag)
    let diagnostics = capturingDiagnostics {
      let ring = (0..<3).map { items[$0].bind(\.tag, to: \.tag, on: items[($0 + 1) % 3]) }
      let before = counts.map(\.count)
      items[0].tag = Tag(number: 5)
      #expect(zip(counts, before).map { $0.count - $1 } == [1, 1, 1])
      #expect(items.map(\.tag.number) == [5, 5, 5])
      withExtendedLifetime(ring) {}
    }
    #expect(diagnostics.isEmpty)
    withExtendedLifetime(counters) {}
  }

  @Test("a ring of values that are not Equatable, made during a write, settles: equal sides, no report")
  func ringMadeDuringAWrite() {
    let items = [Item(name: "a"), Item(name: "b"), Item(name: "c")]
    let ring = TokenList()
    // Made by an observer of the first write, while it is under way: the
    // ring's bindings may be the first that look at the write chain.
    let maker = items[0].observe(\.tag) { _, _ in
      // Once: the ring's own first writes change items[0] again.
      guard ring.claim() else { return }
      ring.set((0..<3).map { items[$0].bind(\.tag, to: \.tag, on: items[($0 + 1) % 3]) })
    }
    let (counts, counters) = counting(items, \.tag)
    let diagnostics = capturingDiagnostics {
      items[0].tag = Tag(number: 5)
      #expect(items.map(\.tag.number) == [5, 5, 5])
      #expect(counts.allSatisfy { $0.count <= 3 }, "at most one round more than a ring made before the write")
      let before = counts.map(\.count)
      items[1].tag = Tag(number: 6)
      #expect(zip(counts, before).map { $0.count - $1 } == [1, 1, 1])
      #expect(items.map(\.tag.number) == [6, 6, 6])
    }
    #expect(diagnostics.isEmpty)
    withExtendedLifetime((maker, counters)) {}
  }

  @Test("a property bound to itself is refused, reported, and its token inactive")
  func boundToItself() {
    let cell = Cell()
    var tokens: [KeyValueObservation] = []
    let diagnostics = capturingDiagnostics {
      tokens.append(cell.bind(\.a, twoWayTo: \.a, on: cell, initialValueFrom: .source))
      tokens.append(cell.bind(\.a, to: \.a, on: cell))
    }
    #expect(diagnostics.map(\.kind) == [.bindingToItself, .bindingToItself])
    #expect(diagnostics.first?.message.contains("Cell.a") == true)
    #expect(tokens.allSatisfy { !$0.isActive })
    #expect(cell.observationInfo.isEmpty)
    let other = cell.bind(\.a, to: \.b, on: cell)  // another key of the same object binds
    cell.a = 4
    #expect(cell.b == 4)
    withExtendedLifetime(other) {}
  }

  @Test("a change made while another binding carries from the same property is carried: both pairs end equal")
  func changeDuringAnotherBindingsWrite() {
    let cells = [Cell(), Cell(), Cell(), Cell()]
    let first = cells[1].bind(\.a, twoWayTo: \.a, on: cells[3], initialValueFrom: .source)
    let second = cells[1].bind(\.a, twoWayTo: \.a, on: cells[2], initialValueFrom: .source)
    var relayed = false
    // Told of the second binding's write: changes the first pair's other side.
    let relay = cells[2].observe(\.a) { _, _ in
      guard !relayed else { return }
      relayed = true
      cells[3].a = 2
    }
    cells[1].a = 6
    #expect(cells[1...3].map(\.a) == [2, 2, 2])
    withExtendedLifetime((first, second, relay)) {}
  }

  // MARK: A side that corrects the written value

  @Test("an observer that corrects the written value: the correction is carried back, both sides end equal")
  func observerCorrection() {
    for validatorFirst in [true, false] {
      let source = Cell()
      let target = Cell()
      var validator: KeyValueObservation?
      func validate() {
        validator = source.observe(\.a) { source, _ in
          if source.a > 10 { source.a = 10 }
        }
      }
      if validatorFirst { validate() }
      let binding = source.bind(\.a, twoWayTo: \.a, on: target, initialValueFrom: .source)
      if !validatorFirst { validate() }
      target.a = 50
      #expect((source.a, target.a) == (10, 10), "validator first: \(validatorFirst)")
      source.a = 70
      #expect((source.a, target.a) == (10, 10), "validator first: \(validatorFirst)")
      withExtendedLifetime((binding, validator)) {}
    }
  }

  @Test("a didSet that clamps the written value: read back, carried back, both sides end equal")
  func didSetCorrection() {
    let thermostat = Thermostat()
    let field = StandInField()
    let binding = thermostat.bind(\.level, twoWayTo: \.number, on: field, initialValueFrom: .source)
    field.number = -5
    #expect((thermostat.level, field.number) == (0, 0))
    field.number = 3
    #expect((thermostat.level, field.number) == (3, 3))
    withExtendedLifetime(binding) {}
  }

  @Test("a correction of a value that is not Equatable: told as a second change, carried back")
  func nonEquatableCorrection() {
    let source = Item(name: "source")
    let target = Item(name: "target")
    let validator = source.observe(\.tag) { source, _ in
      if source.tag.number > 10 { source.tag = Tag(number: 10) }
    }
    let binding = source.bind(\.tag, twoWayTo: \.tag, on: target, initialValueFrom: .source)
    target.tag = Tag(number: 50)
    #expect((source.tag.number, target.tag.number) == (10, 10))
    withExtendedLifetime((binding, validator)) {}
  }

  @Test("a binding invalidated during its own write carries nothing more, a correction included")
  func invalidatedDuringWrite() {
    let source = Cell()
    let target = Cell()
    var binding: KeyValueObservation?
    // Told before the binding: ends it, then corrects the value written.
    let corrector = target.observe(\.a) { target, _ in
      binding?.invalidate()
      if target.a > 10 { target.a = 10 }
    }
    binding = source.bind(\.a, twoWayTo: \.a, on: target, initialValueFrom: .source)
    source.a = 50
    #expect((source.a, target.a) == (50, 10))
    #expect(binding?.isActive == false)
    withExtendedLifetime(corrector) {}
  }

  @Test("a binding made while another binding writes, in place of an ended one, makes its sides equal")
  func rebindingDuringWrite() {
    let cells = [Cell(), Cell(), Cell()]
    let pair = cells[0].bind(\.a, twoWayTo: \.a, on: cells[1], initialValueFrom: .target)
    let clamp = cells[1].observe(\.a) { cell, _ in if cell.a > 3 { cell.a = 3 } }
    var current: KeyValueObservation?
    // Rebinds cell 1 to cell 2 after each change of cell 0, the direction
    // chosen by its value: its first write is made while `pair` writes.
    let rebinder = withKeyValueObservation {
      let read = cells[0].a
      current?.invalidate()
      current = cells[1].bind(\.a, twoWayTo: \.a, on: cells[2], initialValueFrom: read % 2 == 0 ? .source : .target)
    }
    cells[2].a = 4
    #expect(cells.map(\.a) == [3, 3, 3])
    withExtendedLifetime((pair, clamp, rebinder, current)) {}
  }

  // MARK: Threads

  @Test("a side changed on another thread while the binding writes is reported, and carried after")
  func racingWriteReported() {
    let gauge = Gauge()
    let field = StandInField()
    let inside = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    var paused = false
    // Told before the binding, on the thread the binding writes on.
    let pause = field.observe(\.number) { _, _ in
      guard !paused else { return }
      paused = true
      inside.signal()
      done.wait()
    }
    let binding = gauge.bind(\.level, twoWayTo: \.number, on: field, initialValueFrom: .source)
    let raced = Recorder<KeyValueObservingDiagnostic>()
    onNewThread {
      inside.wait()
      let reported = capturingDiagnostics { gauge.level = 99 }
      for diagnostic in reported { raced.append(diagnostic) }
      done.signal()
    }
    let here = capturingDiagnostics { gauge.level = 5 }
    #expect(here.isEmpty)
    #expect(raced.elements.map(\.kind) == [.bindingWrittenConcurrently])
    #expect(raced.elements.first?.message.contains("Gauge.level") == true)
    #expect(raced.elements.first?.message.contains("StandInField.number") == true)
    #expect((gauge.level, field.number) == (99, 99))
    withExtendedLifetime((binding, pause)) {}
  }

  @Test("many racing rounds are a race, reported once, never a binding that did not settle")
  func racingRoundsAreNotUnsettled() {
    let gauge = Gauge()
    let field = StandInField()
    let inside = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let rounds = 150
    var pauses = 0
    let pause = field.observe(\.number) { _, _ in
      guard pauses < rounds else { return }
      pauses += 1
      inside.signal()
      done.wait()
    }
    let binding = gauge.bind(\.level, twoWayTo: \.number, on: field, initialValueFrom: .source)
    let raced = Recorder<KeyValueObservingDiagnostic>()
    onNewThread {
      let reported = capturingDiagnostics {
        for value in 1...rounds {
          inside.wait()
          gauge.level = value
          done.signal()
        }
      }
      for diagnostic in reported { raced.append(diagnostic) }
      finished.signal()
    }
    let here = capturingDiagnostics { gauge.level = 1_000 }
    finished.wait()
    #expect(here.isEmpty)
    #expect(raced.elements.map(\.kind) == [.bindingWrittenConcurrently])
    #expect((gauge.level, field.number) == (rounds, rounds))
    withExtendedLifetime((binding, pause)) {}
  }
}

/// A reading that can be NaN, which is not equal to itself.
@KeyValueObservable
final class NaNDial {
  var reading = 0.0
}

@Suite("bind and values not equal to themselves")
struct UnequalToItselfBindingTests {
  @Test("a ring of Double bindings carrying a NaN settles in one pass, with no report")
  func nanRing() {
    let dials = [NaNDial(), NaNDial(), NaNDial()]
    let changes = dials.map { _ in ChangeCount() }
    let counters = zip(dials, changes).map { dial, count in dial.observe(\.reading) { _, _ in count.increment() } }
    let diagnostics = capturingDiagnostics {
      let ring = (0..<3).map { dials[$0].bind(\.reading, to: \.reading, on: dials[($0 + 1) % 3]) }
      dials[0].reading = .nan
      #expect(dials.allSatisfy { $0.reading.isNaN })
      #expect(changes.map(\.count) == [1, 1, 1])
      dials[1].reading = 2
      #expect(dials.map(\.reading) == [2, 2, 2])
      withExtendedLifetime(ring) {}
    }
    #expect(diagnostics.isEmpty)
    withExtendedLifetime(counters) {}
  }

  @Test("a NaN the other side holds already is not written again; a number replaces it")
  func nanNotRewritten() {
    let (source, target) = (NaNDial(), NaNDial())
    let token = source.bind(\.reading, twoWayTo: \.reading, on: target, initialValueFrom: .source)
    let targetChanges = ChangeCount()
    let counter = target.observe(\.reading) { _, _ in targetChanges.increment() }
    source.reading = .nan
    source.reading = .nan
    #expect(target.reading.isNaN)
    #expect(targetChanges.count == 1)
    source.reading = 1
    #expect(target.reading == 1)
    withExtendedLifetime((token, counter)) {}
  }
}
