#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The built-in `chain` scene (pinned links released horizontally) at 100 and 1 000 links, 1 and 2 workers:
# five rounds alternating the given dynamics binaries (builds of the commits to compare), 300 timed steps a
# run, one JSON line per run with the binary's label (its position in the arguments, or LABELS).
#   Benchmarks/compare-chain.sh OLD_BINARY NEW_BINARY > Benchmarks/results/<machine>/chain-projection.jsonl
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 BINARY [BINARY ...]" >&2; exit 64; }
read -r -a labels <<< "${LABELS:-}"
for round in 1 2 3 4 5; do
	for workers in 1 2; do for links in 100 1000; do
		i=0
		for bin in "$@"; do
			label=${labels[$i]:-$i}
			"$bin" bench --scene chain --items "$links" --steps 300 --workers "$workers" --json 2>/dev/null |
				python3 -c '
import json, sys
d = json.loads(sys.stdin.readline())
print(json.dumps({"build": sys.argv[1], "round": int(sys.argv[2]), "scene": "chain", "items": d["items"],
                  "workers": d["workers"], "steps": 300, "ms_per_step_median": round(d["ms_per_step_median"], 4),
                  "ms_per_step_mean": round(d["ms_per_step_mean"], 4), "cpu_model": d["cpu_model"], "simd": d.get("simd")}))' "$label" "$round"
			i=$((i + 1))
		done
	done; done
done
