#ifndef KEY_VALUE_OBSERVING_SHIMS_H
#define KEY_VALUE_OBSERVING_SHIMS_H

#include <stdbool.h>

/// The Swift runtime's own answer to "is this object running its deinit?",
/// exported by the runtime on every platform (declared in the runtime's
/// HeapObject.h). A write made in an object's deinit must notify nobody:
/// handing the object to handlers would let them retain it while it is
/// being freed. A weak reference formed to tell costs about 70 ns; this is
/// one load.
bool swift_isDeallocating(void *object);

/// The Swift runtime's unowned reference count (what `unowned` holds),
/// and a strong retain that fails on an object being deinitialised,
/// declared as in the runtime's HeapObject.h and exported by it on every
/// platform. Together they give what `weak` gives — the object while it
/// lives, nothing after — without the side table a weak reference gives
/// its object for good, which sends every later retain and release of that
/// object through the runtime's slow path. Only for native Swift objects.
void swift_unownedRetain(void *object);
void swift_unownedRelease(void *object);
void *swift_tryRetain(void *object);

/// The task running on this thread, or null outside any task: the
/// concurrency runtime's own answer, exported by it on every platform and
/// declared with the Swift calling convention as in its Task.h. The
/// standard library's `withUnsafeCurrentTask` gives the same task through a
/// generic closure and a resilient optional, several hundred instructions
/// a call, on paths that ask for it twice per change.
void *swift_task_getCurrent(void) __attribute__((swiftcall));

static inline const void *kvo_current_task(void) {
  return swift_task_getCurrent();
}

#if !defined(_WIN32)
/// The runtime's per-thread pointers, one per `ThreadSlot` (in
/// ThreadLocal.swift): C11 thread-local storage, a few instructions per
/// access where the platform's keyed storage (`pthread_getspecific`) costs
/// a call. None holds a reference that a thread's end must release.
#define KVO_THREAD_SLOT_COUNT 7
extern _Thread_local void *kvo_thread_slots[KVO_THREAD_SLOT_COUNT];

static inline void *kvo_thread_slot(int slot) {
  return kvo_thread_slots[slot];
}

static inline void kvo_set_thread_slot(int slot, void *value) {
  kvo_thread_slots[slot] = value;
}
#endif

#endif
