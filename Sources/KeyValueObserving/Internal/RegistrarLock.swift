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
/// registrations, adding or removing one); the key-path slot cache and
/// derived observations use it too.
///
/// It lives alone in a cache line of its own, allocated once so that it never
/// moves: two threads writing two different objects never touch the same
/// line, whatever the allocator put next to the objects' storage. The rest of
/// the line (``spare``) is for data that the lock's users write as often as
/// they take the lock.
///
/// On Darwin it is an `os_unfair_lock`: as cheap as an atomic, and it donates
/// priority to the holder. Elsewhere it is one atomic word, taken with a
/// compare-and-swap and released with a store, spinning briefly and then
/// yielding while another thread holds it.
///
/// Why not a platform mutex or `Synchronization.Mutex`: a `pthread_mutex_t`
/// call pair cost a third of an observed write when the registrar used one.
/// `Mutex` is as fast as the atomic word, but on Linux its contended path
/// waits inside the standard library, where the thread sanitizer cannot see
/// it, so CI's sanitizer run would report false races (a ten-line program
/// appending to a `Mutex<[Int]>` from four threads shows it). Every operation
/// here is an atomic compiled into this module, or a primitive the sanitizer
/// intercepts.
///
/// Not API.
@usableFromInline
struct RegistrarLock: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: the line is only used through atomic operations or
  // the primitive's own thread-safe functions.

  /// The size of the line, and of its alignment.
  static let lineSize = 64

  /// Bytes of the line from which the lock's users may keep data.
  static let spareOffset = 8

  /// The lock's cache line.
  @usableFromInline let line: UnsafeMutableRawPointer

  /// The part of the line after the lock, `lineSize - spareOffset` bytes.
  var spare: UnsafeMutableRawPointer { line + Self.spareOffset }

  #if canImport(Darwin)
    @usableFromInline
    init() {
      line = .allocate(byteCount: Self.lineSize, alignment: Self.lineSize)
      line.bindMemory(to: os_unfair_lock.self, capacity: 1).initialize(to: os_unfair_lock())
    }

    deinit {
      line.assumingMemoryBound(to: os_unfair_lock.self).deinitialize(count: 1)
      line.deallocate()
    }

    @inlinable @inline(__always)
    func lock() {
      os_unfair_lock_lock(line.assumingMemoryBound(to: os_unfair_lock.self))
    }

    @inlinable @inline(__always)
    func unlock() {
      os_unfair_lock_unlock(line.assumingMemoryBound(to: os_unfair_lock.self))
    }
  #else
    @usableFromInline
    init() {
      line = .allocate(byteCount: Self.lineSize, alignment: Self.lineSize)
      line.bindMemory(to: Atomic<Bool>.self, capacity: 1).initialize(to: Atomic(false))
    }

    deinit {
      line.assumingMemoryBound(to: Atomic<Bool>.self).deinitialize(count: 1)
      line.deallocate()
    }

    /// The lock word: `true` while held.
    @inlinable @inline(__always)
    var word: UnsafeMutablePointer<Atomic<Bool>> {
      line.assumingMemoryBound(to: Atomic<Bool>.self)
    }

    @inlinable @inline(__always)
    func lock() {
      if word.pointee.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
      lockContended()
    }

    @usableFromInline
    func lockContended() {
      var spins = 0
      while true {
        // Wait for the word to look free before trying again, so that
        // waiting threads do not keep the cache line bouncing.
        while word.pointee.load(ordering: .relaxed) {
          spins += 1
          if spins > 64 { yieldThread() }
        }
        if word.pointee.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
      }
    }

    @inlinable @inline(__always)
    func unlock() {
      word.pointee.store(false, ordering: .releasing)
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
