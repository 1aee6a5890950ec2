#!/usr/bin/env bash
# bench/cold_scan.sh: heap vs colstore scans from a cold cache, in one server.
#
# Starts a throwaway cluster (shared_buffers 1GB, jit off, no parallel workers unless --workers),
# loads t5 (c1 bigint, c2 int, c3 numeric, c4 varchar(10), c5 date) with N rows into a heap and a
# colstore table (bench/run.sh's table, with hashed c2 and c3 so that the colstore table is not a
# few pages: c2 and c3 of seed-000 compress to almost nothing), VACUUMs and checkpoints them, then
# times count(c2), sum(c1) (both mostly answered from chunk metadata by ColstoreAgg), sum(c2) +
# sum(c3) (two columns decoded in full) and a GROUP BY with each table's pages neither in shared buffers nor in the OS page
# cache: before each query the server is restarted and the kernel's page cache dropped
# (sync; echo 3 > /proc/sys/vm/drop_caches, so run as root).  Each query runs once, under
# EXPLAIN (ANALYZE, BUFFERS, TIMING OFF): its execution time and the blocks it read (shared read,
# counted by the buffer manager, so read-ahead that was never used counts too) and hit.  Also
# times VACUUM of the colstore table's heap pages from a cold cache after an UPDATE of a tenth of
# the rows.  Prints colstore/heap ratios and whether the results match.
# Usage: bash bench/cold_scan.sh [--rows N] [--port P] [--workers W] [--pg-bin DIR]
#   --pg-bin DIR: use the server in DIR, with colstore already installed there (no build).
# Never run by CI; one run per cold query, so figures vary more than bench/run.sh's medians.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

rows=10000000
port=5451
workers=0
while [ $# -gt 0 ]; do
	case "$1" in
		--rows) rows="$2"; shift 2 ;;
		--port) port="$2"; shift 2 ;;
		--workers) workers="$2"; shift 2 ;;
		--pg-bin)
			export PGBIN="$2" PATH="$2:$PATH" PG_CONFIG="$2/pg_config" BENCH_NO_BUILD=1
			shift 2 ;;
		*) echo "usage: $0 [--rows N] [--port P] [--workers W] [--pg-bin DIR]"; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "$0: dropping the page cache needs root" >&2; exit 2; }

. bench/lib.sh
data=/var/tmp/colstore-bench-cold-$port
bench_server_start "$data" /var/tmp/colstore-bench-cold-socket-$port "$port" \
	'shared_buffers = 1GB' "max_parallel_workers_per_gather = $workers" \
	'max_wal_size = 16GB' 'checkpoint_timeout = 30min'
export PGDATABASE=bench
psql -X -q -d postgres -c "CREATE DATABASE bench"
psql -X -q -c "CREATE EXTENSION colstore"

declare -A R
mismatch=0

# cold SQL: restart the server, drop the page cache, run SQL under EXPLAIN ANALYZE once;
# prints "execution-ms read-blocks hit-blocks"
cold() {
	as_postgres pg_ctl -D "$data" -m fast -w restart -l "$data/server.log" >/dev/null
	sync
	echo 3 >/proc/sys/vm/drop_caches
	psql -X -At -c "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) $1" |
		python3 -c 'import json, sys; p = json.load(sys.stdin)[0]
print(p["Execution Time"], p["Plan"]["Shared Read Blocks"], p["Plan"]["Shared Hit Blocks"])'
}

for am in heap colstore; do
	t="t5_$am"
	echo "== $am: loading $rows rows" >&2
	psql -X -q -c "CREATE TABLE $t (c1 bigint, c2 int, c3 numeric, c4 varchar(10), c5 date) USING $am"
	psql -X -q -c "INSERT INTO $t SELECT i, hashtext(i::text), (hashtext('x' || i) % 1000000)::numeric / 100,
		'v' || (i % 1000), date '2020-01-01' + (i % 1000) FROM generate_series(1, $rows) i"
	psql -X -q -c "VACUUM ANALYZE $t"
	add table_size "$am" "$(psql -X -At -c "SELECT pg_table_size('$t')")"
done
psql -X -q -c "CHECKPOINT"

queries=("count|SELECT count(c2) FROM %s"
	"sum|SELECT sum(c1) FROM %s"
	"sums|SELECT sum(c2), sum(c3) FROM %s"
	"group|SELECT c4, count(*), sum(c3) FROM %s GROUP BY c4")
for q in "${queries[@]}"; do
	name="${q%%|*}"
	for am in heap colstore; do
		s="${q#*|}"
		s="${s//%s/t5_$am}"
		echo "== $am: $name (cold)" >&2
		read -r t r h <<<"$(cold "$s")"
		add "$name" "$am" "$t"
		add "$name-read" "$am" "$r"
		add "$name-hit" "$am" "$h"
		R["digest|$name|$am"]=$(digest "$s ORDER BY 1")
	done
	[ "${R["digest|$name|heap"]}" = "${R["digest|$name|colstore"]}" ] || mismatch=1
done

# VACUUM of heap pages: the UPDATE's new versions are heap tuples in both tables
for am in heap colstore; do
	psql -X -q -c "UPDATE t5_$am SET c2 = 2 WHERE c1 % 10 = 0"
	psql -X -q -c "CHECKPOINT"
	as_postgres pg_ctl -D "$data" -m fast -w restart -l "$data/server.log" >/dev/null
	sync
	echo 3 >/proc/sys/vm/drop_caches
	echo "== $am: VACUUM (cold)" >&2
	add vacuum "$am" "$(ms "VACUUM t5_$am")"
done

count() { awk -v v="$1" 'BEGIN { printf "%d", v }'; }
{
	echo "t5 (hashed c2, c3), $rows rows, cold cache (server restarted, page cache dropped before each query), $("$PG_CONFIG" --version) ($("$PG_CONFIG" --configure | grep -q enable-cassert && echo assertion-enabled || echo release) build), $workers parallel workers ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores)"
	echo
	echo "| metric | heap | colstore | DuckDB | colstore/heap | colstore/DuckDB | same result |"
	echo "|---|---|---|---|---|---|---|"
	row "table size" table_size mb
	for q in count sum sums group; do
		row "$q (cold)" "$q" fmt_ms "$(same "$q")"
		row "$q: blocks read" "$q-read" count
		row "$q: blocks hit" "$q-hit" count
	done
	row "VACUUM after UPDATE of 10% (cold)" vacuum fmt_ms
}
[ "$mismatch" = 0 ] || { echo "MISMATCH: colstore returned different results than heap"; exit 1; }
