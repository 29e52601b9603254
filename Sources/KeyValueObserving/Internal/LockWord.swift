#if canImport(Darwin)
  import Darwin
#endif

/// The word of a lock at a fixed address, which its owner lays out: at
/// the start of a ``LockedState``'s allocation, or inside an object (see
/// ``LockedDependencies``). Four bytes, aligned to four.
///
/// On Darwin it is an `os_unfair_lock`: as cheap as an atomic, and it
/// donates priority to the holder. Elsewhere it is one atomic byte, taken
/// with a compare-and-swap and released with a store, spinning briefly and
/// then yielding while another thread holds it.
///
/// ```swift
/// LockWord.initialize(at: address)
/// LockWord(address).lock()
/// defer { LockWord(address).unlock() }
/// ```
@usableFromInline
struct LockWord {
  @usableFromInline let address: UnsafeMutableRawPointer

  @inlinable @inline(__always)
  init(_ address: UnsafeMutableRawPointer) {
    self.address = address
  }

  /// Makes an unlocked word at `address`.
  @inlinable
  static func initialize(at address: UnsafeMutableRawPointer) {
    #if canImport(Darwin)
      address.bindMemory(to: os_unfair_lock.self, capacity: 1).initialize(to: os_unfair_lock())
    #else
      AtomicFlagPointer.initialize(at: address)
    #endif
  }

  #if canImport(Darwin)
    @inlinable @inline(__always)
    func lock() {
      os_unfair_lock_lock(address.assumingMemoryBound(to: os_unfair_lock.self))
    }

    @inlinable @inline(__always)
    func unlock() {
      os_unfair_lock_unlock(address.assumingMemoryBound(to: os_unfair_lock.self))
    }
  #else
    /// The lock word: `true` while held.
    @inlinable @inline(__always)
    var word: AtomicFlagPointer {
      AtomicFlagPointer(address)
    }

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
          SchedulePoint.reach(.waiting)
          spins += 1
          if spins > 64 { yieldThread() }
        }
        if word.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
      }
    }

    @inlinable @inline(__always)
    func unlock() {
      word.store(false, ordering: .releasing)
    }
  #endif
}
