#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The calling thread, as a number no other running thread has: what
/// tells one thread's open change from another's.
///
/// ```swift
/// let thread = currentThreadID()
/// ```
@usableFromInline
func currentThreadID() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}
