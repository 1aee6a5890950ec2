#!/usr/bin/env bash
# bench/sorted_agg.sh: ColstoreAgg's sorted grouping (src/cscan/agg_sorted.c) on TPC-H Q18 and
# its subquery (GROUP BY l_orderkey HAVING sum(l_quantity) > 300 over lineitem, which colstore
# holds in l_orderkey order), heap against colstore with the sorted grouping off (before: the
# plans colstore made without it) and on, in a server that is already running (the one PGHOST
# and PGPORT point at, colstore installed) with the TPC-H tables of bench/tpch_some.sh --load in
# database "bench".  bench/tpch.sh's settings (2 parallel workers per gather, work_mem 64MB, jit
# off); each query one warm-up run, then the median of three timed runs (bench/lib.sh median3),
# the ratio to heap, and whether it returned heap's rows.
# Usage: bash bench/sorted_agg.sh
# Never run by CI.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

export PGDATABASE=bench
scale=1
base="-c max_parallel_workers_per_gather=2 -c work_mem=64MB -c jit=off"
eval "$(tpch_part '^fraction=' '^# The queries whose ORDER BY')"	# queries
q18=""
for query in "${queries[@]}"; do [ "${query%%|*}" = Q18 ] && q18="${query#*|}"; done
[ -n "$q18" ] || { echo "bench/tpch.sh has no Q18" >&2; exit 1; }
sub="SELECT l_orderkey FROM lineitem_%E GROUP BY l_orderkey HAVING sum(l_quantity) > 300 ORDER BY 1"

echo "| query | heap ms | colstore, sorted grouping off ms | ratio | colstore, sorted grouping on ms | ratio | same rows |"
echo "|---|---|---|---|---|---|---|"
for name in subquery Q18; do
	sql="$sub"
	[ "$name" = Q18 ] && sql="$q18"
	heap="${sql//_%E/_heap}" col="${sql//_%E/_colstore}"
	export PGOPTIONS="$base"
	d_heap=$(digest "$heap")
	t_heap=$(median3 "$heap")
	export PGOPTIONS="$base -c colstore.enable_sorted_agg=off"
	d_off=$(digest "$col")
	t_off=$(median3 "$col")
	export PGOPTIONS="$base -c colstore.enable_sorted_agg=on"
	d_on=$(digest "$col")
	t_on=$(median3 "$col")
	same=yes
	[ "$d_heap" = "$d_off" ] && [ "$d_heap" = "$d_on" ] || same=MISMATCH
	echo "| $name | $t_heap | $t_off | $(ratio "$t_heap" "$t_off") | $t_on | $(ratio "$t_heap" "$t_on") | $same |"
done
