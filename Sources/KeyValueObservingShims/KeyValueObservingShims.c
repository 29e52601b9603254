// The Swift runtime's entry points and the per-thread slots, behind functions with the Swift calling convention
// (see the header for why nothing imports this target as a module).
#include "KeyValueObservingShims.h"

// The Swift runtime's exports, as its HeapObject.h and Task.h declare them.
bool swift_isDeallocating(void *object);
void swift_unownedRetain(void *object);
void swift_unownedRelease(void *object);
void *swift_tryRetain(void *object);
void *swift_task_getCurrent(void) KVO_SWIFTCALL;

bool kvo_is_deallocating(void *object) {
  return swift_isDeallocating(object);
}

void kvo_unowned_retain(void *object) {
  swift_unownedRetain(object);
}

void kvo_unowned_release(void *object) {
  swift_unownedRelease(object);
}

void *kvo_try_retain(void *object) {
  return swift_tryRetain(object);
}

const void *kvo_current_task(void) {
  return swift_task_getCurrent();
}

#if !defined(_WIN32)
static _Thread_local void *kvo_thread_slots[KVO_THREAD_SLOT_COUNT];

void *kvo_thread_slot(long slot) {
  return kvo_thread_slots[slot];
}

void kvo_set_thread_slot(long slot, void *value) {
  kvo_thread_slots[slot] = value;
}
#endif

long kvo_thread_slot_count(void) {
  return KVO_THREAD_SLOT_COUNT;
}
