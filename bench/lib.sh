# bench/lib.sh: the throwaway server every bench script runs in, and the pieces that measure and
# report.  Source it after scripts/env.sh.
#
# bench_server_start DATA SOCKET PORT [CONFIG LINE...]
#   Builds and installs colstore, creates a fresh cluster in DATA (initdb as the postgres user,
#   UTF8, C.UTF-8), listening only on a unix socket in SOCKET at PORT, with jit off, colstore
#   preloaded and the given extra postgresql.conf lines, starts it, and stops it when the script
#   exits.  Exports PGHOST, PGPORT and PGUSER for psql and pgbench.  Also makes BENCH_TMP, a
#   scratch directory under /var/tmp that the server can read (COPY FROM a file), removed on exit.
#   BENCH_NO_BUILD=1 skips the build (colstore is already installed in the server PATH points at).
#
# bench_venv PACKAGE...
#   A Python venv in $COLSTORE_DEPS/bench-venv (reused if there, created otherwise, after
#   installing python3-venv if missing) holding the given PyPI packages; sets BENCH_VENV.
#
# Measuring and reporting, on the calling script's associative array R (declare -A R): R[M|heap],
# R[M|colstore] and R[M|duckdb] hold metric M's figures, R[digest|M|heap] and R[digest|M|colstore]
# the md5 of its result, R[duckdb-same|M] whether DuckDB's result matched heap's.
#   ms SQL, median3 SQL, digest SQL [FILE], add M ENGINE VALUE, time_queries PREFIX QUERY...,
#   duckdb_reference ARG...,
#   same M, row LABEL M FORMAT [SAME], and the formats mb, fmt_ms, ratio.

bench_server_start() {
	local data="$1" sock="$2" port="$3"
	shift 3
	BENCH_DATA="$data"
	export PGHOST="$sock" PGPORT="$port" PGUSER=postgres
	BENCH_TMP=$(mktemp -d /var/tmp/colstore-bench-tmp.XXXXXX)
	chmod 755 "$BENCH_TMP"
	trap bench_exit EXIT
	[ "${BENCH_NO_BUILD:-}" = 1 ] || bash scripts/build_ext.sh
	bench_server_stop
	rm -rf "$data"
	mkdir -p "$data" "$sock"
	chown postgres "$data" "$sock"
	as_postgres initdb -D "$data" --locale=C.UTF-8 -E UTF8 -A trust >/dev/null
	{
		echo "port = $port"
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$sock'"
		echo "jit = off"
		echo "shared_preload_libraries = 'colstore'"
		printf '%s\n' "$@"
	} >>"$data/postgresql.conf"
	as_postgres pg_ctl -D "$data" -l "$data/server.log" -w start >/dev/null
}

# fast, or immediate if that does not finish (a server that crashed may not)
bench_server_stop() {
	as_postgres pg_ctl -D "$BENCH_DATA" -m fast -w stop >/dev/null 2>&1 ||
		as_postgres pg_ctl -D "$BENCH_DATA" -m immediate -w stop >/dev/null 2>&1 || true
}

bench_exit() {
	bench_server_stop
	rm -rf "$BENCH_TMP"
}

# Debian's own python3 (not whatever python3 is first in PATH); its ensurepip, which venv needs,
# comes with python3-venv
bench_venv() {
	BENCH_VENV="$COLSTORE_DEPS/bench-venv"
	if ! /usr/bin/python3 -c 'import ensurepip' 2>/dev/null; then
		apt-get update -q
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv
	fi
	[ -x "$BENCH_VENV/bin/python" ] || /usr/bin/python3 -m venv "$BENCH_VENV"
	"$BENCH_VENV/bin/pip" install -q --disable-pip-version-check "$@"
}

# ms SQL: wall time of SQL in milliseconds (psql \timing)
ms() { psql -X -q -At -c '\timing on' -c "$1" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 1; }
# median3 SQL: median of three timed runs after one warm-up run
median3() {
	ms "$1" >/dev/null
	printf '%s\n%s\n%s\n' "$(ms "$1")" "$(ms "$1")" "$(ms "$1")" | sort -g | sed -n 2p
}
# digest SQL [FILE]: md5 of SQL's psql -At output, which is also written to FILE if given
digest() { psql -X -q -At -c "$1" | tee "${2:-/dev/null}" | md5sum | cut -d' ' -f1; }
add() { R["$1|$2"]="$3"; }

# duckdb_reference ARG...: runs bench/duckdb_reference.py ARG... in the venv, which prints one
# line "metric<TAB>ms<TAB>same" per measurement, into R; sets DUCKDB_VERSION
duckdb_reference() {
	local out name t s
	DUCKDB_VERSION=$("$BENCH_VENV/bin/python" -c 'import duckdb; print(duckdb.__version__)')
	out=$("$BENCH_VENV/bin/python" bench/duckdb_reference.py "$@")
	while IFS=$'\t' read -r name t s; do
		add "$name" duckdb "$t"
		[ "$s" = - ] || R["duckdb-same|$name"]="$s"
	done <<<"$out"
}

# time_queries PREFIX "NAME|SQL"...: each query against PREFIXheap and PREFIXcolstore (%s in SQL
# is the table): median3 into R[NAME|am], result digests into R[digest|NAME|am], heap's result
# kept as $BENCH_TMP/N.txt for duckdb_reference --expect; sets mismatch=1 if the two differ
time_queries() {
	local prefix="$1" n=0 q name sql am s
	shift
	for q in "$@"; do
		n=$((n + 1))
		name="${q%%|*}"
		sql="${q#*|}"
		for am in heap colstore; do
			s="${sql//%s/$prefix$am}"
			echo "== $am: $name" >&2
			add "$name" "$am" "$(median3 "$s")"
			R["digest|$name|$am"]=$(digest "$s" "$BENCH_TMP/$n.$am.txt")
		done
		mv "$BENCH_TMP/$n.heap.txt" "$BENCH_TMP/$n.txt"	# DuckDB's result is checked against heap's
		[ "${R["digest|$name|heap"]}" = "${R["digest|$name|colstore"]}" ] || mismatch=1
	done
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print "-" }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1048576 }'; }
fmt_ms() { awk -v v="$1" 'BEGIN { printf "%.4g ms", v }'; }
# same M: heap against colstore ("-" without digests), then DuckDB against heap where checked
same() {
	local s
	if [ -z "${R["digest|$1|heap"]:-}" ]; then s="-"
	elif [ "${R["digest|$1|heap"]}" = "${R["digest|$1|colstore"]}" ]; then s=yes
	else s=MISMATCH; fi
	[ -z "${R["duckdb-same|$1"]:-}" ] || s="$s (DuckDB: ${R["duckdb-same|$1"]})"
	echo "$s"
}
# cell FORMAT VALUE: VALUE in FORMAT, "-" if there is none
cell() { if [ -n "$2" ]; then "$1" "$2"; else echo -; fi; }
# row LABEL M FORMAT [SAME]: one line of the table | metric | heap | colstore | DuckDB |
# colstore/heap | colstore/DuckDB | same result |
row() {
	local h="${R["$2|heap"]:-}" c="${R["$2|colstore"]:-}" d="${R["$2|duckdb"]:-}"
	echo "| $1 | $(cell "$3" "$h") | $(cell "$3" "$c") | $(cell "$3" "$d") | $(ratio "$h" "$c") | $(ratio "$d" "$c") | ${4:-} |"
}

# tpch_part FIRST LAST: the lines of bench/tpch.sh from the first one matching the ERE FIRST up
# to, not including, the next one matching LAST; fails if there are none.  bench/tpch.sh runs as
# it is read, so other benches evaluate its parts (table definitions, query texts) through this
# instead of sourcing it, and so always run what it runs.  Run from the repository's root.
tpch_part() {
	local text
	text=$(awk -v a="$1" -v b="$2" 'p && $0 ~ b { exit } !p && $0 ~ a { p = 1 } p { print }' bench/tpch.sh)
	[ -n "$text" ] || { echo "bench/tpch.sh: no lines from /$1/ to /$2/" >&2; return 1; }
	printf '%s\n' "$text"
}
