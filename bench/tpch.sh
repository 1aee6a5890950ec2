#!/usr/bin/env bash
# bench/tpch.sh: TPC-H Q1 and Q6 on lineitem as heap, as colstore and in DuckDB, in one run.
#
# Installs duckdb and tpchgen-cli from PyPI into a venv under $COLSTORE_DEPS (bench_venv),
# starts a throwaway cluster (same settings as bench/run.sh), generates TPC-H lineitem at the
# given scale factor as CSV, loads it with COPY into a heap and a colstore table, and with
# bench/duckdb_reference.py into an in-memory DuckDB database (2 threads), and prints table
# size, load time, Q1 and Q6 with colstore/heap and colstore/DuckDB ratios, and whether heap and
# colstore (and, loosely, DuckDB) return the same results.  Queries: median of 3 after a warm-up.
# Usage: bash bench/tpch.sh [--scale SF] [--port P]
# Never run by CI; results go to bench/results/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

scale=1
port=5452
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale="$2"; shift 2 ;;
		--port) port="$2"; shift 2 ;;
		*) echo "usage: $0 [--scale SF] [--port P]"; exit 2 ;;
	esac
done

. bench/lib.sh
bench_venv duckdb tpchgen-cli
bench_server_start /var/tmp/colstore-tpch /var/tmp/colstore-tpch-socket "$port" \
	'shared_buffers = 4GB' 'max_parallel_workers_per_gather = 2' 'max_worker_processes = 8' \
	'max_parallel_workers = 8' 'max_wal_size = 16GB' 'checkpoint_timeout = 30min'
export PGDATABASE=bench
psql -X -q -d postgres -c "CREATE DATABASE bench"
psql -X -q -c "CREATE EXTENSION colstore"

echo "== generating lineitem, scale factor $scale" >&2
"$BENCH_VENV/bin/tpchgen-cli" csv --scale-factor "$scale" --tables lineitem --output-dir "$BENCH_TMP" --quiet
file="$BENCH_TMP/lineitem.csv"

columns="l_orderkey bigint, l_partkey bigint, l_suppkey bigint, l_linenumber int,
	l_quantity numeric(15,2), l_extendedprice numeric(15,2), l_discount numeric(15,2),
	l_tax numeric(15,2), l_returnflag char(1), l_linestatus char(1), l_shipdate date,
	l_commitdate date, l_receiptdate date, l_shipinstruct char(25), l_shipmode char(10),
	l_comment varchar(44)"
q1="SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,
	sum(l_extendedprice) AS sum_base_price,
	sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
	sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
	avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc,
	count(*) AS count_order
FROM %s
WHERE l_shipdate <= date '1998-12-01' - interval '90' day
GROUP BY l_returnflag, l_linestatus
ORDER BY l_returnflag, l_linestatus"
q6="SELECT sum(l_extendedprice * l_discount) AS revenue
FROM %s
WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1994-01-01' + interval '1' year
	AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24"
queries=("Q1|$q1" "Q6|$q6")

declare -A R
mismatch=0
for am in heap colstore; do
	t="lineitem_$am"
	echo "== $am: loading lineitem" >&2
	psql -X -q -c "CREATE TABLE $t ($columns) USING $am"
	psql -X -q -c "CHECKPOINT"
	add load "$am" "$(ms "COPY $t FROM '$file' WITH (FORMAT csv, HEADER true)")"
	R["digest|load|$am"]=$(digest "SELECT count(*), sum(hashtext(r::text)), min(r::text), max(r::text) FROM $t r")
	psql -X -q -c "VACUUM ANALYZE $t"
	add table_size "$am" "$(psql -X -At -c "SELECT pg_table_size('$t')")"
done
[ "${R["digest|load|heap"]}" = "${R["digest|load|colstore"]}" ] || mismatch=1

time_queries lineitem_ "${queries[@]}"

duckdb_reference tpch --file "$file" --columns "$columns" --expect "$BENCH_TMP" "${queries[@]}"
rows=$(psql -X -At -c "SELECT count(*) FROM lineitem_heap")

out=$(mktemp)
{
	echo "TPC-H lineitem, scale factor $scale ($rows rows), heap vs colstore in one server, DuckDB $DUCKDB_VERSION in memory ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores)"
	echo
	echo "| metric | heap | colstore | DuckDB | colstore/heap | colstore/DuckDB | same result |"
	echo "|---|---|---|---|---|---|---|"
	row "table size" table_size mb
	row load load fmt_ms "$(same load)"
	for q in "${queries[@]}"; do
		name="${q%%|*}"
		row "$name" "$name" fmt_ms "$(same "$name")"
	done
} >"$out"
cat "$out"
mkdir -p bench/results
cp "$out" "bench/results/$(date -u +%Y%m%dT%H%M%S)-tpch-$scale.md"
rm -f "$out"
if [ "$mismatch" -ne 0 ]; then
	echo "MISMATCH: colstore returned different results than heap"
	exit 1
fi
