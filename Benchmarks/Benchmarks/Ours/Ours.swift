import Benchmark
import BenchmarkModels
import KeyValueObserving

/// KeyValueObserving's rows. A later feature adds its row here.
let benchmarks: @Sendable () -> Void = {
  Benchmark("ours: unobserved write", configuration: .perOperation) { benchmark in
    let model = Observed()
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
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
    withExtendedLifetime(token) {}
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
}
