#!/usr/bin/env bash
# scripts/check_macro_args.sh: no side effect (++, --) in the arguments of PostgreSQL macros that
# evaluate an argument more than once on some supported version.
#
# ItemPointerSet and its kin are macros on PostgreSQL 15 (inline functions from 16 on): in
# ItemPointerSet(&a[n++], ...) the increment ran three times, overran the array and corrupted
# the heap on 15 only (found 2026-11-27).  Min and Max evaluate the larger argument twice
# everywhere.  Fails, listing them, on such calls in src/.
set -euo pipefail
cd "$(dirname "$0")/.."

macros='ItemPointerSet|ItemPointerSetBlockNumber|ItemPointerSetOffsetNumber|ItemPointerCopy|BlockIdSet|Min|Max'
found=$(grep -nE "\b($macros)\([^;]*(\+\+|--)" src/*.c src/*/*.c src/*.h src/*/*.h || true)
if [ -n "$found" ]; then
	echo "macro arguments: side effects in arguments of macros that evaluate them more than once:"
	echo "$found" | sed 's/^/  /'
	exit 1
fi
echo "macro arguments: no side effect in multiply evaluated macro arguments"
