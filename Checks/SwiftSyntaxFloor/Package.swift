// swift-tools-version: 6.2
// The macros and their expansion tests at the lowest swift-syntax the
// package declares (`Package.swift`: 602.0.0 up to 604): the sources and
// tests are the package's own, through symbolic links, and swift-syntax is
// pinned to the floor. The package's own `swift test` resolves the highest
// version, so CI tests both ends of the range. `.ci/run` runs it; the
// Compatibility article (DocC) says why the range starts at 602 (600.0.1 builds the macros, but
// its expansion-test support applies accessor macros differently, and 15
// of the expansion tests fail there).
import CompilerPluginSupport
import PackageDescription

let package = Package(
  name: "SwiftSyntaxFloor",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1), .macCatalyst(.v13)],
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-syntax", exact: "602.0.0"),
    .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
  ],
  targets: [
    .macro(
      name: "KeyValueObservingMacros",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftBasicFormat", package: "swift-syntax"),
      ],
      swiftSettings: ["ExistentialAny", "InternalImportsByDefault", "InferIsolatedConformances", "MemberImportVisibility"]
        .map { .enableUpcomingFeature($0) }
    ),
    .testTarget(
      name: "KeyValueObservingMacrosTests",
      dependencies: [
        "KeyValueObservingMacros",
        .product(name: "MacroTesting", package: "swift-macro-testing"),
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
      ],
      swiftSettings: ["ExistentialAny", "InternalImportsByDefault", "InferIsolatedConformances"]
        .map { .enableUpcomingFeature($0) }
    ),
  ],
  swiftLanguageModes: [.v6]
)
