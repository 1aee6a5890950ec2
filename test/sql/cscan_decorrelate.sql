-- Correlated aggregate subqueries over colstore tables rewritten into joins
-- with grouped aggregates (cscan/decorrelate.c): the TPC-H Q17, Q20 and Q2
-- shapes, NULL keys, outer rows without a group; every result compared
-- with the same query over heap tables (which PostgreSQL runs as written),
-- and the shapes the rewrite must leave alone.  The tables are smaller than
-- ANALYZE's sample, so the statistics, and the planner's choice, are exact.
CREATE TABLE li_h (l_partkey int, l_suppkey int, l_quantity numeric(15,2),
	l_price numeric(15,2), l_flag int, l_f8 float8);
INSERT INTO li_h SELECT (g % 250) + 1, g % 7, (g / 250) % 50 + 1, g, g % 3, g / 7.0
	FROM generate_series(1, 12000) g;
-- a NULL key, a key no part has, rows whose suppkey makes 1 / (l_suppkey - 9) fail
INSERT INTO li_h VALUES (NULL, 1, 1, 1, 0, 1), (9999, 1, 1, 1, 0, 1), (9998, 9, 1, 1, 0, 1);
CREATE TABLE li_c (LIKE li_h) USING colstore;
INSERT INTO li_c SELECT * FROM li_h;
-- parts 1..300: 251..300 have no lineitem rows; p_key2 is NULL for some
CREATE TABLE pa (p_partkey int PRIMARY KEY, p_brand text, p_key2 int, p_big bigint);
INSERT INTO pa SELECT g, CASE WHEN g % 10 = 0 THEN 'B23' ELSE 'x' END,
	CASE WHEN g % 20 = 0 THEN NULL ELSE g END, g FROM generate_series(1, 300) g;
CREATE TABLE ps (ps_partkey int, ps_suppkey int, ps_availqty int, ps_cost numeric(15,2));
INSERT INTO ps SELECT p, s, (p * 7 + s) % 300, (p * s) % 97 FROM generate_series(1, 150) p,
	generate_series(0, 6) s;
ANALYZE li_h, li_c, pa, ps;

-- Run a query (%1$s: the lineitem table) over heap and over colstore; the
-- rows colstore's result has that heap's lacks and the other way round.
CREATE FUNCTION compare_with_heap(q text, OUT heap_rows bigint, OUT differences bigint)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('SELECT count(*) FROM (%s) r', format(q, 'li_h')) INTO heap_rows;
	EXECUTE format('SELECT count(*) FROM ((%1$s EXCEPT ALL %2$s) UNION ALL (%2$s EXCEPT ALL %1$s)) d',
		format(q, 'li_h'), format(q, 'li_c')) INTO differences;
END $$;

-- Q17 shape: avg, a strict expression above it, compared with <
EXPLAIN (COSTS OFF)
SELECT sum(l_price) / 7.0 FROM li_c, pa WHERE p_partkey = l_partkey AND p_brand = 'B23'
	AND l_quantity < (SELECT 0.2 * avg(l_quantity) FROM li_c l2 WHERE l2.l_partkey = p_partkey);
SELECT sum(l_price) / 7.0 FROM li_c, pa WHERE p_partkey = l_partkey AND p_brand = 'B23'
	AND l_quantity < (SELECT 0.2 * avg(l_quantity) FROM li_c l2 WHERE l2.l_partkey = p_partkey);
SELECT * FROM compare_with_heap($$
	SELECT p_partkey, l_price FROM %1$s, pa WHERE p_partkey = l_partkey AND p_brand = 'B23'
	AND l_quantity < (SELECT 0.2 * avg(l_quantity) FROM %1$s l2 WHERE l2.l_partkey = p_partkey) $$);

-- outer rows without a group (parts 251..300) and NULL outer keys are dropped,
-- as the original's NULL comparison drops them
SELECT * FROM compare_with_heap($$
	SELECT p_partkey FROM pa
	WHERE p_big > (SELECT min(l_quantity) - 1000 FROM %1$s WHERE l_partkey = p_key2) $$);

-- Q20 shape: two correlations, local conditions (numeric_gt is a btree
-- comparison, though not marked leakproof), sum, inside an IN subquery
EXPLAIN (COSTS OFF)
SELECT p_partkey FROM pa WHERE p_partkey IN (
	SELECT ps_partkey FROM ps WHERE ps_availqty > (
		SELECT 0.5 * sum(l_quantity) FROM li_c
		WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey AND l_flag = 1
		AND l_quantity > 2))
ORDER BY 1 LIMIT 5;
SELECT * FROM compare_with_heap($$
	SELECT p_partkey FROM pa WHERE p_partkey IN (
		SELECT ps_partkey FROM ps WHERE ps_availqty > (
			SELECT 0.5 * sum(l_quantity) FROM %1$s
			WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey AND l_flag = 1
			AND l_quantity > 2)) $$);

-- Q2 shape: min over a join of two relations, compared with =
EXPLAIN (COSTS OFF)
SELECT p_partkey, ps_suppkey FROM pa, ps WHERE p_partkey = ps_partkey AND p_brand = 'B23'
	AND ps_cost = (SELECT min(ps_cost) FROM ps ps2, li_c
		WHERE ps2.ps_partkey = p_partkey AND l_partkey = ps2.ps_partkey
		AND l_suppkey = ps2.ps_suppkey);
SELECT * FROM compare_with_heap($$
	SELECT p_partkey, ps_suppkey FROM pa, ps WHERE p_partkey = ps_partkey AND p_brand = 'B23'
	AND ps_cost = (SELECT min(ps_cost) FROM ps ps2, %1$s
		WHERE ps2.ps_partkey = p_partkey AND l_partkey = ps2.ps_partkey
		AND l_suppkey = ps2.ps_suppkey) $$);

-- Left as written (a SubPlan in the plan), with the same results as heap:
-- count (0, not NULL, over no rows)
EXPLAIN (COSTS OFF)
SELECT count(*) FROM pa WHERE 3 > (SELECT count(*) FROM li_c WHERE l_partkey = p_partkey);
SELECT * FROM compare_with_heap($$
	SELECT p_partkey FROM pa WHERE 3 > (SELECT count(*) FROM %1$s WHERE l_partkey = p_partkey) $$);
-- a non-strict expression above the aggregate
EXPLAIN (COSTS OFF)
SELECT count(*) FROM pa WHERE 1 > (SELECT coalesce(avg(l_quantity), 0) FROM li_c WHERE l_partkey = p_partkey);
SELECT * FROM compare_with_heap($$
	SELECT p_partkey FROM pa
	WHERE 1 > (SELECT coalesce(avg(l_quantity), 0) FROM %1$s WHERE l_partkey = p_partkey) $$);
-- a float sum (its value depends on the order of the rows)
EXPLAIN (COSTS OFF)
SELECT count(*) FROM pa WHERE 100 < (SELECT sum(l_f8) FROM li_c WHERE l_partkey = p_partkey);
-- the subquery under OR
EXPLAIN (COSTS OFF)
SELECT count(*) FROM pa WHERE p_partkey < 3 OR 10 < (SELECT max(l_quantity) FROM li_c WHERE l_partkey = p_partkey);
SELECT * FROM compare_with_heap($$
	SELECT p_partkey FROM pa
	WHERE p_partkey < 3 OR 10 < (SELECT max(l_quantity) FROM %1$s WHERE l_partkey = p_partkey) $$);
-- a correlation that is not an equality of one type
EXPLAIN (COSTS OFF)
SELECT count(*) FROM pa WHERE 10 < (SELECT max(l_quantity) FROM li_c WHERE l_partkey = p_big);
EXPLAIN (COSTS OFF)
SELECT count(*) FROM pa WHERE 10 < (SELECT max(l_quantity) FROM li_c WHERE l_partkey < p_partkey);
-- a volatile function in the subquery
EXPLAIN (COSTS OFF)
SELECT count(*) FROM pa WHERE 10 < (SELECT max(l_quantity) FROM li_c WHERE l_partkey = p_partkey AND random() < 2);
-- a function that can fail on rows the original never reads: rows of key
-- 9998 divide by zero, and no part has that key
EXPLAIN (COSTS OFF)
SELECT count(*) FROM pa WHERE 0 < (SELECT max(l_quantity) FROM li_c
	WHERE l_partkey = p_partkey AND 1 / (l_suppkey - 9) < 1);
SELECT * FROM compare_with_heap($$
	SELECT p_partkey FROM pa WHERE 0 < (SELECT max(l_quantity) FROM %1$s
		WHERE l_partkey = p_partkey AND 1 / (l_suppkey - 9) < 1) $$);

-- the plan as written, when it is cheaper: one outer row, an index on the key
CREATE INDEX li_c_partkey ON li_c (l_partkey);
EXPLAIN (COSTS OFF)
SELECT p_partkey FROM pa WHERE p_partkey = 7
	AND 10 < (SELECT max(l_quantity) FROM li_c WHERE l_partkey = p_partkey);
SELECT p_partkey FROM pa WHERE p_partkey = 7
	AND 10 < (SELECT max(l_quantity) FROM li_c WHERE l_partkey = p_partkey);
DROP INDEX li_c_partkey;

-- the setting turns it off
SET colstore.enable_decorrelation = off;
EXPLAIN (COSTS OFF)
SELECT sum(l_price) / 7.0 FROM li_c, pa WHERE p_partkey = l_partkey AND p_brand = 'B23'
	AND l_quantity < (SELECT 0.2 * avg(l_quantity) FROM li_c l2 WHERE l2.l_partkey = p_partkey);
RESET colstore.enable_decorrelation;

DROP FUNCTION compare_with_heap(text);
DROP TABLE li_h, li_c, pa, ps;
