// The points where a test's schedule explorer decides which thread runs
// next: every atomic operation (AtomicPrimitives.swift), each wait of a
// thread for another (a lock held elsewhere, an ending observation), and
// a few reads that must be safe against another thread's write. Debug
// builds only: a release build compiles every point out, so the
// instructions counted in Benchmarks are the same with or without them.
//
// The explorer is in the tests (Tests/KeyValueObservingTests/Scheduling):
// it installs one hook for the process, and gives each thread it runs a
// context. A thread without one returns from a point after one
// thread-local load (in the C shims, like the runtime's other
// thread-local slots).

#if DEBUG
  @_extern(c, "kvo_schedule_point")
  @usableFromInline
  func kvo_schedule_point(_ kind: UInt8)

  @_extern(c, "kvo_set_schedule_hook")
  private func kvo_set_schedule_hook(_ hook: (@convention(c) (UnsafeMutableRawPointer, UInt8) -> Void)?)

  @_extern(c, "kvo_set_schedule_context")
  private func kvo_set_schedule_context(_ context: UnsafeMutableRawPointer?)

  @_extern(c, "kvo_schedule_context")
  private func kvo_schedule_context() -> UnsafeMutableRawPointer?
#endif

/// What a thread does at a schedule point.
@usableFromInline
package enum SchedulePoint: UInt8 {
  /// An atomic operation that writes (a store, an exchange, a
  /// compare-and-swap, an add), about to run: it may free a thread that
  /// waits.
  case atomic = 0
  /// An atomic load, about to run.
  case atomicLoad = 3
  /// A wait for another thread (a lock it holds, an end it is making):
  /// this thread cannot go on until another one moves.
  case waiting = 1
  /// A read of memory another thread may write at the same time, which
  /// the runtime makes safe in some way of its own.
  case sharedRead = 2

  /// Reaches this point: in a debug build, the explorer running this
  /// thread, if one does, may run other threads first.
  @_transparent @usableFromInline
  package static func reach(_ point: SchedulePoint) {
    #if DEBUG
      kvo_schedule_point(point.rawValue)
    #endif
  }

  /// Whether a schedule explorer can run the runtime's threads: in debug
  /// builds, where the points are compiled in, and where the lock waits
  /// at them (not on Darwin, whose `os_unfair_lock` blocks in the kernel,
  /// nor on Windows, which has no explorer).
  package static var areCompiledIn: Bool {
    #if DEBUG && !canImport(Darwin) && !os(Windows)
      true
    #else
      false
    #endif
  }

  /// Whether an explorer runs the calling thread: then a wait must be
  /// made at schedule points, not by blocking (see ``Latch``).
  @usableFromInline
  static var isExploring: Bool {
    #if DEBUG
      kvo_schedule_context() != nil
    #else
      false
    #endif
  }

  /// Installs the explorer's hook, for every thread that has a context.
  /// Called once per process; a debug build only.
  package static func install(_ hook: @escaping @convention(c) (UnsafeMutableRawPointer, UInt8) -> Void) {
    #if DEBUG
      kvo_set_schedule_hook(hook)
    #endif
  }

  /// Gives the calling thread the context its points hand the hook, or
  /// takes it away (`nil`).
  package static func setThreadContext(_ context: UnsafeMutableRawPointer?) {
    #if DEBUG
      kvo_set_schedule_context(context)
    #endif
  }
}
