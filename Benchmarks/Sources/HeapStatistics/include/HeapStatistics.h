#ifndef HEAP_STATISTICS_H
#define HEAP_STATISTICS_H

#include <stddef.h>

/// The bytes of the process's heap in use, allocator headers and rounding
/// included: glibc's `mallinfo2().uordblks`, Darwin's default zone's
/// `size_in_use`; 0 where neither exists.
size_t heap_bytes_in_use(void);

#endif
