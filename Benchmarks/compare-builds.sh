#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Alternates dynamics binaries (builds of the commits to compare) over built-in scenes, so a shared machine's
# drift falls on every build alike: ROUNDS rounds (5), each running every scene of SCENES ("pyramid
# many_pyramids smash"; `scene:items` sets the items) at every worker count of WORKERS ("1 2") once per
# binary, STEPS timed steps (300) on the SIMD path SIMD (automatic). One JSON line per run, labelled with the
# LABELS word at the binary's position (or the position), with the step's median and mean, the contact
# solve's median and the substeps the steps took on average. A BINARY may be a script that runs a build with
# extra flags (`exec dynamics "$@" --fixed-substeps`).
#   SIMD=avx2 LABELS="old new" Benchmarks/compare-builds.sh OLD_BINARY NEW_BINARY > Benchmarks/results/<machine>/<name>.jsonl
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 BINARY [BINARY ...]" >&2; exit 64; }
read -r -a labels <<< "${LABELS:-}"
read -r -a scenes <<< "${SCENES:-pyramid many_pyramids smash}"
read -r -a workerCounts <<< "${WORKERS:-1 2}"
steps=${STEPS:-300}
for round in $(seq 1 "${ROUNDS:-5}"); do
	for workers in "${workerCounts[@]}"; do for entry in "${scenes[@]}"; do
		scene=${entry%%:*}
		items=()
		[ "$entry" != "$scene" ] && items=(--items "${entry#*:}")
		i=0
		for bin in "$@"; do
			label=${labels[$i]:-$i}
			"$bin" bench --scene "$scene" "${items[@]}" --steps "$steps" --workers "$workers" --simd "${SIMD:-automatic}" \
				--json --quiet |
				python3 -c '
import json, sys
d = json.loads(sys.stdin.readline())
print(json.dumps({"build": sys.argv[1], "round": int(sys.argv[2]), "scene": d["scene"], "items": d["items"],
                  "workers": d["workers"], "steps": d["steps"], "simd": d.get("simd"), "cpu_model": d["cpu_model"],
                  "ms_per_step_median": round(d["ms_per_step_median"], 4),
                  "ms_per_step_mean": round(d["ms_per_step_mean"], 4),
                  "contact_solve_ms_median": round(d["contact_solve_ms_median"], 4),
                  "substeps_mean": d.get("substeps_mean", d["substeps"]),
                  "state_hash": d["state_hash"]}))' "$label" "$round"
			i=$((i + 1))
		done
	done; done
done
