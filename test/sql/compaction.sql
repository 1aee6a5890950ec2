-- colstore.compact(): heap tuples (row versions written by UPDATE) move into
-- row groups; every index finds the rows at their new TIDs, values (TOASTed
-- ones too) are unchanged, and VACUUM then gives the heap space back.
-- (the compaction worker is 009_auto_compaction's; here it would race the
-- explicit calls)
SET colstore.auto_compaction = off;
CREATE TABLE cp (id int PRIMARY KEY, v int, t text, big text) USING colstore;
CREATE INDEX cp_expr ON cp ((v % 7));
CREATE INDEX cp_partial ON cp (t) WHERE v > 1500;
INSERT INTO cp SELECT i, i, 'row ' || i, CASE WHEN i % 100 = 0 THEN repeat(md5(i::text), 500) END
FROM generate_series(1, 2000) i;
UPDATE cp SET v = v + 1000 WHERE id % 4 = 0;
CREATE TEMP TABLE expected AS SELECT * FROM cp;
SELECT row_count, state FROM colstore.row_groups('cp') ORDER BY row_group;

-- moves the 500 updated rows, and rewrites the row group a quarter of whose
-- rows UPDATE replaced (its 1,500 others: the rewrite pays once a fifth is
-- deleted); the next call merges the two small groups the first wrote, then
-- nothing is left to move
SELECT colstore.compact('cp');
SELECT colstore.compact('cp');
SELECT colstore.compact('cp');
SELECT row_count, state FROM colstore.row_groups('cp') ORDER BY row_group;

-- same rows by every path
SELECT count(*) FROM ((TABLE cp EXCEPT TABLE expected) UNION ALL (TABLE expected EXCEPT TABLE cp)) d;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT id, v, length(big) FROM cp WHERE id IN (4, 100, 1999) ORDER BY id;
SELECT count(*), sum(v) FROM cp WHERE v % 7 = 3;
SELECT count(*) FROM cp WHERE t = 'row 1600' AND v > 1500;
RESET enable_bitmapscan;
SELECT count(*), sum(v) FROM cp WHERE v % 7 = 3;
RESET enable_seqscan;
SELECT count(*), sum(v), sum(length(big)) FROM cp;

-- a moved row can be updated, deleted and locked at its new TID
UPDATE cp SET v = -4 WHERE id = 4;
DELETE FROM cp WHERE id = 8;
SELECT id, v FROM cp WHERE id IN (4, 8, 12) ORDER BY id FOR UPDATE;

-- a rolled back compaction moves nothing
UPDATE cp SET v = v + 1 WHERE id BETWEEN 1 AND 10;
BEGIN;
SELECT colstore.compact('cp');
SELECT count(*), sum(v) FROM cp WHERE id BETWEEN 1 AND 10;
ROLLBACK;
SELECT count(*), sum(v) FROM cp WHERE id BETWEEN 1 AND 10;

-- inside a subtransaction that rolls back, too
BEGIN;
SAVEPOINT s;
SELECT colstore.compact('cp');
ROLLBACK TO SAVEPOINT s;
SELECT colstore.compact('cp');
COMMIT;
SELECT count(*), sum(v) FROM cp WHERE id BETWEEN 1 AND 10;
SELECT colstore.verify('cp') > 0 AS verified;

-- after VACUUM, updates reuse the heap space the moved versions had
VACUUM cp;
CREATE TEMP TABLE before AS SELECT pg_relation_size('cp') AS size;
UPDATE cp SET v = v + 1 WHERE id % 4 = 1;
-- (the 500 new versions; and, a quarter of its rows now being updated, the
-- merged row group's 1,493 others: compaction rewrites a group a fifth deleted)
SELECT colstore.compact('cp');
VACUUM cp;
UPDATE cp SET v = v + 1 WHERE id % 4 = 1;
SELECT pg_relation_size('cp') - (SELECT size FROM before) < 100000 AS space_reused;

-- a statement that compacts the table it changes fails as on heap (the rows
-- moved in a later command), instead of skipping them
UPDATE cp SET v = v + 1 WHERE id IN (2, 3);
UPDATE cp SET v = v + 1 WHERE id IN (2, 3) AND colstore.compact('cp') >= 0;
SELECT id, v FROM cp WHERE id IN (2, 3) ORDER BY id;

-- index expressions run as the table's owner, not as whoever compacts
CREATE ROLE cp_owner;
CREATE FUNCTION cp_key(int) RETURNS int IMMUTABLE LANGUAGE plpgsql AS $$
BEGIN
	RAISE NOTICE 'cp_key runs as %', current_user;
	RETURN $1;
END $$;
CREATE TABLE cpo (id int, v int) USING colstore;
ALTER TABLE cpo OWNER TO cp_owner;
INSERT INTO cpo VALUES (1, 1);
CREATE INDEX cpo_key ON cpo (cp_key(v));
SELECT colstore.compact('cpo');
DROP TABLE cpo;
DROP FUNCTION cp_key(int);
DROP ROLE cp_owner;

-- errors
SELECT colstore.compact('expected');
CREATE ROLE cp_other;
SET ROLE cp_other;
SELECT colstore.compact('cp');
RESET ROLE;
DROP ROLE cp_other;
BEGIN TRANSACTION READ ONLY;
SELECT colstore.compact('cp');
ROLLBACK;

-- TEMP and UNLOGGED tables
CREATE TEMP TABLE cpt (id int PRIMARY KEY, v int) USING colstore;
INSERT INTO cpt SELECT i, i FROM generate_series(1, 100) i;
UPDATE cpt SET v = 0 WHERE id <= 10;
SELECT colstore.compact('cpt');
SELECT count(*), sum(v) FROM cpt;
CREATE UNLOGGED TABLE cpu (id int PRIMARY KEY, v int) USING colstore;
INSERT INTO cpu SELECT i, i FROM generate_series(1, 100) i;
UPDATE cpu SET v = 0 WHERE id <= 10;
SELECT colstore.compact('cpu');
SELECT count(*), sum(v) FROM cpu;
DROP TABLE cp, cpt, cpu;
-- colstore.compact() takes what VACUUM takes: the table's owner, or (from
-- PostgreSQL 17) a role with the MAINTAIN privilege on it; nobody else
CREATE ROLE compact_maintainer;
CREATE TABLE cm (id int) USING colstore;
INSERT INTO cm VALUES (1), (2);
GRANT SELECT ON cm TO compact_maintainer;
SET ROLE compact_maintainer;
SELECT colstore.compact('cm');
RESET ROLE;
DO $$
BEGIN
	IF current_setting('server_version_num')::int >= 170000 THEN
		EXECUTE 'GRANT MAINTAIN ON cm TO compact_maintainer';
	ELSE
		EXECUTE 'ALTER TABLE cm OWNER TO compact_maintainer';
	END IF;
END $$;
SET ROLE compact_maintainer;
SELECT colstore.compact('cm');
RESET ROLE;
SELECT count(*) FROM colstore.row_groups('cm') WHERE row_count = 2;
DROP TABLE cm;
DROP ROLE compact_maintainer;
