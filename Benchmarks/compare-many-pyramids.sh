#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Box2D v3's many_pyramids (22 000 boxes, 200 steps) on Dynamics and on Box2D 3.1 (pyb2d3,
# Benchmarks/many_pyramids_box2d.py in the peers' Python) back to back, alternating engines, at 1 and 2
# workers, three rounds; prints one JSON line per run.
#   Benchmarks/compare-many-pyramids.sh > Benchmarks/results/<machine>/many-pyramids.jsonl
set -euo pipefail
source "$(dirname "$0")/peer-env.sh"
for round in 1 2 3; do
	for w in 1 2; do
		"$bin" bench --scene many_pyramids --steps 200 --workers "$w" --json
		"$python" Benchmarks/many_pyramids_box2d.py --steps 200 --workers "$w"
	done
done
