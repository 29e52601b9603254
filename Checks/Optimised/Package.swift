// swift-tools-version: 6.2
// The optimised run: the tests of callbacks that change registrations (the
// model-based sequences and their regression tests) and the racing windows
// (two real threads at each of the schedule explorer's windows), through the
// symbolic links in `Tests/OptimisedTests/`, built in release as a client builds the
// library. A package of its own so that `swift test -c release` builds
// swift-syntax once, for the macro, where the main package's test targets
// would build it a second time for the expansion tests. `.ci/run` runs it
// in release and in release under the address sanitizer; TESTING.md says
// why.
import PackageDescription

let package = Package(
  name: "Optimised",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1), .macCatalyst(.v13)],
  dependencies: [
    .package(name: "KeyValueObserving", path: "../.."),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
  ],
  targets: [
    .testTarget(
      name: "OptimisedTests",
      dependencies: [
        .product(name: "KeyValueObserving", package: "KeyValueObserving"),
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      // The one support file that needs `@testable`, which a release build
      // of a dependency does not allow; none of these tests uses it.
      exclude: ["Support/Registrations.swift"],
      swiftSettings: ["ExistentialAny", "InternalImportsByDefault", "InferIsolatedConformances", "MemberImportVisibility"]
        .map { .enableUpcomingFeature($0) }
    )
  ],
  swiftLanguageModes: [.v6]
)
