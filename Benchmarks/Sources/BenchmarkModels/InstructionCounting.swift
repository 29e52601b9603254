// preconcurrency: the registry of rows, `Benchmark.benchmarks`, is a plain
// static var, read here once every row is registered.
@preconcurrency import Benchmark
import CallgrindRequests

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one row of a suite under callgrind, for `count-instructions.sh`, so
/// that the instructions counted are those of the row's own code.
///
/// Each suite with time rows calls ``install()`` first in its `benchmarks`
/// closure. In a benchmark run it does nothing. When the suite's executable
/// is started on its own (package-benchmark's debug mode) with
/// `KVO_INSTRUCTIONS_ROW` or `KVO_INSTRUCTIONS_LIST` in its environment, it
/// sets `Benchmark.setup`, which package-benchmark runs once every row is
/// registered; the hook runs the named row instead of the benchmark, and
/// ends the process:
///
/// - a time row: its own closure once, with `benchmark.scaledIterations`
///   made `KVO_INSTRUCTIONS_OPERATIONS` long (a scaling factor: 1 or 1,000)
///   and the region between `startMeasurement()` and the end of the
///   measurement counted;
/// - a paired row: one side (`KVO_INSTRUCTIONS_SIDE`, `ours` or
///   `reference`) of the pair the row makes, warmed as the row warms it,
///   then run for `KVO_INSTRUCTIONS_OPERATIONS` operations, counted.
///
/// The counted region starts with callgrind's zero request and ends with its
/// dump request (`<file>.1`). Two runs of one row that differ only in the
/// operations counted differ only by those operations: the setup, the
/// requests and the loop's entry and exit cancel out.
///
/// `KVO_INSTRUCTIONS_LIST=1` prints the rows instead, one a line:
/// `time`, `paired` or `skip`, a tab, the operations a sample runs, a tab,
/// the name.
public enum InstructionCounting {
  /// The two sides of a paired row, made afresh, each running the given
  /// number of operations.
  public struct Sides {
    public var reference: (_ operations: Int) async -> Void
    public var ours: (_ operations: Int) async -> Void

    public init(reference: @escaping (_ operations: Int) async -> Void, ours: @escaping (_ operations: Int) async -> Void) {
      self.reference = reference
      self.ours = ours
    }
  }

  private struct PairedRow {
    var operations: Int
    var make: @Sendable () -> Sides
  }

  /// The paired rows, by name. Written while the suite registers its rows,
  /// on one thread, and read after.
  nonisolated(unsafe) private static var pairedRows: [String: PairedRow] = [:]

  /// Registers the sides of the paired row `name`, which runs `operations`
  /// of each per round, so that each side can be counted on its own.
  public static func registerPair(_ name: String, operations: Int, make: @escaping @Sendable () -> Sides) {
    pairedRows[name] = PairedRow(operations: operations, make: make)
  }

  /// Hands the run to the counting hook when the environment asks for a
  /// count or a list; does nothing otherwise.
  public static func install() {
    let environment = Environment()
    guard environment.list || environment.row != nil else { return }
    Benchmark.setup = {
      if environment.list {
        list()
      } else if let row = environment.row {
        await count(row, operations: environment.operations, side: environment.side)
      }
      exit(0)
    }
  }

  private struct Environment {
    var list = environmentVariable("KVO_INSTRUCTIONS_LIST") == "1"
    var row = environmentVariable("KVO_INSTRUCTIONS_ROW")
    var operations = environmentVariable("KVO_INSTRUCTIONS_OPERATIONS").flatMap { Int($0) }
    var side = environmentVariable("KVO_INSTRUCTIONS_SIDE")
  }

  private static func list() {
    for benchmark in Benchmark.benchmarks {
      let name = benchmark.name
      if let paired = pairedRows[name] {
        print("paired\t\(paired.operations)\t\(name)")
      } else if isTimeRow(benchmark) {
        print("time\t\(benchmark.configuration.scalingFactor.rawValue)\t\(name)")
      } else {
        print("skip\t\(benchmark.configuration.scalingFactor.rawValue)\t\(name)")
      }
    }
  }

  /// A row whose samples each time many operations, and whose time per
  /// operation compare.py reads: not the memory rows (one registration
  /// count a sample), nor the scaling rows (threads, one pass a sample).
  private static func isTimeRow(_ benchmark: Benchmark) -> Bool {
    benchmark.configuration.scalingFactor == .kilo && benchmark.configuration.metrics.contains(.wallClock)
  }

  private static func count(_ name: String, operations: Int?, side: String?) async {
    guard callgrind_requests_available() == 1 else {
      fail("built without valgrind's headers (valgrind/callgrind.h): nothing would be counted")
    }
    if let paired = pairedRows[name] {
      let sides = paired.make()
      // As the paired row does: one short pass of each side first.
      await sides.reference(paired.operations / 10)
      await sides.ours(paired.operations / 10)
      let run: (Int) async -> Void
      switch side {
      case "ours": run = sides.ours
      case "reference": run = sides.reference
      default: fail("KVO_INSTRUCTIONS_SIDE must be ours or reference for a paired row")
      }
      let count = operations ?? paired.operations
      callgrind_zero_stats()
      await run(count)
      callgrind_dump_stats()
      return
    }
    guard let benchmark = Benchmark.benchmarks.first(where: { $0.name == name }) else {
      fail("no row named \(name)")
    }
    guard isTimeRow(benchmark) else { fail("not a time row: \(name)") }
    guard let factor = BenchmarkScalingFactor(rawValue: operations ?? 1_000) else {
      fail("KVO_INSTRUCTIONS_OPERATIONS must be a scaling factor for a time row (1 or 1000)")
    }
    benchmark.configuration.scalingFactor = factor
    // Called at the implicit start and again at the row's own
    // startMeasurement(), if it has one: the last zero wins.
    benchmark.measurementPreSynchronization = { _ in callgrind_zero_stats() }
    benchmark.measurementPostSynchronization = { _ in callgrind_dump_stats() }
    benchmark.run()
  }

  private static func fail(_ message: String) -> Never {
    var text = "InstructionCounting: \(message)\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(2)
  }
}

private func environmentVariable(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}
