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

/// A mutual-exclusion lock at a fixed heap address: `os_unfair_lock` on
/// Darwin, `pthread_mutex_t` on Glibc, Musl and Bionic, `SRWLOCK` on Windows.
/// For state off the write path (the key-path slot cache); the registrar has
/// its own, cheaper ``RegistrarLock``.
///
/// Why not `Synchronization.Mutex`: on Linux, `Mutex` waits in a futex slow
/// path compiled into the standard library, which the thread sanitizer does
/// not instrument, so a contended `Mutex` is reported as a data race (a
/// ten-line program appending to a `Mutex<[Int]>` from four threads shows
/// it). The platform primitives are intercepted by the sanitizer, which lets
/// CI run the threading tests under it and fail on any report. The lock is
/// allocated once and never moves, as the primitives require.
///
/// The owner calls ``destroy()`` exactly once, from its `deinit`.
struct PlatformLock: @unchecked Sendable {
  // @unchecked Sendable: the pointer is only ever used through the
  // primitive's own thread-safe operations.
  #if canImport(Darwin)
    private typealias Primitive = os_unfair_lock
  #elseif os(Windows)
    private typealias Primitive = SRWLOCK
  #elseif os(WASI)
    private typealias Primitive = Void
  #else
    private typealias Primitive = pthread_mutex_t
  #endif

  private let primitive: UnsafeMutablePointer<Primitive>

  init() {
    primitive = .allocate(capacity: 1)
    #if canImport(Darwin)
      primitive.initialize(to: os_unfair_lock())
    #elseif os(Windows)
      InitializeSRWLock(primitive)
    #elseif os(WASI)
      primitive.initialize(to: ())
    #else
      primitive.initialize(to: pthread_mutex_t())
      let status = pthread_mutex_init(primitive, nil)
      precondition(status == 0, "pthread_mutex_init failed: \(status)")
    #endif
  }

  func lock() {
    #if canImport(Darwin)
      os_unfair_lock_lock(primitive)
    #elseif os(Windows)
      AcquireSRWLockExclusive(primitive)
    #elseif os(WASI)
    #else
      let status = pthread_mutex_lock(primitive)
      precondition(status == 0, "pthread_mutex_lock failed: \(status)")
    #endif
  }

  func unlock() {
    #if canImport(Darwin)
      os_unfair_lock_unlock(primitive)
    #elseif os(Windows)
      ReleaseSRWLockExclusive(primitive)
    #elseif os(WASI)
    #else
      let status = pthread_mutex_unlock(primitive)
      precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
    #endif
  }

  /// Runs `body` with the lock held. `body` must not call out to user code.
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }

  func destroy() {
    #if !canImport(Darwin) && !os(Windows) && !os(WASI)
      pthread_mutex_destroy(primitive)
    #endif
    primitive.deinitialize(count: 1)
    primitive.deallocate()
  }
}
