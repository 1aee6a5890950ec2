-- Dense deletes through the delete log: a statement deleting consecutive
-- rows extends its run of each 64-row window in place (without reading the
-- page's other runs while the run is the page's last and no earlier run
-- covers its window).  Several commands of one transaction, subtransactions
-- that abort or commit, and windows shared between them must each keep runs
-- of their own (xid, command id): cursors opened between the commands, a
-- rollback to a savepoint and every read path against a heap twin would
-- show a run extended by the wrong command.  Sizes show that one run takes
-- a window's rows (a run per row would overflow the segment pages and make
-- heap copies).
SET colstore.auto_compaction = off;
CREATE TABLE dd (id int PRIMARY KEY, v int, pad text) USING colstore
	WITH (row_group_size = 20000, autovacuum_enabled = false);
CREATE TABLE ddh (id int PRIMARY KEY, v int, pad text) WITH (autovacuum_enabled = false);
CREATE INDEX dd_v ON dd (v);
CREATE INDEX ddh_v ON ddh (v);
INSERT INTO dd SELECT i, i % 89, 'p' || i FROM generate_series(1, 40000) i;
INSERT INTO ddh SELECT * FROM dd;
CREATE TEMP TABLE dd_size AS SELECT pg_relation_size('dd') / 8192 AS pages;

CREATE FUNCTION dd_same() RETURNS TABLE (path text, same bool) LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL colstore.enable_custom_scan = off;
	RETURN QUERY SELECT 'seq', NOT EXISTS ((TABLE dd EXCEPT ALL TABLE ddh) UNION ALL (TABLE ddh EXCEPT ALL TABLE dd));
	SET LOCAL colstore.enable_custom_scan = on;
	RETURN QUERY SELECT 'custom scan', (SELECT array_agg(id ORDER BY id) FROM dd WHERE v < 40) IS NOT DISTINCT FROM (SELECT array_agg(id ORDER BY id) FROM ddh WHERE v < 40);
	RETURN QUERY SELECT 'aggregate', (SELECT (count(*), sum(v), sum(id::bigint)) FROM dd) IS NOT DISTINCT FROM (SELECT (count(*), sum(v), sum(id::bigint)) FROM ddh);
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = on;
	RETURN QUERY SELECT 'index', (SELECT array_agg(v ORDER BY id) FROM dd WHERE id BETWEEN 0 AND 1000000) IS NOT DISTINCT FROM (SELECT array_agg(v ORDER BY id) FROM ddh WHERE id BETWEEN 0 AND 1000000);
	RETURN QUERY SELECT 'index point', (SELECT count(*) FROM generate_series(1, 40000, 37) g WHERE EXISTS (SELECT FROM dd WHERE id = g)) = (SELECT count(*) FROM generate_series(1, 40000, 37) g WHERE EXISTS (SELECT FROM ddh WHERE id = g));
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = on;
	RETURN QUERY SELECT 'bitmap', (SELECT (count(*), sum(id::bigint)) FROM dd WHERE v IN (3, 44, 88)) IS NOT DISTINCT FROM (SELECT (count(*), sum(id::bigint)) FROM ddh WHERE v IN (3, 44, 88));
END $$;

\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql

-- 1. One transaction, several dense DELETE commands whose ranges share
-- windows (3000, 6000 and 9000 are no multiples of 64), a savepoint rolled
-- back in the middle and one released; cursors opened between the commands
-- see what their command ids allow
BEGIN;
DECLARE c0 CURSOR FOR SELECT count(*), sum(id::bigint) FROM dd WHERE id <= 13000;
DELETE FROM dd WHERE id BETWEEN 1 AND 3000;
DECLARE c1 CURSOR FOR SELECT count(*), sum(id::bigint) FROM dd WHERE id <= 13000;
DELETE FROM dd WHERE id BETWEEN 3001 AND 6000;
SAVEPOINT s;
DELETE FROM dd WHERE id BETWEEN 6001 AND 9000;
SELECT count(*) AS in_savepoint FROM dd WHERE id <= 13000;
ROLLBACK TO SAVEPOINT s;
SELECT count(*) AS after_rollback FROM dd WHERE id <= 13000;
DELETE FROM dd WHERE id BETWEEN 7001 AND 10000;
SAVEPOINT s2;
DELETE FROM dd WHERE id BETWEEN 10001 AND 12000;
RELEASE SAVEPOINT s2;
FETCH c0;
FETCH c1;
SELECT count(*) AS now, sum(id::bigint) FROM dd WHERE id <= 13000;
-- deleted rows are gone for the deleter's later commands
DELETE FROM dd WHERE id BETWEEN 2990 AND 3010;
UPDATE dd SET v = 0 WHERE id BETWEEN 5990 AND 6010;
COMMIT;
DELETE FROM ddh WHERE id BETWEEN 1 AND 6000 OR id BETWEEN 7001 AND 12000;
UPDATE ddh SET v = 0 WHERE id BETWEEN 5990 AND 6010;
SELECT count(*) AS kept, min(id), max(id) FROM dd WHERE id <= 13000;
SELECT * FROM dd_same();

-- 2. Odd rows, then even rows, of the same windows in two commands of one
-- transaction (each window gets two runs), and a dense delete rolled back
-- whose windows a later committed one deletes again
BEGIN;
DELETE FROM dd WHERE id BETWEEN 13001 AND 16000 AND id % 2 = 1;
DECLARE c2 CURSOR FOR SELECT count(*) FROM dd WHERE id BETWEEN 13001 AND 16000;
DELETE FROM dd WHERE id BETWEEN 13001 AND 16000 AND id % 2 = 0;
FETCH c2;
SELECT count(*) AS left_in_range FROM dd WHERE id BETWEEN 13001 AND 16000;
COMMIT;
BEGIN;
DELETE FROM dd WHERE id BETWEEN 20001 AND 30000;
ROLLBACK;
DELETE FROM dd WHERE id BETWEEN 25001 AND 35000;
DELETE FROM ddh WHERE id BETWEEN 13001 AND 16000 OR id BETWEEN 25001 AND 35000;
SELECT * FROM dd_same();

-- 3. No heap copies: every deleted row went to a run of its window
SELECT pg_relation_size('dd') / 8192 - pages < 24 AS no_copies FROM dd_size;
SELECT count(*) AS groups, sum(map_pages) < 24 AS few_pages FROM colstore.row_group_deletes('dd');
SELECT colstore.verify('dd');

-- 4. The whole table in one command, after VACUUM made bits of the
-- committed runs: every read path finds nothing, and VACUUM retires the
-- groups
SELECT settle();
VACUUM dd;
SELECT * FROM dd_same();
CREATE TEMP TABLE dd_size2 AS SELECT pg_relation_size('dd') / 8192 AS pages;
DELETE FROM dd;
DELETE FROM ddh;
SELECT * FROM dd_same();
-- about 15,000 rows deleted: at most the log pages of untouched segments
SELECT pg_relation_size('dd') / 8192 - pages < 6 AS no_copies FROM dd_size2;
SELECT settle();
VACUUM dd;
SELECT count(*) FILTER (WHERE state = 'emptied') AS emptied, count(*) AS groups
FROM colstore.row_groups('dd');
SELECT colstore.verify('dd');

-- 5. The same in a TEMPORARY and an UNLOGGED table (local buffers, no WAL)
CREATE TEMP TABLE ddt (id int PRIMARY KEY, v int) USING colstore;
CREATE UNLOGGED TABLE ddu (id int PRIMARY KEY, v int) USING colstore;
INSERT INTO ddt SELECT i, i FROM generate_series(1, 20000) i;
INSERT INTO ddu SELECT i, i FROM generate_series(1, 20000) i;
BEGIN;
DELETE FROM ddt WHERE id <= 5000;
DELETE FROM ddu WHERE id <= 5000;
SAVEPOINT s;
DELETE FROM ddt WHERE id BETWEEN 5001 AND 9000;
DELETE FROM ddu WHERE id BETWEEN 5001 AND 9000;
ROLLBACK TO SAVEPOINT s;
DELETE FROM ddt WHERE id BETWEEN 8001 AND 12000;
DELETE FROM ddu WHERE id BETWEEN 8001 AND 12000;
COMMIT;
SELECT count(*), sum(v), min(id) FILTER (WHERE id > 5000), max(id) FILTER (WHERE id < 12001) FROM ddt;
SELECT count(*), sum(v), min(id) FILTER (WHERE id > 5000), max(id) FILTER (WHERE id < 12001) FROM ddu;
SET enable_seqscan = off;
SELECT count(*) FROM ddt WHERE id BETWEEN 4990 AND 8010;
SELECT count(*) FROM ddu WHERE id BETWEEN 4990 AND 8010;
RESET enable_seqscan;
DROP TABLE ddt, ddu;

DROP TABLE dd, ddh;
DROP FUNCTION dd_same(), settle();
