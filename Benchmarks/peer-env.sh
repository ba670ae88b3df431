# Sourced by the compare-*.sh scripts: builds the release CLI and sets `bin` (the dynamics binary) and
# `python` (a virtual environment with the peers from PyPI: pyb2d3, Box2D 3.1's Python binding, and pymunk),
# created on first use in $DYNAMICS_PEERS_VENV (default ~/.cache/dynamics-peers).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift build -c release --product dynamics >&2
bin="$(swift build -c release --show-bin-path)/dynamics"
venv=${DYNAMICS_PEERS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/dynamics-peers}
python="$venv/bin/python"
if [ ! -x "$python" ] || ! "$python" -c 'import pyb2d3, pymunk' 2>/dev/null; then
	python3 -m venv "$venv" >&2
	"$venv/bin/pip" install --quiet pyb2d3==0.11.1 pymunk==7.3.1 >&2
fi
