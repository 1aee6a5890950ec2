#!/usr/bin/env bash
# bench/tpch.sh: the 22 TPC-H queries on heap, on colstore and in DuckDB, in one run.
#
# Installs duckdb and tpchgen-cli from PyPI into a venv under $COLSTORE_DEPS (bench_venv),
# starts a throwaway cluster (bench/run.sh's settings plus work_mem = 64MB), generates the 8
# TPC-H tables at the given scale factor as CSV, loads each with COPY into <table>_heap and
# <table>_colstore (standard column types, primary keys only, then VACUUM ANALYZE), and with
# bench/duckdb_reference.py into an in-memory DuckDB database (2 threads).  Runs Q1-Q22 (qgen's
# texts with the specification's validation parameters) on each engine: one warm-up, then the
# median of 3, each run limited to --limit seconds (a warm-up over the limit skips the timed runs;
# the query is reported as "> S s" and counted at the limit).  Prints sizes, load time and each
# query with colstore/heap and colstore/DuckDB ratios and whether heap and colstore (and, loosely,
# DuckDB) return the same rows, then the geometric means, the number of queries where colstore is
# slower than heap and the largest colstore/heap.  Exits 1 if heap and colstore differ or fail.
# Usage: bash bench/tpch.sh [--scale SF] [--port P] [--limit S]
# Never run by CI; results go to bench/results/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

scale=1
port=5452
limit=60
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale="$2"; shift 2 ;;
		--port) port="$2"; shift 2 ;;
		--limit) limit="$2"; shift 2 ;;
		*) echo "usage: $0 [--scale SF] [--port P] [--limit S]"; exit 2 ;;
	esac
done
limit_ms=$(awk -v s="$limit" 'BEGIN { printf "%d", s * 1000 }')

. bench/lib.sh
bench_venv duckdb tpchgen-cli
bench_server_start /var/tmp/colstore-tpch /var/tmp/colstore-tpch-socket "$port" \
	'shared_buffers = 4GB' 'max_parallel_workers_per_gather = 2' 'max_worker_processes = 8' \
	'max_parallel_workers = 8' 'max_wal_size = 16GB' 'checkpoint_timeout = 30min' 'work_mem = 64MB'
export PGDATABASE=bench
psql -X -q -d postgres -c "CREATE DATABASE bench"
psql -X -q -c "CREATE EXTENSION colstore"

echo "== generating the 8 tables, scale factor $scale" >&2
"$BENCH_VENV/bin/tpchgen-cli" csv --scale-factor "$scale" --output-dir "$BENCH_TMP" --quiet

tables=(region nation part supplier partsupp customer orders lineitem)
declare -A columns pkey
columns[region]="r_regionkey bigint, r_name char(25), r_comment varchar(152)"
columns[nation]="n_nationkey bigint, n_name char(25), n_regionkey bigint, n_comment varchar(152)"
columns[part]="p_partkey bigint, p_name varchar(55), p_mfgr char(25), p_brand char(10),
	p_type varchar(25), p_size int, p_container char(10), p_retailprice numeric(15,2),
	p_comment varchar(23)"
columns[supplier]="s_suppkey bigint, s_name char(25), s_address varchar(40), s_nationkey bigint,
	s_phone char(15), s_acctbal numeric(15,2), s_comment varchar(101)"
columns[partsupp]="ps_partkey bigint, ps_suppkey bigint, ps_availqty int,
	ps_supplycost numeric(15,2), ps_comment varchar(199)"
columns[customer]="c_custkey bigint, c_name varchar(25), c_address varchar(40), c_nationkey bigint,
	c_phone char(15), c_acctbal numeric(15,2), c_mktsegment char(10), c_comment varchar(117)"
columns[orders]="o_orderkey bigint, o_custkey bigint, o_orderstatus char(1),
	o_totalprice numeric(15,2), o_orderdate date, o_orderpriority char(15), o_clerk char(15),
	o_shippriority int, o_comment varchar(79)"
columns[lineitem]="l_orderkey bigint, l_partkey bigint, l_suppkey bigint, l_linenumber int,
	l_quantity numeric(15,2), l_extendedprice numeric(15,2), l_discount numeric(15,2),
	l_tax numeric(15,2), l_returnflag char(1), l_linestatus char(1), l_shipdate date,
	l_commitdate date, l_receiptdate date, l_shipinstruct char(25), l_shipmode char(10),
	l_comment varchar(44)"
pkey=([region]=r_regionkey [nation]=n_nationkey [part]=p_partkey [supplier]=s_suppkey
	[partsupp]="ps_partkey, ps_suppkey" [customer]=c_custkey [orders]=o_orderkey
	[lineitem]="l_orderkey, l_linenumber")

declare -A R
mismatch=0

# must_ms SQL: ms SQL, failing (and so ending the script) when it printed no time
must_ms() {
	local t
	t=$(ms "$1")
	[ -n "$t" ] || { echo "failed: $1" >&2; return 1; }
	echo "$t"
}
# list AM: the 8 tables of AM, comma separated
list() { local t l=""; for t in "${tables[@]}"; do l+="${l:+, }${t}_$1"; done; echo "$l"; }

for am in heap colstore; do
	echo "== $am: loading" >&2
	for t in "${tables[@]}"; do
		psql -X -q -c "CREATE TABLE ${t}_$am (${columns[$t]}) USING $am"
	done
	psql -X -q -c "CHECKPOINT"
	load=0
	for t in "${tables[@]}"; do
		copy=$(must_ms "COPY ${t}_$am FROM '$BENCH_TMP/$t.csv' WITH (FORMAT csv, HEADER true)")
		pk=$(must_ms "ALTER TABLE ${t}_$am ADD PRIMARY KEY (${pkey[$t]})")
		load=$(awk -v a="$load" -v b="$copy" -v c="$pk" 'BEGIN { print a + b + c }')
	done
	add load "$am" "$load"
	check=""
	for t in "${tables[@]}"; do
		check+="${check:+ UNION ALL }SELECT '$t' AS t, count(*), sum(hashtext(r::text)), min(r::text), max(r::text) FROM ${t}_$am r"
	done
	R["digest|load|$am"]=$(digest "SELECT * FROM ($check) s ORDER BY t")
	psql -X -q -c "VACUUM ANALYZE $(list "$am")"
	in="unnest(string_to_array('$(list "$am")', ', ')::regclass[]) c"
	add total_size "$am" "$(psql -X -At -c "SELECT sum(pg_total_relation_size(c)) FROM $in")"
	add table_size "$am" "$(psql -X -At -c "SELECT sum(pg_table_size(c)) FROM $in")"
done

# The 22 queries: qgen's texts with the validation parameters of the TPC-H specification
# (FRACTION of Q11 is 0.0001 / SF, as the specification scales it), Q15's view as a CTE.
# _%E after a table name is _heap or _colstore, nothing in DuckDB.
fraction=$(awk -v sf="$scale" 'BEGIN { printf "%.10f", 0.0001 / sf }')
queries=()
q() { queries+=("$1|$2"); }
q Q1 "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,
	sum(l_extendedprice) AS sum_base_price, sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
	sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge, avg(l_quantity) AS avg_qty,
	avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc, count(*) AS count_order
FROM lineitem_%E
WHERE l_shipdate <= date '1998-12-01' - interval '90' day
GROUP BY l_returnflag, l_linestatus
ORDER BY l_returnflag, l_linestatus"
q Q2 "SELECT s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment
FROM part_%E, supplier_%E, partsupp_%E, nation_%E, region_%E
WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey AND p_size = 15 AND p_type LIKE '%BRASS'
	AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey AND r_name = 'EUROPE'
	AND ps_supplycost = (
		SELECT min(ps_supplycost) FROM partsupp_%E, supplier_%E, nation_%E, region_%E
		WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey AND s_nationkey = n_nationkey
			AND n_regionkey = r_regionkey AND r_name = 'EUROPE')
ORDER BY s_acctbal DESC, n_name, s_name, p_partkey
LIMIT 100"
q Q3 "SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate, o_shippriority
FROM customer_%E, orders_%E, lineitem_%E
WHERE c_mktsegment = 'BUILDING' AND c_custkey = o_custkey AND l_orderkey = o_orderkey
	AND o_orderdate < date '1995-03-15' AND l_shipdate > date '1995-03-15'
GROUP BY l_orderkey, o_orderdate, o_shippriority
ORDER BY revenue DESC, o_orderdate
LIMIT 10"
q Q4 "SELECT o_orderpriority, count(*) AS order_count
FROM orders_%E
WHERE o_orderdate >= date '1993-07-01' AND o_orderdate < date '1993-07-01' + interval '3' month
	AND EXISTS (SELECT * FROM lineitem_%E WHERE l_orderkey = o_orderkey AND l_commitdate < l_receiptdate)
GROUP BY o_orderpriority
ORDER BY o_orderpriority"
q Q5 "SELECT n_name, sum(l_extendedprice * (1 - l_discount)) AS revenue
FROM customer_%E, orders_%E, lineitem_%E, supplier_%E, nation_%E, region_%E
WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND l_suppkey = s_suppkey
	AND c_nationkey = s_nationkey AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey
	AND r_name = 'ASIA' AND o_orderdate >= date '1994-01-01'
	AND o_orderdate < date '1994-01-01' + interval '1' year
GROUP BY n_name
ORDER BY revenue DESC"
q Q6 "SELECT sum(l_extendedprice * l_discount) AS revenue
FROM lineitem_%E
WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1994-01-01' + interval '1' year
	AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24"
q Q7 "SELECT supp_nation, cust_nation, l_year, sum(volume) AS revenue
FROM (
	SELECT n1.n_name AS supp_nation, n2.n_name AS cust_nation,
		extract(year FROM l_shipdate) AS l_year, l_extendedprice * (1 - l_discount) AS volume
	FROM supplier_%E, lineitem_%E, orders_%E, customer_%E, nation_%E n1, nation_%E n2
	WHERE s_suppkey = l_suppkey AND o_orderkey = l_orderkey AND c_custkey = o_custkey
		AND s_nationkey = n1.n_nationkey AND c_nationkey = n2.n_nationkey
		AND ((n1.n_name = 'FRANCE' AND n2.n_name = 'GERMANY')
			OR (n1.n_name = 'GERMANY' AND n2.n_name = 'FRANCE'))
		AND l_shipdate BETWEEN date '1995-01-01' AND date '1996-12-31') AS shipping
GROUP BY supp_nation, cust_nation, l_year
ORDER BY supp_nation, cust_nation, l_year"
q Q8 "SELECT o_year, sum(CASE WHEN nation = 'BRAZIL' THEN volume ELSE 0 END) / sum(volume) AS mkt_share
FROM (
	SELECT extract(year FROM o_orderdate) AS o_year, l_extendedprice * (1 - l_discount) AS volume,
		n2.n_name AS nation
	FROM part_%E, supplier_%E, lineitem_%E, orders_%E, customer_%E, nation_%E n1, nation_%E n2, region_%E
	WHERE p_partkey = l_partkey AND s_suppkey = l_suppkey AND l_orderkey = o_orderkey
		AND o_custkey = c_custkey AND c_nationkey = n1.n_nationkey AND n1.n_regionkey = r_regionkey
		AND r_name = 'AMERICA' AND s_nationkey = n2.n_nationkey
		AND o_orderdate BETWEEN date '1995-01-01' AND date '1996-12-31'
		AND p_type = 'ECONOMY ANODIZED STEEL') AS all_nations
GROUP BY o_year
ORDER BY o_year"
q Q9 "SELECT nation, o_year, sum(amount) AS sum_profit
FROM (
	SELECT n_name AS nation, extract(year FROM o_orderdate) AS o_year,
		l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity AS amount
	FROM part_%E, supplier_%E, lineitem_%E, partsupp_%E, orders_%E, nation_%E
	WHERE s_suppkey = l_suppkey AND ps_suppkey = l_suppkey AND ps_partkey = l_partkey
		AND p_partkey = l_partkey AND o_orderkey = l_orderkey AND s_nationkey = n_nationkey
		AND p_name LIKE '%green%') AS profit
GROUP BY nation, o_year
ORDER BY nation, o_year DESC"
q Q10 "SELECT c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) AS revenue, c_acctbal, n_name,
	c_address, c_phone, c_comment
FROM customer_%E, orders_%E, lineitem_%E, nation_%E
WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND o_orderdate >= date '1993-10-01'
	AND o_orderdate < date '1993-10-01' + interval '3' month AND l_returnflag = 'R'
	AND c_nationkey = n_nationkey
GROUP BY c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
ORDER BY revenue DESC
LIMIT 20"
q Q11 "SELECT ps_partkey, sum(ps_supplycost * ps_availqty) AS value
FROM partsupp_%E, supplier_%E, nation_%E
WHERE ps_suppkey = s_suppkey AND s_nationkey = n_nationkey AND n_name = 'GERMANY'
GROUP BY ps_partkey
HAVING sum(ps_supplycost * ps_availqty) > (
	SELECT sum(ps_supplycost * ps_availqty) * $fraction
	FROM partsupp_%E, supplier_%E, nation_%E
	WHERE ps_suppkey = s_suppkey AND s_nationkey = n_nationkey AND n_name = 'GERMANY')
ORDER BY value DESC"
q Q12 "SELECT l_shipmode,
	sum(CASE WHEN o_orderpriority = '1-URGENT' OR o_orderpriority = '2-HIGH' THEN 1 ELSE 0 END) AS high_line_count,
	sum(CASE WHEN o_orderpriority <> '1-URGENT' AND o_orderpriority <> '2-HIGH' THEN 1 ELSE 0 END) AS low_line_count
FROM orders_%E, lineitem_%E
WHERE o_orderkey = l_orderkey AND l_shipmode IN ('MAIL', 'SHIP') AND l_commitdate < l_receiptdate
	AND l_shipdate < l_commitdate AND l_receiptdate >= date '1994-01-01'
	AND l_receiptdate < date '1994-01-01' + interval '1' year
GROUP BY l_shipmode
ORDER BY l_shipmode"
q Q13 "SELECT c_count, count(*) AS custdist
FROM (
	SELECT c_custkey, count(o_orderkey)
	FROM customer_%E LEFT OUTER JOIN orders_%E
		ON c_custkey = o_custkey AND o_comment NOT LIKE '%special%requests%'
	GROUP BY c_custkey) AS c_orders (c_custkey, c_count)
GROUP BY c_count
ORDER BY custdist DESC, c_count DESC"
q Q14 "SELECT 100.00 * sum(CASE WHEN p_type LIKE 'PROMO%' THEN l_extendedprice * (1 - l_discount) ELSE 0 END)
	/ sum(l_extendedprice * (1 - l_discount)) AS promo_revenue
FROM lineitem_%E, part_%E
WHERE l_partkey = p_partkey AND l_shipdate >= date '1995-09-01'
	AND l_shipdate < date '1995-09-01' + interval '1' month"
q Q15 "WITH revenue0 (supplier_no, total_revenue) AS (
	SELECT l_suppkey, sum(l_extendedprice * (1 - l_discount))
	FROM lineitem_%E
	WHERE l_shipdate >= date '1996-01-01' AND l_shipdate < date '1996-01-01' + interval '3' month
	GROUP BY l_suppkey)
SELECT s_suppkey, s_name, s_address, s_phone, total_revenue
FROM supplier_%E, revenue0
WHERE s_suppkey = supplier_no AND total_revenue = (SELECT max(total_revenue) FROM revenue0)
ORDER BY s_suppkey"
q Q16 "SELECT p_brand, p_type, p_size, count(DISTINCT ps_suppkey) AS supplier_cnt
FROM partsupp_%E, part_%E
WHERE p_partkey = ps_partkey AND p_brand <> 'Brand#45' AND p_type NOT LIKE 'MEDIUM POLISHED%'
	AND p_size IN (49, 14, 23, 45, 19, 3, 36, 9)
	AND ps_suppkey NOT IN (SELECT s_suppkey FROM supplier_%E WHERE s_comment LIKE '%Customer%Complaints%')
GROUP BY p_brand, p_type, p_size
ORDER BY supplier_cnt DESC, p_brand, p_type, p_size"
q Q17 "SELECT sum(l_extendedprice) / 7.0 AS avg_yearly
FROM lineitem_%E, part_%E
WHERE p_partkey = l_partkey AND p_brand = 'Brand#23' AND p_container = 'MED BOX'
	AND l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem_%E WHERE l_partkey = p_partkey)"
q Q18 "SELECT c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity)
FROM customer_%E, orders_%E, lineitem_%E
WHERE o_orderkey IN (SELECT l_orderkey FROM lineitem_%E GROUP BY l_orderkey HAVING sum(l_quantity) > 300)
	AND c_custkey = o_custkey AND o_orderkey = l_orderkey
GROUP BY c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice
ORDER BY o_totalprice DESC, o_orderdate
LIMIT 100"
q Q19 "SELECT sum(l_extendedprice * (1 - l_discount)) AS revenue
FROM lineitem_%E, part_%E
WHERE (p_partkey = l_partkey AND p_brand = 'Brand#12'
		AND p_container IN ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG') AND l_quantity >= 1
		AND l_quantity <= 1 + 10 AND p_size BETWEEN 1 AND 5 AND l_shipmode IN ('AIR', 'AIR REG')
		AND l_shipinstruct = 'DELIVER IN PERSON')
	OR (p_partkey = l_partkey AND p_brand = 'Brand#23'
		AND p_container IN ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK') AND l_quantity >= 10
		AND l_quantity <= 10 + 10 AND p_size BETWEEN 1 AND 10 AND l_shipmode IN ('AIR', 'AIR REG')
		AND l_shipinstruct = 'DELIVER IN PERSON')
	OR (p_partkey = l_partkey AND p_brand = 'Brand#34'
		AND p_container IN ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG') AND l_quantity >= 20
		AND l_quantity <= 20 + 10 AND p_size BETWEEN 1 AND 15 AND l_shipmode IN ('AIR', 'AIR REG')
		AND l_shipinstruct = 'DELIVER IN PERSON')"
q Q20 "SELECT s_name, s_address
FROM supplier_%E, nation_%E
WHERE s_suppkey IN (
		SELECT ps_suppkey FROM partsupp_%E
		WHERE ps_partkey IN (SELECT p_partkey FROM part_%E WHERE p_name LIKE 'forest%')
			AND ps_availqty > (
				SELECT 0.5 * sum(l_quantity) FROM lineitem_%E
				WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey
					AND l_shipdate >= date '1994-01-01'
					AND l_shipdate < date '1994-01-01' + interval '1' year))
	AND s_nationkey = n_nationkey AND n_name = 'CANADA'
ORDER BY s_name"
q Q21 "SELECT s_name, count(*) AS numwait
FROM supplier_%E, lineitem_%E l1, orders_%E, nation_%E
WHERE s_suppkey = l1.l_suppkey AND o_orderkey = l1.l_orderkey AND o_orderstatus = 'F'
	AND l1.l_receiptdate > l1.l_commitdate
	AND EXISTS (SELECT * FROM lineitem_%E l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey)
	AND NOT EXISTS (
		SELECT * FROM lineitem_%E l3
		WHERE l3.l_orderkey = l1.l_orderkey AND l3.l_suppkey <> l1.l_suppkey
			AND l3.l_receiptdate > l3.l_commitdate)
	AND s_nationkey = n_nationkey AND n_name = 'SAUDI ARABIA'
GROUP BY s_name
ORDER BY numwait DESC, s_name
LIMIT 100"
q Q22 "SELECT cntrycode, count(*) AS numcust, sum(c_acctbal) AS totacctbal
FROM (
	SELECT substring(c_phone FROM 1 FOR 2) AS cntrycode, c_acctbal
	FROM customer_%E
	WHERE substring(c_phone FROM 1 FOR 2) IN ('13', '31', '23', '29', '30', '18', '17')
		AND c_acctbal > (
			SELECT avg(c_acctbal) FROM customer_%E
			WHERE c_acctbal > 0.00
				AND substring(c_phone FROM 1 FOR 2) IN ('13', '31', '23', '29', '30', '18', '17'))
		AND NOT EXISTS (SELECT * FROM orders_%E WHERE o_custkey = c_custkey)) AS custsale
GROUP BY cntrycode
ORDER BY cntrycode"

# The queries whose ORDER BY leaves ties possible: FIELDS[:LIMIT], the ORDER BY columns as
# 1-based output fields and the LIMIT.  Their results are compared with the rows of each run of
# equal ORDER BY values sorted, and, when LIMIT cut the result, the last run's rows reduced to
# their ORDER BY values (which of the tied rows LIMIT keeps is not defined); the other queries
# order by a key of their result and are compared as printed.
declare -A TIES=([Q3]=2,3:10 [Q5]=2 [Q10]=3:20 [Q11]=2 [Q18]=5,4:100)
untie() {
	local spec="${TIES[$1]:-}" lim=""
	if [ -z "$spec" ]; then cat; return; fi
	[[ "$spec" != *:* ]] || lim="${spec#*:}"
	awk -F'|' -v keys="${spec%%:*}" -v limit="$lim" '
		BEGIN { nk = split(keys, kf, ",") }
		{
			k = ""
			for (i = 1; i <= nk; i++) k = k "|" $(kf[i])
			if (NR == 1 || k != prev) g++
			prev = k; grp[NR] = g; line[NR] = $0; key[NR] = substr(k, 2)
		}
		END {
			for (i = 1; i <= NR; i++)
				printf "%d\t%s\n", grp[i], (limit != "" && NR == limit + 0 && grp[i] == g) ? key[i] : line[i]
		}' | LC_ALL=C sort -t "$(printf '\t')" -k1,1n -k2 | cut -f2-
}

# run_query SQL OUT: one run of SQL in a new session under statement_timeout = the limit; prints
# its milliseconds, "timeout" or "error" (psql's message goes to stderr); its rows go to OUT
run_query() {
	local t err="$BENCH_TMP/stderr"
	t=$(psql -X -q -At -o "$2" -c "SET statement_timeout = $limit_ms" -c '\timing on' -c "$1" 2>"$err" |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 1) || true
	if grep -q 'canceling statement due to statement timeout' "$err"; then
		echo timeout
	elif [ -z "$t" ] || grep -q 'ERROR\|FATAL\|PANIC\|server closed' "$err"; then
		cat "$err" >&2
		echo error
	else
		echo "$t"
	fi
}

# measure NAME N AM SQL: the warm-up, then the median of ${runs:-3} (a run over the limit counting
# as infinite; bench/citus_tpch.sh sets runs) into R[NAME|AM], R[status|NAME|AM] = timeout (R[NAME|AM] is then the limit) or
# error; the rows of the last run that finished in $BENCH_TMP/N.AM.txt and their digest (untied)
# in R[digest|NAME|AM]
measure() {
	local name="$1" n="$2" am="$3" sql="$4" t i times=() out="$BENCH_TMP/$2.$3.txt" run="$BENCH_TMP/run.txt"
	echo "== $am: $name" >&2
	t=$(run_query "$sql" "$run")
	case "$t" in
		timeout) R["status|$name|$am"]=timeout; add "$name" "$am" "$limit_ms"; return ;;
		error) R["status|$name|$am"]=error; return ;;
	esac
	mv "$run" "$out"
	for i in $(seq "${runs:-3}"); do
		t=$(run_query "$sql" "$run")
		case "$t" in
			timeout) times+=(inf) ;;
			error) R["status|$name|$am"]=error; return ;;
			*) times+=("$t"); mv "$run" "$out" ;;
		esac
	done
	t=$(printf '%s\n' "${times[@]}" | sort -g | sed -n "$(((${runs:-3} + 1) / 2))p")
	if [ "$t" = inf ]; then
		R["status|$name|$am"]=timeout
		t="$limit_ms"
	fi
	add "$name" "$am" "$t"
	R["digest|$name|$am"]=$(untie "$name" <"$out" | md5sum | cut -d' ' -f1)
}

names=()
mkdir "$BENCH_TMP/expect"
n=0
for query in "${queries[@]}"; do
	n=$((n + 1))
	name="${query%%|*}"
	names+=("$name")
	for am in heap colstore; do
		sql="${query#*|}"
		measure "$name" "$n" "$am" "${sql//_%E/_$am}"
	done
	# DuckDB's result is checked against heap's, or colstore's where heap ran out of time
	if [ -e "$BENCH_TMP/$n.heap.txt" ]; then
		cp "$BENCH_TMP/$n.heap.txt" "$BENCH_TMP/expect/$n.txt"
	elif [ -e "$BENCH_TMP/$n.colstore.txt" ]; then
		cp "$BENCH_TMP/$n.colstore.txt" "$BENCH_TMP/expect/$n.txt"
		R["duckdb-vs|$name"]=colstore
	fi
done

# heap against colstore, for every query both finished (or a failure of either)
failed=()
for name in "${names[@]}"; do
	h="${R["digest|$name|heap"]:-}" c="${R["digest|$name|colstore"]:-}"
	if [ "${R["status|$name|heap"]:-}" = error ] || [ "${R["status|$name|colstore"]:-}" = error ]; then
		failed+=("$name")
	elif [ -n "$h" ] && [ -n "$c" ] && [ "$h" != "$c" ]; then
		failed+=("$name")
		n=$(printf '%s\n' "${names[@]}" | grep -nx "$name" | cut -d: -f1)
		echo "== $name: heap and colstore differ (diff of their psql -At output)" >&2
		diff "$BENCH_TMP/$n.heap.txt" "$BENCH_TMP/$n.colstore.txt" | head -n 40 >&2 || true
	fi
done

args=(--dir "$BENCH_TMP" --limit "$limit" --expect "$BENCH_TMP/expect")
for t in "${tables[@]}"; do args+=(--table "$t=${columns[$t]}"); done
for name in "${!TIES[@]}"; do args+=(--ties "$name=${TIES[$name]}"); done
duckdb_reference tpch "${args[@]}" "${queries[@]}"
for name in "${names[@]}"; do
	case "${R["duckdb-same|$name"]:-}" in
		timeout) R["status|$name|duckdb"]=timeout; unset "R[duckdb-same|$name]" ;;
		error) R["status|$name|duckdb"]=error; unset "R[$name|duckdb]" ;;
	esac
done
rows=$(psql -X -At -c "SELECT count(*) FROM lineitem_heap")

# qcell NAME ENGINE: the engine's time for query NAME, "> S s" over the limit, "error"
qcell() {
	case "${R["status|$1|$2"]:-}" in
		timeout) echo "> $limit s" ;;
		error) echo error ;;
		*) cell fmt_ms "${R["$1|$2"]:-}" ;;
	esac
}
# qratio NAME A B: B's time over A's, "< r" when only A hit the limit, "> r" when only B did,
# "-" when both did or either failed
qratio() {
	local a="${R["status|$1|$2"]:-}" b="${R["status|$1|$3"]:-}" r
	if [ "$a" = error ] || [ "$b" = error ] || [ -z "${R["$1|$2"]:-}" ] || [ -z "${R["$1|$3"]:-}" ]; then
		echo -
		return
	fi
	r=$(ratio "${R["$1|$2"]}" "${R["$1|$3"]}")
	case "$a/$b" in
		timeout/timeout) echo - ;;
		timeout/*) echo "< $r" ;;
		*/timeout) echo "> $r" ;;
		*) echo "$r" ;;
	esac
}
# qsame NAME: heap against colstore ("-" unless both finished), then DuckDB against heap (or
# against colstore, where heap ran out of time)
qsame() {
	local h="${R["digest|$1|heap"]:-}" c="${R["digest|$1|colstore"]:-}" s
	if [ "${R["status|$1|heap"]:-}" = error ] || [ "${R["status|$1|colstore"]:-}" = error ]; then s=error
	elif [ -z "$h" ] || [ -z "$c" ]; then s="-"
	elif [ "$h" = "$c" ]; then s=yes
	else s=MISMATCH; fi
	[ -z "${R["duckdb-same|$1"]:-}" ] ||
		s="$s (DuckDB${R["duckdb-vs|$1"]:+ vs ${R["duckdb-vs|$1"]}}: ${R["duckdb-same|$1"]})"
	echo "$s"
}
# geomean ENGINE: geometric mean of the 22 times (the limit for a query over it), "" if one failed
geomean() {
	local name
	for name in "${names[@]}"; do
		[ "${R["status|$name|$1"]:-}" != error ] && [ -n "${R["$name|$1"]:-}" ] || { echo error; break; }
		echo "${R["$name|$1"]}"
	done | awk '$1 == "error" { bad = 1 } { s += log($1 > 0.001 ? $1 : 0.001); n++ }
		END { if (!bad && n) printf "%.3f", exp(s / n) }'
}
for e in heap colstore duckdb; do add geomean "$e" "$(geomean "$e")"; done
slower=0 worst="" worst_ratio=0
for name in "${names[@]}"; do
	h="${R["$name|heap"]:-}" c="${R["$name|colstore"]:-}"
	[ -n "$h" ] && [ -n "$c" ] || continue
	if awk -v h="$h" -v c="$c" 'BEGIN { exit !(c > h) }'; then slower=$((slower + 1)); fi
	if awk -v h="$h" -v c="$c" -v w="$worst_ratio" 'BEGIN { exit !(h > 0 && c / h > w) }'; then
		worst="$name"
		worst_ratio=$(awk -v h="$h" -v c="$c" 'BEGIN { print c / h }')
	fi
done

out=$(mktemp)
{
	echo "TPC-H, scale factor $scale ($rows lineitem rows), 22 queries, heap vs colstore in one server, DuckDB $DUCKDB_VERSION in memory, limit $limit s per query ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores)"
	echo
	echo "| metric | heap | colstore | DuckDB | colstore/heap | colstore/DuckDB | same result |"
	echo "|---|---|---|---|---|---|---|"
	row "total size (tables + primary keys)" total_size mb
	row "tables size" table_size mb
	row "load (COPY + primary keys)" load fmt_ms "$(same load)"
	for name in "${names[@]}"; do
		echo "| $name | $(qcell "$name" heap) | $(qcell "$name" colstore) | $(qcell "$name" duckdb) | $(qratio "$name" heap colstore) | $(qratio "$name" duckdb colstore) | $(qsame "$name") |"
	done
	row "geometric mean, Q1-Q22" geomean fmt_ms
	echo
	echo "Geometric means count a query over the limit at the limit. colstore is slower than heap on $slower of ${#names[@]} queries; largest colstore/heap: $(if [ -n "$worst" ]; then echo "$(qratio "$worst" heap colstore) ($worst)"; else echo -; fi)."
} >"$out"
cat "$out"
mkdir -p bench/results
cp "$out" "bench/results/$(date -u +%Y%m%dT%H%M%S)-tpch-$scale.md"
rm -f "$out"
[ "${R["digest|load|heap"]}" = "${R["digest|load|colstore"]}" ] ||
	{ echo "MISMATCH: load (colstore's tables hold different rows than heap's)"; mismatch=1; }
for name in "${failed[@]}"; do
	if [ "$(qsame "$name" | cut -d' ' -f1)" = error ]; then
		echo "MISMATCH: $name (failed on heap or colstore)"
	else
		echo "MISMATCH: $name (colstore returned different rows than heap)"
	fi
	mismatch=1
done
[ "$mismatch" -eq 0 ] || exit 1
