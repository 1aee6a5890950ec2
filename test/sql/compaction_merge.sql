-- Compaction merges small row groups (fewer rows than a quarter of
-- row_group_size) into full-sized ones, as it rewrites mostly deleted ones:
-- each row gets a heap copy that moves into the new group, every index
-- finds the rows at their new TIDs, and VACUUM then retires the old groups.
-- colstore.compact() merges any two or more small groups (the background
-- worker does not).  Results equal a heap twin's throughout.
SET colstore.auto_compaction = off;
-- every INSERT below writes a row group of its own
SET colstore.delta_insert_rows = 0;
CREATE TABLE mg (id int PRIMARY KEY, v int, t text) USING colstore
	WITH (row_group_size = 1000, chunk_size = 100);
CREATE INDEX mg_v ON mg (v);
CREATE TABLE mh (id int PRIMARY KEY, v int, t text) USING heap;
DO $$
BEGIN
	FOR b IN 0..9 LOOP
		INSERT INTO mg SELECT i, i % 37, 'row ' || i FROM generate_series(b * 40 + 1, b * 40 + 40) i;
		INSERT INTO mh SELECT i, i % 37, 'row ' || i FROM generate_series(b * 40 + 1, b * 40 + 40) i;
	END LOOP;
END $$;
-- and one full-sized group, which is not merged
INSERT INTO mg SELECT i, i % 37, 'row ' || i FROM generate_series(1001, 2000) i;
INSERT INTO mh SELECT i, i % 37, 'row ' || i FROM generate_series(1001, 2000) i;
SELECT row_count, count(*) FROM colstore.row_groups('mg') GROUP BY 1 ORDER BY 1;

-- ten groups of 40 rows become one of 400; the full one stays
SELECT colstore.compact('mg');
VACUUM mg;
VACUUM mg;
SELECT row_count, state, count(*) FROM colstore.row_groups('mg')
	WHERE state IN ('committed', 'frozen') GROUP BY 1, 2 ORDER BY 1, 2;
-- one small group is left: nothing more to merge
SELECT colstore.compact('mg');
SELECT colstore.verify('mg');

-- same rows by every path
SELECT NOT EXISTS (SELECT * FROM mg EXCEPT ALL SELECT * FROM mh) AND
	NOT EXISTS (SELECT * FROM mh EXCEPT ALL SELECT * FROM mg) AS same;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT id, v, t FROM mg WHERE id IN (1, 40, 41, 400, 1500) ORDER BY id;
SELECT count(*), sum(id) FROM mg WHERE v = 5;
SELECT count(*), sum(id) FROM mh WHERE v = 5;
RESET enable_bitmapscan;
RESET enable_seqscan;

-- rows changed after the merge are found in the merged group
UPDATE mg SET t = 'changed' WHERE id % 50 = 0;
UPDATE mh SET t = 'changed' WHERE id % 50 = 0;
DELETE FROM mg WHERE id BETWEEN 100 AND 120;
DELETE FROM mh WHERE id BETWEEN 100 AND 120;
SELECT NOT EXISTS (SELECT * FROM mg EXCEPT ALL SELECT * FROM mh) AND
	NOT EXISTS (SELECT * FROM mh EXCEPT ALL SELECT * FROM mg) AS same;

-- a small group some snapshot cannot see yet is not merged (its rows would
-- move out from under that snapshot's view): shown by a group a
-- transaction inserts and does not commit before compacting
BEGIN;
INSERT INTO mg SELECT i, 0, 'young' FROM generate_series(3001, 3040) i;
INSERT INTO mg SELECT i, 0, 'young' FROM generate_series(3041, 3080) i;
-- (what it moves are the versions the UPDATE above wrote)
SELECT colstore.compact('mg');
SELECT count(*) AS young_groups FROM colstore.row_groups('mg')
	WHERE row_count = 40 AND inserted_by = pg_current_xact_id()::xid;
SELECT count(*) FROM mg WHERE t = 'young';
ROLLBACK;
DROP TABLE mg, mh;
