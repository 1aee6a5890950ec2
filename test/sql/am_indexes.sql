-- Indexes of every built-in kind, constraints, and the scans that use them.
CREATE TABLE ix (id int, grp int, name text, tags text[], doc jsonb, span int4range, pos point)
	USING colstore;
INSERT INTO ix
SELECT i, i % 10, 'name' || i, ARRAY['t' || (i % 5), 'u' || (i % 3)], jsonb_build_object('k', i % 4),
	   int4range(i, i + 5), point(i % 100, i / 100)
FROM generate_series(1, 5000) i;
CREATE INDEX ix_btree ON ix (id);
CREATE INDEX ix_hash ON ix USING hash (name);
CREATE INDEX ix_gist ON ix USING gist (span);
CREATE INDEX ix_spgist ON ix USING spgist (pos);
CREATE INDEX ix_gin ON ix USING gin (tags);
CREATE INDEX ix_gin_json ON ix USING gin (doc jsonb_path_ops);
CREATE INDEX ix_brin ON ix USING brin (id) WITH (pages_per_range = 1);
CREATE INDEX ix_expr ON ix (lower(name));
CREATE INDEX ix_part ON ix (grp) WHERE grp = 3;
ANALYZE ix;

SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT name FROM ix WHERE id = 4321;
SELECT name FROM ix WHERE id = 4321;
SELECT count(*) FROM ix WHERE id BETWEEN 100 AND 199;
SELECT id FROM ix WHERE name = 'name77';
SELECT id FROM ix WHERE lower(name) = 'name78';
SELECT id FROM ix WHERE span @> 42 ORDER BY id;
SELECT count(*) FROM ix WHERE pos <@ box '((0,0),(9,9))';
EXPLAIN (COSTS OFF) SELECT id FROM ix WHERE id < 3;
SELECT id FROM ix WHERE id < 3 ORDER BY id;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SELECT count(*) FROM ix WHERE tags @> ARRAY['t3'];
SELECT count(*) FROM ix WHERE doc @> '{"k": 2}';
SELECT count(*) FROM ix WHERE grp = 3;
DROP INDEX ix_btree;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ix WHERE id BETWEEN 1000 AND 1100;
SELECT count(*) FROM ix WHERE id BETWEEN 1000 AND 1100;
RESET enable_indexscan;
RESET enable_seqscan;

-- TID scan and TABLESAMPLE
SELECT ctid, id FROM ix WHERE ctid = '(0,1)';
SELECT id FROM ix WHERE ctid IN ('(1,1)', '(2,3)') ORDER BY id;
SELECT count(*) FROM ix TABLESAMPLE SYSTEM (100);
SELECT count(*) FROM ix TABLESAMPLE BERNOULLI (100);
SELECT count(*) FROM ix TABLESAMPLE BERNOULLI (0);

-- constraints
CREATE TABLE k (id int PRIMARY KEY, code text UNIQUE, qty int NOT NULL CHECK (qty >= 0),
				during tsrange, EXCLUDE USING gist (during WITH &&)) USING colstore;
INSERT INTO k VALUES (1, 'a', 1, '[2020-01-01,2020-01-02)');
INSERT INTO k VALUES (1, 'b', 1, NULL);
INSERT INTO k VALUES (2, 'a', 1, NULL);
INSERT INTO k VALUES (3, 'c', NULL, NULL);
INSERT INTO k VALUES (4, 'd', -1, NULL);
INSERT INTO k VALUES (5, 'e', 1, '[2020-01-01 12:00,2020-01-03)');
INSERT INTO k VALUES (6, 'f', 1, '[2020-01-02,2020-01-03)');
INSERT INTO k VALUES (7, 'g', 2, NULL), (7, 'h', 2, NULL);
SELECT id, code, qty FROM k ORDER BY id;
-- a table with an exclusion constraint keeps each row's values visible to
-- other sessions' checks at once: its rows are heap tuples, as heap's are,
-- not a row group each, whatever the statement (COPY's batches too)
INSERT INTO k SELECT i, 'bulk' || i, 1, tsrange('2021-01-01'::timestamp + i * interval '1 day',
	'2021-01-01'::timestamp + (i + 1) * interval '1 day') FROM generate_series(100, 1099) i;
INSERT INTO k VALUES (2000, 'overlap', 1, '[2021-05-01 12:00,2021-05-02)');
SELECT count(*) AS row_groups FROM colstore.row_groups('k');
SELECT count(*), count(during) FROM k;
-- a colstore table may reference another table
CREATE TABLE parent (id int PRIMARY KEY);
INSERT INTO parent VALUES (1);
CREATE TABLE child (pid int REFERENCES parent) USING colstore;
INSERT INTO child VALUES (1);
INSERT INTO child VALUES (2);
SELECT * FROM child;

-- CREATE INDEX CONCURRENTLY and REINDEX
CREATE UNIQUE INDEX CONCURRENTLY k_qty_code ON k (qty, code);
REINDEX TABLE k;
SET enable_seqscan = off;
SELECT id FROM k WHERE qty = 1 AND code = 'f';
RESET enable_seqscan;

DROP TABLE ix, k, child, parent;

-- Index-only scans read the visibility map at a TID's pseudo-block, whose bits VACUUM keeps
-- (storage/all_visible.c).  Locking rows FOR SHARE fills fresh heap pages with their promoted
-- copies, which heap_multi_insert would mark all-visible at their physical block numbers, the
-- numbers of pseudo-blocks holding rows deleted after VACUUM marked them (1,455 counted when it
-- did): copies are inserted one by one.  The table is unlogged because under wal_level = logical
-- a logged table's copies are inserted one by one anyway.
CREATE UNLOGGED TABLE ios (id int PRIMARY KEY, v int) USING colstore;
INSERT INTO ios SELECT g, g FROM generate_series(1, 60000) g;
VACUUM ANALYZE ios;
DELETE FROM ios WHERE id BETWEEN 1000 AND 59000;
SELECT count(*) FROM (SELECT id FROM ios WHERE id > 59000 FOR SHARE) locked;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ios WHERE id BETWEEN 1000 AND 59000;
SELECT count(*) FROM ios WHERE id BETWEEN 1000 AND 59000;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) FROM ios WHERE id BETWEEN 1000 AND 59000;
DROP TABLE ios;

-- index entries of rows a rolled-back subtransaction inserted (reserved,
-- never written) are reported dead, so btree marks them and reuses their
-- space: the index does not grow over 100 rounds of 100 such rows (the
-- core suite's mvcc test, on a colstore table)
BEGIN;
SET LOCAL enable_seqscan = false;
SET LOCAL enable_bitmapscan = false;
CREATE TABLE aborted_rows (key int, data text) USING colstore;
CREATE INDEX aborted_rows_key ON aborted_rows (key);
INSERT INTO aborted_rows VALUES (-1, 'first');
SELECT pg_relation_size('aborted_rows_key') AS index_size_before \gset
DO $$
BEGIN
	FOR i IN 1..100 LOOP
		BEGIN
			IF EXISTS (SELECT * FROM aborted_rows WHERE key > 0 AND key < 100) THEN
				RAISE data_corrupted USING MESSAGE = 'rolled-back rows are visible';
			END IF;
			INSERT INTO aborted_rows SELECT g, 'rolled back' FROM generate_series(1, 100) g;
			RAISE reading_sql_data_not_permitted USING MESSAGE = 'roll back';
		EXCEPTION WHEN reading_sql_data_not_permitted THEN
		END;
	END LOOP;
END $$;
SELECT pg_relation_size('aborted_rows_key') = :index_size_before AS index_kept_its_size;
SELECT * FROM aborted_rows;
ROLLBACK;
