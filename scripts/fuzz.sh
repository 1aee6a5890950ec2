#!/usr/bin/env bash
# scripts/fuzz.sh: build colstore's decoder fuzzers (fuzz/) and run each for a bounded time.
#
# Each target is a libFuzzer program built with clang -fsanitize=fuzzer,address,undefined
# from colstore's decoding sources, fuzz/pg_stubs.c (the backend services they use) and
# PostgreSQL 15's server headers and libpgcommon/libpgport; no server runs.  Every target
# starts from its kept seed corpus fuzz/corpus/<target>/ (read only: new inputs go to a
# scratch corpus in the build directory) and runs FUZZ_SECONDS seconds (default 15) with a
# fixed seed, -timeout=5 per input.  Exits non-zero if any target crashes, leaks, times out
# or fails a check; prints per target the number of executions.
#
# Needs (Debian 12): clang-14 and libclang-rt-14-dev (or the clang / libclang-rt-dev
# metapackages), plus what scripts/setup.sh installs (postgresql-server-dev-15, liblz4-dev,
# libzstd-dev).
#
#   bash scripts/fuzz.sh                    all targets, 15 s each
#   FUZZ_SECONDS=600 bash scripts/fuzz.sh   a long run by hand
#   bash scripts/fuzz.sh chunk codec        some targets
#   FUZZ_GEN_CORPUS=1 bash scripts/fuzz.sh  regenerate fuzz/corpus/*/seed-* with the encoders
# FUZZ_BUILD (default /var/tmp/colstore-fuzz) is the build directory; FUZZ_JOBS > 1 runs that
# many targets at a time.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

TARGETS_ALL="chunk intstream values codec rowgroup_header directory promotion_map"
SECONDS_PER_TARGET="${FUZZ_SECONDS:-15}"
BUILD="${FUZZ_BUILD:-/var/tmp/colstore-fuzz}"
PG_CONFIG="${FUZZ_PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"

CC="${FUZZ_CC:-}"
if [ -z "$CC" ]; then
	for c in clang clang-14; do
		if command -v "$c" >/dev/null; then CC=$c; break; fi
	done
fi
if [ -z "$CC" ]; then
	echo "fuzz.sh: clang not found (Debian 12: apt-get install clang-14 libclang-rt-14-dev)" >&2
	exit 2
fi

# Decoder sources linked into the harnesses (an archive: each target takes what it needs).
SOURCES="src/encoding/bitpack.c src/encoding/byref_values.c src/encoding/chunk_encoding.c
src/encoding/chunk_reader.c src/encoding/codec.c src/encoding/dictionary.c
src/encoding/integer_encoding.c src/encoding/numeric_encoding.c src/encoding/word_encoding.c
src/storage/directory.c src/storage/metapage.c src/storage/promotion_map.c
src/storage/deleted_rows.c src/storage/delete_log.c
src/storage/rowgroup_reader.c fuzz/pg_stubs.c fuzz/fuzz_common.c"

build() {
	local incdir libdir obj objs="" flags
	incdir=$("$PG_CONFIG" --includedir-server)
	libdir=$("$PG_CONFIG" --pkglibdir)
	flags="-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
		-fno-sanitize-recover=undefined -fno-sanitize=function
		-I$ROOT/src -I$ROOT/fuzz -I$incdir -Wall -Wno-ignored-attributes -Wno-unused-command-line-argument
		-Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers"
	mkdir -p "$BUILD/obj"
	for src in $SOURCES; do
		obj="$BUILD/obj/$(basename "${src%.c}").o"
		if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find src fuzz -name '*.h' -newer "$obj")" ]; then
			# shellcheck disable=SC2086
			"$CC" $flags -c "$src" -o "$obj" || return 1
		fi
		objs="$objs $obj"
	done
	rm -f "$BUILD/libcolstore_fuzz.a"
	# shellcheck disable=SC2086
	ar rcs "$BUILD/libcolstore_fuzz.a" $objs || return 1
	local libs="$BUILD/libcolstore_fuzz.a $libdir/libpgcommon.a $libdir/libpgport.a -llz4 -lzstd -lm"
	for t in $TARGETS_ALL; do
		# shellcheck disable=SC2086
		"$CC" $flags -fsanitize=fuzzer "fuzz/fuzz_$t.c" $libs -o "$BUILD/fuzz_$t" || return 1
	done
	# shellcheck disable=SC2086
	"$CC" $flags "fuzz/gen_corpus.c" $libs -o "$BUILD/gen_corpus" || return 1
}

echo "== building fuzzers with $CC into $BUILD"
build || { echo "fuzz.sh: build failed"; exit 1; }

if [ -n "${FUZZ_GEN_CORPUS:-}" ]; then
	echo "== regenerating seed corpora in fuzz/corpus"
	"$BUILD/gen_corpus" "$ROOT/fuzz/corpus" || exit 1
fi

targets="${*:-$TARGETS_ALL}"
failed=0
run_target() {
	local t=$1 scratch="$BUILD/corpus-$t" log="$BUILD/fuzz_$t.log" rc
	rm -rf "$scratch"
	mkdir -p "$scratch" "$BUILD/artifacts-$t"
	ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:abort_on_error=1" \
	UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
		"$BUILD/fuzz_$t" -max_total_time="$SECONDS_PER_TARGET" -timeout=5 -rss_limit_mb=2048 \
		-seed=1 -print_final_stats=1 -artifact_prefix="$BUILD/artifacts-$t/" \
		"$scratch" "$ROOT/fuzz/corpus/$t" >"$log" 2>&1
	rc=$?
	local execs
	execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -n 1)
	if [ $rc -eq 0 ]; then
		echo "fuzz $t: ok, ${execs:-?} executions in ${SECONDS_PER_TARGET}s"
	else
		echo "fuzz $t: FAILED (exit $rc, ${execs:-?} executions); log $log, inputs in $BUILD/artifacts-$t/"
		grep -E "ERROR: |fuzz .*:|SUMMARY|^    #[0-9] " "$log" | head -n 30
	fi
	return $rc
}

jobs_max="${FUZZ_JOBS:-1}"
pids=()
for t in $targets; do
	if [ ! -x "$BUILD/fuzz_$t" ]; then
		echo "fuzz.sh: unknown target $t (targets: $TARGETS_ALL)"
		failed=1
		continue
	fi
	if [ "$jobs_max" -gt 1 ]; then
		run_target "$t" &
		pids+=($!)
		while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 1; done
	else
		run_target "$t" || failed=1
	fi
done
for p in "${pids[@]}"; do
	wait "$p" || failed=1
done
[ $failed -eq 0 ] && echo "fuzz: all targets passed" || echo "fuzz: FAILED"
exit $failed
