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

/// The registrar's lock: one atomic word, taken with a compare-and-swap and
/// released with a store, spinning briefly and then yielding the processor
/// while another thread holds it.
///
/// Why this and not `Synchronization.Mutex` or a platform mutex: the lock is
/// taken on every write to an observed key, and the sections it guards are a
/// few dozen instructions that never call out (snapshots of a key's
/// registrations, adding and removing one). A platform mutex call costs a
/// third of such a write; `Mutex` is as fast, but on Linux its contended path
/// waits inside the standard library, where the thread sanitizer cannot see
/// it, so CI's sanitizer run would report false races. Every operation here
/// is an atomic compiled into this module, which the sanitizer instruments.
///
/// Not API.
@usableFromInline
struct SpinLock: ~Copyable, Sendable {
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
      // Wait for the word to look free before trying again, so that waiting
      // threads do not keep the cache line bouncing.
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

  /// Runs `body` with the lock held. `body` must not call out to user code.
  @inlinable @inline(__always)
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }

  private static func yieldProcessor() {
    #if os(Windows)
      _ = SwitchToThread()
    #elseif os(WASI)
    #else
      sched_yield()
    #endif
  }
}
