-- Emptied heap pages give their space back.  UPDATE puts new row versions
-- on heap pages (delta pages) inside the table; compaction moves them into
-- row groups and VACUUM prunes them, which leaves the pages empty.  A
-- VACUUM then retires each empty delta page, and a later one (once no
-- snapshot from before is left) frees it: new row groups, directory pages
-- and heap tuples take those pages instead of extending the file.  Every
-- step is compared with a heap table that gets the same statements, and
-- checked by colstore.verify.
SET colstore.auto_compaction = off;
-- the padding compresses to almost nothing in row groups, but makes heap
-- tuples wide: the heap pages an UPDATE fills far outnumber the pages of
-- the row groups
CREATE TABLE dp (id int PRIMARY KEY, v int, pad text) USING colstore
	WITH (row_group_size = 10000, autovacuum_enabled = false);
CREATE TABLE dph (id int PRIMARY KEY, v int, pad text) WITH (autovacuum_enabled = false);
CREATE INDEX dp_v ON dp (v);
CREATE INDEX dph_v ON dph (v);
INSERT INTO dp SELECT i, i % 97, repeat('x', 200) FROM generate_series(1, 40000) i;
INSERT INTO dph SELECT * FROM dp;

CREATE FUNCTION same_rows() RETURNS TABLE (path text, same bool) LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	RETURN QUERY SELECT 'seq', NOT EXISTS ((TABLE dp EXCEPT ALL TABLE dph) UNION ALL (TABLE dph EXCEPT ALL TABLE dp));
	RETURN QUERY SELECT 'aggregate', (SELECT (count(*), sum(v), sum(length(pad))) FROM dp) IS NOT DISTINCT FROM (SELECT (count(*), sum(v), sum(length(pad))) FROM dph);
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = on;
	RETURN QUERY SELECT 'index', (SELECT array_agg(v ORDER BY id) FROM dp WHERE id BETWEEN -1000 AND 1000000) IS NOT DISTINCT FROM (SELECT array_agg(v ORDER BY id) FROM dph WHERE id BETWEEN -1000 AND 1000000);
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = on;
	RETURN QUERY SELECT 'bitmap', (SELECT (count(*), sum(id::bigint)) FROM dp WHERE v = 5) IS NOT DISTINCT FROM (SELECT (count(*), sum(id::bigint)) FROM dph WHERE v = 5);
END $$;
-- VACUUM frees what it retired once no snapshot from before can be left:
-- wait until no other backend of this database holds one, and use an xid
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql
CREATE FUNCTION pages() RETURNS bigint LANGUAGE sql AS $$
	SELECT pg_relation_size('dp') / current_setting('block_size')::bigint
$$;
CREATE TEMP TABLE sizes (step text PRIMARY KEY, pages bigint);
INSERT INTO sizes VALUES ('loaded', pages());

-- 1. Half the rows updated: their new versions fill hundreds of heap pages
UPDATE dp SET v = v + 1 WHERE id % 2 = 0;
UPDATE dph SET v = v + 1 WHERE id % 2 = 0;
INSERT INTO sizes VALUES ('updated', pages());
SELECT (SELECT pages FROM sizes WHERE step = 'updated') >
	(SELECT pages FROM sizes WHERE step = 'loaded') + 300 AS heap_pages_written;
SELECT * FROM same_rows();

-- compaction moves them into row groups (written after the heap pages, at
-- the end of the file); VACUUM prunes them and frees the old groups, the
-- next one retires the emptied heap pages, the one after frees them
SELECT colstore.compact('dp') > 0 AS compacted;
SELECT settle();
VACUUM (TRUNCATE false) dp;
SELECT settle();
VACUUM (TRUNCATE false) dp;
SELECT * FROM same_rows();
SELECT colstore.verify('dp');
SELECT settle();
VACUUM (TRUNCATE false) dp;
SELECT * FROM same_rows();
SELECT colstore.verify('dp');
INSERT INTO sizes VALUES ('freed', pages());

-- 2. The freed heap pages take new row groups: a load of well over a
-- hundred pages of poorly compressible rows does not grow the file (a
-- directory page or two may be added).  Before heap pages were retired,
-- registered empty heap pages were refused and the file grew by the load.
ALTER TABLE dp ADD COLUMN t text;
ALTER TABLE dph ADD COLUMN t text;
INSERT INTO dp SELECT i, i % 97, '', md5(i::text) || md5((-i)::text) FROM generate_series(100001, 130000) i;
INSERT INTO dph SELECT i, i % 97, '', md5(i::text) || md5((-i)::text) FROM generate_series(100001, 130000) i;
INSERT INTO sizes VALUES ('reloaded', pages());
SELECT (SELECT pages FROM sizes WHERE step = 'reloaded') <=
	(SELECT pages FROM sizes WHERE step = 'freed') + 2 AS reload_did_not_grow;
SELECT * FROM same_rows();
SELECT (SELECT array_agg(t ORDER BY id) FROM dp WHERE id > 129900) =
	(SELECT array_agg(t ORDER BY id) FROM dph WHERE id > 129900) AS loaded_values_same;
SELECT colstore.verify('dp');

-- 3. Heap tuples take freed heap pages too (registered anew, with new
-- pseudo-blocks): small inserts, updates and deletes, then another round
-- of compaction and VACUUMs; the file stays within its size
INSERT INTO dp VALUES (-1, 1, 'small', 'a'), (-2, 2, 'small', 'b');
INSERT INTO dph VALUES (-1, 1, 'small', 'a'), (-2, 2, 'small', 'b');
UPDATE dp SET v = v + 1 WHERE id % 10 = 3;
UPDATE dph SET v = v + 1 WHERE id % 10 = 3;
DELETE FROM dp WHERE id % 10 = 7;
DELETE FROM dph WHERE id % 10 = 7;
SELECT * FROM same_rows();
SELECT colstore.verify('dp');
SELECT pages() <= (SELECT pages FROM sizes WHERE step = $$reloaded$$) + 2 AS heap_reused_freed_pages;
SELECT colstore.compact('dp') > 0 AS compacted;
SELECT settle();
VACUUM (TRUNCATE false) dp;
SELECT settle();
VACUUM (TRUNCATE false) dp;
SELECT settle();
VACUUM (TRUNCATE false) dp;
SELECT * FROM same_rows();
SELECT colstore.verify('dp');
SELECT pages() <= (SELECT pages FROM sizes WHERE step = 'reloaded') + 4 AS second_round_within_size;

-- 4. Truncation gives back emptied heap pages that end the file, retired
-- ones too (under its lock nobody reads them): small inserts put rows on
-- heap pages after the row groups; deleted and vacuumed, the pages are
-- retired, then cut off before they are freed; the next VACUUM frees their
-- entries (pages gone), and the table works on
CREATE TABLE dt (id int PRIMARY KEY, v int, pad text) USING colstore
	WITH (row_group_size = 10000, autovacuum_enabled = false);
INSERT INTO dt SELECT i, i, repeat('y', 300) FROM generate_series(1, 10000) i;
INSERT INTO sizes VALUES ('dt loaded', pg_relation_size('dt') / 8192);
DO $$ BEGIN FOR i IN 10001 .. 12000 LOOP INSERT INTO dt VALUES (i, i, repeat('y', 300)); END LOOP; END $$;
SELECT pg_relation_size('dt') / 8192 > (SELECT pages FROM sizes WHERE step = 'dt loaded') + 50 AS heap_pages_added;
DELETE FROM dt WHERE id > 10000 AND id % 500 <> 0;
SELECT colstore.compact('dt') > 0 AS compacted;
SELECT settle();
VACUUM (TRUNCATE false) dt;
VACUUM dt;
SELECT pg_relation_size('dt') / 8192 <= (SELECT pages FROM sizes WHERE step = 'dt loaded') + 2 AS dt_back_near_loaded;
SELECT count(*), sum(v) FROM dt;
SELECT settle();
VACUUM dt;
INSERT INTO dt VALUES (20001, 1, 'a'), (20002, 2, 'b');
UPDATE dt SET v = -v WHERE id % 1000 = 0;
SELECT count(*), sum(v) FROM dt;
SET enable_seqscan = off;
SELECT count(*), sum(v) FROM dt WHERE id > 9990;
RESET enable_seqscan;
SELECT colstore.verify('dt');

DROP TABLE dp, dph, dt;
DROP FUNCTION same_rows(), settle(), pages();
