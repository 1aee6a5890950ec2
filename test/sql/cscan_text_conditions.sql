-- Conditions on text, varchar, bpchar and name columns in ColstoreAgg and
-- ColstoreScan: equality and IN lists (bytes, under a deterministic
-- collation), comparisons under the column's collation, and LIKE with a
-- literal prefix, which skips chunks when the column's collation is "C".
-- Every query gives heap's result.
SET max_parallel_workers_per_gather = 0;
CREATE TABLE tc (i int, t text, tcc text COLLATE "C", v varchar(20), b char(6), nm name)
	USING colstore WITH (chunk_size = 1000);
-- tcc is in order (so LIKE prefixes skip chunks); the others cycle; NULLs,
-- the empty string, multibyte characters, and the LIKE metacharacters
-- themselves in the data
INSERT INTO tc SELECT i,
	CASE WHEN i % 19 = 0 THEN NULL WHEN i % 23 = 0 THEN '' ELSE 'k' || (i % 37) END,
	'p' || lpad(i::text, 6, '0'),
	CASE WHEN i % 29 = 0 THEN NULL ELSE 'v' || (i % 13) || CASE WHEN i % 2 = 0 THEN 'é' ELSE '' END END,
	'b' || (i % 5),
	('n' || (i % 3))::name
	FROM generate_series(1, 20000) i;
INSERT INTO tc (i, t, tcc, v, b) VALUES
	(1, 'a%b', 'p%x', '50%', 'x '), (2, 'a_b', 'p_x', '5_0', 'x'), (3, 'a\b', 'p\x', 'back\slash', 'y'),
	(4, '日本語', 'p日本', 'é', 'z'), (5, 'k1 ', 'p000001 ', 'v1 ', 'b1 ');
ANALYZE tc;
CREATE TABLE th USING heap AS SELECT * FROM tc;

\getenv abs_srcdir PG_ABS_SRCDIR
\set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
\i :same_result_sql
-- each query's result equals heap's; 'agg' and 'scan' say which custom
-- node ran
CREATE FUNCTION check_query(q text) RETURNS TABLE (agg boolean, scan boolean, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || q INTO plan;
	agg := plan::text LIKE '%ColstoreAgg%';
	scan := plan::text LIKE '%ColstoreScan%';
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO nrows;
	same := same_result(q, replace(q, 'FROM tc', 'FROM th'));
	RETURN NEXT;
END $$;

SELECT q, c.* FROM (VALUES
	-- equality and IN lists
	('SELECT count(*), sum(i) FROM tc WHERE t = ''k1'''),
	('SELECT count(*), sum(i) FROM tc WHERE t = ''k1 '''),
	('SELECT count(*), sum(i) FROM tc WHERE t = '''''),
	('SELECT count(*), sum(i) FROM tc WHERE t = ''日本語'''),
	('SELECT count(*), sum(i) FROM tc WHERE t = NULL'),
	('SELECT count(*), sum(i) FROM tc WHERE t IN (''k1'', ''k2'', '''', NULL)'),
	('SELECT count(*), sum(i) FROM tc WHERE v = ''v3é'''),
	('SELECT count(*), sum(i) FROM tc WHERE v IN (''v3'', ''é'', ''v12é'')'),
	('SELECT count(*), sum(i) FROM tc WHERE b = ''b1'''),
	('SELECT count(*), sum(i) FROM tc WHERE b = ''x'''),
	('SELECT count(*), sum(i) FROM tc WHERE b IN (''b1'', ''y     '')'),
	('SELECT count(*), sum(i) FROM tc WHERE nm = ''n1'''),
	('SELECT count(*), sum(i) FROM tc WHERE tcc = ''p000500'''),
	('SELECT t, count(*) FROM tc WHERE t IN (''k1'', ''k2'') GROUP BY t'),
	('SELECT count(*), sum(i) FROM tc WHERE t <> ''k1'' AND v <> ''v3é'''),
	('SELECT count(*), sum(i) FROM tc WHERE tcc <> ''p000500'' AND b <> ''b1'''),
	-- comparisons, under the column's collation
	('SELECT count(*), sum(i) FROM tc WHERE t < ''k2'''),
	('SELECT count(*), sum(i) FROM tc WHERE t >= ''k35'' AND t <= ''k5'''),
	('SELECT count(*), sum(i) FROM tc WHERE tcc BETWEEN ''p001000'' AND ''p001999'''),
	('SELECT count(*), sum(i) FROM tc WHERE tcc > ''p019990'''),
	('SELECT count(*), sum(i) FROM tc WHERE v > ''v1'''),
	('SELECT count(*), sum(i) FROM tc WHERE b <= ''b2'''),
	-- LIKE
	('SELECT count(*), sum(i) FROM tc WHERE t LIKE ''k1%'''),
	('SELECT count(*), sum(i) FROM tc WHERE t LIKE ''k1'''),
	('SELECT count(*), sum(i) FROM tc WHERE t LIKE ''k_'''),
	('SELECT count(*), sum(i) FROM tc WHERE t LIKE ''k%1'''),
	('SELECT count(*), sum(i) FROM tc WHERE t LIKE ''%'''),
	('SELECT count(*), sum(i) FROM tc WHERE t LIKE '''''),
	('SELECT count(*), sum(i) FROM tc WHERE t LIKE ''%%'''),
	('SELECT count(*), sum(i) FROM tc WHERE t LIKE ''a\%%'''),
	('SELECT count(*), sum(i) FROM tc WHERE t LIKE ''a\_b'''),
	('SELECT count(*), sum(i) FROM tc WHERE t LIKE ''a\\b'''),
	('SELECT count(*), sum(i) FROM tc WHERE t LIKE ''日本%'''),
	('SELECT count(*), sum(i) FROM tc WHERE t LIKE NULL'),
	('SELECT count(*), sum(i) FROM tc WHERE tcc LIKE ''p0015%'''),
	('SELECT count(*), sum(i) FROM tc WHERE tcc LIKE ''p0000%1'''),
	('SELECT count(*), sum(i) FROM tc WHERE tcc LIKE ''p日%'''),
	('SELECT count(*), sum(i) FROM tc WHERE tcc LIKE ''q%'''),
	('SELECT count(*), sum(i) FROM tc WHERE tcc LIKE ''p000001%'''),
	('SELECT count(*), sum(i) FROM tc WHERE v LIKE ''v1%é'''),
	('SELECT count(*), sum(i) FROM tc WHERE v LIKE ''50\%'''),
	('SELECT t, count(*), sum(i) FROM tc WHERE t LIKE ''k2%'' GROUP BY t'),
	('SELECT count(*) FILTER (WHERE t LIKE ''k1%''), count(*) FILTER (WHERE v = ''v1'') FROM tc'),
	-- ColstoreScan with the same conditions
	('SELECT i, t FROM tc WHERE tcc LIKE ''p0015%'''),
	('SELECT i, tcc FROM tc WHERE tcc = ''p000777'''),
	('SELECT i FROM tc WHERE tcc IN (''p000010'', ''p019999'')'),
	-- bpchar LIKE (padding included; more in cscan_like)
	('SELECT count(*), sum(i) FROM tc WHERE b LIKE ''b1%'''),
	-- not handled here, left to PostgreSQL: another collation than the
	-- column's for an ordering comparison, ILIKE, name LIKE
	('SELECT count(*), sum(i) FROM tc WHERE t < ''k2'' COLLATE "POSIX"'),
	('SELECT count(*), sum(i) FROM tc WHERE t ILIKE ''K1%'''),
	('SELECT count(*), sum(i) FROM tc WHERE nm LIKE ''n1%''')
) v(q), LATERAL check_query(q) c;

-- LIKE prefixes skip the chunks a "C" column's min/max leave no room in;
-- equality skips chunks under any collation
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT count(*) FROM tc WHERE tcc LIKE 'p0015%';
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT count(*) FROM tc WHERE tcc = 'p000777';
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT i FROM tc WHERE tcc LIKE 'p0015%';
-- a collation that is not deterministic is left to PostgreSQL
CREATE COLLATION tc_nd (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE tn (i int, t text COLLATE tc_nd) USING colstore WITH (chunk_size = 1000);
INSERT INTO tn SELECT i, CASE WHEN i % 2 = 0 THEN 'ABC' ELSE 'abc' END FROM generate_series(1, 5000) i;
ANALYZE tn;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tn WHERE t = 'abc';
SELECT count(*) FROM tn WHERE t = 'abc';
SELECT count(*) FROM tn WHERE t LIKE 'ab%';

DROP TABLE tn;
DROP COLLATION tc_nd;
DROP FUNCTION check_query(text);
DROP TABLE tc, th;
