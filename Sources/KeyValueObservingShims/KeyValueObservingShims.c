// The target is mostly a header for the Swift runtime functions it
// declares; this file defines the per-thread slots.
#include "KeyValueObservingShims.h"

#if !defined(_WIN32)
_Thread_local void *kvo_thread_slots[KVO_THREAD_SLOT_COUNT];
#endif
