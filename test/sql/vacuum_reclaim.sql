-- VACUUM reclaims what UPDATE and DELETE leave behind: dead row versions and
-- the states of deleted rows are pruned, their index entries removed and
-- their space reused; the heap tuples that stay are frozen, so relfrozenxid
-- and relminmxid advance.  Every step is compared with a heap table that
-- gets the same statements.
-- (no compaction worker, which this session's or autovacuum's VACUUM would
-- start, may move the versions VACUUM is to reclaim)
SET colstore.auto_compaction = off;
CREATE TABLE rc (id int PRIMARY KEY, v int, wide text) USING colstore
	WITH (autovacuum_enabled = false);
-- (autovacuum must not advance the heap table past what the test compares)
CREATE TABLE rh (id int PRIMARY KEY, v int, wide text) WITH (autovacuum_enabled = false);
CREATE INDEX rc_v ON rc (v);
CREATE INDEX rh_v ON rh (v);
CREATE INDEX rc_id_hash ON rc USING hash (id);
CREATE INDEX rh_id_hash ON rh USING hash (id);
-- 20,000 rows: more than one chunk, so ColstoreAgg is planned for aggregates
INSERT INTO rc SELECT i, i, CASE WHEN i % 1000 = 0 THEN repeat(md5(i::text), 300) END
FROM generate_series(1, 20000) i;
INSERT INTO rh SELECT * FROM rc;

-- the two tables hold the same rows, read by every scan path
CREATE FUNCTION same_rows() RETURNS TABLE (path text, same bool) LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	RETURN QUERY SELECT 'seq', NOT EXISTS ((TABLE rc EXCEPT ALL TABLE rh) UNION ALL (TABLE rh EXCEPT ALL TABLE rc));
	RETURN QUERY SELECT 'aggregate', (SELECT (count(*), sum(v), count(wide)) FROM rc) = (SELECT (count(*), sum(v), count(wide)) FROM rh);
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = on;
	RETURN QUERY SELECT 'index', (SELECT array_agg(v ORDER BY id) FROM rc WHERE id BETWEEN 1 AND 20000) IS NOT DISTINCT FROM (SELECT array_agg(v ORDER BY id) FROM rh WHERE id BETWEEN 1 AND 20000);
	RETURN QUERY SELECT 'index on v', (SELECT array_agg(id ORDER BY id) FROM rc WHERE v BETWEEN 5000 AND 60000) IS NOT DISTINCT FROM (SELECT array_agg(id ORDER BY id) FROM rh WHERE v BETWEEN 5000 AND 60000);
	RETURN QUERY SELECT 'hash', (SELECT count(*) FROM rc WHERE id IN (2, 3, 1000, 4002, 19999)) = (SELECT count(*) FROM rh WHERE id IN (2, 3, 1000, 4002, 19999));
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = on;
	RETURN QUERY SELECT 'bitmap', (SELECT sum(v::bigint * id) FROM rc WHERE v BETWEEN 1 AND 60000) IS NOT DISTINCT FROM (SELECT sum(v::bigint * id) FROM rh WHERE v BETWEEN 1 AND 60000);
END $$;

-- one round of changes: updates of row-group rows and of earlier versions,
-- deletes of both, and new rows
CREATE PROCEDURE change_both(round int) LANGUAGE plpgsql AS $$
BEGIN
	UPDATE rc SET v = v + 1 WHERE id % 2 = 0;
	UPDATE rh SET v = v + 1 WHERE id % 2 = 0;
	UPDATE rc SET wide = 'w' || round WHERE id % 1000 = 0;
	UPDATE rh SET wide = 'w' || round WHERE id % 1000 = 0;
	DELETE FROM rc WHERE id % 97 = round;
	DELETE FROM rh WHERE id % 97 = round;
	INSERT INTO rc SELECT i, i, NULL FROM generate_series(100000 * round, 100000 * round + 99) i;
	INSERT INTO rh SELECT i, i, NULL FROM generate_series(100000 * round, 100000 * round + 99) i;
END $$;

-- VACUUM reclaims only what no snapshot sees: wait until no other backend
-- of this database (autovacuum's ANALYZE of an earlier test's table, say)
-- holds one
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql

CALL change_both(1);
SELECT * FROM same_rows();
-- VACUUM (FREEZE) waits for every page's cleanup lock, so each round
-- reclaims everything dead
VACUUM (FREEZE) rc;
SELECT * FROM same_rows();
CALL change_both(2);
SELECT settle();
VACUUM (FREEZE) rc;
CALL change_both(3);
SELECT settle();
VACUUM (FREEZE) rc;
SELECT pg_relation_size('rc') AS table_size_3, pg_relation_size('rc_v') AS index_size_3 \gset
CALL change_both(4);
SELECT settle();
VACUUM (FREEZE) rc;
CALL change_both(5);
SELECT settle();
VACUUM (FREEZE) rc;
CALL change_both(6);
SELECT settle();
VACUUM (FREEZE) rc;
SELECT * FROM same_rows();
-- the space of removed versions is reused: each round writes 10,000 new
-- versions, about 40% of the table's size, but rounds 4 to 6 together grow
-- the table and its index by less than 10% (deleted rows keep a line
-- pointer each, and the new rows need room)
SELECT pg_relation_size('rc') - :table_size_3 < :table_size_3 / 10 AS table_space_reused,
	pg_relation_size('rc_v') - :index_size_3 < :index_size_3 / 10 AS index_space_reused;
SELECT colstore.verify('rc');

-- heap tuples are frozen: relfrozenxid advances as far as heap's
VACUUM (FREEZE) rh;
SELECT age(c.relfrozenxid) <= age(h.relfrozenxid) AS relfrozenxid_advanced
FROM pg_class c, pg_class h WHERE c.relname = 'rc' AND h.relname = 'rh';

-- a multixact (a row locked, then updated in a subtransaction) no longer
-- holds relfrozenxid and relminmxid back
BEGIN;
SELECT id FROM rc WHERE id = 10 FOR SHARE;
SAVEPOINT s;
UPDATE rc SET v = v + 1 WHERE id = 10;
COMMIT;
BEGIN;
SELECT id FROM rh WHERE id = 10 FOR SHARE;
SAVEPOINT s;
UPDATE rh SET v = v + 1 WHERE id = 10;
COMMIT;
VACUUM (FREEZE) rh;
VACUUM (FREEZE) rc;
SELECT age(c.relfrozenxid) <= age(h.relfrozenxid) AS relfrozenxid_advanced,
	mxid_age(c.relminmxid) <= mxid_age(h.relminmxid) AS relminmxid_advanced
FROM pg_class c, pg_class h WHERE c.relname = 'rc' AND h.relname = 'rh';
SELECT * FROM same_rows();

-- INDEX_CLEANUP off removes nothing; the next VACUUM does
DELETE FROM rc WHERE id BETWEEN 3001 AND 4000;
DELETE FROM rh WHERE id BETWEEN 3001 AND 4000;
VACUUM (INDEX_CLEANUP off) rc;
SELECT * FROM same_rows();
VACUUM rc;
SELECT * FROM same_rows();

-- rows of an aborted insert: VACUUM takes their index entries away too,
-- in several index passes when they do not fit in maintenance_work_mem
-- (1MB holds about 87,000 TIDs): afterwards every index holds exactly the
-- live rows
BEGIN;
INSERT INTO rc SELECT i, -i, NULL FROM generate_series(800001, 1000000) i;
SELECT count(*) FROM rc WHERE id > 800000;
ROLLBACK;
SET maintenance_work_mem = '1MB';
VACUUM rc;
RESET maintenance_work_mem;
SELECT c.relname, c.reltuples = (SELECT count(*) FROM rc) AS index_holds_live_rows
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
WHERE i.indrelid = 'rc'::regclass ORDER BY c.relname;
SET enable_seqscan = off;
SELECT count(*) FROM rc WHERE v < 0;
RESET enable_seqscan;

-- VACUUM's cleanup summarizes BRIN ranges
CREATE INDEX rc_brin ON rc USING brin (id) WITH (pages_per_range = 4);
INSERT INTO rc SELECT i, i, NULL FROM generate_series(900000, 920000) i;
INSERT INTO rh SELECT i, i, NULL FROM generate_series(900000, 920000) i;
VACUUM rc;
SELECT brin_summarize_new_values('rc_brin') <= 1 AS summarized_by_vacuum;

-- a new index over a table with pruned rows indexes exactly the live rows
DROP INDEX rc_v;
CREATE INDEX rc_v2 ON rc (v, id);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT (SELECT count(*) FROM rc WHERE v > -2147483648) =
	(SELECT count(*) FROM rh WHERE v > -2147483648) AS index_complete;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT colstore.verify('rc');

-- VACUUM FULL after pruning keeps every row
VACUUM FULL rc;
SELECT * FROM same_rows();

DROP PROCEDURE change_both(int);
DROP FUNCTION same_rows();
DROP FUNCTION settle();
DROP TABLE rc, rh;
