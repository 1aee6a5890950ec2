-- Rows deleted for everyone end up in their row group's deleted-rows
-- bitmap.  Here the rows are locked before they are deleted, which promotes
-- each (a heap copy whose header then holds the delete; a plain DELETE
-- logs the delete instead, test/sql/delete_log.sql); VACUUM prunes the
-- copies (LP_DEAD), removes the rows' index entries, then sets the rows'
-- bits, and from then on readers learn the rows are gone from the bits
-- alone.  Every read path is compared with a
-- heap twin, and colstore.row_group_deletes shows the bits.
SET colstore.auto_compaction = off;
CREATE TABLE db (id int PRIMARY KEY, k int, v int, pad text) USING colstore
	WITH (row_group_size = 10000, autovacuum_enabled = false);
CREATE TABLE dbh (id int PRIMARY KEY, k int, v int, pad text) WITH (autovacuum_enabled = false);
CREATE UNIQUE INDEX db_k ON db (k);
CREATE UNIQUE INDEX dbh_k ON dbh (k);
CREATE INDEX db_v ON db (v);
CREATE INDEX dbh_v ON dbh (v);
INSERT INTO db SELECT i, -i, i % 97, 'p' || i FROM generate_series(1, 50000) i;
INSERT INTO dbh SELECT * FROM db;

CREATE FUNCTION same_rows() RETURNS TABLE (path text, same bool) LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL colstore.enable_custom_scan = off;
	RETURN QUERY SELECT 'seq', NOT EXISTS ((TABLE db EXCEPT ALL TABLE dbh) UNION ALL (TABLE dbh EXCEPT ALL TABLE db));
	SET LOCAL colstore.enable_custom_scan = on;
	RETURN QUERY SELECT 'custom scan', (SELECT array_agg(id ORDER BY id) FROM db WHERE v < 50) IS NOT DISTINCT FROM (SELECT array_agg(id ORDER BY id) FROM dbh WHERE v < 50);
	RETURN QUERY SELECT 'aggregate', (SELECT (count(*), sum(v), sum(k::bigint)) FROM db) IS NOT DISTINCT FROM (SELECT (count(*), sum(v), sum(k::bigint)) FROM dbh);
	RETURN QUERY SELECT 'grouped', NOT EXISTS ((SELECT v, count(*) FROM db GROUP BY v EXCEPT ALL SELECT v, count(*) FROM dbh GROUP BY v) UNION ALL (SELECT v, count(*) FROM dbh GROUP BY v EXCEPT ALL SELECT v, count(*) FROM db GROUP BY v));
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = on;
	RETURN QUERY SELECT 'index', (SELECT array_agg(v ORDER BY id) FROM db WHERE id BETWEEN -1000 AND 1000000) IS NOT DISTINCT FROM (SELECT array_agg(v ORDER BY id) FROM dbh WHERE id BETWEEN -1000 AND 1000000);
	RETURN QUERY SELECT 'unique index', (SELECT array_agg(id ORDER BY k) FROM db WHERE k < 0) IS NOT DISTINCT FROM (SELECT array_agg(id ORDER BY k) FROM dbh WHERE k < 0);
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = on;
	RETURN QUERY SELECT 'bitmap', (SELECT (count(*), sum(id::bigint)) FROM db WHERE v IN (5, 50, 96)) IS NOT DISTINCT FROM (SELECT (count(*), sum(id::bigint)) FROM dbh WHERE v IN (5, 50, 96));
END $$;
-- the TIDs of the first two row groups, read by a TID scan and by a
-- sequential scan that filters on ctid: the same rows
CREATE FUNCTION same_tids() RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
	tids tid[] := ARRAY(SELECT format('(%s,%s)', b, o)::tid
						FROM generate_series(0, 70) b, generate_series(1, 291) o);
	by_tid bigint[];
	by_seq bigint[];
BEGIN
	SET LOCAL enable_tidscan = on;
	SELECT ARRAY[count(*), sum(id)] INTO by_tid FROM db WHERE ctid = ANY (tids);
	SET LOCAL enable_tidscan = off;
	SELECT ARRAY[count(*), sum(id)] INTO by_seq FROM db WHERE ctid = ANY (tids);
	RETURN by_tid = by_seq AND by_tid[1] > 0;
END $$;
-- VACUUM prunes a copy once no snapshot from before the delete is left:
-- wait until no other backend of this database holds one, and use an xid
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql

-- 1. A third of the rows deleted, spread over every row group
SELECT count(*) > 0 AS locked FROM (SELECT FROM db WHERE (id * 7919) % 10 < 3 FOR KEY SHARE) l;
DELETE FROM db WHERE (id * 7919) % 10 < 3;
DELETE FROM dbh WHERE (id * 7919) % 10 < 3;
SELECT count(*) FROM db;
SELECT * FROM same_rows();
SELECT same_tids();
-- promoted, not yet deleted for everyone: no bit
SELECT count(*) AS groups, sum(deleted_rows) AS bitmapped FROM colstore.row_group_deletes('db');

-- 2. VACUUM prunes the copies and sets the bits after the index pass
SELECT settle();
VACUUM db;
-- every group: a root page, 8 leaves, the bitmap's root and one bitmap page
SELECT count(*) AS groups, sum(deleted_rows) AS bitmapped, sum(map_pages) AS map_pages
FROM colstore.row_group_deletes('db');
SELECT * FROM same_rows();
SELECT same_tids();
SELECT colstore.verify('db');
-- the next VACUUM, with no snapshot from before the bits left, frees the
-- copies' items (LP_UNUSED), clears their slots, detaches the leaves left
-- without a slot and retires the heap pages left empty; the one after
-- gives those leaves and pages to new writes (without truncation, which
-- would give them back to the operating system instead)
SELECT settle();
VACUUM (TRUNCATE false) db;
SELECT sum(deleted_rows) AS bitmapped, sum(map_pages) AS map_pages
FROM colstore.row_group_deletes('db');
SELECT * FROM same_rows();
SELECT same_tids();
SELECT settle();
VACUUM (TRUNCATE false) db;
SELECT sum(deleted_rows) AS bitmapped, sum(map_pages) AS map_pages
FROM colstore.row_group_deletes('db');
SELECT * FROM same_rows();
SELECT same_tids();
SELECT colstore.verify('db');
-- the freed pages take a new row group: the file does not grow
CREATE TEMP TABLE sizes AS SELECT pg_relation_size('db') / 8192 AS pages;
INSERT INTO db SELECT i, -i, i % 97, md5(i::text) || md5((-i)::text) FROM generate_series(100001, 115000) i;
INSERT INTO dbh SELECT i, -i, i % 97, md5(i::text) || md5((-i)::text) FROM generate_series(100001, 115000) i;
SELECT pg_relation_size('db') / 8192 <= pages + 2 AS reused_freed_pages,
	pages < 200 AS sanity FROM sizes;
SELECT * FROM same_rows();

-- 3. Deleted keys can be inserted again; live ones cannot
INSERT INTO db SELECT i, -i, 1, 'again' FROM generate_series(1, 50000) i WHERE (i * 7919) % 10 < 3 AND i % 7 = 0;
INSERT INTO dbh SELECT i, -i, 1, 'again' FROM generate_series(1, 50000) i WHERE (i * 7919) % 10 < 3 AND i % 7 = 0;
INSERT INTO db VALUES (60000, -1, 1, 'dup');	-- k = -1: row 1 is alive
INSERT INTO db VALUES (1, -999999, 1, 'dup');	-- id 1: alive
INSERT INTO db VALUES (8, -999999, 1, 'ok');	-- id 8 was deleted
INSERT INTO dbh VALUES (8, -999999, 1, 'ok');
INSERT INTO db VALUES (-3, -3, 1, 'no') ON CONFLICT (k) DO NOTHING;	-- alive
INSERT INTO dbh VALUES (-3, -3, 1, 'no') ON CONFLICT (k) DO NOTHING;
INSERT INTO db VALUES (-9, -9, 1, 'ok') ON CONFLICT (k) DO NOTHING;	-- deleted
INSERT INTO dbh VALUES (-9, -9, 1, 'ok') ON CONFLICT (k) DO NOTHING;
SELECT count(*) FROM db WHERE pad IN ('ok', 'again', 'no');
SELECT * FROM same_rows();

-- 4. Rows of bitmapped groups can still be changed, and deleted again
UPDATE db SET v = v + 1000 WHERE id % 100 = 1;
UPDATE dbh SET v = v + 1000 WHERE id % 100 = 1;
SELECT count(*) > 0 AS locked FROM (SELECT FROM db WHERE id % 100 = 2 FOR KEY SHARE) l;
DELETE FROM db WHERE id % 100 = 2;
DELETE FROM dbh WHERE id % 100 = 2;
SELECT * FROM same_rows();
SELECT settle();
VACUUM db;
SELECT settle();
VACUUM db;
SELECT sum(deleted_rows) > 15000 AS more_bitmapped FROM colstore.row_group_deletes('db');
SELECT * FROM same_rows();
SELECT same_tids();
SELECT colstore.verify('db');

-- 5. A group all of whose rows are deleted is retired, then freed
SELECT count(*) > 0 AS locked FROM (SELECT FROM db WHERE id BETWEEN 1 AND 10000 FOR KEY SHARE) l;
DELETE FROM db WHERE id BETWEEN 1 AND 10000;
DELETE FROM dbh WHERE id BETWEEN 1 AND 10000;
SELECT settle();
VACUUM db;
SELECT count(*) FILTER (WHERE state = 'emptied') AS emptied FROM colstore.row_groups('db');
SELECT settle();
VACUUM db;
SELECT count(*) FILTER (WHERE state = 'reclaimed') AS reclaimed FROM colstore.row_groups('db');
SELECT * FROM same_rows();
SELECT colstore.verify('db');

-- 6. Index builds see the same rows
CREATE INDEX db_pad ON db (pad);
CREATE INDEX dbh_pad ON dbh (pad);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT (SELECT array_agg(id ORDER BY pad, id) FROM db WHERE pad > 'p4') =
	(SELECT array_agg(id ORDER BY pad, id) FROM dbh WHERE pad > 'p4') AS rebuilt_index_same;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- 7. A DELETE of scattered rows (a random 30%) promotes only the rows it
-- deletes, so once VACUUM has freed their copies no heap page and no
-- promotion map leaf is left: each group keeps its map's root and its
-- bitmap's two pages, and scans read the row groups alone (the emptied
-- heap pages, the newest one too, are truncated away).  (Promoting
-- ahead at every run of two deleted rows gave the next, live row a copy
-- too, which kept every page and leaf.)
CREATE TABLE dbs (id int PRIMARY KEY, v int) USING colstore
	WITH (row_group_size = 10000, autovacuum_enabled = false);
INSERT INTO dbs SELECT i, i % 97 FROM generate_series(1, 30000) i;
SELECT count(*) > 0 AS locked FROM (SELECT FROM dbs WHERE (hashint4(id) % 10 + 10) % 10 < 3 FOR KEY SHARE) l;
DELETE FROM dbs WHERE (hashint4(id) % 10 + 10) % 10 < 3;
SELECT settle();
VACUUM dbs;
SELECT settle();
VACUUM dbs;
SELECT settle();
VACUUM dbs;
SELECT count(*) AS groups, sum(deleted_rows) AS bitmapped, sum(map_pages) AS map_pages
FROM colstore.row_group_deletes('dbs');
SELECT count(*) = (SELECT count(*) FROM generate_series(1, 30000) i
				   WHERE (hashint4(i) % 10 + 10) % 10 >= 3) AS same_count,
	sum(v) = (SELECT sum(i % 97) FROM generate_series(1, 30000) i
			  WHERE (hashint4(i) % 10 + 10) % 10 >= 3) AS same_sum
FROM dbs;
-- the units the scan read (EXPLAIN's other lines differ between versions)
CREATE FUNCTION units_read(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q LOOP
		IF line LIKE '%Row Groups:%' THEN
			RETURN NEXT btrim(line);
		END IF;
	END LOOP;
END $$;
SELECT units_read('SELECT sum(v) FROM dbs');
DROP FUNCTION units_read(text);
DROP TABLE dbs;

DROP TABLE db, dbh;
DROP FUNCTION same_rows(), same_tids(), settle();
