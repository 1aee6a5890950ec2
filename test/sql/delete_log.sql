-- A plain DELETE of a row-group row costs bits, not a heap copy: the delete
-- is recorded as (xid, command id) in its row group's delete log, and every
-- reader judges it as heap judges a plain xmax.  Every read path is compared
-- with a heap twin after DELETEs of scattered rows, ranges, whole groups,
-- in subtransactions that abort, with RETURNING, and rolled back; then
-- VACUUM turns committed deletes into deleted-rows bits.
SET colstore.auto_compaction = off;
CREATE TABLE dl (id int PRIMARY KEY, k int, v int, pad text) USING colstore
	WITH (row_group_size = 10000, autovacuum_enabled = false);
CREATE TABLE dlh (id int PRIMARY KEY, k int, v int, pad text) WITH (autovacuum_enabled = false);
CREATE UNIQUE INDEX dl_k ON dl (k);
CREATE UNIQUE INDEX dlh_k ON dlh (k);
CREATE INDEX dl_v ON dl (v);
CREATE INDEX dlh_v ON dlh (v);
INSERT INTO dl SELECT i, -i, i % 97, 'p' || i FROM generate_series(1, 50000) i;
INSERT INTO dlh SELECT * FROM dl;

CREATE FUNCTION same_rows() RETURNS TABLE (path text, same bool) LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL colstore.enable_custom_scan = off;
	RETURN QUERY SELECT 'seq', NOT EXISTS ((TABLE dl EXCEPT ALL TABLE dlh) UNION ALL (TABLE dlh EXCEPT ALL TABLE dl));
	SET LOCAL colstore.enable_custom_scan = on;
	RETURN QUERY SELECT 'custom scan', (SELECT array_agg(id ORDER BY id) FROM dl WHERE v < 50) IS NOT DISTINCT FROM (SELECT array_agg(id ORDER BY id) FROM dlh WHERE v < 50);
	RETURN QUERY SELECT 'aggregate', (SELECT (count(*), sum(v), sum(k::bigint)) FROM dl) IS NOT DISTINCT FROM (SELECT (count(*), sum(v), sum(k::bigint)) FROM dlh);
	RETURN QUERY SELECT 'grouped', NOT EXISTS ((SELECT v, count(*) FROM dl GROUP BY v EXCEPT ALL SELECT v, count(*) FROM dlh GROUP BY v) UNION ALL (SELECT v, count(*) FROM dlh GROUP BY v EXCEPT ALL SELECT v, count(*) FROM dl GROUP BY v));
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = on;
	RETURN QUERY SELECT 'index', (SELECT array_agg(v ORDER BY id) FROM dl WHERE id BETWEEN -1000 AND 1000000) IS NOT DISTINCT FROM (SELECT array_agg(v ORDER BY id) FROM dlh WHERE id BETWEEN -1000 AND 1000000);
	RETURN QUERY SELECT 'unique index', (SELECT array_agg(id ORDER BY k) FROM dl WHERE k < 0) IS NOT DISTINCT FROM (SELECT array_agg(id ORDER BY k) FROM dlh WHERE k < 0);
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = on;
	RETURN QUERY SELECT 'bitmap', (SELECT (count(*), sum(id::bigint)) FROM dl WHERE v IN (5, 50, 96)) IS NOT DISTINCT FROM (SELECT (count(*), sum(id::bigint)) FROM dlh WHERE v IN (5, 50, 96));
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
	SELECT ARRAY[count(*), sum(id)] INTO by_tid FROM dl WHERE ctid = ANY (tids);
	SET LOCAL enable_tidscan = off;
	SELECT ARRAY[count(*), sum(id)] INTO by_seq FROM dl WHERE ctid = ANY (tids);
	RETURN by_tid = by_seq AND by_tid[1] > 0;
END $$;
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql
CREATE TEMP TABLE dl_size AS SELECT pg_relation_size('dl') / 8192 AS pages;

-- 1. Scattered rows, a range, and a whole row group: no copy is made
DELETE FROM dl WHERE (id * 7919) % 10 < 3;
DELETE FROM dlh WHERE (id * 7919) % 10 < 3;
DELETE FROM dl WHERE id BETWEEN 12001 AND 13500;
DELETE FROM dlh WHERE id BETWEEN 12001 AND 13500;
DELETE FROM dl WHERE id BETWEEN 20001 AND 30000;
DELETE FROM dlh WHERE id BETWEEN 20001 AND 30000;
SELECT count(*) FROM dl;
SELECT * FROM same_rows();
SELECT same_tids();
-- a root page of the promotion map, the deleted-rows root, the log's root
-- and one segment page per group: no heap page of copies
SELECT pg_relation_size('dl') / 8192 - pages <= 20 AS no_copies FROM dl_size;
SELECT count(*) AS groups, sum(deleted_rows) AS bitmapped, sum(map_pages) AS map_pages
FROM colstore.row_group_deletes('dl');

-- 2. Rolled back: the rows are back, for every reader
BEGIN;
DELETE FROM dl WHERE id % 10 = 1;
SELECT count(*) FROM dl WHERE id % 10 = 1;
ROLLBACK;
SELECT * FROM same_rows();
-- a subtransaction that aborts, one that commits, and RETURNING
BEGIN;
SAVEPOINT a;
DELETE FROM dl WHERE id BETWEEN 40001 AND 41000;
ROLLBACK TO SAVEPOINT a;
SAVEPOINT b;
DELETE FROM dl WHERE id BETWEEN 41001 AND 41010 RETURNING id, k, v, pad;
RELEASE SAVEPOINT b;
DELETE FROM dlh WHERE id BETWEEN 41001 AND 41010;
COMMIT;
SELECT * FROM same_rows();

-- 3. The deleting transaction's own commands: a cursor opened before the
-- delete still sees the rows (the command id), later commands do not; a
-- second delete or update of them finds nothing; one command meeting a row
-- twice deletes it once
BEGIN;
DECLARE c CURSOR FOR SELECT count(*) FROM dl WHERE id BETWEEN 42001 AND 42100;
DELETE FROM dl WHERE id BETWEEN 42001 AND 42100;
FETCH c;
SELECT count(*) FROM dl WHERE id BETWEEN 42001 AND 42100;
DELETE FROM dl WHERE id BETWEEN 42001 AND 42100;
UPDATE dl SET v = 0 WHERE id BETWEEN 42001 AND 42100;
SELECT * FROM dl WHERE id = 42050 FOR UPDATE;
DELETE FROM dl USING (VALUES (42201), (42201), (42202)) x(i) WHERE id = x.i;
-- deleted keys can be inserted again by the deleter
INSERT INTO dl VALUES (42001, -42001, 1, 'again');
COMMIT;
DELETE FROM dlh WHERE id BETWEEN 42001 AND 42100 OR id IN (42201, 42202);
INSERT INTO dlh VALUES (42001, -42001, 1, 'again');
SELECT * FROM same_rows();
SELECT same_tids();
-- and by others after the commit; live keys cannot
INSERT INTO dl VALUES (3, -3, 1, 'dup');
INSERT INTO dl VALUES (42002, -42002, 1, 'again') ON CONFLICT (k) DO NOTHING;
INSERT INTO dlh VALUES (42002, -42002, 1, 'again') ON CONFLICT (k) DO NOTHING;
INSERT INTO dl VALUES (42003, -42003, 1, 'again');
INSERT INTO dlh VALUES (42003, -42003, 1, 'again');
SELECT * FROM same_rows();

-- 4. Rows whose delete the log holds can be changed by nobody; rows that
-- were locked or updated first are deleted through their copy
SELECT * FROM dl WHERE id IN (43001, 43002) FOR UPDATE;
UPDATE dl SET v = v + 1 WHERE id = 43003;
UPDATE dlh SET v = v + 1 WHERE id = 43003;
DELETE FROM dl WHERE id BETWEEN 43001 AND 43005;
DELETE FROM dlh WHERE id BETWEEN 43001 AND 43005;
SELECT * FROM same_rows();

-- 5. An index built now, and a rewrite, see the same rows
CREATE INDEX dl_pad ON dl (pad);
CREATE INDEX dlh_pad ON dlh (pad);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT (SELECT array_agg(id ORDER BY pad, id) FROM dl WHERE pad > 'p4') =
	(SELECT array_agg(id ORDER BY pad, id) FROM dlh WHERE pad > 'p4') AS built_index_same;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT colstore.verify('dl');

-- 6. VACUUM: the committed deletes lose their index entries and become
-- deleted-rows bits; the group all of whose rows were deleted is retired
SELECT settle();
VACUUM dl;
SELECT sum(deleted_rows) AS bitmapped FROM colstore.row_group_deletes('dl');
SELECT count(*) FILTER (WHERE state = 'emptied') AS emptied FROM colstore.row_groups('dl');
SELECT * FROM same_rows();
SELECT same_tids();
SELECT colstore.verify('dl');
-- deleted again after VACUUM, in logs that VACUUM emptied
DELETE FROM dl WHERE id % 100 = 7;
DELETE FROM dlh WHERE id % 100 = 7;
SELECT * FROM same_rows();
SELECT settle();
VACUUM dl;
SELECT * FROM same_rows();
VACUUM FULL dl;
SELECT * FROM same_rows();
SELECT colstore.verify('dl');

-- 7. Size: a DELETE of a random 30% of 100,000 rows adds the log's pages
-- (a root page, a few segment pages per group), not a heap copy per row
-- (before the log: more than 200 pages)
CREATE TABLE dls (id int, v int) USING colstore WITH (autovacuum_enabled = false);
INSERT INTO dls SELECT i, i % 97 FROM generate_series(1, 100000) i;
CREATE TEMP TABLE sizes AS SELECT pg_relation_size('dls') / 8192 AS pages;
DELETE FROM dls WHERE (hashint4(id) % 10 + 10) % 10 < 3;
SELECT pg_relation_size('dls') / 8192 - pages < 20 AS small_growth,
	pages < 10 AS sanity FROM sizes;
SELECT count(*) = (SELECT count(*) FROM generate_series(1, 100000) i
				   WHERE (hashint4(i) % 10 + 10) % 10 >= 3) AS same_count FROM dls;
DROP TABLE dls;

-- 8. A segment page (16,320 rows) that fills up drops the runs of aborted
-- transactions first: deletes of every row rolled back twice, then a
-- committed one, make no copy
CREATE TABLE dla (id int, v int) USING colstore WITH (autovacuum_enabled = false);
INSERT INTO dla SELECT i, i FROM generate_series(1, 16000) i;
CREATE TEMP TABLE dla_size AS SELECT pg_relation_size('dla') / 8192 AS pages;
BEGIN;
DELETE FROM dla;
ROLLBACK;
BEGIN;
DELETE FROM dla;
ROLLBACK;
DELETE FROM dla WHERE id % 2 = 0;
SELECT pg_relation_size('dla') / 8192 - pages < 8 AS no_copies FROM dla_size;
SELECT count(*), sum(v) FROM dla;
SELECT count(*), sum(v) FROM dla WHERE id BETWEEN 100 AND 200;
DROP TABLE dla;

-- 9. A group of fewer than 1,000 rows (a single-row upsert's, say) promotes
-- its deleted rows as before: a log would cost it three pages, copies its
-- promotion map's root and leaf and a share of a heap page
CREATE TABLE dlt (id int, v int) USING colstore;
INSERT INTO dlt SELECT i, i FROM generate_series(1, 500) i;
DELETE FROM dlt WHERE id % 2 = 0;
SELECT count(*), sum(v) FROM dlt;
SELECT map_pages FROM colstore.row_group_deletes('dlt');
DROP TABLE dlt;

DROP TABLE dl, dlh;
DROP FUNCTION same_rows(), same_tids(), settle();
