#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The pyramid benchmark scene (Sources/DynamicsScenes/DynamicsScenes.docc/BenchmarkScenes.md) at the scene's
# settings (4 substeps, 30 Hz contacts) and stiff enough for its top to stay within 5 pt: Dynamics with
# 8 substeps, 120 Hz contacts and 2 solver iterations, Box2D 3.1 (pyb2d3,
# Benchmarks/stiff_pyramid_box2d.py in the peers' Python) with 16 substeps and 120 Hz (its cap is lower
# than ours, so it needs more substeps for the same stiffness). Back to back, alternating engines, at 1 and
# 2 workers, three rounds; one JSON line per run, with `top_item_sink` (Dynamics) and `top_sink_pt` (Box2D).
#   Benchmarks/compare-stiff-pyramid.sh > Benchmarks/results/<machine>/stiff-pyramid.jsonl
set -euo pipefail
source "$(dirname "$0")/peer-env.sh"
for round in 1 2 3; do
	for w in 1 2; do
		"$bin" bench --scene pyramid --steps 500 --workers "$w" --json
		"$python" Benchmarks/stiff_pyramid_box2d.py --steps 500 --workers "$w"
		"$bin" bench --scene pyramid --steps 500 --workers "$w" --substeps 8 --contact-frequency 120 \
			--solver-iterations 2 --json
		"$python" Benchmarks/stiff_pyramid_box2d.py --steps 500 --workers "$w" --substeps 16 --hertz 120
	done
done
