-- Hash join filters through nodes that keep a row or a result per group
-- (cscan/join_filter.c, GroupsByKey): when the hash join runs once and its
-- probe side is an aggregate or a Unique over a ColstoreScan, the filter
-- goes down to the scan only when the node groups by the join key with the
-- join's own equality (operator and collation).  Then every row of a group
-- the join drops could be dropped below it.  Grouped otherwise (DISTINCT ON
-- another column, another collation, grouping sets), dropping a row could
-- change which row or result the group returns, so no filter goes through.
-- Last, the hash values the filter computes itself (bigint, integer, date).
-- TPC-H Q2's decorrelated subquery is the first shape: min(ps_supplycost)
-- grouped by ps_partkey, joined with the few parts the query keeps.  (The
-- subqueries filter on v >= 0, true for every row, so that their scan of
-- g is a ColstoreScan: alone in its query level and unfiltered, a table
-- is read by a plain sequential scan, which takes no filter.)
SET max_parallel_workers_per_gather = 0;
SET colstore.enable_custom_agg = off;
SET enable_mergejoin = off;
SET enable_nestloop = off;
-- (17 and 18 would sort DISTINCT ON's input incrementally, 15 wholly)
SET enable_incremental_sort = off;
-- g: 40,000 rows, k = 1..4,000 ten times; for each b = 1..20,000 two rows
-- whose a differ: b * 2 (sorts first) and b * 2 + 1
CREATE TABLE g (k bigint, b int, a int, v numeric(10,2), t text)
	USING colstore WITH (row_group_size = 8000, chunk_size = 1000);
INSERT INTO g SELECT i % 4000 + 1, i / 2 + 1, (i / 2 + 1) * 2 + i % 2, (i % 300) / 4.0,
	't' || (i % 4000 + 1)
	FROM generate_series(0, 39999) i;
-- s: 20 keys and 20 odd a values
CREATE TABLE s (k bigint, a int, t text) USING colstore;
INSERT INTO s SELECT i * 37, i * 97 * 2 + 1, 't' || i * 37 FROM generate_series(1, 20) i;
ANALYZE g, s;
CREATE TABLE gh USING heap AS SELECT * FROM g;
CREATE TABLE sh USING heap AS SELECT * FROM s;
ANALYZE gh, sh;

-- q's rows on colstore and on heap (g -> gh, s -> sh): the same multiset?
CREATE FUNCTION same_as_heap(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	h text := replace(replace(q, ' g ', ' gh g '), ' s ', ' sh s ');
	result boolean;
BEGIN
	EXECUTE format('SELECT NOT EXISTS ((%s) EXCEPT ALL (%s)) AND NOT EXISTS ((%s) EXCEPT ALL (%s))',
				   q, h, h, q)
		INTO result;
	RETURN result;
END $$;

-- 1. GROUP BY the join key: the filter reaches the scan under the aggregate
EXPLAIN (COSTS OFF)
	SELECT x.k, x.m FROM (SELECT k, min(v) AS m FROM g WHERE v >= 0 GROUP BY k) x JOIN s ON s.k = x.k;
-- it removed every row but those of the 20 keys s holds (200 of 40,000;
-- read from EXPLAIN's JSON, whose figures print alike in every version)
CREATE FUNCTION removed_by_filter(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || q INTO plan;
	RETURN substring(plan::text FROM '"Rows Removed by Hash Join Filter": ([0-9]+)')::bigint;
END $$;
SELECT removed_by_filter('SELECT x.k, x.m FROM (SELECT k, min(v) AS m FROM g WHERE v >= 0 GROUP BY k) x JOIN s ON s.k = x.k');
SELECT same_as_heap('SELECT x.k, x.m, x.n FROM (SELECT k, min(v) AS m, count(*) AS n FROM g WHERE v >= 0 GROUP BY k) x JOIN s ON s.k = x.k');
-- with HAVING, and a sorted aggregate
SELECT same_as_heap('SELECT x.k, x.m FROM (SELECT k, sum(v) AS m FROM g WHERE v >= 0 GROUP BY k HAVING sum(v) > 300) x JOIN s ON s.k = x.k');
SET enable_hashagg = off;
EXPLAIN (COSTS OFF)
	SELECT x.k, x.m FROM (SELECT k, min(v) AS m FROM g WHERE v >= 0 GROUP BY k) x JOIN s ON s.k = x.k;
SELECT same_as_heap('SELECT x.k, x.m FROM (SELECT k, max(t) AS m FROM g WHERE v >= 0 GROUP BY k) x JOIN s ON s.k = x.k');
RESET enable_hashagg;

-- 2. DISTINCT ON (b) keeps, per b, the row with the smaller (even) a; s
-- holds odd a values only, so the join returns nothing.  Dropping the
-- even rows below the Unique would make it return the odd ones, which
-- match: no filter may go through
EXPLAIN (COSTS OFF)
	SELECT d.b, d.a FROM (SELECT DISTINCT ON (b) b, a FROM g WHERE v >= 0 ORDER BY b, a) d JOIN s ON s.a = d.a;
SELECT count(*) FROM (SELECT DISTINCT ON (b) b, a FROM g WHERE v >= 0 ORDER BY b, a) d JOIN s ON s.a = d.a;
SELECT count(*) FROM (SELECT DISTINCT ON (b) b, a FROM gh g WHERE v >= 0 ORDER BY b, a) d JOIN sh s ON s.a = d.a;
-- grouped by another column: the same
SELECT same_as_heap('SELECT d.b, d.a FROM (SELECT b, min(a) AS a FROM g WHERE v >= 0 GROUP BY b) d JOIN s ON s.a = d.a');
-- DISTINCT on the key itself: the filter goes through the Unique
SET enable_hashagg = off;
EXPLAIN (COSTS OFF)
	SELECT d.k FROM (SELECT DISTINCT k FROM g WHERE v >= 0 ORDER BY k) d JOIN s ON s.k = d.k;
SELECT same_as_heap('SELECT d.k FROM (SELECT DISTINCT k FROM g WHERE v >= 0 ORDER BY k) d JOIN s ON s.k = d.k');
RESET enable_hashagg;

-- 3. grouping sets: a row is also in groups without the key
EXPLAIN (COSTS OFF)
	SELECT x.k, x.n FROM (SELECT k, b % 3 AS c, count(*) AS n FROM g WHERE v >= 0 GROUP BY GROUPING SETS ((k), (k, b % 3))) x
	JOIN s ON s.k = x.k;
SELECT same_as_heap('SELECT x.k, x.c, x.n FROM (SELECT k, b % 3 AS c, count(*) AS n FROM g WHERE v >= 0 GROUP BY GROUPING SETS ((k), (k, b % 3))) x JOIN s ON s.k = x.k');

-- 4. grouped under another collation than the join's ("C" against
-- "POSIX": both deterministic, but only the same collation is taken): no
-- filter
EXPLAIN (COSTS OFF)
	SELECT x.t, x.n FROM (SELECT t COLLATE "C" AS t, count(*) AS n FROM g WHERE v >= 0 GROUP BY 1) x
	JOIN s ON s.t = x.t COLLATE "POSIX";
SELECT same_as_heap('SELECT x.t, x.n FROM (SELECT t COLLATE "C" AS t, count(*) AS n FROM g WHERE v >= 0 GROUP BY 1) x JOIN s ON s.t = x.t COLLATE "POSIX"');
-- grouped and joined under "C": filtered
EXPLAIN (COSTS OFF)
	SELECT x.t, x.n FROM (SELECT t COLLATE "C" AS t, count(*) AS n FROM g WHERE v >= 0 GROUP BY 1) x
	JOIN s ON s.t = x.t;
-- the same collation: filtered
EXPLAIN (COSTS OFF)
	SELECT x.t, x.n FROM (SELECT t, count(*) AS n FROM g WHERE v >= 0 GROUP BY t) x JOIN s ON s.t = x.t;
SELECT same_as_heap('SELECT x.t, x.n FROM (SELECT t, count(*) AS n FROM g WHERE v >= 0 GROUP BY t) x JOIN s ON s.t = x.t');

-- 5. keys whose hash the filter computes itself (bigint, integer and date,
-- as hashint8 and hashint4 do), negative and beyond 32 bits: a hash that
-- differed from the join's would drop matching rows
CREATE TABLE n (k8 bigint, k4 int, d date) USING colstore
	WITH (row_group_size = 8000, chunk_size = 1000);
INSERT INTO n SELECT (i - 20000) * 4294967311, i - 20000, date '2000-01-01' + (i - 20000)
	FROM generate_series(0, 39999) i;
CREATE TABLE m (k8 bigint, k4 int, d date, k48 bigint);
INSERT INTO m SELECT (i * 1013 - 20000) * 4294967311, i * 1013 - 20000,
	date '2000-01-01' + (i * 1013 - 20000), i * 1013 - 20000 FROM generate_series(0, 39) i;
ANALYZE n, m;
CREATE TABLE nh USING heap AS SELECT * FROM n;
ANALYZE nh;
EXPLAIN (COSTS OFF) SELECT n.k8 FROM n JOIN m ON m.k8 = n.k8 WHERE n.k4 <> 7;
SELECT count(*), sum(n.k4) FROM n JOIN m ON m.k8 = n.k8 WHERE n.k4 <> 7;
SELECT count(*), sum(n.k4) FROM nh n JOIN m ON m.k8 = n.k8 WHERE n.k4 <> 7;
SELECT count(*), sum(n.k4) FROM n JOIN m ON m.k4 = n.k4 WHERE n.k4 <> 7;
SELECT count(*), sum(n.k4) FROM nh n JOIN m ON m.k4 = n.k4 WHERE n.k4 <> 7;
SELECT count(*), sum(n.k4) FROM n JOIN m ON m.d = n.d WHERE n.k4 <> 7;
SELECT count(*), sum(n.k4) FROM nh n JOIN m ON m.d = n.d WHERE n.k4 <> 7;
-- cross-type: an integer key probed against bigint ones
SELECT count(*), sum(n.k4) FROM n JOIN m ON m.k48 = n.k4 WHERE n.k4 <> 7;
SELECT count(*), sum(n.k4) FROM nh n JOIN m ON m.k48 = n.k4 WHERE n.k4 <> 7;

DROP FUNCTION same_as_heap(text), removed_by_filter(text);
DROP TABLE g, s, gh, sh, n, m, nh;
