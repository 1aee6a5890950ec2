-- Hash join filters on right anti and right semi joins (NOT EXISTS, EXISTS
-- hashed on the outer query's side: TPC-H Q22), which return rows of the
-- hash side only, each asking whether some probe row matches: the probe
-- side's ColstoreScan drops the rows whose keys no tuple of the hash table
-- can match.  PostgreSQL 16 added right anti joins and 18 right semi joins;
-- on 15 the planner hashes the other side, and the scan is not filtered.  Every result must be heap's: NULL
-- keys on both sides, keys no probe row has, a parallel join, a rescan.
SET max_parallel_workers_per_gather = 0;
SET colstore.enable_custom_agg = off;
SET enable_mergejoin = off;
SET enable_nestloop = off;
-- p (probe side): 30,000 rows, k = 1..3000 ten times, NULL for every 97th
CREATE TABLE jr_p (id int, k bigint, a int) USING colstore
	WITH (row_group_size = 6000, chunk_size = 1000);
INSERT INTO jr_p SELECT i, CASE WHEN i % 97 <> 0 THEN i % 3000 + 1 END, i % 50
	FROM generate_series(1, 30000) i;
-- h (hash side): keys 1..4000 (1000 of them no p row has), g groups them by
-- tens, and a NULL key
CREATE TABLE jr_h (k bigint, g int, t text) USING colstore;
INSERT INTO jr_h SELECT i, i / 10, 't' || i FROM generate_series(1, 4000) i;
INSERT INTO jr_h VALUES (NULL, 7, 'null key');
ANALYZE jr_p, jr_h;
CREATE TABLE jr_ph USING heap AS SELECT * FROM jr_p;
CREATE TABLE jr_hh USING heap AS SELECT * FROM jr_h;
ANALYZE jr_ph, jr_hh;

\getenv abs_srcdir PG_ABS_SRCDIR
\set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
\i :same_result_sql
-- For q: whether its topmost hash join is a right anti or right semi join
-- (always true for the NOT EXISTS queries from 16 on, so the test fails
-- should the planner stop making them; 15 has no such joins and prints
-- true too), whether each such join's probe scan carries a hash join
-- filter that removed rows (true for every other join), how many rows q
-- returns and whether they are heap's (jr_p -> jr_ph, jr_h -> jr_hh)
CREATE FUNCTION check_query(q text, want_right boolean)
	RETURNS TABLE (right_join boolean, filtered boolean, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
	join_type text;
	hq text := regexp_replace(regexp_replace(q, '\mjr_p\M', 'jr_ph', 'g'), '\mjr_h\M', 'jr_hh', 'g');
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF, ANALYZE, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q INTO plan;
	join_type := substring(plan::text FROM '"Join Type": "([A-Za-z ]*)"');
	right_join := NOT want_right OR join_type LIKE 'Right %' OR
		current_setting('server_version_num')::int < 160000;
	filtered := join_type NOT LIKE 'Right %' OR
		(plan::text LIKE '%"Hash Join Filter"%' AND
		 substring(plan::text FROM '"Rows Removed by Hash Join Filter": ([0-9]+)')::bigint > 0);
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO nrows;
	same := same_result(q, hq);
	RETURN NEXT;
END $$;

-- right anti joins: h's rows that no p row matches; p's scan is filtered
SELECT q, c.* FROM (VALUES
	('SELECT h.k, h.t FROM jr_h h WHERE h.g < 20 AND NOT EXISTS (SELECT 1 FROM jr_p p WHERE p.k = h.k)', true),
	-- keys no p row has (3001..4000) are all returned, the NULL key too
	('SELECT h.k, h.t FROM jr_h h WHERE (h.g > 295 OR h.k IS NULL) AND NOT EXISTS (SELECT 1 FROM jr_p p WHERE p.k = h.k)', true),
	-- another condition on p: only the rows that pass it count as matches
	('SELECT h.k FROM jr_h h WHERE h.g < 30 AND NOT EXISTS (SELECT 1 FROM jr_p p WHERE p.k = h.k AND p.a = 3)', true),
	-- a semi join hashed on h (a right semi join on 18, an inner join over
	-- p's distinct keys before)
	('SELECT h.k, h.t FROM jr_h h WHERE h.g BETWEEN 295 AND 305 AND EXISTS (SELECT 1 FROM jr_p p WHERE p.k = h.k)', false)
	) v(q, want_right), check_query(v.q, v.want_right) c;

-- a parallel right anti join (shared hash table): filtered in every
-- participant
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET enable_parallel_hash = on;
SELECT c.* FROM check_query('SELECT count(*), sum(h.k) FROM jr_h h WHERE (h.g < 40 OR h.g > 390) AND NOT EXISTS (SELECT 1 FROM jr_p p WHERE p.k = h.k)', true) c;
SELECT count(*), sum(h.k) FROM jr_h h WHERE (h.g < 40 OR h.g > 390) AND NOT EXISTS (SELECT 1 FROM jr_p p WHERE p.k = h.k);
SELECT count(*), sum(h.k) FROM jr_hh h WHERE (h.g < 40 OR h.g > 390) AND NOT EXISTS (SELECT 1 FROM jr_ph p WHERE p.k = h.k);
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET enable_parallel_hash;
SET max_parallel_workers_per_gather = 0;

-- rescans that build another hash table (the parameter is on the hash
-- side): the filter is rebuilt each time
SELECT g.x, (SELECT count(*) FROM jr_h h WHERE h.g = g.x AND NOT EXISTS (SELECT 1 FROM jr_p p WHERE p.k = h.k))
	FROM (VALUES (1), (299), (300), (350)) g(x);
SELECT g.x, (SELECT count(*) FROM jr_hh h WHERE h.g = g.x AND NOT EXISTS (SELECT 1 FROM jr_ph p WHERE p.k = h.k))
	FROM (VALUES (1), (299), (300), (350)) g(x);

DROP FUNCTION check_query(text, boolean);
DROP TABLE jr_p, jr_h, jr_ph, jr_hh;
