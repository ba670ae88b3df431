#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every collision scene of issue 3 at 1 and 2 workers (the step counts of the benchmark scenes,
# Sources/DynamicsScenes/DynamicsScenes.docc/BenchmarkScenes.md), then the broadphase alone
# (`scatter`: drifting boxes of mixed sizes, every pair found again each step) for 10²…10⁶ items at 1 and
# 2 workers. Three rounds, alternating the worker counts; one `dynamics bench --json` line per run.
#   Benchmarks/scene-table.sh > Benchmarks/results/<machine>/scenes.jsonl
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product dynamics >&2
bin="$(swift build -c release --show-bin-path)/dynamics"
for round in 1 2 3; do
	echo "round $round of 3" >&2
	for run in "pile 1000 600" "pile 10000 600" "pile-circles 10000 600" "pyramid 5050 500" \
		"many_pyramids 22000 200" "smash 9601 300" "default 10000 600"; do
		read -r scene items steps <<<"$run"
		for w in 1 2; do "$bin" bench --scene "$scene" --items "$items" --steps "$steps" --workers "$w" --json; done
	done
	for items in 100 1000 10000 100000 1000000; do
		steps=$((items >= 1000000 ? 5 : 20))
		for w in 1 2; do "$bin" bench --scene scatter --items "$items" --steps "$steps" --workers "$w" --json; done
	done
done
