#!/usr/bin/env bash
# Builds the fuzz target with libFuzzer and the address sanitizer and runs it
# on the seed corpus. Usage, from this folder:
#
#   ./run.sh              # a long run: until interrupted
#   ./run.sh -runs=20000  # any libFuzzer options; CI runs a short one
#
# New inputs libFuzzer finds interesting go to .corpus/ (not committed); a
# crashing input is written to crash-* and the run fails.
set -euo pipefail
cd "$(dirname "$0")"
swift build --product FuzzKeyPaths --scratch-path .build-fuzz \
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp
mkdir -p .corpus
.build-fuzz/debug/FuzzKeyPaths .corpus corpus "$@"
