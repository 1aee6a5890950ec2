#!/usr/bin/env bash
# scripts/check_layers.sh: check that colstore's includes point down its layers.
#
# The layers, top to bottom: sqlapi, cscan, tableam, mvcc, storage, encoding (src/README.md).
# A file may include headers of its own layer and of the layers below it; colstore.c (_PG_init,
# above them all) may include any.  Fails, listing them, on includes of a higher layer's header.
# (Until 2026-11-27 a list of 33 such includes was allowed while they were removed; none is left.)
set -euo pipefail
cd "$(dirname "$0")/.."

found=$(
	for f in src/*/*.c src/*/*.h; do
		layer=$(basename "$(dirname "$f")")
		awk -v file="$f" -v layer="$layer" '
			BEGIN {
				split("sqlapi cscan tableam mvcc storage encoding", order, " ")
				for (i in order) rank[order[i]] = i
			}
			/^#include "[a-z_]+\/[a-z_]+\.h"/ {
				split($2, parts, "/")
				dir = substr(parts[1], 2)
				if ((dir in rank) && (layer in rank) && rank[dir] < rank[layer])
					print file ": " substr($2, 2, length($2) - 2)
			}' "$f"
	done | sort
)
if [ -n "$found" ]; then
	echo "layers: upward includes (include a lower layer's header, or move the code):"
	echo "$found" | sed 's/^/  /'
	exit 1
fi
echo "layers: no upward include in $(ls src/*/*.c src/*/*.h | wc -l) files"
