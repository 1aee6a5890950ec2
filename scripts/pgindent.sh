#!/usr/bin/env bash
# scripts/pgindent.sh [--check]: format colstore's C sources with PostgreSQL's pgindent.
#
# pgindent and its pg_bsd_indent come from the pinned PostgreSQL 17 tarball in ../shared/deps/
# (src/tools/pgindent, src/tools/pg_bsd_indent); pg_bsd_indent is compiled against Debian's
# PostgreSQL 15 server headers and libpgport, and cached under /var/tmp/colstore-pgindent/
# <first 12 hex of the tarball's sha256>.  The typedef list is PostgreSQL's own plus the typedefs
# colstore declares (found in src/ and fuzz/ each run, so a new struct is formatted as a type at
# once).
#
# With no argument it rewrites the files in place.  With --check it changes nothing, prints the
# diff pgindent would apply, and exits 1 if any file is not formatted (scripts/test.sh runs it).
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-}"
deps="$(cd .. && pwd)/shared/deps"
tarball="$deps/postgresql-17_17.11.orig.tar.bz2"
sum=$(sha256sum "$tarball" | cut -c1-12)
cache="/var/tmp/colstore-pgindent/$sum"

if [ ! -x "$cache/bin/pg_bsd_indent" ]; then
	rm -rf "$cache.tmp"
	mkdir -p "$cache.tmp"
	tar -xjf "$tarball" -C "$cache.tmp" --strip-components=3 \
		--wildcards '*/src/tools/pgindent/*' '*/src/tools/pg_bsd_indent/*'
	mkdir "$cache.tmp/bin"
	(cd "$cache.tmp/pg_bsd_indent" &&
		cc -O2 -w -I. -I/usr/include/postgresql/15/server -o ../bin/pg_bsd_indent \
			args.c err.c indent.c io.c lexi.c parse.c pr_comment.c \
			-L/usr/lib/postgresql/15/lib -lpgport)
	rm -rf "$cache"
	mv "$cache.tmp" "$cache"
fi

# colstore's typedefs: "typedef ... Name;" on one line, and "} Name;" closing a typedef'd struct,
# union or enum
typedefs=$(mktemp)
trap 'rm -f "$typedefs"' EXIT
{
	cat "$cache/pgindent/typedefs.list"
	cat src/*.h src/*/*.h src/*/*.c fuzz/*.c fuzz/*.h 2>/dev/null |
		sed -nE -e 's/^typedef [^(]*[ *]([A-Za-z_][A-Za-z0-9_]*);.*/\1/p' \
			-e 's/^\} ([A-Za-z_][A-Za-z0-9_]*);.*/\1/p' \
			-e 's/^typedef [^(]*\(\*([A-Za-z_][A-Za-z0-9_]*)\).*/\1/p'
} | sort -u >"$typedefs"

files=$(ls src/*.c src/*.h src/*/*.c src/*/*.h fuzz/*.c fuzz/*.h 2>/dev/null)
args=(--indent="$cache/bin/pg_bsd_indent" --typedefs="$typedefs")
if [ "$mode" = "--check" ]; then
	# pgindent --diff prints the diffs (naming each file on its "---" line) and reports a file it
	# cannot parse on stderr; either fails the check
	status=0
	out=$(perl "$cache/pgindent/pgindent" "${args[@]}" --diff $files 2>&1) || status=1
	if [ -n "$out" ] || [ $status -ne 0 ]; then
		echo "$out"
		echo "pgindent: $(echo "$out" | grep -c '^--- ') files are not formatted (run scripts/pgindent.sh)"
		exit 1
	fi
	echo "pgindent: $(echo $files | wc -w) files formatted"
else
	perl "$cache/pgindent/pgindent" "${args[@]}" $files
fi
