-- ColstoreScan's batch filter: conditions chunk_filter.c decides exactly are
-- evaluated a chunk at a time over the decoded key columns, rows they reject
-- never become tuples, and they are no executor quals any more (EXPLAIN shows
-- "Batch Filter" instead of "Filter").  Every query must return heap's rows:
-- over every type the filter handles, NULLs, AND/OR, IN lists, LIKE, with a
-- residual qual, over changed and deleted rows, with parameters, rescans,
-- parallel workers and a security barrier view.  EvalPlanQual's recheck of
-- these conditions is tested by the batch_filter_epq isolation spec.
SET max_parallel_workers_per_gather = 0;
-- aggregates here run over the scan (ColstoreAgg is tested elsewhere)
SET colstore.enable_custom_agg = off;
CREATE TABLE bf (id bigint, k int, s smallint, n numeric(10,2), f float8, d date,
	ts timestamp, b bool, t text, v varchar(10), c char(4), maybe int)
	USING colstore WITH (row_group_size = 6000, chunk_size = 1000);
INSERT INTO bf SELECT i, i % 97, (i % 300)::smallint, (i % 1000) / 4.0, (i % 50) * 0.5,
	date '2020-01-01' + i % 400, timestamp '2020-01-01' + i % 500 * interval '1 hour',
	i % 3 = 0, 'w' || (i % 200), 'v' || (i % 30), 'c' || (i % 9),
	CASE WHEN i % 11 <> 0 THEN i % 13 END
	FROM generate_series(1, 20000) i;
ANALYZE bf;
CREATE TABLE bh USING heap AS SELECT * FROM bf;

-- the plan: no pruning (k is not ordered), the condition becomes the batch
-- filter; a condition the filter cannot decide stays a Filter
EXPLAIN (COSTS OFF) SELECT id FROM bf WHERE k = 5;
EXPLAIN (COSTS OFF) SELECT id FROM bf WHERE k = 5 AND id::text LIKE '%3';
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT id FROM bf WHERE k = 5 AND id::text LIKE '%3';
-- VERBOSE qualifies the columns as Filter: does
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, t FROM bf WHERE t = 'w7' OR k < 2;

\getenv abs_srcdir PG_ABS_SRCDIR
\set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
\i :same_result_sql
-- every query gives heap's rows; 'filtered' says whether the batch filter ran
CREATE FUNCTION check_filter(q text) RETURNS TABLE (filtered boolean, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
	hq text := replace(q, 'FROM bf', 'FROM bh');	-- the same query on the heap copy
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || q INTO plan;
	filtered := plan::text LIKE '%Batch Filter%';
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO nrows;
	same := same_result(q, hq);
	RETURN NEXT;
END $$;

CREATE TABLE filter_queries (q text);
INSERT INTO filter_queries VALUES
	('SELECT * FROM bf WHERE k = 5'),
	('SELECT id, t FROM bf WHERE k < 3'),
	('SELECT id FROM bf WHERE k <> 5 AND k > 90'),
	('SELECT id, s FROM bf WHERE s >= 298'),
	('SELECT id FROM bf WHERE k BETWEEN 10 AND 12'),
	('SELECT id FROM bf WHERE k IN (1, 50, 96)'),
	('SELECT id FROM bf WHERE k IN (1, NULL)'),
	('SELECT id FROM bf WHERE k = 5::int8'),
	('SELECT id, n FROM bf WHERE n = 12.25'),
	('SELECT id, n FROM bf WHERE n > 249.5'),
	('SELECT id FROM bf WHERE n < 0.6 AND k > 40'),
	('SELECT id, f FROM bf WHERE f = 3.5'),
	('SELECT id FROM bf WHERE f > 24.0'),
	('SELECT id, d FROM bf WHERE d = date ''2020-02-01'''),
	('SELECT id FROM bf WHERE d < timestamp ''2020-01-02 12:00'''),
	('SELECT id FROM bf WHERE ts >= timestamp ''2020-01-21 18:00'''),
	('SELECT id FROM bf WHERE b AND k = 3'),
	('SELECT id FROM bf WHERE NOT b AND k = 3'),
	('SELECT id, t FROM bf WHERE t = ''w17'''),
	('SELECT id FROM bf WHERE t IN (''w1'', ''w199'', ''nope'')'),
	('SELECT id FROM bf WHERE t LIKE ''w19%'''),
	('SELECT id FROM bf WHERE t LIKE ''w1_3'''),
	('SELECT id FROM bf WHERE v = ''v7'' AND k < 50'),
	('SELECT id, c FROM bf WHERE c = ''c3'''),
	('SELECT id FROM bf WHERE maybe IS NULL'),
	('SELECT id FROM bf WHERE maybe IS NOT NULL AND maybe > 11'),
	('SELECT id FROM bf WHERE maybe = 4 OR k = 96'),
	('SELECT id FROM bf WHERE (k = 1 OR k = 2) AND (t = ''w1'' OR t = ''w2'')'),
	('SELECT id FROM bf WHERE k = 5 AND id % 2 = 0'),
	('SELECT id FROM bf WHERE k = 1000'),
	('SELECT ctid = ctid AS has_ctid, tableoid <> 0 AS has_tableoid FROM bf WHERE k = 7'),
	('SELECT r FROM bf r WHERE k = 5'),
	('SELECT id, maybe FROM bf WHERE k = 5 AND t < ''w5'''),
	('SELECT k, count(*) FROM bf WHERE k < 4 GROUP BY k');
SELECT q, c.* FROM filter_queries, LATERAL check_filter(q) c;

-- changed rows: deleted ones (row groups with promoted copies) and new
-- versions on heap pages are filtered like the rest
UPDATE bf SET k = 5 WHERE id % 1000 = 1;
UPDATE bh SET k = 5 WHERE id % 1000 = 1;
DELETE FROM bf WHERE id % 97 = 5 AND id < 10000;
DELETE FROM bh WHERE id % 97 = 5 AND id < 10000;
UPDATE bf SET t = 'w17' WHERE k = 9;
UPDATE bh SET t = 'w17' WHERE k = 9;
SELECT q, c.* FROM filter_queries, LATERAL check_filter(q) c;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT id FROM bf WHERE k = 5;

-- a prepared statement's generic plan: the value is a parameter
PREPARE p(int) AS SELECT count(*) FROM bf WHERE k = $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE p(5);
EXECUTE p(5);
SELECT count(*) FROM bh WHERE k = 5;
EXECUTE p(NULL);
EXECUTE p(96);
SELECT count(*) FROM bh WHERE k = 96;
RESET plan_cache_mode;
DEALLOCATE p;

-- rescans with a new value each time (a correlated subquery)
EXPLAIN (COSTS OFF)
	SELECT g, (SELECT count(*) FROM bf WHERE k = g) FROM generate_series(1, 3) g;
SELECT g, (SELECT count(*) FROM bf WHERE k = g) FROM generate_series(1, 3) g;
SELECT g, (SELECT count(*) FROM bh WHERE k = g) FROM generate_series(1, 3) g;

-- a cursor that reads part of the scan, then goes back
BEGIN;
DECLARE cur SCROLL CURSOR FOR SELECT id FROM bf WHERE k = 50 ORDER BY id;
FETCH 3 FROM cur;
FETCH BACKWARD 2 FROM cur;
COMMIT;

-- parallel: every participant filters its own row groups
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT id, t FROM bf WHERE k = 5 OR t = 'w17';
SELECT q, c.* FROM (VALUES
	('SELECT id, t FROM bf WHERE k = 5 OR t = ''w17'''),
	('SELECT id FROM bf WHERE n > 200 AND maybe IS NULL')) v(q),
	LATERAL check_filter(q) c;
-- the counts of all participants reach EXPLAIN ANALYZE
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT id FROM bf WHERE k = 96;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- a security barrier view: a leaky function of the caller's must not see
-- rows the view's condition hides; the view's condition may be filtered in
-- batches, the caller's leaky one is not moved ahead of it
CREATE FUNCTION leak(int) RETURNS bool LANGUAGE plpgsql COST 0.0000001 AS
	$$ BEGIN IF $1 % 97 <> 3 THEN RAISE NOTICE 'leaked %', $1; END IF; RETURN true; END $$;
CREATE VIEW bf_k3 WITH (security_barrier) AS SELECT id, k FROM bf WHERE k = 3;
EXPLAIN (COSTS OFF) SELECT count(*) FROM bf_k3 WHERE leak(k);
SELECT count(*) FROM bf_k3 WHERE leak(k);
SELECT count(*) FROM bh WHERE k = 3;
DROP VIEW bf_k3;
DROP FUNCTION leak(int);

-- an IN list whose array is of a domain over an array type (the element
-- type is the domain's base type's)
CREATE TYPE bf_mood AS ENUM ('low', 'mid', 'high');
CREATE DOMAIN bf_moods AS bf_mood[];
CREATE TABLE bfm (id int, m bf_mood) USING colstore WITH (chunk_size = 1000);
INSERT INTO bfm SELECT i, (ARRAY['low', 'mid', 'high'])[1 + i % 3]::bf_mood
	FROM generate_series(1, 5000) i;
ANALYZE bfm;
EXPLAIN (COSTS OFF) SELECT id FROM bfm WHERE m = ANY ('{high}'::bf_moods);
SELECT count(*), min(id), max(id) FROM bfm WHERE m = ANY ('{high}'::bf_moods);
DROP TABLE bfm;
DROP DOMAIN bf_moods;
DROP TYPE bf_mood;

-- not used: conditions it cannot decide, or switched off
EXPLAIN (COSTS OFF) SELECT id FROM bf WHERE k + 0 = 5;
EXPLAIN (COSTS OFF) SELECT id FROM bf WHERE t ILIKE 'W17';
SET colstore.enable_custom_scan = off;
EXPLAIN (COSTS OFF) SELECT id FROM bf WHERE k = 5;
RESET colstore.enable_custom_scan;

DROP TABLE bf, bh, filter_queries;
DROP FUNCTION check_filter(text);
