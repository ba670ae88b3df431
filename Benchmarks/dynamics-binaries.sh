# SPDX-License-Identifier: Apache-2.0
# Sourced by the comparison scripts: `bins` holds the dynamics binaries given as arguments (builds of other
# commits, alternated within each round) or, with none, this checkout's release build, built first.
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
	swift build -c release --product dynamics >&2
	bins=("$(swift build -c release --show-bin-path)/dynamics")
fi
