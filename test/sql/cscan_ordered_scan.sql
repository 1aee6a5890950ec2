-- Ordered ColstoreScan: a table that holds a column in ascending order (every
-- chunk ascending, chunks not overlapping) gives ORDER BY and merge joins on
-- that column without a Sort, and a merge join's inner side mark and
-- restore.  Rows may arrive after planning, so the executor checks its own
-- row groups again and sorts if they are no longer in order ("Run-Time
-- Sort").  Every result must be heap's, in heap's order where the query
-- fixes one.
SET max_parallel_workers_per_gather = 0;
SET colstore.enable_custom_agg = off;
-- (rows that arrive after planning come as row groups: the first heap page
-- of a small INSERT would have the cached plans made again)
SET colstore.delta_insert_rows = 0;
CREATE TABLE os (id bigint, g int, t text, n numeric) USING colstore
	WITH (row_group_size = 5000, chunk_size = 1000);
INSERT INTO os SELECT i, i / 3, 't' || (i % 17), i % 100 FROM generate_series(1, 20000) i;
ANALYZE os;
CREATE TABLE oh USING heap AS SELECT * FROM os;
ANALYZE oh;

-- ORDER BY the ordered column: no Sort
EXPLAIN (COSTS OFF) SELECT id, t FROM os ORDER BY id LIMIT 5;
SELECT id, t FROM os ORDER BY id LIMIT 5;
-- an unordered column still needs one
EXPLAIN (COSTS OFF) SELECT id, t FROM os ORDER BY t LIMIT 5;
-- a plan that reads ctid gets no ordered scan (sorted rows carry no TID)
EXPLAIN (COSTS OFF) SELECT ctid, id FROM os ORDER BY id LIMIT 5;

-- the same rows in the same order as heap: window of 300 rows in the middle,
-- with a batch filter too
CREATE FUNCTION same_order(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	result boolean;
BEGIN
	EXECUTE format('SELECT (SELECT array_agg(x::text) FROM (%s) x) IS NOT DISTINCT FROM
						   (SELECT array_agg(y::text) FROM (%s) y)',
				   q, replace(q, 'FROM os', 'FROM oh'))
		INTO result;
	RETURN result;
END $$;
SELECT same_order('SELECT id, g, t FROM os ORDER BY id LIMIT 300 OFFSET 9000');
SELECT same_order('SELECT id, n FROM os WHERE n < 5 ORDER BY id LIMIT 300 OFFSET 200');
SELECT same_order('SELECT g, id FROM os ORDER BY g, id LIMIT 300 OFFSET 4000');

-- merge joins: unique keys, and keys with duplicates on both sides (g: three
-- rows each, groups crossing chunk boundaries), where the inner side is
-- restored to its mark; also with a batch filter on the inner side, which
-- must be applied again after a restore (no Materialize: the scan's own
-- mark and restore are used)
SET enable_hashjoin = off;
SET enable_material = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM os a JOIN os b ON a.id = b.id;
EXPLAIN (COSTS OFF) SELECT count(*), sum(a.id * b.id) FROM os a JOIN os b ON a.g = b.g;
EXPLAIN (COSTS OFF)
	SELECT count(*), sum(a.id - b.id) FROM os a JOIN os b ON a.g = b.g WHERE b.n <> 7;
CREATE FUNCTION same_result(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	result boolean;
BEGIN
	EXECUTE format('SELECT NOT EXISTS ((%s) EXCEPT ALL (%s)) AND NOT EXISTS ((%s) EXCEPT ALL (%s))',
				   q, replace(q, 'FROM os', 'FROM oh'), replace(q, 'FROM os', 'FROM oh'), q)
		INTO result;
	RETURN result;
END $$;
SELECT count(*) FROM os a JOIN os b ON a.id = b.id;
SELECT count(*), sum(a.id * b.id) FROM os a JOIN os b ON a.g = b.g;
SELECT count(*), sum(a.id * b.id) FROM oh a JOIN oh b ON a.g = b.g;
SELECT count(*), sum(a.id - b.id) FROM os a JOIN os b ON a.g = b.g WHERE b.n <> 7;
SELECT count(*), sum(a.id - b.id) FROM oh a JOIN oh b ON a.g = b.g WHERE b.n <> 7;
SELECT same_result('SELECT a.id, b.id, b.t FROM os a JOIN os b ON a.g = b.g WHERE a.n < 50 AND b.n > 20');
RESET enable_hashjoin;
RESET enable_material;

-- rescans with a new parameter: a correlated subquery over the ordered scan
EXPLAIN (COSTS OFF)
	SELECT x, (SELECT id FROM os WHERE id > x ORDER BY id LIMIT 1) AS next_id
	FROM (VALUES (-10), (9), (19998), (20000)) v(x);
SELECT x, (SELECT id FROM os WHERE id > x ORDER BY id LIMIT 1) AS next_id
	FROM (VALUES (-10), (9), (19998), (20000)) v(x);
SELECT x, (SELECT id FROM oh WHERE id > x ORDER BY id LIMIT 1) AS next_id
	FROM (VALUES (-10), (9), (19998), (20000)) v(x);

-- rows that arrive after planning, out of order: a cached plan still returns
-- them in order (the scan sorts, and says so)
SET plan_cache_mode = force_generic_plan;
SET enable_hashjoin = off;
SET enable_material = off;
PREPARE ordered_ids AS SELECT id FROM os ORDER BY id;
PREPARE merge_on_g AS SELECT count(*), sum(a.id * b.id) FROM os a JOIN os b ON a.g = b.g;
-- (a generic plan is made at the first EXECUTE)
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) EXECUTE ordered_ids;
EXECUTE merge_on_g;
INSERT INTO os VALUES (0, 0, 'early', 1), (-5, -2, 'earlier', 2), (10, 3, 'again', 3);
INSERT INTO oh VALUES (0, 0, 'early', 1), (-5, -2, 'earlier', 2), (10, 3, 'again', 3);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) EXECUTE ordered_ids;
CREATE TABLE fetched (ord serial, id bigint);
CREATE FUNCTION fetch_ordered_ids() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	r record;
BEGIN
	FOR r IN EXECUTE 'EXECUTE ordered_ids' LOOP
		INSERT INTO fetched (id) VALUES (r.id);
	END LOOP;
END $$;
SELECT fetch_ordered_ids();
SELECT (SELECT array_agg(id ORDER BY ord) FROM fetched) =
	   (SELECT array_agg(id ORDER BY id) FROM oh) AS same_order_as_heap;
-- a merge join whose inner side is sorted at run time restores there
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) EXECUTE merge_on_g;
EXECUTE merge_on_g;
SELECT count(*), sum(a.id * b.id) FROM oh a JOIN oh b ON a.g = b.g;
-- a changed row (a heap tuple of the table) is out of order as well
UPDATE os SET t = 'changed' WHERE id = 15000;
UPDATE oh SET t = 'changed' WHERE id = 15000;
EXECUTE merge_on_g;
TRUNCATE fetched;
SELECT fetch_ordered_ids();
SELECT (SELECT array_agg(id ORDER BY ord) FROM fetched) =
	   (SELECT array_agg(id ORDER BY id) FROM oh) AS same_order_as_heap;
RESET plan_cache_mode;
RESET enable_hashjoin;
RESET enable_material;
DEALLOCATE ordered_ids;
DEALLOCATE merge_on_g;
-- planned now, the table is not in order any more: a Sort again
EXPLAIN (COSTS OFF) SELECT id FROM os ORDER BY id LIMIT 5;

-- NULLs: a column with one is not in order
CREATE TABLE on_nulls (id bigint) USING colstore WITH (chunk_size = 1000);
INSERT INTO on_nulls SELECT CASE WHEN i <> 5000 THEN i END FROM generate_series(1, 20000) i;
ANALYZE on_nulls;
EXPLAIN (COSTS OFF) SELECT id FROM on_nulls ORDER BY id LIMIT 5;
DROP TABLE on_nulls;

-- parallel: each participant's rows are in order, Gather Merge merges them
CREATE TABLE op (id bigint, v int) USING colstore WITH (row_group_size = 2000, chunk_size = 1000);
INSERT INTO op SELECT i, i % 7 FROM generate_series(1, 30000) i;
ANALYZE op;
CREATE TABLE oph USING heap AS SELECT * FROM op;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET cpu_tuple_cost = 0.1;
EXPLAIN (COSTS OFF) SELECT id, v FROM op WHERE v < 6 ORDER BY id;
SELECT (SELECT array_agg(id ORDER BY ord) FROM (SELECT id, row_number() OVER () AS ord
		FROM (SELECT id FROM op WHERE v < 6 ORDER BY id) s) x) =
	   (SELECT array_agg(id ORDER BY id) FROM oph WHERE v < 6) AS same_order_as_heap;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET cpu_tuple_cost;

-- rows appended in order keep the table ordered for the planner (it checks
-- the new row groups against the largest value it saw), rows appended out
-- of order do not
EXPLAIN (COSTS OFF) SELECT id FROM op ORDER BY id LIMIT 1;
INSERT INTO op SELECT i, i % 7 FROM generate_series(30001, 31000) i;
EXPLAIN (COSTS OFF) SELECT id FROM op ORDER BY id LIMIT 1;
INSERT INTO op VALUES (30500, 0);
EXPLAIN (COSTS OFF) SELECT id FROM op ORDER BY id LIMIT 1;
DELETE FROM op WHERE id > 30000;
VACUUM FULL op;

-- a scroll cursor over the ordered scan moves backward (through a Material)
BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT id FROM op ORDER BY id;
FETCH 3 FROM c;
FETCH BACKWARD 2 FROM c;
FETCH ABSOLUTE 29999 FROM c;
COMMIT;

-- WHERE CURRENT OF on a row the scan sorted at run time: the row keeps its
-- TID through the sort (a cursor over a Sort would not be updatable, so
-- the cursor's cached plan must be the ordered scan)
CREATE TABLE oc (id bigint, t text) USING colstore WITH (chunk_size = 1000);
INSERT INTO oc SELECT i, 'x' FROM generate_series(1, 20000) i;
ANALYZE oc;
CREATE FUNCTION update_at_cursor(target bigint, change bool) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	c CURSOR FOR SELECT id FROM oc ORDER BY id;
	r record;
BEGIN
	OPEN c;
	LOOP
		FETCH c INTO r;
		EXIT WHEN NOT FOUND OR r.id = target;
	END LOOP;
	IF change THEN
		UPDATE oc SET t = 'via cursor' WHERE CURRENT OF c;
	END IF;
	CLOSE c;
	RETURN (SELECT string_agg(id || ':' || t, ',' ORDER BY id) FROM oc WHERE t <> 'x');
END $$;
SET plan_cache_mode = force_generic_plan;
-- caches the ordered plan; then a row group arrives out of order
SELECT update_at_cursor(5, false);
INSERT INTO oc VALUES (-1, 'x'), (0, 'x');
SELECT update_at_cursor(-1, true);
-- the UPDATE put a row version on a heap page, so the table is no longer
-- ordered for the planner, which plans the cursor again: over a Sort, not
-- updatable, as on heap
SELECT update_at_cursor(7, true);
RESET plan_cache_mode;
DROP FUNCTION update_at_cursor(bigint, bool);
DROP TABLE oc;

-- heap tuples are read in no order: a table with one is not ordered for the
-- planner; once compaction has moved it into a row group and VACUUM has
-- emptied its heap page, ordered scans are back without VACUUM FULL
SET colstore.delta_insert_rows = 100;
SET colstore.auto_compaction = off;
CREATE TABLE ohp (id bigint, v int) USING colstore WITH (chunk_size = 1000);
INSERT INTO ohp SELECT i, i FROM generate_series(1, 5000) i;
ANALYZE ohp;
INSERT INTO ohp VALUES (5001, 1);
EXPLAIN (COSTS OFF) SELECT id FROM ohp ORDER BY id;
-- (no other backend's snapshot, an autovacuum's, may keep the tuple from
-- moving)
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql
SELECT settle();
DROP FUNCTION settle();
SELECT colstore.compact('ohp');
VACUUM ohp;
EXPLAIN (COSTS OFF) SELECT id FROM ohp ORDER BY id;
-- the ordered scan's rows, in the order it returns them (a window without
-- ORDER BY keeps its input's order)
SELECT count(*), bool_and(id = prev + 1) AS in_order
	FROM (SELECT id, lag(id, 1, 0::bigint) OVER () AS prev
		  FROM (SELECT id FROM ohp ORDER BY id) o) s;
-- a row that arrives on a heap page after planning: the executor sees the
-- page hold a tuple and sorts (or, if a new page made the plan be made
-- again, the plan sorts); either way the rows come in order
PREPARE ohp_ids AS SELECT id FROM ohp ORDER BY id LIMIT 3;
SET plan_cache_mode = force_generic_plan;
EXECUTE ohp_ids;
INSERT INTO ohp VALUES (-1, 0);
EXECUTE ohp_ids;
RESET plan_cache_mode;
DEALLOCATE ohp_ids;
DROP TABLE ohp;
RESET colstore.auto_compaction;
SET colstore.delta_insert_rows = 0;

-- partitions held in order: each gets an ordered scan, and the Append of
-- range partitions keeps their order
CREATE TABLE opart (id bigint, v varchar(10)) PARTITION BY RANGE (id);
CREATE TABLE opart1 PARTITION OF opart FOR VALUES FROM (0) TO (20000) USING colstore;
CREATE TABLE opart2 PARTITION OF opart FOR VALUES FROM (20000) TO (40000) USING colstore;
INSERT INTO opart SELECT i, 'v' || lpad(i::text, 6, '0') FROM generate_series(1, 39999) i;
ANALYZE opart;
EXPLAIN (COSTS OFF) SELECT id FROM opart ORDER BY id LIMIT 3;
SELECT id FROM opart ORDER BY id LIMIT 3;
-- a varchar column in order (its equivalence member is a relabeling)
EXPLAIN (COSTS OFF) SELECT v FROM opart1 ORDER BY v LIMIT 3;
SELECT v FROM opart1 ORDER BY v LIMIT 3;
DROP TABLE opart;

DROP TABLE op, oph, os, oh, fetched;
DROP FUNCTION same_order(text), same_result(text), fetch_ordered_ids();
