#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the joint_grid benchmark scene (100 × 100 pinned circles, 500 steps; see
# Sources/DynamicsScenes/DynamicsScenes.docc/BenchmarkScenes.md) on Dynamics and on Box2D 3.1 (pyb2d3,
# Benchmarks/joint_grid_box2d.py in the peers' Python) back to back, alternating engines, at 1 and 2
# workers, three rounds; prints one JSON line per run.
#   Benchmarks/compare-joint-grid.sh > Benchmarks/results/<machine>/joint-grid.jsonl
set -euo pipefail
source "$(dirname "$0")/peer-env.sh"
for round in 1 2 3; do
	for w in 1 2; do
		"$bin" bench --scene joint_grid --steps 500 --workers "$w" --json
		"$python" Benchmarks/joint_grid_box2d.py --steps 500 --workers "$w"
	done
done
