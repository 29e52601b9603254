import Benchmark
import BenchmarkModels
import KeyValueObserving
import KeyValueObservingCombine
import Observation

/// KeyValueObserving's rows. A later feature adds its row here.
let benchmarks: @Sendable () -> Void = {
  // Counts one row under callgrind when count-instructions.sh asks.
  InstructionCounting.install()

  Benchmark("ours: unobserved write", configuration: .perOperation) { benchmark in
    let model = Observed()
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      model.value = index
      blackHole(model)
    }
  }

  Benchmark("ours: unobserved write, class declaring Observable", configuration: .perOperation) { benchmark in
    let model = TrackedObserved()
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      model.value = index
      blackHole(model)
    }
  }

  Benchmark("ours: Observation register + write + onChange, class declaring Observable", configuration: .perOperationTimeOnly) {
    benchmark in
    let model = TrackedObserved()
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      withObservationTracking {
        blackHole(model.value)
      } onChange: {
        blackHole(1)
      }
      model.value = index
      blackHole(model)
    }
  }

  for observers in [1, 10] {
    Benchmark("ours: write, \(observers) .old|.new observer(s)", configuration: .perOperation) { benchmark in
      let model = Observed()
      let tokens = (0..<observers).map { _ in
        model.observe(\.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
      }
      benchmark.startMeasurement()
      for index in benchmark.scaledIterations {
        model.value = index
        blackHole(model)
      }
      benchmark.stopMeasurement()
      withExtendedLifetime(tokens) {}
    }
  }

  Benchmark("ours: write to a dependency of an observed computed property", configuration: .perOperation) { benchmark in
    let model = Derived()
    let token = model.observe(\.doubled, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      model.value = index
      blackHole(model)
    }
    benchmark.stopMeasurement()
    withExtendedLifetime(token) {}
  }

  Benchmark("ours: write to the leaf of an observed 3-link chain", configuration: .perOperation) { benchmark in
    let root = ChainRoot()
    let leaf = root.middle.inner
    let token = root.observe(\.middle.inner.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      leaf.value = index
      blackHole(leaf)
    }
    benchmark.stopMeasurement()
    // The root too: its deinit would end the observation.
    withExtendedLifetime((token, root)) {}
  }

  Benchmark("ours: classic observer write, .old|.new", configuration: .perOperation) { benchmark in
    let model = Observed()
    let observer = SinkObserver()
    try model.addObserver(observer, forKeyPath: "value", options: [.old, .new])
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      model.value = index
      blackHole(model)
    }
    benchmark.stopMeasurement()
    withExtendedLifetime(observer) {}
  }

  Benchmark("ours: setValue(forKey:), 1 .old|.new observer", configuration: .perOperation) { benchmark in
    let model = Observed()
    let token = model.observe(\.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      try model.setValue(index, forKey: "value")
    }
    benchmark.stopMeasurement()
    withExtendedLifetime(token) {}
  }

  // The array starts over every 64 appends (one assignment, counted in the
  // row); the proxy appends in place.
  Benchmark("ours: array-proxy append, 1 .old|.new observer", configuration: .perOperation) { benchmark in
    let model = Listing()
    let token = model.observe(\.items, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    let items = model.mutableArrayValue(for: \.items)
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      if index & 63 == 0 { model.items = [] }
      items.append(index)
    }
    benchmark.stopMeasurement()
    withExtendedLifetime(token) {}
  }

  // Writes first, then consumption, as for the floor's AsyncStream row.
  Benchmark("ours: changes(for:) per delivered change", configuration: .perOperation) { benchmark in
    let model = Observed()
    let changes = model.changes(for: \.value, options: [.old, .new])
    var iterator = changes.makeAsyncIterator()
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      model.value = index
    }
    for _ in benchmark.scaledIterations {
      blackHole(await iterator.next())
    }
  }

  for others in [0, 1_000] {
    Benchmark("ours: observe + invalidate, \(others) other observers", configuration: .perOperationTimeOnly) { benchmark in
      let model = Observed()
      let tokens = (0..<others).map { _ in model.observe(\.value) { _, _ in } }
      // The first observation creates the registrar's storage; measure the
      // steady state.
      model.observe(\.value) { _, _ in }.invalidate()
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        let token = model.observe(\.value) { _, _ in }
        token.invalidate()
        blackHole(token)
      }
      benchmark.stopMeasurement()
      withExtendedLifetime(tokens) {}
    }
  }

  // O(1) amortised in the other registrations: a controller's observe +
  // unobserve, and a classic add + remove, next to 1,000 and to 20,000
  // others.
  for others in [1_000, 20_000] {
    Benchmark("ours: controller observe + unobserve, \(others) other observations", configuration: .perOperationTimeOnly) {
      benchmark in
      let owner = SinkObserver()
      let kvo = KVOController(observer: owner)
      let observed = (0..<others).map { _ in Observed() }
      for model in observed { kvo.observe(model, \.value) { _, _, _ in } }
      let model = Observed()
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        kvo.observe(model, \.value) { _, _, _ in }
        kvo.unobserve(model, \.value)
      }
      benchmark.stopMeasurement()
      withExtendedLifetime((observed, owner)) {}
    }

    Benchmark("ours: classic add + remove, \(others) other observers", configuration: .perOperationTimeOnly) { benchmark in
      let model = Observed()
      let observers = (0..<others).map { _ in SinkObserver() }
      for observer in observers { try model.addObserver(observer, forKeyPath: "value") }
      let observer = SinkObserver()
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        try model.addObserver(observer, forKeyPath: "value")
        model.removeObserver(observer, forKeyPath: "value")
      }
      benchmark.stopMeasurement()
      withExtendedLifetime(observers) {}
    }
  }

  Benchmark("ours: write, 1 publisher(for:) sink", configuration: .perOperation) { benchmark in
    let model = Observed()
    let cancellable = model.publisher(for: \.value).sink { blackHole($0) }
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      model.value = index
      blackHole(model)
    }
    benchmark.stopMeasurement()
    withExtendedLifetime(cancellable) {}
  }

  Benchmark("ours: publisher(for:) sink + cancel", configuration: .perOperationTimeOnly) { benchmark in
    let model = Observed()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      let cancellable = model.publisher(for: \.value).sink { blackHole($0) }
      cancellable.cancel()
      blackHole(cancellable)
    }
    benchmark.stopMeasurement()
  }
}
