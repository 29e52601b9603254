import Benchmark
import BenchmarkModels

/// The floors our rows are divided by.
let benchmarks: @Sendable () -> Void = {
  // Counts one row under callgrind when count-instructions.sh asks.
  InstructionCounting.install()

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

  // A plain property whose didSet hands (old, new) to an AsyncStream, and a
  // task that consumes them: what `changes(for:)` is compared with. The
  // writes are made first and consumed after, so the row measures the
  // hand-off rather than thread scheduling.
  Benchmark("floor: AsyncStream hand-off", configuration: .perOperation) { benchmark in
    let (stream, continuation) = AsyncStream.makeStream(of: (Int, Int).self)
    let model = Streaming(continuation)
    var iterator = stream.makeAsyncIterator()
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      model.value = index
    }
    for _ in benchmark.scaledIterations {
      blackHole(await iterator.next())
    }
  }
}
