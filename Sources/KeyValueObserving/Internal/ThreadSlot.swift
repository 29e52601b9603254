/// The per-thread pointers the runtime keeps, one slot each: as many cases
/// as the shims define slots (`KVO_THREAD_SLOT_COUNT`), which a test
/// checks, not the slots' initialiser: a check that calls into C there
/// would make each slot's global lazily initialised, a `swift_once` on
/// every access.
enum ThreadSlot: Int32, CaseIterable {
  /// The innermost tracking scope (`Derived/AccessTracking.swift`).
  case trackingScope
  /// The innermost change open on the thread (`Changes/ChangeNesting.swift`).
  case innermostChange
  /// The innermost callback a gate is running (`Controller/CallbackGate.swift`).
  case runningCallback
  /// The thread's identity, given on first use (`currentThreadIdentity()`).
  case threadIdentity
  /// The innermost tracked closure running on the thread (`Tracking/TrackedObservationBase.swift`).
  case runningClosure
  /// The innermost write a binding makes on the thread (`Bindings/BindingWriteChain.swift`).
  case bindingWrite
  /// The innermost to-many change watching for folds (`Changes/FoldWatch.swift`).
  case foldWatches
  /// The ticket of the scheduled job running on the thread (`Internal/Scheduling/PendingJobs.swift`).
  case runningJob
}
