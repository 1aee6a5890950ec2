-- VACUUM moves what holds up the end of the file into freed pages lower
-- down, so truncation gives the end back (storage/space_relocate.c).  An
-- UPDATE of a tenth of the rows fills heap pages; compaction writes its row
-- groups after them, at the end of the file, and the directory takes pages
-- among them; once VACUUM has freed the heap pages, it moves those row
-- groups and directory pages down and truncates.  Every step is compared
-- with a heap twin that gets the same statements, and checked by
-- colstore.verify.
SET colstore.auto_compaction = off;
CREATE TABLE rl (id int PRIMARY KEY, v int, t text) USING colstore
	WITH (row_group_size = 20000, autovacuum_enabled = false);
CREATE TABLE rlh (id int PRIMARY KEY, v int, t text) WITH (autovacuum_enabled = false);
CREATE INDEX rl_v ON rl (v);
CREATE INDEX rlh_v ON rlh (v);
INSERT INTO rl SELECT i, i % 97, 'row ' || (i % 1000) FROM generate_series(1, 200000) i;
INSERT INTO rlh SELECT * FROM rl;

CREATE FUNCTION same_rows() RETURNS TABLE (path text, same bool) LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	RETURN QUERY SELECT 'seq', NOT EXISTS ((TABLE rl EXCEPT ALL TABLE rlh) UNION ALL (TABLE rlh EXCEPT ALL TABLE rl));
	RETURN QUERY SELECT 'aggregate', (SELECT (count(*), sum(v), max(t)) FROM rl) IS NOT DISTINCT FROM (SELECT (count(*), sum(v), max(t)) FROM rlh);
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = on;
	RETURN QUERY SELECT 'index', (SELECT array_agg(v ORDER BY id) FROM rl WHERE id BETWEEN 15000 AND 25000) IS NOT DISTINCT FROM (SELECT array_agg(v ORDER BY id) FROM rlh WHERE id BETWEEN 15000 AND 25000);
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = on;
	RETURN QUERY SELECT 'bitmap', (SELECT sum(id::bigint) FROM rl WHERE v = 5) IS NOT DISTINCT FROM (SELECT sum(id::bigint) FROM rlh WHERE v = 5);
END $$;
-- VACUUM frees what it retired once no snapshot from before can be left:
-- wait until no other backend of this database holds one, and use an xid
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql
CREATE FUNCTION pages() RETURNS bigint LANGUAGE sql AS $$
	SELECT pg_relation_size('rl') / current_setting('block_size')::bigint
$$;
CREATE TEMP TABLE sizes (step text PRIMARY KEY, pages bigint);
INSERT INTO sizes VALUES ('loaded', pages());

-- 1. The UPDATE: rows 1..20000 get copies and new versions on heap pages
UPDATE rl SET v = v + 1000 WHERE id <= 20000;
UPDATE rlh SET v = v + 1000 WHERE id <= 20000;
INSERT INTO sizes VALUES ('updated', pages());
SELECT (SELECT pages FROM sizes WHERE step = 'updated') >
	10 * (SELECT pages FROM sizes WHERE step = 'loaded') AS update_grew_the_file;
SELECT * FROM same_rows();

-- 2. VACUUM, compaction (its row groups go to the end of the file), and
-- VACUUMs until the heap pages are retired and freed: the file is then
-- moved down and truncated
VACUUM rl;
SELECT colstore.compact('rl') > 0 AS compacted;
SELECT settle();
VACUUM rl;
SELECT settle();
VACUUM rl;
SELECT settle();
VACUUM rl;
SELECT settle();
VACUUM rl;
VACUUM rlh;
INSERT INTO sizes VALUES ('settled', pages());
SELECT * FROM same_rows();
SELECT colstore.verify('rl') > 0 AS verified;
-- the bound: at most twice the size before the UPDATE (the directory keeps
-- an entry per heap page ever registered); without the move it stays at the
-- size the UPDATE gave it
SELECT (SELECT pages FROM sizes WHERE step = 'settled') <=
	2 * (SELECT pages FROM sizes WHERE step = 'loaded') AS back_within_twice,
	(SELECT pages FROM sizes WHERE step = 'settled') <
	(SELECT pages FROM sizes WHERE step = 'updated') / 4 AS truncated;
-- 3. The table keeps working: writes after the move, then VACUUM again
INSERT INTO rl SELECT i, i % 97, 'new ' || i FROM generate_series(200001, 230000) i;
INSERT INTO rlh SELECT i, i % 97, 'new ' || i FROM generate_series(200001, 230000) i;
UPDATE rl SET v = v + 1 WHERE id % 500 = 0;
UPDATE rlh SET v = v + 1 WHERE id % 500 = 0;
DELETE FROM rl WHERE id % 777 = 0;
DELETE FROM rlh WHERE id % 777 = 0;
SELECT * FROM same_rows();
SELECT settle();
VACUUM rl;
SELECT settle();
VACUUM rl;
SELECT * FROM same_rows();
SELECT colstore.verify('rl') > 0 AS verified;

-- 4. Nothing to move: a second VACUUM leaves the size as it is (the
-- VACUUM before it may still move the row state pages the last one made
-- once the heap pages below them are freed)
SELECT settle();
VACUUM rl;
INSERT INTO sizes VALUES ('again', pages());
VACUUM rl;
SELECT pages() = (SELECT pages FROM sizes WHERE step = 'again') AS unchanged;

DROP TABLE rl, rlh;
DROP FUNCTION same_rows(), settle(), pages();
RESET colstore.auto_compaction;
