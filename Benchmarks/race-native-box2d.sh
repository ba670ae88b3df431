#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The race against native Box2D v3 on those of its benchmarks that Dynamics has built in, at equal ISA. BOX2D is
# the path of Box2D v3's own `benchmark` program, built by you from its repository (its AVX2 build:
# `-DBOX2D_BENCHMARKS=ON -DBOX2D_AVX2=ON`, Release); this script does not build it. For each of ROUNDS rounds
# (5), each benchmark and each worker count of WORKERS ("1 2"), Box2D runs first (`benchmark -b=NAME -w=W
# -r=1` in an empty folder, which writes NAME.csv), then `dynamics bench` with the same steps at SIMD level
# SIMD (avx2). BENCHMARKS picks some of them by Box2D's name (default: all). One JSON line per pair: both totals over the timed steps, in ms (Box2D's run; ours the mean
# step times the steps), our state hash, the CPU model and the commit.
#   BOX2D=/tmp/box2d/build/bin/benchmark Benchmarks/race-native-box2d.sh > Benchmarks/results/<machine>/native-box2d-equal-isa.jsonl
set -euo pipefail
: "${BOX2D:?set BOX2D to the path of Box2D v3 benchmark program}"
BOX2D="$(realpath "$BOX2D")"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift build -c release --product dynamics >&2
bin="$(swift build -c release --show-bin-path)/dynamics"
commit="$(git rev-parse --short HEAD)"
simd=${SIMD:-avx2}
read -r -a workerCounts <<< "${WORKERS:-1 2}"
# Box2D's name, ours, and the timed steps of each (Box2D's benchmark program's own step counts).
races=("large_pyramid pyramid 500" "many_pyramids many_pyramids 200" "smash smash 300" "joint_grid joint_grid 500"
	"tumbler tumbler 750" "compounds compounds 500" "washer washer 500" "junkyard junkyard 800"
	"spinner spinner 500" "rain rain 1000")
read -r -a chosen <<< "${BENCHMARKS:-}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for round in $(seq 1 "${ROUNDS:-5}"); do
	for race in "${races[@]}"; do
		read -r name scene steps <<< "$race"
		if [ ${#chosen[@]} -gt 0 ] && [[ ! " ${chosen[*]} " == *" $name "* ]]; then continue; fi
		for workers in "${workerCounts[@]}"; do
			rm -rf "$scratch/run" && mkdir "$scratch/run"
			(cd "$scratch/run" && "$BOX2D" -b="$name" -w="$workers" -r=1 > /dev/null)
			box2d=$(awk -F, -v w="$workers" 'NR > 1 && $1 == w { print $2 }' "$scratch/run/$name.csv")
			ours=$("$bin" bench --scene "$scene" --steps "$steps" --workers "$workers" --simd "$simd" --json --quiet)
			python3 -c 'import json, sys
d = json.loads(sys.argv[1])
print(json.dumps({"round": int(sys.argv[2]), "benchmark": sys.argv[3], "workers": int(sys.argv[4]),
                  "box2d_ms": float(sys.argv[5]), "dynamics_ms": round(d["ms_per_step_mean"] * int(sys.argv[6]), 1),
                  "simd": d["simd"], "dynamics_commit": sys.argv[7], "cpu_model": d["cpu_model"],
                  "run": sys.argv[8], "state_hash": d["state_hash"]}))' \
				"$ours" "$round" "$name" "$workers" "$box2d" "$steps" "$commit" "$simd-$commit"
		done
	done
done
