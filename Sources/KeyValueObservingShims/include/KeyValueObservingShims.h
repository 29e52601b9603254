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

#endif
