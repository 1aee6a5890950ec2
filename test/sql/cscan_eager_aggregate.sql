-- Aggregates over a join to a colstore table computed on that table before
-- the join (cscan/eager_aggregate.c): the TPC-H Q13 shape, LEFT and inner
-- joins, customers without orders, NULL keys, HAVING; every result compared
-- with the same query over a heap table (which PostgreSQL runs as written),
-- and the shapes the rewrite must leave alone.  The tables are smaller than
-- ANALYZE's sample, so the statistics, and the planner's choice, are exact.
CREATE TABLE cu (c_key int PRIMARY KEY, c_name text, c_grp int);
INSERT INTO cu SELECT g, 'c' || g, g % 5 FROM generate_series(1, 400) g;
-- customers 301..400 have no orders; orders of customer 9999 (none such) and
-- NULL customers; o_cnt = 9 only on customer 9999's orders (1 / (o_cnt - 9)
-- fails there); o_amt NULL on some orders
CREATE TABLE or_h (o_key int, o_cust int, o_amt numeric(12,2), o_cnt int,
	o_txt text, o_f8 float8);
INSERT INTO or_h SELECT g, (g % 300) + 1, CASE WHEN g % 13 = 0 THEN NULL ELSE g % 1000 END,
	g % 7, CASE WHEN g % 11 = 0 THEN 'special requests' ELSE 'plain' END, g / 7.0
	FROM generate_series(1, 12000) g;
INSERT INTO or_h VALUES (20001, NULL, 5, 1, 'plain', 1), (20002, 9999, 5, 9, 'plain', 1),
	(20003, 9999, NULL, 9, 'plain', 1);
CREATE TABLE or_c (LIKE or_h) USING colstore;
INSERT INTO or_c SELECT * FROM or_h;
ANALYZE cu, or_h, or_c;

-- Run a query (%1$s: the orders table) over heap and over colstore; the rows
-- colstore's result has that heap's lacks and the other way round.
CREATE FUNCTION compare_with_heap(q text, OUT heap_rows bigint, OUT differences bigint)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('SELECT count(*) FROM (%s) r', format(q, 'or_h')) INTO heap_rows;
	EXECUTE format('SELECT count(*) FROM ((%1$s EXCEPT ALL %2$s) UNION ALL (%2$s EXCEPT ALL %1$s)) d',
		format(q, 'or_h'), format(q, 'or_c')) INTO differences;
END $$;

-- Q13: count over a LEFT JOIN with a condition on orders, grouped by the
-- customer's key, inside a subquery that groups again
EXPLAIN (COSTS OFF)
SELECT c_count, count(*) AS custdist
FROM (SELECT c_key, count(o_key) FROM cu LEFT JOIN or_c
		ON c_key = o_cust AND o_txt NOT LIKE '%special%'
	  GROUP BY c_key) AS c_orders (c_key, c_count)
GROUP BY c_count ORDER BY custdist DESC, c_count DESC;
SELECT c_count, count(*) AS custdist
FROM (SELECT c_key, count(o_key) FROM cu LEFT JOIN or_c
		ON c_key = o_cust AND o_txt NOT LIKE '%special%'
	  GROUP BY c_key) AS c_orders (c_key, c_count)
GROUP BY c_count ORDER BY custdist DESC, c_count DESC;
SELECT * FROM compare_with_heap($$
	SELECT c_count, count(*) FROM (SELECT c_key, count(o_key) FROM cu LEFT JOIN %1$s
		ON c_key = o_cust AND o_txt NOT LIKE '%%special%%' GROUP BY c_key) c (c_key, c_count)
	GROUP BY c_count $$);

-- every aggregate kind; a customer without orders gets count(*) 1, count(x)
-- 0 and NULL for the others, as over the original's one row of NULLs
EXPLAIN (COSTS OFF)
SELECT c_key, count(*), count(o_amt), sum(o_amt), min(o_amt), max(o_txt), avg(o_cnt),
	sum(o_cnt) FROM cu LEFT JOIN or_c ON c_key = o_cust GROUP BY c_key;
SELECT c_key, count(*), count(o_amt), sum(o_amt), min(o_amt), max(o_txt), avg(o_cnt),
	sum(o_cnt) FROM cu LEFT JOIN or_c ON c_key = o_cust
	WHERE c_key IN (1, 2, 300, 301, 400) GROUP BY c_key ORDER BY c_key;
SELECT * FROM compare_with_heap($$
	SELECT c_key, count(*), count(o_amt), sum(o_amt), min(o_amt), max(o_txt), avg(o_cnt),
		sum(o_cnt) FROM cu LEFT JOIN %1$s ON c_key = o_cust GROUP BY c_key $$);

-- inner join, HAVING on an aggregate and on a customer column, a condition on
-- the customers, more grouping columns than the key, ORDER BY and LIMIT
EXPLAIN (COSTS OFF)
SELECT c_key, c_name, sum(o_amt) FROM cu JOIN or_c ON o_cust = c_key
	WHERE c_grp <> 3 GROUP BY c_key, c_name HAVING count(*) > 39 AND c_key % 2 = 0
	ORDER BY 3 DESC, 1 LIMIT 5;
SELECT c_key, c_name, sum(o_amt) FROM cu JOIN or_c ON o_cust = c_key
	WHERE c_grp <> 3 GROUP BY c_key, c_name HAVING count(*) > 39 AND c_key % 2 = 0
	ORDER BY 3 DESC, 1 LIMIT 5;
SELECT * FROM compare_with_heap($$
	SELECT c_key, c_name, sum(o_amt), count(*) FROM cu JOIN %1$s ON o_cust = c_key
	WHERE c_grp <> 3 GROUP BY c_key, c_name HAVING count(*) > 39 AND c_key %% 2 = 0 $$);
-- a LEFT JOIN whose HAVING keeps the customers without orders
SELECT * FROM compare_with_heap($$
	SELECT c_key, count(o_key) FROM cu LEFT JOIN %1$s ON c_key = o_cust
	GROUP BY c_key HAVING count(o_key) < 40 $$);

-- Left as written, with the same results as heap:
-- grouped by a column that is not a key of the customers
EXPLAIN (COSTS OFF)
SELECT c_grp, count(o_key) FROM cu LEFT JOIN or_c ON c_key = o_cust GROUP BY c_grp;
SELECT * FROM compare_with_heap($$
	SELECT c_grp, count(o_key) FROM cu LEFT JOIN %1$s ON c_key = o_cust GROUP BY c_grp $$);
-- a float sum (its value depends on the order of the rows)
EXPLAIN (COSTS OFF)
SELECT c_key, sum(o_f8) FROM cu LEFT JOIN or_c ON c_key = o_cust GROUP BY c_key;
-- an aggregate of a customer column
EXPLAIN (COSTS OFF)
SELECT c_key, count(o_key), max(c_grp) FROM cu LEFT JOIN or_c ON c_key = o_cust GROUP BY c_key;
-- a WHERE condition on the orders of a LEFT JOIN
EXPLAIN (COSTS OFF)
SELECT c_key, count(o_key) FROM cu LEFT JOIN or_c ON c_key = o_cust WHERE o_cnt < 3
	GROUP BY c_key;
SELECT * FROM compare_with_heap($$
	SELECT c_key, count(o_key) FROM cu LEFT JOIN %1$s ON c_key = o_cust WHERE o_cnt < 3
	GROUP BY c_key $$);
-- a condition on the customers in the ON clause of a LEFT JOIN
EXPLAIN (COSTS OFF)
SELECT c_key, count(o_key) FROM cu LEFT JOIN or_c ON c_key = o_cust AND c_grp = 1
	GROUP BY c_key;
-- a function that can fail on orders no customer has: customer 9999's
-- orders divide by zero
EXPLAIN (COSTS OFF)
SELECT c_key, sum(1 / (o_cnt - 9)) FROM cu LEFT JOIN or_c ON c_key = o_cust GROUP BY c_key;
SELECT * FROM compare_with_heap($$
	SELECT c_key, sum(1 / (o_cnt - 9)) FROM cu LEFT JOIN %1$s ON c_key = o_cust
	GROUP BY c_key $$);
-- a LATERAL subquery whose join condition reads the outer query
EXPLAIN (COSTS OFF)
SELECT m, c_key, n FROM (VALUES (100), (900)) v (m), LATERAL (SELECT c_key, count(o_key)
	FROM cu LEFT JOIN or_c ON c_key = o_cust AND o_amt > v.m GROUP BY c_key) s (c_key, n);
SELECT * FROM compare_with_heap($$
	SELECT m, c_key, n FROM (VALUES (100), (900)) v (m), LATERAL (SELECT c_key, count(o_key)
	FROM cu LEFT JOIN %1$s ON c_key = o_cust AND o_amt > v.m GROUP BY c_key) s (c_key, n) $$);
-- a table whose key is only unique, not a primary key (NULLs repeat)
CREATE TABLE cu_u (c_key int UNIQUE, c_grp int);
INSERT INTO cu_u SELECT c_key, c_grp FROM cu;
INSERT INTO cu_u VALUES (NULL, 1), (NULL, 2);
ANALYZE cu_u;
EXPLAIN (COSTS OFF)
SELECT c_key, count(o_key) FROM cu_u LEFT JOIN or_c ON c_key = o_cust GROUP BY c_key;
SELECT * FROM compare_with_heap($$
	SELECT c_key, count(o_key), count(*) FROM cu_u LEFT JOIN %1$s ON c_key = o_cust
	GROUP BY c_key $$);
-- a customer table with an inheritance child (its primary key is its own)
CREATE TABLE cu_child () INHERITS (cu);
INSERT INTO cu_child VALUES (1, 'again', 1);
EXPLAIN (COSTS OFF)
SELECT c_key, count(o_key) FROM cu LEFT JOIN or_c ON c_key = o_cust GROUP BY c_key;
SELECT * FROM compare_with_heap($$
	SELECT c_key, count(o_key) FROM cu LEFT JOIN %1$s ON c_key = o_cust GROUP BY c_key $$);
DROP TABLE cu_child;

-- the plan as written, when it is cheaper: one customer, an index on the key
CREATE INDEX or_c_cust ON or_c (o_cust);
EXPLAIN (COSTS OFF)
SELECT c_key, count(o_key) FROM cu LEFT JOIN or_c ON c_key = o_cust WHERE c_name = 'c7'
	GROUP BY c_key;
SELECT c_key, count(o_key) FROM cu LEFT JOIN or_c ON c_key = o_cust WHERE c_name = 'c7'
	GROUP BY c_key;
DROP INDEX or_c_cust;

-- privileges still apply to the orders table, column by column
CREATE ROLE eager_reader;
GRANT SELECT ON cu TO eager_reader;
GRANT SELECT (o_cust, o_amt) ON or_c TO eager_reader;
SET ROLE eager_reader;
SELECT c_key, sum(o_amt) FROM cu LEFT JOIN or_c ON c_key = o_cust
	WHERE c_key = 1 GROUP BY c_key;
SELECT c_key, count(o_key) FROM cu LEFT JOIN or_c ON c_key = o_cust GROUP BY c_key;
RESET ROLE;
REVOKE ALL ON or_c, cu FROM eager_reader;
DROP ROLE eager_reader;

-- the setting turns it off
SET colstore.enable_eager_aggregation = off;
EXPLAIN (COSTS OFF)
SELECT c_key, count(o_key) FROM cu LEFT JOIN or_c ON c_key = o_cust GROUP BY c_key;
RESET colstore.enable_eager_aggregation;

DROP FUNCTION compare_with_heap(text);
DROP TABLE cu, cu_u, or_h, or_c;
