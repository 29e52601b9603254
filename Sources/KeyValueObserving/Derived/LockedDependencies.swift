import Builtin

/// What a derived observation keeps under its lock: what its value depends
/// on now, the numbering of its reads, and the word of the token that owns
/// it, if one does.
@usableFromInline
struct DependencyState {
  /// The registrations with what the value depends on, in the order the
  /// reads found them.
  var dependencies: RegisteredDependencies = []
  /// The address of the word of the token that owns the observation (a
  /// tracked closure's: see ``KeyValueObservation``), while the token may
  /// still hand it back; whoever ends the observation claims the word
  /// under this lock (see ``DerivedObservationBase/end()``).
  var tokenWord: UnsafeMutableRawPointer? = nil
  /// Numbers the reads of the value, so that a slower read on one thread
  /// cannot replace the dependencies a later read on another installed.
  /// Wide enough never to wrap.
  var nextRead = 0
  var appliedRead = -1
  /// Whether a verifying read can check its reads against
  /// `dependencies` (see ``TrackingScope``): not when declared
  /// dependencies counted, which only a full resolution finds.
  var isVerifiable = true
}

/// The layout of ``LockedDependencies``: the state, then the lock word,
/// which is not at the start of the field, where the thread sanitizer
/// records the object's own accesses to it.
@usableFromInline
struct LockedDependencyLayout {
  @usableFromInline var state: DependencyState
  @usableFromInline var word: UInt32
}

/// A lock and the ``DependencyState`` it guards, inside the derived
/// observation that owns them (storage the compiler keeps at a fixed
/// address, as the inline atomics are), so that an observation makes no
/// allocation for them; the state is reached only inside ``withLock(_:)``.
///
/// The lock is taken to number each read of the value and to change what
/// it depends on, by the thread that changes a dependency: only two threads
/// changing what two derived observations depend on can meet on a line the
/// allocator gave both (a storage's lock, which every write to an observed
/// key takes, keeps its own lines: see ``LockedState``).
///
/// ```swift
/// let state = LockedDependencies()
/// let count = state.withLock { $0.dependencies.count }
/// ```
@frozen @usableFromInline @_rawLayout(like: LockedDependencyLayout)
struct LockedDependencies: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: the state is reached only under the lock.

  @_transparent @usableFromInline
  var address: UnsafeMutableRawPointer { UnsafeMutableRawPointer(Builtin.addressOfRawLayout(self)) }

  @inlinable @inline(__always)
  var state: UnsafeMutablePointer<DependencyState> {
    address.assumingMemoryBound(to: DependencyState.self)
  }

  @inlinable @inline(__always)
  var word: LockWord {
    LockWord(address + MemoryLayout<LockedDependencyLayout>.offset(of: \.word).unsafelyUnwrapped)
  }

  @usableFromInline
  init() {
    LockWord.initialize(at: address + MemoryLayout<LockedDependencyLayout>.offset(of: \.word).unsafelyUnwrapped)
    address.bindMemory(to: DependencyState.self, capacity: 1).initialize(to: DependencyState())
  }

  deinit {
    state.deinitialize(count: 1)
  }

  /// Runs `body` on the state with the lock held. `body` must not call out
  /// to user code.
  @inlinable @inline(__always)
  func withLock<Result>(_ body: (inout DependencyState) throws -> Result) rethrows -> Result {
    let word = word
    word.lock()
    defer { word.unlock() }
    return try body(&state.pointee)
  }
}
