#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The built-in `chain` scene (pinned links released horizontally) at 100 and 1 000 links, 1 and 2 workers:
# five rounds alternating the given dynamics binaries (builds of the commits to compare), 300 timed steps a
# run, one JSON line per run with the binary's label (its position in the arguments, or LABELS). The rounds
# are Benchmarks/compare-builds.sh's.
#   Benchmarks/compare-chain.sh OLD_BINARY NEW_BINARY > Benchmarks/results/<machine>/chain-projection.jsonl
set -euo pipefail
SCENES="chain:100 chain:1000" ROUNDS=5 STEPS=300 exec "$(dirname "$0")/compare-builds.sh" "$@"
