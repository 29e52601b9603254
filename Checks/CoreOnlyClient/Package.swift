// swift-tools-version: 6.2
// A client of the core product alone, with the package's traits turned off,
// as the Compatibility article (DocC) advises for such a client. CI builds and runs
// it, then checks that SwiftPM neither fetched nor built OpenCombine for it.
import PackageDescription

let package = Package(
  name: "CoreOnlyClient",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [
    .package(name: "KeyValueObserving", path: "../..", traits: [])
  ],
  targets: [
    .executableTarget(
      name: "CoreOnlyClient",
      dependencies: [.product(name: "KeyValueObserving", package: "KeyValueObserving")]
    )
  ],
  swiftLanguageModes: [.v6]
)
