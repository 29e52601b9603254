#ifndef KEY_VALUE_OBSERVING_SHIMS_H
#define KEY_VALUE_OBSERVING_SHIMS_H

#include <stdbool.h>
#include <stdint.h>

// The functions the runtime module needs that the standard library does
// not offer, defined in KeyValueObservingShims.c. The Swift module does
// not import this header: it declares each function by its C name
// (Internal/RuntimeEntryPoints.swift), so that its compiled module names
// no C module a client would then have to find (see that file). Each
// declaration here is checked against its definition by the C compiler.

/// Whether `object` (a native Swift object) is running its `deinit`: the
/// Swift runtime's own answer, one load. A write made in an object's
/// deinit must notify nobody: handing the object to handlers would let
/// them retain it while it is being freed. A weak reference formed to tell
/// costs about 70 ns.
bool kvo_is_deallocating(void *object);

/// The Swift runtime's unowned reference count (what `unowned` holds), and
/// a strong retain that fails on an object being deinitialised. Together
/// they give what `weak` gives — the object while it lives, nothing after
/// — without the side table a weak reference gives its object for good,
/// which sends every later retain and release of that object through the
/// runtime's slow path. Only for native Swift objects.
void kvo_unowned_retain(void *object);
void kvo_unowned_release(void *object);
void *kvo_try_retain(void *object);

/// The task running on this thread, or null outside any task: the
/// concurrency runtime's own answer. The standard library's
/// `withUnsafeCurrentTask` gives the same task through a generic closure
/// and a resilient optional, several hundred instructions a call, on paths
/// that ask for it twice per change.
const void *kvo_current_task(void);

#if !defined(_WIN32)
/// The runtime's per-thread pointers, one per `ThreadSlot` (in
/// ThreadLocal.swift): C11 thread-local storage, a call and two loads per
/// access, where the platform's keyed storage (`pthread_getspecific`)
/// costs a lookup. None holds a reference that a thread's end must
/// release.
#define KVO_THREAD_SLOT_COUNT 8

void *kvo_thread_slot(int slot);
void kvo_set_thread_slot(int slot, void *value);
int kvo_thread_slot_count(void);
#endif

/// The schedule points of a test's schedule explorer (debug builds of the
/// runtime call `kvo_schedule_point` at each atomic operation, lock step
/// and spin; Internal/Scheduling/SchedulePoint.swift). A thread that set
/// no context returns at once, after one thread-local load; one that did
/// hands the context and the point's kind to the hook.
typedef void (*kvo_schedule_hook)(void *context, unsigned char kind);

void kvo_schedule_point(unsigned char kind);
void kvo_set_schedule_hook(kvo_schedule_hook hook);
void kvo_set_schedule_context(void *context);
void *kvo_schedule_context(void);

/// The processor's hint for one turn of a loop that waits for another
/// thread: `pause` on x86 (which also slows the loop's reads), `yield` on
/// Arm, nothing elsewhere. A lock word's waiter calls it while it spins.
void kvo_spin_loop_hint(void);

/// Whether ``kvo_heavy_fence`` is usable in this process (Linux's
/// `membarrier` with private expedited barriers). The first call starts
/// registering on a thread of its own, which can take milliseconds, and
/// returns `false`, as every call does until it is done; `false` for good
/// elsewhere, or where the kernel refuses it.
bool kvo_heavy_fence_is_ready(void);

/// A full memory barrier on every running thread of the process: the
/// heavy side of an asymmetric fence, whose light side is a compiler
/// barrier. Only once ``kvo_heavy_fence_is_ready`` returned `true`;
/// returns whether the kernel made it.
bool kvo_heavy_fence(void);

#if defined(__linux__)
/// Parks the calling thread while the word at `word` holds `expected`,
/// until `kvo_futex_wake_one` on the same word, a signal, or a spurious
/// wake-up; returns at once if the word holds another value. The lock
/// word's contended path (LockWord.swift) waits here: private to the
/// process (`FUTEX_WAIT_PRIVATE`), no timeout.
void kvo_futex_wait(const uint32_t *word, uint32_t expected);

/// Wakes one thread parked on `word` by `kvo_futex_wait`, if any
/// (`FUTEX_WAKE_PRIVATE`). The word may be freed by then: the kernel only
/// hashes its address, and a thread it wakes by mistake checks its own
/// word again.
void kvo_futex_wake_one(const uint32_t *word);
#endif

#endif
