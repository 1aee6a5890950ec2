-- ALTER TABLE and TRUNCATE on colstore tables.
CREATE TABLE d (id int, v text) USING colstore;
INSERT INTO d SELECT i, 'v' || i FROM generate_series(1, 1000) i;

-- ADD COLUMN without default and with a constant default (no rewrite)
ALTER TABLE d ADD COLUMN plain int;
ALTER TABLE d ADD COLUMN konst text DEFAULT 'k';
INSERT INTO d (id, v) VALUES (1001, 'new');
SELECT count(*), count(plain), count(DISTINCT konst), min(konst) FROM d;
SELECT id, v, plain, konst FROM d WHERE id IN (1, 1000, 1001) ORDER BY id;

-- a volatile default rewrites the table
CREATE SEQUENCE s;
ALTER TABLE d ADD COLUMN seq int DEFAULT nextval('s');
SELECT count(DISTINCT seq), min(seq), max(seq) FROM d;

-- DROP COLUMN, then rows with and without it
ALTER TABLE d DROP COLUMN v;
INSERT INTO d (id) VALUES (1002);
SELECT id, plain, konst, seq IS NOT NULL AS has_seq FROM d WHERE id >= 1000 ORDER BY id;

-- RENAME, ALTER COLUMN TYPE (a rewrite reading old rows with the old types)
ALTER TABLE d RENAME COLUMN konst TO k;
ALTER TABLE d ALTER COLUMN id TYPE bigint;
ALTER TABLE d ALTER COLUMN k TYPE varchar(5);
SELECT pg_typeof(id), pg_typeof(k), count(*), sum(id) FROM d GROUP BY 1, 2;
SELECT colstore.verify('d');

-- TRUNCATE, also in the creating transaction, and rolled back
TRUNCATE d;
SELECT count(*) FROM d;
INSERT INTO d (id) VALUES (1);
BEGIN;
TRUNCATE d;
INSERT INTO d (id) VALUES (2);
SELECT id FROM d;
ROLLBACK;
SELECT id FROM d;
BEGIN;
CREATE TABLE d2 (a int) USING colstore;
INSERT INTO d2 VALUES (1);
TRUNCATE d2;
INSERT INTO d2 VALUES (2);
COMMIT;
SELECT * FROM d2;
BEGIN;
INSERT INTO d2 VALUES (3);
TRUNCATE d2;
ROLLBACK;
SELECT * FROM d2;

-- DROP in the transaction that inserted
BEGIN;
INSERT INTO d2 VALUES (4);
DROP TABLE d2;
COMMIT;
SELECT count(*) FROM pg_class WHERE relname = 'd2';

DROP TABLE d;
DROP SEQUENCE s;
