import Benchmark
import BenchmarkModels
import Dispatch
import KeyValueObserving

/// Two threads writing two different observed objects against one thread
/// writing one: each thread does the same number of writes, so equal times
/// mean twice the throughput.
let benchmarks: @Sendable () -> Void = {
  floorBenchmarks()
  let writesPerThread = 1_000_000

  for threads in [1, 2] {
    Benchmark(
      "scaling: \(threads) thread(s), \(writesPerThread) observed writes each",
      configuration: .init(metrics: [.wallClock, .throughput], scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 20)
    ) { benchmark in
      // Objects made one after the other can share a cache line, and then
      // two threads writing them slow each other down whatever the library
      // does (false sharing); allocations in between keep them apart.
      var spacers: [[UInt8]] = []
      let models = (0..<threads).map { _ in
        spacers.append([UInt8](repeating: 0, count: 256))
        return ObservableModel()
      }
      let tokens = models.map { model in
        model.observe(\.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
      }
      let shared = UncheckedSendable(models)
      benchmark.startMeasurement()
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        let model = shared.value[thread]
        for index in 0..<writesPerThread {
          model.value = index
          blackHole(model)
        }
      }
      benchmark.stopMeasurement()
      withExtendedLifetime((tokens, spacers)) {}
    }
  }
}

/// The same loop on plain objects: how well this machine runs two threads
/// at all, in the same run.
func floorBenchmarks() {
  let writesPerThread = 1_000_000
  for threads in [1, 2] {
    Benchmark(
      "scaling floor: \(threads) thread(s), \(writesPerThread) plain writes each",
      configuration: .init(metrics: [.wallClock, .throughput], scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 20)
    ) { benchmark in
      var spacers: [[UInt8]] = []
      let models = (0..<threads).map { _ in
        spacers.append([UInt8](repeating: 0, count: 256))
        return PlainModel()
      }
      let shared = UncheckedSendable(models)
      benchmark.startMeasurement()
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        let model = shared.value[thread]
        for index in 0..<writesPerThread {
          model.value = index
          blackHole(model)
        }
      }
      benchmark.stopMeasurement()
      withExtendedLifetime(spacers) {}
    }
  }
}

/// Hands each thread its own object; the threads never share one.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
