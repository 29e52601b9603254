#if canImport(Darwin)
  import Darwin
#endif

/// The word of a lock at a fixed address, which its owner lays out: at
/// the start of a ``LockedState``'s allocation, or inside an object (see
/// ``LockedDependencies``). Four bytes, aligned to four.
///
/// On Darwin it is an `os_unfair_lock`: as cheap as an atomic, and it
/// donates priority to the holder. Elsewhere it is a 32-bit atomic with
/// three states: free (0), held (1), and held with a thread that may be
/// waiting (2). Taking a free lock is one compare-and-swap; unlocking is
/// one exchange, and a system call only when a thread may be waiting. A
/// thread that finds the lock held spins briefly, then parks (see
/// ``lockContended()``).
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
      AtomicInt32Pointer.initialize(at: address)
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

    /// Whether a thread holds the lock now: for tests that check no user
    /// code runs under it.
    var isHeld: Bool {
      let lock = address.assumingMemoryBound(to: os_unfair_lock.self)
      guard os_unfair_lock_trylock(lock) else { return true }
      os_unfair_lock_unlock(lock)
      return false
    }
  #else
    /// The word's state: ``free``, ``held`` or ``contended``.
    @inlinable @inline(__always)
    var word: AtomicInt32Pointer {
      AtomicInt32Pointer(address)
    }

    /// Nobody holds the lock.
    @inlinable @inline(__always)
    static var free: Int32 { 0 }

    /// A thread holds the lock, and no other waits for it.
    @inlinable @inline(__always)
    static var held: Int32 { 1 }

    /// A thread holds the lock, and others may be waiting: its unlock
    /// wakes one.
    @inlinable @inline(__always)
    static var contended: Int32 { 2 }

    /// How many times a thread reads a held word before it parks. With
    /// `pause`, a few microseconds: far longer than the short sections
    /// these locks guard, so a waiter parks only when the holder is not
    /// running.
    static var spins: Int { 100 }

    @inlinable @inline(__always)
    func lock() {
      if word.compareExchange(expected: Self.free, desired: Self.held, ordering: .acquiring).exchanged { return }
      lockContended()
    }

    /// Takes the lock while another thread holds it: spins a bounded
    /// number of times, taking it if it comes free, then parks until an
    /// unlock wakes it.
    ///
    /// It parks rather than yields because a yielding thread stays
    /// runnable. On a machine with few cores it then takes turns with the
    /// holder it waits for, and with every other thread that waits. A
    /// parked thread gives the holder the processor until the unlock.
    ///
    /// A thread that parks marks the word ``contended``, and so does one
    /// that takes it after waking, not knowing whether others still wait.
    /// Its unlock then makes one system call, perhaps needless: the price
    /// of not counting waiters.
    @usableFromInline @inline(never)
    func lockContended() {
      if spinUntilTaken() { return }
      // Marked contended before each wait, so that an unlock wakes a
      // waiter; the exchange that finds the word free takes the lock.
      while word.exchange(Self.contended, ordering: .acquiring) != Self.free {
        waitWhileHeld()
      }
    }

    /// Reads the word up to ``spins`` times, and takes the lock whenever
    /// it reads it free; returns whether it took it.
    @inline(__always)
    func spinUntilTaken() -> Bool {
      for _ in 0..<Self.spins {
        if word.load(ordering: .relaxed) == Self.free
          && word.compareExchange(expected: Self.free, desired: Self.held, ordering: .acquiring).exchanged
        {
          return true
        }
        SchedulePoint.reach(.waiting)
        kvoSpinLoopHint()
      }
      return false
    }

    /// One wait of the contended path: parks the thread while the word is
    /// ``contended``. It may return before the lock is free.
    func waitWhileHeld() {
      #if DEBUG
        // A schedule explorer's thread waits at a schedule point: parked,
        // it would block where the explorer cannot see.
        if SchedulePoint.isExploring { return SchedulePoint.reach(.waiting) }
      #endif
      #if os(Linux) || os(Android)
        kvoFutexWait(address, expected: UInt32(bitPattern: Self.contended))
      #else
        // Windows could park with WaitOnAddress and WakeByAddressSingle;
        // until it does, a waiter yields. WASI has no threads.
        yieldThread()
      #endif
    }

    @inlinable @inline(__always)
    func unlock() {
      if word.exchange(Self.free, ordering: .releasing) == Self.contended { wakeWaiter() }
    }

    /// Whether a thread holds the lock now: for tests that check no user
    /// code runs under it.
    var isHeld: Bool { word.load(ordering: .relaxed) != Self.free }

    /// Wakes one thread parked in ``waitWhileHeld()``, if one is.
    @usableFromInline @inline(never)
    func wakeWaiter() {
      #if os(Linux) || os(Android)
        kvoFutexWakeOne(address)
      #endif
    }
  #endif
}
