-- Parallel plans of colstore scans pay for their workers' start-up: each
-- worker planned adds parallel_setup_cost (ColstoreWorkerStartupCost) to
-- the parallel ColstoreAgg and the partial ColstoreScan, and ColstoreAgg
-- divides only its per-row work among the participants, not reading the
-- pages.  So where sharing the rows saves less than starting the workers
-- costs, the serial node is chosen; with parallel_setup_cost = 0 the
-- parallel one.  Results equal a heap twin's either way.
SET max_parallel_workers_per_gather = 2;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
CREATE TABLE ps (g int, d date, p numeric(15, 2), q numeric(15, 2))
	USING colstore WITH (chunk_size = 1000, row_group_size = 5000);
INSERT INTO ps SELECT i % 7, date '1994-01-01' + i % 700,
	(i % 1000) / 10.0, (i % 50)::numeric
	FROM generate_series(1, 40000) i;
CREATE TABLE psh USING heap AS SELECT * FROM ps;
ANALYZE ps, psh;
-- the rows of query over %T that differ between ps (colstore) and psh (heap)
CREATE FUNCTION ps_diff(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	c text := format('SELECT s::text FROM (%s) s', replace(query, '%T', 'ps'));
	h text := format('SELECT s::text FROM (%s) s', replace(query, '%T', 'psh'));
	n bigint;
BEGIN
	EXECUTE format('SELECT count(*) FROM ((%s EXCEPT ALL %s) UNION ALL (%s EXCEPT ALL %s)) x',
				   c, h, h, c) INTO n;
	RETURN n;
END $$;
CREATE FUNCTION ps_plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || replace(query, '%T', 'ps');
END $$;
CREATE TEMP TABLE ps_queries (n int, q text);
INSERT INTO ps_queries VALUES
	(1, 'SELECT sum(p * q), count(*) FROM %T WHERE d >= date ''1994-03-01'' AND d < date ''1995-01-01'' AND q < 24'),
	(2, 'SELECT g, sum(p), avg(q), count(*) FROM %T WHERE q < 40 GROUP BY g'),
	(3, 'SELECT g, count(*) FROM %T WHERE p > 90 GROUP BY g');
-- a small setup cost: without the workers' start-up (and with the pages'
-- reading divided too) the parallel plans looked cheaper (the serial ones
-- cost 55, 53 and 23); with it, the serial ColstoreAgg is chosen
SET parallel_setup_cost = 10;
SELECT n, ps_plan(q) FROM ps_queries ORDER BY n;
SELECT n, ps_diff(q) FROM ps_queries ORDER BY n;
-- no setup cost: no start-up cost per worker either, the parallel
-- ColstoreAgg is chosen
SET parallel_setup_cost = 0;
SELECT n, ps_plan(q) FROM ps_queries ORDER BY n;
SELECT n, ps_diff(q) FROM ps_queries ORDER BY n;
-- the partial ColstoreScan under PostgreSQL's own parallel aggregate: the
-- same choice, by the same start-up cost (sharing its rows saves about
-- 115: more than a setup cost of 50, less than 50 and 50 per worker)
SET colstore.enable_custom_agg = off;
SET parallel_setup_cost = 50;
SELECT ps_plan(q) FROM ps_queries WHERE n = 1;
SELECT ps_diff(q) FROM ps_queries WHERE n = 1;
SET parallel_setup_cost = 0;
SELECT ps_plan(q) FROM ps_queries WHERE n = 1;
SELECT ps_diff(q) FROM ps_queries WHERE n = 1;
RESET colstore.enable_custom_agg;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE ps, psh;
DROP FUNCTION ps_diff(text), ps_plan(text);
