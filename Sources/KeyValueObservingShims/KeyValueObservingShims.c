// The shims' definitions: each forwards to the Swift runtime's own entry
// point (declared as the runtime's HeapObject.h and Task.h declare them,
// and exported by the runtime on every platform), or reads and writes the
// per-thread slots.
#include "KeyValueObservingShims.h"

bool swift_isDeallocating(void *object);
void swift_unownedRetain(void *object);
void swift_unownedRelease(void *object);
void *swift_tryRetain(void *object);
void *swift_task_getCurrent(void) __attribute__((swiftcall));

bool kvo_is_deallocating(void *object) { return swift_isDeallocating(object); }

void kvo_unowned_retain(void *object) { swift_unownedRetain(object); }

void kvo_unowned_release(void *object) { swift_unownedRelease(object); }

void *kvo_try_retain(void *object) { return swift_tryRetain(object); }

const void *kvo_current_task(void) { return swift_task_getCurrent(); }

#if !defined(_WIN32)
// Initial-exec on ELF: the slots' offset from the thread pointer is fixed
// when the program loads, so an access is two loads and no call into the
// dynamic linker (the default model's `__tls_get_addr`, which makes every
// access save registers around a call). A library loaded later with
// `dlopen` takes its 56 bytes from the room the loader keeps for that.
#if defined(__ELF__)
__attribute__((tls_model("initial-exec")))
#endif
static _Thread_local void *kvo_thread_slots[KVO_THREAD_SLOT_COUNT];

void *kvo_thread_slot(int slot) { return kvo_thread_slots[slot]; }

void kvo_set_thread_slot(int slot, void *value) { kvo_thread_slots[slot] = value; }

int kvo_thread_slot_count(void) { return KVO_THREAD_SLOT_COUNT; }
#endif

// The schedule explorer's hook and each thread's context: the context
// first, so that a thread no explorer runs pays one thread-local load.
#include <stdatomic.h>

#if !defined(_WIN32)
static _Atomic(kvo_schedule_hook) kvo_schedule_hook_installed;
#if defined(__ELF__)
__attribute__((tls_model("initial-exec")))
#endif
static _Thread_local void *kvo_schedule_thread_context;

void kvo_schedule_point(unsigned char kind) {
  void *context = kvo_schedule_thread_context;
  if (context == 0) return;
  kvo_schedule_hook hook = atomic_load_explicit(&kvo_schedule_hook_installed, memory_order_acquire);
  if (hook) hook(context, kind);
}

void kvo_set_schedule_hook(kvo_schedule_hook hook) {
  atomic_store_explicit(&kvo_schedule_hook_installed, hook, memory_order_release);
}

void kvo_set_schedule_context(void *context) { kvo_schedule_thread_context = context; }

void *kvo_schedule_context(void) { return kvo_schedule_thread_context; }
#else
// No explorer on Windows: every point returns at once.
void kvo_schedule_point(unsigned char kind) { (void)kind; }
void kvo_set_schedule_hook(kvo_schedule_hook hook) { (void)hook; }
void kvo_set_schedule_context(void *context) { (void)context; }
void *kvo_schedule_context(void) { return 0; }
#endif
