#!/usr/bin/env bash
# scripts/test.sh: run the whole test suite.
#
# 1. scripts/setup.sh (install, build with -Werror under CI, start the cluster)
# 2. the layer check (scripts/check_layers.sh), side effects in macro arguments
#    (scripts/check_macro_args.sh), pgindent (scripts/pgindent.sh --check, with 15),
#    pg_regress tests (test/sql, test/expected) and isolation specs (test/specs)
# 3. TAP tests (test/t/*.pl: crash recovery, UNLOGGED reset, standby, corruption, dump/restore,
#    damaged pages, pg_upgrade, ...)
# 4. the decoders' fuzzers (scripts/fuzz.sh, a bounded run) and distributed TPC-H at scale factor
#    0.01 on a Citus cluster, colstore shards' results against heap shards' (bench/citus_tpch.sh);
#    with PostgreSQL 15 only
# 5. sqlsmith: random SQL against colstore tables (scripts/sqlsmith.sh, a bounded run; in the
#    matrix with 18 only)
# 6. conformance: PostgreSQL's own regression and isolation suites, contrib/test_decoding's
#    regression and isolation tests and the logical replication (subscription) TAP tests with
#    default_table_access_method = colstore, which must pass at least as many tests as recorded
#    in test/conformance/<suite>_regress.expected
# Exits non-zero if anything fails; the last line reads "N passed, M failed" (test files).
#
# PostgreSQL versions: with no argument, Debian 12's PostgreSQL 15; PGVERSION=17 or 18 builds that
# version from the pinned tarball (assertion-enabled, cached; scripts/build_pg.sh) and runs the
# suite against it, with its conformance figures in test/conformance/<version>/.  --matrix (what
# CI runs) runs the suite on 15, 17 and 18 in turn, and hands each later version the earlier
# installations, so that test/t/011_pg_upgrade.pl upgrades their clusters with pg_upgrade.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--matrix" ]; then
	total_passed=0
	total_failed=0
	upgrade_from=""
	# what failed, with the head of each diff or log, collected by every version's run and
	# printed again at the very end: CI keeps only the tail of the output
	export COLSTORE_FAILURE_DIGEST=/tmp/colstore-failures.txt
	: >"$COLSTORE_FAILURE_DIGEST"
	for v in ${COLSTORE_MATRIX:-15 17 18}; do
		echo "======== PostgreSQL $v"
		out="/tmp/colstore-test-$v.out"
		# the matrix runs PostgreSQL's suites on colstore only: heap's figures do not change
		# with colstore's code and are recorded per version in test/conformance/README.md
		# (CONFORMANCE_SKIP_HEAP=0 measures them again), which keeps the matrix inside CI's
		# time limit
		skip_heap="${CONFORMANCE_SKIP_HEAP:-1}"
		# sqlsmith once, on the newest (assertion-enabled) server
		sqlsmith=0
		[ "$v" = 18 ] && sqlsmith="${COLSTORE_SQLSMITH:-1}"
		PGVERSION=$v COLSTORE_UPGRADE_FROM="$upgrade_from" CONFORMANCE_SKIP_HEAP=$skip_heap \
			COLSTORE_SQLSMITH=$sqlsmith bash scripts/test.sh 2>&1 | tee "$out"
		read -r p f < <(tail -n 1 "$out" | sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p')
		total_passed=$((total_passed + ${p:-0}))
		total_failed=$((total_failed + ${f:-1}))
		if [ "$v" = 15 ]; then
			upgrade_from="/usr/lib/postgresql/15"
		else
			upgrade_from="$upgrade_from $(PREFIX_ONLY=1 bash scripts/build_pg.sh "$v" cassert)"
		fi
	done
	echo
	if [ -s "$COLSTORE_FAILURE_DIGEST" ]; then
		echo "==== what failed (the head of each diff or log; the full output is above)"
		head -c 12000 "$COLSTORE_FAILURE_DIGEST"
		echo
	fi
	echo "matrix ${COLSTORE_MATRIX:-15 17 18}: $total_passed passed, $total_failed failed"
	[ "$total_failed" -eq 0 ]
	exit
fi
. scripts/env.sh

if [ "${CI:-}" = "true" ]; then
	export COLSTORE_CFLAGS="${COLSTORE_CFLAGS:--Werror}"
fi
bash scripts/setup.sh || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
failed_phases=()
digest="${COLSTORE_FAILURE_DIGEST:-/dev/null}"

# note_failure TITLE FILE [LINES]: add FILE's first LINES lines (60) under TITLE to the digest
note_failure() {
	{
		echo "---- PostgreSQL $PGVERSION: $1"
		head -n "${3:-60}" "$2"
	} >>"$digest"
}

count_pg_regress() {
	local out="$1"
	local ok bad
	ok=$(grep -cE '\.\.\. ok|^ok ' "$out" || true)
	bad=$(grep -cE '\.\.\. FAILED|\.\.\. failed|^not ok ' "$out" || true)
	passed=$((passed + ok))
	failed=$((failed + bad))
}

run_regress() {
	local out=/tmp/colstore-installcheck.out
	if ! ls test/sql/*.sql >/dev/null 2>&1 && ! ls test/specs/*.spec >/dev/null 2>&1; then
		echo "== no pg_regress or isolation tests"
		return
	fi
	echo "== pg_regress and isolation tests"
	if make -s installcheck >"$out" 2>&1; then
		cat "$out"
	else
		cat "$out"
		grep -E '\.\.\. (FAILED|failed)|^not ok ' "$out" >"$out.failed"
		note_failure "pg_regress/isolation: failed tests" "$out.failed"
		for f in test/regression.diffs regression.diffs output_iso/regression.diffs; do
			[ -f "$f" ] && { echo "---- $f"; cat "$f"; note_failure "$f" "$f" 80; }
		done
		failed_phases+=("pg_regress/isolation")
		grep -qE '\.\.\. (ok|FAILED|failed)|^(not )?ok ' "$out" || failed=$((failed + 1))
	fi
	count_pg_regress "$out"
}

run_tap() {
	local dir out
	local pgxs_test
	pgxs_test="$(dirname "$(pg_config --pgxs)")/../test"
	if ! ls test/t/*.pl >/dev/null 2>&1; then
		echo "== no TAP tests"
		return
	fi
	# the scale-out test (015_citus.pl) runs on a Citus cluster: built (cached) for 15 and 17, the
	# versions Citus 13.2.2 supports
	if [ "$PGVERSION" != 18 ] && ! bash scripts/build_citus.sh "$PG_CONFIG" >/dev/null; then
		echo "== building Citus failed"
		failed_phases+=("Citus build")
	fi
	echo "== TAP tests"
	dir=$(mktemp -d /var/tmp/colstore-tap.XXXXXX)
	cp -r test/t "$dir/t"
	chown -R postgres "$dir"
	out="$dir/prove.out"
	if (cd "$dir" && runuser -u postgres -- env PATH="$PGBIN:$PATH" \
		PERL5LIB="$pgxs_test/perl" PG_REGRESS="$pgxs_test/regress/pg_regress" \
		TESTDIR="$dir" PGHOST= PGPORT= PGUSER= PGDATABASE= \
		COLSTORE_UPGRADE_FROM="${COLSTORE_UPGRADE_FROM:-}" \
		prove -v --timer -j "${COLSTORE_TAP_JOBS:-2}" t/*.pl) >"$out" 2>&1; then
		cat "$out"
	else
		cat "$out"
		for log in "$dir"/tmp_check/log/*; do
			[ -f "$log" ] && { echo "---- $log"; tail -n 50 "$log"; }
		done
		grep -E '^not ok |^t/.*(Wstat|Failed)|Dubious' "$out" >"$out.failed"
		note_failure "TAP: failed tests" "$out.failed" 40
		failed_phases+=("TAP")
	fi
	# prove's summary: "Files=N, ..." and, on failure, one "t/..." line per failed file
	local total bad
	total=$(grep -oE 'Files=[0-9]+' "$out" | grep -oE '[0-9]+' || echo 0)
	bad=$(sed -n '/Test Summary Report/,$p' "$out" | grep -c '^t/' || true)
	if ! grep -q "Result: PASS" "$out" && [ "$bad" -eq 0 ]; then
		bad=1
	fi
	passed=$((passed + ${total:-0} - bad))
	failed=$((failed + bad))
}

# run_script NAME TITLE SCRIPT [ARGS]: a phase that is one script, counted as one test
run_script() {
	echo "== $2 ($3)"
	if bash "$3" "${@:4}"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failed_phases+=("$1")
		echo "---- PostgreSQL $PGVERSION: $2 ($3) failed; its output is above" >>"$digest"
	fi
}

# includes point down the layers; no side effects in arguments of macros that evaluate them more
# than once; the C sources are as pgindent formats them (once, with 15)
run_script layers "layers" scripts/check_layers.sh
run_script macro_args "macro arguments" scripts/check_macro_args.sh
[ "$PGVERSION" = 15 ] && run_script pgindent "pgindent" scripts/pgindent.sh --check
run_regress
run_tap
# the decoders' libFuzzer harnesses (fuzz/), a bounded run; they are built against 15's headers
# and do not depend on the server, so the matrix runs them once, with 15
[ "$PGVERSION" = 15 ] && run_script fuzz "decoder fuzzers" scripts/fuzz.sh
# TPC-H on a Citus cluster (scale factor 0.01): colstore shards must return heap shards' rows for
# every query Citus runs; once, with 15 (Citus is built for it in the TAP phase)
[ "$PGVERSION" = 15 ] && run_script citus_tpch "distributed TPC-H, colstore shards against heap shards" \
	bench/citus_tpch.sh --scale 0.01 --limit 30
# random SQL against colstore tables on the server under test, a bounded run; the matrix runs it
# once, on 18 (COLSTORE_SQLSMITH=0 skips it)
[ "${COLSTORE_SQLSMITH:-1}" = 1 ] && run_script sqlsmith "sqlsmith: random SQL against colstore tables" scripts/sqlsmith.sh
run_script conformance "conformance: PostgreSQL's regression and isolation suites with colstore as default access method" \
	scripts/conformance.sh

echo
if [ ${#failed_phases[@]} -gt 0 ]; then
	echo "failed phases: ${failed_phases[*]}"
	[ "$failed" -eq 0 ] && failed=1
fi
echo "$passed passed, $failed failed"
[ ${#failed_phases[@]} -eq 0 ]
