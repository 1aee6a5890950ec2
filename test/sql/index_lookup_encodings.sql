-- Index lookups read single values out of encoded chunks (chunk readers)
-- without decoding the chunk.  Every encoding's random-access path is
-- compared here with a sequential decode of the same rows: in key order,
-- in shuffled order, and with NULLs and dropped/added columns.
CREATE TABLE le (
	id bigint,				-- constant differences: DELTA read directly
	few_runs int,			-- long runs: RLE indexed by run
	many_runs int,			-- short runs: RLE indexed by block
	squares bigint,			-- growing differences: DELTA indexed by block
	stepped bigint,			-- differences in long runs: DELTA over RLE by run
	packed int,				-- frame of reference
	words text,				-- dictionary
	hashes text,			-- plain by-reference values
	money numeric,			-- scaled numeric
	sparse int				-- NULLs
) USING colstore WITH (row_group_size = 30000, chunk_size = 10000);
INSERT INTO le
SELECT i, i / 3000, i / 3, i::bigint * i,
	   i::bigint * (1 + i / 2500), (i * 7919) % 1000,
	   'w' || (i % 17), md5(i::text), (i % 997) / 10.0,
	   CASE WHEN i % 7 = 0 THEN NULL ELSE i END
FROM generate_series(1, 50000) i;
CREATE INDEX le_id ON le (id);

-- the chunks really use the encodings the lookups exercise
SELECT column_name, encoding, count(*) AS chunks
FROM colstore.chunks('le') GROUP BY 1, 2 ORDER BY 1, 2;

-- a heap copy made by a sequential scan (chunks decoded whole)
SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE TEMP TABLE le_seq AS SELECT * FROM le;
RESET enable_indexscan;
RESET enable_bitmapscan;

-- every row through the index, in key order
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM le WHERE id BETWEEN 1 AND 50000;
SELECT count(*) AS differing FROM (
	(SELECT * FROM le WHERE id BETWEEN 1 AND 50000 EXCEPT ALL SELECT * FROM le_seq)
	UNION ALL
	(SELECT * FROM le_seq EXCEPT ALL SELECT * FROM le WHERE id BETWEEN 1 AND 50000)) d;

-- in shuffled order: one lookup per row, chunks visited at random
CREATE TEMP TABLE probe AS
SELECT (i * 7927) % 50000 + 1 AS id FROM generate_series(0, 49999) i;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT le.* FROM probe p JOIN le ON le.id = p.id;
SELECT count(*) AS differing FROM (
	SELECT le.* FROM probe p JOIN le ON le.id = p.id
	EXCEPT ALL SELECT * FROM le_seq) d;
SELECT count(*) AS found FROM probe p JOIN le ON le.id = p.id;

-- a column added later (missing value) and a dropped column
ALTER TABLE le ADD COLUMN added text DEFAULT 'dflt';
ALTER TABLE le DROP COLUMN packed;
SELECT id, few_runs, stepped, words, money, sparse, added
FROM le WHERE id IN (1, 7, 2500, 2501, 29999, 30000, 30001, 49999, 50000) ORDER BY id;
SELECT count(*) AS differing FROM (
	SELECT le.id, le.squares, le.hashes, le.sparse FROM probe p JOIN le ON le.id = p.id
	EXCEPT ALL SELECT id, squares, hashes, sparse FROM le_seq) d;
RESET ALL;
DROP TABLE le;
