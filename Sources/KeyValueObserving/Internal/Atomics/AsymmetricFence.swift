public import Builtin

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
/// Where the kernel offers no such barrier (``isAvailable`` is `false`),
/// both sides make sequentially consistent accesses instead.
@usableFromInline
enum AsymmetricFence {
  /// Whether ``heavy()`` works in this process: decided once, before any
  /// observation storage exists, which reads it when it is made.
  static let isAvailable: Bool = kvoRegisterHeavyFence()

  /// The frequent side: keeps the compiler from moving a load above an
  /// earlier store. The processor may still do it, which ``heavy()`` on
  /// the other thread makes harmless.
  @inlinable @inline(__always)
  static func light() {
    Builtin.fence_seqcst_singlethread()
  }

  /// The rare side: a full barrier on every running thread of the process.
  static func heavy() {
    SchedulePoint.reach(.atomic)
    kvoHeavyFence()
  }
}
