#!/usr/bin/env bash
# scripts/conformance.sh: PostgreSQL's own test suites, run on heap and on colstore.
#
# Runs these suites of PostgreSQL $PGVERSION's source (Debian's source package for 15, fetched by
# setup.sh; the pinned tarball's build tree for 17 and 18): the core regression
# suite (src/test/regress, parallel_schedule), the isolation suite (src/test/isolation,
# isolation_schedule), contrib/test_decoding's regression and isolation tests (decoding,
# decoding_isolation: wal_level = logical, its logical.conf) and the logical replication TAP
# tests (subscription: src/test/subscription/t).  Each runs twice: once plain (heap), once with
# colstore preloaded, created in the test databases and set as default_table_access_method.
# The TAP tests make their own clusters: for colstore, an initdb wrapper first in PATH creates
# the extension in template1 and postgres of each new cluster, and TEMP_CONFIG adds the
# settings.
# Prints, per suite,
#   <suite> heap: N passed, M failed of T
#   <suite> colstore: N passed, M failed of T
# writes the failing colstore tests to test/conformance/[<version>/]<suite>_failures.txt, and
# fails if colstore passes fewer tests than <that directory>/<suite>_regress.expected records.
# Usage: scripts/conformance.sh [core|isolation|decoding|decoding_isolation|subscription]...
# (default: all)
# CONFORMANCE_SKIP_HEAP=1 skips the heap runs (their figures are then not printed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

repo=$(pwd)
pgsrc="$PGSOURCE/src/test"
src="$pgsrc/regress"
decoding_src="$pgsrc/../../contrib/test_decoding"
pgxs=$(pg_config --pgxs)
pgxs_test="$(dirname "$pgxs")/../test"
work="$COLSTORE_DEPS/conformance-$PGVERSION"
# recorded figures and failure lists: test/conformance/ for 15, test/conformance/<version>/ else
figures="$repo/test/conformance"
[ "$PGVERSION" = 15 ] || figures="$figures/$PGVERSION"
timeout_s="${CONFORMANCE_TIMEOUT:-900}"

[ -f "$src/parallel_schedule" ] || { echo "no PostgreSQL source at $src (run scripts/setup.sh)"; exit 1; }

# The suite's C helpers: regress.so built from the source, autoinc/refint from contrib/spi.
build_helpers() {
	mkdir -p "$work/lib"
	if [ ! -f "$work/lib/regress.so" ]; then
		cp "$src/regress.c" "$work/lib/"
		printf 'MODULES = regress\nPG_CONFIG = pg_config\nPGXS := $(shell $(PG_CONFIG) --pgxs)\ninclude $(PGXS)\n' \
			>"$work/lib/Makefile"
		make -s -C "$work/lib" >/dev/null
	fi
	for m in autoinc refint; do
		ln -sf "$(pg_config --pkglibdir)/$m.so" "$work/lib/$m.so"
	done
}

# suite_setup SUITE: sets driver, inputdir, schedule and extra options for it
suite_setup() {
	case "$1" in
		core)
			driver="$pgxs_test/regress/pg_regress"
			inputdir="$src"
			schedule="$src/parallel_schedule"
			suite_opts=(--dlpath="$work/lib" --max-concurrent-tests=20)
			;;
		isolation)
			driver="$pgxs_test/isolation/pg_isolation_regress"
			inputdir="$pgsrc/isolation"
			schedule="$pgsrc/isolation/isolation_schedule"
			suite_opts=()
			;;
		decoding | decoding_isolation)
			# test_decoding lists its tests in its Makefile: one schedule line each
			local var=REGRESS
			driver="$pgxs_test/regress/pg_regress"
			if [ "$1" = decoding_isolation ]; then
				var=ISOLATION
				driver="$pgxs_test/isolation/pg_isolation_regress"
			fi
			inputdir="$decoding_src"
			schedule="$work/$1_schedule"
			sed -n "/^$var = /,/[^\\]\$/p" "$decoding_src/Makefile" | sed "s/^$var = //; s/\\\\//" |
				tr ' \t' '\n\n' | grep -v '^$' | sed 's/^/test: /' >"$schedule"
			suite_opts=()
			;;
		subscription)
			schedule="$work/subscription_schedule"
			(cd "$pgsrc/subscription/t" && ls ./*.pl) | sed 's|^\./|test: |' >"$schedule"
			;;
		*) echo "conformance.sh: unknown suite \"$1\"" >&2; exit 2 ;;
	esac
}

# scheduled SCHEDULE: the test names of a schedule, sorted
scheduled() {
	grep "^test:" "$1" | tr ' ' '\n' | grep -v '^test:$' | grep -v '^$' | sort -u
}

# run_suite SUITE NAME CONFIGFILE [options...]: prints "passed failed total" to stdout
run_suite() {
	local suite="$1" name="$2" conf="$3"
	shift 3
	suite_setup "$suite"
	local out="$work/$suite-$name"
	rm -rf "$out"
	mkdir -p "$out"
	cp "$conf" "$out/extra.conf"
	chown -R postgres "$work"
	# isolationtester cancels a step blocked for step_wait seconds: on colstore, a step that
	# fails before releasing a lock leaves the next one blocked until then
	local step_wait=300
	[ "$name" = colstore ] && step_wait=10
	(cd "$out" && timeout "$timeout_s" runuser -u postgres -- env PATH="$PATH" \
		PGISOLATIONTIMEOUT="$step_wait" \
		"$driver" --temp-instance="$out/tmp_check" --bindir="$PGBIN" \
		--inputdir="$inputdir" --outputdir="$out" \
		--temp-config="$out/extra.conf" "${suite_opts[@]}" \
		--schedule="$schedule" "$@" >"$out/run.log" 2>&1) || true
	local ok total
	# "name ... ok" (15's pg_regress) or "ok N + name" / "ok N - name" (16's TAP-style output)
	awk '/\.\.\. ok/ { for (i = 1; i <= NF; i++) if ($i == "...") print $(i - 1) }
		/^ok [0-9]+ / { print ($3 == "+" || $3 == "-") ? $4 : $3 }' \
		"$out/run.log" | sort -u >"$out/ok.txt"
	ok=$(wc -l <"$out/ok.txt")
	total=$(scheduled "$schedule" | wc -l)
	# tests that never reported (timeout, crash of the driver) count as failed
	echo "$ok $((total - ok)) $total"
}

# run_tap_suite NAME CONFIGFILE: the subscription TAP tests with the settings in CONFIGFILE;
# for colstore, new clusters get the extension (initdb wrapper).  Prints "passed failed total".
run_tap_suite() {
	local name="$1" conf="$2"
	suite_setup subscription
	local out="$work/subscription-$name"
	rm -rf "$out"
	mkdir -p "$out/bin"
	cp "$conf" "$out/extra.conf"
	cp -r "$pgsrc/subscription/t" "$out/t"
	local path="$PATH"
	# as PostgreSQL's build tells its TAP tests (012_collation needs ICU)
	local with_icu=no
	pg_config --configure | grep -q -- "--with-icu" && with_icu=yes
	if [ "$name" = colstore ]; then
		cat >"$out/bin/initdb" <<WRAPPER
#!/bin/sh
# initdb, then colstore in template1 and postgres (single-user mode: no server yet)
set -e
"$PGBIN/initdb" "\$@"
pgdata=""
prev=""
for a in "\$@"; do
	case "\$prev" in -D|--pgdata) pgdata="\$a" ;; esac
	case "\$a" in --pgdata=*) pgdata="\${a#--pgdata=}" ;; esac
	prev="\$a"
done
for db in template1 postgres; do
	echo "CREATE EXTENSION colstore;" | "$PGBIN/postgres" --single -D "\$pgdata" "\$db" >/dev/null
done
WRAPPER
		chmod +x "$out/bin/initdb"
		path="$out/bin:$PATH"
	fi
	chown -R postgres "$work"
	(cd "$out" && timeout "$timeout_s" runuser -u postgres -- env PATH="$path" \
		PERL5LIB="$pgxs_test/perl" PG_REGRESS="$pgxs_test/regress/pg_regress" \
		TESTDIR="$out" TEMP_CONFIG="$out/extra.conf" PGHOST= PGPORT= PGUSER= PGDATABASE= \
		with_icu="$with_icu" \
		prove t/*.pl >"$out/run.log" 2>&1) || true
	# prove prints "t/NAME.pl ..... ok" per passing file
	grep -oE '^t/[^ ]+\.pl \.+ ok' "$out/run.log" | sed 's|^t/||; s| .*||' | sort -u >"$out/ok.txt"
	local ok total
	ok=$(wc -l <"$out/ok.txt")
	total=$(scheduled "$schedule" | wc -l)
	echo "$ok $((total - ok)) $total"
}

# conformance SUITE: runs it on heap and colstore, records failures, checks the figure
conformance() {
	local suite="$1" hp hf ht cp cf ct recorded
	local expected_file="$figures/${suite}_regress.expected"

	# core: max_prepared_transactions = 0 (the suite has expected output for it): with UPDATE
	# missing, prepared_xacts would otherwise leave a prepared transaction holding locks that
	# later DDL waits for until the timeout.  isolation: its two-phase tests need prepared
	# transactions, and every test ends its own sessions.  Heap and colstore runs of a suite
	# use the same server settings; only isolationtester's step timeout differs (see run_suite).
	local common="shared_buffers = 256MB\nmax_prepared_transactions = 0\n"
	[ "$suite" = isolation ] && common="shared_buffers = 256MB\nmax_prepared_transactions = 10\n"
	# test_decoding: its own settings (logical.conf); the subscription TAP tests set their own
	case "$suite" in
		decoding | decoding_isolation)
			common="shared_buffers = 256MB\nmax_prepared_transactions = 10\n$(sed 's/$/\\n/' "$decoding_src/logical.conf" | tr -d '\n')" ;;
		subscription) common="" ;;
	esac
	printf "$common" >"$work/heap.conf"
	printf "${common}shared_preload_libraries = 'colstore'\ndefault_table_access_method = colstore\n" \
		>"$work/colstore.conf"

	local runner=(run_suite "$suite") colstore_opts=(--load-extension=colstore)
	if [ "$suite" = subscription ]; then
		runner=(run_tap_suite)
		colstore_opts=()
	fi
	if [ "${CONFORMANCE_SKIP_HEAP:-0}" != "1" ]; then
		read -r hp hf ht < <("${runner[@]}" heap "$work/heap.conf")
		echo "$suite heap: $hp passed, $hf failed of $ht"
	fi
	read -r cp cf ct < <("${runner[@]}" colstore "$work/colstore.conf" "${colstore_opts[@]}")
	echo "$suite colstore: $cp passed, $cf failed of $ct"

	suite_setup "$suite"
	scheduled "$schedule" | comm -23 - "$work/$suite-colstore/ok.txt" \
		>"$figures/${suite}_failures.txt"

	recorded=$(cat "$expected_file" 2>/dev/null || echo 0)
	if ! [[ "$recorded" =~ ^[0-9]+$ && "$cp" =~ ^[0-9]+$ ]]; then
		echo "conformance: bad figures for $suite (recorded \"$recorded\", measured \"$cp\")" >&2
		failed_suites+=("$suite")
		return
	fi
	if [ "$cp" -lt "$recorded" ]; then
		echo "conformance: colstore passes $cp $suite tests, fewer than the recorded $recorded"
		echo "diffs: $work/$suite-colstore/regression.diffs"
		failed_suites+=("$suite")
		return
	fi
	echo "conformance: colstore passes $cp $suite tests (recorded figure: $recorded)"
}

build_helpers

failed_suites=()
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(core isolation decoding decoding_isolation subscription)
for suite in "${suites[@]}"; do
	conformance "$suite"
done
[ ${#failed_suites[@]} -eq 0 ] || exit 1
