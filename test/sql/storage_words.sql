-- The word encoding (encoding/word_encoding.c): text whose values differ but
-- are made of the same words is stored as a vocabulary plus a byte code per
-- word.  Values must come back exactly as a heap twin holds them, through a
-- sequential scan (whole chunks decoded) and through index lookups (one
-- value read at random), with NULLs, empty strings, leading, trailing and
-- repeated spaces, long values, chunks where every value is the same and
-- chunks where every value is different.
CREATE TABLE words_src (id int, sentence text, padded char(40), note text,
						tail varchar(80), rare text);
INSERT INTO words_src
SELECT i,
	   -- three to eight words out of 24, drawn by a hash
	   CASE WHEN i % 97 = 0 THEN NULL
			WHEN i % 89 = 0 THEN ''
			ELSE (SELECT string_agg(w[1 + abs(hashint4(i * 16 + k)) % 24], ' ')
				  FROM generate_series(0, 2 + i % 6) k) END,
	   -- char(n): the padding is a run of spaces ending the last word
	   (ARRAY['carefully final', 'quickly regular ideas', 'even', 'bold  pinto'])[1 + i % 4],
	   -- spaces in every position, repeated spaces, a long value
	   CASE WHEN i % 1000 = 0 THEN repeat('furiously ironic deposits ', 300)
			WHEN i % 5 = 0 THEN '  ' || w[1 + i % 24] || '   ' || w[1 + i % 7] || ' '
			WHEN i % 5 = 1 THEN w[1 + i % 24] || ' ' || w[1 + (i / 3) % 24] || ' ' || i
			ELSE w[1 + i % 11] || ' ' || w[1 + (i / 7) % 24] || ' sleep ' || w[1 + i % 5] END,
	   -- rows 20001..30000: all the same; rows 30001..40000: all different
	   CASE WHEN i BETWEEN 20001 AND 30000 THEN 'the same sentence every time'
			WHEN i > 30000 THEN md5(i::text) || ' ' || md5((-i)::text)
			ELSE w[1 + i % 24] || ' ' || w[1 + (i / 24) % 24] END,
	   -- a word of its own besides three frequent ones: more than 8,160
	   -- distinct words a chunk, codes of one, two and three bytes
	   'x' || (abs(hashint4(i)) % 1000000) || ' ' || w[1 + abs(hashint4(-i)) % 24] || ' ' ||
	   w[1 + i % 24] || ' ' || w[1 + i % 3]
FROM generate_series(1, 40000) i,
	 LATERAL (SELECT ARRAY['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy',
						   'dog', 'regular', 'ideas', 'sleep', 'furiously', 'among',
						   'pending', 'accounts', 'haggle', 'blithely', 'final',
						   'packages', 'nag', 'slyly', 'express', 'requests',
						   'wake'] AS w) l;

CREATE TABLE words_cs (LIKE words_src) USING colstore
	WITH (row_group_size = 20000, chunk_size = 10000);
INSERT INTO words_cs SELECT * FROM words_src;
CREATE TABLE words_none (LIKE words_src) USING colstore
	WITH (codec = 'none', row_group_size = 20000, chunk_size = 10000);
INSERT INTO words_none SELECT * FROM words_src;

-- the encodings chosen: words for the sentences, notes and rare words, a
-- dictionary for the few padded values; in the tail a dictionary for the
-- chunk of few values and the all-equal one, plain for the all-different one
SELECT column_name, encoding, count(*) AS chunks
FROM colstore.chunks('words_cs') GROUP BY 1, 2 ORDER BY 1, 2;
SELECT chunk, encoding FROM colstore.chunks('words_cs')
WHERE column_name = 'tail' ORDER BY row_group, chunk;

-- sizes: the sentences take a small fraction of their bytes, with and
-- without a codec (the plain form of these values takes all their bytes)
SELECT column_name, sum(stored_bytes) * 100 / sum(raw_bytes) < 15 AS small
FROM colstore.chunks('words_cs') WHERE column_name IN ('sentence', 'note')
GROUP BY 1 ORDER BY 1;
SELECT sum(stored_bytes) * 100 / sum(raw_bytes) < 40 AS small
FROM colstore.chunks('words_cs') WHERE column_name = 'rare';
-- the first chunk of rare has more distinct words than two-byte codes name
SELECT count(DISTINCT split_part(rare, ' ', 1)) > 8160 AS three_byte_codes
FROM words_src WHERE id <= 10000;
SELECT sum(stored_bytes) * 100 / sum(raw_bytes) < 25 AS small_without_codec
FROM colstore.chunks('words_none') WHERE column_name = 'sentence';

-- a sequential scan returns exactly the heap twin's rows
SELECT count(*) AS differing FROM (
	(SELECT * FROM words_cs EXCEPT ALL SELECT * FROM words_src)
	UNION ALL
	(SELECT * FROM words_src EXCEPT ALL SELECT * FROM words_cs)) d;
SELECT count(*) AS differing FROM (
	(SELECT * FROM words_none EXCEPT ALL SELECT * FROM words_src)
	UNION ALL
	(SELECT * FROM words_src EXCEPT ALL SELECT * FROM words_none)) d;
SELECT count(*) FILTER (WHERE sentence IS NULL) AS nulls,
	   count(*) FILTER (WHERE sentence = '') AS empty,
	   max(length(note)) AS longest,
	   count(*) FILTER (WHERE note LIKE '  %') AS leading_spaces,
	   count(*) FILTER (WHERE padded = 'bold  pinto') AS padded
FROM words_cs;

-- index lookups read single values out of word chunks, in shuffled order
CREATE INDEX words_cs_id ON words_cs (id);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
CREATE TEMP TABLE probe AS
SELECT (i * 7927) % 40000 + 1 AS id FROM generate_series(0, 39999) i;
ANALYZE probe;
CREATE FUNCTION words_plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		RETURN NEXT l;
	END LOOP;
END $$;
SELECT count(*) FILTER (WHERE l ~ 'Index Scan using words_cs_id') AS index_scans,
	   count(*) FILTER (WHERE l ~ 'Index Cond: \(id = p.id\)') AS parameterized
FROM words_plan('SELECT c.* FROM probe p JOIN words_cs c ON c.id = p.id') l;
SELECT count(*) AS differing FROM (
	SELECT c.* FROM probe p JOIN words_cs c ON c.id = p.id
	EXCEPT ALL SELECT * FROM words_src) d;
SELECT id, sentence, padded, length(note) AS note_length, tail, rare
FROM words_cs WHERE id IN (1, 89, 97, 1000, 20001, 30001) ORDER BY id;
RESET ALL;

-- text conditions over word chunks
SELECT count(*) FROM words_cs WHERE sentence LIKE '%fox %';
SELECT count(*) FROM words_src WHERE sentence LIKE '%fox %';
SELECT count(*) FROM words_cs WHERE rare LIKE 'x12%';
SELECT count(*) FROM words_src WHERE rare LIKE 'x12%';
SELECT count(*) FROM words_cs WHERE note = 'quick dog sleep quick';
SELECT count(*) FROM words_src WHERE note = 'quick dog sleep quick';

DROP FUNCTION words_plan(text);
DROP TABLE words_src, words_cs, words_none;
