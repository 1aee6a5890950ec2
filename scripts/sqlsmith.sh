#!/usr/bin/env bash
# scripts/sqlsmith.sh: random SQL (sqlsmith) against colstore tables.
#
# Starts a temporary instance of PostgreSQL $PGVERSION (scripts/env.sh) of its own (initdb into a
# directory under /var/tmp, port $SQLSMITH_PORT, its own socket directory) with colstore
# preloaded and default_table_access_method = colstore, and builds the targets:
#   - PostgreSQL's regression database: the version's core regression suite (parallel_schedule)
#     run on the instance with pg_regress, so every table it makes is a colstore table (onek,
#     tenk1, the type tables, ...); its output differences are not looked at, nor is the server
#     log of that part (the suite provokes internal errors of its own);
#   - smith_* tables made here: every common type in several NULL patterns (all NULL, no NULL,
#     mixed), dictionary-friendly and long (TOASTed) text, numeric, arrays, jsonb, timestamps,
#     in several row groups plus rows in the heap pages (small inserts), deleted and updated
#     rows, and btree, hash, gin, gist, spgist and brin indexes; in the regression database and
#     alone in a database "smith" (where all of a run's queries read them);
#   - then the regression database's tables are compacted (colstore.compact), so that their rows
#     are in row groups rather than in the heap pages small INSERTs fill.
# Then runs sqlsmith against them as an unprivileged role (smith, or smith_parallel with parallel
# plans made as cheap as possible; the seeds take turns at databases and roles) with a fixed
# seed and a bounded number of queries, each statement under statement_timeout; --exclude-catalog
# keeps catalog tables out of its FROM lists, so its queries read (and write) colstore tables.
# Afterwards every colstore table is compacted and checked end to end (colstore.verify).
#
# Fails (exit 1) if the server log shows a backend terminated by a signal, an assertion failure
# (TRAP), a PANIC, an error of SQLSTATE class XX (internal error, data or index corrupted) other
# than PostgreSQL's own listed below, or a resource leak warning; if sqlsmith exits with an
# error or reports a lost connection; or if compacting or verifying a table fails.  Prints the
# number of statements sqlsmith ran and the server's errors counted by SQLSTATE.  The instance
# is stopped and its directory removed on exit (SQLSMITH_KEEP=1 keeps the directory).
#
# Settings (environment):
#   SQLSMITH_SEEDS    seeds, one sqlsmith run each, in turn (default "1 2 3")
#   SQLSMITH_QUERIES  queries per seed (default 3000); a long run by hand: SQLSMITH_QUERIES=20000
#   SQLSMITH_CONCURRENT=1  runs the seeds at once instead of in turn
#   SQLSMITH_PORT     the instance's port (default 5428)
#   SQLSMITH_TIMEOUT  statement_timeout of sqlsmith's statements (default 2s)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

seeds="${SQLSMITH_SEEDS:-1 2 3}"
queries="${SQLSMITH_QUERIES:-3000}"
port="${SQLSMITH_PORT:-5428}"
stmt_timeout="${SQLSMITH_TIMEOUT:-2s}"

command -v sqlsmith >/dev/null || { echo "sqlsmith is not installed (apt-get install sqlsmith)"; exit 1; }
regress_src="$PGSOURCE/src/test/regress"
[ -f "$regress_src/parallel_schedule" ] || { echo "no PostgreSQL source at $regress_src (run scripts/setup.sh)"; exit 1; }
pgxs_test="$(dirname "$(pg_config --pgxs)")/../test"

work=$(mktemp -d /var/tmp/colstore-sqlsmith.XXXXXX)
data="$work/data"
log="$work/server.log"
chown postgres "$work"

cleanup() {
	if [ -f "$data/postmaster.pid" ]; then
		as_postgres pg_ctl -D "$data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	if [ "${SQLSMITH_KEEP:-0}" = 1 ]; then
		echo "sqlsmith: kept $work"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT

# The regression suite's C helpers (regress.so), built once per version.
lib="$COLSTORE_DEPS/sqlsmith-$PGVERSION/lib"
if [ ! -f "$lib/regress.so" ]; then
	mkdir -p "$lib"
	cp "$regress_src/regress.c" "$lib/"
	printf 'MODULES = regress\nPG_CONFIG = pg_config\nPGXS := $(shell $(PG_CONFIG) --pgxs)\ninclude $(PGXS)\n' \
		>"$lib/Makefile"
	make -s -C "$lib" >/dev/null
fi

start=$(date +%s)
as_postgres initdb -D "$data" -U postgres --no-sync -E UTF8 --locale=C >"$work/initdb.log" 2>&1 ||
	{ cat "$work/initdb.log"; exit 1; }
cat >>"$data/postgresql.conf" <<EOF
port = $port
listen_addresses = ''
unix_socket_directories = '$work'
shared_preload_libraries = 'colstore'
default_table_access_method = colstore
max_prepared_transactions = 0
fsync = off
# every line names its SQLSTATE, so errors can be counted by it
log_line_prefix = '%m [%p] %e '
log_min_messages = warning
log_min_error_statement = error
EOF
as_postgres pg_ctl -D "$data" -l "$log" -w start >/dev/null

export PGHOST="$work" PGPORT="$port" PGUSER=postgres
psql_q() { as_postgres psql -X -q -v ON_ERROR_STOP=1 "$@"; }

# compact_all DB CALLS OUT: runs "PERFORM colstore.CALLS" (each call of r, a regclass) for
# every colstore table of DB, each in a subtransaction; writes a summary line "checked N
# colstore tables, M failed" and a WARNING per failure to OUT
compact_all() {
	psql_q -d "$1" >"$3" 2>&1 <<EOF || true
DO \$\$
DECLARE
	r regclass;
	total int := 0;
	bad int := 0;
BEGIN
	FOR r IN SELECT c.oid FROM pg_class c JOIN pg_am a ON a.oid = c.relam
			 WHERE a.amname = 'colstore' AND c.relkind IN ('r', 'm') AND c.relpersistence <> 't'
			 ORDER BY c.oid
	LOOP
		total := total + 1;
		BEGIN
			PERFORM colstore.$2;
		EXCEPTION WHEN OTHERS THEN
			bad := bad + 1;
			RAISE WARNING '% failed on %: % (SQLSTATE %)', '$2', r, SQLERRM, SQLSTATE;
		END;
	END LOOP;
	RAISE NOTICE 'checked % colstore tables, % failed', total, bad;
END \$\$;
EOF
	grep -q 'checked [0-9]* colstore tables, 0 failed' "$3"
}

# 1. PostgreSQL's regression database: its core regression suite (parallel_schedule), run on
#    this instance; what its tests leave behind is sqlsmith's target
mkdir -p "$work/regress"
chown -R postgres "$work"
(cd "$work/regress" && timeout 900 runuser -u postgres -- env PATH="$PATH" \
	"$pgxs_test/regress/pg_regress" --bindir="$PGBIN" \
	--inputdir="$regress_src" --outputdir="$work/regress" --dlpath="$lib" \
	--host="$work" --port="$port" --user=postgres --dbname=regression \
	--load-extension=colstore --max-concurrent-tests=20 \
	--schedule="$regress_src/parallel_schedule" >"$work/regress/run.log" 2>&1) || true
grep -q 'test_setup.*ok\|ok.*test_setup' "$work/regress/run.log" ||
	{ echo "sqlsmith: building the regression database failed:"; tail -n 20 "$work/regress/run.log"; exit 1; }
if grep -qE 'terminated by signal|TRAP:|PANIC:' "$log"; then
	echo "sqlsmith: the server crashed during PostgreSQL's regression suite:"
	grep -E 'terminated by signal|TRAP:|PANIC:' "$log" | head -n 5
	exit 1
fi

# 2. sqlsmith's roles: smith, no superuser; smith_parallel, smith's privileges and parallel plans
#    wherever the planner can make them
psql_q -d postgres -c "CREATE ROLE smith LOGIN" \
	-c "CREATE ROLE smith_parallel LOGIN IN ROLE smith" \
	-c "ALTER ROLE smith_parallel SET parallel_setup_cost = 0" \
	-c "ALTER ROLE smith_parallel SET parallel_tuple_cost = 0" \
	-c "ALTER ROLE smith_parallel SET min_parallel_table_scan_size = 0" \
	-c "ALTER ROLE smith_parallel SET min_parallel_index_scan_size = 0" \
	-c "CREATE DATABASE smith"
psql_q -d smith -c "CREATE EXTENSION colstore"
for role in smith smith_parallel; do
	psql_q -d postgres -c "ALTER ROLE $role SET statement_timeout = '$stmt_timeout'" \
		-c "ALTER ROLE $role SET lock_timeout = '$stmt_timeout'"
done

# 3. smith_* tables, in the regression database and alone in the database smith (where all of
#    sqlsmith's queries read them): every common type, NULL patterns, several row groups,
#    heap-page rows; then every colstore table's heap-page rows are compacted into row groups
#    (PostgreSQL's suite writes most of its tables with small INSERTs), so that sqlsmith reads
#    row groups as well as the heap-page rows its own INSERTs and UPDATEs add.
for db in regression smith; do
psql_q -d "$db" >/dev/null <<'EOF'
CREATE FUNCTION smith_fill(tab regclass, nrows int, pattern text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	-- pattern: 'none' (no NULL), 'all' (every value NULL but id), 'mixed' (NULLs of period 3, 5, 7)
	EXECUTE format($q$
	INSERT INTO %s
	SELECT g,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 3 = 0) THEN NULL ELSE (g %% 100)::int2 END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 5 = 0) THEN NULL ELSE g * 7 END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 7 = 0) THEN NULL ELSE g::int8 * 1000003 END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 3 = 1) THEN NULL ELSE (g / 7.0)::float4 END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 5 = 1) THEN NULL
			 WHEN g %% 97 = 0 THEN 'NaN'::float8 ELSE g / 3.0 END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 7 = 1) THEN NULL
			 WHEN g %% 89 = 0 THEN 'NaN'::numeric ELSE (g * 1.25 - 500)::numeric(12, 3) END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 3 = 2) THEN NULL ELSE g %% 2 = 0 END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 5 = 2) THEN NULL
			 ELSE (ARRAY['red', 'green', 'blue', 'cyan', ''])[g %% 5 + 1] END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 7 = 2) THEN NULL
			 ELSE 'v' || md5(g::text) END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 11 = 0) THEN NULL
			 WHEN g %% 50 = 0 THEN repeat(md5(g::text), 200) ELSE repeat('x', g %% 40) END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 3 = 0) THEN NULL
			 ELSE lpad((g %% 1000)::text, 4, '0')::char(4) END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 5 = 3) THEN NULL
			 ELSE decode(md5(g::text), 'hex') END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 7 = 3) THEN NULL
			 ELSE date '2000-01-01' + g END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 3 = 1) THEN NULL
			 ELSE timestamp '2020-01-01' + g * interval '37 minutes' END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 5 = 4) THEN NULL
			 ELSE timestamptz '2020-01-01 00:00+00' + g * interval '1 hour 1 second' END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 7 = 4) THEN NULL
			 ELSE (g %% 86400) * interval '1 second' END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 3 = 2) THEN NULL
			 ELSE make_interval(months => g %% 13, days => g %% 31, secs => g %% 60) END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 5 = 0) THEN NULL
			 ELSE md5(g::text)::uuid END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 7 = 5) THEN NULL
			 ELSE jsonb_build_object('k', g %% 10, 's', 'v' || g, 'a', jsonb_build_array(g, g + 1)) END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 3 = 0) THEN NULL
			 WHEN g %% 17 = 0 THEN ARRAY[g, NULL] ELSE ARRAY[g, g %% 10, -g] END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 5 = 1) THEN NULL
			 ELSE ARRAY['a' || g %% 4, NULL, 'b'] END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 7 = 6) THEN NULL
			 ELSE ('10.' || (g / 256) %% 256 || '.' || g %% 256 || '.1/24')::inet END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 3 = 1) THEN NULL
			 ELSE int4range(g, g + g %% 20) END,
		CASE WHEN %2$L = 'all' OR (%2$L = 'mixed' AND g %% 5 = 2) THEN NULL
			 ELSE point(g %% 100, g / 100) END
	FROM generate_series($1, $2) g$q$, tab, pattern)
	USING 1, nrows;
END $$;

CREATE TABLE smith_types_template (
	id int, i2 int2, i4 int4, i8 int8, f4 float4, f8 float8, num numeric, b bool,
	dict text, t text, long_t text, ch char(4), by bytea, d date, ts timestamp, tstz timestamptz,
	tm time, iv interval, u uuid, j jsonb, ia int[], ta text[], ip inet, r int4range, pt point
);
CREATE TABLE smith_nonull (LIKE smith_types_template) WITH (row_group_size = 1000, chunk_size = 100);
CREATE TABLE smith_allnull (LIKE smith_types_template) WITH (row_group_size = 1000, chunk_size = 100);
CREATE TABLE smith_mixed (LIKE smith_types_template) WITH (row_group_size = 1000, chunk_size = 250);
DROP TABLE smith_types_template;
SELECT smith_fill('smith_nonull', 5000, 'none');
SELECT smith_fill('smith_allnull', 3000, 'all');
SELECT smith_fill('smith_mixed', 6000, 'mixed');
-- rows of small inserts (the table's heap pages), then deletes and updates
INSERT INTO smith_mixed SELECT * FROM smith_nonull WHERE id <= 40;
INSERT INTO smith_nonull SELECT * FROM smith_mixed WHERE id BETWEEN 5001 AND 5020;
DELETE FROM smith_nonull WHERE id % 13 = 0;
DELETE FROM smith_mixed WHERE id BETWEEN 2000 AND 2999;
UPDATE smith_mixed SET t = upper(t), i4 = -i4 WHERE id % 17 = 0;
UPDATE smith_allnull SET i4 = id WHERE id % 500 = 0;

CREATE UNIQUE INDEX ON smith_nonull (id);
CREATE INDEX ON smith_nonull (i4, t);
CREATE INDEX ON smith_nonull USING hash (dict);
CREATE INDEX ON smith_nonull USING gin (j);
CREATE INDEX ON smith_nonull USING gin (ia);
CREATE INDEX ON smith_nonull USING gist (r);
CREATE INDEX ON smith_nonull USING gist (ip inet_ops);
CREATE INDEX ON smith_nonull USING spgist (t);
CREATE INDEX ON smith_nonull USING brin (ts);
CREATE INDEX ON smith_mixed (id);
CREATE INDEX ON smith_mixed (num) WHERE num > 0;
CREATE INDEX ON smith_mixed (lower(t));
CREATE INDEX ON smith_mixed USING gin (ta);
CREATE INDEX ON smith_mixed USING brin (d, i8);
CREATE INDEX ON smith_mixed USING spgist (pt);
CREATE INDEX ON smith_allnull (i4);
CREATE INDEX ON smith_allnull USING hash (u);

-- a narrow table of many rows in order (pruning, key ranges), partitioned tables
CREATE TABLE smith_ordered (k int8 PRIMARY KEY, grp int, val numeric, note text)
	WITH (row_group_size = 2000, chunk_size = 500);
INSERT INTO smith_ordered
	SELECT g, g % 37, g * 0.5, CASE WHEN g % 9 = 0 THEN NULL ELSE 'n' || g % 300 END
	FROM generate_series(1, 20000) g;
CREATE TABLE smith_part (k int, d date, t text) PARTITION BY RANGE (k);
CREATE TABLE smith_part_1 PARTITION OF smith_part FOR VALUES FROM (MINVALUE) TO (1000);
CREATE TABLE smith_part_2 PARTITION OF smith_part FOR VALUES FROM (1000) TO (MAXVALUE);
INSERT INTO smith_part SELECT g, date '2024-01-01' + g % 400, 't' || g % 50 FROM generate_series(1, 3000) g;
CREATE INDEX ON smith_part (k);
DROP FUNCTION smith_fill(regclass, int, text);
ANALYZE;

-- sqlsmith's roles read and write the tables; no C functions of the regression suite's
-- regress.so (test helpers, not hardened against arbitrary input) and no signalling of
-- backends (it would end its own session)
GRANT ALL ON SCHEMA public TO smith;
GRANT ALL ON ALL TABLES IN SCHEMA public TO smith;
GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO smith;
DO $$
DECLARE f regprocedure;
BEGIN
	FOR f IN SELECT p.oid FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
			 WHERE l.lanname = 'c'
			 AND p.pronamespace NOT IN ('pg_catalog'::regnamespace, 'colstore'::regnamespace)
	LOOP
		EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
	END LOOP;
END $$;
REVOKE EXECUTE ON FUNCTION pg_terminate_backend(int, int8), pg_cancel_backend(int) FROM PUBLIC;
-- char(n)'s length coercion pads to any length it is given: with a column's value as the length
-- it fails in palloc with an internal error, PostgreSQL's own (on any table, or none:
-- SELECT bpchar('x'::bpchar, 1937919553, true)), which would hide colstore's among them
REVOKE EXECUTE ON FUNCTION pg_catalog.bpchar(bpchar, integer, boolean) FROM PUBLIC;
EOF
done
compact_all regression "compact(r)" "$work/compact.out" ||
	{ echo "sqlsmith: compacting the regression database failed:"; head -n 20 "$work/compact.out"; exit 1; }
setup_s=$(($(date +%s) - start))
echo "sqlsmith: target database built in ${setup_s}s (PostgreSQL $PGVERSION, port $port)"

# 4. sqlsmith, one run per seed; the seeds take turns at the databases (regression, smith) and,
#    every two seeds, at the roles (plain plans, then parallel ones).  In turn by default; all at once with SQLSMITH_CONCURRENT=1 (not reproducible, for
#    runs by hand: concurrent writers, row locks, compaction and vacuum under random SQL).
# run_seed SEED ROLE DB: one sqlsmith run; writes "ok" or "lost" to $work/sqlsmith-SEED.status
run_seed() {
	local seed="$1" role="$2" db="$3" out="$work/sqlsmith-$1.out" t0 rc=0
	t0=$(date +%s)
	as_postgres sqlsmith --target="host=$work port=$port user=$role dbname=$db" \
		--seed="$seed" --max-queries="$queries" --exclude-catalog >"$out" 2>&1 || rc=$?
	echo "sqlsmith: seed $seed as $role on $db: $queries queries in $(($(date +%s) - t0))s, exit status $rc"
	# without --verbose sqlsmith prints only its catalog loading; anything else is trouble
	if [ "$rc" != 0 ] || grep -qiE 'connection|terminat|broken|server closed' "$out"; then
		echo "sqlsmith: seed $seed failed or lost its connection:"
		grep -v -- '\.\.\.done\.$' "$out" | tail -n 20
		echo lost >"$work/sqlsmith-$seed.status"
	else
		echo ok >"$work/sqlsmith-$seed.status"
	fi
}
log_start=$(wc -l <"$log")
k=0
for seed in $seeds; do
	dbs=(regression smith)
	roles=(smith smith_parallel)
	db=${dbs[$((k % 2))]}
	role=${roles[$((k / 2 % 2))]}
	k=$((k + 1))
	if [ "${SQLSMITH_CONCURRENT:-0}" = 1 ]; then
		run_seed "$seed" "$role" "$db" &
	else
		run_seed "$seed" "$role" "$db"
	fi
done
wait
lost=0
ran=0
for seed in $seeds; do
	if [ "$(cat "$work/sqlsmith-$seed.status")" = ok ]; then
		ran=$((ran + queries))
	else
		lost=1
	fi
done

# 5. every colstore table the runs may have written to: its heap-page rows compacted into row
#    groups, then read and checked end to end (colstore.verify)
verify_failed=0
for db in regression smith; do
	if compact_all "$db" "compact(r); PERFORM colstore.verify(r)" "$work/verify-$db.out"; then
		echo "sqlsmith: $db: compacted and verified: $(grep -oE 'checked [0-9]+ colstore tables' "$work/verify-$db.out")"
	else
		echo "sqlsmith: $db: compacting or verifying the tables failed:"
		head -n 20 "$work/verify-$db.out"
		verify_failed=1
	fi
done

# 6. the server log of the runs: errors by SQLSTATE, then what fails the run
runlog="$work/run.log"
tail -n +"$((log_start + 1))" "$log" >"$runlog"
echo "sqlsmith: statements run: $ran"
echo "sqlsmith: server errors by SQLSTATE:"
grep -oE '^[0-9-]+ [0-9:.]+ [A-Z]+ \[[0-9]+\] [0-9A-Z]{5} (ERROR|FATAL|PANIC):' "$runlog" |
	awk '{ print "   ", $5, $6 }' | sort | uniq -c | sort -rn || true

# PostgreSQL's own internal errors that sqlsmith provokes with any table access method (checked
# on heap tables; not colstore's): they are left out of the check below.
#   PostgreSQL 18's statistics import functions (pg_restore_relation_stats,
#   pg_restore_attribute_stats) report malformed variadic arguments without an errcode:
#     SELECT pg_restore_relation_stats('schemaname');
#   functions that check their arguments with elog(): the float4 and float8 aggregates' transition
#   functions given a wrong-sized array, interval's typmod functions given a value that is no
#   interval typmod, pg_get_acl() (18) given a class ID that is no catalog's:
#     SELECT float8_stddev_pop('{1,2}'::float8[]);
#     SELECT float4_accum('{1,2}'::float8[], 1::float4);
#     SELECT intervaltypmodout(107);
#     SELECT pg_catalog.interval(interval '1 day', 1);
#     SELECT pg_get_acl(59, 1, 0);
#   the parser's coerce_type() on NULLIF over a CASE of unknown-type NULLs (no table at all):
#     SELECT nullif(cast(null as unknown), cast(nullif(case when random() > 2
#       then cast(null as unknown) end, cast(null as unknown)) as unknown));
ignored='variadic arguments must be name/value pairs|name at variadic position [0-9]+ (is null|has type)'
ignored+='|float[48]_[a-z_]+: expected [0-9]+-element float8 array'
ignored+='|invalid INTERVAL typmod: 0x[0-9a-f]+|unrecognized interval typmod: -?[0-9]+'
ignored+='|unrecognized class ID: [0-9]+'
ignored+='|failed to find conversion function from unknown to text'
#   amvalidate() given an OID that is no operator class (sqlsmith passes it any oid value):
#     SELECT amvalidate(9850);
#   left out only when the statement logged with the error calls amvalidate
amvalidate_only=$(awk '
	/\] XX000 ERROR:  cache lookup failed for operator class [0-9]+$/ { pending = NR; next }
	pending && /\] XX000 STATEMENT:  / { in_statement = 1 }
	pending && in_statement && /amvalidate\(/ { print pending; pending = 0; in_statement = 0; next }
	pending && in_statement && /^[0-9-]+ [0-9:.]+ [A-Z]+ \[[0-9]+\] / && !/STATEMENT:/ {
		pending = 0; in_statement = 0 }' "$runlog")
bad=$(grep -nE 'terminated by signal|TRAP:|PANIC:|\] XX[0-9A-Z]{3} ERROR:|WARNING:  .*(leak|was not closed)' "$runlog" |
	grep -vE "\] XX000 ERROR:  ($ignored)" |
	grep -vE "^($(echo $amvalidate_only | tr ' ' '|')):" || true)
if [ -n "$bad" ] || [ "$lost" = 1 ] || [ "$verify_failed" = 1 ]; then
	keep="/var/tmp/colstore-sqlsmith-failed-$$.log"
	cp "$runlog" "$keep"
	echo "sqlsmith: FAILED: crash, assertion failure, PANIC or internal error:"
	echo "$bad" | head -n 20
	echo "sqlsmith: the server log of the runs (with the failing statements): $keep"
	exit 1
fi
echo "sqlsmith: no crash, assertion failure or internal error ($(($(date +%s) - start))s in all)"
