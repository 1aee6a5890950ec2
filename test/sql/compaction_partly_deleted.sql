-- Compaction rewrites a row group less than half deleted once the rewrite
-- pays (GroupRewritePays: at least a fifth of its rows and at least 64 are
-- deleted), as it rewrites mostly deleted ones: the live rows move into a
-- new group, every index finds them at their new TIDs, VACUUM retires and
-- frees the old group, and its pages and its deleted rows' copies take
-- later rows instead of the file growing.  Groups below the rule keep
-- their rows.  Results equal a heap twin's throughout.
SET colstore.auto_compaction = off;
-- every INSERT below writes a row group of its own
SET colstore.delta_insert_rows = 0;
-- wait until no other backend's snapshot (an autovacuum's) holds VACUUM's
-- horizon back
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql
CREATE TABLE pd (id int PRIMARY KEY, v int, t text) USING colstore
	WITH (row_group_size = 1000, chunk_size = 100, autovacuum_enabled = false);
CREATE INDEX pd_v ON pd (v);
CREATE TABLE ph (id int PRIMARY KEY, v int, t text) USING heap;
DO $$
BEGIN
	FOR b IN 0..3 LOOP
		INSERT INTO pd SELECT i, i % 37, 'row ' || i FROM generate_series(b * 1000 + 1, b * 1000 + 1000) i;
		INSERT INTO ph SELECT i, i % 37, 'row ' || i FROM generate_series(b * 1000 + 1, b * 1000 + 1000) i;
	END LOOP;
END $$;
-- and a group of 200 rows
INSERT INTO pd SELECT i, i % 37, 'row ' || i FROM generate_series(4001, 4200) i;
INSERT INTO ph SELECT i, i % 37, 'row ' || i FROM generate_series(4001, 4200) i;

-- group 1: 30% deleted (rewritten); group 2: 20% (rewritten, the bound);
-- group 3: 19.9% (kept); group 4: none; group 5: 25% but 50 rows (kept)
CREATE FUNCTION pd_doomed(id int) RETURNS bool LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE
		WHEN id <= 1000 THEN id % 10 < 3
		WHEN id <= 2000 THEN id % 5 = 0
		WHEN id <= 3000 THEN id % 5 = 0 AND id <> 2005
		WHEN id <= 4000 THEN false
		ELSE id % 4 = 0 END $$;
DELETE FROM pd WHERE pd_doomed(id);
DELETE FROM ph WHERE pd_doomed(id);
VACUUM pd;
SELECT pg_relation_size('pd') AS size_deleted \gset
SELECT row_group, row_count, state FROM colstore.row_groups('pd') ORDER BY row_group;

SELECT colstore.compact('pd');
SELECT settle();
VACUUM pd;
-- (the freeing waits for a transaction id after the retiring VACUUM's)
SELECT pg_current_xact_id() IS NOT NULL AS xid;
SELECT settle();
VACUUM pd;
-- the rewrite's promoted copies and new groups add at most half the size
SELECT pg_relation_size('pd') AS size_rewritten \gset
SELECT :size_rewritten <= 1.5 * :size_deleted AS rewrite_bounded;
-- groups 1 and 2 are reclaimed, their 1,500 live rows in a new group
SELECT row_group, row_count, state FROM colstore.row_groups('pd') ORDER BY row_group;
SELECT colstore.verify('pd');
-- nothing more pays
SELECT colstore.compact('pd');

-- same rows by every path
SELECT NOT EXISTS (SELECT * FROM pd EXCEPT ALL SELECT * FROM ph) AND
	NOT EXISTS (SELECT * FROM ph EXCEPT ALL SELECT * FROM pd) AS same;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT id, v, t FROM pd WHERE id IN (1, 3, 4, 1000, 1001, 1005, 2005, 2010, 4004, 4005) ORDER BY id;
-- the primary key finds every live row of the heap twin
SELECT count(*) AS found FROM ph WHERE EXISTS (SELECT 1 FROM pd WHERE pd.id = ph.id);
SELECT count(*), sum(id) FROM pd WHERE v = 5;
SELECT count(*), sum(id) FROM ph WHERE v = 5;
RESET enable_bitmapscan;
RESET enable_seqscan;

-- the space given back takes the next rows: as many rows as were deleted,
-- inserted again (two row groups), leave the file as large as it was
-- (without the rewrite, they would be appended)
INSERT INTO pd SELECT i, i % 37, 'again ' || i FROM generate_series(1, 1000) i WHERE pd_doomed(i);
INSERT INTO ph SELECT i, i % 37, 'again ' || i FROM generate_series(1, 1000) i WHERE pd_doomed(i);
INSERT INTO pd SELECT i, i % 37, 'again ' || i FROM generate_series(1001, 2000) i WHERE pd_doomed(i);
INSERT INTO ph SELECT i, i % 37, 'again ' || i FROM generate_series(1001, 2000) i WHERE pd_doomed(i);
SELECT pg_relation_size('pd') <= :size_rewritten AS no_growth;
SELECT NOT EXISTS (SELECT * FROM pd EXCEPT ALL SELECT * FROM ph) AND
	NOT EXISTS (SELECT * FROM ph EXCEPT ALL SELECT * FROM pd) AS same;

-- rows changed after the rewrite are found in the new group
UPDATE pd SET t = 'changed' WHERE id % 50 = 1;
UPDATE ph SET t = 'changed' WHERE id % 50 = 1;
DELETE FROM pd WHERE id BETWEEN 100 AND 120;
DELETE FROM ph WHERE id BETWEEN 100 AND 120;
SELECT NOT EXISTS (SELECT * FROM pd EXCEPT ALL SELECT * FROM ph) AND
	NOT EXISTS (SELECT * FROM ph EXCEPT ALL SELECT * FROM pd) AS same;
DROP TABLE pd, ph;
DROP FUNCTION pd_doomed(int), settle();
