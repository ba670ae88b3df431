#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# boundary-removed.c built against the kernel of each given commit (git worktrees in a temporary folder) and
# run alternately, ROUNDS rounds (5) of BOUNDARY_COLUMNS columns (2 000) in BOUNDARY_MODE (destroy, or wake);
# one JSON line per run, labelled with its commit.
#   Benchmarks/compare-boundary-removed.sh OLD_COMMIT NEW_COMMIT > Benchmarks/results/<machine>/boundary-removed.jsonl
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 1 ] || { echo "usage: $0 COMMIT [COMMIT ...]" >&2; exit 64; }
tmp="$(mktemp -d)"
trap 'for c in "$tmp"/tree-*; do git worktree remove --force "$c" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
for commit in "$@"; do
	tree="$tmp/tree-$commit"
	git worktree add --quiet --detach "$tree" "$commit"
	${CC:-clang} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -I"$tree/CSources/DynamicsKernel/include" \
		-I"$tree/CSources/DynamicsKernel" "$tree"/CSources/DynamicsKernel/*.c Benchmarks/boundary-removed.c \
		-lblas -lm -lpthread -o "$tmp/bench-$commit"
done
for round in $(seq 1 "${ROUNDS:-5}"); do
	for commit in "$@"; do
		"$tmp/bench-$commit" "${BOUNDARY_COLUMNS:-2000}" "${BOUNDARY_MODE:-destroy}" | python3 -c '
import json, sys
d = json.loads(sys.stdin.readline()); d.update(commit=sys.argv[1], round=int(sys.argv[2])); print(json.dumps(d))' "$commit" "$round"
	done
done
