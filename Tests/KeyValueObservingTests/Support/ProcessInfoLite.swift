#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the environment without Foundation.
enum ProcessInfoLite {
  static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
