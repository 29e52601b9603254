// swift-tools-version: 6.1
// The benchmark suites: a package of their own so that users of
// KeyValueObserving never resolve benchmark dependencies.
//
//   cd Benchmarks && ./compare.sh          # every suite, then the budget table
//   swift package benchmark --target Ours  # one suite, package-benchmark's own output
import PackageDescription

let benchmarkPlugin: Target.PluginUsage = .plugin(name: "BenchmarkPlugin", package: "benchmark")

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
    // The models every suite measures, and the memory probe.
    .target(
      name: "BenchmarkModels",
      dependencies: [
        .product(name: "KeyValueObserving", package: "KeyValueObserving"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
        .product(name: "Benchmark", package: "benchmark"),
      ]
    ),
    .executableTarget(
      name: "Floors",
      dependencies: ["BenchmarkModels", .product(name: "Benchmark", package: "benchmark")],
      path: "Benchmarks/Floors",
      plugins: [benchmarkPlugin]
    ),
    .executableTarget(
      name: "Ours",
      dependencies: [
        "BenchmarkModels",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "KeyValueObserving", package: "KeyValueObserving"),
      ],
      path: "Benchmarks/Ours",
      plugins: [benchmarkPlugin]
    ),
    .executableTarget(
      name: "Anchors",
      dependencies: [
        "BenchmarkModels",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ],
      path: "Benchmarks/Anchors",
      plugins: [benchmarkPlugin]
    ),
    .executableTarget(
      name: "Memory",
      dependencies: [
        "BenchmarkModels",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ],
      path: "Benchmarks/Memory",
      plugins: [benchmarkPlugin]
    ),
    .executableTarget(
      name: "Scaling",
      dependencies: ["BenchmarkModels", .product(name: "Benchmark", package: "benchmark")],
      path: "Benchmarks/Scaling",
      plugins: [benchmarkPlugin]
    ),
  ],
  swiftLanguageModes: [.v6]
)
