#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The pile with rest on (Dynamics) and sleeping on (Box2D 3.1 through pyb2d3, Benchmarks/pile_rest_box2d.py):
# simulated time until every item rests, the median step before that, and the median of 120 steps at rest,
# for 1 000 and 10 000 boxes at 1 and 2 workers, alternating engines, three rounds; one JSON line per run.
#   Benchmarks/compare-pile-rest.sh > Benchmarks/results/<machine>/pile-rest.jsonl
set -euo pipefail
source "$(dirname "$0")/peer-env.sh"
for round in 1 2 3; do
	for items in 1000 10000; do
		for w in 1 2; do
			"$bin" bench --scene pile --items "$items" --until-rest 60 --steps 120 --workers "$w" --json
			"$python" Benchmarks/pile_rest_box2d.py --items "$items" --max-seconds 60 --steps 120 --workers "$w"
		done
	done
done
