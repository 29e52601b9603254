import KeyValueObserving
import PropertyBased
import Testing

/// A classic observer that records into the harness under its registration.
private final class NoteTaker: KeyValueObserver {
  let record: ([KeyValueChangeKey: Any]) -> Void

  init(_ record: @escaping ([KeyValueChangeKey: Any]) -> Void) {
    self.record = record
  }

  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {
    record(change)
  }
}

/// The library, driven by the same operations as the model.
private final class Harness {
  var cells = [Cell(), Cell()]
  var tokens: [Int: KeyValueObservation] = [:]
  var classic: [Int: (cell: Int, key: ModelKey, observer: NoteTaker?)] = [:]
  let owner = Marker()
  // Not retaining: a cell the sequence replaces is really freed.
  lazy var controller = KVOController(observer: owner, retainsObserved: false)
  var received: [Int: [Note]] = [:]

  func record(_ id: Int) -> (Note) -> Void {
    received[id] = []
    return { [unowned self] note in received[id]!.append(note) }
  }

  /// Observes `key` of cell `cell` with a closure that records changes.
  func observe(_ cell: Int, _ key: ModelKey, _ options: KeyValueObservingOptions, id: Int) -> KeyValueObservation {
    let record = record(id)
    let object = cells[cell]
    switch key {
    case .a: return object.observe(\.a, options: options) { _, change in record(Note(change)) }
    case .b: return object.observe(\.b, options: options) { _, change in record(Note(change)) }
    case .items: return object.observe(\.items, options: options) { _, change in record(Note(change)) }
    case .total: return object.observe(\.total, options: options) { _, change in record(Note(change)) }
    case .linkA: return object.observe(\.link?.a, options: options) { _, change in record(Note(change)) }
    case .ids: return object.observe(\.ids, options: options) { _, change in record(Note(change)) }
    }
  }

  /// Observes through the controller.
  func controllerObserve(_ cell: Int, _ key: ModelKey, _ options: KeyValueObservingOptions, id: Int) {
    let record = record(id)
    let object = cells[cell]
    switch key {
    case .a: controller.observe(object, \.a, options: options) { _, _, change in record(Note(change)) }
    case .b: controller.observe(object, \.b, options: options) { _, _, change in record(Note(change)) }
    case .items: controller.observe(object, \.items, options: options) { _, _, change in record(Note(change)) }
    case .total: controller.observe(object, \.total, options: options) { _, _, change in record(Note(change)) }
    case .linkA: controller.observe(object, \.link?.a, options: options) { _, _, change in record(Note(change)) }
    case .ids: controller.observe(object, \.ids, options: options) { _, _, change in record(Note(change)) }
    }
  }

  func controllerUnobserve(_ cell: Int, _ key: ModelKey) {
    let object = cells[cell]
    switch key {
    case .a: controller.unobserve(object, \.a)
    case .b: controller.unobserve(object, \.b)
    case .items: controller.unobserve(object, \.items)
    case .total: controller.unobserve(object, \.total)
    case .linkA: controller.unobserve(object, \.link?.a)
    case .ids: controller.unobserve(object, \.ids)
    }
  }
}

/// One operation, decoded from a generated number, so that the generator's
/// shrinking of number arrays shrinks operation sequences.
enum ModelOperation: CustomStringConvertible {
  case observe(cell: Int, key: ModelKey, options: KeyValueObservingOptions)
  case invalidate(Int)
  case setA(cell: Int, value: Int)
  case setB(cell: Int, value: Int)
  case setValueForKey(cell: Int, value: Int)
  case append(cell: Int, value: Int)
  case remove(cell: Int, position: Int)
  case replace(cell: Int, position: Int, value: Int)
  case manualA(cell: Int, value: Int)
  case link(cell: Int, linked: Bool)
  case addObserver(cell: Int, key: ModelKey, options: KeyValueObservingOptions)
  case removeObserver(Int)
  case controllerObserve(cell: Int, key: ModelKey, options: KeyValueObservingOptions)
  case controllerUnobserve(cell: Int, key: ModelKey)
  case freeObserver(Int)
  case replaceCell(Int)
  case insertIDs(cell: Int, values: Set<Int>)
  case removeIDs(cell: Int, values: Set<Int>)
  case replaceIDs(cell: Int, values: Set<Int>)
  case manualIDs(cell: Int, mutation: KeyValueSetMutation, values: Set<Int>)

  init(_ number: Int) {
    var rest = number / 20
    func take(_ count: Int) -> Int {
      defer { rest /= count }
      return rest % count
    }
    let cell = take(2)
    switch number % 20 {
    case 0: self = .observe(cell: cell, key: ModelKey(rawValue: take(6))!, options: .init(rawValue: take(16)))
    case 1: self = .invalidate(take(64))
    case 2: self = .setA(cell: cell, value: take(4))
    case 3: self = .setB(cell: cell, value: take(4))
    case 4: self = .setValueForKey(cell: cell, value: take(4))
    case 5: self = .append(cell: cell, value: take(10))
    case 6: self = .remove(cell: cell, position: take(8))
    case 7: self = .replace(cell: cell, position: take(8), value: take(10))
    case 8: self = .manualA(cell: cell, value: take(4))
    case 9: self = .link(cell: cell, linked: take(2) == 1)
    case 10: self = .addObserver(cell: cell, key: ModelKey(rawValue: take(6))!, options: .init(rawValue: take(16)))
    case 11: self = .removeObserver(take(64))
    case 12: self = .controllerObserve(cell: cell, key: ModelKey(rawValue: take(6))!, options: .init(rawValue: take(16)))
    case 13: self = .controllerUnobserve(cell: cell, key: ModelKey(rawValue: take(6))!)
    case 14: self = .freeObserver(take(64))
    case 15: self = .replaceCell(cell)
    case 16: self = .insertIDs(cell: cell, values: [take(4), take(4)])
    case 17: self = .removeIDs(cell: cell, values: [take(4), take(4)])
    case 18: self = .replaceIDs(cell: cell, values: Set((0..<take(3)).map { _ in take(4) }))
    default:
      let mutations: [KeyValueSetMutation] = [.union, .minus, .intersect, .set]
      self = .manualIDs(cell: cell, mutation: mutations[take(4)], values: [take(4), take(4)])
    }
  }

  var description: String {
    switch self {
    case .observe(let cell, let key, let options): "observe(cell\(cell).\(key), \(options))"
    case .invalidate(let pick): "invalidate(#\(pick))"
    case .setA(let cell, let value): "cell\(cell).a = \(value)"
    case .setB(let cell, let value): "cell\(cell).b = \(value)"
    case .setValueForKey(let cell, let value): "cell\(cell).setValue(\(value), forKey: \"a\")"
    case .append(let cell, let value): "cell\(cell).items proxy append(\(value))"
    case .remove(let cell, let position): "cell\(cell).items proxy remove(at: \(position) mod count)"
    case .replace(let cell, let position, let value): "cell\(cell).items proxy [\(position) mod count] = \(value)"
    case .manualA(let cell, let value): "cell\(cell) will(a); a = \(value); a += 1; did(a)"
    case .link(let cell, let linked): "cell\(cell).link = \(linked ? "cell\(1 - cell)" : "nil")"
    case .addObserver(let cell, let key, let options): "addObserver(cell\(cell), \"\(key)\", \(options))"
    case .removeObserver(let pick): "removeObserver(#\(pick))"
    case .controllerObserve(let cell, let key, let options): "controller.observe(cell\(cell).\(key), \(options))"
    case .controllerUnobserve(let cell, let key): "controller.unobserve(cell\(cell).\(key))"
    case .freeObserver(let pick): "free classic observer #\(pick) without removing it"
    case .replaceCell(let cell): "cell\(1 - cell).link = nil; free cell\(cell) (observed), make a new one"
    case .insertIDs(let cell, let values): "cell\(cell).ids proxy formUnion(\(values.sorted()))"
    case .removeIDs(let cell, let values): "cell\(cell).ids proxy subtract(\(values.sorted()))"
    case .replaceIDs(let cell, let values): "cell\(cell).ids proxy replaceAll(with: \(values.sorted()))"
    case .manualIDs(let cell, let mutation, let values):
      "cell\(cell) will(.\(mutation), \(values.sorted())); mutate ids; did(.\(mutation))"
    }
  }
}

/// Runs `operations` against the library and the model; returns the first
/// registration whose notifications differ, described, or `nil`.
func firstDifference(running operations: [ModelOperation]) -> String? {
  let harness = Harness()
  var model = ReferenceModel()
  var nextID = 0
  for operation in operations {
    switch operation {
    case .observe(let cell, let key, let options):
      harness.tokens[nextID] = harness.observe(cell, key, options, id: nextID)
      model.register(id: nextID, cell: cell, key: key, options: options, kind: .token)
      nextID += 1
    case .invalidate(let pick):
      let live = model.registrations.filter { $0.isLive && $0.kind == .token }
      guard !live.isEmpty else { continue }
      let id = live[pick % live.count].id
      harness.tokens[id]?.invalidate()
      model.end(id: id)
    case .setA(let cell, let value):
      harness.cells[cell].a = value
      model.setA(value, on: cell)
    case .setB(let cell, let value):
      harness.cells[cell].b = value
      model.setB(value, on: cell)
    case .setValueForKey(let cell, let value):
      try? harness.cells[cell].setValue(value, forKey: "a")
      model.setA(value, on: cell)
    case .append(let cell, let value):
      let count = model.cells[cell].items.count
      harness.cells[cell].mutableArrayValue(for: \.items).append(value)
      model.changeItems(of: cell, kind: .insertion, at: count..<count + 1, inserting: [value])
    case .remove(let cell, let position):
      let count = model.cells[cell].items.count
      guard count > 0 else { continue }
      harness.cells[cell].mutableArrayValue(for: \.items).remove(at: position % count)
      model.changeItems(of: cell, kind: .removal, at: position % count..<position % count + 1, inserting: [])
    case .replace(let cell, let position, let value):
      let count = model.cells[cell].items.count
      guard count > 0 else { continue }
      harness.cells[cell].mutableArrayValue(for: \.items)[position % count] = value
      model.changeItems(of: cell, kind: .replacement, at: position % count..<position % count + 1, inserting: [value])
    case .manualA(let cell, let value):
      let object = harness.cells[cell]
      object.willChangeValue(for: \.a)
      object.a = value
      object.a += 1
      object.didChangeValue(for: \.a)
      model.setA(value + 1, on: cell)
    case .link(let cell, let linked):
      harness.cells[cell].link = linked ? harness.cells[1 - cell] : nil
      model.setLink(linked ? 1 - cell : nil, on: cell)
    case .addObserver(let cell, let key, let options):
      let id = nextID
      nextID += 1
      let record = harness.record(id)
      let observer = NoteTaker { record(Note($0)) }
      harness.classic[id] = (cell, key, observer)
      // The model registers first: `.initial` arrives inside addObserver.
      model.register(id: id, cell: cell, key: key, options: options, kind: .classic)
      try? harness.cells[cell].addObserver(observer, forKeyPath: key.string, options: options)
    case .removeObserver(let pick):
      let live = model.registrations.filter { $0.isLive && $0.kind == .classic }
      guard !live.isEmpty else { continue }
      let id = live[pick % live.count].id
      let entry = harness.classic[id]!
      if let observer = entry.observer {
        harness.cells[entry.cell].removeObserver(observer, forKeyPath: entry.key.string)
      }
      model.end(id: id)
    case .controllerObserve(let cell, let key, let options):
      guard !model.controllerObserves(cell: cell, key: key) else {
        // Ignored by the controller: a second observation of the same key.
        harness.controllerObserve(cell, key, options, id: -1)
        continue
      }
      model.register(id: nextID, cell: cell, key: key, options: options, kind: .controller)
      harness.controllerObserve(cell, key, options, id: nextID)
      nextID += 1
    case .controllerUnobserve(let cell, let key):
      harness.controllerUnobserve(cell, key)
      for registration in model.registrations
      where registration.kind == .controller && registration.cell == cell && registration.key == key {
        model.end(id: registration.id)
      }
    case .freeObserver(let pick):
      // Freed while registered: never messaged again (reported, harmlessly).
      let live = model.registrations.filter { $0.isLive && $0.kind == .classic }
      guard !live.isEmpty else { continue }
      let id = live[pick % live.count].id
      harness.classic[id]!.observer = nil
      model.end(id: id)
    case .insertIDs(let cell, let values):
      harness.cells[cell].mutableSetValue(for: \.ids).formUnion(values)
      model.changeIDs(of: cell, .union, using: values)
    case .removeIDs(let cell, let values):
      harness.cells[cell].mutableSetValue(for: \.ids).subtract(values)
      model.changeIDs(of: cell, .minus, using: values)
    case .replaceIDs(let cell, let values):
      harness.cells[cell].mutableSetValue(for: \.ids).replaceAll(with: values)
      model.changeIDs(of: cell, .set, using: values)
    case .manualIDs(let cell, let mutation, let values):
      let object = harness.cells[cell]
      object.willChange(mutation, using: values, for: \.ids)
      switch mutation {
      case .union: object.ids.formUnion(values)
      case .minus: object.ids.subtract(values)
      case .intersect: object.ids.formIntersection(values)
      case .set: object.ids = values
      }
      object.didChange(mutation, using: values, for: \.ids)
      model.changeIDs(of: cell, mutation, using: values)
    case .replaceCell(let cell):
      // Unlink it first, so that freeing the object really frees it; its
      // registrations then end silently.
      harness.cells[1 - cell].link = nil
      model.setLink(nil, on: 1 - cell)
      harness.cells[cell] = Cell()
      model.replaceCell(cell)
    }
  }
  // Cells that link each other are a retain cycle of the test's own making:
  // break it, so that the sequence's objects are freed.
  defer {
    for cell in harness.cells { cell.link = nil }
  }
  if let ignored = harness.received[-1], !ignored.isEmpty {
    return "an ignored duplicate controller observation received \(ignored)"
  }
  for registration in model.registrations {
    let expected = model.expected[registration.id] ?? []
    let received = harness.received[registration.id] ?? []
    if expected != received {
      return "registration #\(registration.id) (\(registration.kind.rawValue) of cell\(registration.cell)."
        + "\(registration.key), \(registration.options)): expected \(expected), received \(received)"
    }
  }
  return nil
}

/// How many sequences a run checks: `KVO_MODEL_RUNS` for a long local run.
private let sequenceCount = Int(ProcessInfoLite.environment("KVO_MODEL_RUNS") ?? "") ?? 2_000

@Suite("Model-based: random operation sequences against a reference model")
struct ModelBasedTests {
  @Test("every notification (kind, old, new, indexes, prior) matches the model, per registration, in order")
  func matchesModel() async {
    await propertyCheck(count: sequenceCount, input: Gen.int(in: 0...999_999).array(of: 1...40)) { numbers in
      let operations = numbers.map(ModelOperation.init)
      let difference = firstDifference(running: operations)
      #expect(difference == nil, "\(difference ?? "")\noperations:\n\(operations.map(\.description).joined(separator: "\n"))")
    }
  }
}
