-- Key-range join: a parallel inner join of two colstore tables that hold the
-- join column in ascending order, split into ranges of the key that the
-- participants take in turn, each range a merge join of two scans pruned to
-- it.  Every result must be heap's; the plan must be the key-range join only
-- where it applies (inner joins on integer, date, time or timestamp keys
-- both sides hold in order).
SET colstore.enable_custom_agg = off;
SET colstore.delta_insert_rows = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
-- (tables this small fit an in-memory hash join, which costs less; bench/'s
-- ten million rows choose the key-range join on costs alone)
SET enable_hashjoin = off;
-- kr: ids 1..20000, every fiftieth three times (three rows a side for
-- those keys), dates one per id; g = id / 3 (three rows per key)
CREATE TABLE kr (id bigint, g int, d date, t text, n numeric) USING colstore
	WITH (row_group_size = 5000, chunk_size = 1000);
INSERT INTO kr SELECT i, i / 3, date '2000-01-01' + i, 't' || (i % 17), i % 100
	FROM generate_series(1, 20000) i,
		 generate_series(1, CASE WHEN i % 50 = 0 THEN 3 ELSE 1 END) r;
-- kr2: two of every three of kr's ids
CREATE TABLE kr2 (id bigint, v int, d date) USING colstore
	WITH (row_group_size = 4000, chunk_size = 1000);
INSERT INTO kr2 SELECT i, i % 7, date '2000-01-01' + i
	FROM generate_series(1, 20000) i WHERE i % 3 <> 0;
-- kd: two rows for every key
CREATE TABLE kd (id bigint, v int) USING colstore
	WITH (row_group_size = 5000, chunk_size = 1000);
INSERT INTO kd SELECT i / 2, i % 7 FROM generate_series(2, 20001) i;
ANALYZE kr, kr2, kd;
CREATE TABLE krh USING heap AS SELECT * FROM kr;
CREATE TABLE kr2h USING heap AS SELECT * FROM kr2;
CREATE TABLE kdh USING heap AS SELECT * FROM kd;
ANALYZE krh, kr2h, kdh;

-- q over the heap twins (each colstore table's twin is its name plus "h")
CREATE FUNCTION heap_twins(q text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT regexp_replace(q, '\m(kr2|kr|kd|ks|kt2|kt)\M', '\1h', 'g')
$$;
-- heap's rows and kr's: the same multiset, whatever the plan
CREATE FUNCTION same_as_heap(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	h text := heap_twins(q);
	result boolean;
BEGIN
	EXECUTE format('SELECT NOT EXISTS ((%s) EXCEPT ALL (%s)) AND NOT EXISTS ((%s) EXCEPT ALL (%s))',
				   q, h, h, q)
		INTO result;
	RETURN result;
END $$;

-- the self join on the ordered key
EXPLAIN (COSTS OFF) SELECT count(*) FROM kr a JOIN kr b ON a.id = b.id;
SELECT count(*), sum(a.id * b.id), sum(a.n) FROM kr a JOIN kr b ON a.id = b.id;
SELECT count(*), sum(a.id * b.id), sum(a.n) FROM krh a JOIN krh b ON a.id = b.id;
-- two rows per key on both sides: the inner side's rows are kept
-- (Materialize) and must be read again for each range, not replayed
EXPLAIN (COSTS OFF) SELECT count(*) FROM kd a JOIN kd b ON a.id = b.id;
SELECT same_as_heap('SELECT a.id, a.v, b.v FROM kd a JOIN kd b ON a.id = b.id');
-- three rows per key, whichever plan wins
SELECT same_as_heap('SELECT a.id, b.id FROM kr a JOIN kr b ON a.g = b.g');
-- two tables, partly overlapping keys, columns of both sides, filters on
-- each side and a second join clause (a join filter in each range)
EXPLAIN (COSTS OFF) SELECT count(*) FROM kr a JOIN kr b ON a.t = b.t AND a.id = b.id;
SELECT same_as_heap('SELECT a.id, a.t, b.v FROM kr a JOIN kr2 b ON a.id = b.id');
SELECT same_as_heap('SELECT a.id, b.v FROM kr a JOIN kr2 b ON a.id = b.id WHERE a.n < 30 AND b.v <> 3');
SELECT same_as_heap('SELECT a.id, b.id FROM kr a JOIN kr2 b ON a.id = b.id AND a.n::int % 7 = b.v');
-- a date key
EXPLAIN (COSTS OFF) SELECT count(*) FROM kr a JOIN kr2 b ON a.d = b.d;
SELECT count(*) FROM kr a JOIN kr2 b ON a.d = b.d;
SELECT same_as_heap('SELECT a.id, b.id FROM kr a JOIN kr2 b ON a.d = b.d');
-- a time key (its datums order as signed integers too)
CREATE TABLE ktm (t time, v int) USING colstore WITH (row_group_size = 5000, chunk_size = 1000);
INSERT INTO ktm SELECT time '00:00' + i * interval '3 seconds', i % 5
	FROM generate_series(1, 20000) i, generate_series(1, CASE WHEN i % 40 = 0 THEN 2 ELSE 1 END) r;
ANALYZE ktm;
CREATE TABLE ktmh USING heap AS SELECT * FROM ktm;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ktm a JOIN ktm b ON a.t = b.t;
SELECT count(*), sum(a.v * 10 + b.v) FROM ktm a JOIN ktm b ON a.t = b.t;
SELECT count(*), sum(a.v * 10 + b.v) FROM ktmh a JOIN ktmh b ON a.t = b.t;
-- ordered output through Gather Merge: each participant's rows are in key order
EXPLAIN (COSTS OFF) SELECT a.id, b.v FROM kr a JOIN kr2 b ON a.id = b.id ORDER BY a.id;
SELECT (SELECT array_agg(id ORDER BY ord) FROM (SELECT id, row_number() OVER () AS ord
		FROM (SELECT a.id FROM kr a JOIN kr2 b ON a.id = b.id ORDER BY a.id) s) x) =
	   (SELECT array_agg(a.id ORDER BY a.id) FROM krh a JOIN kr2h b ON a.id = b.id)
	AS same_order_as_heap;
-- the leader alone, when no worker can start, takes every range
SET max_parallel_workers = 0;
SELECT count(*), sum(a.id * b.id), sum(a.n) FROM kr a JOIN kr b ON a.id = b.id;
RESET max_parallel_workers;

-- where it does not apply: outer joins (rows without a match must come
-- back), a key type ranges are not cut on, the setting off
EXPLAIN (COSTS OFF) SELECT count(*) FROM kr a LEFT JOIN kr2 b ON a.id = b.id;
SELECT same_as_heap('SELECT a.id, b.v FROM kr a LEFT JOIN kr2 b ON a.id = b.id');
CREATE TABLE ktx (k text COLLATE "C", v int) USING colstore WITH (chunk_size = 1000);
INSERT INTO ktx SELECT lpad(i::text, 6, '0'), i FROM generate_series(1, 20000) i;
ANALYZE ktx;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ktx a JOIN ktx b ON a.k = b.k;
SET colstore.enable_key_range_join = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM kr a JOIN kr b ON a.id = b.id;
RESET colstore.enable_key_range_join;

-- keys outside the ranges the statistics saw, deleted and changed rows,
-- rows that arrive after planning out of order: a cached plan still joins
-- every visible row once
SET plan_cache_mode = force_generic_plan;
PREPARE self_join AS SELECT count(*), sum(a.id * b.id), sum(b.n) FROM kr a JOIN kr b ON a.id = b.id;
PREPARE cross_join AS SELECT a.id, a.n, b.v FROM kr a JOIN kr2 b ON a.id = b.id;
EXPLAIN (COSTS OFF) EXECUTE self_join;
EXECUTE self_join;
INSERT INTO kr SELECT i, i / 3, date '2020-01-01', 'late', 1 FROM generate_series(20001, 20500) i;
INSERT INTO krh SELECT i, i / 3, date '2020-01-01', 'late', 1 FROM generate_series(20001, 20500) i;
INSERT INTO kr VALUES (-7, -3, date '2019-01-01', 'early', 2), (0, 0, date '2019-06-01', 'zero', 3);
INSERT INTO krh VALUES (-7, -3, date '2019-01-01', 'early', 2), (0, 0, date '2019-06-01', 'zero', 3);
DELETE FROM kr WHERE id % 97 = 0;
DELETE FROM krh WHERE id % 97 = 0;
UPDATE kr SET n = n + 1000 WHERE id % 89 = 0;
UPDATE krh SET n = n + 1000 WHERE id % 89 = 0;
EXECUTE self_join;
SELECT count(*), sum(a.id * b.id), sum(b.n) FROM krh a JOIN krh b ON a.id = b.id;
CREATE TABLE cross_result AS EXECUTE cross_join;
SELECT NOT EXISTS (TABLE cross_result EXCEPT ALL
				   SELECT a.id, a.n, b.v FROM krh a JOIN kr2h b ON a.id = b.id) AND
	   NOT EXISTS (SELECT a.id, a.n, b.v FROM krh a JOIN kr2h b ON a.id = b.id
				   EXCEPT ALL TABLE cross_result) AS same_as_heap;
DEALLOCATE self_join;
DEALLOCATE cross_join;
RESET plan_cache_mode;

-- in a subquery that is planned on its own, and under a SubPlan
SELECT * FROM (SELECT count(*) AS c FROM kr a JOIN kr b ON a.id = b.id LIMIT 1) s;
SELECT x, x < (SELECT count(*) FROM kr a JOIN kr b ON a.id = b.id) AS below
	FROM (VALUES (1), (1000000)) v(x);


-- semi joins (EXISTS, IN): each range a merge semi join of the two pruned
-- scans, so every outer row with a match comes back once, however many
-- inner rows match it (kd has two per key), and rows with a NULL key
-- (never a match) do not.  Anti joins (NOT EXISTS) must return the outer
-- rows with NULL keys, which no range holds: they never use it.  kr's rows
-- are out of order by now (no ordered scan), kr2's and kd's are not.
-- semi_vs_heap: does q's plan use the key-range join, its rows (the plan
-- run at top level, into a table), the same as heap's?
CREATE FUNCTION semi_vs_heap(q text) RETURNS TABLE (key_range boolean, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	h text := heap_twins(q);
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) CREATE TEMP TABLE semi_result AS ' || q INTO plan;
	key_range := plan::text LIKE '%ColstoreKeyRangeJoin%';
	EXECUTE 'CREATE TEMP TABLE semi_result AS ' || q;
	SELECT count(*) INTO nrows FROM semi_result;
	EXECUTE format('SELECT NOT EXISTS (TABLE semi_result EXCEPT ALL (%s)) AND
						   NOT EXISTS ((%s) EXCEPT ALL TABLE semi_result)', h, h)
		INTO same;
	DROP TABLE semi_result;
	RETURN NEXT;
END $$;
EXPLAIN (COSTS OFF) SELECT a.id, a.v FROM kr2 a WHERE EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id);
EXPLAIN (COSTS OFF) SELECT a.id FROM kr2 a WHERE EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id AND b.v < 3);
EXPLAIN (COSTS OFF) SELECT a.id, a.v FROM kd a WHERE a.id IN (SELECT b.id FROM kr2 b);
SELECT q, same_as_heap(q), s.* FROM (VALUES
	('SELECT a.id, a.v, a.d FROM kr2 a WHERE EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id)'),
	('SELECT a.id, a.d FROM kr2 a WHERE EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id AND b.v < 3)'),
	('SELECT a.id, a.v FROM kr2 a WHERE EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id AND b.v = a.v)'),
	('SELECT a.id, a.v FROM kr2 a WHERE a.v = 2 AND EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id AND b.v >= 5)'),
	('SELECT a.id, a.v FROM kd a WHERE a.id IN (SELECT b.id FROM kr2 b)'),
	('SELECT a.id, a.v FROM kd a WHERE a.id IN (SELECT b.id FROM kr2 b WHERE b.v = 4)'),
	('SELECT a.id FROM kd a WHERE EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id AND b.v <> a.v)'),
	('SELECT a.id, a.d FROM kr2 a WHERE EXISTS (SELECT 1 FROM kr2 b WHERE b.d = a.d AND b.v = 3)'),
	('SELECT a.id, a.g FROM kr a WHERE EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id AND b.v < 2)'),
	('SELECT a.id, a.v FROM kr2 a WHERE a.d IN (SELECT b.d FROM kr b WHERE b.n < 10)')) v(q),
	LATERAL semi_vs_heap(q) s;
-- ordered output through Gather Merge
EXPLAIN (COSTS OFF) SELECT a.id FROM kd a WHERE a.id IN (SELECT b.id FROM kr2 b WHERE b.v < 4) ORDER BY a.id;
SELECT (SELECT array_agg(id ORDER BY ord) FROM (SELECT id, row_number() OVER () AS ord
		FROM (SELECT a.id FROM kd a WHERE a.id IN (SELECT b.id FROM kr2 b WHERE b.v < 4) ORDER BY a.id) s) x) =
	   (SELECT array_agg(a.id ORDER BY a.id) FROM kdh a WHERE a.id IN (SELECT b.id FROM kr2h b WHERE b.v < 4))
	AS same_order_as_heap;
-- anti joins: not the key-range join
EXPLAIN (COSTS OFF) SELECT a.id FROM kr2 a WHERE NOT EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id);
SELECT q, same_as_heap(q), s.* FROM (VALUES
	('SELECT a.id, a.v FROM kr2 a WHERE NOT EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id AND b.v < 3)'),
	('SELECT a.id FROM kd a WHERE NOT EXISTS (SELECT 1 FROM kr2 b WHERE b.id = a.id)')) v(q),
	LATERAL semi_vs_heap(q) s;

-- NULL keys on the outer side (and the inner): cached plans made while the
-- tables held none run after rows with NULL ids arrive, and after kd's
-- rows change; the semi join leaves the NULL rows out, the anti join
-- returns them
SET plan_cache_mode = force_generic_plan;
PREPARE semi AS SELECT a.id, a.v FROM kr2 a WHERE EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id AND b.v < 5);
PREPARE anti AS SELECT a.id, a.v FROM kr2 a WHERE NOT EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id AND b.v < 5);
EXPLAIN (COSTS OFF) EXECUTE semi;
EXPLAIN (COSTS OFF) EXECUTE anti;
INSERT INTO kr2 VALUES (NULL, 1, date '2000-01-01'), (NULL, 2, NULL), (NULL, 3, date '2030-01-01');
INSERT INTO kr2h VALUES (NULL, 1, date '2000-01-01'), (NULL, 2, NULL), (NULL, 3, date '2030-01-01');
INSERT INTO kd VALUES (NULL, 1), (NULL, 2);
INSERT INTO kdh VALUES (NULL, 1), (NULL, 2);
DELETE FROM kd WHERE id % 101 = 0;
DELETE FROM kdh WHERE id % 101 = 0;
UPDATE kd SET v = v + 10 WHERE id % 103 = 0;
UPDATE kdh SET v = v + 10 WHERE id % 103 = 0;
CREATE TABLE semi_cached AS EXECUTE semi;
CREATE TABLE anti_cached AS EXECUTE anti;
SELECT (SELECT count(*) FROM semi_cached) AS semi_rows,
	   NOT EXISTS (TABLE semi_cached EXCEPT ALL
				   SELECT a.id, a.v FROM kr2h a WHERE EXISTS (SELECT 1 FROM kdh b WHERE b.id = a.id AND b.v < 5)) AND
	   NOT EXISTS (SELECT a.id, a.v FROM kr2h a WHERE EXISTS (SELECT 1 FROM kdh b WHERE b.id = a.id AND b.v < 5)
				   EXCEPT ALL TABLE semi_cached) AS semi_same_as_heap,
	   (SELECT count(*) FROM anti_cached) AS anti_rows,
	   (SELECT count(*) FROM anti_cached WHERE id IS NULL) AS anti_null_rows,
	   NOT EXISTS (TABLE anti_cached EXCEPT ALL
				   SELECT a.id, a.v FROM kr2h a WHERE NOT EXISTS (SELECT 1 FROM kdh b WHERE b.id = a.id AND b.v < 5)) AND
	   NOT EXISTS (SELECT a.id, a.v FROM kr2h a WHERE NOT EXISTS (SELECT 1 FROM kdh b WHERE b.id = a.id AND b.v < 5)
				   EXCEPT ALL TABLE anti_cached) AS anti_same_as_heap;
DEALLOCATE semi;
DEALLOCATE anti;
RESET plan_cache_mode;
-- planned now, with the NULLs there: no ordered scan of kr2, so no
-- key-range join; the rows are heap's all the same
EXPLAIN (COSTS OFF) SELECT a.id, a.v FROM kr2 a WHERE EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id);
SELECT q, same_as_heap(q), s.* FROM (VALUES
	('SELECT a.id, a.v FROM kr2 a WHERE EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id)'),
	('SELECT a.id, a.v FROM kr2 a WHERE a.id IN (SELECT b.id FROM kd b WHERE b.v > 1)'),
	('SELECT a.id, a.v FROM kr2 a WHERE NOT EXISTS (SELECT 1 FROM kd b WHERE b.id = a.id)'),
	('SELECT a.id, a.v FROM kd a WHERE EXISTS (SELECT 1 FROM kr2 b WHERE b.id = a.id)')) v(q),
	LATERAL semi_vs_heap(q) s;
DROP TABLE semi_cached, anti_cached;
DROP FUNCTION semi_vs_heap(text);

-- Merge skip: the merge join's inner scan skips the rows below the key of
-- the outer row it is matching before they become tuples (inner, left,
-- semi and anti joins).  ks's rows with w = 0 are sparse (every 97th id,
-- even ones twice), so most of kt's and kt2's rows (kr's and kr2's, in
-- order) go; EXPLAIN ANALYZE counts them (without workers the leader runs
-- every range, so the counts are all its own).
CREATE TABLE ks (id bigint, w int) USING colstore WITH (row_group_size = 5000, chunk_size = 1000);
INSERT INTO ks SELECT i, CASE WHEN i % 97 = 3 THEN 0 ELSE 1 + i % 5 END
	FROM generate_series(1, 20000) i,
		 generate_series(1, CASE WHEN i % 2 = 0 THEN 2 ELSE 1 END) r;
CREATE TABLE kt USING colstore WITH (row_group_size = 5000, chunk_size = 1000)
	AS SELECT * FROM krh ORDER BY id;
CREATE TABLE kt2 USING colstore WITH (row_group_size = 5000, chunk_size = 1000)
	AS SELECT * FROM kr2h WHERE id IS NOT NULL ORDER BY id;
ANALYZE ks, kt, kt2;
CREATE TABLE ksh USING heap AS SELECT * FROM ks;
CREATE TABLE kth USING heap AS SELECT * FROM kt;
CREATE TABLE kt2h USING heap AS SELECT * FROM kt2;
-- the rows EXPLAIN ANALYZE says the merge skip removed, over every loop
CREATE FUNCTION merge_skipped(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ' || q INTO plan;
	RETURN coalesce((SELECT sum((n #>> '{}')::numeric)
					 FROM jsonb_path_query(plan, 'strict $.**."Rows Removed by Merge Skip"') n), 0);
END $$;
SET max_parallel_workers = 0;
EXPLAIN (COSTS OFF) SELECT ks.id FROM ks WHERE ks.w = 0 AND EXISTS (SELECT 1 FROM kt WHERE kt.id = ks.id);
SELECT q, same_as_heap(q), merge_skipped(q) > 0 AS skipped FROM (VALUES
	('SELECT ks.id FROM ks WHERE ks.w = 0 AND EXISTS (SELECT 1 FROM kt WHERE kt.id = ks.id)'),
	('SELECT ks.id FROM ks WHERE ks.w = 0 AND NOT EXISTS (SELECT 1 FROM kt2 WHERE kt2.id = ks.id)'),
	('SELECT ks.id, kt.g FROM ks JOIN kt ON kt.id = ks.id WHERE ks.w = 0'),
	('SELECT ks.id, kt2.v FROM ks LEFT JOIN kt2 ON kt2.id = ks.id WHERE ks.w = 0'),
	('SELECT ks.id, ks.w FROM ks WHERE EXISTS (SELECT 1 FROM kt WHERE kt.id = ks.id AND kt.g % 7 = 1)'),
	('SELECT kt.id, kt.g FROM kt WHERE kt.id IN (SELECT ks.id FROM ks WHERE ks.w = 0)')) v(q);
-- the counts are what the plans must return
SELECT count(*) FROM ks WHERE ks.w = 0 AND EXISTS (SELECT 1 FROM kt WHERE kt.id = ks.id);
SELECT count(*) FROM ks WHERE ks.w = 0 AND NOT EXISTS (SELECT 1 FROM kt2 WHERE kt2.id = ks.id);
SELECT count(*) FROM ks JOIN kt ON kt.id = ks.id WHERE ks.w = 0;
RESET max_parallel_workers;
DROP TABLE ks, kt, kt2, ksh, kth, kt2h;
DROP FUNCTION merge_skipped(text);

DROP TABLE kr, kr2, kd, ktx, ktm, krh, kr2h, kdh, ktmh, cross_result;
DROP FUNCTION same_as_heap(text), heap_twins(text);
