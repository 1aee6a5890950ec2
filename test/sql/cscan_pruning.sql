-- The colstore custom scan (ColstoreScan): when the planner picks it, chunk
-- pruning by min/max and NULL counts, column projection, EXPLAIN output,
-- parameters, rescans, cursors, parallel plans, and results equal to heap's.
SET max_parallel_workers_per_gather = 0;
-- aggregates here run over the scan (cscan_aggregates tests the aggregate node)
SET colstore.enable_custom_agg = off;
CREATE TABLE cs (id bigint, k int, n numeric, d date, t text, maybe int, gone int)
	USING colstore WITH (row_group_size = 5000, chunk_size = 1000);
INSERT INTO cs SELECT i, i % 7, i / 10.0, date '2020-01-01' + i / 100, 'v' || i,
	CASE WHEN i <= 15000 THEN i END, i
	FROM generate_series(1, 20000) i;
ALTER TABLE cs DROP COLUMN gone;
-- a sample smaller than the table: ANALYZE sorts it by TID, so the
-- correlation of the ordered column is 1 (pruning's cost depends on it)
SET default_statistics_target = 10;
ANALYZE cs;
RESET default_statistics_target;
SELECT attname, round(correlation::numeric, 2) AS correlation FROM pg_stats
	WHERE tablename = 'cs' AND attname = 'id';
CREATE TABLE hs USING heap AS SELECT * FROM cs;
SELECT row_count, chunks FROM colstore.row_groups('cs') ORDER BY first_row;

-- a selective range on an ordered column: 1 chunk of 20 is read
EXPLAIN (COSTS OFF) SELECT sum(n) FROM cs WHERE id BETWEEN 3001 AND 4000;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT sum(n) FROM cs WHERE id BETWEEN 3001 AND 4000;
SELECT sum(n) FROM cs WHERE id BETWEEN 3001 AND 4000;
-- value on the left, IS NULL (only chunks holding NULLs are read)
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT count(*) FROM cs WHERE 19990 < id;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT count(*) FROM cs WHERE maybe IS NULL AND id > 12000;
-- a NULL comparison value: no row can pass, nothing is read
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT count(*) FROM cs WHERE id > 12000 AND id < NULL::bigint;

-- text columns prune under their own collation (more: cscan_text_conditions)
EXPLAIN (COSTS OFF) SELECT count(*) FROM cs WHERE t = 'v100';

-- an uncorrelated column prunes nothing, but the batch filter decides its
-- condition a chunk at a time (more: cscan_batch_filter)
EXPLAIN (COSTS OFF) SELECT count(*) FROM cs WHERE k = 3;
-- not offered: a collation other than the column's, no usable qual,
-- system columns other than ctid/tableoid, or switched off
EXPLAIN (COSTS OFF) SELECT count(*) FROM cs WHERE t < 'v100' COLLATE "POSIX";
EXPLAIN (COSTS OFF) SELECT count(*) FROM cs WHERE id + 0 = 5;
EXPLAIN (COSTS OFF) SELECT xmin IS NOT NULL FROM cs WHERE id = 7;
SELECT xmin IS NOT NULL AS has_xmin FROM cs WHERE id = 7;
SET colstore.enable_custom_scan = off;
EXPLAIN (COSTS OFF) SELECT sum(n) FROM cs WHERE id BETWEEN 3001 AND 4000;
RESET colstore.enable_custom_scan;

-- every query gives heap's rows; 'custom' says whether the custom scan ran
CREATE FUNCTION check_query(q text) RETURNS TABLE (custom boolean, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
	hq text := replace(q, 'FROM cs', 'FROM hs');  -- the same query on the heap copy
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || q INTO plan;
	custom := plan::text LIKE '%ColstoreScan%';
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO nrows;
	EXECUTE format('SELECT NOT EXISTS ((%s) EXCEPT ALL (%s)) AND NOT EXISTS ((%s) EXCEPT ALL (%s))',
				   q, hq, hq, q) INTO same;
	RETURN NEXT;
END $$;
SELECT q, c.* FROM (VALUES
	('SELECT * FROM cs WHERE id BETWEEN 3001 AND 4000'),
	('SELECT * FROM cs WHERE id > 19990'),
	('SELECT * FROM cs WHERE id < 5'),
	('SELECT id, t FROM cs WHERE id = 12345'),
	('SELECT id, t FROM cs WHERE 12345 = id'),
	('SELECT id FROM cs WHERE id = 12345::int2'),
	('SELECT id FROM cs WHERE id <= 1000 OR id > 20000'),
	('SELECT n FROM cs WHERE n >= 1990.5'),
	('SELECT n, d FROM cs WHERE n > 1000 AND n < 1000.35'),
	('SELECT d FROM cs WHERE d < date ''2020-01-05'''),
	('SELECT t FROM cs WHERE d = date ''2020-03-01'''),
	('SELECT id, maybe FROM cs WHERE maybe IS NULL AND id > 12000'),
	('SELECT id FROM cs WHERE maybe IS NOT NULL AND id > 14990'),
	('SELECT id FROM cs WHERE id > 19000 AND k = 3'),
	('SELECT x::text FROM cs x WHERE id < 4'),
	('SELECT tableoid::regclass, id FROM cs WHERE id > 19997'),
	('SELECT id FROM cs WHERE id < 1000 AND id > 500 AND n > 60')
) v(q), check_query(q) c;

-- ctid is the same as through the plain sequential scan
SELECT ctid, id FROM cs WHERE id > 19997;
SET colstore.enable_custom_scan = off;
SELECT ctid, id FROM cs WHERE id > 19997;
RESET colstore.enable_custom_scan;

-- parameters: custom and generic plans of a prepared statement
PREPARE p(bigint) AS SELECT count(*), min(id) FROM cs WHERE id > $1;
EXECUTE p(19000);
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE p(19500);
EXECUTE p(19500);
EXECUTE p(0);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) EXECUTE p(NULL);
RESET plan_cache_mode;

-- rescans with a new value each time (a correlated subquery)
SELECT x, (SELECT count(*) FROM cs WHERE id < x) FROM (VALUES (10), (2500), (19999)) v(x);

-- a scrollable cursor (the planner adds a Material node for backward moves)
BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT id FROM cs WHERE id > 19996;
FETCH 3 FROM c;
FETCH BACKWARD 2 FROM c;
COMMIT;

-- a column added later (stored in no row group) and rows of the current transaction
ALTER TABLE cs ADD COLUMN extra int DEFAULT 5;
BEGIN;
INSERT INTO cs (id, n, extra) VALUES (20001, 1, 6), (20002, 2, 5);
SELECT id, extra FROM cs WHERE id > 19998 AND extra = 5 ORDER BY id;
ROLLBACK;
SELECT count(*) FROM cs WHERE id > 19998;

-- parallel: the custom scan is parallel aware; counts include the workers
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT count(*), sum(n) FROM cs WHERE id > 2000 AND id <= 17000;
SELECT count(*), sum(n) FROM cs WHERE id > 2000 AND id <= 17000;
SELECT count(*), sum(n) FROM hs WHERE id > 2000 AND id <= 17000;
-- row groups and chunks read and skipped, summed over the participants
CREATE FUNCTION scan_counts(q text) RETURNS TABLE (counter text, n bigint)
LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q INTO plan;
	RETURN QUERY SELECT c, jsonb_path_query_first(plan, ('$.**."' || c || '"')::jsonpath)::bigint
		FROM unnest(ARRAY['Row Groups Read', 'Row Groups Skipped', 'Chunks Read', 'Chunks Skipped']) c;
END $$;
SELECT * FROM scan_counts('SELECT count(*), sum(n) FROM cs WHERE id > 2000 AND id <= 17000');
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- a lateral reference to an outer relation
SELECT o.x, s.* FROM (VALUES (1), (2)) o(x)
	LEFT JOIN LATERAL (SELECT o.x + cs.id AS sum, cs.id FROM cs WHERE cs.id > 19998) s ON true
	ORDER BY 1, 3;

-- an inheritance parent: the custom scan reads each child separately, never the parent
-- for all of them
CREATE TABLE ip (id bigint) USING colstore WITH (chunk_size = 1000);
CREATE TABLE ic () INHERITS (ip) USING colstore WITH (chunk_size = 1000);
INSERT INTO ip SELECT generate_series(1, 5000);
INSERT INTO ic SELECT generate_series(5001, 20000);
ANALYZE ip;
ANALYZE ic;
SELECT count(*), min(id), max(id) FROM ip WHERE id > 4990 AND id <= 5010;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ip WHERE id > 4990 AND id <= 5010;
DROP TABLE ip, ic;

-- ALTER COLUMN TYPE between binary-compatible types keeps the data: the int4
-- min/max of old row groups must not be read as oid ones (-1 is the largest oid)
CREATE TABLE ao (v int) USING colstore WITH (chunk_size = 1000);
INSERT INTO ao SELECT CASE WHEN i = 20000 THEN -1 ELSE i END FROM generate_series(1, 20000) i;
ALTER TABLE ao ALTER COLUMN v TYPE oid;
SELECT pg_relation_filenode('ao') = relfilenode AS not_rewritten FROM pg_class WHERE relname = 'ao';
ANALYZE ao;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) SELECT v FROM ao WHERE v > 4000000000;
SELECT v FROM ao WHERE v > 4000000000;
DROP TABLE ao;

-- partitions are pruned chunk by chunk too
CREATE TABLE pt (id bigint, v int) PARTITION BY RANGE (id);
CREATE TABLE pt1 PARTITION OF pt FOR VALUES FROM (0) TO (10000)
	USING colstore WITH (chunk_size = 1000);
CREATE TABLE pt2 PARTITION OF pt FOR VALUES FROM (10000) TO (20000)
	USING colstore WITH (chunk_size = 1000);
INSERT INTO pt SELECT i, i % 10 FROM generate_series(0, 19999) i;
ANALYZE pt;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT sum(v) FROM pt WHERE id % 10000 < 10 AND id BETWEEN 5000 AND 14999;
SELECT sum(v) FROM pt WHERE id BETWEEN 9990 AND 10009;

DROP TABLE cs, hs, pt;
DROP FUNCTION check_query(text), scan_counts(text);
