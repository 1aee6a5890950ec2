-- The shared row group header cache (storage/header_cache.c): scans copy
-- headers from it, in this session and in a new one, and never get a stale
-- one: after inserts, deletes, updates, VACUUM, compaction, TRUNCATE,
-- rewrites, and DROP followed by a new table, every result equals the heap
-- twin's.  hc_delta() shows this session's cache hits and misses since its
-- last call (colstore.header_cache_stats() counts per backend).
SET max_parallel_workers_per_gather = 0;
SELECT size_bytes > 0 AS cache_on FROM colstore.header_cache_stats();

CREATE TABLE hc (a int, b int, t text) USING colstore
	WITH (row_group_size = 1000, chunk_size = 250);
CREATE TABLE hh (a int, b int, t text);
INSERT INTO hc SELECT g, g % 7, 'v' || g FROM generate_series(1, 5000) g;
INSERT INTO hh SELECT g, g % 7, 'v' || g FROM generate_series(1, 5000) g;

CREATE TEMP TABLE last_stats AS SELECT * FROM colstore.header_cache_stats();
CREATE FUNCTION hc_delta(OUT hits bigint, OUT misses bigint) LANGUAGE plpgsql AS $$
DECLARE
	n record;
BEGIN
	SELECT * INTO n FROM colstore.header_cache_stats();
	SELECT n.backend_hits - l.backend_hits, n.backend_misses - l.backend_misses
		INTO hits, misses FROM last_stats l;
	UPDATE last_stats SET backend_hits = n.backend_hits, backend_misses = n.backend_misses;
END $$;
-- the same aggregates over both tables, all rows and a pruned range
CREATE FUNCTION hc_compare(OUT tab text, OUT n bigint, OUT sum_a bigint, OUT sum_b bigint,
						   OUT max_t text, OUT n_range bigint, OUT sum_range bigint)
RETURNS SETOF record LANGUAGE sql AS $$
	SELECT 'colstore', count(*), sum(a), sum(b), max(t),
		   count(*) FILTER (WHERE a > 3900), sum(b) FILTER (WHERE a > 3900) FROM hc
	UNION ALL
	SELECT 'heap', count(*), sum(a), sum(b), max(t),
		   count(*) FILTER (WHERE a > 3900), sum(b) FILTER (WHERE a > 3900) FROM hh
$$;

-- the first scan reads the 5 headers from their pages, the second copies them
SELECT * FROM hc_compare();
SELECT * FROM hc_delta();
SELECT sum(b) FROM hc WHERE a BETWEEN 2500 AND 2600;
SELECT * FROM hc_delta();
SELECT entries >= 5 AS cached, used_bytes > 0 AS has_bytes FROM colstore.header_cache_stats();

-- a new session finds them all in the cache
\c
SET max_parallel_workers_per_gather = 0;
SELECT sum(a) FROM hc;
SELECT backend_hits, backend_misses FROM colstore.header_cache_stats();
CREATE TEMP TABLE last_stats AS SELECT * FROM colstore.header_cache_stats();

-- new row groups are read once; the old ones stay cached
INSERT INTO hc SELECT g, g % 5, 'w' || g FROM generate_series(5001, 7000) g;
INSERT INTO hh SELECT g, g % 5, 'w' || g FROM generate_series(5001, 7000) g;
SELECT * FROM hc_delta();
SELECT * FROM hc_compare();
SELECT * FROM hc_delta();

-- deletes, updates, VACUUM and compaction change rows, never a cached header
DELETE FROM hc WHERE a % 3 = 0;
DELETE FROM hh WHERE a % 3 = 0;
UPDATE hc SET b = b + 100, t = t || 'u' WHERE a BETWEEN 3950 AND 4050;
UPDATE hh SET b = b + 100, t = t || 'u' WHERE a BETWEEN 3950 AND 4050;
SELECT * FROM hc_compare();
VACUUM hc;
SELECT * FROM hc_compare();
SELECT colstore.compact('hc') > 0 AS compacted;
VACUUM hc;
SELECT * FROM hc_compare();

-- TRUNCATE: a new relation file, whose headers are read from its pages
SELECT 'reset' AS counters FROM hc_delta();
TRUNCATE hc;
TRUNCATE hh;
INSERT INTO hc SELECT g, g % 11, 'x' || g FROM generate_series(1, 4500) g;
INSERT INTO hh SELECT g, g % 11, 'x' || g FROM generate_series(1, 4500) g;
SELECT * FROM hc_compare();
SELECT * FROM hc_delta();

-- rewrites (VACUUM FULL, a column type change) copy the old file's headers
-- from the cache and read the new file's from its pages
VACUUM FULL hc;
SELECT * FROM hc_compare();
SELECT * FROM hc_delta();
ALTER TABLE hc ALTER COLUMN b TYPE bigint;
ALTER TABLE hh ALTER COLUMN b TYPE bigint;
SELECT * FROM hc_compare();
SELECT * FROM hc_delta();

-- DROP and a new table of the same name and shape, with other values
DROP TABLE hc;
CREATE TABLE hc (a int, b bigint, t text) USING colstore
	WITH (row_group_size = 1000, chunk_size = 250);
TRUNCATE hh;
INSERT INTO hc SELECT g, g % 13, 'y' || g FROM generate_series(1, 4500) g;
INSERT INTO hh SELECT g, g % 13, 'y' || g FROM generate_series(1, 4500) g;
SELECT * FROM hc_compare();
SELECT * FROM hc_delta();

-- temporary tables are never cached
CREATE TEMP TABLE hc_temp (a int) USING colstore WITH (row_group_size = 1000);
INSERT INTO hc_temp SELECT generate_series(1, 3000);
SELECT sum(a) FROM hc_temp;
SELECT sum(a) FROM hc_temp;
SELECT * FROM hc_delta();

-- colstore.verify() always reads the headers from their pages
SELECT colstore.verify('hc');
SELECT * FROM hc_delta();

DROP TABLE hc_temp;

-- index lookups and planning in a new session copy headers from the cache
-- too (the backend's chunk cache fills from it), and see the same rows
CREATE INDEX hc_a ON hc (a);
CREATE INDEX hh_a ON hh (a);
SELECT sum(a) FROM hc;
\c
SET max_parallel_workers_per_gather = 0;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT a, b, t FROM hc WHERE a IN (7, 2550, 4499) ORDER BY a;
SELECT a, b, t FROM hh WHERE a IN (7, 2550, 4499) ORDER BY a;
SELECT backend_hits > 0 AS lookups_hit, backend_misses AS lookups_missed
	FROM colstore.header_cache_stats();
RESET enable_seqscan;
RESET enable_bitmapscan;

DROP TABLE hc, hh;
DROP FUNCTION hc_delta(), hc_compare();
