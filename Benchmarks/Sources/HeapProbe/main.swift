import HeapStatistics
import KeyValueObserving
import KeyValueObservingCombine
import Models
import Observation
import OpenCombine

/// Memory per registration as the heap counts it (allocator headers and
/// rounding included), for the rows of the Memory suite whose budgets are
/// on the heap. Prints one JSON array in the form of package-benchmark's
/// JMH export, which `compare.sh` merges with the suites' rows.
///
///     swift run -c release HeapProbe

let count = 100_000

/// The heap's growth per registration while `register` makes `count` of
/// them, keeping each in `kept` (whose room is reserved first, so that it
/// adds nothing); `prepare` makes, before the count starts, what the
/// registrations are made on. The middle of three runs, each with new
/// objects.
func heapPerRegistration<Prepared>(
  prepare: () -> Prepared,
  _ register: (Prepared, inout [Any]) -> Void
) -> Int {
  let runs = (0..<3).map { _ in
    let prepared = prepare()
    var kept: [Any] = []
    kept.reserveCapacity(count + 1)
    let before = heap_bytes_in_use()
    register(prepared, &kept)
    let after = heap_bytes_in_use()
    withExtendedLifetime((prepared, kept)) {}
    return (Int(after) - Int(before)) / count
  }
  return runs.sorted()[1]
}

/// `count` objects of a class.
func objects<Object>(_ make: () -> Object) -> [Object] {
  (0..<count).map { _ in make() }
}

/// An object, with its registrar's storage and its key's list made.
func observed() -> (ObservableModel, KeyValueObservation) {
  let model = ObservableModel()
  return (model, model.observe(\.value) { _, _ in })
}

/// The heap's growth per object while a graph of `objects` objects (a
/// document and its items) is observed, the token kept: the graph's own
/// heap. With `storagesMade`, each object's registrar storage is made
/// first (observed once and ended), as an app's objects have once anything
/// observed them; without, the graph makes them, and they count. The
/// middle of three runs, each with new objects.
func heapPerGraphObject(objects: Int, storagesMade: Bool) -> Int {
  let runs = (0..<3).map { _ in
    let document = GraphDocument(items: objects - 1)
    if storagesMade {
      document.observe(\.title) { _, _ in }.invalidate()
      for item in document.items { item.observe(\.text) { _, _ in }.invalidate() }
    }
    let before = heap_bytes_in_use()
    let token = document.observeGraph { _ in }
    let after = heap_bytes_in_use()
    withExtendedLifetime((document, token)) {}
    return (Int(after) - Int(before)) / objects
  }
  return runs.sorted()[1]
}

let rows: [(String, Int)] = [
  (
    "memory: ours, live registration (token included)",
    heapPerRegistration(prepare: observed) { prepared, kept in
      for _ in 0..<count { kept.append(prepared.0.observe(\.value, options: [.old, .new]) { _, _ in }) }
    }
  ),
  (
    "memory: ours, first observation of an object",
    heapPerRegistration(prepare: { objects(ObservableModel.init) }) { models, kept in
      for model in models { kept.append(model.observe(\.value, options: [.old, .new]) { _, _ in }) }
    }
  ),
  (
    "memory: ours, registration on another key of an observed object",
    heapPerRegistration(prepare: { objects(TwoKeys.init).map { ($0, $0.observe(\.first) { _, _ in }) } }) {
      models, kept in
      for (model, _) in models { kept.append(model.observe(\.second, options: [.old, .new]) { _, _ in }) }
    }
  ),
  (
    "memory: ours, tracked closure over two keys of a fresh object",
    heapPerRegistration(prepare: { objects(TwoKeys.init) }) { models, kept in
      for model in models { kept.append(withKeyValueObservation { _ = model.first + model.second }) }
    }
  ),
  (
    "memory: ours, tracked closure over two keys of a fresh object, key-value only",
    heapPerRegistration(prepare: { objects(TwoKeys.init) }) { models, kept in
      for model in models {
        kept.append(withKeyValueObservation(tracking: .skippingSwiftObservation) { _ = model.first + model.second })
      }
    }
  ),
  (
    "memory: ours, controller observation",
    heapPerRegistration(prepare: { (objects(observed), KVOController(observer: Owner())) }) { prepared, _ in
      let (models, controller) = prepared
      for (model, _) in models { controller.observe(model, \.value, options: [.old, .new]) { _, _, _ in } }
    }
  ),
  (
    "memory: ours, classic observer",
    heapPerRegistration(prepare: { (observed(), IgnoringObserver()) }) { prepared, _ in
      let ((model, _), observer) = prepared
      for _ in 0..<count { try? model.addObserver(observer, forKeyPath: "value", options: [.old, .new]) }
    }
  ),
  (
    "memory: ours, changes(for:) stream",
    heapPerRegistration(prepare: observed) { prepared, kept in
      for _ in 0..<count { kept.append(prepared.0.changes(for: \.value)) }
    }
  ),
  (
    "memory: ours, publisher(for:) sink",
    heapPerRegistration(prepare: observed) { prepared, kept in
      for _ in 0..<count { kept.append(prepared.0.publisher(for: \.value).sink { _ in }) }
    }
  ),
  ("memory: ours, model graph of 1000 objects, per object", heapPerGraphObject(objects: 1_000, storagesMade: true)),
  ("memory: ours, model graph of 100000 objects, per object", heapPerGraphObject(objects: count, storagesMade: true)),
  (
    "memory: ours, model graph of 100000 objects, storages made by it, per object",
    heapPerGraphObject(objects: count, storagesMade: false)
  ),
  (
    "memory: anchor OpenCombine sink",
    heapPerRegistration(prepare: { CurrentValueSubject<Int, Never>(0) }) { subject, kept in
      for _ in 0..<count { kept.append(subject.sink { _ in }) }
    }
  ),
  (
    "memory: anchor OpenCombine @Published sink",
    heapPerRegistration(prepare: PublishedModel.init) { model, kept in
      for _ in 0..<count { kept.append(model.$value.sink { _ in }) }
    }
  ),
  (
    "memory: anchor Observation tracking",
    heapPerRegistration(prepare: ObservationModel.init) { model, _ in
      for _ in 0..<count { withObservationTracking { _ = model.value } onChange: {} }
    }
  ),
]

// The JMH export's shape, as compare.py reads it.
let elements = rows.map { name, bytes in
  """
  {"benchmark": "HeapProbe.HeapProbe.\(name.replacing(" ", with: "_"))", \
  "secondaryMetrics": {"heap bytes per registration": {"scorePercentiles": {"50.0": \(bytes)}}}}
  """
}
print("[" + elements.joined(separator: ", ") + "]")
