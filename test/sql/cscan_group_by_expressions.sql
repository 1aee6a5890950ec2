-- ColstoreAgg grouping by expressions over the table's columns (date_trunc,
-- extract, arithmetic, casts, CASE, text functions, several columns):
-- results equal to heap's (PostgreSQL's HashAggregate) group for group,
-- with NULL inputs and results, conditions, HAVING and ORDER BY on the
-- expression, changed rows, parallel workers, and an expression that
-- raises an error only for rows the conditions reject (never evaluated).
SET max_parallel_workers_per_gather = 0;
CREATE TABLE ge (i int, k int, n numeric, d date, ts timestamptz, t text, v varchar(8))
	USING colstore WITH (chunk_size = 1000);
INSERT INTO ge SELECT i, CASE WHEN i % 23 = 0 THEN NULL ELSE i % 97 END,
	(i % 1000) / 8.0, date '2020-01-01' + i % 700,
	timestamptz '2020-01-01 00:00+00' + i * interval '17 minutes',
	CASE WHEN i % 29 = 0 THEN NULL ELSE 'Tx' || (i % 13) END, 'v' || (i % 5)
	FROM generate_series(1, 30000) i;
ANALYZE ge;
CREATE TABLE geh USING heap AS SELECT * FROM ge;
SET timezone = 'UTC';

EXPLAIN (COSTS OFF)
	SELECT date_trunc('month', d) AS m, count(*), sum(n) FROM ge GROUP BY 1 ORDER BY 1;
EXPLAIN (VERBOSE, COSTS OFF)
	SELECT k % 10, lower(t), count(*) FROM ge WHERE i > 100
	GROUP BY k % 10, lower(t) HAVING count(*) > 10;
-- the output may compute from the key expression
EXPLAIN (COSTS OFF) SELECT (k % 10) * 2, count(*) FROM ge GROUP BY k % 10;

\getenv abs_srcdir PG_ABS_SRCDIR
\set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
\i :same_result_sql
CREATE FUNCTION check_groups(q text) RETURNS TABLE (agg boolean, groups bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || q INTO plan;
	agg := plan::text LIKE '%ColstoreAgg%';
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO groups;
	same := same_result(q, replace(q, 'FROM ge', 'FROM geh'));
	RETURN NEXT;
END $$;

CREATE TABLE expr_queries (q text);
INSERT INTO expr_queries VALUES
	('SELECT date_trunc(''month'', d) AS m, count(*), sum(n), min(i) FROM ge GROUP BY 1'),
	('SELECT date_trunc(''day'', ts), count(*), max(k) FROM ge GROUP BY 1'),
	('SELECT extract(dow FROM d), count(*), avg(n) FROM ge GROUP BY 1'),
	('SELECT k % 10, count(*), sum(i) FROM ge GROUP BY k % 10'),
	('SELECT k / 10, k % 2, count(*) FROM ge GROUP BY k / 10, k % 2'),
	('SELECT (k % 10) * 2, count(*) FROM ge GROUP BY k % 10'),
	('SELECT lower(t), count(*), count(k) FROM ge GROUP BY lower(t)'),
	('SELECT substr(t, 1, 3), v, count(*) FROM ge GROUP BY substr(t, 1, 3), v'),
	('SELECT t || v, count(*) FROM ge GROUP BY t || v'),
	('SELECT n::int, count(*), sum(n) FROM ge GROUP BY n::int'),
	('SELECT round(n, -1), count(*) FROM ge GROUP BY round(n, -1)'),
	('SELECT CASE WHEN k < 10 THEN ''low'' WHEN k < 50 THEN ''mid'' END, count(*) FROM ge GROUP BY 1'),
	('SELECT coalesce(k, -1) % 5, count(*) FROM ge GROUP BY 1'),
	('SELECT k + i % 3, count(*) FROM ge WHERE i < 5000 GROUP BY k + i % 3'),
	('SELECT d - i % 2, k, count(*) FROM ge GROUP BY d - i % 2, k'),
	('SELECT k % 10, count(*) FROM ge WHERE t = ''Tx3'' GROUP BY k % 10'),
	('SELECT k % 10, count(*) FILTER (WHERE i > 15000) FROM ge GROUP BY k % 10'),
	('SELECT k % 10 FROM ge GROUP BY k % 10 HAVING sum(i) > 45000000'),
	('SELECT date_trunc(''year'', d), k % 3, count(*) FROM ge WHERE d > ''2021-01-01'' GROUP BY 1, 2'),
	('SELECT 100 / (k - 5), count(*) FROM ge WHERE k > 5 GROUP BY 100 / (k - 5)');
SELECT q, c.* FROM expr_queries, LATERAL check_groups(q) c;

-- the same after UPDATE and DELETE (promoted rows, versions on heap pages)
UPDATE ge SET k = k + 1, d = d + 400 WHERE i % 50 = 0;
UPDATE geh SET k = k + 1, d = d + 400 WHERE i % 50 = 0;
DELETE FROM ge WHERE i % 77 = 1;
DELETE FROM geh WHERE i % 77 = 1;
SELECT q, c.* FROM expr_queries, LATERAL check_groups(q) c;

-- an expression that fails on rows the conditions reject is never evaluated
-- on them: k = 5 would divide by zero
SELECT 100 / (k - 5) AS q, count(*) FROM ge WHERE k > 5 GROUP BY 1 ORDER BY 1 LIMIT 3;
SELECT 100 / (k - 5) AS q, count(*) FROM ge GROUP BY 1;

-- parallel: every participant evaluates its rows' keys
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT date_trunc('month', d), count(*), sum(n) FROM ge GROUP BY 1;
SELECT q, c.* FROM (VALUES
	('SELECT date_trunc(''month'', d), count(*), sum(n) FROM ge GROUP BY 1'),
	('SELECT lower(t), k % 4, count(*) FROM ge GROUP BY 1, 2')) v(q),
	LATERAL check_groups(q) c;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- not handled: volatile functions, parameters, subqueries, whole rows, and
-- keys whose groups are not expected to fit in hash_mem
EXPLAIN (COSTS OFF) SELECT count(*) FROM ge GROUP BY k + (random() * 0)::int;
PREPARE p(int) AS SELECT k % $1, count(*) FROM ge GROUP BY k % $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE p(3);
RESET plan_cache_mode;
DEALLOCATE p;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ge GROUP BY k + (SELECT 1);
EXPLAIN (COSTS OFF) SELECT count(*) FROM ge x GROUP BY x::text;
-- a key under an outer join that became an inner one is a PlaceHolderVar
EXPLAIN (COSTS OFF) SELECT s.x, count(*)
	FROM (SELECT 1) d LEFT JOIN (SELECT coalesce(k, -1) AS x, i FROM ge) s ON true
	WHERE s.i > 0 GROUP BY s.x;
SELECT count(*) FROM (SELECT s.x, count(*)
	FROM (SELECT 1) d LEFT JOIN (SELECT coalesce(k, -1) AS x, i FROM ge) s ON true
	WHERE s.i > 0 GROUP BY s.x) q;
SET work_mem = '64kB';
EXPLAIN (COSTS OFF) SELECT count(*) FROM ge GROUP BY extract(epoch FROM ts);
RESET work_mem;

DROP TABLE ge, geh, expr_queries;
DROP FUNCTION check_groups(text);
RESET timezone;
