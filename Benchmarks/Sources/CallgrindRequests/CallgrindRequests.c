#include "CallgrindRequests.h"

// valgrind's own header: the requests are inline assembly that valgrind
// recognises and a plain CPU runs as no-ops.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#else
#define HAVE_CALLGRIND 0
#endif

void callgrind_zero_stats(void) {
#if HAVE_CALLGRIND
  CALLGRIND_ZERO_STATS;
#endif
}

void callgrind_dump_stats(void) {
#if HAVE_CALLGRIND
  CALLGRIND_DUMP_STATS;
#endif
}

int callgrind_requests_available(void) { return HAVE_CALLGRIND; }

int callgrind_running_on_valgrind(void) {
#if HAVE_CALLGRIND
  return RUNNING_ON_VALGRIND ? 1 : 0;
#else
  return 0;
#endif
}
