/// A lock and the state it guards, in memory of their own aligned to a cache
/// line; the state is reached only inside ``withLock(_:)``.
///
/// The registrar takes it on every write to an observed key, around a few
/// dozen instructions that never call out; the controller, derived
/// observations and the library's caches use it too.
///
/// One allocation holds, in order: the lock word; the state's offset; an
/// optional *unlocked area* of `unlockedBytes`, for atomics its owner reads
/// and writes without the lock; the `State`; and an optional *trailing area*
/// of `trailingBytes`, whose layout and lifetime are the owner's. The
/// allocation is a whole number of cache lines, so two threads writing two
/// objects never touch the same line through their locks, whatever the
/// allocator put next to the objects — unless its owner, short-lived and
/// rarely contended, asks for an ordinary allocation instead
/// (`ownsCacheLines: false`).
///
/// The lock word is a ``LockWord``.
///
/// Why not a platform mutex or `Synchronization.Mutex`: a `pthread_mutex_t`
/// call pair cost a third of an observed write when the registrar used one.
/// `Mutex` is as fast as the atomic word, but on Linux its contended path
/// waits inside the standard library, where the thread sanitizer cannot see
/// it, so CI's sanitizer run would report false races (a ten-line program
/// appending to a `Mutex<[Int]>` from four threads shows it). Every operation
/// here is an atomic compiled into this module, or a primitive the sanitizer
/// intercepts. The futex call a waiter parks in (Linux) orders nothing: the
/// atomics around it carry the lock's ordering, and the sanitizer sees them.
///
/// Not API; `package`, so that the Combine module's subscriptions lock
/// the same way.
@usableFromInline
package struct LockedState<State>: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: the state is only reached under the lock; the
  // unlocked and trailing areas are the owner's to keep safe (atomics, or
  // data touched under the lock).

  /// The size of a cache line, and the allocation's alignment.
  @inlinable
  static var lineSize: Int { 64 }

  /// Where the unlocked area starts: after the lock word and the state's
  /// offset.
  @inlinable
  static var unlockedOffset: Int { 8 }

  /// The lock word, the state's offset, the areas and the state.
  @usableFromInline let line: UnsafeMutableRawPointer

  /// Makes a lock guarding `initial`, with `unlockedBytes` bytes between
  /// the lock word and the state and `trailingBytes` bytes after the state,
  /// both uninitialised.
  ///
  /// `ownsCacheLines: false` gives up the cache-line allocation for one
  /// just big enough, from the allocator's ordinary (and much cheaper) path:
  /// for a short-lived lock that one thread at a time mostly takes, such as
  /// a Combine subscription's.
  @inlinable
  package init(
    _ initial: consuming State,
    unlockedBytes: Int = 0,
    trailingBytes: Int = 0,
    ownsCacheLines: Bool = true
  ) {
    let stateOffset = Self.align(Self.unlockedOffset + unlockedBytes, to: MemoryLayout<State>.alignment)
    let trailingOffset = Self.align(stateOffset + MemoryLayout<State>.size, to: 8)
    if ownsCacheLines {
      line = .allocate(byteCount: Self.align(trailingOffset + trailingBytes, to: Self.lineSize), alignment: Self.lineSize)
    } else {
      line = .allocate(byteCount: trailingOffset + trailingBytes, alignment: max(8, MemoryLayout<State>.alignment))
    }
    LockWord.initialize(at: line)
    (line + 4).storeBytes(of: UInt32(stateOffset), as: UInt32.self)
    (line + stateOffset).bindMemory(to: State.self, capacity: 1).initialize(to: initial)
  }

  deinit {
    state.deinitialize(count: 1)
    line.deallocate()
  }

  @inlinable
  static func align(_ offset: Int, to alignment: Int) -> Int {
    (offset + alignment - 1) & ~(alignment - 1)
  }

  @inlinable @inline(__always)
  var state: UnsafeMutablePointer<State> {
    (line + Int(line.load(fromByteOffset: 4, as: UInt32.self))).assumingMemoryBound(to: State.self)
  }

  /// The unlocked area: for atomics the owner reads without the lock.
  @inlinable
  var unlocked: UnsafeMutableRawPointer { line + Self.unlockedOffset }

  /// The trailing area, after the state, aligned to 8 bytes.
  var trailing: UnsafeMutableRawPointer {
    let stateOffset = Int(line.load(fromByteOffset: 4, as: UInt32.self))
    return line + Self.align(stateOffset + MemoryLayout<State>.size, to: 8)
  }

  /// Runs `body` on the state with the lock held. `body` must not call out
  /// to user code.
  @inlinable @inline(__always)
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body(&state.pointee)
  }

  @inlinable @inline(__always)
  func lock() { LockWord(line).lock() }

  @inlinable @inline(__always)
  func unlock() { LockWord(line).unlock() }

  /// Whether a thread holds the lock now: for tests.
  var isLocked: Bool { LockWord(line).isHeld }
}
