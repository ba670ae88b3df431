#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A step's fixed cost: piles of 1, 7 and 30 items (ITEMS) at 1 worker on Dynamics (at each SIMD level of
# LEVELS, "automatic avx2") and on its peers (Box2D 3.1 through pyb2d3, and pymunk, from Benchmarks/peers.py),
# alternating engines within each of ROUNDS rounds (5), STEPS timed steps each (3000). One JSON line per run
# with the round added; each engine's own per-step median, its call from Swift or Python included.
#   Benchmarks/compare-tiny.sh > Benchmarks/results/<machine>/tiny-worlds.jsonl
set -euo pipefail
source "$(dirname "$0")/peer-env.sh"
read -r -a itemCounts <<< "${ITEMS:-1 7 30}"
read -r -a levels <<< "${LEVELS:-automatic avx2}"
steps=${STEPS:-3000}
tag() { python3 -c 'import json, sys
for line in sys.stdin:
    d = json.loads(line); d["round"] = int(sys.argv[1]); print(json.dumps(d))' "$1"; }
for round in $(seq 1 "${ROUNDS:-5}"); do
	for items in "${itemCounts[@]}"; do
		for level in "${levels[@]}"; do
			"$bin" bench --scene pile --items "$items" --steps "$steps" --workers 1 --simd "$level" --json --quiet | tag "$round"
		done
		for engine in box2d pymunk; do
			"$python" Benchmarks/peers.py --engine "$engine" --scene pile --items "$items" --steps "$steps" --workers 1 | tag "$round"
		done
	done
done
