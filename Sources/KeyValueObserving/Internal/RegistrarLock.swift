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
public import Synchronization

/// The registrar's lock, taken on every write to an observed key around a few
/// dozen instructions that never call out (a snapshot of a key's
/// registrations, adding or removing one); the key-path slot cache uses it
/// too.
///
/// On Darwin it is an `os_unfair_lock`, allocated once so that it never
/// moves: as cheap as an atomic, and it donates priority to the holder.
/// Elsewhere it is one atomic word, taken with a compare-and-swap and released
/// with a store, spinning briefly and then yielding while another thread
/// holds it.
///
/// Why not a platform mutex or `Synchronization.Mutex`: a `pthread_mutex_t`
/// call pair cost a third of an observed write when the registrar used one. `Mutex` is as fast as the
/// atomic word, but on Linux its contended path waits inside the standard
/// library, where the thread sanitizer cannot see it, so CI's sanitizer run
/// would report false races (a ten-line program appending to a
/// `Mutex<[Int]>` from four threads shows it). Every operation here is an
/// atomic compiled into this module, or a primitive the sanitizer intercepts.
///
/// Not API.
@usableFromInline
struct RegistrarLock: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: the state is only used through atomic operations or
  // the primitive's own thread-safe functions.
  #if canImport(Darwin)
    @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>

    @usableFromInline
    init() {
      primitive = .allocate(capacity: 1)
      primitive.initialize(to: os_unfair_lock())
    }

    deinit {
      primitive.deinitialize(count: 1)
      primitive.deallocate()
    }

    @inlinable @inline(__always)
    func lock() {
      os_unfair_lock_lock(primitive)
    }

    @inlinable @inline(__always)
    func unlock() {
      os_unfair_lock_unlock(primitive)
    }
  #else
    @usableFromInline let word = Atomic<Bool>(false)

    @usableFromInline
    init() {}

    @inlinable @inline(__always)
    func lock() {
      if word.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
      lockContended()
    }

    @usableFromInline
    func lockContended() {
      var spins = 0
      while true {
        // Wait for the word to look free before trying again, so that
        // waiting threads do not keep the cache line bouncing.
        while word.load(ordering: .relaxed) {
          spins += 1
          if spins > 64 { Self.yieldProcessor() }
        }
        if word.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
      }
    }

    @inlinable @inline(__always)
    func unlock() {
      word.store(false, ordering: .releasing)
    }

    private static func yieldProcessor() {
      #if os(Windows)
        _ = SwitchToThread()
      #elseif !os(WASI)
        sched_yield()
      #endif
    }
  #endif

  /// Runs `body` with the lock held. `body` must not call out to user code.
  @inlinable @inline(__always)
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}
