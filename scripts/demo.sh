#!/usr/bin/env bash
# scripts/demo.sh: the README's first command.
#
# Sets the machine up (scripts/setup.sh), loads the seed-000 benchmark table
# (c1 bigint, c2 int, c3 numeric, c4 varchar(10), c5 date) with N rows (default 1,000,000;
# `--rows N` or ROWS=N) into a heap table and a colstore table of database colstore_demo, and
# prints size, load time and a few query times side by side, and whether the results match.
set -euo pipefail
cd "$(dirname "$0")/.."
# with PGVERSION=17 or 18: a release build of that PostgreSQL (the test suite uses cassert builds)
export COLSTORE_PG_FLAVOUR="${COLSTORE_PG_FLAVOUR:-release}"
. scripts/env.sh

rows="${ROWS:-1000000}"
if [ "${1:-}" = "--rows" ] && [ -n "${2:-}" ]; then
	rows="$2"
fi

bash scripts/setup.sh

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS colstore_demo" -c "CREATE DATABASE colstore_demo"
export PGDATABASE=colstore_demo
psql -X -q -c "CREATE EXTENSION colstore"

# ms <sql>: run sql and print its duration in milliseconds
ms() {
	psql -X -q -At -c '\timing on' -c "$1" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 1
}
# result <sql>: md5 of the query's output
result() { psql -X -q -At -c "$1" | md5sum | cut -d' ' -f1; }

fill="SELECT i, 1, (i % 10000)::numeric / 100, 'v' || (i % 1000), date '2020-01-01' + (i % 1000)
      FROM generate_series(1, $rows) i"
queries=(
	"count(c1)|SELECT count(c1) FROM %s"
	"sum(c1)|SELECT sum(c1) FROM %s"
	"GROUP BY c4|SELECT c4, count(*), avg(c3) FROM %s GROUP BY c4 ORDER BY c4"
	"point lookup|SELECT c2, c3, c4, c5 FROM %s WHERE c1 = $((rows / 2))"
)

declare -A load size
for am in heap colstore; do
	psql -X -q -c "CREATE TABLE t5_$am (c1 bigint, c2 int, c3 numeric, c4 varchar(10), c5 date) USING $am"
	load[$am]=$(ms "INSERT INTO t5_$am $fill")
	psql -X -q -c "ALTER TABLE t5_$am ADD PRIMARY KEY (c1)" -c "VACUUM ANALYZE t5_$am"
	size[$am]=$(psql -X -At -c "SELECT pg_total_relation_size('t5_$am')")
done

printf '\n%s rows of the seed-000 table, heap vs colstore, same server:\n\n' "$rows"
printf '| %-14s | %12s | %12s | %14s | %s\n' metric heap colstore colstore/heap "same result"
printf '|%s|\n' "----------------|--------------|--------------|----------------|------------"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print "-" }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1048576 }'; }
printf '| %-14s | %12s | %12s | %14s |\n' "total size" "$(mb "${size[heap]}")" "$(mb "${size[colstore]}")" \
	"$(ratio "${size[heap]}" "${size[colstore]}")"
printf '| %-14s | %9s ms | %9s ms | %14s |\n' "load" "${load[heap]}" "${load[colstore]}" \
	"$(ratio "${load[heap]}" "${load[colstore]}")"
mismatch=0
for q in "${queries[@]}"; do
	name="${q%%|*}"
	sql="${q#*|}"
	# shellcheck disable=SC2059
	hs=$(printf "$sql" t5_heap)
	# shellcheck disable=SC2059
	cs=$(printf "$sql" t5_colstore)
	ms "$hs" >/dev/null
	ms "$cs" >/dev/null
	th=$(ms "$hs")
	tc=$(ms "$cs")
	same=yes
	[ "$(result "$hs")" = "$(result "$cs")" ] || { same=NO; mismatch=1; }
	printf '| %-14s | %9s ms | %9s ms | %14s | %s\n' "$name" "$th" "$tc" "$(ratio "$th" "$tc")" "$same"
done
echo
echo "Tables t5_heap and t5_colstore are in database colstore_demo (psql -h $PGHOST -p $PGPORT -U postgres colstore_demo)."
echo "Per-column compression: SELECT * FROM colstore.stats('t5_colstore');"
exit $mismatch
