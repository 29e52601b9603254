// The target is a header for the Swift runtime function it declares; C
// targets need one source file.
#include "KeyValueObservingShims.h"
