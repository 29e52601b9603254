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

#endif
