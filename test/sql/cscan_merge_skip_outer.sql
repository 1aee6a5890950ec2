-- Merge skip with any outer side: a merge join whose inner side is an
-- ordered ColstoreScan skips the inner rows below the key of the outer row
-- the join is matching, read from the join's current outer row, also when
-- the outer side is a Sort (of a heap table here) rather than an ordered
-- ColstoreScan; and a skipping scan builds the numerics of a chunk row by
-- row when the chunk before returned few rows.  Inner, left, semi and anti
-- joins skip; right and full joins do not.  Every result must be heap's:
-- NULL and duplicate outer keys, an empty outer side, keys beyond the inner
-- side's, and rescans (a merge join under a nested loop, whose outer rows
-- start low again after each rescan).
SET max_parallel_workers_per_gather = 0;
SET enable_hashjoin = off;
SET enable_nestloop = off;
SET colstore.enable_custom_agg = off;
SET colstore.delta_insert_rows = 0;
-- mi: ids 1..20000 in order, every fiftieth twice; a numeric payload
CREATE TABLE mi (id bigint, n numeric(12,2), t text) USING colstore
	WITH (row_group_size = 5000, chunk_size = 1000);
INSERT INTO mi SELECT i, (i % 1000) / 8.0, 't' || (i % 7)
	FROM generate_series(1, 20000) i,
		 generate_series(1, CASE WHEN i % 50 = 0 THEN 2 ELSE 1 END) r;
ANALYZE mi;
-- mo: the outer side, a heap table in no order: every 97th id, some twice,
-- NULL keys, keys beyond mi's (20000 and up), g splits it into a high
-- half (g = 1) and a low half (g = 2)
CREATE TABLE mo (k bigint, g int) USING heap;
INSERT INTO mo SELECT i, CASE WHEN i > 10000 THEN 1 ELSE 2 END
	FROM generate_series(20100, 1, -97) i;
INSERT INTO mo SELECT i, 1 FROM generate_series(10050, 20000, 250) i;
INSERT INTO mo VALUES (NULL, 1), (NULL, 2), (25000, 1), (0, 2), (-5, 2);
ANALYZE mo;
CREATE TABLE mih USING heap AS SELECT * FROM mi;
ANALYZE mih;

-- q against the heap twin of mi
CREATE FUNCTION mo_same_as_heap(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	h text := regexp_replace(q, '\mmi\M', 'mih', 'g');
	result boolean;
BEGIN
	EXECUTE format('SELECT NOT EXISTS ((%s) EXCEPT ALL (%s)) AND NOT EXISTS ((%s) EXCEPT ALL (%s))',
				   q, h, h, q)
		INTO result;
	RETURN result;
END $$;
-- the rows EXPLAIN ANALYZE says the merge skip removed, over every loop
CREATE FUNCTION mo_skipped(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ' || q INTO plan;
	RETURN coalesce((SELECT sum((n #>> '{}')::numeric)
					 FROM jsonb_path_query(plan, 'strict $.**."Rows Removed by Merge Skip"') n), 0);
END $$;

-- the plan: a merge join of the sorted heap rows with the ordered scan
EXPLAIN (COSTS OFF) SELECT mo.k, mi.n FROM mo JOIN mi ON mi.id = mo.k;
SELECT q, mo_same_as_heap(q), mo_skipped(q) > 0 AS skipped FROM (VALUES
	('SELECT mo.k, mi.n, mi.t FROM mo JOIN mi ON mi.id = mo.k'),
	('SELECT mo.k, mo.g, mi.n FROM mo LEFT JOIN mi ON mi.id = mo.k'),
	('SELECT mo.k, mo.g FROM mo WHERE EXISTS (SELECT 1 FROM mi WHERE mi.id = mo.k)'),
	('SELECT mo.k, mo.g FROM mo WHERE NOT EXISTS (SELECT 1 FROM mi WHERE mi.id = mo.k)'),
	('SELECT mo.k, mi.n FROM mo JOIN mi ON mi.id = mo.k WHERE mo.g = 2'),
	('SELECT mo.k, mi.n FROM mo JOIN mi ON mi.id = mo.k AND mi.n > 60'),
	-- the outer side empty
	('SELECT mo.k, mi.n FROM mo JOIN mi ON mi.id = mo.k WHERE mo.g = 3'),
	-- right and full joins return the inner rows without a match: no skip
	('SELECT mo.k, mi.id, mi.n FROM mo RIGHT JOIN mi ON mi.id = mo.k'),
	('SELECT mo.k, mi.id FROM mo FULL JOIN mi ON mi.id = mo.k')) v(q);
-- the counts and sums are what the plans must return
SELECT count(*), sum(mi.n) FROM mo JOIN mi ON mi.id = mo.k;
SELECT count(*), count(mi.n), sum(mi.n) FROM mo LEFT JOIN mi ON mi.id = mo.k;
SELECT count(*) FROM mo WHERE NOT EXISTS (SELECT 1 FROM mi WHERE mi.id = mo.k);

-- rescans: the merge join runs once per g, the high keys first, then the
-- low ones (after a rescan the join has no outer row until it reads one)
SET enable_nestloop = on;
SET enable_material = off;
EXPLAIN (COSTS OFF)
SELECT v.g, s.* FROM (VALUES (1), (2)) v(g),
	LATERAL (SELECT count(*) AS c, sum(mi.n) AS s FROM mo JOIN mi ON mi.id = mo.k
			 WHERE mo.g = v.g) s;
SELECT mo_same_as_heap($$SELECT v.g, s.* FROM (VALUES (1), (2), (1)) v(g),
	LATERAL (SELECT count(*) AS c, sum(mi.n) AS s FROM mo JOIN mi ON mi.id = mo.k
			 WHERE mo.g = v.g) s$$);
SELECT v.g, s.* FROM (VALUES (1), (2), (1)) v(g),
	LATERAL (SELECT count(*) AS c, sum(mi.n) AS s FROM mo JOIN mi ON mi.id = mo.k
			 WHERE mo.g = v.g) s;
RESET enable_material;
SET enable_nestloop = off;

-- the numerics of a skipping scan, built row by row, are the stored values
-- (a sparse outer side: chunks after the first return few rows)
SELECT mo_same_as_heap('SELECT mi.id, mi.n FROM mo JOIN mi ON mi.id = mo.k WHERE mo.g = 1');
SET colstore.enable_merge_skip = off;
SELECT mo_skipped('SELECT mo.k, mi.n FROM mo JOIN mi ON mi.id = mo.k') AS skipped_when_off;
RESET colstore.enable_merge_skip;

DROP FUNCTION mo_same_as_heap(text);
DROP FUNCTION mo_skipped(text);
DROP TABLE mi, mo, mih;
RESET enable_nestloop;
RESET enable_hashjoin;
RESET max_parallel_workers_per_gather;
RESET colstore.enable_custom_agg;
RESET colstore.delta_insert_rows;
