// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

/// OpenCombine, on the platforms that have no Combine of their own.
let openCombine = Target.Dependency.product(
  name: "OpenCombine",
  package: "OpenCombine",
  condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd], traits: ["OpenCombine"])
)

let package = Package(
  name: "KeyValueObserving",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1), .macCatalyst(.v13)],
  products: [
    .library(name: "KeyValueObserving", targets: ["KeyValueObserving"]),
    // `publisher(for:)`: Combine where the system has it, OpenCombine elsewhere.
    .library(name: "KeyValueObservingCombine", targets: ["KeyValueObservingCombine"]),
    .executable(name: "kvo-demo", targets: ["kvo-demo"]),
    .executable(name: "outliner", targets: ["outliner"]),
  ],
  traits: [
    .trait(
      name: "OpenCombine",
      description: "KeyValueObservingCombine builds on OpenCombine on platforms without Combine."
    ),
    .default(enabledTraits: ["OpenCombine"]),
  ],
  dependencies: [
    // The widest range the macros build and pass their expansion tests
    // in: CI tests the floor (Checks/SwiftSyntaxFloor) and the highest
    // version this range resolves to. The Compatibility article says why not lower.
    .package(url: "https://github.com/swiftlang/swift-syntax", "602.0.0"..<"604.0.0"),
    .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    // `swift package generate-documentation`; a plugin, so it adds nothing
    // to what clients of the library build.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // Only the Combine product's target uses it, and only with the
    // `OpenCombine` trait (on by default): a client that depends on the
    // core alone never builds it, and with `traits: []` never fetches it.
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
  ],
  targets: [
    // The runtime: registrar, observation tokens, options, change records, tracking.
    // Imports no Foundation and no swift-syntax; declares the macros it is used with.
    .target(
      name: "KeyValueObserving",
      dependencies: ["KeyValueObservingMacros", "KeyValueObservingShims"],
      exclude: ["Internal/Atomics/generate.py"],
      // The atomics are made as the standard library's own are (see
      // Internal/Atomics/Atomics.swift): storage at a fixed address and one
      // builtin per operation, so that they need no newer OS than the rest.
      // `Extern`: the shims' C functions are declared by name, not
      // imported (see Internal/RuntimeEntryPoints.swift).
      swiftSettings: [
        .enableExperimentalFeature("RawLayout"), .enableExperimentalFeature("BuiltinModule"),
        .enableExperimentalFeature("Extern"),
      ]
    ),
    // Defines the C functions the runtime module calls (the Swift runtime's
    // answers to whether an object is running its deinit, unowned
    // references, the current task) and its C11 thread-local slots. Linked,
    // not imported: see Internal/RuntimeEntryPoints.swift.
    .target(name: "KeyValueObservingShims"),
    // The compiler plugin that expands `@KeyValueObservable` and friends.
    .macro(
      name: "KeyValueObservingMacros",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftBasicFormat", package: "swift-syntax"),
      ]
    ),
    // `publisher(for:)` on every observable object, over Combine or OpenCombine.
    .target(
      name: "KeyValueObservingCombine",
      dependencies: ["KeyValueObserving", openCombine]
    ),
    // The narrated tour: `swift run kvo-demo`.
    .executableTarget(
      name: "kvo-demo",
      dependencies: ["KeyValueObserving", "KeyValueObservingCombine"],
      path: "Examples/kvo-demo"
    ),
    // A document app driven by a script: undo and redo, autosave, a view,
    // a background import. `swift run outliner Examples/outliner/script.txt`.
    .executableTarget(
      name: "outliner",
      dependencies: ["KeyValueObserving"],
      path: "Examples/outliner",
      exclude: ["script.txt", "expected.json"]
    ),
    .testTarget(
      name: "KeyValueObservingTests",
      dependencies: [
        "KeyValueObserving",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    // Models and their observation as an app target writes them: the main
    // actor is the module's default isolation, as Xcode sets it for new
    // app targets, which the macro cannot see.
    .testTarget(
      name: "KeyValueObservingMainActorTests",
      dependencies: ["KeyValueObserving"],
      swiftSettings: [.defaultIsolation(MainActor.self)]
    ),
    // Models and their observation in the Swift 5 language mode, which most
    // app targets use: the package's other targets are Swift 6, and the
    // expansions must compile in both.
    .testTarget(
      name: "KeyValueObservingSwift5Tests",
      dependencies: ["KeyValueObserving"],
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    .testTarget(
      name: "KeyValueObservingCombineTests",
      dependencies: ["KeyValueObservingCombine"]
    ),
    .testTarget(
      name: "KeyValueObservingMacrosTests",
      dependencies: [
        "KeyValueObservingMacros",
        .product(name: "MacroTesting", package: "swift-macro-testing"),
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .plugin && target.name != "KeyValueObservingShims" {
  var features = ["ExistentialAny", "InternalImportsByDefault", "InferIsolatedConformances"]
  // MacroTesting's API reaches into modules it does not re-export, which
  // MemberImportVisibility would make the expansion tests import one by one.
  if target.name != "KeyValueObservingMacrosTests" {
    features.append("MemberImportVisibility")
  }
  target.swiftSettings = (target.swiftSettings ?? []) + features.map { .enableUpcomingFeature($0) }
}
