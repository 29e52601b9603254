import Benchmark
import BenchmarkModels
import Dispatch
import KeyValueObserving

/// Two threads writing two different observed objects against one thread
/// writing one: each thread does the same number of writes, so equal times
/// mean twice the throughput. The same loop on plain objects shows, in the
/// same run, how well this machine runs two threads at all.
///
/// Two threads writing one observed object, against the same two threads
/// taking one shared `pthread_mutex_t` around each write: the storage's lock
/// under contention against the lock a user would add by hand.
let benchmarks: @Sendable () -> Void = {
  scaling("scaling floor", "plain writes", make: PlainModel.init, observe: { _ in nil }) { model, value in
    model.value = value
  }
  scaling("scaling", "observed writes", make: ObservableModel.init) { model in
    model.observe(\.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
  } write: { model, value in
    model.value = value
  }
  sharedObject("scaling: 2 threads, 1 object, 1000000 observed writes each", serialised: false)
  sharedObject("scaling reference: 2 threads, 1 object, 1000000 observed writes each, a pthread mutex around each", serialised: true)
}

/// Registers `name`: two threads each making 1,000,000 writes to one
/// observed object, each write inside one shared mutex if `serialised`.
func sharedObject(_ name: String, serialised: Bool) {
  let writesPerThread = 1_000_000
  Benchmark(
    name,
    configuration: .init(metrics: [.wallClock, .throughput], scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 20)
  ) { benchmark in
    let model = ObservableModel()
    let token = model.observe(\.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    let mutex = SharedMutex()
    let shared = UncheckedSendable(model)
    benchmark.startMeasurement()
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      let model = shared.value
      if serialised {
        for index in 0..<writesPerThread {
          mutex.withLock { model.value = index }
          blackHole(model)
        }
      } else {
        for index in 0..<writesPerThread {
          model.value = index
          blackHole(model)
        }
      }
    }
    benchmark.stopMeasurement()
    withExtendedLifetime(token) {}
  }
}

/// Registers "`prefix`: N thread(s), 1000000 `writes` each" for one and two
/// threads, each thread writing its own object made by `make` and observed
/// through `observe`.
@inline(__always)
func scaling<Model: AnyObject>(
  _ prefix: String,
  _ writes: String,
  make: @escaping @Sendable () -> Model,
  observe: @escaping @Sendable (Model) -> KeyValueObservation?,
  write: @escaping @Sendable (Model, Int) -> Void
) {
  let writesPerThread = 1_000_000
  for threads in [1, 2] {
    Benchmark(
      "\(prefix): \(threads) thread(s), \(writesPerThread) \(writes) each",
      configuration: .init(metrics: [.wallClock, .throughput], scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 20)
    ) { benchmark in
      // Objects made one after the other can share a cache line, and then
      // two threads writing them slow each other down whatever the library
      // does (false sharing); allocations in between keep them apart.
      var spacers: [[UInt8]] = []
      let models = (0..<threads).map { _ in
        spacers.append([UInt8](repeating: 0, count: 256))
        return make()
      }
      let tokens = models.map(observe)
      let shared = UncheckedSendable(models)
      benchmark.startMeasurement()
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        let model = shared.value[thread]
        for index in 0..<writesPerThread {
          write(model, index)
          blackHole(model)
        }
      }
      benchmark.stopMeasurement()
      withExtendedLifetime((tokens, spacers)) {}
    }
  }
}
