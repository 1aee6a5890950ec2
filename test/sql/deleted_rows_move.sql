-- VACUUM moves a row group's deleted-rows pages (its DELETED_ROOT page and
-- bitmap pages, made by VACUUM after the heap pages of the statement whose
-- rows they record) into freed pages lower down, so that truncation is not
-- stopped by them (storage/deleted_rows_move.c).  An UPDATE of 10,000 rows
-- of the last row group of a 600,000-row table (about a tenth of the group:
-- not rewritten) fills heap pages; the first VACUUM sets the updated rows'
-- bits on pages made after those heap pages, compaction writes the new
-- versions' row group after them, and once the heap pages are freed the
-- bitmap pages, the row group and the directory pages move down and the end
-- is cut.  Without the move the file keeps the size the UPDATE gave it.
-- Every step is compared with a heap twin and checked by colstore.verify.
SET colstore.auto_compaction = off;
CREATE TABLE dm (id int PRIMARY KEY, v int, t text) USING colstore
	WITH (autovacuum_enabled = false);
CREATE TABLE dmh (id int PRIMARY KEY, v int, t text) WITH (autovacuum_enabled = false);
CREATE INDEX dm_v ON dm (v);
CREATE INDEX dmh_v ON dmh (v);
INSERT INTO dm SELECT i, i % 97, md5(i::text) FROM generate_series(1, 600000) i;
INSERT INTO dmh SELECT * FROM dm;

CREATE FUNCTION same_rows() RETURNS TABLE (path text, same bool) LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	RETURN QUERY SELECT 'seq', NOT EXISTS ((TABLE dm EXCEPT ALL TABLE dmh) UNION ALL (TABLE dmh EXCEPT ALL TABLE dm));
	RETURN QUERY SELECT 'aggregate', (SELECT (count(*), sum(v), max(t)) FROM dm) IS NOT DISTINCT FROM (SELECT (count(*), sum(v), max(t)) FROM dmh);
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = on;
	RETURN QUERY SELECT 'index', (SELECT array_agg(v ORDER BY id) FROM dm WHERE id BETWEEN 585000 AND 600000) IS NOT DISTINCT FROM (SELECT array_agg(v ORDER BY id) FROM dmh WHERE id BETWEEN 585000 AND 600000);
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = on;
	RETURN QUERY SELECT 'bitmap', (SELECT sum(id::bigint) FROM dm WHERE v = 5) IS NOT DISTINCT FROM (SELECT sum(id::bigint) FROM dmh WHERE v = 5);
END $$;
-- VACUUM frees what it retired once no snapshot from before can be left:
-- wait until no other backend of this database holds one, and use an xid
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql
CREATE FUNCTION pages() RETURNS bigint LANGUAGE sql AS $$
	SELECT pg_relation_size('dm') / current_setting('block_size')::bigint
$$;
CREATE TEMP TABLE sizes (step text PRIMARY KEY, pages bigint);
INSERT INTO sizes VALUES ('loaded', pages());

-- 1. The UPDATE: copies and new versions on heap pages at the end
UPDATE dm SET v = v + 1000 WHERE id > 590000;
UPDATE dmh SET v = v + 1000 WHERE id > 590000;
INSERT INTO sizes VALUES ('updated', pages());
SELECT (SELECT pages FROM sizes WHERE step = 'updated') >
	(SELECT pages FROM sizes WHERE step = 'loaded') + 100 AS update_grew_the_file;
SELECT * FROM same_rows();

-- 2. VACUUM (the bits, on pages after the heap pages), compaction, VACUUMs
-- until the heap pages are freed and the end moves down
SELECT settle();
VACUUM dm;
SELECT colstore.compact('dm') > 0 AS compacted;
SELECT settle();
VACUUM dm;
SELECT settle();
VACUUM dm;
SELECT settle();
VACUUM dm;
SELECT settle();
VACUUM dm;
VACUUM dmh;
INSERT INTO sizes VALUES ('settled', pages());
SELECT * FROM same_rows();
SELECT colstore.verify('dm') > 0 AS verified;
-- the bitmap still says which rows are gone: the last group's 10,000
SELECT deleted_rows FROM colstore.row_group_deletes('dm');
-- back within 40 pages of the size before the UPDATE (the directory
-- keeps the freed heap pages' entries); without the move the bitmap pages
-- end the file and it stays larger than after the UPDATE
SELECT (SELECT pages FROM sizes WHERE step = 'settled') <=
	(SELECT pages FROM sizes WHERE step = 'loaded') + 40 AS back_near_loaded,
	(SELECT pages FROM sizes WHERE step = 'settled') <
	(SELECT pages FROM sizes WHERE step = 'updated') AS truncated;

-- 3. The moved pages keep working: more rows of the group deleted and
-- updated (new bits on the moved bitmap page, a delete log linked from the
-- moved DELETED_ROOT page), VACUUMs, every read path
DELETE FROM dm WHERE id > 580000 AND id % 7 = 0;
DELETE FROM dmh WHERE id > 580000 AND id % 7 = 0;
UPDATE dm SET v = v + 1 WHERE id BETWEEN 570000 AND 575000;
UPDATE dmh SET v = v + 1 WHERE id BETWEEN 570000 AND 575000;
SELECT * FROM same_rows();
SELECT settle();
VACUUM dm;
SELECT settle();
VACUUM dm;
SELECT settle();
VACUUM dm;
SELECT * FROM same_rows();
SELECT colstore.verify('dm') > 0 AS verified;
SELECT sum(deleted_rows) > 10000 AS more_bits FROM colstore.row_group_deletes('dm');

DROP TABLE dm, dmh;
DROP FUNCTION same_rows(), settle(), pages();
RESET colstore.auto_compaction;
