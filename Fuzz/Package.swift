// swift-tools-version: 6.2
// The fuzz target: string key paths and key-value coding values from
// libFuzzer, against a small graph of observable objects. A package of its
// own, so that users never build it. Run it with `./run.sh` from this folder.
import PackageDescription

let package = Package(
  name: "KeyValueObservingFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "KeyValueObserving", path: "..")
  ],
  targets: [
    // libFuzzer's driver is linked into this executable only: `run.sh`
    // instruments every module for coverage and the address sanitizer, and
    // the macro plugin, a host tool, must keep its own `main`.
    .executableTarget(
      name: "FuzzKeyPaths",
      dependencies: [.product(name: "KeyValueObserving", package: "KeyValueObserving")],
      swiftSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-parse-as-library"])],
      linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
    )
  ],
  swiftLanguageModes: [.v6]
)
