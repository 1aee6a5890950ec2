-- ColstoreAgg's numeric sums and averages on the scaled-integer encoding:
-- columns and +, -, * expressions evaluated on int64s of one display scale
-- and folded into per-batch sums per group (numeric_expr.c, numeric_sum.c),
-- against heap's results: NULLs, negative values, values at the limits of
-- the scaled int64 (products and sums that overflow it go to the int128 and
-- numeric paths), display scales that differ, NaN, many groups, FILTER,
-- deleted rows, few and many selected rows.
SET max_parallel_workers_per_gather = 0;
CREATE TABLE nb (g "char", k int, d date, q numeric(15, 2), p numeric(15, 2),
	x numeric(15, 2), t numeric(15, 2), u numeric, big numeric(24, 4))
	USING colstore WITH (chunk_size = 1000);
-- rows 1 .. 20000: chunks 1-4 without NULLs; later ones with some; u has
-- display scale 2 in chunks 1-10, and 0 and 1 after, and 5 in each chunk's
-- last row (so a batch's first row does not tell the largest, and the sums
-- show it as trailing zeros); big holds the
-- largest int64 (and its negation) as a scaled integer, 922337203685477.5807,
-- in chunk 7, and ordinary values elsewhere
INSERT INTO nb SELECT
	(ARRAY['A', 'N', 'R'])[1 + i % 3]::"char",
	i % 300,
	date '1992-01-01' + i % 2500,
	CASE WHEN i > 4000 AND i % 97 = 0 THEN NULL ELSE (1 + i % 50)::numeric END,
	CASE WHEN i > 4000 AND i % 89 = 0 THEN NULL
		ELSE round((900 + (i * 7919) % 104000) / 100.0 * (CASE WHEN i % 11 = 0 THEN -1 ELSE 1 END), 2) END,
	(i % 11) / 100.0,
	(i % 9) / 100.0,
	CASE WHEN i <= 10000 THEN ((i % 1000) / 100.0)::numeric(10, 2)
		WHEN i % 1000 = 999 THEN ((i % 1000) / 10.0)::numeric(12, 5)
		WHEN i % 5 = 0 THEN ((i % 1000) / 10.0)::numeric(10, 1)
		ELSE (i % 1000)::numeric END,
	CASE WHEN i BETWEEN 6001 AND 7000 THEN
		CASE WHEN i % 4 = 0 THEN 922337203685477.5807
			WHEN i % 4 = 1 THEN -922337203685477.5807 + i
			WHEN i % 4 = 2 THEN 922337203685477.5807 - i * 3
			ELSE NULL END
		ELSE (i % 1000) * 1.25 END
	FROM generate_series(1, 20000) i;
-- NaN is no scaled integer: batches with it are evaluated as numerics
UPDATE nb SET u = 'NaN' WHERE k = 7 AND d = date '1992-01-01' + 7;
SELECT count(*) FROM nb WHERE u = 'NaN';
CREATE TABLE nbh USING heap AS SELECT * FROM nb;
-- the rows of a query over %T (nb, colstore) as text (display scales
-- count: 1.50 is not 1.5), its plan, and the rows that differ from the
-- same query's over nbh (heap)
CREATE FUNCTION nb_rows(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('SELECT s::text FROM (%s) s ORDER BY 1',
								replace(query, '%T', 'nb'));
END $$;
CREATE FUNCTION nb_plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || replace(query, '%T', 'nb');
END $$;
CREATE FUNCTION nb_diff(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	c text := format('SELECT s::text FROM (%s) s', replace(query, '%T', 'nb'));
	h text := format('SELECT s::text FROM (%s) s', replace(query, '%T', 'nbh'));
BEGIN
	RETURN QUERY EXECUTE format('(%s EXCEPT ALL %s) UNION ALL (%s EXCEPT ALL %s)',
								c, h, h, c);
END $$;
-- the scaled-integer encoding holds what it is meant to hold
SELECT column_name, count(*) FILTER (WHERE encoding = 'scaled_numeric') AS scaled,
	count(*) FILTER (WHERE encoding <> 'scaled_numeric') AS other
	FROM colstore.chunks('nb') WHERE column_name IN ('q', 'p', 'x', 't', 'u', 'big')
	GROUP BY column_name ORDER BY column_name;

-- TPC-H Q1's shape: a few groups, most rows selected
\set q1 'SELECT g, sum(q) AS sq, sum(p) AS sp, sum(p * (1 - x)) AS sdp, sum(p * (1 - x) * (1 + t)) AS sc, avg(q) AS aq, avg(p) AS ap, avg(x) AS ax, count(*) AS n FROM %T WHERE d <= date ''1998-09-02'' GROUP BY g'
SELECT nb_plan(:'q1');
SELECT nb_rows(:'q1');
SELECT nb_diff(:'q1');

-- TPC-H Q6's shape: one sum, few rows selected (read alone from the chunk)
\set q6 'SELECT sum(p * x) AS revenue, sum(p - x) AS diff, avg(q + t) AS a, count(*) FROM %T WHERE d >= date ''1994-01-01'' AND d < date ''1995-01-01'' AND x BETWEEN 0.05 AND 0.07 AND q < 24'
SELECT nb_plan(:'q6');
SELECT nb_rows(:'q6');
SELECT nb_diff(:'q6');

-- no conditions, no groups: every row of the batch
\set q0 'SELECT sum(p * x) AS a, sum(q) AS b, avg(t + x) AS c, sum(big) AS d, avg(u) AS e FROM %T'
SELECT nb_plan(:'q0');
SELECT nb_rows(:'q0');
SELECT nb_diff(:'q0');

-- display scales that differ (u after row 10000), NaN, numerics without typmod
\set qu 'SELECT g, sum(u) AS su, avg(u) AS au, sum(u * 2) AS su2, sum(u - x) AS sux, sum(x * u * t) AS sxut, count(u) FROM %T GROUP BY g'
SELECT nb_plan(:'qu');
SELECT nb_rows(:'qu');
SELECT nb_diff(:'qu');
\set qun 'SELECT g, sum(u) AS su, avg(u) AS au, sum(u * 2) AS su2, sum(u - x) AS sux, sum(x * u * t) AS sxut, count(u) FROM %T WHERE u <> ''NaN'' GROUP BY g'
SELECT nb_rows(:'qun');
SELECT nb_diff(:'qun');

-- the int64 limits: sums beyond int64, products beyond int64 and int128
\set qb 'SELECT g, sum(big) AS sb, avg(big) AS ab, sum(big * 1.00) AS sb1, sum(big + big) AS sbb, sum(big - p) AS sbp, sum(big * big) AS sbsq, sum((0 - big) * x) AS snbx, count(big) FROM %T GROUP BY g'
SELECT nb_plan(:'qb');
SELECT nb_rows(:'qb');
SELECT nb_diff(:'qb');
\set qbk 'SELECT g, sum(big) AS sb, avg(big) AS ab, sum(big * 1.00) AS sb1, sum(big + big) AS sbb, sum(big - p) AS sbp, sum(big * big) AS sbsq, sum((0 - big) * x) AS snbx, count(big) FROM %T WHERE k BETWEEN 10 AND 20 GROUP BY g'
SELECT nb_rows(:'qbk');
SELECT nb_diff(:'qbk');

-- more groups than a batch sums on its stack (300), and FILTER
\set qk 'SELECT k, sum(p) AS sp, avg(q) AS aq, sum(p * (1 - x)) AS sdp, sum(q) FILTER (WHERE x > 0.05) AS sqf, sum(p * t) FILTER (WHERE q < 10) AS sptf, count(*) FROM %T GROUP BY k'
SELECT nb_plan(:'qk');
SELECT count(*) FROM nb_rows(:'qk');
SELECT nb_diff(:'qk');
\set qkd 'SELECT k, sum(p) AS sp, avg(q) AS aq, sum(p * (1 - x)) AS sdp, sum(q) FILTER (WHERE x > 0.05) AS sqf, sum(p * t) FILTER (WHERE q < 10) AS sptf, count(*) FROM %T WHERE d < date ''1993-01-01'' GROUP BY k'
SELECT count(*) FROM nb_rows(:'qkd');
SELECT nb_diff(:'qkd');

-- rescans: a subquery's ColstoreAgg per outer row, with a subexpression
-- the two aggregates share (kept per batch, never across executions)
\set qr 'SELECT g2, (SELECT sum(p * (1 - x)) + sum(p * (1 - x) * (1 + t)) FROM %T WHERE k <> g2) FROM generate_series(0, 4) g2'
SELECT nb_plan(:'qr');
SELECT nb_rows(:'qr');
SELECT nb_diff(:'qr');

-- deleted rows (the batch's own selection, no conditions), none selected
DELETE FROM nb WHERE k % 5 = 1;
DELETE FROM nbh WHERE k % 5 = 1;
\set q1a 'SELECT g, sum(q) AS sq, sum(p) AS sp, sum(p * (1 - x)) AS sdp, sum(p * (1 - x) * (1 + t)) AS sc, avg(q) AS aq, avg(p) AS ap, avg(x) AS ax, count(*) AS n FROM %T GROUP BY g'
SELECT nb_rows(:'q1a');
SELECT nb_diff(:'q1a');
SELECT nb_diff(:'qb');
SELECT nb_diff(:'q0');
SELECT nb_diff(:'qu');
\set qnone 'SELECT sum(p * x) AS revenue, avg(q) FROM %T WHERE q > 1000'
SELECT nb_rows(:'qnone');
SELECT nb_diff(:'qnone');
\set qnoneg 'SELECT g, sum(p * x) AS revenue, avg(q) FROM %T WHERE q > 1000 GROUP BY g'
SELECT nb_rows(:'qnoneg');
DROP FUNCTION nb_rows(text), nb_plan(text), nb_diff(text);
DROP TABLE nb, nbh;
