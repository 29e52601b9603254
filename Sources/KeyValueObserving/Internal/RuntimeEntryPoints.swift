// The functions the runtime calls that the standard library does not
// offer, defined in the `KeyValueObservingShims` C target (whose header
// says what each is for): four of the Swift runtime's own entry points, the
// concurrency runtime's current task, the per-thread slots, what a lock
// word waits with (a spin-loop hint, and on Linux the futex calls it parks
// with), and the heavy side of an asymmetric fence.
//
// Declared here by their C names (`@_extern(c)`), not imported: a module
// built without library evolution records every module it imports,
// internal imports included, and its clients load them all. A client that
// checks its own module interface (SwiftPM and Xcode do, for a module
// built for distribution) then fails with "missing required module
// 'KeyValueObservingShims'", since that check is not told where a C
// target's module map is. `@_implementationOnly`, which hides the import,
// makes the compiler warn in every build of a module without library
// evolution. Declared by name, the C target is linked and never imported.
// Each access is a call: two instructions more than the inlined header's.

@_extern(c, "kvo_is_deallocating") @_effects(readonly)
private func kvo_is_deallocating(_ object: UnsafeMutableRawPointer) -> Bool

@_extern(c, "kvo_unowned_retain")
private func kvo_unowned_retain(_ object: UnsafeMutableRawPointer)

@_extern(c, "kvo_unowned_release")
private func kvo_unowned_release(_ object: UnsafeMutableRawPointer)

@_extern(c, "kvo_try_retain") @_effects(releasenone)
private func kvo_try_retain(_ object: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?

@_extern(c, "kvo_current_task") @_effects(readonly)
private func kvo_current_task() -> UnsafeRawPointer?

/// Whether `object` (a native Swift object) is running its `deinit`.
@inline(__always)
func kvoIsDeallocating(_ object: UnsafeMutableRawPointer) -> Bool {
  kvo_is_deallocating(object)
}

/// Takes an unowned reference to `object`, as `unowned` does.
@inline(__always)
func kvoUnownedRetain(_ object: UnsafeMutableRawPointer) {
  kvo_unowned_retain(object)
}

@inline(__always)
func kvoUnownedRelease(_ object: UnsafeMutableRawPointer) {
  kvo_unowned_release(object)
}

/// A strong reference to `object`, unless its deinit began.
@inline(__always)
func kvoTryRetain(_ object: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
  kvo_try_retain(object)
}

/// The task running on this thread, or `nil` outside any task.
@inline(__always)
func kvoCurrentTask() -> UnsafeRawPointer? {
  kvo_current_task()
}

#if !os(Windows)
  // No `@_effects(readonly)`: the answer depends on the thread, which is
  // no memory the optimiser sees, so two calls on either side of an
  // `await` could be merged into one that gives the other thread's
  // pointer. (`kvo_current_task` keeps it: a task is the same task on
  // both sides of a suspension.)
  @_extern(c, "kvo_thread_slot")
  private func kvo_thread_slot(_ slot: Int32) -> UnsafeMutableRawPointer?

  @_extern(c, "kvo_set_thread_slot") @_effects(releasenone)
  private func kvo_set_thread_slot(_ slot: Int32, _ value: UnsafeMutableRawPointer?)

  @_extern(c, "kvo_thread_slot_count") @_effects(readnone)
  private func kvo_thread_slot_count() -> Int32

  /// The current thread's pointer in `slot`.
  @inline(__always)
  func kvoThreadSlot(_ slot: Int) -> UnsafeMutableRawPointer? {
    kvo_thread_slot(Int32(truncatingIfNeeded: slot))
  }

  @inline(__always)
  func kvoSetThreadSlot(_ slot: Int, _ value: UnsafeMutableRawPointer?) {
    kvo_set_thread_slot(Int32(truncatingIfNeeded: slot), value)
  }

  /// How many per-thread slots the shims define.
  @inline(__always)
  func kvoThreadSlotCount() -> Int {
    Int(kvo_thread_slot_count())
  }
#endif

@_extern(c, "kvo_spin_loop_hint")
private func kvo_spin_loop_hint()

/// Tells the processor that the loop calling it waits for another thread
/// (`pause` on x86). In C: the intrinsic declared from Swift breaks the
/// thread sanitizer's build.
@inline(__always)
func kvoSpinLoopHint() {
  kvo_spin_loop_hint()
}

#if os(Linux) || os(Android)
  @_extern(c, "kvo_futex_wait")
  private func kvo_futex_wait(_ word: UnsafeRawPointer, _ expected: UInt32)

  @_extern(c, "kvo_futex_wake_one")
  private func kvo_futex_wake_one(_ word: UnsafeRawPointer)

  /// Parks the thread while the 32-bit word at `word` holds `expected`;
  /// it may return early, so the caller checks the word again.
  @inline(__always)
  func kvoFutexWait(_ word: UnsafeRawPointer, expected: UInt32) {
    kvo_futex_wait(word, expected)
  }

  /// Wakes one thread parked on `word`, if one is.
  @inline(__always)
  func kvoFutexWakeOne(_ word: UnsafeRawPointer) {
    kvo_futex_wake_one(word)
  }
#endif

@_extern(c, "kvo_heavy_fence_is_ready")
private func kvo_heavy_fence_is_ready() -> Bool

@_extern(c, "kvo_heavy_fence")
private func kvo_heavy_fence() -> Bool

/// Whether ``kvoHeavyFence()`` is usable yet (see the shim's header).
func kvoHeavyFenceIsReady() -> Bool {
  kvo_heavy_fence_is_ready()
}

/// A full barrier on every running thread of the process (see
/// ``AsymmetricFence``); returns whether the kernel made it.
func kvoHeavyFence() -> Bool {
  kvo_heavy_fence()
}
