#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the pile and pyramid benchmark scenes (Sources/DynamicsScenes/DynamicsScenes.docc/BenchmarkScenes.md)
# on Dynamics and on its peers (Box2D 3.1 through pyb2d3, and pymunk, from Benchmarks/peers.py in the peers'
# Python) back to back, alternating engines, at 1 and 2 workers, and prints one JSON line per run (the fields
# of `dynamics bench --json` that the benchmark scenes article lists).
#   Benchmarks/compare-peers.sh > Benchmarks/results/<machine>/peers.jsonl
# The 100 000-item pile runs 60 steps instead of 600 to bound the run time (the pile is still falling).
set -euo pipefail
source "$(dirname "$0")/peer-env.sh"
peers() { "$python" Benchmarks/peers.py "$@"; }

run() { # scene items steps
	for w in 1 2; do
		"$bin" bench --scene "$1" --items "$2" --steps "$3" --workers "$w" --json
		peers --engine box2d --scene "$1" --items "$2" --steps "$3" --workers "$w"
	done
	peers --engine pymunk --scene "$1" --items "$2" --steps "$3" --workers 1
}

run pile 1000 600
run pile 10000 600
run pyramid 5050 500
run pile 100000 60
