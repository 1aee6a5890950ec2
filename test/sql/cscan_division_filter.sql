-- Conditions on an integer column's remainder or quotient by a constant
-- ("v % 7 = 0", "b / 1000 >= 3"; integer_division.c) are decided by
-- ColstoreAgg's conditions and ColstoreScan's batch filter on int64s, for
-- int2, int4 and int8, with negative values and divisors, NULLs, the types'
-- extremes, value sides of other integer types, ANDs and ORs, deleted and
-- updated rows and parallel workers: always heap's answer.  Divisors 0 and
-- -1 (the executor raises an error, or treats -1 apart) and divisors that
-- are parameters stay with the executor.
SET max_parallel_workers_per_gather = 0;
CREATE TABLE dv (id int, a int2, b int4, c int8)
	USING colstore WITH (row_group_size = 10000, chunk_size = 1000);
INSERT INTO dv SELECT i,
	CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 37 % 65536 - 32768)::int2 END,
	CASE WHEN i % 17 = 0 THEN NULL ELSE i * 7919 - 100000 END,
	CASE WHEN i % 19 = 0 THEN NULL ELSE i::int8 * 1000003 * (i % 3 - 1) END
	FROM generate_series(1, 30000) i;
-- the types' extremes
INSERT INTO dv VALUES (30001, -32768, -2147483648, -9223372036854775808),
	(30002, 32767, 2147483647, 9223372036854775807), (30003, NULL, NULL, NULL);
ANALYZE dv;
CREATE TABLE dh USING heap AS SELECT * FROM dv;

\getenv abs_srcdir PG_ABS_SRCDIR
\set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
\i :same_result_sql
-- each query gives heap's rows; node says which colstore node ran it and
-- whether the division reached its conditions or filter
CREATE FUNCTION division_check(q text) RETURNS TABLE (node text, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan text := '';
	line text;
	hq text := replace(q, 'FROM dv', 'FROM dh');
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		plan := plan || line || E'\n';
	END LOOP;
	node := CASE WHEN plan ~ 'ColstoreAgg' AND plan ~ 'Conditions: .*[%/]' THEN 'agg conditions'
		WHEN plan ~ 'Batch Filter: [^\n]*[%/]' AND plan !~ '(^|\n) *Filter: [^\n]*[%/]'
			THEN 'scan batch filter'
		ELSE 'executor' END ||
		CASE WHEN plan LIKE '%Gather%' THEN ' (parallel)' ELSE '' END;
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO nrows;
	same := same_result(q, hq);
	RETURN NEXT;
END $$;

EXPLAIN (COSTS OFF) SELECT count(*) FROM dv WHERE b % 7 = 0;
EXPLAIN (COSTS OFF) SELECT id, b FROM dv WHERE b % 11 = 3 AND id < 20000;

CREATE TABLE division_queries (n serial, q text);
INSERT INTO division_queries (q) VALUES
	('SELECT count(*), sum(id) FROM dv WHERE b % 7 = 0'),
	('SELECT count(*), sum(id) FROM dv WHERE a % 5::int2 <> 2'),
	('SELECT count(*), sum(id) FROM dv WHERE c % 1000 < -500'),
	('SELECT count(*), sum(id) FROM dv WHERE b / 1000 >= 3'),
	('SELECT count(*), sum(id) FROM dv WHERE 2 = b % 3'),
	('SELECT count(*), sum(id) FROM dv WHERE 100 < a / -7::int2'),
	('SELECT count(*), sum(id) FROM dv WHERE a % (-3)::int2 = -2'),
	('SELECT count(*), sum(id) FROM dv WHERE c / 1000000::int8 BETWEEN -5000 AND 5000'),
	('SELECT count(*), sum(id) FROM dv WHERE b % 7 = 10000000000'),
	('SELECT count(*), sum(id) FROM dv WHERE a % 10::int2 = 3::int8'),
	('SELECT count(*), sum(id) FROM dv WHERE b % 3 = 1 AND id < 100'),
	('SELECT count(*), sum(id) FROM dv WHERE b % 3 = 1 OR c % 5 = 0'),
	('SELECT count(*), sum(id) FROM dv WHERE b % 2147483647 = 0'),
	('SELECT count(*), sum(id) FROM dv WHERE c % 9223372036854775807 = 0'),
	-- int8 / int4 is int84div, which the executor keeps
	('SELECT count(*), sum(id) FROM dv WHERE c / -2 > 0'),
	-- folded to a false one-time filter
	('SELECT count(*), sum(id) FROM dv WHERE b % 7 = NULL::int'),
	('SELECT id, a, b, c FROM dv WHERE b % 11 = 3 AND id < 20000'),
	('SELECT id, b FROM dv WHERE c % 4 = 0 AND a / 100::int2 > 50'),
	-- not decided by colstore: divisor -1, a dividend that is not the
	-- column itself (an expression, a cast: int2 % int4 widens the column)
	('SELECT count(*), sum(id) FROM dv WHERE b % -1 = 0'),
	('SELECT count(*), sum(id) FROM dv WHERE (id + 1) % 7 = 0'),
	('SELECT count(*), sum(id) FROM dv WHERE a % 7 = 0');
SELECT n, (division_check(q)).* FROM division_queries ORDER BY n;

-- the executor's errors stay the executor's
SELECT count(*) FROM dv WHERE b % 0 = 0;
SELECT count(*) FROM dv WHERE b / -1 > 0;
SELECT count(*) FROM dv WHERE c / -1 > 0;
-- a parameter as divisor: the executor, with a generic plan too
PREPARE dq(int) AS SELECT count(*), sum(id) FROM dv WHERE b % $1 = 1;
PREPARE dhq(int) AS SELECT count(*), sum(id) FROM dh WHERE b % $1 = 1;
SET plan_cache_mode = force_generic_plan;
EXECUTE dq(7);
EXECUTE dhq(7);
RESET plan_cache_mode;

-- deleted and updated rows (heap tuples on heap pages, promoted copies)
DELETE FROM dv WHERE id % 10 = 1;
DELETE FROM dh WHERE id % 10 = 1;
UPDATE dv SET b = b + 1 WHERE id % 10 = 2 AND id < 30000;
UPDATE dh SET b = b + 1 WHERE id % 10 = 2 AND id < 30000;
SELECT n, (division_check(q)).* FROM division_queries WHERE n <= 6 OR n = 17 ORDER BY n;

-- parallel workers
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT n, (division_check(q)).* FROM division_queries WHERE n IN (1, 4, 12, 17) ORDER BY n;
RESET ALL;

DROP FUNCTION division_check(text);
DROP TABLE division_queries, dv, dh;
