-- ColstoreIndexScan answers an equality probe of a unique integer key from
-- the row groups when the table holds the key in order (unique_probe.c):
-- the row found is returned only if the snapshot sees it and it is the row
-- itself; anything else goes to the index.  Every query is compared with
-- the same query on a heap twin, and 'answered' says how many probes the
-- row groups answered (EXPLAIN ANALYZE's "Rows From Row Groups").
SET colstore.auto_compaction = off;
SET max_parallel_workers_per_gather = 0;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_memoize = off;
SET enable_bitmapscan = off;
SET colstore.enable_key_range_join = off;
SET colstore.enable_merge_skip = off;
CREATE TABLE up (k bigint PRIMARY KEY, d int, pad text) USING colstore
	WITH (autovacuum_enabled = false);
INSERT INTO up SELECT g * 4, g, repeat('p', g % 13) FROM generate_series(1, 30000) g;
CREATE TABLE uph (k bigint PRIMARY KEY, d int, pad text) WITH (autovacuum_enabled = false);
INSERT INTO uph SELECT * FROM up;
-- probe keys: every fourth one absent, in key order and in no order, NULLs
CREATE TABLE probes (k bigint, k4 int, k2 smallint, seq int) WITH (autovacuum_enabled = false);
INSERT INTO probes SELECT g, g::int, (g % 30000)::smallint, g FROM generate_series(-10, 130000, 7) g;
INSERT INTO probes SELECT (hashint4(g) % 130000)::bigint, NULL, NULL, 1000000 + g FROM generate_series(1, 8000) g;
INSERT INTO probes VALUES (NULL, NULL, NULL, 0);
ANALYZE up, uph, probes;

\getenv abs_srcdir PG_ABS_SRCDIR
\set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
\i :same_result_sql
-- the probes the row groups answered in q's plan (0 if none), and whether
-- q returns what the same query on the heap twin returns
CREATE FUNCTION check_probe(q text) RETURNS TABLE (answered bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q INTO plan;
	SELECT coalesce(sum(m[1]::bigint), 0) INTO answered
		FROM regexp_matches(plan::text, '"Rows From Row Groups": ([0-9]+)', 'g') m;
	same := same_result(q, regexp_replace(q, '\mup\M', 'uph', 'g'));
	RETURN NEXT;
END $$;

EXPLAIN (COSTS OFF) SELECT p.seq, u.d FROM probes p JOIN up u ON u.k = p.k;

-- 1. probes in key order, in no order, cross-type (int4 and int2 keys
-- against a bigint column), NULL keys; with the probe off for comparison
SELECT q, answered > 0 AS answered, same FROM (VALUES
	('SELECT p.seq, u.d FROM probes p JOIN up u ON u.k = p.k WHERE p.seq < 1000000'),
	('SELECT p.seq, u.d FROM probes p JOIN up u ON u.k = p.k WHERE p.seq >= 1000000'),
	('SELECT p.seq, u.k, u.d FROM probes p JOIN up u ON u.k = p.k4'),
	('SELECT p.seq, u.k FROM probes p JOIN up u ON u.k = p.k2'),
	('SELECT p.seq, u.d FROM probes p LEFT JOIN up u ON u.k = p.k WHERE p.k IS NULL OR p.k % 7 = 0')
) v(q), check_probe(q) c;
SET colstore.enable_unique_probe = off;
SELECT answered, same FROM check_probe('SELECT p.seq, u.d FROM probes p JOIN up u ON u.k = p.k');
RESET colstore.enable_unique_probe;
-- a constant key: one probe, too few to read the row groups for; every
-- column read (a plain Index Scan)
SELECT answered, same FROM check_probe('SELECT * FROM up WHERE k = 400');
SELECT answered, same FROM check_probe('SELECT p.seq, u.k, u.d, u.pad FROM probes p JOIN up u ON u.k = p.k');

-- 2. deleted rows, a changed key, changed values, a key deleted and
-- inserted again (on a heap page): the row groups answer for the rest
CREATE FUNCTION change_both(sql text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE sql;
	EXECUTE regexp_replace(sql, '\mup\M', 'uph', 'g');
END $$;
SELECT change_both('DELETE FROM up WHERE k % 40 = 0');
SELECT change_both('UPDATE up SET k = k + 1 WHERE k % 36 = 0');
SELECT change_both('UPDATE up SET d = -d WHERE k % 28 = 0');
SELECT change_both('DELETE FROM up WHERE k = 400');
SELECT change_both('INSERT INTO up VALUES (400, 7, ''again'')');
SELECT q, answered > 0 AS answered, same FROM (VALUES
	('SELECT p.seq, u.k, u.d FROM probes p JOIN up u ON u.k = p.k'),
	('SELECT p.seq, u.k, u.d FROM probes p JOIN up u ON u.k = p.k + 1'),
	('SELECT p.seq, u.d FROM probes p JOIN up u ON u.k = p.k WHERE p.seq % 5 = 0')
) v(q), check_probe(q) c;
SELECT d, pad FROM up WHERE k = 400;

-- 3. an aborted insert's keys are not found
BEGIN;
INSERT INTO up SELECT g * 4, g, 'aborted' FROM generate_series(30001, 40000) g;
ROLLBACK;
SELECT answered > 0 AS answered, same
	FROM check_probe('SELECT p.seq, u.k, u.d FROM probes p JOIN up u ON u.k = p.k');

-- 4. a unique index created after an UPDATE changed its column: the row
-- group still stores the old value, which no probe may find; the new one
-- is found (through the index)
CREATE TABLE uc (id int, c int, pad text) USING colstore WITH (autovacuum_enabled = false);
INSERT INTO uc SELECT g, g * 2, 'x' FROM generate_series(1, 20000) g;
CREATE TABLE uch (id int, c int, pad text) WITH (autovacuum_enabled = false);
INSERT INTO uch SELECT * FROM uc;
UPDATE uc SET c = 100001 WHERE c = 1000;
UPDATE uch SET c = 100001 WHERE c = 1000;
CREATE UNIQUE INDEX uc_c ON uc (c);
CREATE UNIQUE INDEX uch_c ON uch (c);
ANALYZE uc, uch;
SELECT count(*) AS matched, sum(u.id) FROM probes p JOIN uc u ON u.c = p.k4;
SELECT count(*) AS matched, sum(u.id) FROM probes p JOIN uch u ON u.c = p.k4;
SELECT (SELECT count(*) FROM probes p JOIN uc u ON u.c = p.k4 WHERE p.k4 = 1000) AS old_value,
	   (SELECT count(*) FROM (VALUES (100001)) p(k) JOIN uc u ON u.c = p.k) AS new_value;

-- 5. not used: SERIALIZABLE, a non-unique index, a table not in key order,
-- keys that do not fit in work_mem
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT answered, same FROM check_probe('SELECT p.seq, u.d FROM probes p JOIN up u ON u.k = p.k');
COMMIT;
CREATE TABLE un (k int, d int, pad text) USING colstore WITH (autovacuum_enabled = false);
INSERT INTO un SELECT g, g, 'n' FROM generate_series(1, 20000) g;
CREATE INDEX un_k ON un (k);
CREATE TABLE unh (k int, d int, pad text) WITH (autovacuum_enabled = false);
INSERT INTO unh SELECT * FROM un;
CREATE INDEX unh_k ON unh (k);
CREATE TABLE ur (k int PRIMARY KEY, d int, pad text) USING colstore WITH (autovacuum_enabled = false);
INSERT INTO ur SELECT (g * 7919) % 20011, g, 'r' FROM generate_series(1, 20000) g;
CREATE TABLE urh (k int PRIMARY KEY, d int, pad text) WITH (autovacuum_enabled = false);
INSERT INTO urh SELECT * FROM ur;
ANALYZE un, unh, ur, urh;
SELECT answered, same_result(q, replace(q, 'JOIN un u', 'JOIN unh u')) AS same
	FROM (VALUES ('SELECT p.seq, u.d FROM probes p JOIN un u ON u.k = p.k4')) v(q), check_probe(q) c;
SELECT answered, same_result(q, replace(q, 'JOIN ur u', 'JOIN urh u')) AS same
	FROM (VALUES ('SELECT p.seq, u.d FROM probes p JOIN ur u ON u.k = p.k4')) v(q), check_probe(q) c;
-- (a 10,000-value chunk of bigints takes 80 kB)
SET work_mem = '64kB';
SELECT answered, same
	FROM check_probe('SELECT p.seq, u.d FROM probes p JOIN up u ON u.k = p.k WHERE p.seq >= 1000000');
RESET work_mem;

DROP TABLE up, uph, probes, uc, uch, un, unh, ur, urh;
DROP FUNCTION check_probe(text), change_both(text);
