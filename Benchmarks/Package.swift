// swift-tools-version: 6.1
// The benchmark suites: a package of their own so that users of
// KeyValueObserving never resolve benchmark dependencies.
//
//   cd Benchmarks && ./compare.sh          # every suite, then the budget table
//   swift package benchmark --target Ours  # one suite, package-benchmark's own output
import PackageDescription

/// One benchmark suite: an executable in `Benchmarks/<name>/` that
/// package-benchmark's plugin runs.
func suite(_ name: String, using dependencies: [Target.Dependency] = []) -> Target {
  .executableTarget(
    name: name,
    dependencies: ["BenchmarkModels", .product(name: "Benchmark", package: "benchmark")] + dependencies,
    path: "Benchmarks/\(name)",
    plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
  )
}

let package = Package(
  name: "KeyValueObservingBenchmarks",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [
    // Named, because a path dependency is otherwise known by its folder name.
    .package(name: "KeyValueObserving", path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
  ],
  targets: [
    // The heap's own count of bytes in use (mallinfo2 and its Darwin
    // counterpart), which Swift's Glibc module does not export.
    .target(name: "HeapStatistics"),
    // Callgrind's client requests (zero, dump), for count-instructions.sh;
    // no-ops outside valgrind.
    .target(name: "CallgrindRequests"),
    // Memory as the heap counts it, in a process without the malloc
    // interposer, which adds a header to every allocation it counts.
    .executableTarget(
      name: "HeapProbe",
      dependencies: [
        "HeapStatistics",
        "Models",
        .product(name: "KeyValueObserving", package: "KeyValueObserving"),
        .product(name: "KeyValueObservingCombine", package: "KeyValueObserving"),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ]
    ),
    // The models every suite and HeapProbe measure; no benchmark or
    // interposer code, so that HeapProbe's process is left alone.
    .target(
      name: "Models",
      dependencies: [
        .product(name: "KeyValueObserving", package: "KeyValueObserving"),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ]
    ),
    // The models again for the suites, the suites' configurations, the
    // memory probe, and the hook that counts one row's instructions.
    .target(
      name: "BenchmarkModels",
      dependencies: [
        "Models",
        "CallgrindRequests",
        .product(name: "KeyValueObserving", package: "KeyValueObserving"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
        .product(name: "Benchmark", package: "benchmark"),
      ]
    ),
    suite("Floors"),
    suite(
      "Ours",
      using: [
        .product(name: "KeyValueObserving", package: "KeyValueObserving"),
        .product(name: "KeyValueObservingCombine", package: "KeyValueObserving"),
      ]
    ),
    suite("Anchors", using: [.product(name: "OpenCombine", package: "OpenCombine")]),
    suite(
      "Memory",
      using: [
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "KeyValueObservingCombine", package: "KeyValueObserving"),
      ]
    ),
    suite("Scaling"),
    suite(
      "Paired",
      using: [
        .product(name: "KeyValueObserving", package: "KeyValueObserving"),
        .product(name: "KeyValueObservingCombine", package: "KeyValueObserving"),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
