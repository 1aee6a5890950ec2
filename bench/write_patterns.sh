#!/usr/bin/env bash
# bench/write_patterns.sh: every numeric target of issue 23 ("every write pattern stays compact"),
# heap against colstore in one server, one run: batch upserts, single-row upserts from two
# clients, a random 30% DELETE and a 1,000,000-row UPDATE of the 10,000,000-row seed-000 table,
# and UPDATE and DELETE of every row of a 2,000,000-row one as a permanent, UNLOGGED and TEMPORARY
# table.  --scale F multiplies every row and transaction count (0.05 for a quick run).
#
# Starts a throwaway cluster (bench/run.sh's shared_buffers, WAL and checkpoint settings, and
# temp_buffers 1GB for the TEMPORARY tables) and runs, heap first, then colstore, each statement
# timed once in a new session (psql \timing):
#  1. up_<am> (id int PRIMARY KEY, v int): INSERT 1..N ON CONFLICT (id) DO NOTHING into the empty
#     table, then N/2+1..3N/2 with v = id + 1 ON CONFLICT (id) DO UPDATE SET v = excluded.v
#     (N = 1,000,000: half conflict); count(*) WHERE v % 7 = 0 (median of 3 after a warm-up)
#     right after them and again after automatic compaction (wait for colstore's workers) and
#     VACUUM; the table's size against the same rows bulk-loaded into a fresh colstore table.
#  2. pu_<am>, same columns: 200,000 single-row upserts from pgbench (2 clients, fixed seed), key
#     random in 1..0.6275 x 200,000 so that about half find their key (DO UPDATE SET v = v + 1):
#     tps, and the size after automatic compaction and VACUUM against bulk-loaded rows.
#  3. t5_<am>, bench/run.sh's seed-000 table (primary key on c1) with 10,000,000 rows: DELETE
#     WHERE (hashint8(c1) % 10 + 10) % 10 < 3 (30%: hashint8 is signed, and the issue's literal
#     "hashint8(c1) % 10 < 3" deletes 65%); size right after it and after two rounds of VACUUM
#     and automatic compaction, against the size before.
#  4. on a second, freshly loaded 10,000,000-row t5 (after the DELETE, heap would take the new
#     versions into the space it freed and not grow), UPDATE SET c2 = 2 WHERE c1 <= 1,000,000:
#     table growth against heap's, and the size after the same two rounds against before.
#  5. t5 with 2,000,000 rows as a permanent, UNLOGGED and TEMPORARY table, each in one psql
#     session (a TEMPORARY table lives in one): load, primary key, VACUUM ANALYZE, CHECKPOINT,
#     UPDATE SET c2 = c2 + 1 of every row, VACUUM ANALYZE, CHECKPOINT, DELETE of every row.
# A round is VACUUM, then waiting (at most --compaction-wait s, default 180) until no colstore
# compaction worker runs; heap's tables get the same VACUUMs, no VACUUM FULL, no compact().
# Sizes are pg_table_size (the primary key, an identical btree in both, would hide the table's
# growth); pg_total_relation_size is listed below the targets.  Prints one markdown table (target,
# heap, colstore, ratio, the issue's bound, met) and the details, written to bench/results/.
# Exits non-zero if heap and colstore hold different rows after any step, a statement fails, or
# colstore.verify() fails on a colstore table.  Targets missed do not change the exit status.
# Usage: bash bench/write_patterns.sh [--scale F] [--port P] [--compaction-wait S]
# Never run by CI; results go to bench/results/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

scale=1.0
port=5464
compaction_wait=180
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale="$2"; shift 2 ;;
		--port) port="$2"; shift 2 ;;
		--compaction-wait) compaction_wait="$2"; shift 2 ;;
		*) echo "usage: $0 [--scale F] [--port P] [--compaction-wait S]"; exit 2 ;;
	esac
done
# scaled N: N x F, rounded, at least 2
scaled() { awk -v n="$1" -v f="$scale" 'BEGIN { v = int(n * f + 0.5); print (v < 2 ? 2 : v) }'; }
n_up=$(scaled 1000000)
n_pgbench=$(( $(scaled 200000) / 2 * 2 ))
n_big=$(scaled 10000000)
n_upd=$(scaled 1000000)
n_all=$(scaled 2000000)
# random keys in 1..K for T upserts: K (1 - e^(-T/K)) distinct keys, T/2 at K = 0.6275 T
k_pgbench=$(awk -v t="$n_pgbench" 'BEGIN { printf "%d", t * 0.6275 + 0.5 }')

. bench/lib.sh
bench_server_start /var/tmp/colstore-writes /var/tmp/colstore-writes-socket "$port" \
	'shared_buffers = 4GB' 'temp_buffers = 1GB' 'max_worker_processes = 8' \
	'max_wal_size = 16GB' 'checkpoint_timeout = 30min'
export PGDATABASE=bench
psql -X -q -d postgres -c "CREATE DATABASE bench"
psql -X -q -c "CREATE EXTENSION colstore"
started=$(date +%s)

declare -A R
mismatch=0
notes=()
q() { psql -X -q -At -v ON_ERROR_STOP=1 -c "$1"; }
tsize() { q "SELECT pg_table_size('$1')"; }
total() { q "SELECT pg_total_relation_size('$1')"; }
row_groups() { q "SELECT count(*) FROM colstore.row_groups('$1')"; }
# ms, but a failed statement (no "Time:" line) stops the run
timed() {
	local t
	t=$(ms "$1")
	[ -n "$t" ] || { echo "statement failed: $1" >&2; exit 1; }
	echo "$t"
}
# check A B STEP [digest]: whether tables A and B hold the same rows, as EXCEPT both ways finds,
# or with "digest" (the 10,000,000-row table) as bench/run.sh compares its loads: count, sum of
# the row texts' hashes, smallest and largest row text
check() {
	local s
	if [ "${4:-}" = digest ]; then
		s=$(q "SELECT a IS NOT DISTINCT FROM b FROM
			(SELECT count(*), sum(hashtext(r::text)::bigint), min(r::text), max(r::text) FROM $1 r) a,
			(SELECT count(*), sum(hashtext(r::text)::bigint), min(r::text), max(r::text) FROM $2 r) b")
	else
		s=$(q "SELECT NOT EXISTS ((TABLE $1 EXCEPT ALL TABLE $2) UNION ALL (TABLE $2 EXCEPT ALL TABLE $1))")
	fi
	R["same|$3"]=$s
	[ "$s" = t ] || { mismatch=1; echo "MISMATCH: $1 and $2 differ ($3)" >&2; }
}
# wait_compaction LABEL: until no colstore compaction worker runs (at most --compaction-wait s);
# a worker registered just before may take a moment to show up.  Keeps the seconds waited and
# whether a worker was seen (a worker of under a second may not be)
wait_compaction() {
	local t0 n seen=no
	t0=$(date +%s)
	sleep 1
	while :; do
		n=$(q "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'colstore compaction'")
		[ "$n" = 0 ] && break
		seen=yes
		if [ $(($(date +%s) - t0)) -ge "$compaction_wait" ]; then
			notes+=("$1: $n compaction worker(s) still running after ${compaction_wait} s; measured anyway")
			break
		fi
		sleep 0.2
	done
	R["wait|$1"]="$(($(date +%s) - t0)) s (worker seen: $seen)"
}
# settle T LABEL: the two rounds of issue 23 (VACUUM, then automatic compaction given time), twice
settle() {
	q "VACUUM $1" >/dev/null
	wait_compaction "$2 (1)"
	q "VACUUM $1" >/dev/null
	wait_compaction "$2 (2)"
}

# verify_table T: colstore.verify(T), its result (rows in row groups checked) or error kept
verify_ok=t
verified=()
verify_table() {
	local v
	if v=$(q "SELECT colstore.verify('$1')" 2>&1); then
		verified+=("$1: ok, $v rows in row groups;")
	else
		verified+=("$1: FAILED: $v;")
		verify_ok=f
	fi
}

# ---- 1. batch upserts
half=$((n_up / 2))
count_sql="SELECT count(*) FROM up_%s WHERE v %% 7 = 0"
for am in heap colstore; do
	t="up_$am"
	q "CREATE TABLE $t (id int PRIMARY KEY, v int) USING $am"
	q "CHECKPOINT"
	echo "== $am: DO NOTHING, $n_up new rows" >&2
	add nothing "$am" "$(timed "INSERT INTO $t SELECT g, g FROM generate_series(1, $n_up) g ON CONFLICT (id) DO NOTHING")"
	echo "== $am: DO UPDATE, $((n_up - half)) conflicts and $half new rows" >&2
	add update "$am" "$(timed "INSERT INTO $t SELECT g, g + 1 FROM generate_series($((half + 1)), $((half + n_up))) g ON CONFLICT (id) DO UPDATE SET v = excluded.v")"
	add upserted_size "$am" "$(tsize "$t")"
	echo "== $am: count(*) WHERE v % 7 = 0" >&2
	add scan "$am" "$(median3 "$(printf "$count_sql" "$am")")"
done
R[rg|upserted]=$(row_groups up_colstore)
check up_heap up_colstore "batch upserts"
settle up_colstore "batch upserts, colstore"
q "VACUUM up_heap"
for am in heap colstore; do
	add settled_size "$am" "$(tsize "up_$am")"
	add settled_total "$am" "$(total "up_$am")"
	echo "== $am: count(*) WHERE v % 7 = 0, after compaction and VACUUM" >&2
	add settled_scan "$am" "$(median3 "$(printf "$count_sql" "$am")")"
done
R[rg|settled]=$(row_groups up_colstore)
q "CREATE TABLE upb_colstore (id int PRIMARY KEY, v int) USING colstore"
q "INSERT INTO upb_colstore SELECT id, v FROM up_heap ORDER BY id"
q "VACUUM upb_colstore"
R[bulk|up]=$(tsize upb_colstore)
R[bulk_total|up]=$(total upb_colstore)
check up_heap up_colstore "batch upserts, after compaction"
check up_heap upb_colstore "batch upserts, bulk copy"

# ---- 2. single-row upserts from two pgbench clients
for am in heap colstore; do
	t="pu_$am"
	q "CREATE TABLE $t (id int PRIMARY KEY, v int) USING $am"
	echo "== $am: pgbench, 2 clients, $n_pgbench single-row upserts, keys 1..$k_pgbench" >&2
	script="$BENCH_TMP/upsert_$am.sql"
	printf '%s\n' "\\set k random(1, $k_pgbench)" \
		"INSERT INTO $t VALUES (:k, :k) ON CONFLICT (id) DO UPDATE SET v = $t.v + 1;" >"$script"
	if ! pgbench -n -c 2 -j 2 -t $((n_pgbench / 2)) --random-seed=23 -f "$script" >"$BENCH_TMP/pgbench_$am.txt" 2>&1; then
		cat "$BENCH_TMP/pgbench_$am.txt" >&2
		exit 1
	fi
	add tps "$am" "$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time).*/\1/p' "$BENCH_TMP/pgbench_$am.txt")"
	add pgbench_size "$am" "$(tsize "$t")"
	[ "$am" = heap ] || R[rg|pgbench]=$(row_groups "$t")
	# the heap run's autovacuum is left alone; colstore's workers are waited for below
done
settle pu_colstore "single-row upserts, colstore"
q "VACUUM pu_heap"
for am in heap colstore; do
	add pu_settled "$am" "$(tsize "pu_$am")"
	add pu_settled_total "$am" "$(total "pu_$am")"
done
R[rg|pu_settled]=$(row_groups pu_colstore)
q "CREATE TABLE pub_colstore (id int PRIMARY KEY, v int) USING colstore"
q "INSERT INTO pub_colstore SELECT id, v FROM pu_heap ORDER BY id"
q "VACUUM pub_colstore"
R[bulk|pu]=$(tsize pub_colstore)
R[pu_rows]=$(q "SELECT count(*) FROM pu_heap")
check pu_heap pu_colstore "single-row upserts"
check pu_heap pub_colstore "single-row upserts, bulk copy"

# settle_and_drop BASE KEY WHAT: two rounds on BASE_colstore and BASE_heap after WHAT, their
# sizes as KEY and KEY_total, the row groups left, the rows and colstore.verify checked, both dropped
settle_and_drop() {
	local base=$1 key=$2 what=$3 am
	settle "${base}_colstore" "$base after $what, colstore"
	settle "${base}_heap" "$base after $what, heap"
	for am in heap colstore; do
		add "$key" "$am" "$(tsize "${base}_$am")"
		add "${key}_total" "$am" "$(total "${base}_$am")"
	done
	R[rg|$key]=$(row_groups "${base}_colstore")
	check "${base}_heap" "${base}_colstore" "$base after $what and two rounds" digest
	verify_table "${base}_colstore"
	q "DROP TABLE ${base}_heap, ${base}_colstore"
}

# ---- 3. DELETE 30% of the 10,000,000-row seed-000 table
t5() {
	echo "CREATE $1 TABLE $2 (c1 bigint, c2 int, c3 numeric, c4 varchar(10), c5 date) USING $3;
INSERT INTO $2 SELECT i, 1, (i % 10000)::numeric / 100, 'v' || (i % 1000), date '2020-01-01' + (i % 1000)
	FROM generate_series(1, $4) i;
ALTER TABLE $2 ADD PRIMARY KEY (c1);
VACUUM ANALYZE $2;"
}
# load_t5 NAME: NAME_heap and NAME_colstore with n_big rows each, primary key, VACUUM ANALYZE
load_t5() {
	local am
	for am in heap colstore; do
		echo "== $am: loading $n_big rows into $1_$am" >&2
		psql -X -q -v ON_ERROR_STOP=1 <<<"$(t5 "" "$1_$am" "$am" "$n_big")"
	done
	check "$1_heap" "$1_colstore" "$1 load" digest
}
del_where="(hashint8(c1) % 10 + 10) % 10 < 3"
load_t5 t5
for am in heap colstore; do
	add before_delete "$am" "$(tsize "t5_$am")"
	add before_delete_total "$am" "$(total "t5_$am")"
	echo "== $am: DELETE 30% of t5" >&2
	q "CHECKPOINT"
	add delete "$am" "$(timed "DELETE FROM t5_$am WHERE $del_where")"
	add after_delete "$am" "$(tsize "t5_$am")"
done
R[deleted]=$((n_big - $(q "SELECT count(*) FROM t5_heap")))
check t5_heap t5_colstore "t5 DELETE" digest
settle_and_drop t5 delete_settled DELETE

# ---- 4. UPDATE 1,000,000 rows of a freshly loaded one (after the DELETE, heap would put the new
# versions into the space it freed and not grow at all)
load_t5 t5u
for am in heap colstore; do
	echo "== $am: UPDATE $n_upd rows of t5u" >&2
	add before_update "$am" "$(tsize "t5u_$am")"
	add before_update_total "$am" "$(total "t5u_$am")"
	q "CHECKPOINT"
	add t5_update "$am" "$(timed "UPDATE t5u_$am SET c2 = 2 WHERE c1 <= $n_upd")"
	add after_update "$am" "$(tsize "t5u_$am")"
	add after_update_total "$am" "$(total "t5u_$am")"
	add growth "$am" $((R["after_update|$am"] - R["before_update|$am"]))
	add growth_total "$am" $((R["after_update_total|$am"] - R["before_update_total|$am"]))
done
check t5u_heap t5u_colstore "t5u UPDATE" digest
settle_and_drop t5u update_settled UPDATE

# ---- 5. UPDATE and DELETE of every row, permanent, UNLOGGED and TEMPORARY, one session each
for kind in permanent unlogged temporary; do
	case "$kind" in
		permanent) create="" ;;
		unlogged) create=UNLOGGED ;;
		temporary) create=TEMPORARY ;;
	esac
	for am in heap colstore; do
		echo "== $am, $kind: UPDATE and DELETE of all $n_all rows" >&2
		t="w_$am"
		# output: UPDATE's time, the digest after it, DELETE's time, the rows left
		out=$(psql -X -q -At -v ON_ERROR_STOP=1 <<SQL
$(t5 "$create" "$t" "$am" "$n_all")
CHECKPOINT;
\\timing on
UPDATE $t SET c2 = c2 + 1;
\\timing off
SELECT md5(count(*) || '/' || sum(hashtext(r::text)::bigint)) FROM $t r;
VACUUM ANALYZE $t;
CHECKPOINT;
\\timing on
DELETE FROM $t;
\\timing off
SELECT count(*) FROM $t;
DROP TABLE $t;
SQL
)
		mapfile -t lines < <(sed -e 's/^Time: \([0-9.]*\) ms.*/\1/' <<<"$out")
		[ "${#lines[@]}" = 4 ] || { echo "unexpected output from the $kind $am run: $out" >&2; exit 1; }
		add "all_update|$kind" "$am" "${lines[0]}"
		R["digest|all|$kind|$am"]="${lines[1]}"
		add "all_delete|$kind" "$am" "${lines[2]}"
		R["left|$kind|$am"]="${lines[3]}"
	done
	if [ "${R["digest|all|$kind|heap"]}" = "${R["digest|all|$kind|colstore"]}" ] &&
		[ "${R["left|$kind|heap"]}" = 0 ] && [ "${R["left|$kind|colstore"]}" = 0 ]; then
		R["same|$kind, every row"]=t
	else
		R["same|$kind, every row"]=f
		mismatch=1
		echo "MISMATCH: $kind UPDATE/DELETE of every row" >&2
	fi
done

for t in up_colstore upb_colstore pu_colstore pub_colstore; do
	verify_table "$t"
done
elapsed=$(($(date +%s) - started))

mb() { awk -v b="$1" 'BEGIN { printf "%.2f MB", b / 1048576 }'; }
fms() { awk -v v="$1" 'BEGIN { printf "%.1f ms", v }'; }
tpsf() { awk -v v="$1" 'BEGIN { printf "%.0f tps", v }'; }
# target LABEL HEAP COLSTORE RATIO BOUND(<= x or >= x): one line of the target table
target() {
	local met
	met=$(awk -v r="$4" -v b="$5" 'BEGIN {
		split(b, p, " "); if (r == "-") { print "-"; exit }
		if (p[1] == "<=") print (r + 0 <= p[2] + 0 ? "yes" : "no"); else print (r + 0 >= p[2] + 0 ? "yes" : "no") }')
	echo "| $1 | $2 | $3 | $4 | $5 | $met |"
}
# target rows whose ratio is colstore/heap of metric M
target_hc() {
	target "$1" "$("$3" "${R[$2|heap]}")" "$("$3" "${R[$2|colstore]}")" "$(ratio "${R[$2|heap]}" "${R[$2|colstore]}")" "$4"
}
detail() { echo "| $1 | $("$3" "${R[$2|heap]}") | $("$3" "${R[$2|colstore]}") | $(ratio "${R[$2|heap]}" "${R[$2|colstore]}") |"; }

res=$(mktemp)
{
	echo "Issue 23's targets, heap vs colstore in one $("$PG_CONFIG" --version) server, scale $scale ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $elapsed s)"
	echo
	echo "Sizes are pg_table_size; ratio is colstore/heap unless the target says otherwise."
	echo
	echo "| target | heap | colstore | ratio | bound | met |"
	echo "|---|---|---|---|---|---|"
	target_hc "1. DO NOTHING, $n_up new rows into the empty table: time" nothing fms "<= 2"
	target_hc "1. DO UPDATE, $((n_up - half)) conflicts + $half new rows: time" update fms "<= 2"
	target_hc "1. count(*) WHERE v % 7 = 0 right after the upserts (median of 3)" scan fms "<= 0.2"
	target_hc "1. the same after automatic compaction + VACUUM" settled_scan fms "<= 0.2"
	target "1. size after automatic compaction + VACUUM; ratio: colstore / the rows bulk-loaded into colstore ($(mb "${R[bulk|up]}"))" \
		"$(mb "${R[settled_size|heap]}")" "$(mb "${R[settled_size|colstore]}")" "$(ratio "${R[bulk|up]}" "${R[settled_size|colstore]}")" "<= 1.5"
	target_hc "2. $n_pgbench single-row upserts, 2 clients: throughput" tps tpsf ">= 0.7"
	target "2. size after automatic compaction + VACUUM; ratio: colstore / bulk-loaded ($(mb "${R[bulk|pu]}"))" \
		"$(mb "${R[pu_settled|heap]}")" "$(mb "${R[pu_settled|colstore]}")" "$(ratio "${R[bulk|pu]}" "${R[pu_settled|colstore]}")" "<= 1.5"
	target_hc "3. DELETE ${R[deleted]} of $n_big rows (30%): time" delete fms "<= 1.5"
	target "3. size right after the DELETE; ratio: colstore after / before ($(mb "${R[before_delete|colstore]}"))" \
		"$(mb "${R[after_delete|heap]}")" "$(mb "${R[after_delete|colstore]}")" "$(ratio "${R[before_delete|colstore]}" "${R[after_delete|colstore]}")" "<= 2"
	target "3. size after two VACUUMs with automatic compaction; ratio: colstore after / before the DELETE" \
		"$(mb "${R[delete_settled|heap]}")" "$(mb "${R[delete_settled|colstore]}")" "$(ratio "${R[before_delete|colstore]}" "${R[delete_settled|colstore]}")" "<= 0.8"
	met=$(awk -v h="${R[growth|heap]}" -v c="${R[growth|colstore]}" 'BEGIN { print (c <= h ? "yes" : "no") }')
	echo "| 4. UPDATE of $n_upd rows of a fresh $n_big-row table: table growth | $(mb "${R[growth|heap]}") | $(mb "${R[growth|colstore]}") | $(ratio "${R[growth|heap]}" "${R[growth|colstore]}") | <= 1 | $met |"
	target "4. size after two VACUUMs with automatic compaction; ratio: colstore after / before the UPDATE ($(mb "${R[before_update|colstore]}"))" \
		"$(mb "${R[update_settled|heap]}")" "$(mb "${R[update_settled|colstore]}")" "$(ratio "${R[before_update|colstore]}" "${R[update_settled|colstore]}")" "<= 1.2"
	for kind in permanent unlogged temporary; do
		target_hc "5. UPDATE of all $n_all rows, $kind: time" "all_update|$kind" fms "<= 1.5"
		target_hc "5. DELETE of all $n_all rows, $kind: time" "all_delete|$kind" fms "<= 1.5"
	done
	echo
	echo "Details:"
	echo
	echo "| measurement | heap | colstore | colstore/heap |"
	echo "|---|---|---|---|"
	detail "1. table size right after the two upserts" upserted_size mb
	detail "1. size with primary key after compaction + VACUUM" settled_total mb
	detail "2. table size right after pgbench" pgbench_size mb
	detail "2. size with primary key after compaction + VACUUM" pu_settled_total mb
	detail "3. table size before the DELETE" before_delete mb
	detail "3. size with primary key before the DELETE" before_delete_total mb
	detail "3. size with primary key after two VACUUMs" delete_settled_total mb
	detail "4. UPDATE of $n_upd rows: time" t5_update fms
	detail "4. table size before the UPDATE" before_update mb
	detail "4. table size right after the UPDATE" after_update mb
	detail "4. growth with primary key" growth_total mb
	detail "4. size with primary key after two VACUUMs" update_settled_total mb
	echo
	echo "colstore row groups: up_colstore ${R[rg|upserted]} after the upserts, ${R[rg|settled]} after compaction; pu_colstore ${R[rg|pgbench]} after pgbench, ${R[rg|pu_settled]} after compaction; t5_colstore ${R[rg|delete_settled]} after the DELETE and two rounds, t5u_colstore ${R[rg|update_settled]} after the UPDATE and two rounds"
	echo "bulk copies with primary key: upserts $(mb "${R[bulk_total|up]}"); single-row upserts: $(mb "$(total pub_colstore)"); pgbench left ${R[pu_rows]} rows ($((n_pgbench - R[pu_rows])) updates)"
	echo "waits for compaction workers after each VACUUM:"
	for k in "${!R[@]}"; do
		case "$k" in wait\|*) echo "- ${k#wait|}: ${R[$k]}" ;; esac
	done | sort
	for n in "${notes[@]}"; do echo "note: $n"; done
	echo -n "same rows (heap vs colstore after each step):"
	bad=0
	for k in "${!R[@]}"; do
		case "$k" in same\|*) [ "${R[$k]}" = t ] || { echo -n " MISMATCH at ${k#same|};"; bad=1; } ;; esac
	done
	[ "$bad" = 1 ] || echo -n " yes, all steps"
	echo
	echo "colstore.verify(): ${verified[*]}"
} >"$res"
cat "$res"
mkdir -p bench/results
cp "$res" "bench/results/$(date -u +%Y%m%dT%H%M%S)-write-patterns-$scale.md"
rm -f "$res"
[ "$mismatch" = 0 ] && [ "$verify_ok" = t ]
