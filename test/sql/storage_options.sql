-- Per-table storage options: setting, validation, persistence, defaults.
CREATE TABLE o1 (a int) USING colstore WITH (codec = 'lz4', compression_level = 5,
											 row_group_size = 2000, chunk_size = 500);
SELECT * FROM colstore.table_options WHERE relation = 'o1'::regclass;
ALTER TABLE o1 SET (codec = 'pglz', chunk_size = 1000);
SELECT * FROM colstore.table_options WHERE relation = 'o1'::regclass;
ALTER TABLE o1 RESET (codec, compression_level);
SELECT * FROM colstore.table_options WHERE relation = 'o1'::regclass;
SELECT colstore.set_options('o1', codec => 'none', row_group_size => 3000);
SELECT * FROM colstore.table_options WHERE relation = 'o1'::regclass;

-- the options shape the data written after them
INSERT INTO o1 SELECT generate_series(1, 7000);
SELECT row_count, chunks FROM colstore.row_groups('o1') ORDER BY first_row;

-- they survive TRUNCATE, VACUUM FULL and CLUSTER (same table OID, new storage)
TRUNCATE o1;
VACUUM FULL o1;
CREATE INDEX o1_a ON o1 (a);
CLUSTER o1 USING o1_a;
SELECT * FROM colstore.table_options WHERE relation = 'o1'::regclass;

-- invalid values name the option and give the valid range
CREATE TABLE o2 (a int) USING colstore WITH (codec = 'snappy');
CREATE TABLE o2 (a int) USING colstore WITH (compression_level = 0);
CREATE TABLE o2 (a int) USING colstore WITH (row_group_size = 10);
CREATE TABLE o2 (a int) USING colstore WITH (chunk_size = 1000000);
CREATE TABLE o2 (a int) USING colstore WITH (chunk_size = 'big');
ALTER TABLE o1 SET (codec = 'gzip');
SELECT colstore.set_options('o1', compression_level => 20);
SELECT colstore.set_options('o1', row_group_size => 999);
-- options of other access methods are still checked by PostgreSQL
CREATE TABLE o2 (a int) WITH (codec = 'lz4');
CREATE TABLE o3 (a int) USING colstore WITH (fillfactor = 50);
-- colstore options only apply to colstore tables
CREATE TABLE hp (a int);
SELECT colstore.set_options('hp', codec => 'lz4');
SELECT colstore.set_options(NULL, codec => 'lz4');

-- server defaults
SET colstore.default_codec = 'lz4';
SET colstore.default_chunk_size = 200;
CREATE TABLE o4 (a int) USING colstore;
SELECT codec, chunk_size FROM colstore.table_options WHERE relation = 'o4'::regclass;
SET colstore.default_codec = 'zip';
SET colstore.default_row_group_size = 5;
RESET colstore.default_codec;
RESET colstore.default_chunk_size;

-- reset_options, and dropping a table forgets its options
SELECT colstore.reset_options('o1');
SELECT * FROM colstore.table_options WHERE relation = 'o1'::regclass;
DROP TABLE o1, o3, o4, hp;
SELECT count(*) FROM colstore.options;

-- integer options may be quoted, as heap's reloptions may (fillfactor = '70')
CREATE TABLE o5 (a int, b text) USING colstore WITH (row_group_size = '5000');
ALTER TABLE o5 SET (chunk_size = '11000');
SELECT row_group_size, chunk_size FROM colstore.table_options WHERE relation = 'o5'::regclass;
INSERT INTO o5 SELECT g, 'row ' || g FROM generate_series(1, 12000) g;
SELECT row_count, count(*) FROM colstore.row_groups('o5') GROUP BY 1 ORDER BY 1;
-- a quoted value must be an integer, and in range
ALTER TABLE o5 SET (chunk_size = 'abc');
ALTER TABLE o5 SET (chunk_size = '99');
CREATE TABLE o6 (a int) USING colstore WITH (row_group_size = '999');
CREATE TABLE o6 (a int) USING colstore WITH (compression_level = '3x');
SELECT row_group_size, chunk_size FROM colstore.table_options WHERE relation = 'o5'::regclass;

-- SET ACCESS METHOD colstore with SET (...) in the same statement: the
-- conversion writes with those options
CREATE TABLE o7 (a int, b text);
INSERT INTO o7 SELECT g, 'row ' || g FROM generate_series(1, 20000) g;
ALTER TABLE o7 SET ACCESS METHOD colstore, SET (codec = pglz, row_group_size = 6000);
SELECT amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE c.oid = 'o7'::regclass;
SELECT codec, row_group_size FROM colstore.table_options WHERE relation = 'o7'::regclass;
SELECT DISTINCT codec FROM colstore.chunks('o7') WHERE column_name = 'b';
SELECT row_count, count(*) FROM colstore.row_groups('o7') GROUP BY 1 ORDER BY 1;
SELECT colstore.verify('o7');
SELECT count(*), sum(a) FROM o7;
-- heap has no colstore options
ALTER TABLE o7 SET ACCESS METHOD heap, SET (codec = lz4);
SELECT amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE c.oid = 'o7'::regclass;

-- an ALTER TABLE rewrite writes the rows with the table's options, including
-- ones set in the same statement
ALTER TABLE o7 SET (codec = lz4, row_group_size = 8000), ALTER COLUMN a TYPE bigint;
SELECT DISTINCT codec FROM colstore.chunks('o7') WHERE column_name = 'b';
SELECT row_count, count(*) FROM colstore.row_groups('o7') GROUP BY 1 ORDER BY 1;
SELECT colstore.verify('o7');
SELECT count(*), sum(a) FROM o7;
ALTER TABLE o7 SET (row_group_size = 7000);
ALTER TABLE o7 ALTER COLUMN a TYPE int;
SELECT DISTINCT codec FROM colstore.chunks('o7') WHERE column_name = 'b';
SELECT row_count, count(*) FROM colstore.row_groups('o7') GROUP BY 1 ORDER BY 1;
SELECT colstore.verify('o7');
SELECT count(*), sum(a) FROM o7;
DROP TABLE o5, o7;
SELECT count(*) FROM colstore.options;

-- The options are copied into pg_class.reloptions (what pg_dump, Citus and
-- \d+ read), always from colstore.options, next to the table's other
-- storage parameters, which keep working.
CREATE TABLE m1 (a int, b text) USING colstore WITH (codec = 'lz4', chunk_size = 1000);
SELECT reloptions FROM pg_class WHERE oid = 'm1'::regclass;
ALTER TABLE m1 SET (fillfactor = 70);
ALTER TABLE m1 SET (codec = pglz, autovacuum_enabled = false);
SELECT reloptions FROM pg_class WHERE oid = 'm1'::regclass;
ALTER TABLE m1 RESET (chunk_size, fillfactor);
SELECT colstore.set_options('m1', row_group_size => 5000);
SELECT reloptions FROM pg_class WHERE oid = 'm1'::regclass;
-- a failed statement leaves both copies as they were
BEGIN;
ALTER TABLE m1 SET (codec = zstd, fillfactor = 200);
ROLLBACK;
SELECT reloptions FROM pg_class WHERE oid = 'm1'::regclass;
SELECT codec, row_group_size, chunk_size FROM colstore.table_options WHERE relation = 'm1'::regclass;
-- rewrites keep the copy; a heap table gets none (its own parameters stay),
-- and its colstore options go with the conversion, so converting it back
-- starts from the server defaults, as a dump and restore of it would
VACUUM FULL m1;
ALTER TABLE m1 ALTER COLUMN a TYPE bigint;
SELECT reloptions FROM pg_class WHERE oid = 'm1'::regclass;
ALTER TABLE m1 SET ACCESS METHOD heap;
SELECT reloptions FROM pg_class WHERE oid = 'm1'::regclass;
ALTER TABLE m1 SET (fillfactor = 50);
ALTER TABLE m1 SET ACCESS METHOD colstore;
SELECT reloptions FROM pg_class WHERE oid = 'm1'::regclass;
SELECT count(*) FROM colstore.options WHERE relid = 'm1'::regclass;
SELECT colstore.reset_options('m1');
SELECT reloptions FROM pg_class WHERE oid = 'm1'::regclass;
-- partitions and materialized views; a partitioned table has no options
CREATE TABLE mp (a int) PARTITION BY RANGE (a);
CREATE TABLE mp1 PARTITION OF mp FOR VALUES FROM (0) TO (10) USING colstore WITH (codec = none);
CREATE MATERIALIZED VIEW mmv USING colstore WITH (compression_level = 9) AS SELECT 1 AS x;
SELECT relname, reloptions FROM pg_class WHERE relname IN ('mp', 'mp1', 'mmv') ORDER BY 1;
DROP TABLE m1, mp;
DROP MATERIALIZED VIEW mmv;
-- CREATE ... IF NOT EXISTS of an existing table leaves its options alone
CREATE TABLE m2 (a int) USING colstore WITH (codec = zstd);
CREATE TABLE IF NOT EXISTS m2 (a int) USING colstore WITH (codec = lz4);
CREATE TABLE m3 (a int);
CREATE TABLE IF NOT EXISTS m3 (a int) USING colstore WITH (codec = lz4);
SELECT relname, reloptions FROM pg_class WHERE relname IN ('m2', 'm3') ORDER BY 1;
DROP TABLE m2, m3;

-- Each backend caches the options it reads (storage/table_options.c); a
-- change invalidates them, for this session's next statement too, and a
-- rolled-back one leaves the old options in effect.  last_write shows the
-- row groups of the latest transaction that wrote any, with their codec.
CREATE FUNCTION last_write(rel regclass)
RETURNS TABLE (state text, row_count bigint, codec text) LANGUAGE sql AS $$
	SELECT g.state, g.row_count,
		   (SELECT string_agg(DISTINCT c.codec, ',') FROM colstore.chunks(rel) c
			WHERE c.row_group = g.row_group AND c.column_name = 'b')
	FROM colstore.row_groups(rel) g
	WHERE g.inserted_by = (SELECT inserted_by FROM colstore.row_groups(rel)
						   ORDER BY first_row DESC LIMIT 1)
	ORDER BY g.first_row
$$;
CREATE TABLE c1 (a int, b text) USING colstore WITH (codec = lz4, row_group_size = 2000);
INSERT INTO c1 SELECT g, 'row ' || g FROM generate_series(1, 5000) g;
SELECT * FROM last_write('c1');
SELECT colstore.set_options('c1', codec => 'pglz', row_group_size => 3000);
INSERT INTO c1 SELECT g, 'row ' || g FROM generate_series(1, 5000) g;
SELECT * FROM last_write('c1');
ALTER TABLE c1 SET (codec = none, row_group_size = 4000);
INSERT INTO c1 SELECT g, 'row ' || g FROM generate_series(1, 5000) g;
SELECT * FROM last_write('c1');
-- in a transaction that rolls back: its writes use the new options, later
-- ones the old
BEGIN;
SELECT colstore.set_options('c1', codec => 'zstd', row_group_size => 1000);
INSERT INTO c1 SELECT g, 'row ' || g FROM generate_series(1, 2500) g;
SELECT * FROM last_write('c1');
ROLLBACK;
INSERT INTO c1 SELECT g, 'row ' || g FROM generate_series(1, 5000) g;
SELECT * FROM last_write('c1');
BEGIN;
ALTER TABLE c1 SET (codec = lz4, row_group_size = 1500);
INSERT INTO c1 SELECT g, 'row ' || g FROM generate_series(1, 2500) g;
SELECT * FROM last_write('c1');
ROLLBACK;
INSERT INTO c1 SELECT g, 'row ' || g FROM generate_series(1, 5000) g;
SELECT * FROM last_write('c1');
-- a rolled-back subtransaction
BEGIN;
SAVEPOINT s;
SELECT colstore.reset_options('c1');
INSERT INTO c1 SELECT g, 'row ' || g FROM generate_series(1, 5000) g;
SELECT * FROM last_write('c1');
ROLLBACK TO s;
COMMIT;
INSERT INTO c1 SELECT g, 'row ' || g FROM generate_series(1, 5000) g;
SELECT * FROM last_write('c1');
SELECT codec, row_group_size FROM colstore.table_options WHERE relation = 'c1'::regclass;
-- a changed server default applies to a table without its own value, also
-- once that table's options are cached
ALTER TABLE c1 RESET (codec, row_group_size);
INSERT INTO c1 SELECT g, 'row ' || g FROM generate_series(1, 5000) g;
SELECT * FROM last_write('c1');
SET colstore.default_codec = 'pglz';
SET colstore.default_row_group_size = 1500;
INSERT INTO c1 SELECT g, 'row ' || g FROM generate_series(1, 5000) g;
SELECT * FROM last_write('c1');
RESET colstore.default_codec;
RESET colstore.default_row_group_size;
INSERT INTO c1 SELECT g, 'row ' || g FROM generate_series(1, 5000) g;
SELECT * FROM last_write('c1');
SELECT count(*) FROM c1;
DROP TABLE c1;
DROP FUNCTION last_write(regclass);
SELECT count(*) FROM colstore.options;
