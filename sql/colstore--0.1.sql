/* colstore--0.1.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION colstore" to load this file. \quit

CREATE FUNCTION colstore_handler(internal)
RETURNS table_am_handler
AS 'MODULE_PATHNAME', 'colstore_handler'
LANGUAGE C STRICT;

CREATE ACCESS METHOD colstore TYPE TABLE HANDLER colstore_handler;
COMMENT ON ACCESS METHOD colstore IS 'columnar table access method: compressed row groups';

-- Per-table storage options.  NULL means "use the server default"
-- (colstore.default_* settings).  Kept by relation OID, so the options
-- survive TRUNCATE, VACUUM FULL and CLUSTER.  Always a heap table: colstore
-- reads it while writing colstore tables.  Not configuration data for
-- pg_dump: each table's options are also in its pg_class.reloptions, so
-- pg_dump writes them in the table's CREATE TABLE ... WITH (...), which
-- stores them again on restore.
CREATE TABLE options (
	relid regclass PRIMARY KEY,
	codec text,
	compression_level integer,
	row_group_size integer,
	chunk_size integer
) USING heap;
COMMENT ON TABLE options IS 'per-table storage options of colstore tables (NULL: server default)';
GRANT SELECT ON options TO PUBLIC;
GRANT USAGE ON SCHEMA colstore TO PUBLIC;

CREATE FUNCTION set_options(rel regclass,
							codec text DEFAULT NULL,
							compression_level integer DEFAULT NULL,
							row_group_size integer DEFAULT NULL,
							chunk_size integer DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'colstore_set_options'
LANGUAGE C;
COMMENT ON FUNCTION set_options(regclass, text, integer, integer, integer) IS
	'sets storage options of a colstore table; NULL arguments leave an option unchanged';

CREATE FUNCTION reset_options(rel regclass)
RETURNS void
AS 'MODULE_PATHNAME', 'colstore_reset_options'
LANGUAGE C STRICT;
COMMENT ON FUNCTION reset_options(regclass) IS
	'resets all storage options of a colstore table to the server defaults';

CREATE VIEW table_options AS
SELECT c.oid::regclass AS relation,
	   coalesce(o.codec, current_setting('colstore.default_codec')) AS codec,
	   coalesce(o.compression_level,
				current_setting('colstore.default_compression_level')::integer) AS compression_level,
	   coalesce(o.row_group_size,
				current_setting('colstore.default_row_group_size')::integer) AS row_group_size,
	   coalesce(o.chunk_size,
				current_setting('colstore.default_chunk_size')::integer) AS chunk_size
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_am am ON am.oid = c.relam AND am.amname = 'colstore'
LEFT JOIN colstore.options o ON o.relid = c.oid;
COMMENT ON VIEW table_options IS 'effective storage options of every colstore table';
GRANT SELECT ON table_options TO PUBLIC;

-- Forget the options of dropped tables.
-- Runs for every user's DROP; deletes as the owner of colstore.options.
CREATE FUNCTION forget_dropped_options()
RETURNS event_trigger
AS 'MODULE_PATHNAME', 'colstore_forget_dropped_options'
LANGUAGE C;
COMMENT ON FUNCTION forget_dropped_options() IS
	'event trigger function: removes the options of dropped colstore tables';
CREATE EVENT TRIGGER colstore_forget_dropped_options ON sql_drop
	EXECUTE FUNCTION forget_dropped_options();

-- Store the options a CREATE statement carried (WITH (codec = ...)) as soon
-- as its table exists, inside the statement: Citus makes a new partition's
-- shards from the table's definition right after it.
CREATE FUNCTION store_created_options()
RETURNS event_trigger
AS 'MODULE_PATHNAME', 'colstore_store_created_options'
LANGUAGE C;
COMMENT ON FUNCTION store_created_options() IS
	'event trigger function: stores the colstore options of a table being created';
CREATE EVENT TRIGGER colstore_store_created_options ON ddl_command_end
	WHEN TAG IN ('CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO', 'CREATE MATERIALIZED VIEW')
	EXECUTE FUNCTION store_created_options();

CREATE FUNCTION row_groups(rel regclass,
						   OUT row_group integer,
						   OUT first_row bigint,
						   OUT row_count bigint,
						   OUT state text,
						   OUT inserted_by xid,
						   OUT chunks integer,
						   OUT stored_bytes bigint,
						   OUT raw_bytes bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'colstore_row_groups'
LANGUAGE C STRICT;
COMMENT ON FUNCTION row_groups(regclass) IS
	'row groups of a colstore table: rows, state (committed, frozen, in progress, aborted, dead), sizes';

CREATE FUNCTION row_group_deletes(rel regclass,
								  OUT row_group integer,
								  OUT deleted_rows bigint,
								  OUT map_pages integer)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'colstore_row_group_deletes'
LANGUAGE C STRICT;
COMMENT ON FUNCTION row_group_deletes(regclass) IS
	'row groups of a colstore table that had rows changed: rows their deleted-rows bitmap marks deleted for everyone, and pages of their promotion map, bitmap and delete log';

CREATE FUNCTION chunks(rel regclass,
					   OUT row_group integer,
					   OUT chunk integer,
					   OUT column_name name,
					   OUT row_count integer,
					   OUT encoding text,
					   OUT codec text,
					   OUT stored_bytes bigint,
					   OUT raw_bytes bigint,
					   OUT null_count integer,
					   OUT min_value text,
					   OUT max_value text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'colstore_chunks'
LANGUAGE C STRICT;
COMMENT ON FUNCTION chunks(regclass) IS
	'column chunks of a colstore table: encoding, codec, sizes, NULL count, min and max';

CREATE FUNCTION stats(rel regclass,
					  OUT column_name name,
					  OUT stored_bytes bigint,
					  OUT raw_bytes bigint,
					  OUT compression_ratio numeric)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'colstore_stats'
LANGUAGE C STRICT;
COMMENT ON FUNCTION stats(regclass) IS
	'per-column stored and raw bytes and compression ratio (raw / stored) of a colstore table';

CREATE FUNCTION verify(rel regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'colstore_verify'
LANGUAGE C STRICT;
COMMENT ON FUNCTION verify(regclass) IS
	'reads and checks every page, row group header and chunk of a colstore table; returns the rows checked or raises an error naming what is corrupted';

CREATE FUNCTION header_cache_stats(OUT backend_hits bigint,
								   OUT backend_misses bigint,
								   OUT entries bigint,
								   OUT used_bytes bigint,
								   OUT size_bytes bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'colstore_header_cache_stats'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION header_cache_stats() IS
	'the shared row group header cache: this session''s lookups found and not found there, and the live entries, their bytes and the cache''s size (0: no cache)';

CREATE FUNCTION compact(rel regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'colstore_compact'
LANGUAGE C STRICT;
COMMENT ON FUNCTION compact(regclass) IS
	'moves the heap tuples of a colstore table (rows of small INSERTs, versions written by UPDATE) that every snapshot sees into row groups, in the current transaction; returns the rows moved';

CREATE VIEW row_group AS
SELECT c.oid::regclass AS relation, g.*
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_am am ON am.oid = c.relam AND am.amname = 'colstore'
CROSS JOIN LATERAL colstore.row_groups(c.oid) g
WHERE c.relkind IN ('r', 'm') AND c.relpersistence <> 't';
GRANT SELECT ON row_group TO PUBLIC;
COMMENT ON VIEW row_group IS 'row groups of every colstore table of this database (temporary tables of other sessions excluded)';

CREATE FUNCTION compaction_progress(
	OUT pid integer, OUT datid oid, OUT relid oid, OUT command text, OUT phase text,
	OUT round integer, OUT started timestamptz,
	OUT heap_tuples_found bigint, OUT heap_tuples_moved bigint,
	OUT row_groups_rewritten bigint, OUT row_groups_merged bigint,
	OUT group_rows_moved bigint, OUT row_groups_written bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'colstore_compaction_progress'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION compaction_progress() IS
	'one row per running compaction (colstore.compact() or the background worker), as pg_stat_progress_vacuum';

CREATE VIEW compaction_progress AS
SELECT p.pid, p.datid, d.datname, p.relid, p.command, p.phase, p.round, p.started,
	p.heap_tuples_found, p.heap_tuples_moved, p.row_groups_rewritten, p.row_groups_merged,
	p.group_rows_moved, p.row_groups_written
FROM colstore.compaction_progress() p
LEFT JOIN pg_catalog.pg_database d ON d.oid = p.datid;
GRANT SELECT ON compaction_progress TO PUBLIC;
COMMENT ON VIEW compaction_progress IS
	'running compactions of colstore tables, with phase and counters (NULL unless the caller may see the compacting role''s statistics)';
