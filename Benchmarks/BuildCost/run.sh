#!/usr/bin/env bash
# The build-cost benchmark: see buildcost.py for what it measures.
#   Benchmarks/BuildCost/run.sh [--models N] [--rounds R]
set -euo pipefail
exec python3 "$(dirname "$0")/buildcost.py" "$@"
