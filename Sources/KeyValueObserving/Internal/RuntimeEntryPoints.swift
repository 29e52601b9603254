/// The functions the runtime calls that the standard library does not
/// offer, all defined by the `KeyValueObservingShims` target with the Swift
/// calling convention: four of the Swift runtime's own entry points, the
/// concurrency runtime's current task, and the per-thread slots. The
/// header says what each is for.
///
/// Declared here by their symbol names, not imported from a C module: a
/// module that imports a C module makes every client that loads it find
/// that C module too, and a module interface's verification (Xcode's "Build
/// Libraries for Distribution"), CocoaPods and other build systems do not
/// find a package's C targets. The Swift runtime's own symbols cannot be
/// named this way (the compiler reserves them), so the shims wrap them.

@_silgen_name("kvo_is_deallocating")
func kvoIsDeallocating(_ object: UnsafeMutableRawPointer) -> Bool

@_silgen_name("kvo_unowned_retain")
func kvoUnownedRetain(_ object: UnsafeMutableRawPointer)

@_silgen_name("kvo_unowned_release")
func kvoUnownedRelease(_ object: UnsafeMutableRawPointer)

@_silgen_name("kvo_try_retain")
func kvoTryRetain(_ object: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?

@_silgen_name("kvo_current_task")
func kvoCurrentTask() -> UnsafeRawPointer?

#if !os(Windows)
  @_silgen_name("kvo_thread_slot")
  func kvoThreadSlot(_ slot: Int) -> UnsafeMutableRawPointer?

  @_silgen_name("kvo_set_thread_slot")
  func kvoSetThreadSlot(_ slot: Int, _ value: UnsafeMutableRawPointer?)
#endif

@_silgen_name("kvo_thread_slot_count")
func kvoThreadSlotCount() -> Int
