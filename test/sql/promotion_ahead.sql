-- An UPDATE promotes the rows it changes in batches that double up to 256
-- rows (mvcc/row_state.c); a batch stops at the first row the scan feeding
-- the UPDATE will not return (its batch filter removed it), so the UPDATE of
-- a key range that ends inside a row group gives no row past the range a
-- copy.  Such a copy is live and frozen, nothing frees or moves it, and it
-- sits on the last heap pages the UPDATE filled, at the end of the file:
-- with it, VACUUM and compaction could never give the file back its size
-- (bench/write_patterns.sh part 4, scaled down).  Every step is compared
-- with a heap twin and checked by colstore.verify.
SET colstore.auto_compaction = off;
CREATE TABLE pa (id bigint PRIMARY KEY, v int, t text) USING colstore
	WITH (autovacuum_enabled = false);
CREATE TABLE pah (id bigint PRIMARY KEY, v int, t text) WITH (autovacuum_enabled = false);
INSERT INTO pa SELECT i, 1, 'v' || (i % 1000) FROM generate_series(1, 300000) i;
INSERT INTO pah SELECT * FROM pa;
VACUUM ANALYZE pa;
VACUUM ANALYZE pah;

CREATE FUNCTION same_rows() RETURNS TABLE (path text, same bool) LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	RETURN QUERY SELECT 'seq', NOT EXISTS ((TABLE pa EXCEPT ALL TABLE pah) UNION ALL (TABLE pah EXCEPT ALL TABLE pa));
	RETURN QUERY SELECT 'range', (SELECT (count(*), sum(v), max(t)) FROM pa WHERE id BETWEEN 129000 AND 131000) IS NOT DISTINCT FROM (SELECT (count(*), sum(v), max(t)) FROM pah WHERE id BETWEEN 129000 AND 131000);
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = on;
	RETURN QUERY SELECT 'index', (SELECT array_agg(v ORDER BY id) FROM pa WHERE id BETWEEN 129900 AND 130400) IS NOT DISTINCT FROM (SELECT array_agg(v ORDER BY id) FROM pah WHERE id BETWEEN 129900 AND 130400);
END $$;
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql
CREATE FUNCTION pages() RETURNS bigint LANGUAGE sql AS $$
	SELECT pg_relation_size('pa') / current_setting('block_size')::bigint
$$;
CREATE TEMP TABLE sizes (step text PRIMARY KEY, pages bigint);
INSERT INTO sizes VALUES ('loaded', pages());

-- 1. The UPDATE, through the batch filter: rows 1 .. 130,000 end 7,120 rows
-- into the third row group (122,880 rows each), inside its first chunk
EXPLAIN (COSTS OFF) UPDATE pa SET v = 2 WHERE id <= 130000;
UPDATE pa SET v = 2 WHERE id <= 130000;
UPDATE pah SET v = 2 WHERE id <= 130000;
INSERT INTO sizes VALUES ('updated', pages());
SELECT (SELECT pages FROM sizes WHERE step = 'updated') >
	(SELECT pages FROM sizes WHERE step = 'loaded') + 100 AS update_grew_the_file;
SELECT * FROM same_rows();

-- 2. VACUUM (the updated rows' bits), compaction (the new versions into a
-- row group), VACUUMs until the heap pages are freed and the end moves down
SELECT settle();
VACUUM pa;
SELECT colstore.compact('pa') > 0 AS compacted;
SELECT settle();
VACUUM pa;
SELECT settle();
VACUUM pa;
SELECT settle();
VACUUM pa;
VACUUM pah;
INSERT INTO sizes VALUES ('settled', pages());
SELECT * FROM same_rows();
SELECT colstore.verify('pa') > 0 AS verified;
-- back within 10 pages of the size before the UPDATE (10 pages; 16 with
-- the compaction's row groups and the updated group's row state).  A copy
-- of a row past 130,000 would keep its heap page, near the end of the file,
-- and the file near its size after the UPDATE (1,757 pages); the entries of
-- the 1,700 freed heap pages, if the directory kept them, 15 more pages
-- (VACUUM rewrites it without them: storage/directory.c)
SELECT (SELECT pages FROM sizes WHERE step = 'settled') <=
	(SELECT pages FROM sizes WHERE step = 'loaded') + 10 AS back_near_loaded;

-- 3. Row 130,001 has no copy: its plain DELETE is logged in its group's
-- delete log, whose pages are made now (a row with a copy would be
-- deleted on its copy instead, making no page)
CREATE TEMP TABLE map_pages AS SELECT sum(map_pages) AS before FROM colstore.row_group_deletes('pa');
DELETE FROM pa WHERE id = 130001;
DELETE FROM pah WHERE id = 130001;
SELECT (SELECT sum(map_pages) FROM colstore.row_group_deletes('pa')) > before AS logged_without_copy
	FROM map_pages;
SELECT * FROM same_rows();

-- 4. An index scan cannot tell which rows it will return next, nor a plain
-- sequential scan under an executor qual which of them the qual keeps:
-- batches there are as before (bounded), and the rows are right
SET colstore.enable_custom_scan = off;
EXPLAIN (COSTS OFF) UPDATE pa SET v = 3 WHERE id BETWEEN 200000 AND 210000;
UPDATE pa SET v = 3 WHERE id BETWEEN 200000 AND 210000;
UPDATE pah SET v = 3 WHERE id BETWEEN 200000 AND 210000;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) UPDATE pa SET v = 4 WHERE id BETWEEN 220000 AND 230000 AND id % 3 <> 0;
UPDATE pa SET v = 4 WHERE id BETWEEN 220000 AND 230000 AND id % 3 <> 0;
UPDATE pah SET v = 4 WHERE id BETWEEN 220000 AND 230000 AND id % 3 <> 0;
RESET colstore.enable_custom_scan;
-- and through the batch filter, rows it removes inside the range end the
-- batches there (every third row)
EXPLAIN (COSTS OFF) UPDATE pa SET v = 5 WHERE id BETWEEN 240000 AND 250000 AND id % 3 <> 0;
UPDATE pa SET v = 5 WHERE id BETWEEN 240000 AND 250000 AND id % 3 <> 0;
UPDATE pah SET v = 5 WHERE id BETWEEN 240000 AND 250000 AND id % 3 <> 0;
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT * FROM same_rows();
SELECT colstore.verify('pa') > 0 AS verified;

DROP TABLE pa, pah;
DROP FUNCTION same_rows(), settle(), pages();
RESET colstore.auto_compaction;
