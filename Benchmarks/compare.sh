#!/usr/bin/env bash
# Runs every benchmark suite once and prints one table: each of our rows next
# to its floor or anchor, the ratio, the budget from DESIGN.md, and whether the
# budget is met. Usage, from this folder:
#
#   ./compare.sh                 # build in release, run, print the table
#   ./compare.sh results.json    # print the table for an earlier run's JSON
#
# The raw results (package-benchmark's JMH export) are kept in
# .benchmarks-results.json next to this script.
set -euo pipefail
cd "$(dirname "$0")"

results=${1:-}
if [ -z "$results" ]; then
  results=.benchmarks-results.json
  raw=$(mktemp)
  trap 'rm -f "$raw"' EXIT
  # Each floor runs right before the rows divided by it, so that the ratios
  # compare measurements taken close together.
  swift package benchmark --target Floors --target Ours --target Anchors --target Scaling --target Memory --target Paired \
    --format jmh --path stdout --no-progress > "$raw"
  # The JMH export is the one line of the output that is a JSON array; the
  # rest is package-benchmark's progress, shown here.
  grep -vE '^\[\{' "$raw" >&2 || true
  grep -E '^\[\{' "$raw" > "$results"
fi
python3 compare.py "$results"
