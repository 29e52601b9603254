internal import Builtin

/// A fence split between a frequent side, which costs nothing at run time,
/// and a rare side, which makes every running thread of the process pass
/// a full barrier (Linux's `membarrier`).
///
/// Two threads that each store a flag and then read the other's need a
/// full barrier between the store and the load, or both may read the old
/// values. A change's end is the frequent side (``light()``), and a list
/// retired during a change the rare one (``heavy()``):
///
/// ```swift
/// record.store(false, ordering: .releasing)   // the change's end
/// AsymmetricFence.light()
/// if hasRetiredListsNow { releaseRetiredLists() }
/// ```
///
/// Where the kernel offers no such barrier, and for a storage made before
/// the process could use it (``isReady``), both sides make sequentially
/// consistent accesses instead: each storage decides once, when it is
/// made, so its two sides always agree.
@usableFromInline
enum AsymmetricFence {
  /// Whether ``heavy()`` works in this process yet. Registering for it can
  /// block for milliseconds, so the first ask starts it on a thread of its
  /// own and answers `false` until it is done.
  static var isReady: Bool { kvoHeavyFenceIsReady() }

  /// The frequent side: keeps the compiler from moving a load above an
  /// earlier store. The processor may still do it, which ``heavy()`` on
  /// the other thread makes harmless.
  @inlinable @inline(__always)
  static func light() {
    Builtin.fence_seqcst_singlethread()
  }

  /// The rare side: a full barrier on every running thread of the process.
  /// The kernel refused it once registered only if the process broke it
  /// (the call has no other failure): that would reopen the window.
  static func heavy() {
    SchedulePoint.reach(.atomic)
    precondition(kvoHeavyFence(), "KeyValueObserving: membarrier failed after it was registered")
  }
}
