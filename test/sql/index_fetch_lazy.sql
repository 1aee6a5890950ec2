-- Index fetches leave a row group's row undecoded in the colstore slot
-- (tableam/am_index.c, ColstoreIndexFetch): a plain index scan decodes only
-- the columns its quals and target list read, and the planner's probe of an
-- index's extreme values and unique checks decode none.  A row an outer
-- index scan holds stays right while an inner one's fetches drop every
-- cached chunk (colstore.chunk_cache_size = 0 trims the cache at every
-- fetch; the lazy row's by-reference values live in the fetch's memory).
SET max_parallel_workers_per_gather = 0;
SET colstore.enable_custom_index_scan = off;
SET colstore.enable_custom_scan = off;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;

CREATE TABLE lc (id int PRIMARY KEY, k int, n numeric, t text, d text) USING colstore
	WITH (row_group_size = 2000, chunk_size = 500);
CREATE TABLE lh (id int PRIMARY KEY, k int, n numeric, t text, d text);
-- d has few distinct values: a dictionary chunk, whose readers return
-- pointers into the cached dictionary
INSERT INTO lc SELECT g, g % 97, g * 1.25, repeat(md5(g::text), 20), 'kind ' || g % 5
	FROM generate_series(1, 6000) g;
INSERT INTO lh SELECT * FROM lc;
CREATE TABLE rc (id int PRIMARY KEY, ref int, t text) USING colstore
	WITH (row_group_size = 2000, chunk_size = 500);
CREATE TABLE rh (id int PRIMARY KEY, ref int, t text);
INSERT INTO rc SELECT g, g % 300 + 1, 'r' || repeat(md5((g * 3)::text), 10) FROM generate_series(1, 4000) g;
INSERT INTO rh SELECT * FROM rc;
CREATE INDEX ON rc (ref);
CREATE INDEX ON rh (ref);
VACUUM ANALYZE lc, lh, rc, rh;

-- plain index scans, the colstore table's columns read through the lazy slot
EXPLAIN (COSTS OFF) SELECT id, t FROM lc WHERE id BETWEEN 100 AND 130;
SELECT (SELECT array_agg((id, k, n, t, d) ORDER BY id) FROM lc WHERE id BETWEEN 100 AND 2300) =
	   (SELECT array_agg((id, k, n, t, d) ORDER BY id) FROM lh WHERE id BETWEEN 100 AND 2300)
	AS same_rows;
-- a qual on a column only the fetch has, and only some columns read
SELECT (SELECT array_agg(n ORDER BY id) FROM lc WHERE id < 3000 AND k = 5) =
	   (SELECT array_agg(n ORDER BY id) FROM lh WHERE id < 3000 AND k = 5) AS same_filtered;

-- an index nested loop: each outer row of lc meets about 13 rows of rc, and
-- every inner fetch empties the chunk cache after the outer row's values
-- were first read
SET colstore.chunk_cache_size = 0;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF)
SELECT l.id, l.d, r.t FROM lc l JOIN rc r ON r.ref = l.id WHERE l.id BETWEEN 10 AND 20;
SELECT (SELECT array_agg((l.id, l.d, l.t, l.n, r.id, r.t) ORDER BY l.id, r.id)
		FROM lc l JOIN rc r ON r.ref = l.id WHERE l.id BETWEEN 1 AND 150) =
	   (SELECT array_agg((l.id, l.d, l.t, l.n, r.id, r.t) ORDER BY l.id, r.id)
		FROM lh l JOIN rh r ON r.ref = l.id WHERE l.id BETWEEN 1 AND 150) AS same_join;
-- and the other way round
SELECT (SELECT array_agg((r.id, r.t, l.d, l.t) ORDER BY r.id)
		FROM rc r JOIN lc l ON l.id = r.ref * 7 WHERE r.id BETWEEN 1 AND 900) =
	   (SELECT array_agg((r.id, r.t, l.d, l.t) ORDER BY r.id)
		FROM rh r JOIN lh l ON l.id = r.ref * 7 WHERE r.id BETWEEN 1 AND 900) AS same_join_2;

-- only the columns read are decoded: with an empty chunk cache at every
-- fetch, fetching the short int column reads fewer pages than fetching the
-- long text one (a fetch that decoded every column would read the same)
CREATE FUNCTION lc_pages(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || q
		INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Shared Hit Blocks')::bigint +
		   (plan -> 0 -> 'Plan' ->> 'Shared Read Blocks')::bigint;
END $$;
SELECT lc_pages('SELECT k FROM lc WHERE id BETWEEN 1 AND 1500') <
	   lc_pages('SELECT t FROM lc WHERE id BETWEEN 1 AND 1500') AS fewer_pages_for_k;

-- unique checks and upserts fetch the conflicting row without its values
RESET colstore.chunk_cache_size;
INSERT INTO lc VALUES (5, 0, 0, 'x', 'x');
INSERT INTO lc VALUES (5, 1, 1, 'y', 'y') ON CONFLICT (id) DO NOTHING;
INSERT INTO lh VALUES (5, 1, 1, 'y', 'y') ON CONFLICT (id) DO NOTHING;
INSERT INTO lc VALUES (7, 1, 1, 'y', 'y') ON CONFLICT (id) DO UPDATE SET t = lc.t || excluded.t;
INSERT INTO lh VALUES (7, 1, 1, 'y', 'y') ON CONFLICT (id) DO UPDATE SET t = lh.t || excluded.t;
SELECT (SELECT array_agg((id, k, n, t, d) ORDER BY id) FROM lc WHERE id < 10) =
	   (SELECT array_agg((id, k, n, t, d) ORDER BY id) FROM lh WHERE id < 10) AS same_after_upserts;

-- the planner's probe of the key's largest value, with the last rows not
-- yet all-visible (an index lookup that needs the table)
INSERT INTO lc SELECT g, 0, 0, 'new', 'new' FROM generate_series(6001, 6100) g;
INSERT INTO lh SELECT g, 0, 0, 'new', 'new' FROM generate_series(6001, 6100) g;
SELECT (SELECT count(*) FROM lc WHERE id > 5990) = (SELECT count(*) FROM lh WHERE id > 5990)
	AS same_count;

DROP FUNCTION lc_pages(text);
DROP TABLE lc, lh, rc, rh;
