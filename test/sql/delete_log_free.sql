-- Freeing the delete log's pages (issue 23): once VACUUM has turned a
-- segment page's runs into deleted-rows bits and dropped them, the page
-- holds no run; VACUUM detaches it (its slot in the log's root cleared,
-- the page flagged and listed with a stamp in the group's DELETED_ROOT
-- page), and a VACUUM after the stamp gives it to the free space map, where
-- the next row groups take it.  Deletes after that make new segment pages.
-- Every read path must agree with a heap twin throughout, and the sizes
-- (pages of each group's delete state, the file) show the pages going
-- back and being reused.
SET colstore.auto_compaction = off;
CREATE TABLE lf (id int PRIMARY KEY, v int, pad text) USING colstore
	WITH (row_group_size = 20000, autovacuum_enabled = false);
CREATE TABLE lfh (id int PRIMARY KEY, v int, pad text) WITH (autovacuum_enabled = false);
CREATE INDEX lf_v ON lf (v);
CREATE INDEX lfh_v ON lfh (v);
INSERT INTO lf SELECT i, i % 89, 'p' || i FROM generate_series(1, 40000) i;
INSERT INTO lfh SELECT * FROM lf;
CREATE TEMP TABLE lf_sizes (step text, pages bigint, state_pages bigint);
CREATE FUNCTION lf_note(step text) RETURNS void LANGUAGE sql AS $$
	INSERT INTO lf_sizes SELECT step, pg_relation_size('lf') / 8192,
		(SELECT coalesce(sum(map_pages), 0) FROM colstore.row_group_deletes('lf'));
$$;
SELECT lf_note('loaded');

CREATE FUNCTION lf_same() RETURNS TABLE (path text, same bool) LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL colstore.enable_custom_scan = off;
	RETURN QUERY SELECT 'seq', NOT EXISTS ((TABLE lf EXCEPT ALL TABLE lfh) UNION ALL (TABLE lfh EXCEPT ALL TABLE lf));
	SET LOCAL colstore.enable_custom_scan = on;
	RETURN QUERY SELECT 'custom scan', (SELECT array_agg(id ORDER BY id) FROM lf WHERE v < 40) IS NOT DISTINCT FROM (SELECT array_agg(id ORDER BY id) FROM lfh WHERE v < 40);
	RETURN QUERY SELECT 'aggregate', (SELECT (count(*), sum(v), sum(id::bigint)) FROM lf) IS NOT DISTINCT FROM (SELECT (count(*), sum(v), sum(id::bigint)) FROM lfh);
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = on;
	RETURN QUERY SELECT 'index', (SELECT array_agg(v ORDER BY id) FROM lf WHERE id BETWEEN 0 AND 1000000) IS NOT DISTINCT FROM (SELECT array_agg(v ORDER BY id) FROM lfh WHERE id BETWEEN 0 AND 1000000);
	RETURN QUERY SELECT 'index point', (SELECT count(*) FROM generate_series(1, 40000, 37) g WHERE EXISTS (SELECT FROM lf WHERE id = g)) = (SELECT count(*) FROM generate_series(1, 40000, 37) g WHERE EXISTS (SELECT FROM lfh WHERE id = g));
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = on;
	RETURN QUERY SELECT 'bitmap', (SELECT (count(*), sum(id::bigint)) FROM lf WHERE v IN (3, 44, 88)) IS NOT DISTINCT FROM (SELECT (count(*), sum(id::bigint)) FROM lfh WHERE v IN (3, 44, 88));
END $$;

-- no other session's snapshot may hold the stamps back
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql

-- 1. A random 30% DELETE: through the log (no heap copy), two segment
-- pages per group.
DELETE FROM lf WHERE (hashint4(id) & 1023) < 307;
DELETE FROM lfh WHERE (hashint4(id) & 1023) < 307;
SELECT lf_note('deleted');
SELECT * FROM lf_same();
SELECT sum(deleted_rows) AS bitmapped FROM colstore.row_group_deletes('lf');

-- 2. VACUUM sets the bits, drops the runs and detaches the emptied segment
-- pages (still the group's, listed for freeing: the same page count)
VACUUM lf;
SELECT lf_note('vacuumed');
SELECT sum(deleted_rows) AS bitmapped FROM colstore.row_group_deletes('lf');
SELECT * FROM lf_same();

-- 3. a VACUUM after the stamp frees the four segment pages
SELECT settle();
VACUUM lf;
SELECT lf_note('freed');
SELECT * FROM lf_same();
SELECT s.step, s.pages - l.pages AS pages_added, s.state_pages
FROM lf_sizes s, lf_sizes l WHERE l.step = 'loaded' ORDER BY s.pages, s.state_pages DESC;

-- 4. a new row group takes the freed pages: the file grows by at least
-- three pages less than the group's stream needs (md5 text: it compresses
-- little)
INSERT INTO lf SELECT i, i % 89, md5(i::text) FROM generate_series(40001, 45000) i;
INSERT INTO lfh SELECT i, i % 89, md5(i::text) FROM generate_series(40001, 45000) i;
SELECT lf_note('reinserted');
SELECT (SELECT pages FROM lf_sizes WHERE step = 'reinserted') -
	(SELECT pages FROM lf_sizes WHERE step = 'freed') <=
	(SELECT ceil(sum(stored_bytes) / 8160.0) FROM colstore.row_groups('lf') WHERE first_row >= 40000) - 3
	AS took_freed_pages;
SELECT * FROM lf_same();

-- 5. deletes in the same segments after their pages went: new segment
-- pages, no heap copy, the same rows gone as in heap; in a transaction
-- with a savepoint rolled back, then VACUUM again
BEGIN;
DELETE FROM lf WHERE id % 10 = 1;
SAVEPOINT a;
DELETE FROM lf WHERE id % 10 = 2 AND id < 3000;
ROLLBACK TO SAVEPOINT a;
DELETE FROM lf WHERE id % 10 = 3 AND id < 2000;
COMMIT;
DELETE FROM lfh WHERE id % 10 = 1 OR (id % 10 = 3 AND id < 2000);
SELECT * FROM lf_same();
SELECT lf_note('deleted again');
VACUUM lf;
SELECT settle();
VACUUM lf;
SELECT lf_note('vacuumed again');
SELECT * FROM lf_same();
-- the new segment pages (two per group, no leaf: no copy) take pages the
-- new row group left free, or extend the file; the second VACUUM's bitmap
-- pages exist already
SELECT n.step, n.pages - r.pages AS pages_added, n.state_pages
FROM lf_sizes n, lf_sizes r WHERE r.step = 'reinserted'
	AND n.step IN ('reinserted', 'deleted again', 'vacuumed again') ORDER BY n.pages, n.state_pages;
SELECT colstore.verify('lf') > 0 AS verified;
DROP TABLE lf, lfh;
DROP FUNCTION lf_note(text), lf_same(), settle();
