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

/// One pointer-sized slot per thread (and, below, the current thread's
/// identity: the two per-thread primitives the runtime needs from the
/// platform).
///
/// Built on the platform's thread-local storage (`pthread_getspecific` on
/// Darwin, Glibc, Musl and Bionic; fiber-local storage on Windows) because
/// the runtime imports no Foundation and the standard library exposes no
/// thread-local API. A slot's value may be released by a destructor when its
/// thread ends.
struct ThreadLocal: Sendable {
  #if os(Windows)
    private let key: DWORD

    init(destructor: (@convention(c) (UnsafeMutableRawPointer?) -> Void)? = nil) {
      key = FlsAlloc(destructor.map { function in unsafeBitCast(function, to: PFLS_CALLBACK_FUNCTION.self) })
    }

    var value: UnsafeMutableRawPointer? {
      get { FlsGetValue(key) }
      nonmutating set { FlsSetValue(key, newValue) }
    }
  #else
    private let key: pthread_key_t

    init(destructor: (@convention(c) (UnsafeMutableRawPointer?) -> Void)? = nil) {
      var key = pthread_key_t()
      #if canImport(Darwin)
        // Darwin declares the argument non-optional; the ABI is the same.
        typealias Destructor = @convention(c) (UnsafeMutableRawPointer) -> Void
        let status = pthread_key_create(&key, destructor.map { unsafeBitCast($0, to: Destructor.self) })
      #else
        let status = pthread_key_create(&key, destructor)
      #endif
      precondition(status == 0, "pthread_key_create failed: \(status)")
      self.key = key
    }

    var value: UnsafeMutableRawPointer? {
      get { pthread_getspecific(key) }
      nonmutating set { pthread_setspecific(key, newValue) }
    }
  #endif
}

/// A number that tells the running thread apart from every other thread
/// alive at the same time.
///
/// ```swift
/// let thread = currentThreadIdentity()
/// ```
@usableFromInline
func currentThreadIdentity() -> UInt {
  #if os(Windows)
    UInt(GetCurrentThreadId())
  #elseif canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}

/// Lets other threads run: what a thread waiting for another does between
/// checks.
func yieldThread() {
  #if os(Windows)
    _ = SwitchToThread()
  #elseif !os(WASI)
    sched_yield()
  #endif
}
