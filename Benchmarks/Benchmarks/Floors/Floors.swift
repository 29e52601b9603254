import Benchmark
import BenchmarkModels

/// The floors our rows are divided by.
let benchmarks: @Sendable () -> Void = {
  Benchmark("floor: plain stored write", configuration: .perOperation) { benchmark in
    let model = Plain()
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      model.value = index
      blackHole(model)
    }
  }

  Benchmark("floor: write + direct closure call with (old, new)", configuration: .perOperation) { benchmark in
    let model = Plain()
    let handler: (Int, Int) -> Void = { old, new in blackHole(new) }
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      let old = model.value
      model.value = index
      handler(old, model.value)
      blackHole(model)
    }
  }
}
