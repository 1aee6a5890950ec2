#!/usr/bin/env bash
# scripts/check_layers.sh: check that colstore's includes point down its layers.
#
# The layers, top to bottom: sqlapi, cscan, tableam, mvcc, storage, encoding (src/README.md).
# A file may include headers of its own layer and of the layers below it; an include of a
# higher layer's header is an upward include, and so is an include of colstore.h from any
# layer (the top, src/colstore.c, has no header: each module defines its own settings).  The
# upward includes that existed when this check was written are listed in
# scripts/layers.allowed, to be removed one by one (issue 21, item 6): the check fails on an
# upward include not in that list, and on a listed one that no longer exists (so the list only
# shrinks).  Prints the count either way.
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
			/^#include "colstore\.h"/ { print file ": colstore.h"; next }
			/^#include "[a-z_]+\/[a-z_]+\.h"/ {
				split($2, parts, "/")
				dir = substr(parts[1], 2)
				if ((dir in rank) && (layer in rank) && rank[dir] < rank[layer])
					print file ": " substr($2, 2, length($2) - 2)
			}' "$f"
	done | sort
)
allowed=$( (grep -v '^#' scripts/layers.allowed || true) | sed '/^$/d' | sort)
new=$(comm -23 <(echo "$found") <(echo "$allowed") | sed '/^$/d')
gone=$(comm -13 <(echo "$found") <(echo "$allowed") | sed '/^$/d')
count=$(echo "$found" | sed '/^$/d' | wc -l)
echo "layers: $count upward includes (scripts/layers.allowed lists $(echo "$allowed" | sed '/^$/d' | wc -l))"
status=0
if [ -n "$new" ]; then
	echo "layers: upward includes not allowed (include a lower layer's header instead):"
	echo "$new" | sed 's/^/  /'
	status=1
fi
if [ -n "$gone" ]; then
	echo "layers: gone, remove from scripts/layers.allowed:"
	echo "$gone" | sed 's/^/  /'
	status=1
fi
exit $status
