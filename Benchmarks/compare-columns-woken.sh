#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Resting islands woken one after another: Benchmarks/columns-woken.yaml, 400 columns of six boxes that settle
# and rest, then are woken one by one by 80 falling balls (each settles and rests again). Every rest and wake
# is a step whose contact merge sorts; how much of the resting world such a step visits is what this measures.
# For 1 and 2 workers, ROUNDS rounds (default 5) of an 8 s run, alternating the given dynamics binaries (builds
# of other commits) within each round, or this checkout's release build alone. One JSON line per run: the mean
# and median step (the timed steps only, not the scene's loading) and the state hash.
#   Benchmarks/compare-columns-woken.sh [BINARY ...] > Benchmarks/results/<machine>/columns-woken.jsonl
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source Benchmarks/dynamics-binaries.sh
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for round in $(seq 1 "${ROUNDS:-5}"); do
	for w in 1 2; do for bin in "${bins[@]}"; do
		"$bin" simulate Benchmarks/columns-woken.yaml --seconds 8 --workers "$w" --quiet --summary "$out/s.json"
		python3 - "$out/s.json" "$w" "$round" "$bin" "$("$bin" --version)" <<'PY'
import json, sys
path, workers, rnd, binary, version = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
r = json.load(open(path))
print(json.dumps({"scene": r["scene"], "binary": binary, "version": version, "round": rnd, "workers": workers,
                  "ms_per_step_mean": 1000 / r["steps_per_second"], "ms_per_step_median": r["ms_per_step_median"],
                  "steps": r["steps"], "items": r["items"], "awake_items": r["awake_items"],
                  "state_hash": r["state_hash"], "simd": r["simd"]}))
PY
	done; done
done
