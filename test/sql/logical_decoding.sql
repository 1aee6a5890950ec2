-- Logical decoding of colstore tables: the decoded stream of every kind of
-- write equals the stream of a heap twin running the same statements
-- (test/sql/include/decoding_workload.sql), through test_decoding; and
-- maintenance (compaction, VACUUM, rewrites, promotions) decodes as nothing.
-- Needs wal_level = logical (scripts/setup.sh sets it).
SET client_min_messages = warning;
SELECT 'init' FROM pg_create_logical_replication_slot('colstore_decoding', 'test_decoding', false, true);
\getenv abs_srcdir PG_ABS_SRCDIR
\set workload :abs_srcdir '/sql/include/decoding_workload.sql'
CREATE TEMP TABLE decoded (n serial, kind text, data text);

-- Decode what happened since the last call, tables renamed to one prefix.
CREATE FUNCTION capture(kind text) RETURNS bigint LANGUAGE sql AS $$
	WITH d AS (
		INSERT INTO decoded (kind, data)
		SELECT kind, regexp_replace(data, '\m(lr_heap|lr_col|lr_cold)_', 'lr_', 'g')
		FROM pg_logical_slot_get_changes('colstore_decoding', NULL, NULL,
			'include-xids', '0', 'skip-empty-xacts', '1')
		RETURNING 1)
	SELECT count(*) FROM d;
$$;

-- The lines where two captured streams differ, by position.
CREATE FUNCTION stream_diff(a text, b text)
RETURNS TABLE (pos bigint, line_a text, line_b text) LANGUAGE sql AS $$
	SELECT coalesce(x.pos, y.pos), left(x.data, 110), left(y.data, 110)
	FROM (SELECT row_number() OVER (ORDER BY n) pos, data FROM decoded WHERE kind = a) x
	FULL JOIN (SELECT row_number() OVER (ORDER BY n) pos, data FROM decoded WHERE kind = b) y
		ON x.pos = y.pos
	WHERE x.data IS DISTINCT FROM y.data
	ORDER BY 1;
$$;

-- heap
\set am heap
\set t lr_heap
\i :workload
SELECT capture('heap') > 400 AS heap_decoded;

-- colstore, every INSERT into row groups (none as heap tuples)
SET colstore.delta_insert_rows = 0;
\set am colstore
\set t lr_col
\i :workload
SELECT capture('colstore') > 400 AS colstore_decoded;
SELECT * FROM stream_diff('heap', 'colstore');

-- colstore with small INSERTs as heap tuples (the default)
RESET colstore.delta_insert_rows;
\set t lr_cold
\i :workload
SELECT capture('colstore small inserts') > 400 AS decoded;
SELECT * FROM stream_diff('heap', 'colstore small inserts');

-- The stream itself, for review (one of each kind of line per table).
SELECT DISTINCT ON (regexp_replace(data, ':.*', '') || substr(data, position(': ' IN data), 12))
	data
FROM decoded WHERE kind = 'colstore'
ORDER BY regexp_replace(data, ':.*', '') || substr(data, position(': ' IN data), 12), n;

-- Maintenance decodes as nothing: promotions for row locks, compaction
-- (and the rewrite of mostly deleted row groups), VACUUM, VACUUM FULL,
-- CLUSTER, and an ALTER TABLE rewrite.
BEGIN;
SELECT count(*) FROM (SELECT id FROM lr_col_main WHERE id BETWEEN 20 AND 40 FOR UPDATE) locked;
COMMIT;
SELECT colstore.compact('lr_cold_main') >= 0 AS compacted;
DELETE FROM lr_col_full WHERE id > 20;
SELECT capture('deletes') AS deletes_decoded;
SELECT colstore.compact('lr_col_full') > 0 AS moved_sparse_rows;
VACUUM lr_col_main, lr_cold_main, lr_col_full;
VACUUM FULL lr_col_uidx;
CLUSTER lr_col_main USING lr_col_main_pkey;
ALTER TABLE lr_cold_main ALTER COLUMN n TYPE float8;
ALTER TABLE lr_col_main SET (codec = 'lz4');
SELECT capture('maintenance') AS maintenance_decoded;
SELECT data FROM decoded WHERE kind = 'maintenance' ORDER BY n;
-- the options change took effect all the same
SELECT relation, codec FROM colstore.table_options WHERE relation = 'lr_col_main'::regclass;

-- Afterwards, changes decode as before (the moved rows included).
UPDATE lr_col_full SET v = 'after compaction' WHERE id = 3;
DELETE FROM lr_col_full WHERE id = 4;
UPDATE lr_cold_main SET v = 'after rewrite' WHERE id = 500;
SELECT capture('after') AS after_decoded;
SELECT data FROM decoded WHERE kind = 'after' ORDER BY n;

-- Dropping the tables (which forgets their options) decodes as nothing too.
DROP TABLE lr_heap_main, lr_heap_full, lr_heap_none, lr_heap_uidx, lr_heap_part,
	lr_col_main, lr_col_full, lr_col_none, lr_col_uidx, lr_col_part,
	lr_cold_main, lr_cold_full, lr_cold_none, lr_cold_uidx, lr_cold_part;
SELECT capture('drop') AS drop_decoded;
SELECT count(*) AS options_left FROM colstore.options;
SELECT pg_drop_replication_slot('colstore_decoding');
