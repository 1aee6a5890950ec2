#!/usr/bin/env bash
# bench/upserts.sh: INSERT ... ON CONFLICT on heap and colstore in one server: time and size of a
# batch upsert that conflicts with nothing, of one that half conflicts (DO UPDATE), of single-row
# upserts from two sessions, and a scan over the result before and after compaction.
#
# Starts a throwaway cluster and, for heap and then colstore, creates up_<am> (id int PRIMARY KEY,
# v int) and runs, each statement timed once (psql \timing) with pg_total_relation_size after it:
#   INSERT INTO up_<am> SELECT g, g FROM generate_series(1, 50000) g
#     ON CONFLICT (id) DO NOTHING                                   (50,000 new rows)
#   INSERT INTO up_<am> SELECT g, g + 1 FROM generate_series(25001, 75000) g
#     ON CONFLICT (id) DO UPDATE SET v = excluded.v                 (25,000 conflicts, 25,000 new)
#   SELECT count(*) FROM up_<am> WHERE v % 7 = 0                    (median of 3, after a warm-up)
#   pgbench -n -c 2 -j 2, 20,000 transactions in all, each
#     INSERT INTO up_<am> VALUES (:k, :k) ON CONFLICT (id) DO UPDATE SET v = up_<am>.v + 1
#     with k random in 1..100,000 (fixed --random-seed, so both tables get the same keys)
# then waits for colstore's compaction workers to finish (at most 60 s), runs VACUUM on both and
# measures the size and the count query again, checks that the two tables hold the same rows and
# that colstore.verify('up_colstore') succeeds, and prints heap, colstore and colstore/heap.
# Exits non-zero if the rows differ or verify fails.
# Usage: bash bench/upserts.sh [--port P]
# Never run by CI; results go to bench/results/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

port=5462
while [ $# -gt 0 ]; do
	case "$1" in
		--port) port="$2"; shift 2 ;;
		*) echo "usage: $0 [--port P]"; exit 2 ;;
	esac
done

. bench/lib.sh
bench_server_start /var/tmp/colstore-upserts /var/tmp/colstore-upserts-socket "$port" 'shared_buffers = 1GB'
export PGDATABASE=bench
psql -X -q -d postgres -c "CREATE DATABASE bench"
psql -X -q -c "CREATE EXTENSION colstore"

declare -A R
size() { psql -X -At -c "SELECT pg_total_relation_size('$1')"; }
row_groups() { psql -X -At -c "SELECT count(*) FROM colstore.row_groups('$1')"; }
count_sql="SELECT count(*) FROM up_%s WHERE v %% 7 = 0"
now_ns() { date +%s%N; }

for am in heap colstore; do
	t="up_$am"
	psql -X -q -c "CREATE TABLE $t (id int PRIMARY KEY, v int) USING $am"

	echo "== $am: DO NOTHING, 50,000 new rows" >&2
	add nothing "$am" "$(ms "INSERT INTO $t SELECT g, g FROM generate_series(1, 50000) g ON CONFLICT (id) DO NOTHING")"
	add nothing_size "$am" "$(size "$t")"
	[ "$am" = heap ] || R[rg|nothing]=$(row_groups "$t")

	echo "== $am: DO UPDATE, 25,000 conflicts and 25,000 new rows" >&2
	add update "$am" "$(ms "INSERT INTO $t SELECT g, g + 1 FROM generate_series(25001, 75000) g ON CONFLICT (id) DO UPDATE SET v = excluded.v")"
	add update_size "$am" "$(size "$t")"
	[ "$am" = heap ] || R[rg|update]=$(row_groups "$t")

	echo "== $am: count(*) WHERE v % 7 = 0" >&2
	add count "$am" "$(median3 "$(printf "$count_sql" "$am")")"

	echo "== $am: pgbench, 2 sessions, 20,000 single-row upserts" >&2
	script="$BENCH_TMP/upsert_$am.sql"
	printf '%s\n' '\set k random(1, 100000)' \
		"INSERT INTO $t VALUES (:k, :k) ON CONFLICT (id) DO UPDATE SET v = $t.v + 1;" >"$script"
	start=$(now_ns)
	if ! pgbench -n -c 2 -j 2 -t 10000 --random-seed=42 -f "$script" >"$BENCH_TMP/pgbench_$am.txt" 2>&1; then
		cat "$BENCH_TMP/pgbench_$am.txt" >&2
		exit 1
	fi
	add pgbench "$am" "$(awk -v s="$start" -v e="$(now_ns)" 'BEGIN { printf "%.3f", (e - s) / 1e6 }')"
	add tps "$am" "$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time).*/\1/p' "$BENCH_TMP/pgbench_$am.txt")"
	add pgbench_size "$am" "$(size "$t")"
	[ "$am" = heap ] || R[rg|pgbench]=$(row_groups "$t")
done

# automatic compaction: let the workers it started finish (at most 60 s); a worker registered
# just before pgbench ended may take a moment to show up in pg_stat_activity
sleep 1
for _ in $(seq 600); do
	[ "$(psql -X -At -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'colstore compaction'")" = 0 ] && break
	sleep 0.1
done
psql -X -q -c "VACUUM up_heap" -c "VACUUM up_colstore"
for am in heap colstore; do
	add final_size "$am" "$(size "up_$am")"
	echo "== $am: count(*) WHERE v % 7 = 0, after compaction and VACUUM" >&2
	add final_count "$am" "$(median3 "$(printf "$count_sql" "$am")")"
done
R[rg|final]=$(row_groups up_colstore)

same=$(psql -X -At -c "SELECT count(*) = 0 FROM ((TABLE up_heap EXCEPT TABLE up_colstore) UNION ALL (TABLE up_colstore EXCEPT TABLE up_heap)) d")
rows_heap=$(psql -X -At -c "SELECT count(*) FROM up_heap")
rows_colstore=$(psql -X -At -c "SELECT count(*) FROM up_colstore")
if verify=$(psql -X -At -c "SELECT colstore.verify('up_colstore')" 2>&1); then
	verify_ok=t
else
	verify_ok=f
fi

mb() { awk -v b="$1" 'BEGIN { printf "%.2f MB", b / 1048576 }'; }
fms() { awk -v v="$1" 'BEGIN { printf "%.1f ms", v }'; }
tps() { awk -v v="$1" 'BEGIN { printf "%.0f tps", v }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }'; }
line() { echo "| $1 | $("$3" "${R[$2|heap]}") | $("$3" "${R[$2|colstore]}") | $(ratio "${R[$2|heap]}" "${R[$2|colstore]}") |"; }
out=$(mktemp)
{
	echo "INSERT ... ON CONFLICT on up_<am> (id int PRIMARY KEY, v int), heap vs colstore, one server ($(date -u '+%Y-%m-%d %H:%M UTC'))"
	echo
	echo "| measurement | heap | colstore | colstore/heap |"
	echo "|---|---|---|---|"
	line "DO NOTHING, 50,000 new rows: time" nothing fms
	line "DO NOTHING: size after" nothing_size mb
	line "DO UPDATE, 25,000 conflicts + 25,000 new: time" update fms
	line "DO UPDATE: size after" update_size mb
	line "count(*) WHERE v % 7 = 0 (median of 3)" count fms
	line "pgbench 2 sessions, 20,000 single-row upserts: wall time" pgbench fms
	line "pgbench: throughput" tps tps
	line "pgbench: size after" pgbench_size mb
	line "after compaction + VACUUM: size" final_size mb
	line "after compaction + VACUUM: count(*) WHERE v % 7 = 0 (median of 3)" final_count fms
	echo
	echo "same rows: $same (heap $rows_heap rows, colstore $rows_colstore rows)"
	echo "colstore.verify('up_colstore'): $([ "$verify_ok" = t ] && echo "ok, $verify rows checked" || echo "FAILED: $verify")"
	echo "colstore row groups: ${R[rg|nothing]} after DO NOTHING, ${R[rg|update]} after DO UPDATE, ${R[rg|pgbench]} after pgbench, ${R[rg|final]} after compaction + VACUUM"
} >"$out"
cat "$out"
mkdir -p bench/results
cp "$out" "bench/results/$(date -u +%Y%m%dT%H%M%S)-upserts.md"
rm -f "$out"
[ "$same" = t ] && [ "$verify_ok" = t ]
