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
