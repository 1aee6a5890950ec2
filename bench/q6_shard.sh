#!/bin/bash
# bench/q6_shard.sh: TPC-H Q6 and Q1 on one Citus shard's worth of lineitem (1,500,000 rows),
# heap and colstore in one server, serial and with 2 parallel workers: the per-row work of
# ColstoreAgg's conditions and aggregates and the fixed cost of each shard query (issues 20 and 22).
#
# Runs against the server the PG* environment names (colstore installed and preloaded; use a
# release build); it does not start one.  Loads lineitem_heap and lineitem_colstore from the CSV
# (header line, bench/tpch.sh's columns; --copies K loads it K times, 4 being about scale factor
# 1's lineitem) unless they hold its rows already, VACUUM ANALYZEs them, then for each query,
# parallel workers setting and table, alternating heap and colstore, measures
#   first:  the query's time (psql \timing) as the first query of a new connection, median of RUNS;
#   warm:   its time in one connection that ran it before, median of RUNS;
#   cpu:    the server's CPU time per query with a new connection per query (pgbench -C, RUNS * 4
#           queries): the CPU of the postmaster's exited children (cutime + cstime of
#           /proc/<postmaster>/stat), so the connection's backend and every parallel worker count,
#           what a Citus worker node pays per shard query (other exiting children, autovacuum's,
#           count too: noise);
#   plan:   the plan's shape (the node under the Gather, or the top node, and the workers planned);
# and prints the medians, colstore/heap ratios, and whether both returned the same result.
#
# Without --csv, the first quarter of TPC-H scale factor 1's lineitem is generated once with
# tpchgen-cli (bench_venv) under $COLSTORE_DEPS/q6-shard.
#
# Usage: bash bench/q6_shard.sh [--csv FILE] [--runs N] [--copies K] [--workers "0 2"]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. bench/lib.sh
csv=""
runs=5
copies=1
worker_settings="0 2"
while [ $# -gt 0 ]; do
	case "$1" in
		--csv) csv="$2"; shift 2 ;;
		--runs) runs="$2"; shift 2 ;;
		--copies) copies="$2"; shift 2 ;;
		--workers) worker_settings="$2"; shift 2 ;;
		*) echo "usage: $0 [--csv FILE] [--runs N] [--copies K] [--workers \"0 2\"]" >&2; exit 2 ;;
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
want=$((($(wc -l <"$csv") - 1) * copies))
psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION IF NOT EXISTS colstore"
for am in heap colstore; do
	have=$(psql -X -At -c "SELECT count(*) FROM lineitem_$am" 2>/dev/null || echo -1)
	if [ "$have" != "$want" ]; then
		psql -X -q -v ON_ERROR_STOP=1 <<-SQL
			DROP TABLE IF EXISTS lineitem_$am;
			CREATE TABLE lineitem_$am ($cols) USING $am;
			$(for ((k = 0; k < copies; k++)); do
				echo "\\copy lineitem_$am FROM '$csv' WITH (FORMAT csv, HEADER true)"
			done)
			VACUUM ANALYZE lineitem_$am;
		SQL
	fi
done

# time_once SETTINGS SQL: milliseconds of one run of SQL after SETTINGS, in a new connection
time_once() {
	psql -X -At -c "SET jit = off" -c "$1" -c '\timing on' -c "$2" |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}
# time_warm SETTINGS SQL: milliseconds of RUNS runs of SQL in one connection that ran it before
time_warm() {
	{
		echo "SET jit = off;"
		echo "$1;"
		echo "$2;"
		echo '\timing on'
		for ((i = 0; i < runs; i++)); do echo "$2;"; done
	} | psql -X -At -q -o /dev/null 2>&1 | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# the postmaster's exited children's CPU time, in clock ticks
postmaster=$(head -1 "$(psql -X -At -c 'SHOW data_directory')/postmaster.pid")
ticks() { awk '{ print $16 + $17 }' "/proc/$postmaster/stat"; }
hz=$(getconf CLK_TCK)
work=$(mktemp -d /var/tmp/q6-shard.XXXXXX)
trap 'rm -rf "$work"' EXIT
# server_cpu SETTINGS SQL: server CPU milliseconds per query, a new connection for each
server_cpu() {
	local n=$((runs * 4)) before after
	printf 'SET jit = off;\n%s;\n%s;\n' "$1" "$(echo "$2" | tr '\n' ' ')" >"$work/q.sql"
	sleep 0.5
	before=$(ticks)
	pgbench -n -C -t "$n" -f "$work/q.sql" >/dev/null 2>&1
	sleep 0.5
	after=$(ticks)
	awk -v a="$before" -v b="$after" -v n="$n" -v hz="$hz" \
		'BEGIN { printf "%.2f", (b - a) * 1000 / hz / n }'
}
# plan_shape SETTINGS SQL: the node under the Gather (with its workers) or the top node
plan_shape() {
	psql -X -At -q -c "SET jit = off" -c "$1" -c "EXPLAIN (COSTS OFF, FORMAT JSON) $2" |
		python3 -c '
import json, sys
p = json.loads(sys.stdin.read())[0]["Plan"]
def walk(n):
    if n["Node Type"] in ("Gather", "Gather Merge"):
        return "%s/%d" % (n["Plans"][0].get("Custom Plan Provider", n["Plans"][0]["Node Type"]), n["Workers Planned"])
    for c in n.get("Plans", []):
        r = walk(c)
        if r:
            return r
    return None
print(walk(p) or p.get("Custom Plan Provider", p["Node Type"]))'
}
ratio() { awk -v c="$1" -v h="$2" 'BEGIN { if (h > 0) printf "%.3f", c / h; else print "-" }'; }

echo "bench/q6_shard.sh: $want rows, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC'), $(psql -X -At -c 'SHOW server_version')"
printf '%-4s %-7s %-22s %-22s %9s %9s %6s %9s %9s %6s %8s %8s %6s %4s\n' query workers \
	plan_heap plan_colstore first_h first_c ratio warm_h warm_c ratio cpu_h cpu_c ratio same
for name in Q6 Q1; do
	[ "$name" = Q6 ] && sql=$q6 || sql=$q1
	for w in $worker_settings; do
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
		wh=$(time_warm "$settings" "${sql//%E/heap}" | median)
		wc=$(time_warm "$settings" "${sql//%E/colstore}" | median)
		ch=$(server_cpu "$settings" "${sql//%E/heap}")
		cc=$(server_cpu "$settings" "${sql//%E/colstore}")
		ph=$(plan_shape "$settings" "${sql//%E/heap}")
		pc=$(plan_shape "$settings" "${sql//%E/colstore}")
		dh=$(psql -X -At -c "$settings" -c "${sql//%E/heap}" | md5sum)
		dc=$(psql -X -At -c "$settings" -c "${sql//%E/colstore}" | md5sum)
		same=no
		[ "$dh" = "$dc" ] && same=yes
		printf '%-4s %-7s %-22s %-22s %9.1f %9.1f %6s %9.1f %9.1f %6s %8s %8s %6s %4s\n' \
			"$name" "$w" "$ph" "$pc" "$mh" "$mc" "$(ratio "$mc" "$mh")" \
			"$wh" "$wc" "$(ratio "$wc" "$wh")" "$ch" "$cc" "$(ratio "$cc" "$ch")" "$same"
	done
done
