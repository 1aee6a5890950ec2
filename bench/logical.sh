#!/usr/bin/env bash
# bench/logical.sh: heap vs colstore as a logical replication source (issue 18's targets), in one
# publisher server and one subscriber server, one run.
#
# 1. Load: the seed-000 table (N rows, as bench/run.sh loads it) into a heap and a colstore table
#    at wal_level = logical, with a test_decoding slot per table created before the load: load
#    time, and WAL bytes written by the INSERT (pg_current_wal_insert_lsn before and after).
# 2. Decoding that load: pg_recvlogical streams each table's slot to /dev/null up to the LSN after
#    the load; rows per second.  The output's row count is checked against N.
# 3. pgbench TPC-B replicated to a subscriber: databases pgb_heap and pgb_colstore (in the latter
#    pgbench_accounts and pgbench_history are colstore, on both sides), each published and
#    subscribed; TPC-B runs for S seconds with 2 clients, then the lag at the end is the time from
#    pgbench's end until the subscriber has applied everything the publisher wrote.  Afterwards
#    the subscriber's account balances must equal the publisher's.
# Usage: bash bench/logical.sh [--rows N] [--scale S] [--seconds S] [--port P]
# Never run by CI; results go to bench/results/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

rows=10000000
scale=10
seconds=60
port=5452
while [ $# -gt 0 ]; do
	case "$1" in
		--rows) rows="$2"; shift 2 ;;
		--scale) scale="$2"; shift 2 ;;
		--seconds) seconds="$2"; shift 2 ;;
		--port) port="$2"; shift 2 ;;
		*) echo "usage: $0 [--rows N] [--scale S] [--seconds S] [--port P]"; exit 2 ;;
	esac
done

. bench/lib.sh
bench_server_start /var/tmp/colstore-logical /var/tmp/colstore-logical-socket "$port" \
	'shared_buffers = 4GB' 'max_wal_size = 16GB' 'checkpoint_timeout = 30min' \
	'wal_level = logical' 'max_replication_slots = 10' 'max_wal_senders = 10'
publisher_socket="$PGHOST"

# the subscriber: a second throwaway cluster beside the publisher
sub_data=/var/tmp/colstore-logical-sub
sub_port=$((port + 1))
as_postgres pg_ctl -D "$sub_data" -m immediate -w stop >/dev/null 2>&1 || true
rm -rf "$sub_data"
mkdir -p "$sub_data"
chown postgres "$sub_data"
as_postgres initdb -D "$sub_data" --locale=C.UTF-8 -E UTF8 -A trust >/dev/null
{
	echo "port = $sub_port"
	echo "listen_addresses = ''"
	echo "unix_socket_directories = '$publisher_socket'"
	echo "jit = off"
	echo "shared_preload_libraries = 'colstore'"
	echo "shared_buffers = 2GB"
	echo "max_wal_size = 16GB"
} >>"$sub_data/postgresql.conf"
as_postgres pg_ctl -D "$sub_data" -l "$sub_data/server.log" -w start >/dev/null
trap 'as_postgres pg_ctl -D "$sub_data" -m fast -w stop >/dev/null 2>&1 || true; bench_exit' EXIT
spsql() { psql -X -q -At -p "$sub_port" "$@"; }

declare -A R
export PGDATABASE=bench
psql -X -q -d postgres -c "CREATE DATABASE bench"
psql -X -q -c "CREATE EXTENSION colstore"
fill="SELECT i, 1, (i % 10000)::numeric / 100, 'v' || (i % 1000), date '2020-01-01' + (i % 1000)
      FROM generate_series(1, $rows) i"
lsn() { psql -X -At -c "SELECT pg_current_wal_insert_lsn()"; }
lsn_diff() { psql -X -At -c "SELECT pg_wal_lsn_diff('$1', '$2')::bigint"; }

for am in heap colstore; do
	t="t5_$am"
	echo "== $am: loading $rows rows at wal_level = logical" >&2
	psql -X -q -c "CREATE TABLE $t (c1 bigint, c2 int, c3 numeric, c4 varchar(10), c5 date) USING $am"
	psql -X -q -At -c "SELECT 'slot' FROM pg_create_logical_replication_slot('load_$am', 'test_decoding')" >/dev/null
	psql -X -q -c "CHECKPOINT"
	before=$(lsn)
	add load "$am" "$(ms "INSERT INTO $t $fill")"
	after=$(lsn)
	add wal "$am" "$(lsn_diff "$after" "$before")"
	echo "== $am: decoding the load" >&2
	start=$(date +%s.%N)
	decoded=$(as_postgres env PGHOST="$PGHOST" PGPORT="$PGPORT" pg_recvlogical -d bench \
		-S "load_$am" --start --endpos="$after" -o skip-empty-xacts=1 -f - |
		grep -c "^table public.$t: INSERT" || true)
	end=$(date +%s.%N)
	R["decoded|$am"]="$decoded"
	add decode_rows_per_s "$am" "$(awk -v n="$decoded" -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", n / (b - a) }')"
	add decode_s "$am" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", (b - a) * 1000 }')"
	psql -X -q -c "SELECT pg_drop_replication_slot('load_$am')" >/dev/null
	psql -X -q -c "DROP TABLE $t"
done

# TPC-B replicated
for am in heap colstore; do
	db="pgb_$am"
	echo "== $am: pgbench -i -s $scale, publication and subscription" >&2
	psql -X -q -d postgres -c "CREATE DATABASE $db"
	pgbench -i -q -s "$scale" "$db" >/dev/null 2>&1
	if [ "$am" = colstore ]; then
		psql -X -q -d "$db" -c "CREATE EXTENSION colstore" \
			-c "ALTER TABLE pgbench_accounts SET ACCESS METHOD colstore" \
			-c "ALTER TABLE pgbench_history SET ACCESS METHOD colstore"
	fi
	# pgbench_history has no key: REPLICA IDENTITY FULL lets nothing but inserts happen to it anyway
	psql -X -q -d "$db" -c "ALTER TABLE pgbench_history REPLICA IDENTITY FULL" \
		-c "CREATE PUBLICATION pub FOR ALL TABLES" -c "VACUUM ANALYZE"
	spsql -d postgres -c "CREATE DATABASE $db"
	pg_dump -s -h "$PGHOST" -p "$PGPORT" "$db" | grep -v "^CREATE PUBLICATION\|^ALTER PUBLICATION" | spsql -d "$db" >/dev/null
	spsql -d "$db" -c "CREATE SUBSCRIPTION sub_$am CONNECTION 'host=$PGHOST port=$PGPORT dbname=$db' PUBLICATION pub"
done

# applied SUBSCRIPTION LSN: does the publisher's walsender for it report LSN as replayed?
applied() {
	psql -X -At -d postgres -c "SELECT coalesce(bool_and(replay_lsn >= '$2'), false)
		FROM pg_stat_replication WHERE application_name = '$1'"
}
synced() { spsql -d "pgb_$1" -c "SELECT count(*) = 0 FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')"; }
for am in heap colstore; do
	while [ "$(synced "$am")" != t ]; do sleep 0.5; done
	target=$(psql -X -At -d "pgb_$am" -c "SELECT pg_current_wal_insert_lsn()")
	while [ "$(applied "sub_$am" "$target")" != t ]; do sleep 0.5; done
	psql -X -q -d "pgb_$am" -c "CHECKPOINT"
	echo "== $am: pgbench TPC-B, $seconds s, replicated" >&2
	add tpcb_tps "$am" "$(pgbench -n -M prepared -c 2 -j 2 -T "$seconds" "pgb_$am" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p')"
	end_lsn=$(psql -X -At -d "pgb_$am" -c "SELECT pg_current_wal_insert_lsn()")
	start=$(date +%s.%N)
	while [ "$(applied "sub_$am" "$end_lsn")" != t ]; do sleep 0.1; done
	end=$(date +%s.%N)
	add lag_ms "$am" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", (b - a) * 1000 }')"
	q="SELECT sum(abalance), count(*), sum(hashint4(aid + abalance)) FROM pgbench_accounts"
	R["digest|tpcb|$am"]=$(psql -X -At -d "pgb_$am" -c "$q")
	R["sub|tpcb|$am"]=$(spsql -d "pgb_$am" -c "$q")
done

same_sub() { [ "${R["digest|tpcb|$1"]}" = "${R["sub|tpcb|$1"]}" ] && echo yes || echo MISMATCH; }
out=$(mktemp)
{
	echo "logical replication source: $rows rows (seed 000), pgbench scale $scale for $seconds s, wal_level = logical, publisher and subscriber on this machine ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores)"
	echo
	echo "| metric | heap | colstore | colstore/heap | check |"
	echo "|---|---|---|---|---|"
	echo "| load | $(fmt_ms "${R[load|heap]}") | $(fmt_ms "${R[load|colstore]}") | $(ratio "${R[load|heap]}" "${R[load|colstore]}") | |"
	echo "| WAL written by the load | $(mb "${R[wal|heap]}") | $(mb "${R[wal|colstore]}") | $(ratio "${R[wal|heap]}" "${R[wal|colstore]}") | |"
	echo "| decoding the load (pg_recvlogical) | $(fmt_ms "${R[decode_s|heap]}") | $(fmt_ms "${R[decode_s|colstore]}") | $(ratio "${R[decode_s|heap]}" "${R[decode_s|colstore]}") | rows decoded: ${R[decoded|heap]} / ${R[decoded|colstore]} of $rows |"
	echo "| decoded rows per second (higher is better) | ${R[decode_rows_per_s|heap]} | ${R[decode_rows_per_s|colstore]} | $(ratio "${R[decode_rows_per_s|heap]}" "${R[decode_rows_per_s|colstore]}") | |"
	echo "| pgbench TPC-B tps while replicating | ${R[tpcb_tps|heap]} | ${R[tpcb_tps|colstore]} | $(ratio "${R[tpcb_tps|heap]}" "${R[tpcb_tps|colstore]}") | |"
	echo "| replication lag at the end | $(fmt_ms "${R[lag_ms|heap]}") | $(fmt_ms "${R[lag_ms|colstore]}") | $(ratio "${R[lag_ms|heap]}" "${R[lag_ms|colstore]}") | subscriber equals publisher: $(same_sub heap) / $(same_sub colstore) |"
} >"$out"
cat "$out"
mkdir -p bench/results
cp "$out" "bench/results/$(date -u +%Y%m%dT%H%M%S)-logical.md"
rm -f "$out"
[ "${R[decoded|heap]}" = "$rows" ] && [ "${R[decoded|colstore]}" = "$rows" ] &&
	[ "$(same_sub heap)" = yes ] && [ "$(same_sub colstore)" = yes ]
