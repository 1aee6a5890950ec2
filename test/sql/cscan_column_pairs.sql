-- The batch filter on comparisons of two columns: a WHERE condition
-- "column op column2" on two columns of one colstore table, of the same
-- type without a collation, op one of < <= = >= > <>, is decided a batch at
-- a time by ColstoreScan (EXPLAIN: "Batch Filter", not "Filter") and by
-- ColstoreAgg (its "Conditions").  Every query must return heap's rows: for
-- int2, int4, int8, date, timestamp, timestamptz, numeric, float8, bool and
-- a domain, with NULLs on either side, NaN and infinities, chunks of NULLs
-- only and of one value, AND/OR with comparisons to constants, a column
-- added later (its missing value in older rows), rows on delta pages,
-- updated and deleted rows, and parallel workers.  Pairs the filter cannot
-- decide stay a Filter: collatable types (text, varchar) and columns of
-- different types.
SET colstore.auto_compaction = off;		-- small inserts stay on delta pages
SET max_parallel_workers_per_gather = 0;
CREATE DOMAIN cp_count AS int CHECK (VALUE >= 0);
-- a* and b* pairs of each type: b is a's values in another order, so every
-- operator selects some rows; NULLs on each side (apart and together),
-- special values in the first row groups only (so chunks differ in their
-- encodings), rows 15001-16000 (one chunk) with every b NULL, rows
-- 17001-18000 with a single a value
CREATE TABLE cp (id int, a2 int2, b2 int2, a4 int, b4 int, a8 int8, b8 int8,
	da date, db date, ta timestamp, tb timestamp, za timestamptz, zb timestamptz,
	na numeric, nb numeric, fa float8, fb float8, ba bool, bb bool,
	sa text, sb text, va varchar(10), vb varchar(10), dm cp_count)
	USING colstore WITH (row_group_size = 5000, chunk_size = 1000);
INSERT INTO cp SELECT i,
	CASE WHEN a IS NULL THEN NULL WHEN i = 40 THEN 32767 WHEN i = 41 THEN -32768 ELSE a END,
	CASE WHEN b IS NULL THEN NULL WHEN i = 40 THEN 32767 WHEN i = 41 THEN 32767 ELSE b END,
	CASE WHEN i = 42 THEN 2147483647 ELSE a END,
	CASE WHEN i = 42 THEN -2147483648 ELSE b END,
	CASE WHEN i = 43 THEN 9000000000000000000 ELSE a * 1000000000000 END,
	CASE WHEN i = 43 THEN -9000000000000000000 ELSE b * 1000000000000 END,
	CASE WHEN i < 8000 AND i % 211 = 1 THEN 'infinity' ELSE date '2020-01-01' + a END,
	CASE WHEN i < 8000 AND i % 223 = 1 THEN '-infinity' ELSE date '2020-01-01' + b END,
	CASE WHEN i < 8000 AND i % 211 = 2 THEN 'infinity'
		 ELSE timestamp '2020-01-01' + a * interval '1 hour' END,
	CASE WHEN i < 8000 AND i % 223 = 2 THEN 'infinity'
		 ELSE timestamp '2020-01-01' + b * interval '1 hour' END,
	timestamptz '2020-01-01 00:00+00' + a * interval '1 minute',
	timestamptz '2020-01-01 00:00+00' + b * interval '1 minute',
	CASE WHEN i < 8000 AND i % 97 = 1 THEN 'NaN'
		 WHEN i < 8000 AND i % 97 = 2 THEN 'Infinity'
		 WHEN i < 8000 AND i % 97 = 3 THEN '-Infinity'
		 WHEN i BETWEEN 12001 AND 13000 THEN a * 1e25
		 ELSE round(a / 4.0, 2) END,
	CASE WHEN i < 8000 AND i % 89 = 1 THEN 'NaN'
		 WHEN i < 8000 AND i % 89 = 2 THEN 'Infinity'
		 WHEN i < 8000 AND i % 89 = 3 THEN '-Infinity'
		 WHEN i BETWEEN 12001 AND 13000 THEN b * 1e25
		 ELSE b / 4.0 END,
	CASE WHEN i < 8000 AND i % 97 = 1 THEN 'NaN'
		 WHEN i < 8000 AND i % 97 = 2 THEN 'Infinity'
		 WHEN i < 8000 AND i % 97 = 3 THEN '-Infinity'
		 WHEN a = 0 THEN '-0'
		 ELSE a / 4.0 END,
	CASE WHEN i < 8000 AND i % 89 = 1 THEN 'NaN'
		 WHEN i < 8000 AND i % 89 = 2 THEN 'Infinity'
		 WHEN i < 8000 AND i % 89 = 3 THEN '-Infinity'
		 ELSE b / 4.0 END,
	a % 3 = 0, b % 2 = 0, 's' || a, 's' || b, 'v' || a, 'v' || b, b % 31
	FROM (SELECT i,
				 CASE WHEN i % 23 = 0 THEN NULL WHEN i BETWEEN 17001 AND 18000 THEN 7 ELSE i % 50 END AS a,
				 CASE WHEN i % 29 = 0 OR i BETWEEN 15001 AND 16000 THEN NULL ELSE i * 7 % 50 END AS b
		  FROM generate_series(1, 20000) i) s;
ANALYZE cp;
CREATE TABLE cph USING heap AS SELECT * FROM cp;
ANALYZE cph;

-- the plan: a pair of one type becomes the batch filter (also in an AND or
-- OR with a comparison to a constant), and ColstoreAgg's condition
EXPLAIN (COSTS OFF) SELECT id FROM cp WHERE a4 < b4;
EXPLAIN (COSTS OFF) SELECT id FROM cp WHERE na >= nb AND a2 = 3;
EXPLAIN (COSTS OFF) SELECT id FROM cp WHERE fa <> fb OR ba = bb;
EXPLAIN (COSTS OFF) SELECT id FROM cp WHERE dm < b4;
EXPLAIN (COSTS OFF) SELECT count(*) FROM cp WHERE ta > tb;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) SELECT id FROM cp WHERE a8 = b8;
-- not decided: text and varchar pairs (collatable), int4 against int8,
-- date against timestamp; alone they leave no ColstoreScan, next to a
-- condition it decides they stay its Filter
EXPLAIN (COSTS OFF) SELECT id FROM cp WHERE sa < sb;
EXPLAIN (COSTS OFF) SELECT id FROM cp WHERE sa = sb AND a4 = 4;
EXPLAIN (COSTS OFF) SELECT id FROM cp WHERE va <> vb AND a4 = 4;
EXPLAIN (COSTS OFF) SELECT id FROM cp WHERE a4 < b8 AND a2 = 4;
EXPLAIN (COSTS OFF) SELECT id FROM cp WHERE a2 < b4 AND a8 = 4000000000000;
EXPLAIN (COSTS OFF) SELECT id FROM cp WHERE da < tb AND a2 = 4;
EXPLAIN (COSTS OFF) SELECT count(*) FROM cp WHERE sa < sb;

-- every query gives heap's rows; 'decided_by' names where the plan puts
-- its conditions (Batch Filter, Conditions: decided by the batch filter;
-- Filter: by the executor)
CREATE FUNCTION check_pair(q text) RETURNS TABLE (decided_by text, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
	hq text := regexp_replace(q, '\mcp\M', 'cph', 'g');	-- the same query on the heap copy
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || q INTO plan;
	SELECT string_agg(DISTINCT key, ', ' ORDER BY key) INTO decided_by
		FROM jsonb_path_query(plan, 'strict $.**') n, jsonb_object_keys(n) key
		WHERE jsonb_typeof(n) = 'object' AND key IN ('Filter', 'Batch Filter', 'Conditions');
	-- each query runs once (its rows kept), then EXCEPT ALL both ways
	EXECUTE format($q$WITH x AS MATERIALIZED (SELECT row(x.*)::text AS r FROM (%s) x),
						   y AS MATERIALIZED (SELECT row(y.*)::text AS r FROM (%s) y)
					  SELECT (SELECT count(*) FROM x),
							 NOT EXISTS (TABLE x EXCEPT ALL TABLE y) AND
							 NOT EXISTS (TABLE y EXCEPT ALL TABLE x)$q$,
				   q, hq)
		INTO nrows, same;
	RETURN NEXT;
END $$;

-- every operator on every type
CREATE TABLE pair_queries (q text);
INSERT INTO pair_queries
	SELECT format('SELECT id FROM cp WHERE %s %s %s', a, op, b)
	FROM (VALUES (1, 'a2', 'b2'), (2, 'a4', 'b4'), (3, 'a8', 'b8'), (4, 'da', 'db'),
				 (5, 'ta', 'tb'), (6, 'za', 'zb'), (7, 'na', 'nb'), (8, 'fa', 'fb')) t(n, a, b),
		 unnest(ARRAY['<', '<=', '=', '>=', '>', '<>']) WITH ORDINALITY o(op, m)
	ORDER BY n, m;
INSERT INTO pair_queries VALUES
	('SELECT id, ba, bb FROM cp WHERE ba = bb'),
	('SELECT id, ba, bb FROM cp WHERE ba < bb'),
	('SELECT id, ba, bb FROM cp WHERE ba <> bb'),
	('SELECT id, dm, b4 FROM cp WHERE dm < b4'),
	('SELECT id, dm, a4 FROM cp WHERE a4 = dm'),
	-- the column on either side, the same pair twice
	('SELECT id FROM cp WHERE b4 > a4'),
	('SELECT id FROM cp WHERE a4 < b4 AND b4 > a4'),
	-- with comparisons to constants, AND and OR nested, NULL tests
	('SELECT id FROM cp WHERE a4 < b4 AND a8 > 30000000000000'),
	('SELECT id FROM cp WHERE a4 = b4 OR a2 = 3'),
	('SELECT id FROM cp WHERE (na > nb OR fa < fb) AND da <> db'),
	('SELECT id FROM cp WHERE (a4 <= b4 AND ta = tb) OR (b2 = 7 AND fa >= fb)'),
	('SELECT id FROM cp WHERE a4 > b4 OR b4 IS NULL'),
	('SELECT id FROM cp WHERE a4 < b4 OR a4 IS NULL'),
	('SELECT id FROM cp WHERE fa = fb AND fa = ''NaN'''),
	('SELECT id FROM cp WHERE na = nb AND na IN (''Infinity'', ''-Infinity'')'),
	('SELECT id FROM cp WHERE NOT (a4 < b4)'),
	('SELECT id FROM cp WHERE NOT (a4 < b4 OR a2 = 3)'),
	('SELECT id, a4, b4 FROM cp WHERE a4 < b4 AND abs(id) % 3 = 0'),
	('SELECT id, a4, b4 FROM cp WHERE id BETWEEN 14000 AND 19000 AND a4 < b4'),
	-- ColstoreAgg: the pair is one of its conditions
	('SELECT count(*) FROM cp WHERE a4 < b4'),
	('SELECT count(*) FROM cp WHERE na >= nb OR a2 = 3'),
	('SELECT count(*) FROM cp WHERE fa <> fb AND za <= zb'),
	-- not decided
	('SELECT id FROM cp WHERE sa < sb'),
	('SELECT id FROM cp WHERE sa > sb AND a4 = 4'),
	('SELECT id FROM cp WHERE va >= vb AND a4 = 4'),
	('SELECT id FROM cp WHERE a4 < b8 AND a2 = 4'),
	('SELECT id FROM cp WHERE a2 < b4 AND a8 = 4000000000000'),
	('SELECT id FROM cp WHERE da > tb AND a2 = 4'),
	('SELECT count(*) FROM cp WHERE sa < sb');
SELECT q, c.* FROM pair_queries, LATERAL check_pair(q) c;

-- changed rows: small inserts (on delta pages), updated rows (new values
-- make pairs equal or unequal), deleted rows
SET colstore.delta_insert_rows = 100;
SELECT count(*) AS row_groups, sum(row_count) AS rows_in_row_groups
	FROM colstore.row_groups('cp');
INSERT INTO cp (id, a2, b2, a4, b4, a8, b8, da, db, ta, tb, na, nb, fa, fb, ba, bb, dm)
	VALUES (20001, 1, 2, 1, 2, 1, 2, '2020-01-01', '2020-01-02', '2020-01-01', '2020-01-02',
			1, 2, 1, 2, false, true, 1),
		   (20002, 2, 2, 2, 2, 2, 2, '2020-01-02', '2020-01-02', '2020-01-02', '2020-01-02',
			'NaN', 'NaN', 'NaN', 'NaN', true, true, 2),
		   (20003, NULL, 2, NULL, 2, NULL, 2, NULL, '2020-01-02', NULL, '2020-01-02',
			NULL, 2, NULL, 2, NULL, true, NULL),
		   (20004, 3, NULL, 3, NULL, 3, NULL, '2020-01-05', NULL, '2020-01-05', NULL,
			'Infinity', 5, '-Infinity', 5, true, NULL, 3),
		   (20005, 9, 4, 9, 4, 9, 4, 'infinity', '2020-01-01', 'infinity', '-infinity',
			1.50, 1.5, '-0', 0, true, false, 9);
INSERT INTO cph (id, a2, b2, a4, b4, a8, b8, da, db, ta, tb, na, nb, fa, fb, ba, bb, dm)
	VALUES (20001, 1, 2, 1, 2, 1, 2, '2020-01-01', '2020-01-02', '2020-01-01', '2020-01-02',
			1, 2, 1, 2, false, true, 1),
		   (20002, 2, 2, 2, 2, 2, 2, '2020-01-02', '2020-01-02', '2020-01-02', '2020-01-02',
			'NaN', 'NaN', 'NaN', 'NaN', true, true, 2),
		   (20003, NULL, 2, NULL, 2, NULL, 2, NULL, '2020-01-02', NULL, '2020-01-02',
			NULL, 2, NULL, 2, NULL, true, NULL),
		   (20004, 3, NULL, 3, NULL, 3, NULL, '2020-01-05', NULL, '2020-01-05', NULL,
			'Infinity', 5, '-Infinity', 5, true, NULL, 3),
		   (20005, 9, 4, 9, 4, 9, 4, 'infinity', '2020-01-01', 'infinity', '-infinity',
			1.50, 1.5, '-0', 0, true, false, 9);
UPDATE cp SET b4 = a4, b8 = a8, nb = na, fb = fa WHERE id % 100 = 11;
UPDATE cph SET b4 = a4, b8 = a8, nb = na, fb = fa WHERE id % 100 = 11;
UPDATE cp SET a4 = b4 + 1, da = db - 1, ta = NULL WHERE id % 100 = 12;
UPDATE cph SET a4 = b4 + 1, da = db - 1, ta = NULL WHERE id % 100 = 12;
DELETE FROM cp WHERE id % 10 = 3;
DELETE FROM cph WHERE id % 10 = 3;
-- the new rows and versions are in no row group
SELECT count(*) AS row_groups, sum(row_count) AS rows_in_row_groups
	FROM colstore.row_groups('cp');
SELECT q, c.* FROM pair_queries, LATERAL check_pair(q) c;

-- columns added later: older rows read the default (the missing value) or
-- NULL, newer rows their own values
ALTER TABLE cp ADD COLUMN x int DEFAULT 5, ADD COLUMN y int, ADD COLUMN x8 int8 DEFAULT 7;
ALTER TABLE cph ADD COLUMN x int DEFAULT 5, ADD COLUMN y int, ADD COLUMN x8 int8 DEFAULT 7;
INSERT INTO cp (id, a4, b4, a8, x, y, x8) VALUES (30001, 1, 2, 8, 1, 2, 8), (30002, 6, 6, 6, 6, 5, 6),
	(30003, NULL, 1, 1, NULL, 9, NULL);
INSERT INTO cph (id, a4, b4, a8, x, y, x8) VALUES (30001, 1, 2, 8, 1, 2, 8), (30002, 6, 6, 6, 6, 5, 6),
	(30003, NULL, 1, 1, NULL, 9, NULL);
EXPLAIN (COSTS OFF) SELECT id FROM cp WHERE x < a4;
SELECT q, c.* FROM (VALUES
	('SELECT id, x, a4 FROM cp WHERE x < a4'),
	('SELECT id, x, a4 FROM cp WHERE a4 <= x'),
	('SELECT id, x, b4 FROM cp WHERE x = b4'),
	('SELECT id, x, b4 FROM cp WHERE x <> b4'),
	('SELECT id, x, y FROM cp WHERE x < y'),
	('SELECT id, y, a4 FROM cp WHERE y >= a4'),
	('SELECT id, x8, a8 FROM cp WHERE x8 > a8'),
	('SELECT id, x8, a8 FROM cp WHERE a8 = x8 OR x = 6'),
	('SELECT count(*) FROM cp WHERE x > a4'),
	('SELECT count(*) FROM cp WHERE x8 <= b8')) v(q),
	LATERAL check_pair(q) c;

-- parallel workers: each filters its own row groups
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT id, a4, b4 FROM cp WHERE a4 < b4;
EXPLAIN (COSTS OFF) SELECT count(*) FROM cp WHERE na <> nb;
SELECT q, c.* FROM (VALUES
	('SELECT id, a4, b4 FROM cp WHERE a4 < b4'),
	('SELECT id FROM cp WHERE fa >= fb OR ta = tb'),
	('SELECT id FROM cp WHERE x < a4'),
	('SELECT count(*) FROM cp WHERE na <> nb'),
	('SELECT count(*) FROM cp WHERE da > db AND a2 < 40')) v(q),
	LATERAL check_pair(q) c;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

DROP TABLE cp, cph, pair_queries;
DROP FUNCTION check_pair(text);
DROP DOMAIN cp_count;
