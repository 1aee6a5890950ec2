#!/bin/bash
# bench/q6_shard.sh: TPC-H Q6 and Q1 on one Citus shard's worth of lineitem (1,500,000 rows),
# heap and colstore in one server, serial and with 2 parallel workers: the per-row work of
# ColstoreAgg's conditions and aggregates (issues 20 and 22).
#
# Runs against the server the PG* environment names (colstore installed and preloaded; use a
# release build); it does not start one.  Loads lineitem_heap and lineitem_colstore from the CSV
# (header line, bench/tpch.sh's columns) unless they hold its rows already, VACUUM ANALYZEs them,
# then runs each query RUNS times per table, alternating heap and colstore, and prints the
# medians, colstore/heap ratios, and whether both returned the same result.
#
# Without --csv, the first quarter of TPC-H scale factor 1's lineitem is generated once with
# tpchgen-cli (bench_venv) under $COLSTORE_DEPS/q6-shard.
#
# Usage: bash bench/q6_shard.sh [--csv FILE] [--runs N]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. bench/lib.sh
csv=""
runs=5
while [ $# -gt 0 ]; do
	case "$1" in
		--csv) csv="$2"; shift 2 ;;
		--runs) runs="$2"; shift 2 ;;
		*) echo "usage: $0 [--csv FILE] [--runs N]" >&2; exit 2 ;;
	esac
done

# the table definition and the two query texts are bench/tpch.sh's own (tpch_part, bench/lib.sh)
scale=1
eval "$(tpch_part '^tables=\(' '^declare -A R$')"
eval "$(tpch_part '^fraction=' '^# The queries whose ORDER BY')"
cols=${columns[lineitem]}
for query in "${queries[@]}"; do
	case "${query%%|*}" in
		Q1) q1=${query#*|} ;;
		Q6) q6=${query#*|} ;;
	esac
done
[ -n "${q1:-}" ] && [ -n "${q6:-}" ] || { echo "bench/tpch.sh has no Q1 or Q6" >&2; exit 2; }

if [ -z "$csv" ]; then
	csv="$COLSTORE_DEPS/q6-shard/lineitem/lineitem.1.csv"
	if [ ! -f "$csv" ]; then
		bench_venv tpchgen-cli
		"$BENCH_VENV/bin/tpchgen-cli" csv --scale-factor 1 --tables lineitem --parts 4 --part 1 \
			--output-dir "$COLSTORE_DEPS/q6-shard" --quiet
	fi
fi
want=$(($(wc -l <"$csv") - 1))
psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION IF NOT EXISTS colstore"
for am in heap colstore; do
	have=$(psql -X -At -c "SELECT count(*) FROM lineitem_$am" 2>/dev/null || echo -1)
	if [ "$have" != "$want" ]; then
		psql -X -q -v ON_ERROR_STOP=1 <<-SQL
			DROP TABLE IF EXISTS lineitem_$am;
			CREATE TABLE lineitem_$am ($cols) USING $am;
			\copy lineitem_$am FROM '$csv' WITH (FORMAT csv, HEADER true)
			VACUUM ANALYZE lineitem_$am;
		SQL
	fi
done

# time_once SETTINGS SQL: milliseconds of one run of SQL after SETTINGS
time_once() {
	psql -X -At -c "SET jit = off" -c "$1" -c '\timing on' -c "$2" |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

printf '%-4s %-9s %10s %12s %7s %5s\n' query workers heap_ms colstore_ms ratio same
for name in Q6 Q1; do
	[ "$name" = Q6 ] && sql=$q6 || sql=$q1
	for w in 0 2; do
		settings="SET max_parallel_workers_per_gather = $w"
		declare -a th=() tc=()
		# one warm-up run each
		time_once "$settings" "${sql//%E/heap}" >/dev/null
		time_once "$settings" "${sql//%E/colstore}" >/dev/null
		for ((i = 0; i < runs; i++)); do
			th+=("$(time_once "$settings" "${sql//%E/heap}")")
			tc+=("$(time_once "$settings" "${sql//%E/colstore}")")
		done
		mh=$(printf '%s\n' "${th[@]}" | median)
		mc=$(printf '%s\n' "${tc[@]}" | median)
		dh=$(psql -X -At -c "$settings" -c "${sql//%E/heap}" | md5sum)
		dc=$(psql -X -At -c "$settings" -c "${sql//%E/colstore}" | md5sum)
		same=no
		[ "$dh" = "$dc" ] && same=yes
		printf '%-4s %-9s %10.1f %12.1f %7.3f %5s\n' "$name" "$w" "$mh" "$mc" \
			"$(awk -v c="$mc" -v h="$mh" 'BEGIN { print c / h }')" "$same"
	done
done
