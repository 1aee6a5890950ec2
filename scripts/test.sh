#!/usr/bin/env bash
# scripts/test.sh: run the whole test suite.
#
# 1. scripts/setup.sh (install, build with -Werror under CI, start the cluster)
# 2. pg_regress tests (test/sql, test/expected) and isolation specs (test/specs)
# 3. TAP tests (test/t/*.pl: crash recovery, UNLOGGED reset, standby, corruption, dump/restore)
# 4. conformance: PostgreSQL's own regression and isolation suites, contrib/test_decoding's
#    regression and isolation tests and the logical replication (subscription) TAP tests with
#    default_table_access_method = colstore, which must pass at least as many tests as recorded
#    in test/conformance/<suite>_regress.expected
# Exits non-zero if anything fails; the last line reads "N passed, M failed" (test files).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

if [ "${CI:-}" = "true" ]; then
	export COLSTORE_CFLAGS="${COLSTORE_CFLAGS:--Werror}"
fi
bash scripts/setup.sh || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
failed_phases=()

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
		for f in test/regression.diffs regression.diffs output_iso/regression.diffs; do
			[ -f "$f" ] && { echo "---- $f"; cat "$f"; }
		done
		failed_phases+=("pg_regress/isolation")
		grep -qE '\.\.\. (ok|FAILED|failed)' "$out" || failed=$((failed + 1))
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
	echo "== TAP tests"
	dir=$(mktemp -d /var/tmp/colstore-tap.XXXXXX)
	cp -r test/t "$dir/t"
	chown -R postgres "$dir"
	out="$dir/prove.out"
	if (cd "$dir" && runuser -u postgres -- env PATH="$PGBIN:$PATH" \
		PERL5LIB="$pgxs_test/perl" PG_REGRESS="$pgxs_test/regress/pg_regress" \
		TESTDIR="$dir" PGHOST= PGPORT= PGUSER= PGDATABASE= \
		prove -v t/*.pl) >"$out" 2>&1; then
		cat "$out"
	else
		cat "$out"
		for log in "$dir"/tmp_check/log/*; do
			[ -f "$log" ] && { echo "---- $log"; tail -n 50 "$log"; }
		done
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

run_conformance() {
	echo "== conformance: PostgreSQL's regression and isolation suites with colstore as default access method"
	if bash scripts/conformance.sh; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failed_phases+=("conformance")
	fi
}

run_regress
run_tap
run_conformance

echo
if [ ${#failed_phases[@]} -gt 0 ]; then
	echo "failed phases: ${failed_phases[*]}"
	[ "$failed" -eq 0 ] && failed=1
fi
echo "$passed passed, $failed failed"
[ ${#failed_phases[@]} -eq 0 ]
