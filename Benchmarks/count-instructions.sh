#!/usr/bin/env bash
# Counts the instructions per operation of every time row of the Floors,
# Ours and Anchors suites, and of both sides of every Paired row, with
# valgrind's callgrind, and writes them where compare.py reads them. Usage,
# from this folder:
#
#   ./count-instructions.sh                  # build in release, count every row
#   ./count-instructions.sh 'bound write'    # only the rows whose name matches
#   ./count-instructions.sh --no-build --jobs 1 --out FILE [REGEX]
#
# Each count runs a suite's own executable, with the row named in its
# environment (Sources/BenchmarkModels/InstructionCounting.swift): the row's
# own code, counted between callgrind's zero and dump requests, twice —
#
#   a time row:   its closure with 1 and with 1,000 operations (the two
#                 scaling factors a row can take), (Ir₁₀₀₀ − Ir₁) / 999;
#   a paired row: each side with the row's N operations and with 2N,
#                 (Ir₂N − Ir_N) / N
#
# so that the setup, the requests and the loop's entry and exit cancel out.
# The counts do not depend on the machine's load: run it beside anything.
#
# Output: a TSV (default .instructions.tsv, not checked in) of row, side
# (empty, ours or reference), instructions per operation, the two operation
# counts and the two totals. With a REGEX, the rows counted replace their
# lines in an existing file and the others are kept.
set -euo pipefail
cd "$(dirname "$0")"
self="$PWD/$(basename "$0")"

# One count, run by xargs below: suite binary, row, side, operations,
# output file.
if [ "${1:-}" = "--one" ]; then
  binary=$2 row=$3 side=$4 operations=$5 out=$6
  # Hashing seeded alike in every run, so that two runs differ only by the
  # operations counted.
  if ! SWIFT_DETERMINISTIC_HASHING=1 KVO_INSTRUCTIONS_ROW="$row" KVO_INSTRUCTIONS_SIDE="$side" \
    KVO_INSTRUCTIONS_OPERATIONS="$operations" LD_PRELOAD="$(dirname "$binary")/sigsuspend.so" \
    valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" > "$out.log" 2>&1; then
    echo "count-instructions: failed: $row ${side:+($side) }× $operations:" >&2
    tail -n 5 "$out.log" >&2
    exit 0
  fi
  # The dump request's part: its totals are the counted region alone (its
  # summary line is the whole process up to the dump).
  if [ ! -f "$out.1" ]; then
    echo "count-instructions: no dump for $row ${side:+($side) }× $operations:" >&2
    tail -n 5 "$out.log" >&2
    exit 0
  fi
  total=$(awk '/^totals:/ { print $2; exit }' "$out.1")
  printf '%s\t%s\t%s\t%s\n' "$row" "$side" "$operations" "$total" > "$out.count"
  exit 0
fi

build=1
jobs=2
out=.instructions.tsv
filter=
while [ $# -gt 0 ]; do
  case $1 in
    --no-build) build=0 ;;
    --jobs) jobs=$2; shift ;;
    --out) out=$2; shift ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) filter=$1 ;;
  esac
  shift
done

command -v valgrind > /dev/null || { echo "count-instructions: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
if [ "$build" = 1 ]; then
  swift build -c release
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# valgrind stops at the debug information of the shim target's C11
# thread-locals ("Possibly corrupted debuginfo file"), so each suite is
# counted from a copy without it, the symbols kept; so are the build's
# shared libraries (the malloc interposer), found through LD_LIBRARY_PATH.
cp .build/release/*.so "$work/"
strip -g "$work"/*.so
export LD_LIBRARY_PATH="$work${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# valgrind 3.19 writes into the signal mask a process hands to
# sigsuspend(), and libdispatch hands it a constant: the main thread of a
# suite (async main: dispatch_main() parks it in sigsuspend) crashes valgrind
# ("Valgrind received a signal 11"). A sigsuspend that hands the kernel a
# copy on its own stack, preloaded, avoids it.
cat > "$work/sigsuspend.c" << 'SOURCE'
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
  sigset_t copy = *mask;
  return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
SOURCE
cc -O2 -shared -fPIC "$work/sigsuspend.c" -o "$work/sigsuspend.so"

# The jobs: one line per run, fields separated by the unit separator
# (binary, row, side, operations, output file).
: > "$work/jobs"
index=0
for suite in Floors Ours Anchors Paired; do
  cp ".build/release/$suite" "$work/$suite"
  strip -g "$work/$suite"
  KVO_INSTRUCTIONS_LIST=1 "$work/$suite" > "$work/$suite.rows"
  [ -s "$work/$suite.rows" ] || { echo "count-instructions: $suite listed no rows" >&2; exit 1; }
  while IFS=$'\t' read -r kind operations row; do
    if [ -n "$filter" ] && ! grep -qE -- "$filter" <<< "$row"; then continue; fi
    case $kind in
      time) runs=("||1" "||$operations") ;;
      paired) runs=("|ours|$operations" "|ours|$((2 * operations))"
                    "|reference|$operations" "|reference|$((2 * operations))") ;;
      *) continue ;;
    esac
    for run in "${runs[@]}"; do
      IFS='|' read -r _ side count <<< "$run"
      index=$((index + 1))
      printf '%s\x1f%s\x1f%s\x1f%s\x1f%s\n' "$work/$suite" "$row" "$side" "$count" "$work/run$index" >> "$work/jobs"
    done
  done < "$work/$suite.rows"
done

echo "count-instructions: $index runs under callgrind, $jobs at a time" >&2
tr '\n' '\0' < "$work/jobs" | xargs -0 -P "$jobs" -I{} bash -c '
  IFS=$'"'"'\x1f'"'"' read -r binary row side operations file <<< "$1"
  "$0" --one "$binary" "$row" "$side" "$operations" "$file"
' "$self" {}

# Pair each row's two runs: per operation, the difference of the totals
# over the difference of the operations.
cat "$work"/run*.count 2>/dev/null | sort -t $'\t' -k1,1 -k2,2 -k3,3n | awk -F '\t' -v OFS='\t' '
  { key = $1 FS $2 }
  key == last { printf "%s\t%s\t%.1f\t%s\t%s\t%s\t%s\n", $1, $2, ($4 - total) / ($3 - operations), operations, $3, total, $4 }
  { last = key; operations = $3; total = $4 }
' > "$work/new.tsv"

header=$'row\tside\tinstructions per operation\toperations\toperations, second run\ttotal\ttotal, second run'
{
  echo "$header"
  if [ -n "$filter" ] && [ -f "$out" ]; then
    # Keep the rows not counted this time.
    tail -n +2 "$out" | awk -F '\t' 'NR == FNR { counted[$1 FS $2] = 1; next } !(($1 FS $2) in counted)' "$work/new.tsv" -
  fi
  cat "$work/new.tsv"
} > "$work/all.tsv"
mv "$work/all.tsv" "$out"
echo "count-instructions: $(wc -l < "$work/new.tsv") counts written to $out" >&2
