-- ColstoreAgg: count, sum and min/max folded from decoded chunks, with and
-- without conditions; results equal to heap's and to PostgreSQL's own Agg.
SET max_parallel_workers_per_gather = 0;
CREATE TABLE ag (a bigint, b int, s smallint, d date, n numeric, t text)
	USING colstore WITH (chunk_size = 1000);
INSERT INTO ag SELECT i, CASE WHEN i % 10 = 0 THEN NULL ELSE i % 100 END,
	(i % 300)::smallint, date '2020-01-01' + i % 500, i, 'x'
	FROM generate_series(1, 25000) i;
ANALYZE ag;
CREATE TABLE agh USING heap AS SELECT * FROM ag;

EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT count(*), count(b), sum(a), sum(b), sum(s), min(a), max(b), min(d), max(d) FROM ag;
-- conditions prune chunks and select rows; the target combines aggregates
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT sum(a) / count(*), max(b) + 1 FROM ag WHERE a BETWEEN 3000 AND 4500 AND b IS NOT NULL;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM ag WHERE b IS NULL;

-- not handled: other aggregates (also in HAVING), grouping by volatile
-- expressions, FILTER with other conditions, DISTINCT, other conditions,
-- expressions as arguments, or switched off (GROUP BY, avg, numeric sums,
-- FILTER: cscan_group_by; grouping expressions: cscan_group_by_expressions)
EXPLAIN (COSTS OFF) SELECT stddev(a) FROM ag;
EXPLAIN (COSTS OFF) SELECT b + random()::int, count(*) FROM ag GROUP BY 1;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ag HAVING stddev(a) > 1;
EXPLAIN (COSTS OFF) SELECT count(*) FILTER (WHERE t ILIKE 'x%') FROM ag;
EXPLAIN (COSTS OFF) SELECT count(DISTINCT b) FROM ag;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ag WHERE t = 'x' COLLATE "POSIX";
EXPLAIN (COSTS OFF) SELECT sum(a + 1) FROM ag;
SET colstore.enable_custom_agg = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ag;
RESET colstore.enable_custom_agg;
-- it reads the table sequentially, so enable_seqscan = off leaves it to an index
CREATE INDEX ag_a ON ag (a);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ag WHERE a > 24990;
RESET enable_seqscan;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ag WHERE a > 24990;
DROP INDEX ag_a;

-- every query gives heap's result; 'agg' says whether ColstoreAgg ran
CREATE FUNCTION check_agg(q text) RETURNS TABLE (agg boolean, result text, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
	heap_result text;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || q INTO plan;
	agg := plan::text LIKE '%ColstoreAgg%';
	EXECUTE format('SELECT row(x.*)::text FROM (%s) x', q) INTO result;
	EXECUTE format('SELECT row(x.*)::text FROM (%s) x', replace(q, 'FROM ag', 'FROM agh'))
		INTO heap_result;
	same := result IS NOT DISTINCT FROM heap_result;
	RETURN NEXT;
END $$;
SELECT q, c.* FROM (VALUES
	('SELECT count(*), count(b), count(t), count(n) FROM ag'),
	('SELECT sum(a), sum(b), sum(s) FROM ag'),
	('SELECT min(a), max(a), min(b), max(b), min(s), max(s), min(d), max(d) FROM ag'),
	('SELECT count(*), sum(a) FROM ag WHERE a > 24990'),
	('SELECT count(*), sum(a) FROM ag WHERE a > 30000'),
	('SELECT count(b), min(b), max(b) FROM ag WHERE b IS NULL'),
	('SELECT count(b), sum(b) FROM ag WHERE b < 3 AND a >= 20000'),
	('SELECT count(*) FROM ag WHERE d = date ''2020-02-01'''),
	('SELECT max(d) - min(d) FROM ag WHERE 100 > s'),
	('SELECT sum(a)::float8 / nullif(count(*), 0) FROM ag WHERE a <= 1'),
	('SELECT count(*) FROM ag WHERE a = 7::int2')
) v(q), check_agg(q) c;

-- sums beyond bigint: sum(int8) is an exact numeric, sum(int4) a bigint, as on heap
CREATE TABLE big (v bigint, w int) USING colstore WITH (chunk_size = 100);
INSERT INTO big SELECT 9000000000000000000, 2000000000 FROM generate_series(1, 300);
INSERT INTO big SELECT -9000000000000000000, -2000000000 FROM generate_series(1, 600);
ANALYZE big;
EXPLAIN (COSTS OFF) SELECT sum(v), min(v), count(w), sum(w) FROM big;
SELECT sum(v), min(v), count(w), sum(w) FROM big;
CREATE TABLE bigh USING heap AS SELECT * FROM big;
SELECT sum(v), min(v), count(w), sum(w) FROM bigh;

-- an empty result and a rescan with a new parameter each time
SELECT count(*), sum(a), min(d) FROM ag WHERE a < 0;
SELECT x, (SELECT count(*) FROM ag WHERE a < x) FROM (VALUES (10), (20000), (NULL)) v(x);
PREPARE p(bigint) AS SELECT count(*), max(a) FROM ag WHERE a >= $1;
EXECUTE p(24000);
EXECUTE p(NULL);

-- rows of the current transaction, and of an aborted one
BEGIN;
INSERT INTO ag (a, b) VALUES (30001, 1), (30002, NULL);
SELECT count(*), count(b), max(a) FROM ag;
ROLLBACK;
SELECT count(*), count(b), max(a) FROM ag;

DROP TABLE ag, agh, big, bigh;
DROP FUNCTION check_agg(text);
