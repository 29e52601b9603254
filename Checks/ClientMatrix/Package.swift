// swift-tools-version: 6.2
// The client matrix: the same models and checks (`Shared/`), compiled in
// each configuration a client of the package builds in, and run. `run`
// builds and tests every configuration in one scratch path and fails on any
// warning located in a macro expansion. TESTING.md says what each costs.
import PackageDescription

/// Xcode's "Approachable Concurrency" build setting: the upcoming features
/// it turns on, less those the Swift 6 language mode already has.
func approachableConcurrency(swift6: Bool) -> [SwiftSetting] {
  let features = swift6
    ? ["InferIsolatedConformances", "NonisolatedNonsendingByDefault"]
    : [
      "DisableOutwardActorInference", "GlobalActorIsolatedTypesUsability", "InferIsolatedConformances",
      "InferSendableFromCaptures", "NonisolatedNonsendingByDefault",
    ]
  return features.map { .enableUpcomingFeature($0) }
}

/// One configuration: a test target compiling the shared models and checks
/// (through the symbolic links in `Configurations/<name>/`) with `settings`.
/// The settings a target cannot share (language mode, default isolation)
/// are why each configuration is a target of its own: one build, one
/// scratch path, the library and swift-syntax built once.
func configuration(_ name: String, _ settings: [SwiftSetting]) -> Target {
  .testTarget(
    name: name,
    dependencies: [.product(name: "KeyValueObserving", package: "KeyValueObserving")],
    path: "Configurations/\(name)",
    // A warning anywhere in these targets fails the build: none may come
    // from an expansion, and the models and checks are written to have none.
    swiftSettings: settings + [.unsafeFlags(["-warnings-as-errors"])]
  )
}

let package = Package(
  name: "ClientMatrix",
  // The package's own floor, as a client that supports the oldest systems
  // it does declares it.
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1), .macCatalyst(.v13)],
  dependencies: [
    .package(name: "KeyValueObserving", path: "../.."),
  ],
  targets: [
    // Swift 5 language mode, nonisolated, minimal concurrency checking: a
    // library or a server target of a Swift 5 package.
    configuration("Swift5", [.swiftLanguageMode(.v5)]),
    // The same with complete strict-concurrency checking.
    configuration("Swift5Complete", [.swiftLanguageMode(.v5), .enableUpcomingFeature("StrictConcurrency")]),
    // Xcode 26's new-app target: Swift 5, the main actor by default,
    // Approachable Concurrency.
    configuration(
      "XcodeAppDefault",
      [.swiftLanguageMode(.v5), .defaultIsolation(MainActor.self)] + approachableConcurrency(swift6: false)
    ),
    // Swift 6, nonisolated, Approachable Concurrency.
    configuration("Swift6Approachable", [.swiftLanguageMode(.v6)] + approachableConcurrency(swift6: true)),
    // Swift 6 with the main actor by default.
    configuration("Swift6MainActor", [.swiftLanguageMode(.v6), .defaultIsolation(MainActor.self)]),
    // Library evolution: the models in a module built for distribution, as
    // a binary framework ships them, with an interface the compiler
    // verifies; the checks observe them from another module.
    .target(
      name: "DistributedModels",
      dependencies: [.product(name: "KeyValueObserving", package: "KeyValueObserving")],
      path: "Configurations/DistributedModels",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .unsafeFlags(["-enable-library-evolution", "-emit-module-interface"]),
      ]
    ),
    .testTarget(
      name: "DistributedClient",
      dependencies: ["DistributedModels", .product(name: "KeyValueObserving", package: "KeyValueObserving")],
      path: "Configurations/DistributedClient",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .define("MODELS_IN_ANOTHER_MODULE"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
      ]
    ),
  ]
)
