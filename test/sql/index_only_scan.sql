-- Index-only scans of colstore tables: VACUUM marks the pseudo-blocks whose
-- rows every snapshot sees (mvcc/visible_blocks.c) in the visibility map,
-- writers clear the marks of rows they delete, update or move
-- (storage/all_visible.c), and every answer equals the heap twin's.
SET colstore.auto_compaction = off;
CREATE TABLE ioc (id int PRIMARY KEY, k int, v int) USING colstore
	WITH (autovacuum_enabled = false);
CREATE TABLE ioh (id int PRIMARY KEY, k int, v int) WITH (autovacuum_enabled = false);
CREATE INDEX ioc_k ON ioc (k) INCLUDE (v);
CREATE INDEX ioh_k ON ioh (k) INCLUDE (v);
-- 29,100 rows: 100 whole pseudo-blocks of 291 rows
INSERT INTO ioc SELECT g, g % 100, g FROM generate_series(1, 29100) g;
INSERT INTO ioh SELECT * FROM ioc;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET max_parallel_workers_per_gather = 0;
-- the plan's scan lines with their row counts and heap fetches, alike on
-- every PostgreSQL version (18 adds buffers, index searches and decimals)
CREATE FUNCTION ios_plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, SUMMARY OFF, TIMING OFF, BUFFERS OFF) ' || query
	LOOP
		IF line ~ 'Scan|Heap Fetches' THEN
			RETURN NEXT regexp_replace(regexp_replace(line, 'rows=([0-9]+)\.00 ', 'rows=\1 '), '^ *(-> )? *', '');
		END IF;
	END LOOP;
END
$$;
CREATE VIEW answers AS
	SELECT (SELECT count(*) FROM ioc WHERE id > 0) AS c_count,
		   (SELECT count(*) FROM ioh WHERE id > 0) AS h_count,
		   (SELECT sum(id) FROM ioc WHERE id > 0) AS c_sum,
		   (SELECT sum(id) FROM ioh WHERE id > 0) AS h_sum,
		   (SELECT sum(v) FROM ioc WHERE k < 50) AS c_v,
		   (SELECT sum(v) FROM ioh WHERE k < 50) AS h_v;

-- before VACUUM has marked a block, the planner offers no index-only scan
EXPLAIN (COSTS OFF) SELECT count(*) FROM ioc WHERE id > 0;
VACUUM ioc;
VACUUM ioh;
SELECT relallvisible FROM pg_class WHERE relname = 'ioc';
SELECT ios_plan('SELECT count(*) FROM ioc WHERE id > 0');
SELECT ios_plan('SELECT sum(v) FROM ioc WHERE k < 50');
SELECT * FROM answers;

-- a DELETE (the delete log) clears the marks of the rows' blocks: rows
-- 1..2910 are blocks 0..9, whose 2,910 entries are fetched again
DELETE FROM ioc WHERE id % 10 = 0 AND id <= 2910;
DELETE FROM ioh WHERE id % 10 = 0 AND id <= 2910;
SELECT ios_plan('SELECT count(*) FROM ioc WHERE id > 0');
SELECT * FROM answers;

-- an UPDATE: block 20 and the 10 new versions (heap tuples, never marked)
UPDATE ioc SET v = v + 1 WHERE id BETWEEN 5821 AND 5830;
UPDATE ioh SET v = v + 1 WHERE id BETWEEN 5821 AND 5830;
SELECT ios_plan('SELECT count(*) FROM ioc WHERE id > 0');
SELECT * FROM answers;

-- a rolled back DELETE and UPDATE clear their blocks (30 and 40) too
BEGIN;
DELETE FROM ioc WHERE id BETWEEN 8731 AND 8740;
UPDATE ioc SET v = 0 WHERE id BETWEEN 11641 AND 11650;
SELECT * FROM answers;
ROLLBACK;
SELECT ios_plan('SELECT count(*) FROM ioc WHERE id > 0');
SELECT * FROM answers;

-- VACUUM marks them again: deleted rows have their bits and no entries,
-- the rolled back changes are gone; not block 20, whose live rows keep the
-- copies the UPDATE promoted ahead (a row with a copy is never marked), nor
-- the updated rows' new versions, still heap tuples (291 + 10 fetches)
VACUUM ioc;
SELECT relallvisible FROM pg_class WHERE relname = 'ioc';
SELECT ios_plan('SELECT count(*) FROM ioc WHERE id > 0');
SELECT * FROM answers;

-- compaction moves the heap tuples into a row group, and rewrites the
-- group once a fifth of it is deleted: its marks must go before its rows
-- move (else the old entries would count the moved rows twice)
DELETE FROM ioc WHERE id % 4 = 0;
DELETE FROM ioh WHERE id % 4 = 0;
VACUUM ioc;
SELECT relallvisible FROM pg_class WHERE relname = 'ioc';
SELECT colstore.compact('ioc') > 0 AS moved;
SELECT ios_plan('SELECT count(*) FROM ioc WHERE id > 0');
SELECT * FROM answers;
VACUUM ioc;
VACUUM ioc;
SELECT ios_plan('SELECT count(*) FROM ioc WHERE id > 0');
SELECT * FROM answers;

-- the partly used last pseudo-block: VACUUM marks it with the numbers not
-- handed out yet (1,000 rows end 127 rows into block 3), and an insert
-- that takes numbers inside it clears the mark before its rows have index
-- entries, so the rows of an insert rolled back are never counted from the
-- mark.  (VACUUM FULL writes the rows with exactly as many numbers; an
-- INSERT takes them 1,024 at a time, and the rest of its last range is a
-- reservation, never marked.)
CREATE TABLE iol (id int PRIMARY KEY) USING colstore WITH (autovacuum_enabled = false);
INSERT INTO iol SELECT generate_series(1, 1000);
VACUUM FULL iol;
VACUUM iol;
SELECT relallvisible FROM pg_class WHERE relname = 'iol';
SELECT ios_plan('SELECT count(*) FROM iol WHERE id > 0');
BEGIN;
INSERT INTO iol SELECT generate_series(1001, 6000);
SELECT max(ctid) < '(4,0)' AS last_block_taken FROM iol WHERE id = 1001;
ROLLBACK;
SELECT ios_plan('SELECT count(*) FROM iol WHERE id > 0');
SELECT count(*), sum(id) FROM iol WHERE id > 0;
VACUUM iol;
SELECT ios_plan('SELECT count(*) FROM iol WHERE id > 0');
DROP TABLE iol;

-- colstore.enable_index_only_scan = off: no index-only scan
SET colstore.enable_index_only_scan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ioc WHERE id > 0;
RESET colstore.enable_index_only_scan;

DROP VIEW answers;
DROP TABLE ioc, ioh;
DROP FUNCTION ios_plan(text);
