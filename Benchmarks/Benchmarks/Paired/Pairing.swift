import Benchmark
import BenchmarkModels
import Dispatch

/// The two sides of one paired ratio, made afresh for each round: each runs
/// the given number of operations in its own loop, so that no per-operation
/// call is added to either side.
struct Pair {
  let reference: (_ operations: Int) -> Void
  let ours: (_ operations: Int) -> Void
}

/// The async form of ``Pair``, for rows that await.
struct AsyncPair {
  let reference: (_ operations: Int) async -> Void
  let ours: (_ operations: Int) async -> Void
}

/// The metric every paired row records: the round's ratio, in thousandths.
let pairedRatio = BenchmarkMetric.custom("ratio (per mille)", useScalingFactor: false)

/// One paired row: `rounds` samples, each timing `operations` of the
/// reference and as many of ours back to back (in a random order), and
/// recording ours ÷ reference. Both sides of a round run within a
/// millisecond or two of each other, so they see the machine in the same
/// state; rows measured separately, minutes apart, do not on a noisy
/// virtual machine.
///
/// `speedup`: record reference ÷ ours times `speedup` instead (for the
/// scaling row, where more is better).
func paired(_ name: String, operations: Int, rounds: Int = 200, speedup: Double? = nil, make: @escaping @Sendable () -> Pair) {
  // Each side's instructions, counted on its own by count-instructions.sh
  // (not the scaling rows, whose sides are threads).
  if speedup == nil {
    InstructionCounting.registerPair(name, operations: operations) {
      let pair = make()
      return .init(reference: pair.reference, ours: pair.ours)
    }
  }
  Benchmark(name, configuration: pairedConfiguration(rounds)) { benchmark in
    let pair = make()
    // One short pass of each first, so that neither side pays for a cold
    // cache or a first allocation in the timed pass.
    pair.reference(operations / 10)
    pair.ours(operations / 10)
    var referenceTime = Duration.zero
    var ourTime = Duration.zero
    let clock = ContinuousClock()
    if Bool.random() {
      referenceTime = clock.measure { pair.reference(operations) }
      ourTime = clock.measure { pair.ours(operations) }
    } else {
      ourTime = clock.measure { pair.ours(operations) }
      referenceTime = clock.measure { pair.reference(operations) }
    }
    benchmark.measurement(pairedRatio, perMille(ours: ourTime, reference: referenceTime, speedup: speedup))
  }
}

/// ``paired(_:operations:rounds:speedup:make:)`` for sides that await.
func pairedAsync(_ name: String, operations: Int, rounds: Int = 200, make: @escaping @Sendable () -> AsyncPair) {
  InstructionCounting.registerPair(name, operations: operations) {
    let pair = make()
    return .init(reference: pair.reference, ours: pair.ours)
  }
  Benchmark(name, configuration: pairedConfiguration(rounds)) { benchmark in
    let pair = make()
    await pair.reference(operations / 10)
    await pair.ours(operations / 10)
    var referenceTime = Duration.zero
    var ourTime = Duration.zero
    if Bool.random() {
      referenceTime = await timed { await pair.reference(operations) }
      ourTime = await timed { await pair.ours(operations) }
    } else {
      ourTime = await timed { await pair.ours(operations) }
      referenceTime = await timed { await pair.reference(operations) }
    }
    benchmark.measurement(pairedRatio, perMille(ours: ourTime, reference: referenceTime, speedup: nil))
  }
}

/// How long `body` took.
private func timed(_ body: () async -> Void) async -> Duration {
  let clock = ContinuousClock()
  let start = clock.now
  await body()
  return clock.now - start
}

private func pairedConfiguration(_ rounds: Int) -> Benchmark.Configuration {
  .init(metrics: [.throughput, pairedRatio], scalingFactor: .one, maxDuration: .seconds(20), maxIterations: rounds)
}

private func perMille(ours: Duration, reference: Duration, speedup: Double?) -> Int {
  let ourSeconds = seconds(ours)
  let referenceSeconds = seconds(reference)
  guard ourSeconds > 0, referenceSeconds > 0 else { return 0 }
  let ratio = speedup.map { $0 * referenceSeconds / ourSeconds } ?? ourSeconds / referenceSeconds
  return Int((ratio * 1000).rounded())
}

private func seconds(_ duration: Duration) -> Double {
  let (whole, attoseconds) = duration.components
  return Double(whole) + Double(attoseconds) * 1e-18
}
