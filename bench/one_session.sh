#!/usr/bin/env bash
# bench/one_session.sh: pgbench's TPC-B and select-only transactions from one session, against
# permanent, UNLOGGED and TEMPORARY tables, with pgbench_accounts as heap and as colstore, in one
# server, one run (issue 4's "the same benchmark with UNLOGGED and TEMPORARY tables"; seed 002).
#
# pgbench cannot drive TEMPORARY tables: each of its connections would see only its own. So one
# psql session per table kind creates pgbench's four tables twice (scale S: 100,000 accounts per
# branch; h_*: all heap, c_*: c_accounts colstore, the others heap), loads them, and calls
# procedures that run pgbench's statements (prepared, as PL/pgSQL runs them, like -M prepared)
# with random keys, one COMMIT per transaction, for T seconds: TPC-B three times on each set in
# turn (heap, colstore, heap, ...), then select-only the same way, after a 2-second warm-up each.
# The median of each three is reported as transactions per second, with colstore/heap ratios per
# table kind; the balances of branches, tellers and accounts must add up the same.  One client,
# so these figures compare table kinds with each other, not with bench/pgbench.sh's two clients.
# Usage: bash bench/one_session.sh [--scale S] [--seconds T] [--port P]
# Never run by CI; results go to bench/results/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

scale=100
seconds=20
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
# pgbench's statements over the tables named <p>_branches, <p>_tellers, <p>_accounts and
# <p>_history, as procedures tpcb_<p> and select_only_<p> that run for the given seconds and
# return how many transactions committed (p: h for heap, c for colstore)
procedures() {
	local p=$1
	cat <<SQL
CREATE PROCEDURE tpcb_$p(seconds float8, scale int, INOUT n bigint DEFAULT 0) LANGUAGE plpgsql AS \$\$
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
		UPDATE ${p}_accounts SET abalance = abalance + d WHERE aid = a;
		SELECT abalance INTO bal FROM ${p}_accounts WHERE aid = a;
		UPDATE ${p}_tellers SET tbalance = tbalance + d WHERE tid = t;
		UPDATE ${p}_branches SET bbalance = bbalance + d WHERE bid = b;
		INSERT INTO ${p}_history (tid, bid, aid, delta, mtime) VALUES (t, b, a, d, CURRENT_TIMESTAMP);
		COMMIT;
		n := n + 1;
	END LOOP;
END \$\$;
CREATE PROCEDURE select_only_$p(seconds float8, scale int, INOUT n bigint DEFAULT 0) LANGUAGE plpgsql AS \$\$
DECLARE
	stop timestamptz := clock_timestamp() + make_interval(secs => seconds);
	a int; bal int;
BEGIN
	n := 0;
	WHILE clock_timestamp() < stop LOOP
		-- (a key in a variable: random() in the condition would be volatile, so no index scan)
		a := 1 + floor(random() * 100000 * scale);
		SELECT abalance INTO bal FROM ${p}_accounts WHERE aid = a;
		COMMIT;
		n := n + 1;
	END LOOP;
END \$\$;
SQL
}
psql -X -q -c "$(procedures h)" -c "$(procedures c)"

# the tables of one kind for prefix p, accounts using access method am, loaded
tables() {
	local create=$1 p=$2 am=$3
	cat <<SQL
$create ${p}_branches (bid int PRIMARY KEY, bbalance int, filler char(88));
$create ${p}_tellers (tid int PRIMARY KEY, bid int, tbalance int, filler char(84));
$create ${p}_accounts (aid int PRIMARY KEY, bid int, abalance int, filler char(84)) USING $am;
$create ${p}_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));
INSERT INTO ${p}_branches SELECT i, 0 FROM generate_series(1, $scale) i;
INSERT INTO ${p}_tellers SELECT i, (i - 1) / 10 + 1, 0 FROM generate_series(1, 10 * $scale) i;
INSERT INTO ${p}_accounts SELECT i, (i - 1) / 100000 + 1, 0, '' FROM generate_series(1, 100000 * $scale) i;
VACUUM ANALYZE ${p}_branches, ${p}_tellers, ${p}_accounts, ${p}_history;
SQL
}
balanced() {
	echo "SELECT (SELECT sum(bbalance) FROM $1_branches) = (SELECT sum(tbalance) FROM $1_tellers)
	AND (SELECT sum(tbalance) FROM $1_tellers) = (SELECT sum(abalance) FROM $1_accounts);"
}
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
# the CALLs of one workload: a warm-up each, then three runs of each set in turn
turns() {
	local run
	for run in 2 "$seconds" "$seconds" "$seconds"; do
		echo "CALL $1_h($run, $scale);"
		echo "CALL $1_c($run, $scale);"
	done
}

declare -A R
for kind in permanent unlogged temporary; do
	echo "== $kind tables: scale $scale, TPC-B then select-only, heap and colstore in turn, 3 x $seconds s each" >&2
	case "$kind" in
		permanent) create="CREATE TABLE" ;;
		unlogged) create="CREATE UNLOGGED TABLE" ;;
		temporary) create="CREATE TEMPORARY TABLE" ;;
	esac
	# one session (a temporary table lives only in the session that made it); heap and colstore
	# alternate, so both see the same machine; warm-ups first
	result=$(psql -X -q -At -v ON_ERROR_STOP=1 <<SQL
SET temp_buffers = '6GB';
$(tables "$create" h heap)
$(tables "$create" c colstore)
CHECKPOINT;
$(turns tpcb)
$(turns select_only)
$(balanced h)
$(balanced c)
DROP TABLE h_branches, h_tellers, h_accounts, h_history, c_branches, c_tellers, c_accounts, c_history;
SQL
)
	# the output: one count per CALL, in order, then the two balance checks
	mapfile -t n <<<"$result"
	tps() { awk -v n="$1" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }'; }
	R["tpcb|$kind|heap"]=$(tps "$(median "${n[2]}" "${n[4]}" "${n[6]}")")
	R["tpcb|$kind|colstore"]=$(tps "$(median "${n[3]}" "${n[5]}" "${n[7]}")")
	R["select|$kind|heap"]=$(tps "$(median "${n[10]}" "${n[12]}" "${n[14]}")")
	R["select|$kind|colstore"]=$(tps "$(median "${n[11]}" "${n[13]}" "${n[15]}")")
	R["consistent|$kind|heap"]="${n[16]}"
	R["consistent|$kind|colstore"]="${n[17]}"
done

out=$(mktemp)
consistent=t
{
	echo "TPC-B and select-only from one session per table kind, scale $scale, median of 3 runs of $seconds s taken in turn with heap's, pgbench_accounts as heap and as colstore in one server ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores)"
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
