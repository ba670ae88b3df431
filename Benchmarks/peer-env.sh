# Sourced by the compare-*.sh scripts: builds the release CLI and sets `bin` (the dynamics binary) and
# `python` (the peers' Python with pyb2d3 and pymunk, created by ../shared/peers/run on first use).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift build -c release --product dynamics >&2
bin="$(swift build -c release --show-bin-path)/dynamics"
../shared/peers/run --engine box2d --scene pile --items 10 --steps 1 >/dev/null
python=${DYNAMICS_PEERS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/dynamics-peers}/bin/python
