-- HOT chains rooted at promoted copies: the first UPDATE of a row-group row
-- promotes it (a frozen heap copy holds its delete and lock state) and
-- updates the copy; when the new version lands on the copy's page and no
-- indexed column changed, that is a HOT update and makes no index entries,
-- as on heap.  The row's own entries (its row-group TID) lead every index
-- path on into the chain.  Each step compares a bulk-loaded colstore table
-- with a heap twin (hr_twin_diff: rows one has and the other has not, 0
-- when equal) through the plan the settings force.
SET colstore.auto_compaction = off;
CREATE TABLE hr_c (id int PRIMARY KEY, k int, v int, w text, b int) USING colstore
	WITH (autovacuum_enabled = false);
CREATE TABLE hr_h (id int PRIMARY KEY, k int, v int, w text, b int)
	WITH (autovacuum_enabled = false, fillfactor = 50);
CREATE INDEX hr_c_k ON hr_c (k);
CREATE INDEX hr_h_k ON hr_h (k);
-- b (= id, never changed) has only a BRIN index: its bitmaps are lossy
CREATE INDEX hr_c_brin ON hr_c USING brin (b) WITH (pages_per_range = 1);
CREATE INDEX hr_h_brin ON hr_h USING brin (b) WITH (pages_per_range = 1);

CREATE FUNCTION hr_twin_diff(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
	m bigint;
BEGIN
	EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) d',
				   format(q, 'hr_c'), format(q, 'hr_h')) INTO n;
	EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) d',
				   format(q, 'hr_h'), format(q, 'hr_c')) INTO m;
	RETURN n + m;
END $$;

-- every plan a query through an index can take, on both tables
CREATE FUNCTION hr_all_paths() RETURNS TABLE (path text, diff bigint)
LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_bitmapscan = off;
	path := 'index id'; diff := hr_twin_diff('SELECT * FROM %I WHERE id BETWEEN 1 AND 2000'); RETURN NEXT;
	path := 'index k'; diff := hr_twin_diff('SELECT * FROM %I WHERE k IN (1, 3, 7)'); RETURN NEXT;
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = on;
	path := 'bitmap k'; diff := hr_twin_diff('SELECT * FROM %I WHERE k IN (1, 3, 7)'); RETURN NEXT;
	path := 'bitmap id'; diff := hr_twin_diff('SELECT * FROM %I WHERE id < 450 OR id > 1900'); RETURN NEXT;
	path := 'brin (lossy)'; diff := hr_twin_diff('SELECT * FROM %I WHERE b BETWEEN 1 AND 2000'); RETURN NEXT;
	path := 'brin and k'; diff := hr_twin_diff('SELECT * FROM %I WHERE b BETWEEN 1 AND 2000 AND k = 3'); RETURN NEXT;
	path := 'brin moved b'; diff := hr_twin_diff('SELECT * FROM %I WHERE b > 2000'); RETURN NEXT;
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL enable_seqscan = on;
	path := 'seq scan'; diff := hr_twin_diff('SELECT * FROM %I'); RETURN NEXT;
END $$;

-- primary key entries index scans have read (hr_pkey_read, before and
-- after an index scan of rows 1..700: \gset keeps the first count)
CREATE FUNCTION hr_pkey_read(t text) RETURNS bigint LANGUAGE sql AS $$
	SELECT idx_tup_read FROM pg_stat_user_indexes WHERE indexrelid = (t || '_pkey')::regclass $$;

-- one UPDATE statement per row (no promotion batch), found by a sequential
-- scan (an index scan would count in idx_tup_read)
CREATE PROCEDURE hr_update_each(t text, first int, last int, step int, delta int)
LANGUAGE plpgsql AS $$
DECLARE
	i int;
BEGIN
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	FOR i IN first .. last BY step LOOP
		EXECUTE format('UPDATE %I SET v = v + $1 WHERE id = $2', t) USING delta, i;
	END LOOP;
END $$;

-- 2000 row-group rows
INSERT INTO hr_c SELECT g, g % 10, 0, 'w', g FROM generate_series(1, 2000) g;
INSERT INTO hr_h SELECT g, g % 10, 0, 'w', g FROM generate_series(1, 2000) g;
SELECT count(*) FROM colstore.row_groups('hr_c');

-- rows 7, 14, ..., 350 each updated twice, one statement each: the first
-- update promotes the row and HOT-updates its copy, the second HOT-updates
-- that (all on one heap page); no update makes index entries, so the
-- primary key still holds 700 entries for rows 1..700 (750 if the first
-- update of each made its own)
CALL hr_update_each('hr_c', 7, 350, 7, 1);
CALL hr_update_each('hr_h', 7, 350, 7, 1);
CALL hr_update_each('hr_c', 7, 350, 7, 10);
CALL hr_update_each('hr_h', 7, 350, 7, 10);
SELECT pg_stat_force_next_flush() \gset
SELECT pg_stat_clear_snapshot() \gset
SELECT hr_pkey_read('hr_c') AS c0, hr_pkey_read('hr_h') AS h0 \gset
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) FROM hr_c WHERE id BETWEEN 1 AND 700;
SELECT count(*) FROM hr_h WHERE id BETWEEN 1 AND 700;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT pg_stat_force_next_flush() \gset
SELECT pg_stat_clear_snapshot() \gset
SELECT hr_pkey_read('hr_c') - :c0 AS colstore_entries, hr_pkey_read('hr_h') - :h0 AS heap_entries;
SELECT * FROM hr_all_paths();
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT id, k, v FROM hr_c WHERE id IN (6, 7, 14, 350, 357) ORDER BY id;
SELECT id, v FROM hr_c WHERE k = 7 AND id < 60 ORDER BY id;
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM hr_c WHERE b BETWEEN 1 AND 2000;
SELECT count(*), sum(v) FROM hr_c WHERE b BETWEEN 1 AND 2000;
SELECT count(*), sum(v) FROM hr_c WHERE id < 450 OR id > 1900;
RESET enable_indexscan;
RESET enable_seqscan;

-- unique checks find the live end of a chain from the row
INSERT INTO hr_c VALUES (14, 0, 0, 'dup', 14);
INSERT INTO hr_c VALUES (21, 0, 0, 'dup', 21) ON CONFLICT (id) DO UPDATE SET v = hr_c.v + 100;
INSERT INTO hr_h VALUES (21, 0, 0, 'dup', 21) ON CONFLICT (id) DO UPDATE SET v = hr_h.v + 100;
SELECT id, v FROM hr_c WHERE id = 21;
SELECT * FROM hr_all_paths();

-- an UPDATE that changes only a column with a BRIN index is HOT too (from
-- 16), and its BRIN entry must describe the row's range: a lossy page of
-- the heap page does not return the chain's member, the row's does
UPDATE hr_c SET b = 5000 + id WHERE id = 3;
UPDATE hr_h SET b = 5000 + id WHERE id = 3;
UPDATE hr_c SET b = 6000 + id WHERE id IN (7, 14);
UPDATE hr_h SET b = 6000 + id WHERE id IN (7, 14);
SET enable_seqscan = off;
SET enable_indexscan = off;
SELECT id, b FROM hr_c WHERE b > 2000 ORDER BY id;
RESET enable_seqscan;
RESET enable_indexscan;
SELECT * FROM hr_all_paths();

-- an index on a column the chains changed: each row's live member under
-- the row's TID
CREATE INDEX hr_c_v ON hr_c (v);
CREATE INDEX hr_h_v ON hr_h (v);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*), sum(id) FROM hr_c WHERE v >= 11;
SELECT count(*), sum(id) FROM hr_h WHERE v >= 11;
SELECT count(*) FROM hr_c WHERE v = 1;
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_seqscan = off;
SET enable_indexscan = off;
SELECT count(*), sum(id) FROM hr_c WHERE v >= 11;
RESET enable_seqscan;
RESET enable_indexscan;
DROP INDEX hr_c_v, hr_h_v;

-- VACUUM: each dead copy becomes a redirect to its chain's live member
VACUUM hr_c;
VACUUM hr_h;
SELECT * FROM hr_all_paths();
SELECT pg_stat_force_next_flush() \gset
SELECT pg_stat_clear_snapshot() \gset
SELECT hr_pkey_read('hr_c') AS c0, hr_pkey_read('hr_h') AS h0 \gset
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) FROM hr_c WHERE id BETWEEN 1 AND 700;
SELECT count(*) FROM hr_h WHERE id BETWEEN 1 AND 700;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT pg_stat_force_next_flush() \gset
SELECT pg_stat_clear_snapshot() \gset
SELECT hr_pkey_read('hr_c') - :c0 AS colstore_entries, hr_pkey_read('hr_h') - :h0 AS heap_entries;
INSERT INTO hr_c VALUES (28, 0, 0, 'dup', 28);
-- more HOT updates: the redirects move on; VACUUM again
CALL hr_update_each('hr_c', 7, 350, 7, 100);
CALL hr_update_each('hr_h', 7, 350, 7, 100);
VACUUM hr_c;
VACUUM hr_h;
SELECT * FROM hr_all_paths();
SELECT colstore.verify('hr_c');
-- deletes: whole chains die, the redirected copies become LP_DEAD and the
-- rows' entries go; the keys are free again
DELETE FROM hr_c WHERE id % 35 = 0 AND id <= 700;
DELETE FROM hr_h WHERE id % 35 = 0 AND id <= 700;
VACUUM hr_c;
VACUUM hr_h;
SELECT * FROM hr_all_paths();
SELECT pg_stat_force_next_flush() \gset
SELECT pg_stat_clear_snapshot() \gset
SELECT hr_pkey_read('hr_c') AS c0, hr_pkey_read('hr_h') AS h0 \gset
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) FROM hr_c WHERE id BETWEEN 1 AND 700;
SELECT count(*) FROM hr_h WHERE id BETWEEN 1 AND 700;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT pg_stat_force_next_flush() \gset
SELECT pg_stat_clear_snapshot() \gset
-- (as many as heap's: VACUUM leaves dead entries in both while another
-- session's snapshot, such as autovacuum's ANALYZE, holds the horizon back)
SELECT (hr_pkey_read('hr_c') - :c0) - (hr_pkey_read('hr_h') - :h0) AS colstore_minus_heap_entries;
INSERT INTO hr_c VALUES (35, 5, 0, 'again', 35), (70, 0, 0, 'again', 70);
INSERT INTO hr_h VALUES (35, 5, 0, 'again', 35), (70, 0, 0, 'again', 70);
SELECT * FROM hr_all_paths();

-- a row group whose only remaining row has a redirected copy keeps its
-- index entries and is not retired; once the chain dies it is
CREATE TABLE hr_g (id int PRIMARY KEY, v int) USING colstore WITH (autovacuum_enabled = false);
INSERT INTO hr_g SELECT g, 0 FROM generate_series(1, 500) g;
UPDATE hr_g SET v = 1 WHERE id = 250;
UPDATE hr_g SET v = 2 WHERE id = 250;
DELETE FROM hr_g WHERE id <> 250;
VACUUM hr_g;
VACUUM hr_g;
SELECT row_count, state FROM colstore.row_groups('hr_g');
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT * FROM hr_g WHERE id = 250;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT * FROM hr_g;
SELECT colstore.verify('hr_g');
DELETE FROM hr_g WHERE id = 250;
VACUUM hr_g;
VACUUM hr_g;
SELECT row_count, state FROM colstore.row_groups('hr_g');
SELECT count(*) FROM hr_g;
DROP TABLE hr_g;

-- compaction moves the chains' live ends into row groups (with index
-- entries) and rewrites mostly-deleted groups; VACUUM then removes the
-- chains and their rows' entries
CALL hr_update_each('hr_c', 3, 90, 3, 1000);
CALL hr_update_each('hr_h', 3, 90, 3, 1000);
SELECT colstore.compact('hr_c') > 0 AS moved;
SELECT * FROM hr_all_paths();
VACUUM hr_c;
SELECT * FROM hr_all_paths();
CALL hr_update_each('hr_c', 3, 90, 3, 1000);
CALL hr_update_each('hr_h', 3, 90, 3, 1000);
SELECT * FROM hr_all_paths();
DELETE FROM hr_c WHERE id BETWEEN 1000 AND 2000 AND id <> 1500;
DELETE FROM hr_h WHERE id BETWEEN 1000 AND 2000 AND id <> 1500;
CALL hr_update_each('hr_c', 1500, 1500, 1, 1);
CALL hr_update_each('hr_h', 1500, 1500, 1, 1);
VACUUM hr_c;
SELECT colstore.compact('hr_c') > 0 AS moved;
SELECT * FROM hr_all_paths();
VACUUM hr_c;
VACUUM hr_c;
SELECT * FROM hr_all_paths();
SELECT colstore.verify('hr_c');

-- rebuilding the indexes, and the table
CALL hr_update_each('hr_c', 2, 40, 2, 1);
CALL hr_update_each('hr_h', 2, 40, 2, 1);
REINDEX TABLE hr_c;
SELECT * FROM hr_all_paths();
CREATE INDEX CONCURRENTLY hr_c_v ON hr_c (v);
SELECT indisvalid FROM pg_index WHERE indexrelid = 'hr_c_v'::regclass;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*), sum(v) FROM hr_c WHERE v > 0;
SELECT count(*), sum(v) FROM hr_h WHERE v > 0;
RESET enable_seqscan;
RESET enable_bitmapscan;
VACUUM FULL hr_c;
SELECT * FROM hr_all_paths();
SELECT count(*), sum(v), sum(k) FROM hr_c;
SELECT colstore.verify('hr_c');

DROP TABLE hr_c, hr_h;
DROP FUNCTION hr_all_paths();
DROP FUNCTION hr_twin_diff(text);
DROP FUNCTION hr_pkey_read(text);
DROP PROCEDURE hr_update_each(text, int, int, int, int);
RESET colstore.auto_compaction;
