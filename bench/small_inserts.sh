#!/usr/bin/env bash
# bench/small_inserts.sh: size of rows that arrive 10 per transaction, against the same rows
# loaded in one transaction, for heap and colstore in one server (issue 4's small-write target;
# seed 000 measured Citus at 280x this way).
#
# Starts a throwaway cluster, loads --rows rows of (c1 bigint, c2 text) into a table in one
# INSERT, and the same number into another table through pgbench, 10 rows per transaction
# (2 clients), waits for colstore's compaction workers to finish, then runs VACUUM on both and
# prints pg_total_relation_size of each and the ratio small/bulk, for heap and for colstore, and
# whether the tables hold the same rows.
# Usage: bash bench/small_inserts.sh [--rows N] [--port P]
# Never run by CI; results go to bench/results/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

rows=200000
port=5452
while [ $# -gt 0 ]; do
	case "$1" in
		--rows) rows="$2"; shift 2 ;;
		--port) port="$2"; shift 2 ;;
		*) echo "usage: $0 [--rows N] [--port P]"; exit 2 ;;
	esac
done

. bench/lib.sh
bench_server_start /var/tmp/colstore-small /var/tmp/colstore-small-socket "$port" 'shared_buffers = 1GB'
export PGDATABASE=bench
psql -X -q -d postgres -c "CREATE DATABASE bench"
psql -X -q -c "CREATE EXTENSION colstore"

txns=$((rows / 10))
declare -A R
for am in heap colstore; do
	echo "== $am: $rows rows in bulk, and $txns transactions of 10 rows" >&2
	psql -X -q -c "CREATE TABLE bulk_$am (c1 bigint, c2 text) USING $am" \
		-c "CREATE TABLE small_$am (c1 bigint, c2 text) USING $am" \
		-c "CREATE SEQUENCE seq_$am" \
		-c "INSERT INTO bulk_$am SELECT i, md5(i::text) FROM generate_series(1, $rows) i"
	script=$(mktemp)
	echo "INSERT INTO small_$am SELECT i, md5(i::text) FROM (SELECT nextval('seq_$am') i FROM generate_series(1, 10)) s;" >"$script"
	pgbench -n -c 2 -j 2 -t $((txns / 2)) -f "$script" >/dev/null 2>&1
	rm -f "$script"
	# automatic compaction: let the workers it started finish (at most 60 s)
	for _ in $(seq 600); do
		[ "$(psql -X -At -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'colstore compaction'")" = 0 ] && break
		sleep 0.1
	done
	psql -X -q -c "VACUUM bulk_$am" -c "VACUUM small_$am"
	R["bulk|$am"]=$(psql -X -At -c "SELECT pg_total_relation_size('bulk_$am')")
	R["small|$am"]=$(psql -X -At -c "SELECT pg_total_relation_size('small_$am')")
	R["same|$am"]=$(psql -X -At -c "SELECT count(*) = 0 FROM ((TABLE bulk_$am EXCEPT TABLE small_$am) UNION ALL (TABLE small_$am EXCEPT TABLE bulk_$am)) d")
done

mb() { awk -v b="$1" 'BEGIN { printf "%.2f MB", b / 1048576 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }'; }
out=$(mktemp)
{
	echo "$rows rows of (c1 bigint, c2 text), 10 per transaction vs one INSERT, after VACUUM ($(date -u '+%Y-%m-%d %H:%M UTC'))"
	echo
	echo "| table | bulk | 10 rows per transaction | small/bulk | same rows |"
	echo "|---|---|---|---|---|"
	for am in heap colstore; do
		echo "| $am | $(mb "${R[bulk|$am]}") | $(mb "${R[small|$am]}") | $(ratio "${R[bulk|$am]}" "${R[small|$am]}") | ${R[same|$am]} |"
	done
} >"$out"
cat "$out"
mkdir -p bench/results
cp "$out" "bench/results/$(date -u +%Y%m%dT%H%M%S)-small-inserts-$rows.md"
rm -f "$out"
[ "${R[same|heap]}" = t ] && [ "${R[same|colstore]}" = t ]
