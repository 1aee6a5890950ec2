-- The batch filter as a row list (chunk_filter.c): each condition reads only
-- the rows the conditions before it kept, in an order learned from the
-- batches read so far, and numeric columns stored as scaled integers are
-- read row by row when few rows are left (the chunk is still validated
-- whole).  ColstoreAgg and ColstoreScan must return heap's answer for
-- sparse and dense selections, chunks with and without NULLs, an all-NULL
-- chunk, chunks where no row or every row passes, every key kind, several
-- row groups, deleted rows and parallel workers.
SET max_parallel_workers_per_gather = 0;
CREATE TABLE sf (id int, qty numeric(15,2), price numeric(15,2), disc numeric(15,2),
	ship date, flag char(1), note text, k int, k2 int, m numeric, pn numeric(15,2),
	z numeric(15,2), ki int)
	USING colstore WITH (row_group_size = 8000, chunk_size = 1000);
-- 40000 rows: 5 row groups of 8 chunks; ship is not clustered (no pruning);
-- m has display scales 0 to 3 and NULLs everywhere, pn NULLs only in the
-- chunks of rows 8001 .. 12000, z is NULL in the whole first chunk, ki has
-- NULLs everywhere
INSERT INTO sf SELECT i, (i * 7 % 50) + 1, (i * 37 % 100000) / 100.0, (i % 11) / 100.0,
	date '1992-01-01' + (i * 13 % 2557), chr(65 + i % 3), 'n' || (i % 97), i % 10, i % 7,
	CASE WHEN i % 17 <> 0 THEN round((i % 1000) / 7.0, i % 4) END,
	CASE WHEN i BETWEEN 8001 AND 12000 AND i % 5 = 0 THEN NULL ELSE (i % 500) / 10.0 END,
	CASE WHEN i > 1000 THEN (i % 300) / 4.0 END, CASE WHEN i % 13 <> 0 THEN i % 100 END
	FROM generate_series(1, 40000) i;
ANALYZE sf;
CREATE TABLE sh USING heap AS SELECT * FROM sf;
-- the numeric columns are stored as scaled integers
SELECT column_name, encoding, count(*) AS chunks, count(*) FILTER (WHERE null_count > 0) AS with_nulls
FROM colstore.chunks('sf') WHERE column_name IN ('qty', 'price', 'disc', 'm', 'pn', 'z')
GROUP BY column_name, encoding ORDER BY column_name, encoding;

-- TPC-H Q6's shape: ColstoreAgg with every condition in its filter, and the
-- same conditions as ColstoreScan's batch filter
EXPLAIN (COSTS OFF)
SELECT sum(price * disc) FROM sf
WHERE ship >= date '1994-01-01' AND ship < date '1994-01-01' + interval '1' year
	AND disc BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND qty < 24;
EXPLAIN (COSTS OFF)
SELECT id, price FROM sf
WHERE ship >= date '1994-01-01' AND ship < date '1995-01-01' AND disc BETWEEN 0.05 AND 0.07
	AND qty < 24;

\getenv abs_srcdir PG_ABS_SRCDIR
\set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
\i :same_result_sql
-- each query gives heap's rows; node says which colstore node ran it
CREATE FUNCTION sparse_check(q text) RETURNS TABLE (node text, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan text := '';
	line text;
	hq text := replace(q, 'FROM sf', 'FROM sh');	-- the same query on the heap twin
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		plan := plan || line;
	END LOOP;
	node := CASE WHEN plan LIKE '%ColstoreAgg%' THEN 'agg'
		WHEN plan LIKE '%ColstoreScan%' THEN 'scan' ELSE plan END ||
		CASE WHEN plan LIKE '%Gather%' THEN ' (parallel)' ELSE '' END;
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO nrows;
	same := same_result(q, hq);
	RETURN NEXT;
END $$;

CREATE TABLE sparse_queries (n serial, q text);
INSERT INTO sparse_queries (q) VALUES
	-- Q6, as an aggregate and as rows (sparse: about 2% of the rows pass)
	('SELECT sum(price * disc), count(*) FROM sf WHERE ship >= date ''1994-01-01'' AND ship < date ''1995-01-01'' AND disc BETWEEN 0.05 AND 0.07 AND qty < 24'),
	('SELECT id, price, disc, qty, m FROM sf WHERE ship >= date ''1994-01-01'' AND ship < date ''1995-01-01'' AND disc BETWEEN 0.05 AND 0.07 AND qty < 24'),
	-- dense: nearly every row passes; every row passes
	('SELECT sum(price), sum(qty), avg(disc), count(*) FROM sf WHERE qty < 50 AND disc <= 0.09'),
	('SELECT sum(price * disc), count(*) FROM sf WHERE qty > 0 AND disc >= 0'),
	('SELECT count(*) FROM sf WHERE qty > 0 AND disc >= 0 AND ship >= date ''1992-01-01'''),
	-- no row of any chunk passes (the chunks' ranges do not refute it)
	('SELECT sum(price), count(*) FROM sf WHERE k = 3 AND qty = 1.5'),
	('SELECT id FROM sf WHERE qty = 24.5 AND disc = 0.05'),
	-- a numeric key read row by row over chunks with and without NULLs
	('SELECT sum(pn), count(*) FROM sf WHERE ship < date ''1992-06-01'' AND pn < 5'),
	('SELECT id, pn FROM sf WHERE ship < date ''1992-03-01'' AND pn >= 45.5'),
	('SELECT count(*), sum(price) FROM sf WHERE pn IS NULL AND k = 1'),
	('SELECT count(*), sum(pn) FROM sf WHERE pn IS NOT NULL AND pn > 49.5 AND k < 5'),
	('SELECT sum(price * pn), count(*) FROM sf WHERE ship < date ''1993-01-01'' AND k = 2'),
	-- an all-NULL chunk
	('SELECT sum(z), count(*) FROM sf WHERE z > 70 AND k = 2'),
	('SELECT id, z FROM sf WHERE id < 3000 AND k = 9 AND z < 10'),
	-- display scales that differ from row to row, NULLs in every chunk
	('SELECT sum(m), count(*) FROM sf WHERE ship < date ''1994-01-01'' AND k = 4 AND m > 100'),
	('SELECT sum(m * disc), count(*) FROM sf WHERE ship >= date ''1998-01-01'' AND m < 50.5'),
	('SELECT id, m FROM sf WHERE ship >= date ''1997-01-01'' AND m = 100.429'),
	-- a value at a larger scale than the column's (int128 rescaling)
	('SELECT count(*), sum(disc) FROM sf WHERE ship >= date ''1997-01-01'' AND disc < 0.055'),
	('SELECT id FROM sf WHERE ship < date ''1992-02-01'' AND qty <= 10.001'),
	-- IN lists: integers, numerics, text
	('SELECT count(*), sum(price) FROM sf WHERE k IN (1, 3) AND qty IN (5, 7)'),
	('SELECT id, flag FROM sf WHERE ship < date ''1992-04-01'' AND flag IN (''A'', ''C'') AND k IN (2, 8)'),
	('SELECT count(*) FROM sf WHERE note IN (''n1'', ''n50'', ''none'') AND disc > 0.08'),
	-- LIKE and NOT LIKE
	('SELECT count(*), sum(qty) FROM sf WHERE note LIKE ''n1%'' AND disc = 0.03'),
	('SELECT id FROM sf WHERE ship >= date ''1998-09-01'' AND note NOT LIKE ''n1_'''),
	('SELECT id, note FROM sf WHERE ship >= date ''1998-09-01'' AND note NOT LIKE ''n9%'' AND qty < 5'),
	-- OR and AND inside OR, numeric keys within them
	('SELECT count(*), sum(price) FROM sf WHERE (qty < 3 OR disc = 0.10) AND ship < date ''1993-06-01'''),
	('SELECT id FROM sf WHERE ship < date ''1992-03-01'' AND (pn < 1 OR m > 140 OR (k = 5 AND disc > 0.07))'),
	('SELECT count(*) FROM sf WHERE (ship < date ''1992-02-01'' AND qty > 40) OR (ship > date ''1998-12-01'' AND pn IS NULL)'),
	-- column pairs: integers, numerics
	('SELECT count(*), sum(qty) FROM sf WHERE k < k2 AND ship < date ''1993-01-01'''),
	('SELECT id FROM sf WHERE ship >= date ''1998-10-01'' AND qty > pn'),
	-- text
	('SELECT id, note FROM sf WHERE note = ''n5'' AND ship >= date ''1998-01-01'''),
	('SELECT count(*) FROM sf WHERE note <> ''n5'' AND flag = ''B'' AND qty < 2'),
	-- grouping, and an aggregate's FILTER
	('SELECT flag, sum(price * disc), avg(qty), count(*) FROM sf WHERE ship BETWEEN date ''1995-01-01'' AND date ''1995-12-31'' AND disc > 0.08 GROUP BY flag'),
	('SELECT sum(price) FILTER (WHERE disc > 0.05 AND qty < 10), count(*) FROM sf WHERE ship < date ''1994-01-01'''),
	('SELECT k, sum(m), count(m) FROM sf WHERE ship < date ''1992-06-01'' AND pn < 20 GROUP BY k'),
	-- keys on one column decided together as a range: integers with NULLs,
	-- an empty range, bounds at the ends of int8, equal bounds, scaled
	-- numerics with NULLs, a bound at a larger scale than the chunk's
	('SELECT count(*), sum(ki) FROM sf WHERE ki >= 20 AND ki < 23 AND k > 2 AND k <= 4'),
	('SELECT id FROM sf WHERE ki > 40 AND ki < 41 AND qty < 30'),
	('SELECT count(*) FROM sf WHERE k > 9223372036854775807 AND k < 5'),
	('SELECT count(*) FROM sf WHERE ki < -9223372036854775807 - 1 AND ki >= 0'),
	('SELECT count(*), sum(ki) FROM sf WHERE ki >= -9223372036854775807 - 1 AND ki <= 9223372036854775807 AND k = 7'),
	('SELECT id, qty FROM sf WHERE qty >= 10 AND qty <= 10 AND ship < date ''1992-09-01'''),
	('SELECT count(*), sum(pn) FROM sf WHERE pn > 10 AND pn <= 10.5 AND ship < date ''1996-01-01'''),
	('SELECT id, m FROM sf WHERE m BETWEEN 30 AND 30.2 AND ship >= date ''1996-01-01'''),
	('SELECT count(*), sum(disc) FROM sf WHERE disc > 0.055 AND disc <= 0.09 AND ship >= date ''1998-01-01'''),
	('SELECT id FROM sf WHERE ship > date ''1995-03-01'' AND ship <= date ''1995-03-03'' AND ship <> date ''1995-03-02''');

SELECT n, (sparse_check(q)).* FROM sparse_queries ORDER BY n;
-- the filter learns its order over the batches: a second run is the same
SELECT n, (sparse_check(q)).* FROM sparse_queries WHERE n IN (1, 2, 27) ORDER BY n;

-- deleted rows are not returned, whatever the filter reads
DELETE FROM sf WHERE id % 3 = 0 AND ship < date '1995-01-01';
DELETE FROM sh WHERE id % 3 = 0 AND ship < date '1995-01-01';
SELECT n, (sparse_check(q)).* FROM sparse_queries WHERE n IN (1, 2, 8, 9, 15, 27) ORDER BY n;

-- parallel workers: each filters its own chunks
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF)
SELECT sum(price * disc) FROM sf
WHERE ship >= date '1994-01-01' AND ship < date '1995-01-01' AND disc BETWEEN 0.05 AND 0.07
	AND qty < 24;
SELECT n, (sparse_check(q)).* FROM sparse_queries WHERE n IN (1, 2, 3, 9, 27, 33) ORDER BY n;
RESET max_parallel_workers_per_gather;
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;

DROP FUNCTION sparse_check(text);
DROP TABLE sparse_queries, sf, sh;
