# SPDX-License-Identifier: Apache-2.0
# Sourced by the compare-*.sh scripts: goes to the repository's root, builds the release CLI and sets `bin`
# (the dynamics binary) and `python` (the peers' Python: a virtual environment with pyb2d3, Box2D 3.1's
# Python binding, and pymunk, pinned, from PyPI). Benchmarks/peers.py creates that environment on first use
# in the repository's ignored build folder, .build/peers-venv (or $DYNAMICS_PEERS_VENV), and prints its Python.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift build -c release --product dynamics >&2
bin="$(swift build -c release --show-bin-path)/dynamics"
python="$(python3 Benchmarks/peers.py --print-python)"
