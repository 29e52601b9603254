@_implementationOnly import KeyValueObservingShims

// The functions the runtime calls that the standard library does not
// offer, from the `KeyValueObservingShims` C target: four of the Swift
// runtime's own entry points, the concurrency runtime's current task, and
// the per-thread slots (whose header says what each is for). This is the
// only file that imports the target.
//
// Why `@_implementationOnly`, which the compiler warns about in a module
// built without library evolution: a module's clients load every module it
// imports, internal imports included, unless the module is built for
// library evolution; a client building its own module interface
// (Xcode's "Build Libraries for Distribution") and several build systems
// then fail with "missing required module 'KeyValueObservingShims'". An
// implementation-only import is not recorded for clients. The warning is
// about a client laying out a type whose layout needs the hidden module:
// no type here stores a C type, so nothing of that layout reaches a
// client. Declaring the functions by symbol name instead (`@_silgen_name`)
// would make each thread-slot access a call: 17% more instructions on the
// change of a computed key (measured).

/// Whether `object` (a native Swift object) is running its `deinit`.
@inline(__always)
func kvoIsDeallocating(_ object: UnsafeMutableRawPointer) -> Bool {
  swift_isDeallocating(object)
}

/// Takes an unowned reference to `object`, as `unowned` does.
@inline(__always)
func kvoUnownedRetain(_ object: UnsafeMutableRawPointer) {
  swift_unownedRetain(object)
}

@inline(__always)
func kvoUnownedRelease(_ object: UnsafeMutableRawPointer) {
  swift_unownedRelease(object)
}

/// A strong reference to `object`, unless its deinit began.
@inline(__always)
func kvoTryRetain(_ object: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
  swift_tryRetain(object)
}

/// The task running on this thread, or `nil` outside any task.
@inline(__always)
func kvoCurrentTask() -> UnsafeRawPointer? {
  kvo_current_task()
}

#if !os(Windows)
  /// The current thread's pointer in `slot`.
  @inline(__always)
  func kvoThreadSlot(_ slot: Int) -> UnsafeMutableRawPointer? {
    kvo_thread_slot(Int32(truncatingIfNeeded: slot))
  }

  @inline(__always)
  func kvoSetThreadSlot(_ slot: Int, _ value: UnsafeMutableRawPointer?) {
    kvo_set_thread_slot(Int32(truncatingIfNeeded: slot), value)
  }
#endif

/// How many per-thread slots the shims define.
@inline(__always)
func kvoThreadSlotCount() -> Int {
  Int(KVO_THREAD_SLOT_COUNT)
}
