#!/usr/bin/env bash
# bench/citus_tpch.sh: the 22 TPC-H queries on a Citus cluster whose shards are heap, colstore
# or Citus's own columnar access method, in one run.
#
# Starts three throwaway PostgreSQL 15 servers on this machine, a Citus coordinator on --port and
# two workers on the next two ports, under /var/tmp/colstore-citus-bench, talking over unix
# sockets (citus.local_hostname is the socket directory), with Citus and colstore preloaded,
# max_connections 100, max_prepared_transactions 20 and bench/tpch.sh's settings (jit off, 2
# parallel workers per gather, work_mem 64MB; shared_buffers 2GB per worker, 512MB on the
# coordinator, as three servers share the machine); citus.shard_count = 4 and
# citus.enable_repartition_joins = on, as Citus users run TPC-H.  Uses Citus and colstore as
# installed (builds nothing).  Generates the 8 TPC-H tables at the given scale factor with
# tpchgen-cli (bench_venv) and loads them three times, as <table>_heap, <table>_colstore and
# <table>_columnar (CREATE EXTENSION citus_columnar): lineitem and orders distributed by their
# order key (co-located), part and partsupp by their part key (co-located), customer by its key,
# region, nation and supplier reference tables; COPY through the coordinator, then bench/tpch.sh's
# primary keys, then VACUUM ANALYZE.  Every shard placement is checked to have the intended
# access method, and the three loads to hold the same rows.  Runs Q1-Q22 on each: one warm-up,
# then the median of 3, each run limited to --limit seconds (a warm-up over the limit skips the
# timed runs).  A query Citus refuses is reported with Citus's message and left out of the
# geometric means.  Prints sizes (one copy of every shard: citus_total_relation_size and
# citus_table_size), load times and each query with colstore/heap and colstore/columnar, whether
# colstore returns heap's rows (and columnar's), the geometric means over the queries all three
# ran.  Exits 1 if heap and colstore differ (rows, or one failing where the other does not).
#
# Reuse of bench/tpch.sh: it runs as it is read, so it cannot be sourced.  Its table
# definitions, primary keys, the 22 query texts, the tie handling (untie), run_query, measure,
# qcell and qratio are read out of it with a small parser (tpch_part, bench/lib.sh: the lines from one
# top-level marker to the next) and evaluated here, so the two benches always run the same
# queries; bench/lib.sh is sourced (bench_venv, ms, digest, add, ratio, mb, fmt_ms, cell).
#
# Usage: bash bench/citus_tpch.sh [--scale SF] [--port P] [--limit S] [--queries Q1,Q6] [--runs N]
#                                  [--keep]
#   --queries runs only the named queries (comma separated), --runs N times each after the warm-up
#   (the median is reported; default 3); --keep leaves the data directories (the servers are
#   always stopped on exit).
# scripts/test.sh runs it at scale factor 0.01 (with 15) for its check that colstore shards return
# heap shards' rows; results go to bench/results/<timestamp>-citus-tpch-<SF>.md (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

scale=1
port=5481
limit=60
keep=0
only=""
runs=3
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale="$2"; shift 2 ;;
		--port) port="$2"; shift 2 ;;
		--limit) limit="$2"; shift 2 ;;
		--queries) only="$2"; shift 2 ;;
		--runs) runs="$2"; shift 2 ;;
		--keep) keep=1; shift ;;
		*) echo "usage: $0 [--scale SF] [--port P] [--limit S] [--queries Q1,Q6] [--runs N] [--keep]"; exit 2 ;;
	esac
done
limit_ms=$(awk -v s="$limit" 'BEGIN { printf "%d", s * 1000 }')
[ -f "$("$PG_CONFIG" --pkglibdir)/citus.so" ] || { echo "Citus is not installed for $PG_CONFIG" >&2; exit 2; }

. bench/lib.sh

eval "$(tpch_part '^tables=\(' '^declare -A R$')"			# tables, columns, pkey
eval "$(tpch_part '^# must_ms SQL' '^for am in heap colstore')"		# must_ms, list
eval "$(tpch_part '^fraction=' '^# The queries whose ORDER BY')"	# queries (uses $scale)
eval "$(tpch_part '^declare -A TIES' '^names=\(\)$')"			# untie, run_query, measure
eval "$(tpch_part '^# qcell NAME ENGINE' '^# qsame NAME')"		# qcell, qratio
[ "${#tables[@]}" -eq 8 ] && [ "${#queries[@]}" -eq 22 ] &&
	declare -F must_ms list untie run_query measure qcell qratio >/dev/null ||
	{ echo "bench/tpch.sh no longer has the parts this script reads" >&2; exit 2; }

ams=(heap colstore columnar)
base=/var/tmp/colstore-citus-bench
sock="$base/socket"
nodes=(coordinator worker1 worker2)
declare -A node_port=([coordinator]=$port [worker1]=$((port + 1)) [worker2]=$((port + 2)))

stop_nodes() {
	local n
	for n in "${nodes[@]}"; do
		[ -d "$base/$n" ] || continue
		as_postgres pg_ctl -D "$base/$n" -m fast -w stop >/dev/null 2>&1 ||
			as_postgres pg_ctl -D "$base/$n" -m immediate -w stop >/dev/null 2>&1 || true
	done
}
citus_exit() {
	stop_nodes
	rm -rf "${BENCH_TMP:-/nonexistent}"
	if [ "$keep" -eq 0 ]; then rm -rf "$base"; fi
}

bench_venv tpchgen-cli
BENCH_TMP=$(mktemp -d /var/tmp/colstore-bench-tmp.XXXXXX)
chmod 755 "$BENCH_TMP"
trap citus_exit EXIT
stop_nodes
rm -rf "$base"
mkdir -p "$sock"
chown postgres "$base" "$sock"
for n in "${nodes[@]}"; do
	as_postgres initdb -D "$base/$n" --locale=C.UTF-8 -E UTF8 -A trust >/dev/null
	if [ "$n" = coordinator ]; then sb=512MB; else sb=2GB; fi
	cat >>"$base/$n/postgresql.conf" <<-EOF
		port = ${node_port[$n]}
		listen_addresses = ''
		unix_socket_directories = '$sock'
		jit = off
		shared_preload_libraries = 'citus,colstore'
		max_connections = 100
		max_prepared_transactions = 20
		max_worker_processes = 20
		max_parallel_workers_per_gather = 2
		max_parallel_workers = 8
		shared_buffers = $sb
		work_mem = 64MB
		max_wal_size = 16GB
		checkpoint_timeout = 30min
		citus.local_hostname = '$sock'
		citus.shard_count = 4
		citus.enable_repartition_joins = on
	EOF
	as_postgres pg_ctl -D "$base/$n" -l "$base/$n/server.log" -w start >/dev/null
	psql -X -q -h "$sock" -p "${node_port[$n]}" -U postgres -d postgres -c "CREATE DATABASE bench"
	psql -X -q -h "$sock" -p "${node_port[$n]}" -U postgres -d bench \
		-c "CREATE EXTENSION citus" -c "CREATE EXTENSION IF NOT EXISTS citus_columnar" \
		-c "CREATE EXTENSION colstore"
done
export PGHOST="$sock" PGPORT="$port" PGUSER=postgres PGDATABASE=bench
psql -X -q -At -c "SELECT citus_set_coordinator_host('$sock', $port)" >/dev/null
psql -X -q -At -c "SELECT citus_add_node('$sock', $((port + 1)))" \
	-c "SELECT citus_add_node('$sock', $((port + 2)))" >/dev/null
citus_version=$(psql -X -At -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'")

echo "== generating the 8 tables, scale factor $scale" >&2
"$BENCH_VENV/bin/tpchgen-cli" csv --scale-factor "$scale" --output-dir "$BENCH_TMP" --quiet

declare -A R
declare -A dist=([orders]="'o_orderkey'" [lineitem]="'l_orderkey', colocate_with => 'orders_%E'"
	[part]="'p_partkey'" [partsupp]="'ps_partkey', colocate_with => 'part_%E'"
	[customer]="'c_custkey'")
mismatch=0

for am in "${ams[@]}"; do
	echo "== $am: loading" >&2
	for t in "${tables[@]}"; do
		psql -X -q -c "CREATE TABLE ${t}_$am (${columns[$t]}) USING $am"
		if [ -n "${dist[$t]:-}" ]; then
			psql -X -q -At -c "SELECT create_distributed_table('${t}_$am', ${dist[$t]//%E/$am})" >/dev/null
		else
			psql -X -q -At -c "SELECT create_reference_table('${t}_$am')" >/dev/null
		fi
	done
	psql -X -q -c "SELECT * FROM run_command_on_all_nodes('CHECKPOINT')" >/dev/null
	load=0
	for t in "${tables[@]}"; do
		copy=$(must_ms "COPY ${t}_$am FROM '$BENCH_TMP/$t.csv' WITH (FORMAT csv, HEADER true)")
		pk=$(must_ms "ALTER TABLE ${t}_$am ADD PRIMARY KEY (${pkey[$t]})")
		load=$(awk -v a="$load" -v b="$copy" -v c="$pk" 'BEGIN { print a + b + c }')
	done
	add load "$am" "$load"
	# every placement of every shard has the intended access method
	for t in "${tables[@]}"; do
		wrong=$(psql -X -At -c "SELECT count(*) FROM run_command_on_placements('${t}_$am',
			\$\$SELECT a.amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE c.oid = '%s'::regclass\$\$)
			WHERE NOT success OR result <> '$am'")
		[ "$wrong" = 0 ] || { echo "${t}_$am: $wrong shard placements are not $am" >&2; exit 1; }
	done
	check=""
	for t in "${tables[@]}"; do
		check+="${check:+ UNION ALL }SELECT '$t' AS t, count(*), sum(hashtext(r::text)), min(r::text), max(r::text) FROM ${t}_$am r"
	done
	R["digest|load|$am"]=$(digest "SELECT * FROM ($check) s ORDER BY t")
	psql -X -q -c "VACUUM ANALYZE $(list "$am")"
	in="unnest(string_to_array('$(list "$am")', ', ')::regclass[]) c"
	add total_size "$am" "$(psql -X -At -c "SELECT sum(citus_total_relation_size(c)) FROM $in")"
	add table_size "$am" "$(psql -X -At -c "SELECT sum(citus_table_size(c)) FROM $in")"
done
shards=$(psql -X -At -c "SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = 'lineitem_heap'::regclass")

names=()
n=0
for query in "${queries[@]}"; do
	n=$((n + 1))
	name="${query%%|*}"
	[ -z "$only" ] || [[ ",$only," == *",$name,"* ]] || continue
	names+=("$name")
	for am in "${ams[@]}"; do
		sql="${query#*|}"
		measure "$name" "$n" "$am" "${sql//_%E/_$am}"
		# Citus's refusal (or any failure): its message, from run_query's stderr
		[ "${R["status|$name|$am"]:-}" != error ] ||
			R["why|$name|$am"]=$(grep -m1 'ERROR' "$BENCH_TMP/stderr" | sed 's/^.*ERROR: *//')
	done
done

# qsame3 NAME: colstore against heap (yes, MISMATCH, "-" unless both finished, "refused" if
# both failed, "error" if one did), then colstore against columnar
qsame3() {
	local h="${R["digest|$1|heap"]:-}" c="${R["digest|$1|colstore"]:-}" o="${R["digest|$1|columnar"]:-}"
	local hs="${R["status|$1|heap"]:-}" cs="${R["status|$1|colstore"]:-}" os="${R["status|$1|columnar"]:-}" s
	if [ "$hs" = error ] && [ "$cs" = error ]; then s="refused"
	elif [ "$hs" = error ] || [ "$cs" = error ]; then s=error
	elif [ -z "$h" ] || [ -z "$c" ]; then s="-"
	elif [ "$h" = "$c" ]; then s=yes
	else s=MISMATCH; fi
	if [ "$s" = refused ] && [ "$os" = error ]; then :
	elif [ "$os" = error ]; then s="$s (columnar: error)"
	elif [ -n "$c" ] && [ -n "$o" ]; then
		if [ "$c" = "$o" ]; then s="$s (columnar: yes)"; else s="$s (columnar: differs)"; fi
	fi
	echo "$s"
}

failed=()
ran=()
for name in "${names[@]}"; do
	s=$(qsame3 "$name")
	case "$s" in
		refused*) ;;
		MISMATCH* | error*) failed+=("$name") ;;
	esac
	[ "${R["status|$name|heap"]:-}" = error ] || [ "${R["status|$name|colstore"]:-}" = error ] ||
		[ "${R["status|$name|columnar"]:-}" = error ] || ran+=("$name")
	if [[ "$s" == MISMATCH* ]]; then
		n=$(printf '%s\n' "${names[@]}" | grep -nx "$name" | cut -d: -f1)
		echo "== $name: heap and colstore differ (diff of their psql -At output)" >&2
		diff "$BENCH_TMP/$n.heap.txt" "$BENCH_TMP/$n.colstore.txt" | head -n 40 >&2 || true
	fi
done

# geomean AM: geometric mean of the times of the queries all three ran (the limit for one over it)
geomean() {
	local name
	for name in "${ran[@]}"; do echo "${R["$name|$1"]}"; done |
		awk '{ s += log($1 > 0.001 ? $1 : 0.001); n++ } END { if (n) printf "%.3f", exp(s / n) }'
}
for am in "${ams[@]}"; do add geomean "$am" "$(geomean "$am")"; done
# slower A B: on how many of the queries all three ran B took longer than A
slower() {
	local name k=0
	for name in "${ran[@]}"; do
		if awk -v a="${R["$name|$1"]}" -v b="${R["$name|$2"]}" 'BEGIN { exit !(b > a) }'; then k=$((k + 1)); fi
	done
	echo "$k"
}
# row3 LABEL M FORMAT [SAME]: | metric | heap | colstore | columnar | colstore/heap | colstore/columnar | same |
row3() {
	local h="${R["$2|heap"]:-}" c="${R["$2|colstore"]:-}" o="${R["$2|columnar"]:-}"
	echo "| $1 | $(cell "$3" "$h") | $(cell "$3" "$c") | $(cell "$3" "$o") | $(ratio "$h" "$c") | $(ratio "$o" "$c") | ${4:-} |"
}
load_same() {
	local s
	if [ "${R["digest|load|heap"]}" = "${R["digest|load|colstore"]}" ]; then s=yes; else s=MISMATCH; fi
	if [ "${R["digest|load|columnar"]}" = "${R["digest|load|colstore"]}" ]; then
		echo "$s (columnar: yes)"
	else
		echo "$s (columnar: differs)"
	fi
}
rows=$(psql -X -At -c "SELECT count(*) FROM lineitem_heap")

out=$(mktemp)
{
	echo "TPC-H on Citus $citus_version, scale factor $scale ($rows lineitem rows), coordinator + 2 workers (PostgreSQL $(psql -X -At -c 'SHOW server_version' | cut -d' ' -f1)) on one machine over unix sockets, $shards shards per distributed table, heap vs colstore vs Citus columnar shards in one cluster, median of $runs runs after a warm-up, limit $limit s per query ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores)"
	echo
	echo "lineitem and orders distributed by order key (co-located), part and partsupp by part key (co-located), customer by customer key; region, nation and supplier reference tables; citus.enable_repartition_joins = on. Sizes are one copy of every shard (citus_total_relation_size, citus_table_size), reference tables counted once."
	echo
	echo "| metric | heap | colstore | columnar | colstore/heap | colstore/columnar | same result |"
	echo "|---|---|---|---|---|---|---|"
	row3 "total size (tables + primary keys)" total_size mb
	row3 "tables size" table_size mb
	row3 "load (COPY + primary keys)" load fmt_ms "$(load_same)"
	for name in "${names[@]}"; do
		echo "| $name | $(qcell "$name" heap) | $(qcell "$name" colstore) | $(qcell "$name" columnar) | $(qratio "$name" heap colstore) | $(qratio "$name" columnar colstore) | $(qsame3 "$name") |"
	done
	row3 "geometric mean, the ${#ran[@]} queries all three ran" geomean fmt_ms
	echo
	keys=$(awk -v t="${R["total_size|colstore"]}" -v s="${R["table_size|colstore"]}" -v h="${R["total_size|heap"]}" \
		'BEGIN { if (h > 0) printf "%.3f", (t - s) / h }')
	echo "Size: the primary keys are btrees, alike for every access method; colstore's alone are $keys of heap's total size, so the issue's size target (0.15x) is read as the tables' size (the part the access method stores)."
	echo
	echo "Geometric means count a query over the limit at the limit. Of those ${#ran[@]} queries colstore is slower than heap on $(slower heap colstore) and slower than columnar on $(slower columnar colstore)."
	refused=0
	for name in "${names[@]}"; do
		for am in "${ams[@]}"; do
			[ -n "${R["why|$name|$am"]:-}" ] || continue
			if [ "$refused" -eq 0 ]; then
				echo
				echo "Queries that failed (Citus's message):"
				echo
				refused=1
			fi
			# one line for a message all three gave
			if [ "${R["why|$name|heap"]:-}" = "${R["why|$name|colstore"]:-}" ] &&
				[ "${R["why|$name|heap"]:-}" = "${R["why|$name|columnar"]:-}" ]; then
				echo "- $name, on all three: ${R["why|$name|$am"]}"
				break
			fi
			echo "- $name on $am: ${R["why|$name|$am"]}"
		done
	done
} >"$out"
cat "$out"
mkdir -p bench/results
cp "$out" "bench/results/$(date -u +%Y%m%dT%H%M%S)-citus-tpch-$scale.md"
rm -f "$out"
[ "${R["digest|load|heap"]}" = "${R["digest|load|colstore"]}" ] ||
	{ echo "MISMATCH: load (colstore's tables hold different rows than heap's)"; mismatch=1; }
for name in "${failed[@]}"; do
	if [ "$(qsame3 "$name" | cut -d' ' -f1)" = error ]; then
		echo "MISMATCH: $name (failed on heap or colstore, not both)"
	else
		echo "MISMATCH: $name (colstore returned different rows than heap)"
	fi
	mismatch=1
done
[ "$mismatch" -eq 0 ] || exit 1
