-- A ColstoreScan that fills a semi or anti hash join's hash table (EXISTS,
-- IN, NOT EXISTS) drops rows equal, in every column it reads, to one it
-- already returned: they cannot change which outer rows match.  EXPLAIN
-- shows "Semi Join Distinct" and, under ANALYZE, the rows it removed.  Only
-- for columns of fixed-length pass-by-value types; NULL keys, extra join
-- conditions on other inner columns, rescans and inner joins (never
-- filtered) give heap's results.
SET max_parallel_workers_per_gather = 0;
SET enable_mergejoin = off;
SET enable_nestloop = off;
SET colstore.enable_custom_agg = off;
CREATE TABLE sd_o (o_id bigint, o_cust int, o_day date, o_note text) USING colstore
	WITH (chunk_size = 1000);
INSERT INTO sd_o SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE (i * 7) % 400 END,
	date '2024-01-01' + i % 30, 'n' || (i % 13)
	FROM generate_series(1, 30000) i;
CREATE TABLE sd_c (c_id int, c_name text) USING colstore WITH (chunk_size = 1000);
INSERT INTO sd_c SELECT i, 'c' || i FROM generate_series(-50, 1950) i;
INSERT INTO sd_c VALUES (NULL, 'null key');
ANALYZE sd_o, sd_c;
CREATE TABLE sd_oh USING heap AS SELECT * FROM sd_o;
CREATE TABLE sd_ch USING heap AS SELECT * FROM sd_c;

\getenv abs_srcdir PG_ABS_SRCDIR
\set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
\i :same_result_sql
-- each query's result equals heap's; 'distinct' says the filter was planned
CREATE FUNCTION check_query(q text) RETURNS TABLE (semi_distinct boolean, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
	hq text := regexp_replace(regexp_replace(q, '\msd_o\M', 'sd_oh', 'g'), '\msd_c\M', 'sd_ch', 'g');
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF, ANALYZE, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q INTO plan;
	semi_distinct := plan::text LIKE '%Semi Join Distinct%';
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO nrows;
	same := same_result(q, hq);
	RETURN NEXT;
END $$;

SELECT q, c.* FROM (VALUES
	('SELECT c_id FROM sd_c c WHERE EXISTS (SELECT 1 FROM sd_o o WHERE o.o_cust = c.c_id)'),
	('SELECT c_id FROM sd_c c WHERE NOT EXISTS (SELECT 1 FROM sd_o o WHERE o.o_cust = c.c_id)'),
	('SELECT c_id FROM sd_c c WHERE c_id IN (SELECT o_cust FROM sd_o)'),
	('SELECT c_id FROM sd_c c WHERE EXISTS (SELECT 1 FROM sd_o o WHERE o.o_cust = c.c_id AND o.o_day = date ''2024-01-05'')'),
	-- another inner column in the join condition: rows are repeats only if equal in both
	('SELECT c_id FROM sd_c c WHERE EXISTS (SELECT 1 FROM sd_o o WHERE o.o_cust = c.c_id AND o.o_day > date ''2024-01-01'' + c.c_id % 30)'),
	('SELECT c_id FROM sd_c c WHERE NOT EXISTS (SELECT 1 FROM sd_o o WHERE o.o_cust = c.c_id AND o.o_day > date ''2024-01-01'' + c.c_id % 30)'),
	-- ctid read: rows equal in their columns still differ, so none is dropped
	('SELECT o_id FROM sd_o o WHERE EXISTS (SELECT 1 FROM sd_o o2 WHERE o2.o_cust = o.o_cust AND o2.ctid <> o.ctid AND o2.o_day = date ''2024-01-03'')'),
	-- a key of the outer row's NULL, and NULL inner keys
	('SELECT c_name FROM sd_c c WHERE NOT EXISTS (SELECT 1 FROM sd_o o WHERE o.o_cust = c.c_id)'),
	-- a text column read: not filtered, same result
	('SELECT c_id FROM sd_c c WHERE EXISTS (SELECT 1 FROM sd_o o WHERE o.o_cust = c.c_id AND o.o_note <> ''n1'')'),
	-- an inner join is never filtered (every repeat is a row of the result)
	('SELECT c_id, o_day FROM sd_c c JOIN sd_o o ON o.o_cust = c.c_id'),
	-- under a rescanned subplan: the set starts again with each rescan
	('SELECT c2.c_id, (SELECT count(*) FROM sd_c c WHERE c.c_id < c2.c_id AND EXISTS (SELECT 1 FROM sd_o o WHERE o.o_cust = c.c_id AND o.o_day < date ''2024-01-01'' + c2.c_id % 7)) FROM sd_c c2 WHERE c2.c_id % 400 = 7')
) v(q), LATERAL check_query(q) c;

-- the plan, and the repeats removed: 30,000 rows, 400 keys and NULL
EXPLAIN (COSTS OFF, ANALYZE, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT count(*) FROM sd_c c WHERE NOT EXISTS (SELECT 1 FROM sd_o o WHERE o.o_cust = c.c_id);
SELECT count(*) FROM sd_c c WHERE NOT EXISTS (SELECT 1 FROM sd_o o WHERE o.o_cust = c.c_id);
SELECT count(*) FROM sd_ch c WHERE NOT EXISTS (SELECT 1 FROM sd_oh o WHERE o.o_cust = c.c_id);
-- off with the join filters
SET colstore.enable_join_filter = off;
EXPLAIN (COSTS OFF)
	SELECT count(*) FROM sd_c c WHERE NOT EXISTS (SELECT 1 FROM sd_o o WHERE o.o_cust = c.c_id);
RESET colstore.enable_join_filter;

DROP FUNCTION check_query(text);
DROP TABLE sd_o, sd_c, sd_oh, sd_ch;
