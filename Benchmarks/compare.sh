#!/usr/bin/env bash
# Runs every benchmark suite once and prints one table: each of our rows next
# to its floor or anchor, the ratio, its budget (README.md, "Budgets"), and
# whether the budget is met. Usage, from this folder:
#
#   ./compare.sh                 # build in release, run, print the table
#   ./compare.sh results.json    # print the table for an earlier run's JSON
#
# The raw results (package-benchmark's JMH export) are kept in
# .benchmarks-results.json next to this script. When count-instructions.sh
# has written .instructions.tsv, the table shows those counts too.
set -euo pipefail
cd "$(dirname "$0")"

results=${1:-}
if [ -z "$results" ]; then
  results=.benchmarks-results.json
  raw=$(mktemp)
  trap 'rm -f "$raw"' EXIT
  # Each floor runs right before the rows divided by it, so that the ratios
  # compare measurements taken close together. One suite per call: with all
  # six in one call, swift-package kept busy for over half an hour after the
  # benchmarks had run, with nothing written (twice, on 2026-11-24); one
  # call per suite takes about two minutes in all.
  arrays=()
  for suite in Floors Ours Anchors Scaling Memory Paired; do
    swift package benchmark --target "$suite" --format jmh --path stdout --no-progress > "$raw"
    # The JMH export is the one line of the output that is a JSON array;
    # the rest is package-benchmark's progress, shown here.
    grep -vE '^\[\{' "$raw" >&2 || true
    arrays+=("$(mktemp)")
    grep -E '^\[\{' "$raw" > "${arrays[-1]}"
  done
  # The heap's own counts, from a process without the malloc interposer.
  arrays+=("$(mktemp)")
  swift run -c release HeapProbe > "${arrays[-1]}"
  # One JSON array of every suite's rows.
  python3 -c 'import json, sys; json.dump([row for path in sys.argv[1:] for row in json.load(open(path))], sys.stdout)' \
    "${arrays[@]}" > "$results"
  rm -f "${arrays[@]}"
fi
python3 compare.py "$results"
