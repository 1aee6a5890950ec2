#!/bin/bash
# bench/index_only_scan.sh: an index-only count over a primary key range, heap against colstore,
# in one server: colstore with index-only scans (the all-visible pseudo-blocks VACUUM marks,
# src/storage/all_visible.c) and without (colstore.enable_index_only_scan = off, which plans
# ColstoreIndexScan).
#
# Runs against the server the PG* environment names (colstore installed and preloaded; use a
# release build for figures to quote); it does not start one.  Creates ios_heap and
# ios_colstore with ROWS rows (id int primary key, k int, pad text) unless they hold them
# already, VACUUM ANALYZEs them, then runs each query RUNS times per variant, alternating, and
# prints the medians, the colstore/heap ratios and whether the answers agree.  Scans are forced to
# the index (no sequential or bitmap scan, no parallel workers).
#
# Usage: bash bench/index_only_scan.sh [--rows N] [--runs N]
set -euo pipefail
rows=2000000
runs=5
while [ $# -gt 0 ]; do
	case "$1" in
		--rows) rows="$2"; shift 2 ;;
		--runs) runs="$2"; shift 2 ;;
		*) echo "usage: $0 [--rows N] [--runs N]" >&2; exit 2 ;;
	esac
done

psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION IF NOT EXISTS colstore"
for am in heap colstore; do
	have=$(psql -X -At -c "SELECT count(*) FROM ios_$am" 2>/dev/null || echo -1)
	if [ "$have" != "$rows" ]; then
		psql -X -q -v ON_ERROR_STOP=1 <<-SQL
			DROP TABLE IF EXISTS ios_$am;
			CREATE TABLE ios_$am (id int PRIMARY KEY, k int, pad text) USING $am;
			INSERT INTO ios_$am SELECT g, g % 1000, md5(g::text) FROM generate_series(1, $rows) g;
			VACUUM ANALYZE ios_$am;
		SQL
	fi
done
psql -X -At -c "SELECT relname, relallvisible FROM pg_class WHERE relname IN ('ios_heap', 'ios_colstore') ORDER BY 1"

base="SET jit = off; SET enable_seqscan = off; SET enable_bitmapscan = off; SET max_parallel_workers_per_gather = 0"
# time_once SETTINGS SQL: milliseconds of one run of SQL after SETTINGS
time_once() {
	psql -X -q -At -c "$1" -c '\timing on' -c "$2" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

half=$((rows / 2))
declare -A queries=(
	[range_half]="SELECT count(*), sum(id) FROM ios_%E WHERE id BETWEEN 1 AND $half"
	[range_1000]="SELECT count(*), sum(id) FROM ios_%E WHERE id BETWEEN $half AND $((half + 999))"
)
printf '%-11s %-22s %10s %12s %7s %5s\n' query colstore_variant heap_ms colstore_ms ratio same
for name in range_half range_1000; do
	sql=${queries[$name]}
	for variant in index_only custom_index_scan; do
		if [ "$variant" = index_only ]; then
			cset="$base; SET colstore.enable_index_only_scan = on"
		else
			cset="$base; SET colstore.enable_index_only_scan = off"
		fi
		plan=$(psql -X -q -At -c "$cset" -c "EXPLAIN (COSTS OFF) ${sql//%E/colstore}" | sed -n 2p)
		declare -a th=() tc=()
		time_once "$base" "${sql//%E/heap}" >/dev/null
		time_once "$cset" "${sql//%E/colstore}" >/dev/null
		for ((i = 0; i < runs; i++)); do
			th+=("$(time_once "$base" "${sql//%E/heap}")")
			tc+=("$(time_once "$cset" "${sql//%E/colstore}")")
		done
		mh=$(printf '%s\n' "${th[@]}" | median)
		mc=$(printf '%s\n' "${tc[@]}" | median)
		dh=$(psql -X -q -At -c "$base" -c "${sql//%E/heap}" | md5sum)
		dc=$(psql -X -q -At -c "$cset" -c "${sql//%E/colstore}" | md5sum)
		same=no
		[ "$dh" = "$dc" ] && same=yes
		printf '%-11s %-22s %10.2f %12.2f %7.3f %5s   (%s)\n' "$name" "$variant" "$mh" "$mc" \
			"$(awk -v c="$mc" -v h="$mh" 'BEGIN { print c / h }')" "$same" "$(echo "$plan" | sed 's/^ *-> *//')"
	done
done
