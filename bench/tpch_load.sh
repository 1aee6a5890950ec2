#!/usr/bin/env bash
# bench/tpch_load.sh: loading TPC-H tables, heap against colstore, in a server that is already
# running (the one PGHOST and PGPORT point at, colstore installed; bench/tpch.sh's settings are
# the server's business), for work on the load path (issue 22 item 5).
#
# Reads the CSVs tpchgen-cli wrote into --dir (bench/tpch.sh's venv makes them:
# tpchgen-cli csv --scale-factor 1 --output-dir DIR; the server must be able to read them) and,
# --rounds times, for each table of --tables, into heap and then colstore: creates the table
# with bench/tpch.sh's definition (read out of it with tpch_part), CHECKPOINTs, times COPY and
# then ALTER TABLE ... ADD PRIMARY KEY.  Each is timed as wall time (psql \timing) and as the
# backend's CPU time (utime + stime from /proc, so psql must run on the server's machine),
# which a loaded machine disturbs less.  Prints every run, then per table and step the medians
# and colstore/heap ratios, the sum over the tables, and each table's size (pg_table_size).
# Usage: bash bench/tpch_load.sh --dir DIR [--tables lineitem,orders] [--rounds 3]
# Never run by CI.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

dir="" only="lineitem,orders" rounds=3
while [ $# -gt 0 ]; do
	case "$1" in
		--dir) dir="$2"; shift 2 ;;
		--tables) only="$2"; shift 2 ;;
		--rounds) rounds="$2"; shift 2 ;;
		*) echo "usage: $0 --dir DIR [--tables lineitem,orders] [--rounds N]"; exit 2 ;;
	esac
done
[ -n "$dir" ] || { echo "usage: $0 --dir DIR [--tables lineitem,orders] [--rounds N]"; exit 2; }
eval "$(tpch_part '^tables=\(' '^declare -A R$')"			# tables, columns, pkey
IFS=, read -r -a chosen <<<"$only"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# timed SETUP... STATEMENT: "wall_ms cpu_ms" of STATEMENT, run after SETUP in one session
timed() {
	local last="${*: -1}" s
	{
		for s in "${@:1:$#-1}"; do echo "$s;"; done
		echo "SELECT pg_backend_pid() AS pid \\gset"
		echo "\\setenv BPID :pid"
		echo "\\! awk '{ print \$14 + \$15 }' /proc/\$BPID/stat > $scratch/cpu0"
		echo "\\timing on"
		echo "$last;"
		echo "\\timing off"
		echo "\\! awk '{ print \$14 + \$15 }' /proc/\$BPID/stat > $scratch/cpu1"
	} | psql -X -q -v ON_ERROR_STOP=1 >"$scratch/out"
	local wall ticks hz
	wall=$(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' "$scratch/out" | tail -n 1)
	[ -n "$wall" ] || { echo "failed: $last" >&2; return 1; }
	hz=$(getconf CLK_TCK)
	ticks=$(( $(cat "$scratch/cpu1") - $(cat "$scratch/cpu0") ))
	echo "$wall $(awk -v t="$ticks" -v hz="$hz" 'BEGIN { printf "%.0f", t * 1000 / hz }')"
}

declare -A runs
for r in $(seq 1 "$rounds"); do
	for t in "${chosen[@]}"; do
		for am in heap colstore; do
			c=$(timed "DROP TABLE IF EXISTS ${t}_$am" "CREATE TABLE ${t}_$am (${columns[$t]}) USING $am" \
				"CHECKPOINT" "COPY ${t}_$am FROM '$dir/$t.csv' WITH (FORMAT csv, HEADER true)")
			p=$(timed "ALTER TABLE ${t}_$am ADD PRIMARY KEY (${pkey[$t]})")
			size=$(psql -X -At -c "SELECT pg_table_size('${t}_$am')")
			echo "round $r $t $am: copy ${c% *} ms (cpu ${c#* }), primary key ${p% *} ms (cpu ${p#* }), $size bytes"
			runs[$t|$am|copy|wall]+="${c% *} " runs[$t|$am|copy|cpu]+="${c#* } "
			runs[$t|$am|pk|wall]+="${p% *} " runs[$t|$am|pk|cpu]+="${p#* } "
			runs[$t|$am|size]=$size
		done
	done
done

median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
printf '%-10s %-12s %12s %12s %7s %12s %12s %7s\n' table step heap_ms colstore_ms ratio heap_cpu colstore_cpu ratio
declare -A sum
for t in "${chosen[@]}"; do
	for step in copy pk; do
		line=""
		for kind in wall cpu; do
			h=$(median <<<"${runs[$t|heap|$step|$kind]}")
			c=$(median <<<"${runs[$t|colstore|$step|$kind]}")
			sum[heap|$kind]=$(awk -v a="${sum[heap|$kind]:-0}" -v b="$h" 'BEGIN { print a + b }')
			sum[colstore|$kind]=$(awk -v a="${sum[colstore|$kind]:-0}" -v b="$c" 'BEGIN { print a + b }')
			line+=$(printf '%12.0f %12.0f %7.2f ' "$h" "$c" "$(awk -v h="$h" -v c="$c" 'BEGIN { print c / h }')")
		done
		printf '%-10s %-12s %s\n' "$t" "$step" "$line"
	done
done
printf '%-10s %-12s %12.0f %12.0f %7.2f %12.0f %12.0f %7.2f\n' all "copy+pk" \
	"${sum[heap|wall]}" "${sum[colstore|wall]}" "$(awk -v h="${sum[heap|wall]}" -v c="${sum[colstore|wall]}" 'BEGIN { print c / h }')" \
	"${sum[heap|cpu]}" "${sum[colstore|cpu]}" "$(awk -v h="${sum[heap|cpu]}" -v c="${sum[colstore|cpu]}" 'BEGIN { print c / h }')"
for t in "${chosen[@]}"; do
	echo "size $t: heap ${runs[$t|heap|size]} colstore ${runs[$t|colstore|size]} bytes"
done
