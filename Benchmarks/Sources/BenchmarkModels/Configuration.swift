import Benchmark

extension Benchmark.Configuration {
  /// Time and mallocs per operation: each sample runs 1,000 operations, so
  /// a sample's microseconds read as nanoseconds per operation. Throughput is
  /// listed because the JMH export `compare.sh` reads needs it.
  public static var perOperation: Benchmark.Configuration {
    .init(
      metrics: [.wallClock, .throughput, .mallocCountTotal],
      scalingFactor: .kilo,
      maxDuration: .seconds(1),
      maxIterations: 200_000
    )
  }

  /// Like ``perOperation`` but without counting mallocs: counting routes
  /// every allocation through the malloc interposer, which adds its own cost
  /// to rows that allocate, such as registering and removing an observer.
  public static var perOperationTimeOnly: Benchmark.Configuration {
    var configuration = perOperation
    configuration.metrics = [.wallClock, .throughput]
    return configuration
  }

  /// One measurement of a custom metric per sample, a few samples.
  public static func custom(_ metric: BenchmarkMetric, samples: Int = 5) -> Benchmark.Configuration {
    .init(
      metrics: [.throughput, metric],
      scalingFactor: .one,
      maxDuration: .seconds(30),
      maxIterations: samples
    )
  }
}
