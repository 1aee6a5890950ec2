-- ColstoreAgg's sorted grouping: over a table that holds every GROUP BY
-- column in ascending order, groups are closed as the keys change (no hash
-- table, no hash_mem limit) and come out in key order, which plans above it
-- use (ORDER BY, merge joins).  Groups span chunks and row groups.  Rows
-- that arrive after planning out of order (or NULL, or as heap tuples) make
-- the node fall back to hashing and sorting its groups.  Every result must
-- be heap's, in heap's key order.
SET max_parallel_workers_per_gather = 0;
-- rows that arrive after planning come as row groups (a heap page would
-- have cached plans made again)
SET colstore.delta_insert_rows = 0;
-- the groups do not fit in hash_mem: the hashed ColstoreAgg is not offered
SET work_mem = '64kB';
SET hash_mem_multiplier = 1;
-- k: 7 rows a group (groups cross chunk and row group boundaries), then one
-- group of 2,500 rows (three chunks, two row groups), then one row a group;
-- d and k2 ascending as well
CREATE TABLE sa (k bigint, d date, k2 int, q numeric(12,2), i int, t text,
				 f float8, u int)
	USING colstore WITH (row_group_size = 5000, chunk_size = 1000);
INSERT INTO sa
	SELECT CASE WHEN i < 4000 THEN i / 7 WHEN i < 6500 THEN 600 ELSE i END,
		   date '2000-01-01' + CASE WHEN i < 4000 THEN i / 7 WHEN i < 6500 THEN 600 ELSE i END,
		   CASE WHEN i < 6500 THEN i / 1000 ELSE i / 3 END,
		   (i % 50)::numeric / 4, i % 13, 't' || (i % 5), (i % 9) * 0.5,
		   CASE WHEN i % 11 <> 0 THEN i % 17 END
	FROM generate_series(1, 20000) i;
ANALYZE sa;
CREATE TABLE sh USING heap AS SELECT * FROM sa;
ANALYZE sh;

-- a query on sa, and the same on heap with its GROUP BY keys as ORDER BY:
-- the same rows in the same order (the sorted node has no ORDER BY of its own)
CREATE FUNCTION same_in_order(q text, keys text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	result boolean;
BEGIN
	EXECUTE format('SELECT (SELECT array_agg(x::text) FROM (%s) x) IS NOT DISTINCT FROM
						   (SELECT array_agg(y::text) FROM (%s ORDER BY %s) y)',
				   q, replace(q, 'FROM sa', 'FROM sh'), keys)
		INTO result;
	RETURN result;
END $$;
-- the lines of EXPLAIN ANALYZE that tell how the node grouped
CREATE FUNCTION grouping_lines(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
		IF line ~ 'Grouping|Sorted Fallback|GroupAggregate|HashAggregate|ColstoreAgg' THEN
			RETURN NEXT regexp_replace(line, ' \(actual.*\)', '');
		END IF;
	END LOOP;
END $$;

-- does the plan group sorted? (the other plans differ between versions)
CREATE FUNCTION groups_sorted(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF line ~ 'Grouping: sorted' THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END $$;

-- Q18's subquery: sorted grouping with HAVING
EXPLAIN (COSTS OFF)
	SELECT k FROM sa GROUP BY k HAVING sum(q) > 60;
SELECT same_in_order('SELECT k FROM sa GROUP BY k HAVING sum(q) > 60', 'k');
SELECT count(*), sum(k) FROM (SELECT k FROM sa GROUP BY k HAVING sum(q) > 60) s;
SELECT count(*), sum(k) FROM (SELECT k FROM sh GROUP BY k HAVING sum(q) > 60) s;
-- every kind of aggregate, FILTERs, expressions of the results
EXPLAIN (COSTS OFF)
	SELECT k, count(*), count(u), sum(q), avg(q), sum(i), avg(i), min(i), max(u),
		   min(t), max(t), sum(f), avg(f), min(f), max(q), sum(q * (1 - q)),
		   count(*) FILTER (WHERE i > 5), sum(q) FILTER (WHERE u IS NULL)
	FROM sa GROUP BY k;
SELECT same_in_order('SELECT k, count(*), count(u), sum(q), avg(q), sum(i), avg(i), min(i),
		max(u), min(t), max(t), sum(f), avg(f), min(f), max(q), sum(q * (1 - q)),
		count(*) FILTER (WHERE i > 5), sum(q) FILTER (WHERE u IS NULL) FROM sa GROUP BY k', 'k');
SELECT same_in_order('SELECT k + 1, sum(q) / count(*) FROM sa GROUP BY k HAVING max(i) > 3', 'k');
-- the big group, whole
SELECT k, count(*), sum(q), min(i), max(t) FROM sa WHERE k = 600 GROUP BY k;
SELECT k, count(*), sum(q), min(i), max(t) FROM sh WHERE k = 600 GROUP BY k;
-- conditions (a chunk pruned, rows filtered, groups cut in two by them)
SELECT same_in_order('SELECT k, count(*), sum(q) FROM sa WHERE i <> 3 AND k > 100 AND k < 9000 GROUP BY k', 'k');
SELECT same_in_order('SELECT k, count(*) FROM sa WHERE i = 4 GROUP BY k', 'k');
-- several keys, each held in order; a date key
EXPLAIN (COSTS OFF) SELECT k2, k, count(*) FROM sa GROUP BY k2, k;
SELECT same_in_order('SELECT k2, k, count(*), sum(q) FROM sa GROUP BY k2, k', 'k2, k');
SELECT same_in_order('SELECT d, k, max(t) FROM sa GROUP BY d, k', 'd, k');
SELECT same_in_order('SELECT d, min(i) FROM sa GROUP BY d', 'd');
-- an expression of an ordered column, a column not in order alone or with
-- ordered ones: no sorted grouping
SELECT groups_sorted('SELECT k / 2, count(*) FROM sa GROUP BY k / 2');
SELECT groups_sorted('SELECT t, count(*) FROM sa GROUP BY t');
SELECT groups_sorted('SELECT k, t, count(*) FROM sa GROUP BY k, t');
-- no rows pass: no groups
SELECT k, count(*) FROM sa WHERE i < 0 GROUP BY k;
-- the order is used: no Sort for ORDER BY, a merge join above (TPC-H Q18's shape)
EXPLAIN (COSTS OFF) SELECT k, sum(q) FROM sa GROUP BY k ORDER BY k LIMIT 3;
SELECT k, sum(q) FROM sa GROUP BY k ORDER BY k LIMIT 3;
SET enable_hashjoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF)
	SELECT count(*), sum(o.k2) FROM sa o
	WHERE o.k IN (SELECT k FROM sa GROUP BY k HAVING sum(q) > 60);
SELECT count(*), sum(o.k2) FROM sa o
	WHERE o.k IN (SELECT k FROM sa GROUP BY k HAVING sum(q) > 60);
SELECT count(*), sum(o.k2) FROM sh o
	WHERE o.k IN (SELECT k FROM sh GROUP BY k HAVING sum(q) > 60);
RESET enable_hashjoin;
RESET enable_nestloop;
EXPLAIN (COSTS OFF) SELECT k, n FROM (VALUES (1), (2)) v(x),
	LATERAL (SELECT k, count(*) AS n FROM sa GROUP BY k ORDER BY k LIMIT 2 OFFSET 1000 + x) s;
-- a LIMIT ends the node with its scan open; a rescan starts over
SELECT k, n FROM (VALUES (1), (2)) v(x),
	LATERAL (SELECT k, count(*) AS n FROM sa GROUP BY k ORDER BY k LIMIT 2 OFFSET 1000 + x) s;
-- with enough memory the hashed node is offered too; ORDER BY still takes the sorted one
RESET work_mem;
RESET hash_mem_multiplier;
EXPLAIN (COSTS OFF) SELECT k, sum(q) FROM sa GROUP BY k ORDER BY k;
SET colstore.enable_sorted_agg = off;
EXPLAIN (COSTS OFF) SELECT k, sum(q) FROM sa GROUP BY k ORDER BY k;
RESET colstore.enable_sorted_agg;
SET work_mem = '64kB';
SET hash_mem_multiplier = 1;

-- deleted rows: inside groups, whole groups, a group's first and last rows
DELETE FROM sa WHERE k % 10 = 3 OR (k = 600 AND i = 1) OR (k BETWEEN 40 AND 60 AND i % 3 = 0);
DELETE FROM sh WHERE k % 10 = 3 OR (k = 600 AND i = 1) OR (k BETWEEN 40 AND 60 AND i % 3 = 0);
SELECT grouping_lines('SELECT k, count(*) FROM sa GROUP BY k');
SELECT same_in_order('SELECT k, count(*), sum(q), max(t) FROM sa GROUP BY k', 'k');

-- rows that arrive after planning, out of order and with NULL keys: the
-- cached plan falls back to hashing and sorting its groups, NULLs last
SET plan_cache_mode = force_generic_plan;
PREPARE sorted_k AS SELECT k, count(*), sum(q), min(t) FROM sa GROUP BY k;
SELECT grouping_lines('EXECUTE sorted_k');
INSERT INTO sa (k, q, t) VALUES (3, 1, 'x'), (NULL, 2, 'y'), (NULL, 3, 'z'), (-1, 4, 'w');
INSERT INTO sh (k, q, t) VALUES (3, 1, 'x'), (NULL, 2, 'y'), (NULL, 3, 'z'), (-1, 4, 'w');
SELECT grouping_lines('EXECUTE sorted_k');
-- the rows of a statement in the order it returns them
CREATE TABLE fetched (ord serial, r text);
CREATE FUNCTION fetch_rows(stmt text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	r record;
BEGIN
	TRUNCATE fetched;
	FOR r IN EXECUTE stmt LOOP
		INSERT INTO fetched (r) VALUES (r::text);
	END LOOP;
END $$;
SELECT fetch_rows('EXECUTE sorted_k');
SELECT (SELECT array_agg(r ORDER BY ord) FROM fetched) =
	   (SELECT array_agg(x::text) FROM (SELECT k, count(*), sum(q), min(t) FROM sh
										GROUP BY k ORDER BY k) x) AS same_as_heap;
(SELECT r FROM fetched ORDER BY ord LIMIT 3) UNION ALL
(SELECT r FROM fetched ORDER BY ord DESC LIMIT 2);
-- planned now: the table is not in order any more, no sorted grouping
RESET plan_cache_mode;
DEALLOCATE sorted_k;
SELECT groups_sorted('SELECT k, count(*) FROM sa GROUP BY k');

-- an updated row (a heap tuple) after planning: the plan is made again
-- without sorted grouping (had it not been, the run-time check would fall
-- back); the same rows as heap either way
CREATE TABLE sb (k bigint, v int) USING colstore WITH (chunk_size = 1000);
INSERT INTO sb SELECT i / 4, i FROM generate_series(1, 10000) i;
RESET colstore.delta_insert_rows;
INSERT INTO sb VALUES (1, 1);
DELETE FROM sb WHERE k = 1 AND v = 1;
SET colstore.delta_insert_rows = 0;
VACUUM ANALYZE sb;
CREATE TABLE sbh USING heap AS SELECT * FROM sb;
SET plan_cache_mode = force_generic_plan;
PREPARE sorted_sb AS SELECT k, count(*), sum(v) FROM sb GROUP BY k HAVING sum(v) % 3 = 0;
SELECT grouping_lines('EXECUTE sorted_sb');
UPDATE sb SET v = v + 1 WHERE k = 100;
UPDATE sbh SET v = v + 1 WHERE k = 100;
SELECT groups_sorted('EXECUTE sorted_sb');
SELECT fetch_rows('EXECUTE sorted_sb');
SELECT (SELECT array_agg(r ORDER BY ord) FROM fetched) =
	   (SELECT array_agg(x::text) FROM (SELECT k, count(*), sum(v) FROM sbh GROUP BY k
										HAVING sum(v) % 3 = 0 ORDER BY k) x) AS same_as_heap;
RESET plan_cache_mode;
DEALLOCATE sorted_sb;

-- a key not held in order, or a table with heap tuples: no sorted grouping
CREATE TABLE sc (k bigint, v int) USING colstore WITH (chunk_size = 1000);
INSERT INTO sc SELECT (i * 7919) % 5000, i FROM generate_series(1, 10000) i;
ANALYZE sc;
SELECT groups_sorted('SELECT k, sum(v) FROM sc GROUP BY k');
RESET colstore.delta_insert_rows;
INSERT INTO sb VALUES (5000, 1);
SELECT groups_sorted('SELECT k, sum(v) FROM sb GROUP BY k');

DROP TABLE sa, sh, sb, sbh, sc, fetched;
DROP FUNCTION same_in_order(text, text);
DROP FUNCTION grouping_lines(text);
DROP FUNCTION fetch_rows(text);
DROP FUNCTION groups_sorted(text);
