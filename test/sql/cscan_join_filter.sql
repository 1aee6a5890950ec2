-- Hash join filters: a ColstoreScan on the probe (outer) side of an inner,
-- semi or right hash join drops the rows whose join keys no tuple of the
-- hash table can match, a batch at a time (EXPLAIN: "Hash Join Filter").
-- Every result must be heap's: inner, semi and right joins with the
-- filter, left and anti joins without it, NULL keys, two-column and
-- cross-type keys, numeric and text keys, rows on heap pages, rescans that
-- build a new hash table, parallel hash joins, and a multi-batch join
-- (which gets no filter).
SET max_parallel_workers_per_gather = 0;
SET colstore.enable_custom_agg = off;
SET enable_mergejoin = off;
SET enable_nestloop = off;
-- f: 30,000 rows, k = 1..3000 ten times (NULL for every 97th row)
CREATE TABLE f (id int, k bigint, a int, v numeric(10,2), t text)
	USING colstore WITH (row_group_size = 6000, chunk_size = 1000);
INSERT INTO f SELECT i, CASE WHEN i % 97 <> 0 THEN i % 3000 + 1 END, i % 50,
	(i % 300) / 4.0, 't' || (i % 40)
	FROM generate_series(1, 30000) i;
-- a few rows on heap pages (small inserts)
INSERT INTO f VALUES (30001, 7, 7, 1.75, 't7'), (30002, NULL, 1, NULL, NULL),
	(30003, 2999, 49, 74.75, 't39');
-- d: keys 1..3000, g groups them by tens; the joins keep one group or a few
CREATE TABLE d (k bigint, k4 int, g int, a int, v numeric(12,3), t text)
	USING colstore;
INSERT INTO d SELECT i, i, i / 10, i % 50, (i % 300) / 4.0, 't' || (i % 40)
	FROM generate_series(1, 3000) i;
INSERT INTO d VALUES (NULL, NULL, 7, NULL, NULL, NULL);
ANALYZE f, d;
CREATE TABLE fh USING heap AS SELECT * FROM f;
CREATE TABLE dh USING heap AS SELECT * FROM d;
ANALYZE fh, dh;

-- q's rows on colstore and on heap (f -> fh, d -> dh, e -> eh): the same
-- multiset?
CREATE FUNCTION same_as_heap(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	h text := replace(replace(replace(q, ' f ', ' fh f '), ' d ', ' dh d '), ' e ', ' eh e ');
	result boolean;
BEGIN
	EXECUTE format('SELECT NOT EXISTS ((%s) EXCEPT ALL (%s)) AND NOT EXISTS ((%s) EXCEPT ALL (%s))',
				   q, h, h, q)
		INTO result;
	RETURN result;
END $$;

-- an inner join: the probe side's scan carries the filter
EXPLAIN (COSTS OFF)
	SELECT f.id, f.v FROM f JOIN d ON f.k = d.k WHERE d.g = 7;
-- it removed the rows whose keys the hash table cannot hold (all but about
-- a tenth of a percent: ten keys of 3,000; the first batch is read before
-- the hash table is built, so it is not filtered)
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT f.id, f.v FROM f JOIN d ON f.k = d.k WHERE d.g = 7;
SELECT same_as_heap('SELECT f.id, f.v, d.g FROM f JOIN d ON f.k = d.k WHERE d.g = 7');
SELECT count(*), sum(f.v) FROM f JOIN d ON f.k = d.k WHERE d.g BETWEEN 5 AND 30;
SELECT count(*), sum(f.v) FROM fh f JOIN dh d ON f.k = d.k WHERE d.g BETWEEN 5 AND 30;
-- every key matches: the filter stops testing after its trial rows
SELECT same_as_heap('SELECT f.id, d.g FROM f JOIN d ON f.k = d.k');

-- semi join (EXISTS, IN): filtered
EXPLAIN (COSTS OFF)
	SELECT f.id FROM f WHERE EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.g < 3);
SELECT same_as_heap('SELECT f.id FROM f WHERE EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.g < 3)');
SELECT same_as_heap('SELECT f.id, f.t FROM f WHERE f.k IN (SELECT d.k FROM d WHERE d.g % 50 = 1)');
-- right join (the hash side's rows are kept, the probe side's unmatched rows are not)
EXPLAIN (COSTS OFF)
	SELECT f.id, d.k FROM f RIGHT JOIN d ON f.k = d.k WHERE d.g IN (3, 299);
SELECT same_as_heap('SELECT f.id, d.k FROM f RIGHT JOIN d ON f.k = d.k WHERE d.g IN (3, 299)');
-- left and anti joins return the probe side's unmatched rows: no filter
EXPLAIN (COSTS OFF)
	SELECT f.id, d.g FROM f LEFT JOIN d ON f.k = d.k AND d.g = 7;
SELECT same_as_heap('SELECT f.id, d.g FROM f LEFT JOIN d ON f.k = d.k AND d.g = 7');
EXPLAIN (COSTS OFF)
	SELECT f.id FROM f WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.g > 5);
SELECT same_as_heap('SELECT f.id FROM f WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.g > 5)');

-- keys of two columns, of two types (int8 probe, int4 hash side), numeric
-- (1.5 and 1.500 are equal and hash alike), text
EXPLAIN (COSTS OFF)
	SELECT f.id FROM f JOIN d ON f.k = d.k AND f.a = d.a WHERE d.g < 20;
SELECT same_as_heap('SELECT f.id FROM f JOIN d ON f.k = d.k AND f.a = d.a WHERE d.g < 20');
SELECT same_as_heap('SELECT f.id, d.k4 FROM f JOIN d ON f.k = d.k4 WHERE d.g = 42');
SELECT same_as_heap('SELECT f.id, d.k FROM f JOIN d ON f.v = d.v WHERE d.g = 1');
SELECT same_as_heap('SELECT f.id, d.k FROM f JOIN d ON f.t = d.t WHERE d.k < 3');

-- the filter reaches a ColstoreScan under other joins when the key passes
-- through them unchanged: under the outer side of a hash join, either side
-- of a nested loop or merge join, the preserved or the nullable side of an
-- outer join (a row that loses its match is null-extended, and its NULL
-- key fails the hash clause above, as the dropped row would have)
CREATE TABLE e (id int, w int) USING colstore;
INSERT INTO e SELECT i, i % 5 FROM generate_series(1, 30003, 2) i;
ANALYZE e;
CREATE TABLE eh USING heap AS SELECT * FROM e;
ANALYZE eh;
-- (join_collapse_limit = 1 keeps the joins in the order written: f with e
-- first, then d's hash table on top)
SET join_collapse_limit = 1;
EXPLAIN (COSTS OFF)
	SELECT f.id, e.w FROM (f JOIN e ON f.id = e.id) JOIN d ON f.k = d.k WHERE d.g = 7;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT f.id, e.w FROM (f JOIN e ON f.id = e.id) JOIN d ON f.k = d.k WHERE d.g = 7;
SELECT same_as_heap('SELECT f.id, e.w FROM (f JOIN e ON f.id = e.id) JOIN d ON f.k = d.k WHERE d.g = 7');
-- the preserved side of a left join, and a full join
EXPLAIN (COSTS OFF)
	SELECT f.id, e.w FROM (f LEFT JOIN e ON f.id = e.id) JOIN d ON f.k = d.k WHERE d.g < 9;
SELECT same_as_heap('SELECT f.id, e.w FROM (f LEFT JOIN e ON f.id = e.id) JOIN d ON f.k = d.k WHERE d.g < 9');
SELECT same_as_heap('SELECT f.id, e.w FROM (f FULL JOIN e ON f.id = e.id) JOIN d ON f.k = d.k WHERE d.g = 8');
RESET join_collapse_limit;
-- a Sort between the scan and the hash join: no filter below it (each
-- rescan replays the sorted rows against the next hash table)
SET enable_mergejoin = on;
EXPLAIN (COSTS OFF)
	SELECT g.x, (SELECT count(*) FROM (SELECT * FROM f ORDER BY f.id OFFSET 0) f
		JOIN d ON f.k = d.k WHERE d.g = g.x)
	FROM generate_series(1, 3) g(x);
SELECT g.x, (SELECT count(*) FROM (SELECT * FROM f ORDER BY f.id OFFSET 0) f
		JOIN d ON f.k = d.k WHERE d.g = g.x)
	FROM generate_series(1, 3) g(x);
SELECT g.x, (SELECT count(*) FROM (SELECT * FROM fh f ORDER BY f.id OFFSET 0) f
		JOIN dh d ON f.k = d.k WHERE d.g = g.x)
	FROM generate_series(1, 3) g(x);
SET enable_mergejoin = off;
DROP TABLE e, eh;

-- a hash join that runs once (no rescans above it) has a table that never
-- changes: its filter also reaches a scan below a hash table, a sort or a
-- nested loop's inner side (e kept in a hash table is filtered by the keys
-- of d, as TPC-H Q5 filters orders by the customers of one region)
CREATE TABLE e (id int, k bigint, w int) USING colstore;
INSERT INTO e SELECT i, i % 3000 + 1, i % 5 FROM generate_series(1, 20000) i;
ANALYZE e;
CREATE TABLE eh USING heap AS SELECT * FROM e;
ANALYZE eh;
SET join_collapse_limit = 1;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT f.id, e.w FROM (f JOIN e ON f.id = e.id) JOIN d ON e.k = d.k WHERE d.g = 7;
SELECT same_as_heap('SELECT f.id, e.w FROM (f JOIN e ON f.id = e.id) JOIN d ON e.k = d.k WHERE d.g = 7');
-- through a sort (a merge join's input) and a nested loop's inner side
SET enable_hashjoin = off;
SET enable_mergejoin = on;
SELECT same_as_heap('SELECT f.id, e.w FROM (f JOIN e ON f.id = e.id) JOIN d ON e.k = d.k WHERE d.g = 7');
SET enable_mergejoin = off;
SET enable_hashjoin = on;
-- (an inequality join is a nested loop under d's hash join; e restricted to
-- 199 rows keeps it to 6,000,000 comparisons on each engine)
SET enable_nestloop = on;
EXPLAIN (COSTS OFF)
	SELECT f.id, e.w FROM (f JOIN e ON f.id >= e.id AND f.id <= e.id) JOIN d ON e.k = d.k
	WHERE d.g = 7 AND e.id < 200;
SELECT same_as_heap('SELECT f.id, e.w FROM (f JOIN e ON f.id >= e.id AND f.id <= e.id) JOIN d ON e.k = d.k WHERE d.g = 7 AND e.id < 200');
SET enable_nestloop = off;
-- never through a LIMIT (it would let other rows through)
EXPLAIN (COSTS OFF)
	SELECT count(*) FROM (SELECT * FROM f ORDER BY id LIMIT 2000) f JOIN d ON f.k = d.k WHERE d.g < 100;
SELECT count(*) FROM (SELECT * FROM f ORDER BY id LIMIT 2000) f JOIN d ON f.k = d.k WHERE d.g < 100;
SELECT count(*) FROM (SELECT * FROM fh ORDER BY id LIMIT 2000) f JOIN dh d ON f.k = d.k WHERE d.g < 100;
-- a scrollable cursor may rewind the plan: read it forward, backward and
-- forward again
BEGIN;
DECLARE cf SCROLL CURSOR FOR
	SELECT f.id, e.w FROM (f JOIN e ON f.id = e.id) JOIN d ON e.k = d.k WHERE d.g = 7 ORDER BY 1;
MOVE FORWARD ALL IN cf;
FETCH BACKWARD 3 FROM cf;
MOVE ABSOLUTE 0 IN cf;
FETCH FORWARD 3 FROM cf;
COMMIT;
SELECT f.id, e.w FROM (fh f JOIN eh e ON f.id = e.id) JOIN dh d ON e.k = d.k WHERE d.g = 7 ORDER BY 1 DESC LIMIT 3;
SELECT f.id, e.w FROM (fh f JOIN eh e ON f.id = e.id) JOIN dh d ON e.k = d.k WHERE d.g = 7 ORDER BY 1 LIMIT 3;
RESET join_collapse_limit;
DROP TABLE e, eh;

-- a rescan builds another hash table (the subquery's parameter is on its
-- hash side): the filter must be rebuilt, not reused
EXPLAIN (COSTS OFF)
	SELECT g.x, (SELECT count(*) FROM f JOIN d ON f.k = d.k WHERE d.g = g.x)
	FROM generate_series(1, 5) g(x);
SELECT g.x, (SELECT count(*) FROM f JOIN d ON f.k = d.k WHERE d.g = g.x)
	FROM generate_series(1, 5) g(x);
SELECT g.x, (SELECT count(*) FROM fh f JOIN dh d ON f.k = d.k WHERE d.g = g.x)
	FROM generate_series(1, 5) g(x);

-- a parallel hash join (shared hash table): filtered in every participant
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET enable_parallel_hash = on;
EXPLAIN (COSTS OFF)
	SELECT count(*), sum(f.v) FROM f JOIN d ON f.k = d.k WHERE d.g < 40;
SELECT count(*), sum(f.v) FROM f JOIN d ON f.k = d.k WHERE d.g < 40;
SELECT count(*), sum(f.v) FROM fh f JOIN dh d ON f.k = d.k WHERE d.g < 40;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET enable_parallel_hash;
SET max_parallel_workers_per_gather = 0;

-- a hash table in several batches holds only part of the inner side: no
-- filtering (nothing removed), still the right rows
SET work_mem = '64kB';
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT count(*) FROM f JOIN f f2 ON f.id = f2.id WHERE f2.a < 25;
SELECT count(*) FROM f JOIN f f2 ON f.id = f2.id WHERE f2.a < 25;
SELECT count(*) FROM fh f JOIN fh f2 ON f.id = f2.id WHERE f2.a < 25;
RESET work_mem;

-- turned off
SET colstore.enable_join_filter = off;
EXPLAIN (COSTS OFF)
	SELECT f.id, f.v FROM f JOIN d ON f.k = d.k WHERE d.g = 7;
SELECT same_as_heap('SELECT f.id, f.v, d.g FROM f JOIN d ON f.k = d.k WHERE d.g = 7');
RESET colstore.enable_join_filter;

DROP FUNCTION same_as_heap(text);
DROP TABLE f, d, fh, dh;
