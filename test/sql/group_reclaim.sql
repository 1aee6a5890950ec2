-- VACUUM reclaims whole row groups.  A row group whose every row is deleted
-- (and pruned) is retired ("emptied"); a later VACUUM, once no snapshot
-- from before that can be left, gives its pages and its deleted rows'
-- line pointers to new heap tuples ("reclaimed").  colstore.compact()
-- moves the live rows out of a row group at least half of whose rows are
-- deleted, so that group is retired too.  Every step is compared with a
-- heap table that gets the same statements, through every scan path.
SET colstore.auto_compaction = off;
CREATE EXTENSION IF NOT EXISTS pg_freespacemap;
CREATE TABLE gc (id int PRIMARY KEY, v int, t text) USING colstore
	WITH (row_group_size = 10000, autovacuum_enabled = false);
CREATE TABLE gh (id int PRIMARY KEY, v int, t text) WITH (autovacuum_enabled = false);
CREATE INDEX gc_v ON gc (v);
CREATE INDEX gh_v ON gh (v);
INSERT INTO gc SELECT i, i % 97, 'row ' || i FROM generate_series(1, 30000) i;
INSERT INTO gh SELECT * FROM gc;

CREATE FUNCTION same_rows() RETURNS TABLE (path text, same bool) LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	RETURN QUERY SELECT 'seq', NOT EXISTS ((TABLE gc EXCEPT ALL TABLE gh) UNION ALL (TABLE gh EXCEPT ALL TABLE gc));
	RETURN QUERY SELECT 'aggregate', (SELECT (count(*), sum(v), max(t)) FROM gc) = (SELECT (count(*), sum(v), max(t)) FROM gh);
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = on;
	RETURN QUERY SELECT 'index', (SELECT array_agg(v ORDER BY id) FROM gc WHERE id BETWEEN 1 AND 40000) IS NOT DISTINCT FROM (SELECT array_agg(v ORDER BY id) FROM gh WHERE id BETWEEN 1 AND 40000);
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = on;
	RETURN QUERY SELECT 'bitmap', (SELECT sum(id::bigint) FROM gc WHERE v = 5) IS NOT DISTINCT FROM (SELECT sum(id::bigint) FROM gh WHERE v = 5);
END $$;
CREATE FUNCTION groups() RETURNS TABLE (first_row bigint, row_count bigint, state text, has_inserter bool)
LANGUAGE sql AS $$
	SELECT first_row, row_count, state, inserted_by IS NOT NULL FROM colstore.row_groups('gc') ORDER BY first_row
$$;
-- VACUUM frees a retired group once no snapshot from before can be left:
-- wait until no other backend of this database (a compaction worker of an
-- earlier test) holds one, and use an xid
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql
-- nearly empty pages in the free space map
CREATE FUNCTION empty_pages() RETURNS bigint LANGUAGE sql AS $$
	SELECT count(*) FROM pg_freespace('gc') WHERE avail >= 8000
$$;

-- every row of the first group, three quarters of the second
DELETE FROM gc WHERE id <= 10000 OR (id <= 20000 AND id % 4 <> 0);
DELETE FROM gh WHERE id <= 10000 OR (id <= 20000 AND id % 4 <> 0);
SELECT * FROM groups();
-- this backend's pending statistics (the DELETE's, later compaction's) are
-- sent before each VACUUM, which then sets the table's live and dead counts
-- last, whenever the server would have sent them otherwise
SELECT pg_stat_force_next_flush();
-- the first VACUUM prunes the deleted rows and retires the first group
VACUUM gc;
SELECT * FROM groups();
SELECT * FROM same_rows();
SELECT colstore.verify('gc');

-- compaction moves the second group's 2,500 live rows into a new group
SELECT colstore.compact('gc');
SELECT * FROM groups();
SELECT * FROM same_rows();

-- the next VACUUM frees the first group (an xid has been used since it was
-- retired) and retires the second; the one after frees the second
SELECT settle();
SELECT empty_pages() AS empty_before;
SELECT pg_stat_force_next_flush();
VACUUM gc;
SELECT * FROM groups();
SELECT empty_pages() > 0 AS pages_freed;
SELECT settle();
SELECT pg_stat_force_next_flush();
VACUUM gc;
SELECT * FROM groups();
SELECT * FROM same_rows();
SELECT colstore.verify('gc');
-- the statistics count no dead rows left, and the live ones
SELECT n_live_tup, n_dead_tup FROM pg_stat_all_tables WHERE relid = 'gc'::regclass;

-- the freed pages take new row versions
SELECT empty_pages() AS empty_before_update \gset
UPDATE gc SET v = v + 1 WHERE id > 20000 AND id % 10 = 0;
UPDATE gh SET v = v + 1 WHERE id > 20000 AND id % 10 = 0;
INSERT INTO gc VALUES (1, 1, 'small insert'), (2, 2, 'small insert');
INSERT INTO gh VALUES (1, 1, 'small insert'), (2, 2, 'small insert');
SELECT empty_pages() < :empty_before_update AS freed_pages_used;
SELECT * FROM same_rows();
SELECT colstore.verify('gc');

-- an aborted insert's row group is reclaimed like a retired one
BEGIN;
INSERT INTO gc SELECT i, 0, 'aborted' FROM generate_series(100001, 112000) i;
ROLLBACK;
VACUUM gc;
SELECT settle();
VACUUM gc;
-- (its first row depends on how many pseudo-blocks heap pages took meanwhile)
SELECT row_count, state, has_inserter FROM groups() WHERE first_row >= 30000;
SELECT * FROM same_rows();

-- a parallel scan keeps retired groups in every participant's list
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT (SELECT (count(*), sum(v)) FROM gc) = (SELECT (count(*), sum(v)) FROM gh) AS parallel_same;
RESET ALL;

DROP TABLE gc, gh;
DROP FUNCTION same_rows(), groups(), settle(), empty_pages();
