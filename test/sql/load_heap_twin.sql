-- Loading (COPY's multi_insert and INSERT ... SELECT's tuple_insert) must
-- store exactly what a heap twin holds: every type family, NULLs, wide,
-- compressed and incompressible values, numerics of mixed display scales
-- (equal values of different scales, NaN, too large for scaled encoding),
-- row group and chunk boundaries, COPY FREEZE, a COPY that aborts.  Each
-- chunk's min and max must be those of its rows.
CREATE TABLE lt_src (id int, i2 int2, i4 int4, i8 int8, f4 float4, f8 float8,
					 n numeric, n2 numeric(15,2), nbig numeric, d date,
					 ts timestamptz, b bool, t text, vc varchar(44),
					 bp char(10), by bytea, u uuid, j jsonb, arr int[],
					 iv interval, nm name);
INSERT INTO lt_src
SELECT g,
	   CASE WHEN g % 17 = 0 THEN NULL ELSE (g % 300)::int2 END,
	   (g * 7) % 1000 - 500,
	   g::int8 * 1000003,
	   CASE WHEN g % 13 = 0 THEN NULL ELSE (g * 0.37)::float4 END,
	   CASE WHEN g % 4000 = 1 THEN 'NaN'::float8 ELSE g / 7.0 END,
	   -- equal values of different display scales, alternating
	   CASE WHEN g % 2 = 0 THEN (g % 50)::numeric(10,0)
			ELSE (g % 50)::numeric(10,3) END,
	   CASE WHEN g % 11 = 0 THEN NULL ELSE ((g * 37) % 100000) / 100.0 END,
	   -- NaN in one chunk, values beyond int64 in another, negative zero scale
	   CASE WHEN g BETWEEN 2101 AND 2110 THEN 'NaN'::numeric
			WHEN g BETWEEN 3001 AND 3100 THEN 1e30 + g
			ELSE -g / 1000.0 END,
	   date '2000-01-01' + (g % 400),
	   timestamptz '2020-01-01 00:00:00+00' + g * interval '37 minutes',
	   CASE WHEN g % 3 = 0 THEN NULL ELSE g % 2 = 0 END,
	   CASE WHEN g % 500 = 0 THEN repeat('compressible ', 1000)
			WHEN g % 500 = 1 THEN (SELECT string_agg(md5((g * 100 + k)::text), '')
								  FROM generate_series(1, 100) k)
			WHEN g % 7 = 0 THEN NULL
			ELSE md5(g::text) END,
	   left(md5(g::text), (g % 44)),
	   CASE WHEN g % 5 = 0 THEN NULL ELSE 'c' || (g % 9) END,
	   decode(md5(g::text), 'hex'),
	   md5(g::text)::uuid,
	   jsonb_build_object('k', g, 'v', g % 3),
	   ARRAY[g, g % 10],
	   g * interval '1 second',
	   ('name' || g % 20)::name
FROM generate_series(1, 5000) g;
-- a whole chunk and a whole row group of NULLs
UPDATE lt_src SET i4 = NULL, n2 = NULL, t = NULL WHERE id BETWEEN 4001 AND 5000;

SELECT '/tmp/colstore_load_heap_twin_' || pg_backend_pid() || '.data' AS datafile \gset
COPY (SELECT * FROM lt_src ORDER BY id) TO :'datafile';

-- row groups of 1000 rows, chunks of 100
CREATE TABLE lt_copy (LIKE lt_src) USING colstore
	WITH (row_group_size = 1000, chunk_size = 100);
COPY lt_copy FROM :'datafile';
CREATE TABLE lt_insert (LIKE lt_src) USING colstore
	WITH (row_group_size = 1000, chunk_size = 100);
INSERT INTO lt_insert SELECT * FROM lt_src ORDER BY id;

-- a COPY that aborts leaves nothing; one in an aborted subtransaction
-- neither, while the one after it stays
BEGIN;
COPY lt_copy FROM :'datafile';
ROLLBACK;
CREATE TABLE lt_sub (LIKE lt_src) USING colstore
	WITH (row_group_size = 1000, chunk_size = 100);
BEGIN;
SAVEPOINT s;
COPY lt_sub FROM :'datafile';
ROLLBACK TO s;
COPY lt_sub FROM :'datafile' WITH (FORMAT text);
COMMIT;

-- COPY FREEZE into a table created in the same transaction
BEGIN;
CREATE TABLE lt_freeze (LIKE lt_src) USING colstore
	WITH (row_group_size = 1000, chunk_size = 100);
COPY lt_freeze FROM :'datafile' WITH (FREEZE);
COMMIT;

-- every table holds the heap twin's rows, no more, no fewer
SELECT t, (SELECT count(*) FROM lt_src) AS expected, n, missing, extra
FROM (SELECT 'lt_copy' AS t, (SELECT count(*) FROM lt_copy) AS n,
			 (SELECT count(*) FROM (SELECT * FROM lt_src EXCEPT ALL SELECT * FROM lt_copy) x) AS missing,
			 (SELECT count(*) FROM (SELECT * FROM lt_copy EXCEPT ALL SELECT * FROM lt_src) x) AS extra
	  UNION ALL
	  SELECT 'lt_insert', (SELECT count(*) FROM lt_insert),
			 (SELECT count(*) FROM (SELECT * FROM lt_src EXCEPT ALL SELECT * FROM lt_insert) x),
			 (SELECT count(*) FROM (SELECT * FROM lt_insert EXCEPT ALL SELECT * FROM lt_src) x)
	  UNION ALL
	  SELECT 'lt_sub', (SELECT count(*) FROM lt_sub),
			 (SELECT count(*) FROM (SELECT * FROM lt_src EXCEPT ALL SELECT * FROM lt_sub) x),
			 (SELECT count(*) FROM (SELECT * FROM lt_sub EXCEPT ALL SELECT * FROM lt_src) x)
	  UNION ALL
	  SELECT 'lt_freeze', (SELECT count(*) FROM lt_freeze),
			 (SELECT count(*) FROM (SELECT * FROM lt_src EXCEPT ALL SELECT * FROM lt_freeze) x),
			 (SELECT count(*) FROM (SELECT * FROM lt_freeze EXCEPT ALL SELECT * FROM lt_src) x)) s
ORDER BY t;

-- byte for byte: text forms (display scales, NaN, -0 and all) match by id
SELECT count(*) AS differing FROM lt_src s JOIN lt_copy c USING (id)
WHERE s::text IS DISTINCT FROM c::text;
SELECT count(*) AS differing FROM lt_src s JOIN lt_insert c USING (id)
WHERE s::text IS DISTINCT FROM c::text;

-- the row groups and chunks the options ask for
SELECT state, count(*) AS row_groups, sum(row_count) AS rows, min(row_count), max(row_count)
FROM colstore.row_groups('lt_copy') GROUP BY state ORDER BY state;
SELECT state, count(*) FROM colstore.row_groups('lt_freeze') GROUP BY state;
SELECT column_name, count(*) AS chunks, min(c.row_count), max(c.row_count),
	   sum(null_count) AS nulls
FROM colstore.chunks('lt_copy') c
	JOIN colstore.row_groups('lt_copy') USING (row_group)
WHERE column_name IN ('i2', 'i4', 'n', 'n2', 'nbig', 't') AND state = 'committed'
GROUP BY column_name ORDER BY column_name;

-- each chunk's min and max are its rows' (rows are in id order, so the
-- committed groups' chunk k holds ids (100 (k - 1), 100 k])
WITH c AS (
	SELECT column_name, min_value, max_value,
		   row_number() OVER (PARTITION BY column_name ORDER BY row_group, chunk) AS k
	FROM colstore.chunks('lt_copy') JOIN colstore.row_groups('lt_copy') USING (row_group)
	WHERE state = 'committed'),
h AS (
	SELECT (id - 1) / 100 + 1 AS k, min(i4) AS i4min, max(i4) AS i4max,
		   min(i8) AS i8min, max(i8) AS i8max, min(n) AS nmin, max(n) AS nmax,
		   min(n2) AS n2min, max(n2) AS n2max, min(nbig) AS nbmin, max(nbig) AS nbmax,
		   min(d) AS dmin, max(d) AS dmax
	FROM lt_src GROUP BY 1)
SELECT c.column_name, count(*) AS chunks,
	   count(*) FILTER (WHERE c.min_value IS NOT NULL) AS with_stats,
	   count(*) FILTER (WHERE CASE c.column_name
			WHEN 'i4' THEN c.min_value::int4 IS DISTINCT FROM h.i4min OR c.max_value::int4 IS DISTINCT FROM h.i4max
			WHEN 'i8' THEN c.min_value::int8 <> h.i8min OR c.max_value::int8 <> h.i8max
			WHEN 'n' THEN c.min_value::numeric <> h.nmin OR c.max_value::numeric <> h.nmax
			WHEN 'n2' THEN c.min_value::numeric IS DISTINCT FROM h.n2min OR c.max_value::numeric IS DISTINCT FROM h.n2max
			WHEN 'nbig' THEN c.min_value::numeric <> h.nbmin OR c.max_value::numeric <> h.nbmax
			WHEN 'd' THEN c.min_value::date <> h.dmin OR c.max_value::date <> h.dmax END) AS wrong
FROM c JOIN h USING (k)
WHERE c.column_name IN ('i4', 'i8', 'n', 'n2', 'nbig', 'd')
GROUP BY c.column_name ORDER BY c.column_name;

-- and pruning with them finds what heap finds
SELECT (SELECT count(*) FROM lt_copy WHERE n2 BETWEEN 100 AND 200) AS colstore,
	   (SELECT count(*) FROM lt_src WHERE n2 BETWEEN 100 AND 200) AS heap;
SELECT (SELECT count(*) FROM lt_copy WHERE n = 7) AS colstore,
	   (SELECT count(*) FROM lt_src WHERE n = 7) AS heap;
SELECT (SELECT count(*) FROM lt_copy WHERE nbig > 1e30 + 3050) AS colstore,
	   (SELECT count(*) FROM lt_src WHERE nbig > 1e30 + 3050) AS heap;

-- a wide table (byte limit of a chunk is not reached, many column arenas)
CREATE TABLE lt_wide_src AS
SELECT g AS id, repeat(md5(g::text), 40) AS w1, repeat(md5((g + 1)::text), 40) AS w2,
	   g::numeric / 3 AS w3
FROM generate_series(1, 3000) g;
CREATE TABLE lt_wide (LIKE lt_wide_src) USING colstore;
INSERT INTO lt_wide SELECT * FROM lt_wide_src;
SELECT count(*) AS differing FROM lt_wide_src s FULL JOIN lt_wide c USING (id)
WHERE s::text IS DISTINCT FROM c::text;

-- values large enough that chunks end at the 16 MB byte limit, not at
-- chunk_size rows (1 MB values: 16 rows to a chunk)
COPY (SELECT g AS id, repeat(chr(65 + g % 26), 1024 * 1024) AS v
	  FROM generate_series(1, 40) g) TO :'datafile';
CREATE TABLE lt_big (id int, v text) USING colstore;
COPY lt_big FROM :'datafile';
SELECT count(*) AS chunks, min(row_count), max(row_count)
FROM colstore.chunks('lt_big') WHERE column_name = 'v';
SELECT count(*), sum(length(v)), count(DISTINCT md5(v)),
	   bool_and(v = repeat(chr(65 + id % 26), 1024 * 1024)) AS same
FROM lt_big;
DROP TABLE lt_big;

COPY (SELECT 1 WHERE false) TO :'datafile';
DROP TABLE lt_src, lt_copy, lt_insert, lt_sub, lt_freeze, lt_wide_src, lt_wide;
