#!/usr/bin/env bash
# bench/run.sh: heap vs colstore on the seed-000 workload, in one server, one run.
#
# Starts a throwaway cluster (shared_buffers 4GB, jit off, 2 parallel workers per gather), loads
# t5 (c1 bigint, c2 int, c3 numeric, c4 varchar(10), c5 date) with N rows into a heap and a
# colstore table, and prints load time, size, primary key build, count/sum/GROUP BY (a column and
# an expression), self join,
# point lookups (pgbench, select-only style, 2 clients), a 100,000-row range (through the primary
# key, and without indexes: chunk pruning against a sequential scan), a selective filter on
# unordered columns that returns rows (ColstoreScan's batch filter), UPDATE and DELETE of a tenth
# of the rows each, a scan after them, VACUUM and the sizes it leaves (also after the same UPDATE
# again), and TRUNCATE, with
# colstore/heap ratios, and whether every result matches.  Queries: median of 3 after a warm-up.
# DuckDB (PyPI, in a venv under $COLSTORE_DEPS, 2 threads, in memory) loads the same rows and runs
# the same queries through bench/duckdb_reference.py, as the reference engine: colstore/DuckDB.
# Usage: bash bench/run.sh [--rows N] [--port P] [--pgbench-seconds S]
# Never run by CI; results go to bench/results/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

rows=10000000
port=5450
pgbench_seconds=30
while [ $# -gt 0 ]; do
	case "$1" in
		--rows) rows="$2"; shift 2 ;;
		--port) port="$2"; shift 2 ;;
		--pgbench-seconds) pgbench_seconds="$2"; shift 2 ;;
		*) echo "usage: $0 [--rows N] [--port P] [--pgbench-seconds S]"; exit 2 ;;
	esac
done

. bench/lib.sh
bench_venv duckdb
bench_server_start /var/tmp/colstore-bench /var/tmp/colstore-bench-socket "$port" \
	'shared_buffers = 4GB' 'max_parallel_workers_per_gather = 2' 'max_worker_processes = 8' \
	'max_parallel_workers = 8' 'max_wal_size = 16GB' 'checkpoint_timeout = 30min'
export PGDATABASE=bench
psql -X -q -d postgres -c "CREATE DATABASE bench"
psql -X -q -c "CREATE EXTENSION colstore"

fill="SELECT i, 1, (i % 10000)::numeric / 100, 'v' || (i % 1000), date '2020-01-01' + (i % 1000)
      FROM generate_series(1, $rows) i"
lo=$((rows / 2))
hi=$((lo + 100000 - 1))

declare -A R
mismatch=0

for am in heap colstore; do
	t="t5_$am"
	echo "== $am: loading $rows rows" >&2
	psql -X -q -c "CREATE TABLE $t (c1 bigint, c2 int, c3 numeric, c4 varchar(10), c5 date) USING $am"
	psql -X -q -c "CHECKPOINT"
	add load "$am" "$(ms "INSERT INTO $t $fill")"
	R["digest|load|$am"]=$(digest "SELECT count(*), sum(hashtext(r::text)), min(r::text), max(r::text) FROM $t r")
	add table_size "$am" "$(psql -X -At -c "SELECT pg_table_size('$t')")"
	add pk_build "$am" "$(ms "ALTER TABLE $t ADD PRIMARY KEY (c1)")"
	psql -X -q -c "VACUUM ANALYZE $t"
	add total_size "$am" "$(psql -X -At -c "SELECT pg_total_relation_size('$t')")"
done

queries=(
	"count(c1)|SELECT count(c1) FROM %s"
	"count(c2)|SELECT count(c2) FROM %s"
	"sum(c1)|SELECT sum(c1) FROM %s"
	"GROUP BY c4|SELECT c4, count(*), avg(c3) FROM %s GROUP BY c4 ORDER BY c4"
	"GROUP BY month of c5|SELECT date_trunc('month', c5)::date AS m, count(*), sum(c3) FROM %s GROUP BY 1 ORDER BY 1"
	"self join on c1|SELECT count(*) FROM %s a JOIN %s b ON a.c1 = b.c1"
	"100k-row range|SELECT sum(c3) FROM %s WHERE c1 BETWEEN $lo AND $hi"
	"100k-row range, no index|SET enable_indexscan = off; SET enable_bitmapscan = off; SELECT sum(c3) FROM %s WHERE c1 BETWEEN $((rows / 10)) AND $((rows / 10 + 100000))"
	"selective filter, rows out|SELECT c1, c4, c5 FROM %s WHERE c3 = 42.42 AND c5 > date '2020-06-01' ORDER BY c1"
)
time_queries t5_ "${queries[@]}"
duckdb_reference seed000 --rows "$rows" --expect "$BENCH_TMP" "${queries[@]}"

for am in heap colstore; do
	echo "== $am: point lookups (pgbench, $pgbench_seconds s)" >&2
	script=$(mktemp)
	sed -e "s/@ROWS@/$rows/" -e "s/@TABLE@/t5_$am/" bench/point_lookup.sql.in >"$script"
	pgbench -n -M prepared -c 2 -j 2 -T 5 -f "$script" >/dev/null 2>&1	# warm-up
	tps=$(pgbench -n -M prepared -c 2 -j 2 -T "$pgbench_seconds" -f "$script" 2>&1 |
		sed -n 's/^tps = \([0-9.]*\).*/\1/p')
	add "point lookup tps" "$am" "$tps"
	rm -f "$script"
	ids="SELECT c1, c2, c3, c4, c5 FROM t5_$am WHERE c1 IN (1, $lo, $rows) ORDER BY c1"
	R["digest|lookup|$am"]=$(digest "$ids")
done
[ "${R["digest|lookup|heap"]}" = "${R["digest|lookup|colstore"]}" ] || mismatch=1

[ "${R["digest|load|heap"]}" = "${R["digest|load|colstore"]}" ] || mismatch=1

# UPDATE and DELETE of a tenth of the rows each (issue 4's workload), then the table's content
upd_hi=$((rows / 10))
del_lo=$((rows / 5 + 1))
del_hi=$((rows * 3 / 10))
for am in heap colstore; do
	echo "== $am: UPDATE and DELETE" >&2
	psql -X -q -c "CHECKPOINT"
	add update "$am" "$(ms "UPDATE t5_$am SET c2 = 2 WHERE c1 BETWEEN 1 AND $upd_hi")"
	psql -X -q -c "CHECKPOINT"
	add delete "$am" "$(ms "DELETE FROM t5_$am WHERE c1 BETWEEN $del_lo AND $del_hi")"
	R["digest|changes|$am"]=$(digest "SELECT count(*), sum(hashtext(r::text)) FROM t5_$am r")
	add "sum(c2) after changes" "$am" "$(median3 "SELECT sum(c2) FROM t5_$am")"
	add changed_size "$am" "$(psql -X -At -c "SELECT pg_table_size('t5_$am')")"
	# VACUUM reclaims the old versions; the same UPDATE again reuses their space
	add vacuum "$am" "$(ms "VACUUM t5_$am")"
	add vacuumed_size "$am" "$(psql -X -At -c "SELECT pg_table_size('t5_$am')")"
	add update_again "$am" "$(ms "UPDATE t5_$am SET c2 = 3 WHERE c1 BETWEEN 1 AND $upd_hi")"
	psql -X -q -c "VACUUM t5_$am"
	add reused_size "$am" "$(psql -X -At -c "SELECT pg_table_size('t5_$am')")"
	R["digest|vacuumed|$am"]=$(digest "SELECT count(*), sum(hashtext(r::text)) FROM t5_$am r")
done
[ "${R["digest|changes|heap"]}" = "${R["digest|changes|colstore"]}" ] || mismatch=1
[ "${R["digest|vacuumed|heap"]}" = "${R["digest|vacuumed|colstore"]}" ] || mismatch=1

for am in heap colstore; do
	add truncate "$am" "$(ms "TRUNCATE t5_$am")"
done

out=$(mktemp)
{
	echo "seed-000 table, $rows rows, heap vs colstore in one $("$PG_CONFIG" --version) server, DuckDB $DUCKDB_VERSION in memory ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores)"
	echo
	echo "| metric | heap | colstore | DuckDB | colstore/heap | colstore/DuckDB | same result |"
	echo "|---|---|---|---|---|---|---|"
	row "table size" table_size mb
	row "size with primary key" total_size mb
	row load load fmt_ms "$(same load)"
	row pk_build pk_build fmt_ms
	for q in "${queries[@]}"; do
		name="${q%%|*}"
		row "$name" "$name" fmt_ms "$(same "$name")"
	done
	row "point lookup (tps, higher is better)" "point lookup tps" echo "$(same lookup)"
	row "UPDATE $upd_hi rows" update fmt_ms "$(same changes)"
	row "DELETE $((del_hi - del_lo + 1)) rows" delete fmt_ms "$(same changes)"
	row "sum(c2) after the changes" "sum(c2) after changes" fmt_ms "$(same changes)"
	row "table size after the changes" changed_size mb
	row "VACUUM after the changes" vacuum fmt_ms
	row "table size after VACUUM" vacuumed_size mb
	row "the same UPDATE again" update_again fmt_ms "$(same vacuumed)"
	row "table size after it and VACUUM" reused_size mb
	row truncate truncate fmt_ms
} >"$out"
cat "$out"
mkdir -p bench/results
cp "$out" "bench/results/$(date -u +%Y%m%dT%H%M%S)-$rows.md"
rm -f "$out"
if [ "$mismatch" -ne 0 ]; then
	echo "MISMATCH: colstore returned different results than heap"
	exit 1
fi
