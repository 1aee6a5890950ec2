#!/usr/bin/env bash
# bench/tpch_some.sh: a few TPC-H queries, heap against colstore, in a server that is already
# running (the one PGHOST and PGPORT point at, colstore installed), for work on single queries.
#
# --load SF generates the 8 tables at scale factor SF with tpchgen-cli (the venv of
# bench/tpch.sh) and loads them into database "bench" as <table>_heap and <table>_colstore,
# exactly as bench/tpch.sh does (its table definitions, read out of it with tpch_part); without
# it the tables must be there.  Then each query of --queries (Q1..Q22, comma separated, the
# texts of bench/tpch.sh) runs on heap and on colstore under bench/tpch.sh's settings (2 parallel
# workers per gather, work_mem 64MB, jit off): one warm-up, the median of --runs (3) timed runs,
# the ratio, and whether the two returned the same rows.  --explain prints EXPLAIN (ANALYZE,
# BUFFERS) of each instead of timing it.  --plan times instead what a new connection's first
# plan of each query costs (EXPLAIN's planning time, each run in a new connection: the
# backend's caches of colstore's metadata and the catalogs are empty), median of --runs,
# and the sum over the queries.  --queries all takes every query.  --workers N sets
# max_parallel_workers_per_gather (2 by default; 0 runs serial plans), and --set 'name=value'
# (repeatable) adds a setting for both engines (e.g. colstore.enable_merge_skip=off).
# Usage: bash bench/tpch_some.sh --queries Q9,Q13|all [--load SF] [--runs N] [--explain|--plan]
#        [--workers N] [--set name=value]...
# Never run by CI.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. bench/lib.sh

scale=1 load="" only="" runs=3 explain=0 plan=0 workers=2 extra=""
while [ $# -gt 0 ]; do
	case "$1" in
		--queries) only="$2"; shift 2 ;;
		--load) load=1; scale="$2"; shift 2 ;;
		--runs) runs="$2"; shift 2 ;;
		--explain) explain=1; shift ;;
		--plan) plan=1; shift ;;
		--workers) workers="$2"; shift 2 ;;
		--set) extra+=" -c $2"; shift 2 ;;
		*) echo "usage: $0 --queries Q9,Q13|all [--load SF] [--runs N] [--explain|--plan] [--workers N] [--set name=value]"; exit 2 ;;
	esac
done
export PGDATABASE=bench
export PGOPTIONS="-c max_parallel_workers_per_gather=$workers -c work_mem=64MB -c jit=off$extra"

eval "$(tpch_part '^tables=\(' '^declare -A R$')"			# tables, columns, pkey
eval "$(tpch_part '^fraction=' '^# The queries whose ORDER BY')"	# queries (uses $scale)

if [ -n "$load" ]; then
	bench_venv tpchgen-cli
	tmp=$(mktemp -d /var/tmp/colstore-tpch-some.XXXXXX)
	chmod 755 "$tmp"
	trap 'rm -rf "$tmp"' EXIT
	"$BENCH_VENV/bin/tpchgen-cli" csv --scale-factor "$scale" --output-dir "$tmp" --quiet
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench"
	psql -X -q -c "CREATE EXTENSION colstore"
	for am in heap colstore; do
		for t in "${tables[@]}"; do
			echo "== $am: loading $t" >&2
			psql -X -q -c "CREATE TABLE ${t}_$am (${columns[$t]}) USING $am" \
				-c "COPY ${t}_$am FROM '$tmp/$t.csv' WITH (FORMAT csv, HEADER true)" \
				-c "ALTER TABLE ${t}_$am ADD PRIMARY KEY (${pkey[$t]})"
		done
		l=""
		for t in "${tables[@]}"; do l+="${l:+, }${t}_$am"; done
		psql -X -q -c "VACUUM ANALYZE $l"
	done
fi

# runms SQL: one run's milliseconds
runms() { psql -X -q -At -o /dev/null -c '\timing on' -c "$1" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 1; }
# planms SQL: the planning milliseconds of SQL's EXPLAIN in a new connection
planms() {
	psql -X -q -At -c "EXPLAIN (SUMMARY ON, COSTS OFF) $1" | sed -n 's/^Planning Time: \([0-9.]*\) ms.*/\1/p'
}
[ -n "$only" ] || exit 0
if [ "$plan" = 1 ]; then
	echo "| query | heap first plan ms | colstore first plan ms | colstore/heap |"
	echo "|---|---|---|---|"
	sum_heap=0 sum_colstore=0
	for query in "${queries[@]}"; do
		name="${query%%|*}"
		[ "$only" = all ] || [[ ",$only," == *",$name,"* ]] || continue
		sql="${query#*|}"
		declare -A t=()
		for am in heap colstore; do
			s="${sql//_%E/_$am}"
			t[$am]=$(for i in $(seq "$runs"); do planms "$s"; done | sort -g | sed -n "$(((runs + 1) / 2))p")
		done
		[ -n "${t[heap]}" ] && [ -n "${t[colstore]}" ] || { echo "| $name | (no plan: EXPLAIN failed) | | |"; continue; }
		sum_heap=$(awk -v a="$sum_heap" -v b="${t[heap]}" 'BEGIN { print a + b }')
		sum_colstore=$(awk -v a="$sum_colstore" -v b="${t[colstore]}" 'BEGIN { print a + b }')
		echo "| $name | ${t[heap]} | ${t[colstore]} | $(ratio "${t[heap]}" "${t[colstore]}") |"
	done
	echo "| sum | $sum_heap | $sum_colstore | $(ratio "$sum_heap" "$sum_colstore") |"
	exit 0
fi
echo "| query | heap ms | colstore ms | colstore/heap | same rows |"
echo "|---|---|---|---|---|"
for query in "${queries[@]}"; do
	name="${query%%|*}"
	[ "$only" = all ] || [[ ",$only," == *",$name,"* ]] || continue
	sql="${query#*|}"
	declare -A t=() d=()
	for am in heap colstore; do
		s="${sql//_%E/_$am}"
		if [ "$explain" = 1 ]; then
			echo "== $name on $am" >&2
			psql -X -c "EXPLAIN (ANALYZE, BUFFERS) $s"
			continue
		fi
		d[$am]=$(psql -X -q -At -c "$s" | md5sum | cut -d' ' -f1)	# also the warm-up
		t[$am]=$(for i in $(seq "$runs"); do runms "$s"; done | sort -g | sed -n "$(((runs + 1) / 2))p")
	done
	[ "$explain" = 1 ] ||
		echo "| $name | ${t[heap]} | ${t[colstore]} | $(ratio "${t[heap]}" "${t[colstore]}") | $([ "${d[heap]}" = "${d[colstore]}" ] && echo yes || echo MISMATCH) |"
done
