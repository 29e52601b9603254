#ifndef CALLGRIND_REQUESTS_H
#define CALLGRIND_REQUESTS_H

/// Callgrind's client requests, for count-instructions.sh: each is a few
/// instructions that do nothing outside valgrind, and nothing where
/// valgrind's headers were not installed when this was built (then
/// `callgrind_requests_available` is 0).

/// Sets every thread's counts to zero.
void callgrind_zero_stats(void);

/// Writes the counts since the last zero to a numbered part of the output
/// file (`<file>.1` for the first), and zeroes them.
void callgrind_dump_stats(void);

/// 1 when the valgrind headers were found at build time.
int callgrind_requests_available(void);

/// 1 when running under valgrind.
int callgrind_running_on_valgrind(void);

#endif
