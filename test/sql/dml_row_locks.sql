-- Row locks (SELECT ... FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE) on colstore
-- tables in a single session, and foreign keys that reference or are held by colstore
-- tables (their checks lock rows, their actions update and delete rows).  Every
-- statement gives exactly heap's result.  Tables created without USING are heap.
SET max_parallel_workers_per_gather = 0;

CREATE TABLE lk (id int PRIMARY KEY, k int UNIQUE, v text) USING colstore;
INSERT INTO lk SELECT i, i * 10, 'v' || i FROM generate_series(1, 6) i;

-- every strength returns the rows
SELECT * FROM lk WHERE id = 1 FOR UPDATE;
SELECT * FROM lk WHERE id = 2 FOR NO KEY UPDATE;
SELECT * FROM lk WHERE id = 3 FOR SHARE;
SELECT * FROM lk WHERE id = 4 FOR KEY SHARE;
SELECT * FROM lk ORDER BY id FOR UPDATE;
SELECT id, v FROM lk WHERE k >= 30 ORDER BY id FOR SHARE;
SELECT count(*) FROM (SELECT * FROM lk FOR KEY SHARE) s;
SELECT * FROM lk ORDER BY id LIMIT 2 FOR NO KEY UPDATE;
SELECT * FROM lk WHERE id > 100 FOR UPDATE;
-- through an index scan
SET enable_seqscan = off;
SELECT * FROM lk WHERE id = 5 FOR UPDATE;
SELECT * FROM lk WHERE k = 60 FOR SHARE;
SELECT * FROM lk WHERE id BETWEEN 2 AND 4 ORDER BY id FOR KEY SHARE;
RESET enable_seqscan;
-- NOWAIT and SKIP LOCKED: rows locked by the own transaction are neither an error nor skipped
SELECT * FROM lk WHERE id = 1 FOR UPDATE NOWAIT;
SELECT * FROM lk ORDER BY id FOR SHARE SKIP LOCKED;
BEGIN;
SELECT * FROM lk WHERE id <= 3 ORDER BY id FOR UPDATE;
SELECT * FROM lk WHERE id <= 3 ORDER BY id FOR UPDATE NOWAIT;
SELECT * FROM lk ORDER BY id FOR UPDATE SKIP LOCKED;
SELECT * FROM lk ORDER BY id FOR KEY SHARE SKIP LOCKED;
SELECT * FROM lk WHERE id = 2 FOR SHARE NOWAIT;
COMMIT;

-- locks, then changes, in one transaction
BEGIN;
SELECT * FROM lk WHERE id = 1 FOR SHARE;
UPDATE lk SET v = 'locked then updated' WHERE id = 1;
SELECT * FROM lk WHERE id = 1 FOR UPDATE;
UPDATE lk SET v = v || ' twice' WHERE id = 1;
SELECT * FROM lk WHERE id = 1 FOR KEY SHARE;
SELECT * FROM lk WHERE id = 2 FOR UPDATE;
DELETE FROM lk WHERE id = 2;
SELECT * FROM lk WHERE id = 2 FOR UPDATE;
SELECT * FROM lk WHERE id <= 3 ORDER BY id FOR NO KEY UPDATE;
COMMIT;
SELECT * FROM lk ORDER BY id;
-- a lock taken in a subtransaction that is rolled back
BEGIN;
SELECT * FROM lk WHERE id = 3 FOR SHARE;
SAVEPOINT a;
SELECT * FROM lk WHERE id = 3 FOR UPDATE;
UPDATE lk SET v = 'rolled back' WHERE id = 3;
ROLLBACK TO a;
SELECT * FROM lk WHERE id = 3 FOR UPDATE;
UPDATE lk SET v = 'after savepoint' WHERE id = 3;
COMMIT;
SELECT * FROM lk ORDER BY id;
-- locked rows of an aborted transaction are plain rows again
BEGIN;
SELECT * FROM lk ORDER BY id FOR UPDATE;
ROLLBACK;
SELECT * FROM lk ORDER BY id FOR UPDATE NOWAIT;

-- joins: FOR UPDATE OF one table, and both tables locked
CREATE TABLE side (id int, note text);
INSERT INTO side VALUES (1, 'one'), (3, 'three'), (4, 'four');
SELECT lk.id, lk.v, side.note FROM lk JOIN side USING (id) ORDER BY lk.id FOR UPDATE OF lk;
SELECT lk.id, lk.v, side.note FROM lk JOIN side USING (id) ORDER BY lk.id FOR SHARE OF side;
SELECT lk.id, side.note FROM lk JOIN side USING (id) ORDER BY lk.id FOR NO KEY UPDATE;
SELECT a.id, b.id FROM lk a JOIN lk b ON b.id = a.id + 1 ORDER BY a.id FOR KEY SHARE OF a, b;
-- in a CTE, a subquery and a cursor
WITH l AS (SELECT * FROM lk WHERE id >= 4 FOR UPDATE) SELECT * FROM l ORDER BY id;
SELECT * FROM lk WHERE id IN (SELECT id FROM lk WHERE v LIKE 'v%' FOR SHARE) ORDER BY id;
BEGIN;
DECLARE lc CURSOR FOR SELECT * FROM lk ORDER BY id FOR UPDATE;
FETCH 2 FROM lc;
UPDATE lk SET v = 'via cursor' WHERE CURRENT OF lc;
FETCH ALL FROM lc;
CLOSE lc;
COMMIT;
SELECT * FROM lk ORDER BY id;
-- in PL/pgSQL
DO $$
DECLARE r record;
BEGIN
	SELECT * INTO r FROM lk WHERE id = 4 FOR UPDATE;
	RAISE NOTICE 'locked %', r;
	FOR r IN SELECT * FROM lk WHERE id >= 5 ORDER BY id FOR SHARE LOOP
		RAISE NOTICE 'share-locked %', r;
	END LOOP;
	PERFORM 1 FROM lk WHERE id = 1 FOR KEY SHARE NOWAIT;
	RAISE NOTICE 'found %', FOUND;
END
$$;
-- a partitioned table with colstore partitions
CREATE TABLE lp (id int, k int) PARTITION BY LIST (k);
CREATE TABLE lp1 PARTITION OF lp FOR VALUES IN (1) USING colstore;
CREATE TABLE lp2 PARTITION OF lp FOR VALUES IN (2) USING colstore;
INSERT INTO lp VALUES (1, 1), (2, 2), (3, 1);
SELECT tableoid::regclass, * FROM lp ORDER BY id FOR UPDATE;
SELECT tableoid::regclass, * FROM lp WHERE k = 2 FOR KEY SHARE SKIP LOCKED;
-- on a view
CREATE VIEW lkv AS SELECT id, v FROM lk WHERE id > 3;
SELECT * FROM lkv ORDER BY id FOR UPDATE;

-- a heap table referencing a colstore table
CREATE TABLE par (id int PRIMARY KEY, name text) USING colstore;
INSERT INTO par SELECT i, 'p' || i FROM generate_series(1, 6) i;
CREATE TABLE hc_noact (id int PRIMARY KEY, pid int REFERENCES par);
CREATE TABLE hc_cascade (id int PRIMARY KEY, pid int REFERENCES par ON DELETE CASCADE ON UPDATE CASCADE);
CREATE TABLE hc_setnull (id int PRIMARY KEY, pid int REFERENCES par ON DELETE SET NULL ON UPDATE SET NULL);
INSERT INTO hc_noact VALUES (1, 1), (2, 2);
INSERT INTO hc_cascade VALUES (1, 3), (2, 3), (3, 4);
INSERT INTO hc_setnull VALUES (1, 5), (2, 5), (3, 1);
-- the referenced row must exist
INSERT INTO hc_noact VALUES (3, 100);
UPDATE hc_noact SET pid = 99 WHERE id = 1;
UPDATE hc_noact SET pid = 6 WHERE id = 1;
-- deleting or re-keying a referenced row without an action fails
DELETE FROM par WHERE id = 2;
UPDATE par SET id = 20 WHERE id = 2;
DELETE FROM par WHERE id IN (1, 2);
-- the referenced row may change other columns
UPDATE par SET name = 'renamed' WHERE id = 2;
-- cascades
DELETE FROM par WHERE id = 4;
UPDATE par SET id = 30 WHERE id = 3;
-- SET NULL
DELETE FROM par WHERE id = 5;
UPDATE par SET id = 10 WHERE id = 1;
-- an unreferenced row goes
DELETE FROM par WHERE id = 1;
SELECT * FROM par ORDER BY id;
SELECT * FROM hc_noact ORDER BY id;
SELECT * FROM hc_cascade ORDER BY id;
SELECT * FROM hc_setnull ORDER BY id;
-- a referenced row deleted and inserted again in one transaction, with the check deferred
ALTER TABLE hc_noact ALTER CONSTRAINT hc_noact_pid_fkey DEFERRABLE INITIALLY DEFERRED;
BEGIN;
DELETE FROM par WHERE id = 2;
INSERT INTO par VALUES (2, 'back');
COMMIT;
BEGIN;
DELETE FROM par WHERE id = 2;
COMMIT;
SELECT * FROM par ORDER BY id;
-- a referencing row inserted, and its referenced row deleted, in the same transaction
BEGIN;
INSERT INTO par VALUES (7, 'p7');
INSERT INTO hc_cascade VALUES (7, 7);
SELECT * FROM par WHERE id = 7 FOR UPDATE;
DELETE FROM par WHERE id = 7;
SELECT * FROM hc_cascade ORDER BY id;
COMMIT;

-- a colstore table referencing a colstore table
CREATE TABLE cpar (id int PRIMARY KEY, k int UNIQUE, name text) USING colstore;
INSERT INTO cpar SELECT i, i * 100, 'c' || i FROM generate_series(1, 6) i;
CREATE TABLE cc_noact (id int PRIMARY KEY, pid int REFERENCES cpar, note text) USING colstore;
CREATE TABLE cc_cascade (id int PRIMARY KEY, pid int REFERENCES cpar ON DELETE CASCADE ON UPDATE CASCADE,
	note text) USING colstore;
CREATE TABLE cc_setnull (id int PRIMARY KEY, pk int REFERENCES cpar (k) ON DELETE SET NULL ON UPDATE CASCADE,
	note text) USING colstore;
INSERT INTO cc_noact VALUES (1, 1, 'n1'), (2, 2, 'n2');
INSERT INTO cc_cascade VALUES (1, 3, 'c1'), (2, 3, 'c2'), (3, 4, 'c3'), (4, 1, 'c4');
INSERT INTO cc_setnull VALUES (1, 500, 's1'), (2, 500, 's2'), (3, 600, 's3');
INSERT INTO cc_noact VALUES (3, 100, 'missing');
INSERT INTO cc_cascade VALUES (9, 9, 'missing');
DELETE FROM cpar WHERE id = 1;
UPDATE cpar SET id = 10 WHERE id = 2;
UPDATE cpar SET name = 'still referenced' WHERE id = 2;
DELETE FROM cpar WHERE id = 3;
UPDATE cpar SET id = 40 WHERE id = 4;
UPDATE cpar SET k = 601 WHERE id = 6;
DELETE FROM cpar WHERE id = 5;
SELECT * FROM cpar ORDER BY id;
SELECT * FROM cc_noact ORDER BY id;
SELECT * FROM cc_cascade ORDER BY id;
SELECT * FROM cc_setnull ORDER BY id;
-- the referencing rows change too
UPDATE cc_cascade SET note = note || '+' WHERE pid = 40;
UPDATE cc_cascade SET pid = 6 WHERE id = 3;
UPDATE cc_cascade SET pid = 77 WHERE id = 3;
DELETE FROM cc_noact WHERE id = 1;
DELETE FROM cpar WHERE id = 1;
BEGIN;
DELETE FROM cpar WHERE id = 6;
SELECT * FROM cc_cascade ORDER BY id;
SELECT * FROM cc_setnull ORDER BY id;
ROLLBACK;
SELECT * FROM cpar ORDER BY id;
SELECT * FROM cc_noact ORDER BY id;
SELECT * FROM cc_cascade ORDER BY id;
SELECT * FROM cc_setnull ORDER BY id;
-- a self-referencing colstore table: deleting the root deletes the tree
CREATE TABLE tree (id int PRIMARY KEY, parent int REFERENCES tree ON DELETE CASCADE, name text)
	USING colstore;
INSERT INTO tree VALUES (1, NULL, 'root'), (2, 1, 'a'), (3, 1, 'b'), (4, 2, 'a.a'), (5, 4, 'a.a.a'),
	(6, NULL, 'other root'), (7, 6, 'c');
DELETE FROM tree WHERE id = 2;
SELECT * FROM tree ORDER BY id;
DELETE FROM tree WHERE id = 1;
SELECT * FROM tree ORDER BY id;

-- a colstore table referencing a heap table
CREATE TABLE hpar (id int PRIMARY KEY, name text);
INSERT INTO hpar SELECT i, 'h' || i FROM generate_series(1, 5) i;
CREATE TABLE ch_noact (id int PRIMARY KEY, pid int REFERENCES hpar) USING colstore;
CREATE TABLE ch_cascade (id int PRIMARY KEY, pid int REFERENCES hpar ON DELETE CASCADE ON UPDATE CASCADE)
	USING colstore;
CREATE TABLE ch_setnull (id int PRIMARY KEY, pid int REFERENCES hpar ON DELETE SET NULL) USING colstore;
INSERT INTO ch_noact VALUES (1, 1);
INSERT INTO ch_cascade VALUES (1, 2), (2, 2), (3, 3);
INSERT INTO ch_setnull VALUES (1, 4), (2, 4), (3, 5);
INSERT INTO ch_noact VALUES (2, 50);
UPDATE ch_noact SET pid = 51 WHERE id = 1;
DELETE FROM hpar WHERE id = 1;
UPDATE hpar SET id = 100 WHERE id = 1;
DELETE FROM hpar WHERE id = 2;
UPDATE hpar SET id = 30 WHERE id = 3;
DELETE FROM hpar WHERE id = 4;
SELECT * FROM hpar ORDER BY id;
SELECT * FROM ch_noact ORDER BY id;
SELECT * FROM ch_cascade ORDER BY id;
SELECT * FROM ch_setnull ORDER BY id;
-- TRUNCATE of a referenced table
TRUNCATE hpar;
TRUNCATE hpar CASCADE;
SELECT (SELECT count(*) FROM ch_noact) AS noact, (SELECT count(*) FROM ch_cascade) AS cascade,
	(SELECT count(*) FROM ch_setnull) AS setnull;

DROP VIEW lkv;
DROP TABLE hc_noact, hc_cascade, hc_setnull, par, cc_noact, cc_cascade, cc_setnull, cpar, tree,
	ch_noact, ch_cascade, ch_setnull, hpar, side, lp, lk;
