-- The all-visible marks of pseudo-blocks whose rows a bulk UPDATE or DELETE
-- changes are cleared before anyone can see the change, though a
-- transaction reads each pseudo-block's bit only once
-- (storage/all_visible.c, LastCleared) and promoted copies are inserted in
-- batches (storage/delta_heap.c, DeltaHeapInsertCopies, which must not mark
-- the physical pages it fills): index-only scans, in the changing
-- transaction and after it, answer as on a heap twin, for a permanent, an
-- UNLOGGED and a TEMPORARY table.  A missed clear would let an index-only
-- scan count a deleted row or an updated row's old version.
SET colstore.auto_compaction = off;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET max_parallel_workers_per_gather = 0;

-- does the query's plan have an index-only scan?
CREATE FUNCTION ioc_plan_is_ios(query text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query
	LOOP
		IF line ~ 'Index Only Scan' THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END
$$;

-- make c (colstore) and h (heap), 29,100 rows each (100 pseudo-blocks of
-- 291 rows), as a table of the given kind ('', 'UNLOGGED' or 'TEMPORARY')
CREATE FUNCTION ioc_make(kind text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('CREATE %s TABLE c (id int PRIMARY KEY, k int, v int) USING colstore
		WITH (autovacuum_enabled = false)', kind);
	EXECUTE format('CREATE %s TABLE h (id int PRIMARY KEY, k int, v int)
		WITH (autovacuum_enabled = false)', kind);
	CREATE INDEX c_k ON c (k) INCLUDE (v);
	CREATE INDEX h_k ON h (k) INCLUDE (v);
	INSERT INTO c SELECT g, g % 100, g FROM generate_series(1, 29100) g;
	INSERT INTO h SELECT * FROM c;
END
$$;

-- index-only answers of c that differ from h's (none expected)
CREATE FUNCTION ioc_diff() RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	q text;
	a text;
	b text;
BEGIN
	FOREACH q IN ARRAY ARRAY[
		'SELECT count(*) FROM %s WHERE id > 0',
		'SELECT sum(id) FROM %s WHERE id > 0',
		'SELECT count(*) FROM %s WHERE id BETWEEN 1 AND 2000',
		'SELECT sum(v) FROM %s WHERE k < 50',
		'SELECT count(*) FROM %s WHERE k >= 0']
	LOOP
		EXECUTE format(q, 'c') INTO a;
		EXECUTE format(q, 'h') INTO b;
		IF a IS DISTINCT FROM b THEN
			RETURN NEXT format(q, 'c') || ': ' || coalesce(a, 'NULL') || ' (heap: ' || coalesce(b, 'NULL') || ')';
		END IF;
	END LOOP;
END
$$;

-- the checks: each step's index-only answers, in and after its transaction
CREATE FUNCTION ioc_run() RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY SELECT 'index-only scans: ' ||
		ioc_plan_is_ios('SELECT count(*) FROM c WHERE id > 0')::text;
	RETURN QUERY SELECT 'all-visible blocks: ' ||
		(SELECT (relallvisible >= 90)::text FROM pg_class WHERE oid = 'c'::regclass);

	-- many rows of the same blocks, in an order that comes back to a block
	-- after leaving it
	DELETE FROM c WHERE id IN (5, 300, 6, 600, 7, 301, 8);
	DELETE FROM h WHERE id IN (5, 300, 6, 600, 7, 301, 8);
	UPDATE c SET v = v + 1 WHERE id BETWEEN 1000 AND 1500;
	UPDATE h SET v = v + 1 WHERE id BETWEEN 1000 AND 1500;
	RETURN QUERY SELECT 'same transaction: ' || d FROM ioc_diff() d;

	-- a subtransaction's change of a block rolled back, then another row
	-- of the same block changed
	BEGIN
		DELETE FROM c WHERE id = 3000;
		RAISE EXCEPTION 'roll back';
	EXCEPTION WHEN raise_exception THEN
		NULL;
	END;
	DELETE FROM c WHERE id = 3001;
	DELETE FROM h WHERE id = 3001;
	UPDATE c SET v = 0 WHERE id = 3002;
	UPDATE h SET v = 0 WHERE id = 3002;
	RETURN QUERY SELECT 'after the subtransaction: ' || d FROM ioc_diff() d;
END
$$;

-- permanent
SELECT ioc_make('');
VACUUM c;
VACUUM h;
SELECT * FROM ioc_run();
SELECT 'later transaction: ' || d FROM ioc_diff() d;
BEGIN;
UPDATE c SET v = v + 1;
UPDATE h SET v = v + 1;
SELECT 'UPDATE of every row, same transaction: ' || d FROM ioc_diff() d;
COMMIT;
SELECT 'UPDATE of every row, later: ' || d FROM ioc_diff() d;
VACUUM c;
VACUUM h;
SELECT 'UPDATE of every row, after VACUUM: ' || d FROM ioc_diff() d;
BEGIN;
DELETE FROM c WHERE id % 3 <> 0;
DELETE FROM h WHERE id % 3 <> 0;
SELECT 'DELETE, same transaction: ' || d FROM ioc_diff() d;
COMMIT;
SELECT 'DELETE, later: ' || d FROM ioc_diff() d;
DELETE FROM c;
DELETE FROM h;
SELECT 'DELETE of every row: ' || d FROM ioc_diff() d;
SELECT count(*) FROM c WHERE id > 0;
DROP TABLE c, h;

\getenv abs_srcdir PG_ABS_SRCDIR
\set round_sql :abs_srcdir '/sql/include/index_only_clear_round.sql'
-- UNLOGGED
\set kind UNLOGGED
\i :round_sql

-- TEMPORARY
\set kind TEMPORARY
\i :round_sql

DROP FUNCTION ioc_plan_is_ios(text);
DROP FUNCTION ioc_make(text);
DROP FUNCTION ioc_diff();
DROP FUNCTION ioc_run();
