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
