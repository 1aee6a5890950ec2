-- ColstoreIndexScan: in a SELECT without row marks, every plain index scan
-- of a colstore table (one chunk or more) that reads fewer than all of its
-- columns becomes "Custom Scan (ColstoreIndexScan)", the same index scan
-- fetching only the columns its plan reads (EXPLAIN: Index, Index Cond,
-- Columns).  Every query must return heap's rows: point lookups, ranges,
-- NULLs, a unique, a multi-column, a hash and GiST indexes (rechecks of
-- lossy matches), IN lists, ctid and tableoid (also of partitions),
-- backward scans and a scroll cursor, the inner side of a merge join
-- (mark/restore) and of a nested loop (parameters, rescans, parallel
-- workers), over updated, deleted and just inserted rows (delta pages, the
-- current transaction) and columns added or dropped later.  Where it does not apply
-- the plain Index Scan stays, and must give heap's rows too: UPDATE, DELETE,
-- row locks, system columns other than ctid and tableoid, ORDER BY distance
-- operators, parallel index scans, scans reading every column (SELECT *, a
-- whole-row reference) and colstore.enable_custom_index_scan = off.
SET colstore.auto_compaction = off;		-- small inserts stay on delta pages
SET max_parallel_workers_per_gather = 0;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
-- ids in a scattered order (7919 is prime to 20000): neighbours in the
-- index live in different row groups, and no ordered scan competes
CREATE TABLE ix (id int, u int, k int, name text, n numeric, maybe int, d date,
	p point, c circle, pad text)
	USING colstore WITH (row_group_size = 5000, chunk_size = 1000, autovacuum_enabled = false);
INSERT INTO ix SELECT id, id * 3, id % 100, 'n' || id, id / 7.0,
	CASE WHEN id % 5 <> 0 THEN id % 13 END, date '2020-01-01' + id % 300,
	point(id % 150, id / 150), circle(point(id % 150, id / 150), 0.7), repeat('x', id % 20)
	FROM (SELECT i * 7919 % 20000 + 1 AS id FROM generate_series(1, 20000) i) s;
CREATE INDEX ix_id ON ix (id);
CREATE UNIQUE INDEX ix_u ON ix (u);
CREATE INDEX ix_kd ON ix (k, d);
CREATE INDEX ix_name ON ix USING hash (name);
CREATE INDEX ix_p ON ix USING gist (p);
CREATE INDEX ix_c ON ix USING gist (c);
ANALYZE ix;
-- the heap copy has the same indexes (its plans stay fast without seqscans)
CREATE TABLE ixh USING heap AS SELECT * FROM ix;
CREATE INDEX ixh_id ON ixh (id);
CREATE UNIQUE INDEX ixh_u ON ixh (u);
CREATE INDEX ixh_kd ON ixh (k, d);
CREATE INDEX ixh_name ON ixh USING hash (name);
CREATE INDEX ixh_p ON ixh USING gist (p);
CREATE INDEX ixh_c ON ixh USING gist (c);
ANALYZE ixh;

-- the plan: the index scan node, with the columns the plan reads (none for
-- a count, the index column only where a qual or the output needs it)
EXPLAIN (COSTS OFF) SELECT name FROM ix WHERE id = 5;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ix WHERE id < 50;
EXPLAIN (COSTS OFF) SELECT id, maybe FROM ix WHERE id BETWEEN 10 AND 20 AND k > 3;
EXPLAIN (COSTS OFF) SELECT ctid, tableoid::regclass FROM ix WHERE id = 5;
EXPLAIN (COSTS OFF) SELECT id, name FROM ix WHERE u = 300;
EXPLAIN (COSTS OFF) SELECT id FROM ix WHERE k = 5 AND d > date '2020-03-01';
EXPLAIN (COSTS OFF) SELECT id, k FROM ix WHERE name = 'n77';
EXPLAIN (COSTS OFF) SELECT id FROM ix WHERE p <@ circle '((5,5),3)';
-- a lossy index (circles as boxes): the recheck reads the circles and
-- removes the rows whose circles do not overlap (Columns lists only what
-- the plan above the index reads)
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT id, k FROM ix WHERE c && circle '((5.5,5.5),1.2)';
-- a condition without columns: a gating Result above the node
EXPLAIN (COSTS OFF) SELECT k FROM ix WHERE id < 10 AND current_setting('enable_seqscan') = 'off';
EXPLAIN (COSTS OFF) SELECT id, name FROM ix WHERE id IN (1, 5, 77);
EXPLAIN (COSTS OFF) SELECT id, name FROM ix WHERE id < 5000 ORDER BY id DESC LIMIT 5;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT id, name FROM ix WHERE id BETWEEN 100 AND 119 AND k % 2 = 0;

-- every query gives heap's rows.  'scans' lists the nodes that read ix in
-- the plan of the comparison itself (so the comparison ran through them);
-- queries with ORDER BY must also give heap's order.  Those reading every
-- column (SELECT *, whole rows) keep the plain Index Scan.
CREATE FUNCTION check_index(q text) RETURNS TABLE (scans text, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	hq text := regexp_replace(q, '\mix\M', 'ixh', 'g');	-- the same query on the heap copy
	cmp text;
	plan jsonb;
BEGIN
	IF q LIKE '%ORDER BY%' THEN
		cmp := format($q$SELECT NOT EXISTS (SELECT row_number() OVER (), row(x.*)::text FROM (%s) x
										  EXCEPT ALL SELECT row_number() OVER (), row(y.*)::text FROM (%s) y)
							AND NOT EXISTS (SELECT row_number() OVER (), row(y.*)::text FROM (%s) y
										  EXCEPT ALL SELECT row_number() OVER (), row(x.*)::text FROM (%s) x)$q$,
					  q, hq, hq, q);
	ELSE
		cmp := format($q$SELECT NOT EXISTS (SELECT row(x.*)::text FROM (%s) x
										  EXCEPT ALL SELECT row(y.*)::text FROM (%s) y)
							AND NOT EXISTS (SELECT row(y.*)::text FROM (%s) y
										  EXCEPT ALL SELECT row(x.*)::text FROM (%s) x)$q$,
					  q, hq, hq, q);
	END IF;
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || cmp INTO plan;
	SELECT string_agg(DISTINCT coalesce(n->>'Custom Plan Provider', n->>'Node Type'), ', ')
		INTO scans
		FROM jsonb_path_query(plan, 'strict $.**') n
		WHERE jsonb_typeof(n) = 'object' AND n->>'Relation Name' = 'ix';
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO nrows;
	EXECUTE cmp INTO same;
	RETURN NEXT;
END $$;

CREATE TABLE index_queries (q text);
INSERT INTO index_queries VALUES
	('SELECT * FROM ix WHERE id = 77'),
	('SELECT id, u, k, name, n, maybe, d, p, c FROM ix WHERE id = 77'),
	('SELECT name FROM ix WHERE id = 20000'),
	('SELECT id FROM ix WHERE id = 0'),
	('SELECT id, name, n FROM ix WHERE id BETWEEN 1000 AND 1300'),
	('SELECT id, maybe FROM ix WHERE id < 200'),
	('SELECT id, maybe FROM ix WHERE id > 19000 AND maybe IS NULL'),
	('SELECT id, pad FROM ix WHERE id BETWEEN 500 AND 600 AND k % 3 = 0'),
	('SELECT count(*), sum(n) FROM ix WHERE id >= 15000'),
	('SELECT id, u FROM ix WHERE u = 300'),
	('SELECT id, name FROM ix WHERE u BETWEEN 30 AND 90'),
	('SELECT id, d FROM ix WHERE k = 5'),
	('SELECT id, maybe FROM ix WHERE k = 5 AND d > date ''2020-06-01'''),
	('SELECT id FROM ix WHERE k IN (1, 2) AND d = date ''2020-04-11'''),
	('SELECT id, k FROM ix WHERE name = ''n777'''),
	('SELECT id FROM ix WHERE name = ''nope'''),
	('SELECT id, k FROM ix WHERE p <@ circle ''((5,5),3)'''),
	('SELECT id FROM ix WHERE p <@ box ''((0,0),(3,3))'' AND k < 50'),
	('SELECT id, k FROM ix WHERE c && circle ''((5.5,5.5),1.2)'''),
	('SELECT id FROM ix WHERE c && circle ''((20,20),5)'''),
	('SELECT id, name FROM ix WHERE id IN (1, 5, 77, 20000, 99999)'),
	('SELECT id FROM ix WHERE id = ANY (''{3,NULL,9}''::int[])'),
	('SELECT id, k FROM ix WHERE u = ANY (ARRAY[3, 6, 7, 60000])'),
	('SELECT ix FROM ix WHERE id BETWEEN 10 AND 40'),
	('SELECT r FROM ix r WHERE u < 100'),
	('SELECT tableoid = ''ix''::regclass AS own, id FROM ix WHERE id < 20'),
	('SELECT ctid IS NOT NULL AS has_ctid, id FROM ix WHERE id < 20'),
	('SELECT id, name FROM ix WHERE id < 5000 ORDER BY id DESC LIMIT 5'),
	('SELECT id, maybe FROM ix WHERE id > 19950 ORDER BY id DESC'),
	('SELECT id, maybe FROM ix WHERE id BETWEEN 300 AND 350 ORDER BY id'),
	('SELECT k, d FROM ix WHERE k = 7 ORDER BY k DESC, d DESC LIMIT 10'),
	('SELECT g, (SELECT name FROM ix WHERE id = g) FROM generate_series(1, 60) g'),
	('SELECT k FROM ix WHERE id < 10 AND current_setting(''enable_seqscan'') = ''off'''),
	('SELECT k FROM ix WHERE id < 10 AND current_setting(''enable_seqscan'') = ''on''');
SELECT q, c.* FROM index_queries, LATERAL check_index(q) c;

-- a scroll cursor moving both ways runs the scan itself backward (no
-- Materialize above it); the rows it returns at each move are heap's
EXPLAIN (COSTS OFF) DECLARE c SCROLL CURSOR FOR
	SELECT id, u FROM ix WHERE id BETWEEN 100 AND 110 ORDER BY id;
BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT id, u FROM ix WHERE id BETWEEN 100 AND 110 ORDER BY id;
FETCH 3 FROM c;
FETCH BACKWARD 2 FROM c;
FETCH PRIOR FROM c;
FETCH PRIOR FROM c;
FETCH NEXT FROM c;
FETCH LAST FROM c;
FETCH BACKWARD 3 FROM c;
FETCH ABSOLUTE 6 FROM c;
FETCH RELATIVE -4 FROM c;
COMMIT;
CREATE FUNCTION cursor_moves(q text) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
	c refcursor;
	r record;
	moves text[] := '{}';
BEGIN
	OPEN c SCROLL FOR EXECUTE q;
	FETCH NEXT FROM c INTO r; moves := moves || r::text;
	FETCH NEXT FROM c INTO r; moves := moves || r::text;
	FETCH NEXT FROM c INTO r; moves := moves || r::text;
	FETCH PRIOR FROM c INTO r; moves := moves || r::text;
	FETCH PRIOR FROM c INTO r; moves := moves || r::text;
	FETCH PRIOR FROM c INTO r; moves := moves || coalesce(r::text, 'none');
	FETCH NEXT FROM c INTO r; moves := moves || r::text;
	FETCH LAST FROM c INTO r; moves := moves || r::text;
	FETCH NEXT FROM c INTO r; moves := moves || coalesce(r::text, 'none');
	FETCH PRIOR FROM c INTO r; moves := moves || r::text;
	FETCH RELATIVE -5 FROM c INTO r; moves := moves || r::text;
	FETCH ABSOLUTE 4 FROM c INTO r; moves := moves || r::text;
	FETCH FIRST FROM c INTO r; moves := moves || r::text;
	CLOSE c;
	RETURN moves;
END $$;
SELECT cursor_moves('SELECT id, name, maybe FROM ix WHERE id BETWEEN 7000 AND 7030 ORDER BY id') =
	   cursor_moves('SELECT id, name, maybe FROM ixh WHERE id BETWEEN 7000 AND 7030 ORDER BY id')
	AS forward_cursor_same,
	   cursor_moves('SELECT id, name FROM ix WHERE id < 12000 ORDER BY id DESC') =
	   cursor_moves('SELECT id, name FROM ixh WHERE id < 12000 ORDER BY id DESC')
	AS backward_cursor_same;

-- the inner side of a merge join: outer keys repeat, so the join restores
-- the index scan to its mark (no Materialize takes that over)
CREATE TABLE mo AS SELECT (i % 20)::int AS k FROM generate_series(1, 60) i;
CREATE INDEX mo_k ON mo (k);
ANALYZE mo;
SET enable_hashjoin = off;
SET enable_nestloop = off;
SET enable_material = off;
SET enable_indexonlyscan = off;
EXPLAIN (COSTS OFF) SELECT mo.k, ix.id FROM mo JOIN ix ON ix.k = mo.k;
-- each of the 20 keys has 3 outer rows and 200 rows in ix: the index scan
-- returns them 3 times (12000 rows and the one past the last key)
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT mo.k, ix.id FROM mo JOIN ix ON ix.k = mo.k;
SELECT q, c.* FROM (VALUES
	('SELECT mo.k, ix.id, ix.d FROM mo JOIN ix ON ix.k = mo.k'),
	('SELECT mo.k, ix.name FROM mo JOIN ix ON ix.k = mo.k WHERE ix.d < date ''2020-02-01'''),
	('SELECT a.id, b.u FROM ix a JOIN ix b ON a.id = b.id WHERE a.id < 3000')) v(q),
	LATERAL check_index(q) c;
RESET enable_nestloop;
RESET enable_material;
RESET enable_indexonlyscan;

-- the inner side of a nested loop: the outer row's value is a parameter of
-- each rescan (duplicates and ids ix lacks among the outer rows), also in
-- an IN list built from it
SET enable_mergejoin = off;
CREATE TABLE nlo AS SELECT i * 37 % 20010 AS id FROM generate_series(1, 2000) i;
INSERT INTO nlo VALUES (5), (5), (-1);
ANALYZE nlo;
EXPLAIN (COSTS OFF) SELECT nlo.id, ix.name FROM nlo JOIN ix ON ix.id = nlo.id;
EXPLAIN (COSTS OFF)
	SELECT nlo.id, ix.id FROM nlo JOIN ix ON ix.id = ANY (ARRAY[nlo.id, nlo.id + 1]);
SELECT q, c.* FROM (VALUES
	('SELECT nlo.id, ix.name, ix.maybe FROM nlo JOIN ix ON ix.id = nlo.id'),
	('SELECT nlo.id, ix.id FROM nlo LEFT JOIN ix ON ix.id = nlo.id'),
	('SELECT nlo.id, ix.id, ix.u FROM nlo JOIN ix ON ix.id = ANY (ARRAY[nlo.id, nlo.id + 1])'),
	('SELECT nlo.id, ix.k, ix.d FROM nlo JOIN ix ON ix.k = nlo.id AND ix.d = date ''2020-01-01'' + nlo.id * 3'),
	('SELECT nlo.id, ix FROM nlo JOIN ix ON ix.u = nlo.id * 3 WHERE nlo.id < 500')) v(q),
	LATERAL check_index(q) c;
-- parallel workers run it as the inner side of a parallel nested loop
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET enable_seqscan = on;
EXPLAIN (COSTS OFF) SELECT count(ix.name), sum(ix.n) FROM nlo JOIN ix ON ix.id = nlo.id;
SELECT count(ix.name), sum(ix.n) FROM nlo JOIN ix ON ix.id = nlo.id;
SELECT count(ixh.name), sum(ixh.n) FROM nlo JOIN ixh ON ixh.id = nlo.id;
SET enable_seqscan = off;
SET max_parallel_workers_per_gather = 0;
RESET enable_hashjoin;
RESET enable_mergejoin;

-- ctid: the index scan gives each row the TID a sequential scan gives it
EXPLAIN (COSTS OFF) SELECT id, ctid FROM ix WHERE id BETWEEN 2000 AND 2400;
CREATE TABLE tids_index AS SELECT id, ctid AS tid FROM ix WHERE id BETWEEN 2000 AND 2400;
SET enable_indexscan = off;
SET enable_seqscan = on;
EXPLAIN (COSTS OFF) SELECT id, ctid FROM ix WHERE id BETWEEN 2000 AND 2400;
CREATE TABLE tids_seq AS SELECT id, ctid AS tid FROM ix WHERE id BETWEEN 2000 AND 2400;
RESET enable_indexscan;
SET enable_seqscan = off;
SELECT count(*) AS rows,
	   NOT EXISTS (TABLE tids_index EXCEPT ALL TABLE tids_seq) AND
	   NOT EXISTS (TABLE tids_seq EXCEPT ALL TABLE tids_index) AS same_tids
	FROM tids_index;
DROP TABLE tids_index, tids_seq;

-- changed rows: deleted ones are gone, updated ones (also of the index
-- key) show their new values, through the index entries old and new
UPDATE ix SET name = 'upd' || id, maybe = NULL WHERE id % 100 = 7;
UPDATE ixh SET name = 'upd' || id, maybe = NULL WHERE id % 100 = 7;
UPDATE ix SET id = id + 100000, n = -n WHERE id % 1000 = 3;
UPDATE ixh SET id = id + 100000, n = -n WHERE id % 1000 = 3;
UPDATE ix SET u = -u WHERE id BETWEEN 50 AND 60;
UPDATE ixh SET u = -u WHERE id BETWEEN 50 AND 60;
UPDATE ix SET c = circle(point(7, 0.5), 0.2) WHERE id BETWEEN 61 AND 64;
UPDATE ixh SET c = circle(point(7, 0.5), 0.2) WHERE id BETWEEN 61 AND 64;
DELETE FROM ix WHERE id % 10 = 9;
DELETE FROM ixh WHERE id % 10 = 9;
SELECT q, c.* FROM (VALUES
	('SELECT id, name, maybe FROM ix WHERE id BETWEEN 1 AND 1000'),
	('SELECT id, name FROM ix WHERE id = 107'),
	('SELECT id, k FROM ix WHERE c && circle ''((7,0.5),3)'''),
	('SELECT id, n FROM ix WHERE id IN (3, 100003)'),
	('SELECT id, n FROM ix WHERE id > 100000'),
	('SELECT id FROM ix WHERE id = 19'),
	('SELECT id, u FROM ix WHERE u BETWEEN -200 AND 200'),
	('SELECT id, name FROM ix WHERE name = ''upd1007'''),
	('SELECT id, name FROM ix WHERE name = ''n1007'''),
	('SELECT id, d FROM ix WHERE k = 9'),
	('SELECT id, d FROM ix WHERE k = 7 AND d < date ''2020-04-01'''),
	('SELECT ix FROM ix WHERE id IN (7, 9, 13, 100013, 50, 59)'),
	('SELECT id FROM ix WHERE id < 2000 ORDER BY id DESC LIMIT 20')) v(q),
	LATERAL check_index(q) c;

-- rows of small inserts, on the table's heap (delta) pages, not in row
-- groups: new ids, an id already there, NULLs
SET colstore.delta_insert_rows = 100;
SELECT count(*) AS row_groups, sum(row_count) AS rows_in_row_groups
	FROM colstore.row_groups('ix');
INSERT INTO ix (id, u, k, name, n, maybe, d, pad)
	SELECT i, i * 3, i % 100, 'new' || i, i / 7.0, NULL, date '2021-01-01', 'y'
	FROM generate_series(20001, 20008) i;
INSERT INTO ix (id, k, name) VALUES (77, 77, 'second77'), (NULL, 1, 'no id');
INSERT INTO ixh (id, u, k, name, n, maybe, d, pad)
	SELECT i, i * 3, i % 100, 'new' || i, i / 7.0, NULL, date '2021-01-01', 'y'
	FROM generate_series(20001, 20008) i;
INSERT INTO ixh (id, k, name) VALUES (77, 77, 'second77'), (NULL, 1, 'no id');
-- the same row groups as before the inserts
SELECT count(*) AS row_groups, sum(row_count) AS rows_in_row_groups
	FROM colstore.row_groups('ix');
SELECT q, c.* FROM (VALUES
	('SELECT * FROM ix WHERE id > 19990'),
	('SELECT id, name FROM ix WHERE id = 77'),
	('SELECT id, name, u FROM ix WHERE u > 59990'),
	('SELECT id, name FROM ix WHERE name = ''new20004'''),
	('SELECT id, d FROM ix WHERE k = 77'),
	('SELECT id, name FROM ix WHERE id IS NULL'),
	('SELECT id, name FROM ix WHERE id > 19995 ORDER BY id DESC LIMIT 6')) v(q),
	LATERAL check_index(q) c;

-- rows this transaction inserted (and then rolls back)
BEGIN;
INSERT INTO ix (id, u, k, name) SELECT i, i * 3, 3, 'tx' || i FROM generate_series(30001, 30010) i;
INSERT INTO ixh (id, u, k, name) SELECT i, i * 3, 3, 'tx' || i FROM generate_series(30001, 30010) i;
UPDATE ix SET name = 'tx-upd' WHERE id = 30005;
UPDATE ixh SET name = 'tx-upd' WHERE id = 30005;
DELETE FROM ix WHERE id = 30006;
DELETE FROM ixh WHERE id = 30006;
SELECT q, c.* FROM (VALUES
	('SELECT id, name FROM ix WHERE id > 30000'),
	('SELECT id, name FROM ix WHERE id = 30005'),
	('SELECT id, u FROM ix WHERE u = 90009'),
	('SELECT id, name FROM ix WHERE name = ''tx30002'''),
	('SELECT id, k, name FROM ix WHERE k = 3 AND d IS NULL')) v(q),
	LATERAL check_index(q) c;
ROLLBACK;
SELECT count(*) AS after_rollback FROM ix WHERE id BETWEEN 30001 AND 30010;

-- a column added later with a default: rows written before it read its
-- missing value, through the index too; and one dropped
ALTER TABLE ix ADD COLUMN extra int DEFAULT 42, ADD COLUMN tag text DEFAULT 'old';
ALTER TABLE ixh ADD COLUMN extra int DEFAULT 42, ADD COLUMN tag text DEFAULT 'old';
ALTER TABLE ix DROP COLUMN pad;
ALTER TABLE ixh DROP COLUMN pad;
INSERT INTO ix (id, u, k, name, extra, tag) VALUES (40001, 120003, 1, 'added', 7, 'new');
INSERT INTO ixh (id, u, k, name, extra, tag) VALUES (40001, 120003, 1, 'added', 7, 'new');
EXPLAIN (COSTS OFF) SELECT extra, tag FROM ix WHERE id < 30;
SELECT q, c.* FROM (VALUES
	('SELECT extra, tag FROM ix WHERE id < 30'),
	('SELECT id, extra FROM ix WHERE id > 19990'),
	('SELECT id, extra, tag FROM ix WHERE u IN (300, 120003)'),
	('SELECT id FROM ix WHERE id < 500 AND extra = 42'),
	('SELECT ix FROM ix WHERE id BETWEEN 20005 AND 40001'),
	('SELECT id, u, k, name, n, maybe, d, c, extra, tag FROM ix WHERE id BETWEEN 20005 AND 40001')) v(q),
	LATERAL check_index(q) c;

-- partitions: each colstore partition's index scan, each row with its
-- partition's tableoid
CREATE TABLE ixp (id int, k int, pad text) PARTITION BY RANGE (id);
CREATE TABLE ixp1 PARTITION OF ixp FOR VALUES FROM (0) TO (10001)
	USING colstore WITH (chunk_size = 1000, autovacuum_enabled = false);
CREATE TABLE ixp2 PARTITION OF ixp FOR VALUES FROM (10001) TO (30000)
	USING colstore WITH (chunk_size = 1000, autovacuum_enabled = false);
INSERT INTO ixp SELECT i, i % 7, 'x' FROM generate_series(1, 20000) i;
CREATE INDEX ON ixp (id);
ANALYZE ixp;
EXPLAIN (COSTS OFF) SELECT tableoid::regclass, id, k FROM ixp WHERE id IN (5, 15000);
SELECT tableoid::regclass, id, k FROM ixp WHERE id IN (5, 15000) ORDER BY id;
SELECT tableoid::regclass, count(*), sum(k), min(id), max(id)
	FROM ixp WHERE id BETWEEN 9000 AND 12000 GROUP BY 1 ORDER BY 1;
DROP TABLE ixp;

-- columns of a by-value type that the index holds and can return (btree)
-- come from the index entries, as in an index-only scan ("Columns From
-- Index", under ANALYZE): key and INCLUDE columns, NULL keys, rows on
-- delta pages, HOT-updated rows (same keys) and rows whose key an UPDATE
-- changed; a text key, a hash index and a lossy match are fetched
CREATE TABLE ixv (a int, b bigint, c date, t text, w int)
	USING colstore WITH (chunk_size = 1000, autovacuum_enabled = false);
INSERT INTO ixv SELECT CASE WHEN i % 50 <> 0 THEN i END, i * 10, date '2024-01-01' + i % 400,
	't' || i, i % 9 FROM generate_series(1, 3000) i;
CREATE INDEX ixv_ab ON ixv (a, b) INCLUDE (c);
CREATE INDEX ixv_t ON ixv (t);
UPDATE ixv SET w = w + 100 WHERE a % 97 = 1;		-- no key changed
UPDATE ixv SET b = b + 1 WHERE a % 89 = 2;		-- a key changed
INSERT INTO ixv VALUES (NULL, NULL, NULL, 'null keys', 1), (5, 51, date '2030-01-01', 't5', 2);
ANALYZE ixv;
CREATE TABLE ixvh USING heap AS SELECT * FROM ixv;
CREATE INDEX ixvh_ab ON ixvh (a, b) INCLUDE (c);
CREATE INDEX ixvh_t ON ixvh (t);
ANALYZE ixvh;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT a, b, c, w FROM ixv WHERE a BETWEEN 1 AND 200;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
	SELECT t, a FROM ixv WHERE t = 't77';
\getenv abs_srcdir PG_ABS_SRCDIR
\set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
\i :same_result_sql
CREATE FUNCTION same_ixv(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	hq text := regexp_replace(q, '\mixv\M', 'ixvh', 'g');
	result boolean;
BEGIN
	result := same_result(q, hq);
	RETURN result;
END $$;
SELECT q, same_ixv(q) FROM (VALUES
	('SELECT a, b, c, w FROM ixv WHERE a BETWEEN 1 AND 3000'),
	('SELECT a, b, c FROM ixv WHERE a IS NULL'),
	('SELECT a, b, c, w FROM ixv WHERE a = 5'),
	('SELECT b, w FROM ixv WHERE a < 500 AND b % 10 = 1'),
	('SELECT a, b, t FROM ixv WHERE t IN (''t77'', ''t1000'', ''null keys'')')) v(q);
-- the inner side of a nested loop, parameterized by the outer row
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT same_ixv('SELECT g.i, ixv.b, ixv.c FROM generate_series(1, 400, 3) g(i) JOIN ixv ON ixv.a = g.i');
RESET enable_hashjoin;
RESET enable_mergejoin;
DROP TABLE ixv, ixvh;
DROP FUNCTION same_ixv(text);

-- not used: UPDATE, DELETE, row locks, xmin, ORDER BY a distance, every
-- column read, parallel index scans, the setting off (each still gives
-- heap's rows); a table of one chunk uses it only on a nested loop's inner
-- side (its repeated probes), a single lookup keeps PostgreSQL's Index Scan
EXPLAIN (COSTS OFF) UPDATE ix SET k = 1 WHERE id = 5;
EXPLAIN (COSTS OFF) DELETE FROM ix WHERE id = 5;
EXPLAIN (COSTS OFF) SELECT id FROM ix WHERE id = 5 FOR UPDATE;
EXPLAIN (COSTS OFF) SELECT id FROM ix WHERE id = 5 FOR SHARE;
EXPLAIN (COSTS OFF) SELECT xmin, id FROM ix WHERE id = 5;
EXPLAIN (COSTS OFF) SELECT id, p FROM ix ORDER BY p <-> point '(10.123, 20.457)' LIMIT 5;
EXPLAIN (COSTS OFF) SELECT ix FROM ix WHERE id = 5;
SELECT q, c.* FROM (VALUES
	('SELECT id, name FROM ix WHERE id BETWEEN 20 AND 40 FOR UPDATE'),
	('SELECT xmin <> 0 AS has_xmin, id FROM ix WHERE id BETWEEN 20 AND 40'),
	('SELECT id, p FROM ix ORDER BY p <-> point ''(10.123, 20.457)'' LIMIT 5')) v(q),
	LATERAL check_index(q) c;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_index_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT count(name) FROM ix WHERE id < 15000;
SELECT count(name) FROM ix WHERE id < 15000;
SELECT count(name) FROM ixh WHERE id < 15000;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE ix_small (id int, v int, w int) USING colstore WITH (chunk_size = 1000, autovacuum_enabled = false);
INSERT INTO ix_small SELECT i, i % 7, i FROM generate_series(1, 500) i;
CREATE INDEX ix_small_id ON ix_small (id);
ANALYZE ix_small;
EXPLAIN (COSTS OFF) SELECT v FROM ix_small WHERE id = 5;
SELECT v FROM ix_small WHERE id = 5;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
EXPLAIN (COSTS OFF) SELECT g.i, s.v FROM generate_series(1, 3) g(i) JOIN ix_small s ON s.id = g.i * 100;
SELECT g.i, s.v FROM generate_series(1, 3) g(i) JOIN ix_small s ON s.id = g.i * 100 ORDER BY g.i;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_material;
DROP TABLE ix_small;
SET colstore.enable_custom_index_scan = off;
EXPLAIN (COSTS OFF) SELECT name FROM ix WHERE id = 5;
SELECT q, c.* FROM (VALUES
	('SELECT id, name FROM ix WHERE id BETWEEN 1 AND 300')) v(q),
	LATERAL check_index(q) c;
RESET colstore.enable_custom_index_scan;

DROP TABLE ix, ixh, index_queries, mo, nlo;
DROP FUNCTION check_index(text);
DROP FUNCTION cursor_moves(text);
