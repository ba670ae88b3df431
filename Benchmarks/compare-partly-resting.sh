#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A world mostly at rest: Benchmarks/partly-resting.yaml, a pile of 2 500 boxes that rests by about 12 s
# beside a ball that bounces for good. For 1 and 2 workers, three rounds: the median step while the pile
# is awake (a 4 s run), and the median step of a 60 s run, four fifths of whose steps have the pile at rest
# (so its median is such a step's). One JSON line per run. (The wall time of a 60 s run less a 20 s one,
# used before, cannot tell steps of a few microseconds from the noise of starting a process.) Given dynamics binaries (builds of other commits),
# it alternates them within each round instead of using this checkout's release build.
# Then many items moving beside a resting pile: the median step of 6 s of movers-beside-rest.yaml (1 000
# bouncing balls beside 10 000 resting boxes) and of movers-alone.yaml (the balls alone), alternating.
#   Benchmarks/compare-partly-resting.sh [BINARY ...] > Benchmarks/results/<machine>/partly-resting.jsonl
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source Benchmarks/dynamics-binaries.sh
scene=Benchmarks/partly-resting.yaml
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for round in 1 2 3; do
	for w in 1 2; do for bin in "${bins[@]}"; do
		for s in 4 20 60; do
			"$bin" simulate "$scene" --seconds "$s" --workers "$w" --quiet --summary "$out/$s.json"
		done
		python3 - "$out" "$w" "$round" "$("$bin" --version)" <<'PY'
import json, sys
out, workers, rnd, version = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
run = {s: json.load(open(f"{out}/{s}.json")) for s in (4, 20, 60)}
print(json.dumps({"scene": "partly-resting", "version": version, "round": rnd, "workers": workers,
                  "awake_ms_per_step_median": run[4]["ms_per_step_median"],
                  "resting_ms_per_step_median": run[60]["ms_per_step_median"],
                  "awake_items_at_20s": run[20]["awake_items"], "awake_items_at_60s": run[60]["awake_items"],
                  "items": run[60]["items"], "state_hash_60s": run[60]["state_hash"], "simd": run[60]["simd"]}))
PY
	done; done
done
for round in 1 2 3; do
	for w in 1 2; do for bin in "${bins[@]}"; do for scene in movers-beside-rest movers-alone; do
		"$bin" simulate "Benchmarks/$scene.yaml" --seconds 6 --workers "$w" --quiet --summary "$out/m.json"
		python3 - "$out/m.json" "$w" "$round" "$("$bin" --version)" <<'PY'
import json, sys
path, workers, rnd, version = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
r = json.load(open(path))
print(json.dumps({"scene": r["scene"], "version": version, "round": rnd, "workers": workers,
                  "ms_per_step_median": r["ms_per_step_median"], "items": r["items"],
                  "awake_items": r["awake_items"], "state_hash": r["state_hash"], "simd": r["simd"]}))
PY
	done; done; done
done
