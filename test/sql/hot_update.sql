-- HOT updates: an UPDATE that changes no indexed column and whose new
-- version fits on the old one's heap page makes no index entries, as on
-- heap; every path that arrives through an index entry follows the HOT
-- chain from the entry's item to the version its snapshot sees.  Each step
-- compares a colstore table with a heap twin (hot_twin_diff: rows one has
-- and the other has not, 0 when equal) through the plan the settings force.
SET colstore.auto_compaction = off;
-- (no autovacuum: its ANALYZE would let the planner read index entries)
CREATE TABLE hot_c (id int PRIMARY KEY, k int, v int, w text, b int) USING colstore
	WITH (autovacuum_enabled = false);
-- (the twin's first page keeps room for its HOT versions, as colstore's
-- heap page of small INSERTs has)
CREATE TABLE hot_h (id int PRIMARY KEY, k int, v int, w text, b int)
	WITH (autovacuum_enabled = false, fillfactor = 50);
CREATE INDEX hot_c_k ON hot_c (k);
CREATE INDEX hot_h_k ON hot_h (k);
-- b (= id, never changed) has only a BRIN index: its bitmaps are lossy
CREATE INDEX hot_c_brin ON hot_c USING brin (b);
CREATE INDEX hot_h_brin ON hot_h USING brin (b);

CREATE FUNCTION hot_twin_diff(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
	m bigint;
BEGIN
	EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) d',
				   format(q, 'hot_c'), format(q, 'hot_h')) INTO n;
	EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) d',
				   format(q, 'hot_h'), format(q, 'hot_c')) INTO m;
	RETURN n + m;
END $$;

-- every plan a query through an index can take, on both tables
CREATE FUNCTION hot_all_paths() RETURNS TABLE (path text, diff bigint)
LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_bitmapscan = off;
	path := 'index id'; diff := hot_twin_diff('SELECT * FROM %I WHERE id BETWEEN 1 AND 400'); RETURN NEXT;
	path := 'index k'; diff := hot_twin_diff('SELECT * FROM %I WHERE k IN (1, 3, 7)'); RETURN NEXT;
	path := 'index w'; diff := hot_twin_diff('SELECT * FROM %I WHERE w > ''w'''); RETURN NEXT;
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = on;
	path := 'bitmap k'; diff := hot_twin_diff('SELECT * FROM %I WHERE k IN (1, 3, 7)'); RETURN NEXT;
	path := 'bitmap id'; diff := hot_twin_diff('SELECT * FROM %I WHERE id < 45 OR id > 380'); RETURN NEXT;
	path := 'brin (lossy)'; diff := hot_twin_diff('SELECT * FROM %I WHERE b BETWEEN 1 AND 400'); RETURN NEXT;
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL enable_seqscan = on;
	path := 'seq scan'; diff := hot_twin_diff('SELECT * FROM %I'); RETURN NEXT;
END $$;

-- 40 small-INSERT rows (a heap page of their own) and 300 row-group rows
INSERT INTO hot_c SELECT g, g % 10, 0, 'w', g FROM generate_series(1, 40) g;
INSERT INTO hot_h SELECT g, g % 10, 0, 'w', g FROM generate_series(1, 40) g;
INSERT INTO hot_c SELECT g, g % 10, 0, 'w', g FROM generate_series(101, 400) g;
INSERT INTO hot_h SELECT g, g % 10, 0, 'w', g FROM generate_series(101, 400) g;

-- two rounds of updates changing no indexed column, on one heap page
-- (sequential scans: an index scan would count in idx_tup_read below)
SET enable_indexscan = off;
SET enable_bitmapscan = off;
UPDATE hot_c SET v = v + 1 WHERE id <= 40;
UPDATE hot_h SET v = v + 1 WHERE id <= 40;
UPDATE hot_c SET v = v + 1 WHERE id <= 40;
UPDATE hot_h SET v = v + 1 WHERE id <= 40;
RESET enable_indexscan;
RESET enable_bitmapscan;

-- the indexes hold one entry per row, as heap's: a first index scan reads
-- 40 entries of each primary key (120 if every version had its own)
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*), sum(v) FROM hot_c WHERE id BETWEEN 1 AND 40;
SELECT count(*), sum(v) FROM hot_h WHERE id BETWEEN 1 AND 40;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT pg_stat_force_next_flush();
SELECT pg_stat_clear_snapshot();
SELECT indexrelid::regclass, idx_tup_read FROM pg_stat_user_indexes
WHERE indexrelid IN ('hot_c_pkey'::regclass, 'hot_h_pkey'::regclass) ORDER BY 1;

-- row-group rows: the first update of each promotes it and updates its
-- copy (a HOT update where the new version fits on the copy's page, see
-- hot_update_rowgroup.sql), the second a HOT version after it
UPDATE hot_c SET v = v + 10 WHERE id BETWEEN 101 AND 120;
UPDATE hot_h SET v = v + 10 WHERE id BETWEEN 101 AND 120;
UPDATE hot_c SET v = v + 10 WHERE id BETWEEN 101 AND 110;
UPDATE hot_h SET v = v + 10 WHERE id BETWEEN 101 AND 110;
SELECT * FROM hot_all_paths();
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT id, k, v FROM hot_c WHERE id IN (1, 40, 101, 110, 120) ORDER BY id;
SELECT id, k, v FROM hot_c WHERE k = 3 AND id < 50 ORDER BY id;
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM hot_c WHERE b BETWEEN 1 AND 400;
SELECT count(*), sum(v) FROM hot_c WHERE b BETWEEN 1 AND 400;
RESET enable_indexscan;
RESET enable_seqscan;

-- unique checks find the live end of a chain from its start
INSERT INTO hot_c VALUES (3, 0, 0, 'dup', 3);
INSERT INTO hot_c VALUES (105, 0, 0, 'dup', 105);
INSERT INTO hot_c VALUES (3, 0, 0, 'dup', 3) ON CONFLICT (id) DO UPDATE SET v = hot_c.v + 100;
INSERT INTO hot_h VALUES (3, 0, 0, 'dup', 3) ON CONFLICT (id) DO UPDATE SET v = hot_h.v + 100;
SELECT id, v FROM hot_c WHERE id = 3;

-- an index on a column the chains changed: each row under its chain's start
UPDATE hot_c SET w = 'w' || id WHERE id % 3 = 0;
UPDATE hot_h SET w = 'w' || id WHERE id % 3 = 0;
CREATE INDEX hot_c_w ON hot_c (w);
CREATE INDEX hot_h_w ON hot_h (w);
SELECT * FROM hot_all_paths();
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT id, w FROM hot_c WHERE w IN ('w', 'w3', 'w102', 'w39') AND id IN (1, 3, 102, 39) ORDER BY id;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- VACUUM: dead chain starts become redirects to their live members
VACUUM hot_c;
VACUUM hot_h;
SELECT * FROM hot_all_paths();
INSERT INTO hot_c VALUES (7, 0, 0, 'dup', 7);
-- more HOT updates: the redirects move on; then deletes: whole chains die
UPDATE hot_c SET v = v + 1 WHERE id <= 20 OR id BETWEEN 101 AND 105;
UPDATE hot_h SET v = v + 1 WHERE id <= 20 OR id BETWEEN 101 AND 105;
VACUUM hot_c;
VACUUM hot_h;
SELECT * FROM hot_all_paths();
DELETE FROM hot_c WHERE id % 5 = 0 AND (id <= 40 OR id BETWEEN 101 AND 120);
DELETE FROM hot_h WHERE id % 5 = 0 AND (id <= 40 OR id BETWEEN 101 AND 120);
VACUUM hot_c;
VACUUM hot_h;
SELECT * FROM hot_all_paths();
-- the deleted rows' keys are free again
INSERT INTO hot_c VALUES (5, 5, 0, 'again', 5), (105, 5, 0, 'again', 105);
INSERT INTO hot_h VALUES (5, 5, 0, 'again', 5), (105, 5, 0, 'again', 105);
SELECT * FROM hot_all_paths();

-- compaction moves the chains' live ends into row groups (with index
-- entries); VACUUM then removes the chains and their starts' entries
SELECT colstore.compact('hot_c') > 0 AS moved;
SELECT * FROM hot_all_paths();
VACUUM hot_c;
SELECT * FROM hot_all_paths();
UPDATE hot_c SET v = v + 1 WHERE id BETWEEN 1 AND 12;
UPDATE hot_h SET v = v + 1 WHERE id BETWEEN 1 AND 12;
SELECT * FROM hot_all_paths();

-- rebuilding the indexes, and the table
REINDEX TABLE hot_c;
SELECT * FROM hot_all_paths();
UPDATE hot_c SET v = v + 1 WHERE id BETWEEN 1 AND 12;
UPDATE hot_h SET v = v + 1 WHERE id BETWEEN 1 AND 12;
VACUUM FULL hot_c;
SELECT * FROM hot_all_paths();
SELECT count(*), sum(v), sum(k) FROM hot_c;
SELECT colstore.verify('hot_c');

DROP TABLE hot_c, hot_h;
DROP FUNCTION hot_all_paths();
DROP FUNCTION hot_twin_diff(text);
RESET colstore.auto_compaction;
