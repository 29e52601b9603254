#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif os(Windows)
  import ucrt
#endif

/// Tells the developer about a misuse the library has made harmless.
///
/// Debug builds print the message to standard error; release builds stay
/// silent.
@usableFromInline
func reportProblem(_ message: String) {
  #if DEBUG && !os(WASI)
    let line = "KeyValueObserving: \(message)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { buffer in
      #if os(Windows)
        _write(2, buffer.baseAddress, UInt32(buffer.count - 1))
      #else
        write(2, buffer.baseAddress, buffer.count - 1)
      #endif
    }
  #endif
}
