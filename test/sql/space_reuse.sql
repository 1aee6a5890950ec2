-- Freed space is reused and given back.  The pages of row groups VACUUM
-- freed take new row groups (and directory and promotion map pages) before
-- the file is extended, so loading a table again after most of it was
-- deleted does not grow it; and VACUUM truncates the run of unreferenced
-- pages that ends the file, as heap's does, unless VACUUM (TRUNCATE false)
-- or the vacuum_truncate option says not to.  Every step is compared with
-- a heap table that gets the same statements, and checked by
-- colstore.verify.
SET colstore.auto_compaction = off;
CREATE TABLE sr (id int PRIMARY KEY, v int, t text) USING colstore
	WITH (row_group_size = 10000, autovacuum_enabled = false);
CREATE TABLE srh (id int PRIMARY KEY, v int, t text) WITH (autovacuum_enabled = false);
CREATE INDEX sr_v ON sr (v);
CREATE INDEX srh_v ON srh (v);
-- md5 text compresses poorly: each group takes dozens of pages
INSERT INTO sr SELECT i, i % 97, md5(i::text) FROM generate_series(1, 40000) i;
INSERT INTO srh SELECT * FROM sr;

CREATE FUNCTION same_rows() RETURNS TABLE (path text, same bool) LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	RETURN QUERY SELECT 'seq', NOT EXISTS ((TABLE sr EXCEPT ALL TABLE srh) UNION ALL (TABLE srh EXCEPT ALL TABLE sr));
	RETURN QUERY SELECT 'aggregate', (SELECT (count(*), sum(v), max(t)) FROM sr) IS NOT DISTINCT FROM (SELECT (count(*), sum(v), max(t)) FROM srh);
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = on;
	RETURN QUERY SELECT 'index', (SELECT array_agg(t ORDER BY id) FROM sr WHERE id BETWEEN 1 AND 100000) IS NOT DISTINCT FROM (SELECT array_agg(t ORDER BY id) FROM srh WHERE id BETWEEN 1 AND 100000);
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = on;
	RETURN QUERY SELECT 'bitmap', (SELECT sum(id::bigint) FROM sr WHERE v = 5) IS NOT DISTINCT FROM (SELECT sum(id::bigint) FROM srh WHERE v = 5);
END $$;
-- VACUUM frees a retired group once no snapshot from before can be left:
-- wait until no other backend of this database holds one, and use an xid
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql
CREATE FUNCTION pages() RETURNS bigint LANGUAGE sql AS $$
	SELECT pg_relation_size('sr') / current_setting('block_size')::bigint
$$;
CREATE FUNCTION states() RETURNS TABLE (state text, n bigint) LANGUAGE sql AS $$
	SELECT state, count(*) FROM colstore.row_groups('sr') GROUP BY state ORDER BY state
$$;
CREATE TEMP TABLE sizes (step text PRIMARY KEY, pages bigint);
INSERT INTO sizes VALUES ('loaded', pages());

-- 1. Reuse.  Three groups wholly deleted, the fourth mostly: compaction
-- moves the fourth's live rows out, and two VACUUMs free all four.  No
-- truncation here, so that only reuse is measured.
DELETE FROM sr WHERE id <= 30000 OR id % 10 <> 0;
DELETE FROM srh WHERE id <= 30000 OR id % 10 <> 0;
VACUUM (TRUNCATE false) sr;
SELECT colstore.compact('sr');
SELECT settle();
VACUUM (TRUNCATE false) sr;
SELECT settle();
VACUUM (TRUNCATE false) sr;
SELECT * FROM states();
SELECT * FROM same_rows();
SELECT colstore.verify('sr');
INSERT INTO sizes VALUES ('freed', pages());

-- load three groups' worth again: they fit in the freed pages (a directory
-- page or two may be added)
INSERT INTO sr SELECT i, i % 97, md5(i::text) FROM generate_series(100001, 130000) i;
INSERT INTO srh SELECT i, i % 97, md5(i::text) FROM generate_series(100001, 130000) i;
INSERT INTO sizes VALUES ('reloaded', pages());
SELECT (SELECT pages FROM sizes WHERE step = 'reloaded') <=
	(SELECT pages FROM sizes WHERE step = 'freed') + 2 AS reload_did_not_grow;
SELECT * FROM states();
SELECT * FROM same_rows();
SELECT colstore.verify('sr');

-- changes after reuse: updates, deletes, small inserts (heap tuples), and a
-- promotion map on a reused group
UPDATE sr SET v = v + 1 WHERE id BETWEEN 100001 AND 100500;
UPDATE srh SET v = v + 1 WHERE id BETWEEN 100001 AND 100500;
DELETE FROM sr WHERE id BETWEEN 110001 AND 110100;
DELETE FROM srh WHERE id BETWEEN 110001 AND 110100;
INSERT INTO sr VALUES (-1, 1, 'small'), (-2, 2, 'small');
INSERT INTO srh VALUES (-1, 1, 'small'), (-2, 2, 'small');
SELECT * FROM same_rows();
SELECT colstore.verify('sr');


-- 2. Truncation, on a table of its own.  Everything deleted and freed,
-- without truncation first.
CREATE TABLE st (id int PRIMARY KEY, v int, t text) USING colstore
	WITH (row_group_size = 10000, autovacuum_enabled = false);
INSERT INTO st SELECT i, i % 97, md5(i::text) FROM generate_series(1, 40000) i;
DELETE FROM st;
VACUUM (TRUNCATE false) st;
SELECT settle();
VACUUM (TRUNCATE false) st;
SELECT state, count(*) FROM colstore.row_groups('st') GROUP BY state;
INSERT INTO sizes VALUES ('st all freed', (pg_relation_size('st') / current_setting('block_size')::bigint));
-- the table option says no as well
ALTER TABLE st SET (vacuum_truncate = false);
VACUUM st;
SELECT (pg_relation_size('st') / current_setting('block_size')::bigint) = (SELECT pages FROM sizes WHERE step = 'st all freed') AS option_kept_size;
ALTER TABLE st RESET (vacuum_truncate);
VACUUM st;
INSERT INTO sizes VALUES ('st truncated', (pg_relation_size('st') / current_setting('block_size')::bigint));
SELECT (SELECT pages FROM sizes WHERE step = 'st truncated') <
	(SELECT pages FROM sizes WHERE step = 'st all freed') AS truncated;
SELECT count(*) FROM st;
SELECT colstore.verify('st');
-- nothing more to give back: the size stays
VACUUM st;
SELECT (pg_relation_size('st') / current_setting('block_size')::bigint) = (SELECT pages FROM sizes WHERE step = 'st truncated') AS nothing_more;

-- the table works on: bulk and small inserts, updates, deletes, compared
-- with a heap twin
CREATE TABLE sth (id int PRIMARY KEY, v int, t text) WITH (autovacuum_enabled = false);
INSERT INTO st SELECT i, i % 97, md5(i::text) FROM generate_series(200001, 215000) i;
INSERT INTO sth SELECT i, i % 97, md5(i::text) FROM generate_series(200001, 215000) i;
INSERT INTO st VALUES (-3, 3, 'small');
INSERT INTO sth VALUES (-3, 3, 'small');
UPDATE st SET t = 'updated' WHERE id % 1000 = 0;
UPDATE sth SET t = 'updated' WHERE id % 1000 = 0;
DELETE FROM st WHERE id % 777 = 0;
DELETE FROM sth WHERE id % 777 = 0;
VACUUM st;
SELECT settle();
VACUUM st;
SELECT NOT EXISTS ((TABLE st EXCEPT ALL TABLE sth) UNION ALL (TABLE sth EXCEPT ALL TABLE st)) AS st_same;
SET enable_seqscan = off;
SELECT (SELECT array_agg(t ORDER BY id) FROM st WHERE id < 0 OR id BETWEEN 200001 AND 200999) =
	(SELECT array_agg(t ORDER BY id) FROM sth WHERE id < 0 OR id BETWEEN 200001 AND 200999) AS st_index_same;
RESET enable_seqscan;
SELECT colstore.verify('st');

-- 3. TEMP and UNLOGGED tables (local buffers; no WAL) reuse and truncate
-- alike
CREATE TEMP TABLE tt (id int PRIMARY KEY, v int, t text) USING colstore
	WITH (row_group_size = 10000, autovacuum_enabled = false);
CREATE UNLOGGED TABLE ut (id int PRIMARY KEY, v int, t text) USING colstore
	WITH (row_group_size = 10000, autovacuum_enabled = false);
INSERT INTO tt SELECT i, i % 97, md5(i::text) FROM generate_series(1, 40000) i;
INSERT INTO ut SELECT * FROM tt;
DELETE FROM tt WHERE id <= 30000;
DELETE FROM ut WHERE id <= 30000;
VACUUM (TRUNCATE false) tt, ut;
SELECT settle();
VACUUM (TRUNCATE false) tt, ut;
INSERT INTO sizes SELECT 'tt freed', pg_relation_size('tt') UNION ALL SELECT 'ut freed', pg_relation_size('ut');
INSERT INTO tt SELECT i, i % 97, md5(i::text) FROM generate_series(100001, 130000) i;
INSERT INTO ut SELECT * FROM tt WHERE id > 100000;
SELECT pg_relation_size('tt') <= (SELECT pages FROM sizes WHERE step = 'tt freed') + 2 * 8192 AS tt_reused,
	pg_relation_size('ut') <= (SELECT pages FROM sizes WHERE step = 'ut freed') + 2 * 8192 AS ut_reused;
DELETE FROM tt;
DELETE FROM ut;
VACUUM (TRUNCATE false) tt, ut;
SELECT settle();
VACUUM (TRUNCATE false) tt, ut;
INSERT INTO sizes SELECT 'tt all freed', pg_relation_size('tt') UNION ALL SELECT 'ut all freed', pg_relation_size('ut');
VACUUM tt, ut;
SELECT pg_relation_size('tt') < (SELECT pages FROM sizes WHERE step = 'tt all freed') AS tt_truncated,
	pg_relation_size('ut') < (SELECT pages FROM sizes WHERE step = 'ut all freed') AS ut_truncated;
INSERT INTO tt SELECT i, i % 97, md5(i::text) FROM generate_series(1, 12000) i;
INSERT INTO ut SELECT * FROM tt;
UPDATE tt SET v = -v WHERE id % 100 = 0;
UPDATE ut SET v = -v WHERE id % 100 = 0;
SELECT (SELECT (count(*), sum(v)) FROM tt) = (SELECT (count(*), sum(v)) FROM ut) AS same,
	(SELECT sum(v) FROM tt) AS sum_v;
SELECT colstore.verify('tt'), colstore.verify('ut');
DROP TABLE tt, ut;

DROP TABLE sr, srh, st, sth;
DROP FUNCTION same_rows(), settle(), pages(), states();
