#!/usr/bin/env bash
# bench/pgbench.sh: pgbench TPC-B and select-only with pgbench_accounts as heap and as colstore,
# in one server, one run (issue 4's OLTP targets; seed 004 measured zedstore and Hydra this way).
#
# Starts a throwaway cluster (shared_buffers 4GB, jit off), initialises two databases with
# pgbench at the given scale, converts pgbench_accounts to colstore in one of them (ALTER TABLE
# SET ACCESS METHOD; the other tables stay heap), and runs TPC-B (-M prepared, 2 clients) and
# select-only (-S) on each, printing transactions per second and colstore/heap ratios.  With
# --unlogged the tables are created UNLOGGED (seed 002's comparison).  After the runs it checks
# that the branch, teller and account balances add up the same in both databases.
# Usage: bash bench/pgbench.sh [--scale S] [--seconds T] [--port P] [--unlogged]
# Never run by CI; results go to bench/results/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

scale=100
seconds=60
port=5451
unlogged=""
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale="$2"; shift 2 ;;
		--seconds) seconds="$2"; shift 2 ;;
		--port) port="$2"; shift 2 ;;
		--unlogged) unlogged="--unlogged-tables"; shift ;;
		*) echo "usage: $0 [--scale S] [--seconds T] [--port P] [--unlogged]"; exit 2 ;;
	esac
done

. bench/lib.sh
bench_server_start /var/tmp/colstore-pgbench /var/tmp/colstore-pgbench-socket "$port" 'shared_buffers = 4GB' 'max_wal_size = 16GB' 'checkpoint_timeout = 30min'

for am in heap colstore; do
	echo "== $am: pgbench -i -s $scale $unlogged" >&2
	psql -X -q -d postgres -c "CREATE DATABASE pgb_$am"
	pgbench -i -q -s "$scale" $unlogged "pgb_$am" >/dev/null 2>&1
	if [ "$am" = colstore ]; then
		psql -X -q -d "pgb_$am" -c "CREATE EXTENSION colstore" \
			-c "ALTER TABLE pgbench_accounts SET ACCESS METHOD colstore"
	fi
	psql -X -q -d "pgb_$am" -c "VACUUM ANALYZE" -c "CHECKPOINT"
done

declare -A R
tps() {
	pgbench -n -M prepared -c 2 -j 2 -T "$seconds" "$@" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
for mode in tpcb select-only; do
	opt=""
	[ "$mode" = select-only ] && opt="-S"
	for am in heap colstore; do
		echo "== $am: $mode ($seconds s)" >&2
		R["$mode|$am"]=$(tps $opt "pgb_$am")
		psql -X -q -d "pgb_$am" -c "CHECKPOINT"
	done
done

# Both databases ran the same kind of transactions; each must be internally consistent:
# the sums of branch, teller and account balances are equal (TPC-B adds the same delta to all three).
consistent() {
	psql -X -At -d "pgb_$1" -c "SELECT (SELECT sum(bbalance) FROM pgbench_branches) =
		(SELECT sum(tbalance) FROM pgbench_tellers) AND
		(SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(abalance) FROM pgbench_accounts)"
}
check_heap=$(consistent heap)
check_colstore=$(consistent colstore)
am_of_accounts=$(psql -X -At -d pgb_colstore -c "SELECT amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE relname = 'pgbench_accounts'")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print "-" }'; }
out=$(mktemp)
{
	echo "pgbench scale $scale${unlogged:+ (UNLOGGED tables)}, $seconds s per run, 2 clients, -M prepared; pgbench_accounts as heap and as $am_of_accounts in one server ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores)"
	echo
	echo "| workload | heap tps | colstore tps | colstore/heap |"
	echo "|---|---|---|---|"
	for mode in tpcb select-only; do
		echo "| $mode | ${R[$mode|heap]} | ${R[$mode|colstore]} | $(ratio "${R[$mode|heap]}" "${R[$mode|colstore]}") |"
	done
	echo
	echo "balances consistent: heap $check_heap, colstore $check_colstore"
} >"$out"
cat "$out"
mkdir -p bench/results
cp "$out" "bench/results/$(date -u +%Y%m%dT%H%M%S)-pgbench-$scale${unlogged:+-unlogged}.md"
rm -f "$out"
[ "$check_heap" = t ] && [ "$check_colstore" = t ]
