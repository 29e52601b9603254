#ifndef KEY_VALUE_OBSERVING_SHIMS_H
#define KEY_VALUE_OBSERVING_SHIMS_H

// What the runtime module needs from C, as functions with the Swift calling
// convention. The runtime declares them itself (`Internal/RuntimeEntryPoints.swift`)
// and imports no C module: a C module a Swift module imports must be found
// by every client that loads it, which a module interface's verification,
// CocoaPods and other build systems do not do. This target is only linked.

#include <stdbool.h>

#if __has_attribute(swiftcall)
#define KVO_SWIFTCALL __attribute__((swiftcall))
#else
#define KVO_SWIFTCALL
#endif

/// The Swift runtime's answer to "is this object running its deinit?"
/// (`swift_isDeallocating`, exported by the runtime on every platform, as
/// declared in its HeapObject.h). A write made in an object's deinit must
/// notify nobody: handing the object to handlers would let them retain it
/// while it is being freed. A weak reference formed to tell costs about 70
/// ns; this is one load.
bool kvo_is_deallocating(void *object) KVO_SWIFTCALL;

/// The runtime's unowned reference count (what `unowned` holds), and a
/// strong retain that fails on an object being deinitialised
/// (`swift_unownedRetain`, `swift_unownedRelease`, `swift_tryRetain`).
/// Together they give what `weak` gives — the object while it lives,
/// nothing after — without the side table a weak reference gives its object
/// for good, which sends every later retain and release of that object
/// through the runtime's slow path. Only for native Swift objects.
void kvo_unowned_retain(void *object) KVO_SWIFTCALL;
void kvo_unowned_release(void *object) KVO_SWIFTCALL;
void *kvo_try_retain(void *object) KVO_SWIFTCALL;

/// The task running on this thread, or null outside any task: the
/// concurrency runtime's own answer (`swift_task_getCurrent`). The standard
/// library's `withUnsafeCurrentTask` gives the same task through a generic
/// closure and a resilient optional, several hundred instructions a call,
/// on paths that ask for it twice per change.
const void *kvo_current_task(void) KVO_SWIFTCALL;

/// The number of per-thread slots (`ThreadSlot` in ThreadLocal.swift).
#define KVO_THREAD_SLOT_COUNT 4

#if !defined(_WIN32)
/// The runtime's per-thread pointers, one per `ThreadSlot`: C11
/// thread-local storage, a few instructions per access where the platform's
/// keyed storage (`pthread_getspecific`) costs more. None holds a reference
/// that a thread's end must release.
void *kvo_thread_slot(long slot) KVO_SWIFTCALL;
void kvo_set_thread_slot(long slot, void *value) KVO_SWIFTCALL;
#endif

/// `KVO_THREAD_SLOT_COUNT`, for the Swift side's check.
long kvo_thread_slot_count(void) KVO_SWIFTCALL;

#endif
