-- ColstoreAgg with GROUP BY, avg, and sum/avg of numeric: results equal to
-- heap's (PostgreSQL's own HashAggregate) for every key type and aggregate,
-- with NULL keys, NULL arguments, NaN and infinities, values beyond int64,
-- display scales, conditions, deleted and updated rows, and empty input.
SET max_parallel_workers_per_gather = 0;
CREATE TABLE gb (i int, b bigint, s smallint, n numeric, k text, v varchar(10),
	c bpchar, d date, ts timestamp, f bool, r real)
	USING colstore WITH (chunk_size = 1000);
INSERT INTO gb SELECT i, i * 1000003::bigint, (i % 300)::smallint,
	CASE WHEN i % 17 = 0 THEN NULL ELSE (i % 1000)::numeric / 8 END,
	CASE WHEN i % 13 = 0 THEN NULL ELSE 'k' || (i % 7) END,
	'v' || (i % 11), 'c' || (i % 3), date '2020-01-01' + i % 5,
	timestamp '2020-01-01' + (i % 4) * interval '1 hour', i % 2 = 0, i % 5
	FROM generate_series(1, 25000) i;
-- bpchar keys equal up to trailing blanks, numeric display scales, NaN,
-- infinities, and values far beyond int64
INSERT INTO gb (i, n, c, k) VALUES
	(1, 1.50, 'c1', 'k1'), (1, 1.5, 'c1  ', 'k1'), (1, 'NaN', 'nan', 'k2'),
	(1, 'Infinity', 'inf', 'k3'), (1, '-Infinity', 'inf', 'k4'),
	(2, 'Infinity', 'pinf', 'k3'), (3, 123456789012345678901234567890.123456789, 'big', 'k5'),
	(3, -0.000000000000000000000000000000000000000001, 'tiny', 'k6'),
	(3, 99999999999999999999999999999999999999, 'big', 'k5');
ANALYZE gb;
CREATE TABLE gbh USING heap AS SELECT * FROM gb;

EXPLAIN (COSTS OFF) SELECT k, count(*), avg(n) FROM gb GROUP BY k;
EXPLAIN (VERBOSE, COSTS OFF) SELECT upper(k), sum(i) / count(*) FROM gb WHERE i > 100 GROUP BY k;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT v, c, count(*) FROM gb WHERE i BETWEEN 2000 AND 2999 GROUP BY v, c;
-- sum and avg of numeric arithmetic over columns and constants
EXPLAIN (COSTS OFF) SELECT c, sum(n * (1 - n)), avg(n + 1) FROM gb GROUP BY c;
-- IN lists prune chunks whose min/max rule out every element, and select rows
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT count(*) FROM gb WHERE i IN (5, 24995, NULL);
-- an OR prunes the chunks every argument rules out
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT count(*) FROM gb WHERE i < 100 OR (i > 24900 AND k IS NOT NULL);
-- FILTER with conditions of the kind WHERE takes
EXPLAIN (COSTS OFF) SELECT k, count(*) FILTER (WHERE i > 100), sum(n) FILTER (WHERE n < 10) FROM gb GROUP BY k;
EXPLAIN (COSTS OFF) SELECT count(*) FILTER (WHERE k LIKE 'k1%') FROM gb;
-- HAVING: the node's filter on the groups it returns
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM gb GROUP BY k HAVING count(*) > 1;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT k FROM gb GROUP BY k HAVING avg(i) > 12500 OR k IS NULL;
-- float (-0 = 0, NaN = NaN) and numeric (1.5 = 1.50) keys: grouped by the
-- operator's hash and equality functions, as HashAggregate groups them
EXPLAIN (COSTS OFF) SELECT r, count(*) FROM gb GROUP BY r;
EXPLAIN (COSTS OFF) SELECT n, count(*) FROM gb GROUP BY n;
-- not handled: keys with volatile functions (expressions otherwise are:
-- cscan_group_by_expressions), HAVING over what the node does not compute,
-- grouping sets
EXPLAIN (COSTS OFF) SELECT i % 3 + random()::int, count(*) FROM gb GROUP BY 1;
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM gb GROUP BY k HAVING stddev(i) > 1;
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM gb GROUP BY ROLLUP (k);
EXPLAIN (COSTS OFF) SELECT max(ts - ts), stddev(r) FROM gb GROUP BY k;
EXPLAIN (COSTS OFF) SELECT sum(n / 2), sum(n * i) FROM gb;
-- more grouping columns than the executor keeps (INDEX_MAX_KEYS = 32): left
-- to PostgreSQL
SELECT format('CREATE TABLE gbw (%s) USING colstore WITH (chunk_size = 1000)',
	string_agg(format('c%s int', g), ', ')) FROM generate_series(1, 33) g \gexec
INSERT INTO gbw SELECT i % 2 FROM generate_series(1, 3000) i;
ANALYZE gbw;
SELECT format('SELECT c1, count(*) FROM gbw GROUP BY %s ORDER BY c1',
	string_agg(format('c%s', g), ', ')) AS q33,
	format('SELECT c1, count(*) FROM gbw GROUP BY %s ORDER BY c1',
	string_agg(format('c%s', g), ', ') FILTER (WHERE g <= 32)) AS q32
	FROM generate_series(1, 33) g \gset
EXPLAIN (COSTS OFF) :q33;
:q33;
EXPLAIN (COSTS OFF) :q32;
:q32;
DROP TABLE gbw;
-- too many groups for hash_mem: left to HashAggregate, which can spill
SET work_mem = '64kB';
EXPLAIN (COSTS OFF) SELECT i, count(*) FROM gb GROUP BY i;
RESET work_mem;
-- wide keys count with their width: 2,000 groups of 1,000-byte keys do not
-- fit in 1MB (twice that with hash_mem_multiplier), 6,000 narrow ones do
CREATE TABLE gbk (k text, n int) USING colstore WITH (chunk_size = 1000);
INSERT INTO gbk SELECT repeat(md5((i % 2000)::text), 31) || i % 2000, i FROM generate_series(1, 6000) i;
ANALYZE gbk;
SET work_mem = '1MB';
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM gbk GROUP BY k;
EXPLAIN (COSTS OFF) SELECT n, count(*) FROM gbk GROUP BY n;
RESET work_mem;
DROP TABLE gbk;

\getenv abs_srcdir PG_ABS_SRCDIR
\set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
\i :same_result_sql
-- every query gives heap's result, group for group; 'agg' says whether
-- ColstoreAgg ran
CREATE FUNCTION check_groups(q text) RETURNS TABLE (agg boolean, groups bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || q INTO plan;
	agg := plan::text LIKE '%ColstoreAgg%';
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO groups;
	same := same_result(q, replace(q, 'FROM gb', 'FROM gbh'));
	RETURN NEXT;
END $$;
SELECT q, c.* FROM (VALUES
	('SELECT k, count(*), count(n), sum(n), avg(n) FROM gb GROUP BY k'),
	('SELECT c, count(*), sum(n), avg(n), sum(i), avg(i), avg(b), avg(s) FROM gb GROUP BY c'),
	('SELECT v, c, count(*), min(d), max(d), min(b), max(s), sum(b), sum(s) FROM gb GROUP BY v, c'),
	('SELECT d, ts, f, count(*), sum(i) FROM gb GROUP BY d, ts, f'),
	('SELECT i, count(*) FROM gb GROUP BY i'),
	('SELECT k FROM gb GROUP BY k'),
	('SELECT upper(k) || ''!'', sum(i) / count(*) FROM gb WHERE i > 100 GROUP BY k'),
	('SELECT k, count(*), avg(n) FROM gb WHERE i BETWEEN 2000 AND 2999 GROUP BY k'),
	('SELECT k, count(*), avg(n) FROM gb WHERE i > 99999 GROUP BY k'),
	('SELECT count(*), avg(n), sum(n) FROM gb WHERE i > 99999'),
	('SELECT sum(n), avg(n), avg(i), avg(b), avg(s) FROM gb'),
	('SELECT sum(n), avg(n) FROM gb WHERE n IS NOT NULL AND i > 3'),
	('SELECT c, sum(n * (1 - n)), avg(n * 2 + 1), sum(n - n * 0.5) FROM gb GROUP BY c'),
	('SELECT k, sum(n * n * n * n), avg(n * 0.0000000000000000000000000000001) FROM gb GROUP BY k'),
	('SELECT sum(n * 2), avg(n + 0.125) FROM gb WHERE i > 3 AND i < 20000'),
	('SELECT k, count(*) FILTER (WHERE i > 100), sum(n) FILTER (WHERE n > 10 AND i < 20000), avg(i) FILTER (WHERE d = ''2020-01-02''), min(b) FILTER (WHERE n IS NULL) FROM gb GROUP BY k'),
	('SELECT count(*) FILTER (WHERE i > 24000), sum(n * 2) FILTER (WHERE n >= 100), count(n) FILTER (WHERE i < 0) FROM gb WHERE d > ''2020-01-01'''),
	('SELECT k, count(*), sum(n) FROM gb WHERE i IN (1, 2, 3, 500, 24999, NULL) GROUP BY k'),
	('SELECT count(*) FROM gb WHERE d IN (''2020-01-02'', ''2020-01-04'')'),
	('SELECT count(*), sum(i) FROM gb WHERE n IN (0.125, 1.5, 12.5, NULL)'),
	('SELECT count(*) FROM gb WHERE i IN (NULL)'),
	('SELECT count(*) FROM gb WHERE i = ANY (''{}''::int[])'),
	('SELECT count(*) FILTER (WHERE s IN (1, 2)), count(*) FROM gb WHERE b IN (1000003, 2000006, 5, NULL)'),
	('SELECT count(*) FROM gb WHERE i NOT IN (1, 2)'),
	-- numeric conditions on scaled integers; dates against timestamps as date bounds
	('SELECT count(*), sum(n) FROM gb WHERE n >= 12.5 AND n < 100.125'),
	('SELECT count(*), sum(n) FROM gb WHERE n = 0.125 OR n IS NULL'),
	-- min and max by comparison function: among equal values the last one
	-- read wins for numeric (1.5, 1.50) and text, the first for char(n)
	-- ('c1', 'c1  '), as in PostgreSQL
	('SELECT k, min(n), max(n), min(v), max(v), min(c), max(c) FROM gb GROUP BY k'),
	('SELECT min(n), max(n), min(k), max(k), min(v), max(v), min(c), max(c) FROM gb'),
	('SELECT i, min(n), max(n), min(c), max(c) FROM gb WHERE i <= 3 GROUP BY i'),
	('SELECT c, min(k), max(k) FILTER (WHERE i > 100) FROM gb WHERE k IS NOT NULL GROUP BY c'),
	('SELECT min(n), max(k) FROM gb WHERE i > 99999'),
	-- float and numeric keys (equal values of other forms: one group, with
	-- the first row's form)
	('SELECT n, count(*), sum(i) FROM gb GROUP BY n'),
	('SELECT r, count(*), avg(i) FROM gb GROUP BY r'),
	('SELECT n, r, k, count(*) FROM gb WHERE i < 2000 GROUP BY n, r, k'),
	('SELECT n, count(*) FROM gb WHERE i <= 3 GROUP BY n'),
	-- a boolean column as a condition, and its NOT
	('SELECT k, count(*), sum(i) FROM gb WHERE f GROUP BY k'),
	('SELECT count(*), sum(i) FROM gb WHERE NOT f AND i > 100'),
	('SELECT count(*) FILTER (WHERE f OR i < 10), count(*) FILTER (WHERE NOT f) FROM gb'),
	-- <>, the negator of the btree family's =
	('SELECT k, count(*), sum(i) FROM gb WHERE k <> ''k1'' AND i <> 5 GROUP BY k'),
	('SELECT count(*), sum(n) FROM gb WHERE n <> 0.125 AND d <> timestamp ''2020-01-02 00:00:00'''),
	('SELECT count(*) FROM gb WHERE d <> timestamp ''2020-01-02 12:00:00'' AND c <> ''c1'''),
	-- HAVING, with aggregates the target does not show, and with key conditions
	('SELECT k, count(*) FROM gb GROUP BY k HAVING count(*) > 3000'),
	('SELECT k, sum(n) FROM gb GROUP BY k HAVING avg(i) > 12500 AND k <> ''k3'''),
	('SELECT k, c FROM gb GROUP BY k, c HAVING max(i) - min(i) > 24980 OR count(*) < 10'),
	('SELECT count(*) FROM gb HAVING count(*) > 0'),
	('SELECT count(*) FROM gb WHERE i > 99999 HAVING count(*) > 0'),
	('SELECT upper(k), count(*) FROM gb GROUP BY k HAVING upper(k) LIKE ''K%'' AND sum(n) IS NOT NULL'),
	-- OR and AND of conditions: a row passes if one argument of an OR is
	-- true, whatever the others yield (NULL included)
	('SELECT k, count(*), sum(i) FROM gb WHERE i < 100 OR i > 24900 GROUP BY k'),
	('SELECT count(*), sum(n) FROM gb WHERE (k = ''k1'' AND i > 10) OR n IS NULL'),
	('SELECT count(*), sum(i) FROM gb WHERE i IN (1, 2, 3) OR k LIKE ''k3%'' OR d = date ''2020-01-02'''),
	('SELECT count(*), sum(i) FROM gb WHERE (i < NULL::int OR i > 24000) AND (k IS NULL OR k < ''k2'')'),
	('SELECT count(*), sum(i) FROM gb WHERE (n < 10 OR n > 100) AND (n > 5 OR s = 7)'),
	('SELECT c, count(*) FILTER (WHERE i < 10 OR k = ''k2''), sum(n) FILTER (WHERE n IS NULL OR n > 50) FROM gb GROUP BY c'),
	('SELECT count(*), sum(i) FROM gb WHERE abs(i) % 2 = 0 OR i < 5'),
	('SELECT count(*), sum(i) FROM gb WHERE NOT (i < 5 OR i > 10)'),
	('SELECT count(*), sum(n) FROM gb WHERE n > -1 AND n <= 0.1250000000000000000000000000000000001'),
	('SELECT count(*), sum(n) FROM gb WHERE n < 1e30'),
	('SELECT d, count(*) FROM gb WHERE d < timestamp ''2020-01-03 00:00:00'' GROUP BY d'),
	('SELECT d, count(*) FROM gb WHERE d < timestamp ''2020-01-03 00:00:01'' GROUP BY d'),
	('SELECT d, count(*) FROM gb WHERE d <= timestamp ''2020-01-02 23:59:59'' GROUP BY d'),
	('SELECT d, count(*) FROM gb WHERE d = timestamp ''2020-01-02 00:00:00'' GROUP BY d'),
	('SELECT d, count(*) FROM gb WHERE d = timestamp ''2020-01-02 00:00:01'' GROUP BY d'),
	('SELECT d, count(*) FROM gb WHERE d >= timestamp ''2020-01-02 12:00:00'' GROUP BY d'),
	('SELECT d, count(*) FROM gb WHERE d > timestamp ''2020-01-02 00:00:00'' GROUP BY d'),
	('SELECT d, count(*) FROM gb WHERE d > timestamp ''1999-12-31 12:00:00'' AND d < timestamp ''infinity'' GROUP BY d'),
	-- timestamp columns against timestamps stay timestamps
	('SELECT ts, count(*) FROM gb WHERE ts < timestamp ''2020-01-01 02:30'' GROUP BY ts'),
	('SELECT count(*) FILTER (WHERE ts >= timestamp ''2020-01-01 01:00''), count(*) FROM gb WHERE ts <= timestamp ''2020-01-01 02:00'''),
	('SELECT count(*) FROM gb WHERE ts IN (timestamp ''2020-01-01 01:00'', timestamp ''2020-01-01 03:00'')')
) v(q), check_groups(q) c;

-- a group's key values are those of its first row, as HashAggregate returns
-- them ('c1' and 'c1  ' are one group); display scales, NaN, infinities and
-- sums beyond int128's scale, shown
EXPLAIN (COSTS OFF) SELECT c, octet_length(c), count(*) FROM gb WHERE i < 4 GROUP BY c;
SELECT c, octet_length(c), count(*) FROM gb WHERE i < 4 GROUP BY c ORDER BY c;
SELECT k, sum(n), avg(n) FROM gb WHERE i < 4 GROUP BY k ORDER BY k;
SELECT k, sum(n * 10 - 1), avg(n * n) FROM gb WHERE i < 4 GROUP BY k ORDER BY k;
-- nondeterministic collations: equal strings with other bytes are one
-- group (through the collation's hash and equality), whose key is the
-- first row's, as HashAggregate returns it
CREATE COLLATION gb_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE gbci (k text COLLATE gb_ci) USING colstore WITH (chunk_size = 1000);
INSERT INTO gbci SELECT CASE WHEN i % 3 = 0 THEN 'b' WHEN i % 2 = 0 THEN 'a' ELSE 'A' END FROM generate_series(1, 3000) i;
ANALYZE gbci;
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM gbci GROUP BY k;
SELECT k, count(*) FROM gbci GROUP BY k ORDER BY count(*);
SET colstore.enable_custom_agg = off;
SET enable_sort = off;
SELECT k, count(*) FROM gbci GROUP BY k ORDER BY count(*);
RESET enable_sort;
RESET colstore.enable_custom_agg;
DROP TABLE gbci;
DROP COLLATION gb_ci;

-- in parallel: every participant folds its row groups, the last to finish
-- merges everybody's groups and returns them
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT k, count(*), sum(n), avg(n * 2) FROM gb WHERE i > 10 GROUP BY k;
EXPLAIN (COSTS OFF) SELECT count(*), sum(b), min(d) FROM gb;
SELECT q, c.* FROM (VALUES
	('SELECT k, count(*), count(n), sum(n), avg(n), min(i), max(b) FROM gb GROUP BY k'),
	('SELECT c, v, count(*), sum(i), avg(s), sum(n * (1 - n)) FROM gb WHERE i > 10 GROUP BY c, v'),
	('SELECT k, count(*) FILTER (WHERE i > 100), sum(n) FILTER (WHERE n > 10) FROM gb GROUP BY k'),
	('SELECT count(*), sum(b), min(d), max(d), avg(n) FROM gb'),
	('SELECT count(*), sum(n) FROM gb WHERE i > 99999'),
	('SELECT k, count(*) FROM gb WHERE i > 99999 GROUP BY k'),
	('SELECT k, count(*), avg(n) FROM gb GROUP BY k HAVING sum(i) > 41205000'),
	('SELECT c, min(k), max(v), max(n) FILTER (WHERE n < 100) FROM gb WHERE i > 10 GROUP BY c')
) v(q), check_groups(q) c;
SET parallel_leader_participation = off;
SELECT q, c.* FROM (VALUES
	('SELECT k, count(*), sum(n), avg(n) FROM gb GROUP BY k')
) v(q), check_groups(q) c;
RESET parallel_leader_participation;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- min and max of time, timestamp and timestamptz, infinities included
CREATE TABLE gbt (g int, tm time, ts timestamp, tz timestamptz)
	USING colstore WITH (chunk_size = 1000);
INSERT INTO gbt SELECT i % 3, time '00:00' + i * interval '17 seconds',
	timestamp '2020-01-01' + i * interval '1 hour', timestamptz '2020-01-01 00:00+00' - i * interval '1 day'
	FROM generate_series(1, 3000) i;
INSERT INTO gbt VALUES (0, NULL, 'infinity', '-infinity'), (1, '24:00', '-infinity', NULL), (2, NULL, NULL, NULL);
CREATE TABLE gbth USING heap AS SELECT * FROM gbt;
EXPLAIN (COSTS OFF) SELECT g, min(tm), max(tm), min(ts), max(ts), min(tz), max(tz) FROM gbt GROUP BY g;
SELECT g, min(tm), max(tm), min(ts), max(ts), min(tz), max(tz) FROM gbt GROUP BY g
EXCEPT ALL SELECT g, min(tm), max(tm), min(ts), max(ts), min(tz), max(tz) FROM gbth GROUP BY g;
SELECT g, min(tm), max(tm), min(ts), max(ts), min(tz), max(tz) FROM gbt GROUP BY g ORDER BY g;
SELECT min(ts), max(tz) FROM gbt WHERE g = 1 AND ts > timestamp '2020-02-01';
DROP TABLE gbt, gbth;

-- deleted and updated rows: delta pages and promoted copies
UPDATE gb SET n = n + 1, k = 'updated' WHERE i % 100 = 0;
DELETE FROM gb WHERE i % 100 = 1;
UPDATE gbh SET n = n + 1, k = 'updated' WHERE i % 100 = 0;
DELETE FROM gbh WHERE i % 100 = 1;
SELECT q, c.* FROM (VALUES
	('SELECT k, count(*), count(n), sum(n), avg(n) FROM gb GROUP BY k'),
	('SELECT c, v, count(*), sum(i), avg(i) FROM gb GROUP BY c, v'),
	('SELECT c, sum(n * (1 - n)), avg(n * 2 + 1) FROM gb GROUP BY c'),
	('SELECT k, sum(n) FROM gb WHERE i < 5000 GROUP BY k')
) v(q), check_groups(q) c;

-- GROUP BY in a subquery that is run again (rescan) with another parameter
SELECT x, (SELECT count(*) FROM (SELECT k FROM gb WHERE i > x GROUP BY k) s)
	FROM (VALUES (10), (24990), (30000)) t(x);

DROP TABLE gb, gbh;
DROP FUNCTION check_groups(text);
