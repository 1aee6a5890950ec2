-- sum, avg, min and max of float4 and float8 in ColstoreAgg: the same
-- values as PostgreSQL's Agg over the same rows in the same order (float
-- arithmetic depends on the order), with NULLs, NaN, infinities, -0,
-- values whose sums round, and the same overflow errors.
SET max_parallel_workers_per_gather = 0;
SET extra_float_digits = 3;
CREATE TABLE fa (g int, d float8, r real) USING colstore WITH (chunk_size = 1000);
INSERT INTO fa SELECT i % 7,
	CASE WHEN i % 31 = 0 THEN NULL ELSE (i % 1000) * 0.1 + 1.0 / i END,
	CASE WHEN i % 37 = 0 THEN NULL ELSE ((i % 500) * 0.3)::real END
	FROM generate_series(1, 20000) i;
-- special values, in groups of their own and mixed into group 0
INSERT INTO fa VALUES (10, 'NaN', 'NaN'), (10, 1, 1), (11, 'Infinity', 'Infinity'),
	(11, 5, 5), (12, '-Infinity', '-Infinity'), (12, 'Infinity', 'Infinity'),
	(13, '-0', '-0'), (14, '-0', '-0'), (14, 0, 0), (15, 0, 0), (15, '-0', '-0'),
	(16, NULL, NULL), (0, 1e100, 3e38), (0, -1e100, -3e38), (17, 'NaN', 'NaN'), (17, 'Infinity', 'Infinity'),
	(18, 1e100, 3e38), (18, -1e100, -3e38);
ANALYZE fa;
CREATE TABLE fh USING heap AS SELECT * FROM fa;

EXPLAIN (COSTS OFF) SELECT g, sum(d), avg(d), min(d), max(d), sum(r), avg(r), min(r), max(r) FROM fa GROUP BY g;

\getenv abs_srcdir PG_ABS_SRCDIR
\set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
\i :same_result_sql
-- each query's rows equal heap's, in text form
CREATE FUNCTION check_floats(q text) RETURNS TABLE (agg boolean, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || q INTO plan;
	agg := plan::text LIKE '%ColstoreAgg%';
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO nrows;
	same := same_result(q, replace(q, 'FROM fa', 'FROM fh'));
	RETURN NEXT;
END $$;
SELECT q, c.* FROM (VALUES
	('SELECT g, sum(d), avg(d), min(d), max(d), count(d) FROM fa GROUP BY g'),
	('SELECT g, sum(r), avg(r), min(r), max(r), count(r) FROM fa GROUP BY g'),
	('SELECT sum(d), avg(d), min(d), max(d), sum(r), avg(r), min(r), max(r) FROM fa WHERE g < 7'),
	('SELECT sum(d), avg(d), sum(r), avg(r) FROM fa'),
	('SELECT g, sum(d) FILTER (WHERE d > 50), avg(r) FILTER (WHERE r < 10) FROM fa GROUP BY g'),
	('SELECT sum(d), min(r) FROM fa WHERE g > 100'),
	('SELECT g, sum(d) / count(*), max(r) - min(r) FROM fa WHERE d < 1000 OR d IS NULL GROUP BY g'),
	-- float keys: -0 and 0 one group, NaNs one group
	('SELECT d, r, count(*), sum(g) FROM fa WHERE g >= 10 GROUP BY d, r'),
	('SELECT r, count(*), max(d) FROM fa GROUP BY r')
) v(q), LATERAL check_floats(q) c;
-- what the special values give
SELECT g, sum(d), avg(d), min(d), max(d), sum(r), avg(r), min(r), max(r)
FROM fa WHERE g >= 10 GROUP BY g ORDER BY g;

-- overflow: the same errors as heap
CREATE TABLE fo (d float8, r real) USING colstore;
INSERT INTO fo SELECT 1e308, 3e38 FROM generate_series(1, 20000);
CREATE TABLE foh USING heap AS SELECT * FROM fo;
ANALYZE fo;
EXPLAIN (COSTS OFF) SELECT sum(d) FROM fo;
SELECT sum(d) FROM fo;
SELECT sum(d) FROM foh;
SELECT sum(r) FROM fo;
SELECT sum(r) FROM foh;
SELECT avg(d) FROM fo;
SELECT avg(d) FROM foh;
-- avg: Sxx overflows before Sx does
TRUNCATE fo;
INSERT INTO fo SELECT CASE WHEN i % 2 = 0 THEN 1e200 ELSE -1e200 END FROM generate_series(1, 20000) i;
ANALYZE fo;
TRUNCATE foh;
INSERT INTO foh SELECT * FROM fo;
SELECT avg(d) FROM fo;
SELECT avg(d) FROM foh;
SELECT sum(d), min(d), max(d) FROM fo;

-- parallel: participants' states merged as the combine functions do (the
-- values are integers here, so the order does not change the sums)
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
TRUNCATE fo;
INSERT INTO fo SELECT i % 1000 - 500, i % 300 FROM generate_series(1, 50000) i;
INSERT INTO fo VALUES ('NaN', 'NaN'), ('-Infinity', '-Infinity');
ANALYZE fo;
TRUNCATE foh;
INSERT INTO foh SELECT * FROM fo;
EXPLAIN (COSTS OFF) SELECT sum(d), avg(d), min(d), max(d), sum(r), avg(r), min(r), max(r) FROM fo WHERE d > -400 OR d IS NULL;
SELECT sum(d), avg(d), min(d), max(d), sum(r), avg(r), min(r), max(r) FROM fo WHERE d > -400 OR d IS NULL;
SELECT sum(d), avg(d), min(d), max(d), sum(r), avg(r), min(r), max(r) FROM foh WHERE d > -400 OR d IS NULL;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

DROP FUNCTION check_floats(text);
DROP TABLE fa, fh, fo, foh;
