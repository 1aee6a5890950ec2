#!/usr/bin/env bash
# bench/one_session.sh: pgbench's TPC-B and select-only transactions from one session, against
# permanent, UNLOGGED and TEMPORARY tables, with pgbench_accounts as heap and as colstore, in one
# server, one run (issue 4's "the same benchmark with UNLOGGED and TEMPORARY tables"; seed 002).
#
# pgbench cannot drive TEMPORARY tables: each of its connections would see only its own. So one
# psql session per table kind and access method creates pgbench's four tables (scale S: 100,000
# accounts per branch, the other tables heap), loads them, and calls a procedure that runs
# pgbench's statements (prepared, as PL/pgSQL runs them, like -M prepared) with random keys, one
# COMMIT per transaction, for T seconds; then the same for select-only.  Transactions per second
# are reported with colstore/heap ratios per table kind, and the balances of branches, tellers and
# accounts must add up the same.  One client, so these figures compare table kinds with each
# other, not with bench/pgbench.sh's two-client runs.
# Usage: bash bench/one_session.sh [--scale S] [--seconds T] [--port P]
# Never run by CI; results go to bench/results/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

scale=100
seconds=30
port=5452
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale="$2"; shift 2 ;;
		--seconds) seconds="$2"; shift 2 ;;
		--port) port="$2"; shift 2 ;;
		*) echo "usage: $0 [--scale S] [--seconds T] [--port P]"; exit 2 ;;
	esac
done

. bench/lib.sh
bench_server_start /var/tmp/colstore-onesession /var/tmp/colstore-onesession-socket "$port" \
	'shared_buffers = 4GB' 'max_wal_size = 16GB' 'checkpoint_timeout = 30min'
export PGDATABASE=bench
psql -X -q -d postgres -c "CREATE DATABASE bench"
psql -X -q -c "CREATE EXTENSION colstore"
psql -X -q <<'SQL'
-- pgbench's TPC-B transaction, for the given number of seconds; returns how many committed
CREATE PROCEDURE tpcb(seconds float8, scale int, INOUT n bigint DEFAULT 0) LANGUAGE plpgsql AS $$
DECLARE
	stop timestamptz := clock_timestamp() + make_interval(secs => seconds);
	a int; t int; b int; d int; bal int;
BEGIN
	n := 0;
	WHILE clock_timestamp() < stop LOOP
		a := 1 + floor(random() * 100000 * scale);
		b := 1 + floor(random() * scale);
		t := 1 + floor(random() * 10 * scale);
		d := floor(random() * 10001) - 5000;
		UPDATE pgbench_accounts SET abalance = abalance + d WHERE aid = a;
		SELECT abalance INTO bal FROM pgbench_accounts WHERE aid = a;
		UPDATE pgbench_tellers SET tbalance = tbalance + d WHERE tid = t;
		UPDATE pgbench_branches SET bbalance = bbalance + d WHERE bid = b;
		INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (t, b, a, d, CURRENT_TIMESTAMP);
		COMMIT;
		n := n + 1;
	END LOOP;
END $$;
-- pgbench -S: one primary key lookup per transaction
CREATE PROCEDURE select_only(seconds float8, scale int, INOUT n bigint DEFAULT 0) LANGUAGE plpgsql AS $$
DECLARE
	stop timestamptz := clock_timestamp() + make_interval(secs => seconds);
	a int; bal int;
BEGIN
	n := 0;
	WHILE clock_timestamp() < stop LOOP
		-- (a key in a variable: random() in the condition would be volatile, so no index scan)
		a := 1 + floor(random() * 100000 * scale);
		SELECT abalance INTO bal FROM pgbench_accounts WHERE aid = a;
		COMMIT;
		n := n + 1;
	END LOOP;
END $$;
SQL

declare -A R
for kind in permanent unlogged temporary; do
	for am in heap colstore; do
		echo "== $kind $am: scale $scale, TPC-B and select-only ($seconds s each)" >&2
		case "$kind" in
			permanent) create="CREATE TABLE" ;;
			unlogged) create="CREATE UNLOGGED TABLE" ;;
			temporary) create="CREATE TEMPORARY TABLE" ;;
		esac
		# one session: a temporary table lives only in the session that created it
		result=$(psql -X -q -At -v ON_ERROR_STOP=1 <<SQL
SET temp_buffers = '4GB';
$create pgbench_branches (bid int PRIMARY KEY, bbalance int, filler char(88));
$create pgbench_tellers (tid int PRIMARY KEY, bid int, tbalance int, filler char(84));
$create pgbench_accounts (aid int PRIMARY KEY, bid int, abalance int, filler char(84)) USING $am;
$create pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));
INSERT INTO pgbench_branches SELECT i, 0 FROM generate_series(1, $scale) i;
INSERT INTO pgbench_tellers SELECT i, (i - 1) / 10 + 1, 0 FROM generate_series(1, 10 * $scale) i;
INSERT INTO pgbench_accounts SELECT i, (i - 1) / 100000 + 1, 0, '' FROM generate_series(1, 100000 * $scale) i;
VACUUM ANALYZE pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history;
CHECKPOINT;
CALL tpcb(2, $scale);
CALL tpcb($seconds, $scale);
CALL select_only(2, $scale);
CALL select_only($seconds, $scale);
SELECT (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT sum(tbalance) FROM pgbench_tellers)
	AND (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(abalance) FROM pgbench_accounts);
DROP TABLE pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history;
SQL
)
		# the output: the four CALLs' counts (warm-ups first), then the balance check
		mapfile -t lines <<<"$result"
		R["tpcb|$kind|$am"]=$(awk -v n="${lines[1]}" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')
		R["select|$kind|$am"]=$(awk -v n="${lines[3]}" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')
		R["consistent|$kind|$am"]="${lines[4]}"
	done
done

out=$(mktemp)
consistent=t
{
	echo "TPC-B and select-only from one session, scale $scale, $seconds s per run, pgbench_accounts as heap and as colstore in one server ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores)"
	echo
	echo "| tables | workload | heap tps | colstore tps | colstore/heap | balances consistent |"
	echo "|---|---|---|---|---|---|"
	for kind in permanent unlogged temporary; do
		for mode in tpcb select; do
			h="${R[$mode|$kind|heap]}"
			c="${R[$mode|$kind|colstore]}"
			echo "| $kind | $mode | $h | $c | $(ratio "$h" "$c") | heap ${R[consistent|$kind|heap]}, colstore ${R[consistent|$kind|colstore]} |"
		done
		[ "${R[consistent|$kind|heap]}" = t ] && [ "${R[consistent|$kind|colstore]}" = t ] || consistent=f
	done
} >"$out"
cat "$out"
mkdir -p bench/results
cp "$out" "bench/results/$(date -u +%Y%m%dT%H%M%S)-one-session-$scale.md"
rm -f "$out"
[ "$consistent" = t ]
