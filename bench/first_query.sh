#!/usr/bin/env bash
# bench/first_query.sh: what a new connection's first query costs on colstore and on heap, with
# the shared row group header cache off and on, in one server, one run (issue 22 item 4).
#
# Creates database first_query with a ROWS-row colstore table tc and its heap twin th (the same
# rows; th has a btree index on a, so the selective query is a millisecond query on both), then,
# with colstore.header_cache_size = 0 and then at its default (the server is restarted for
# each), for the two queries
#   count:  SELECT count(*) FROM t
#   range:  SELECT sum(c) FROM t WHERE a < 1000
# on each table measures
#   - pgbench latency with a new connection per transaction (-C) and without, T seconds each;
#   - the backend CPU time (from /proc/<pid>/schedstat) of the first and of the second run of
#     the query in a new connection, median over N connections: the first minus the second is
#     what the first query pays to read metadata and warm caches;
#   - the backend CPU time per query of 300 runs in one connection (less noisy than latency on a
#     shared machine; row group headers are read by every query, so the cache shows here too).
# and prints a table with colstore/heap ratios.  Timings on a shared machine are noisy: compare
# the ratios of one run, never figures across runs.
# Usage: PGHOST=... PGPORT=... [PGVERSION=V] bash bench/first_query.sh --pgdata DIR [--rows R] [--seconds T]
#        [--conns N]
# The server must have colstore in shared_preload_libraries; DIR is its data directory
# (restarted with pg_ctl as the postgres user, logging to first_query_server.log beside it).  Never run by CI; nothing is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

rows=2000000
seconds=5
conns=100
pgdata=""
while [ $# -gt 0 ]; do
	case "$1" in
		--rows) rows="$2"; shift 2 ;;
		--seconds) seconds="$2"; shift 2 ;;
		--conns) conns="$2"; shift 2 ;;
		--pgdata) pgdata="$2"; shift 2 ;;
		*) echo "usage: $0 --pgdata DIR [--rows R] [--seconds T] [--conns N]"; exit 2 ;;
	esac
done
[ -n "$pgdata" ] || { echo "--pgdata is required" >&2; exit 2; }
export PGDATABASE=first_query
work=$(mktemp -d /var/tmp/first-query.XXXXXX)
trap 'rm -rf "$work"' EXIT

pg_ctl="$PGBIN/pg_ctl"
server_log="$(dirname "$pgdata")/first_query_server.log"
restart() {
	runuser -u postgres -- "$pg_ctl" -D "$pgdata" -l "$server_log" -w -m fast restart >/dev/null
}
restart_with() {
	psql -X -q -d postgres -c "ALTER SYSTEM SET colstore.header_cache_size = '$1'"
	restart
}

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS first_query" -c "CREATE DATABASE first_query"
psql -X -q <<SQL
CREATE EXTENSION colstore;
CREATE TABLE th (a int, b int, c bigint);
INSERT INTO th SELECT i, i % 1000, i * 2 FROM generate_series(1, $rows) i;
CREATE INDEX ON th (a);
CREATE TABLE tc (a int, b int, c bigint) USING colstore;
INSERT INTO tc SELECT a, b, c FROM th ORDER BY a;
VACUUM ANALYZE th, tc;
CHECKPOINT;
SQL

declare -A Q=([count]="SELECT count(*) FROM %s" [range]="SELECT sum(c) FROM %s WHERE a < 1000")
for q in count range; do
	for t in th tc; do
		printf "${Q[$q]};\n" "$t" >"$work/$q-$t.sql"
		[ "$(psql -X -At -f "$work/$q-$t.sql")" = "$(psql -X -At -f "$work/$q-th.sql")" ] ||
			{ echo "colstore and heap disagree on $q" >&2; exit 1; }
	done
done

latency() {
	pgbench -n "$@" 2>&1 | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p'
}

# median backend CPU microseconds of the first and the second run of file $1 in new connections
first_second() {
	local i
	for i in $(seq "$conns"); do
		psql -X -q -At <<SQL
SELECT pg_backend_pid() AS pid \gset
\setenv PID :pid
\o /dev/null
\! awk '{printf "%d ", \$1 / 1000}' /proc/\$PID/schedstat
\i $1
\! awk '{printf "%d ", \$1 / 1000}' /proc/\$PID/schedstat
\i $1
\! awk '{printf "%d\n", \$1 / 1000}' /proc/\$PID/schedstat
SQL
	done | grep -E '^[0-9]+ [0-9]+ [0-9]+$' | python3 -c '
import sys, statistics as st
r = [list(map(int, l.split())) for l in sys.stdin]
print("%d %d" % (st.median(x[1] - x[0] for x in r), st.median(x[2] - x[1] for x in r)))'
}

# backend CPU microseconds per run of file $1, over $2 runs in one connection (after one)
steady() {
	local i
	{
		echo 'SELECT pg_backend_pid() AS pid \gset'
		echo '\setenv PID :pid'
		echo '\o /dev/null'
		echo "\\i $1"
		echo "\\! awk '{printf \"%d \", \$1 / 1000}' /proc/\$PID/schedstat"
		for i in $(seq "$2"); do echo "\\i $1"; done
		echo "\\! awk '{printf \"%d\\n\", \$1 / 1000}' /proc/\$PID/schedstat"
	} >"$work/steady.sql"
	psql -X -q -At -f "$work/steady.sql" | awk -v n="$2" '{ printf "%d", ($2 - $1) / n }'
}

declare -A R
for cache in 0 16MB; do
	restart_with "$cache"
	for q in count range; do
		for t in th tc; do
			f="$work/$q-$t.sql"
			# warm the shared buffers (and the header cache) once
			psql -X -q -f "$f" >/dev/null
			R[$cache|$q|$t|C]=$(latency -C -T "$seconds" -f "$f")
			R[$cache|$q|$t|S]=$(latency -T "$seconds" -f "$f")
			R[$cache|$q|$t|cpu]=$(first_second "$f")
			R[$cache|$q|$t|steady]=$(steady "$f" 300)
		done
	done
	R[$cache|size]=$(psql -X -At -c "SELECT size_bytes FROM colstore.header_cache_stats()")
done
psql -X -q -d postgres -c "ALTER SYSTEM RESET colstore.header_cache_size"
restart

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }'; }
echo "bench/first_query.sh: $rows rows, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC'), $(psql -X -At -c 'SHOW server_version')"
echo
echo "| header cache | query | -C latency heap / colstore (ms) | ratio | latency heap / colstore (ms) | ratio | first-query CPU heap / colstore (us) | second-query CPU heap / colstore (us) | CPU per query, 300 in one session, heap / colstore (us) | ratio |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for cache in 0 16MB; do
	for q in count range; do
		read -r hf hs <<<"${R[$cache|$q|th|cpu]}"
		read -r cf cs <<<"${R[$cache|$q|tc|cpu]}"
		echo "| $cache (${R[$cache|size]} bytes) | $q | ${R[$cache|$q|th|C]} / ${R[$cache|$q|tc|C]} | $(ratio "${R[$cache|$q|th|C]}" "${R[$cache|$q|tc|C]}") | ${R[$cache|$q|th|S]} / ${R[$cache|$q|tc|S]} | $(ratio "${R[$cache|$q|th|S]}" "${R[$cache|$q|tc|S]}") | $hf / $cf | $hs / $cs | ${R[$cache|$q|th|steady]} / ${R[$cache|$q|tc|steady]} | $(ratio "${R[$cache|$q|th|steady]}" "${R[$cache|$q|tc|steady]}") |"
	done
done
