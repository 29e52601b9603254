#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif os(Windows)
  import WinSDK
#endif

/// A number that tells the running thread apart from every other thread
/// alive at the same time.
///
/// ```swift
/// let thread = currentThreadIdentity()
/// ```
func currentThreadIdentity() -> UInt {
  #if os(Windows)
    UInt(GetCurrentThreadId())
  #elseif canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}
