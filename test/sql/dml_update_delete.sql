-- UPDATE and DELETE on colstore tables in a single session: every statement gives
-- exactly heap's result (this expected output was produced by the same statements on
-- heap tables).  Rows affected by more than one row per statement are returned
-- through a CTE and sorted, so scan order never shows.
SET max_parallel_workers_per_gather = 0;

CREATE TABLE t (id int PRIMARY KEY, k int, v text) USING colstore;
CREATE INDEX t_k ON t (k);
INSERT INTO t SELECT i, i % 5, 'v' || i FROM generate_series(1, 20) i;

-- WHERE via sequential scan
UPDATE t SET v = 'seq ' || id WHERE k = 1;
DELETE FROM t WHERE k = 2;
SELECT * FROM t ORDER BY id;

-- WHERE via index scans (primary key and a secondary index)
SET enable_seqscan = off;
UPDATE t SET v = 'idx ' || id WHERE id = 3;
UPDATE t SET v = 'idx k ' || id WHERE k = 3;
DELETE FROM t WHERE id = 4;
DELETE FROM t WHERE k = 4 AND id > 10;
SELECT * FROM t ORDER BY id;
-- the secondary index no longer finds old values of updated rows
UPDATE t SET k = 100 WHERE id = 5;
SELECT * FROM t WHERE k = 0 ORDER BY id;
SELECT * FROM t WHERE k = 100 ORDER BY id;
SELECT * FROM t WHERE id = 5;
RESET enable_seqscan;
SELECT * FROM t WHERE k IN (0, 100) ORDER BY id;

-- RETURNING old and new values
UPDATE t SET v = 'ret' WHERE id = 1 RETURNING id, k, v;
WITH u AS (UPDATE t SET k = k + 10 WHERE k = 3 RETURNING id, k, v)
	SELECT * FROM u ORDER BY id;
WITH old AS (SELECT * FROM t WHERE id = 6),
	 u AS (UPDATE t SET v = upper(t.v) FROM old WHERE t.id = old.id
		RETURNING t.id, old.v AS old_v, t.v AS new_v)
	SELECT * FROM u;
DELETE FROM t WHERE id = 1 RETURNING *;
WITH d AS (DELETE FROM t WHERE k = 13 RETURNING *) SELECT * FROM d ORDER BY id;
-- the main query sees the table as before the data-modifying CTE
WITH u AS (UPDATE t SET v = 'cte' WHERE id = 9 RETURNING v)
	SELECT (SELECT v FROM t WHERE id = 9) AS seen_by_query, u.v AS returned FROM u;
SELECT * FROM t ORDER BY id;

-- a row updated twice in one transaction; update then delete; delete and roll back
CREATE TABLE s (id int PRIMARY KEY, v text, n int) USING colstore;
INSERT INTO s VALUES (1, 'a', 0), (2, 'b', 0), (3, 'c', 0), (4, 'd', 0);
BEGIN;
UPDATE s SET v = v || '1', n = n + 1 WHERE id = 1;
UPDATE s SET v = v || '2', n = n + 1 WHERE id = 1;
SELECT * FROM s WHERE id = 1;
UPDATE s SET v = 'gone soon' WHERE id = 2;
DELETE FROM s WHERE id = 2;
SELECT * FROM s ORDER BY id;
COMMIT;
SELECT * FROM s ORDER BY id;
BEGIN;
DELETE FROM s WHERE id = 3;
UPDATE s SET n = 99 WHERE id = 3;
SELECT count(*) FROM s;
ROLLBACK;
SELECT * FROM s ORDER BY id;
BEGIN;
UPDATE s SET v = 'rolled back' WHERE id = 4;
UPDATE s SET v = 'rolled back twice' WHERE id = 4;
ROLLBACK;
SELECT * FROM s ORDER BY id;

-- subtransactions
BEGIN;
UPDATE s SET v = 'one' WHERE id = 1;
SAVEPOINT a;
UPDATE s SET v = 'two' WHERE id = 1;
DELETE FROM s WHERE id = 3;
INSERT INTO s VALUES (5, 'in savepoint', 0);
SELECT * FROM s ORDER BY id;
ROLLBACK TO a;
SELECT * FROM s ORDER BY id;
UPDATE s SET v = 'three' WHERE id = 1;
SAVEPOINT b;
UPDATE s SET v = 'four' WHERE id = 1;
DELETE FROM s WHERE id = 4;
RELEASE b;
SAVEPOINT c;
UPDATE s SET v = 'five' WHERE id = 1;
SAVEPOINT d;
UPDATE s SET v = 'six' WHERE id = 1;
ROLLBACK TO c;
SELECT * FROM s ORDER BY id;
COMMIT;
SELECT * FROM s ORDER BY id;
-- an error inside a subtransaction undoes only that subtransaction's changes
BEGIN;
UPDATE s SET n = 1 WHERE id = 1;
SAVEPOINT e;
UPDATE s SET n = 2 WHERE id = 1;
UPDATE s SET n = 1 / 0 WHERE id = 3;
ROLLBACK TO e;
SELECT * FROM s ORDER BY id;
COMMIT;
SELECT * FROM s ORDER BY id;

-- a cursor keeps the snapshot it was opened with
BEGIN;
DECLARE cold CURSOR FOR SELECT * FROM s ORDER BY id;
UPDATE s SET v = 'after cursor' WHERE id = 1;
DELETE FROM s WHERE id = 3;
FETCH ALL FROM cold;
SELECT * FROM s ORDER BY id;
COMMIT;

-- primary key and non-indexed columns
CREATE TABLE pk (id int PRIMARY KEY, v text, w int) USING colstore;
INSERT INTO pk SELECT i, 'v' || i, i * 10 FROM generate_series(1, 10) i;
UPDATE pk SET id = id + 100 WHERE id <= 3;
UPDATE pk SET w = -w WHERE id > 8;
SELECT * FROM pk ORDER BY id;
SET enable_seqscan = off;
SELECT * FROM pk WHERE id = 1;
SELECT * FROM pk WHERE id = 101;
SELECT * FROM pk WHERE id BETWEEN 100 AND 200 ORDER BY id;
RESET enable_seqscan;
-- moving every key at once (no key is shared between old and new values)
UPDATE pk SET id = id + 1000;
SELECT min(id), max(id), count(*) FROM pk;
UPDATE pk SET id = id - 1000;
-- unique violations caused by UPDATE
UPDATE pk SET id = 5 WHERE id = 6;
UPDATE pk SET id = 7;
SELECT * FROM pk ORDER BY id;
BEGIN;
UPDATE pk SET v = 'lost' WHERE id = 4;
UPDATE pk SET id = 5 WHERE id = 4;
ROLLBACK;
SELECT * FROM pk WHERE id IN (4, 5) ORDER BY id;
-- the key value freed by an UPDATE can be taken by another row in the same transaction
BEGIN;
UPDATE pk SET id = 50 WHERE id = 5;
UPDATE pk SET id = 5 WHERE id = 6;
INSERT INTO pk VALUES (6, 'new six', 0);
COMMIT;
SELECT * FROM pk WHERE id IN (5, 6, 50) ORDER BY id;
-- a deferrable unique constraint checked at commit allows shifting keys by one
CREATE TABLE dk (id int UNIQUE DEFERRABLE INITIALLY DEFERRED, v text) USING colstore;
INSERT INTO dk SELECT i, 'd' || i FROM generate_series(1, 5) i;
UPDATE dk SET id = id + 1;
SELECT * FROM dk ORDER BY id;
BEGIN;
UPDATE dk SET id = 2 WHERE id = 6;
COMMIT;
SELECT * FROM dk ORDER BY id;

-- constraints checked on the new row version
CREATE TABLE ck (id int PRIMARY KEY, q int NOT NULL CHECK (q >= 0),
	g int GENERATED ALWAYS AS (q * 2) STORED, dflt text DEFAULT 'dflt') USING colstore;
INSERT INTO ck (id, q) VALUES (1, 1), (2, 2);
UPDATE ck SET q = -1 WHERE id = 1;
UPDATE ck SET q = NULL WHERE id = 2;
UPDATE ck SET q = q + 10, dflt = 'changed' WHERE id = 1;
UPDATE ck SET dflt = DEFAULT WHERE id = 1;
UPDATE ck SET (q, dflt) = (SELECT 7, 'row ' || 7) WHERE id = 2;
SELECT * FROM ck ORDER BY id;

-- an UPDATE that changes nothing visible
SELECT * FROM s ORDER BY id;
UPDATE s SET v = v, n = n;
UPDATE s SET v = v WHERE id = 1;
SELECT * FROM s ORDER BY id;

-- UPDATE ... FROM and DELETE ... USING
CREATE TABLE tgt (id int PRIMARY KEY, v text, n int) USING colstore;
CREATE TABLE chg (id int, nv text, op text) USING colstore;
INSERT INTO tgt SELECT i, 'old' || i, i FROM generate_series(1, 10) i;
INSERT INTO chg VALUES (2, 'new2', 'u'), (4, 'new4', 'u'), (5, NULL, 'd'),
	(7, NULL, 'd'), (11, 'new11', 'u');
UPDATE tgt SET v = chg.nv, n = tgt.n * 100 FROM chg WHERE tgt.id = chg.id AND chg.op = 'u';
DELETE FROM tgt USING chg WHERE tgt.id = chg.id AND chg.op = 'd';
SELECT * FROM tgt ORDER BY id;
WITH u AS (UPDATE tgt SET n = tgt.n + 1 FROM chg WHERE tgt.id = chg.id
	RETURNING tgt.id, tgt.n, chg.op) SELECT * FROM u ORDER BY id;
WITH d AS (DELETE FROM tgt USING chg WHERE tgt.id + 1 = chg.id
	RETURNING tgt.*, chg.nv) SELECT * FROM d ORDER BY id;
-- a self join
UPDATE tgt a SET n = b.n + 1000 FROM tgt b WHERE b.id = a.id + 1;
SELECT * FROM tgt ORDER BY id;
-- subqueries in WHERE
DELETE FROM tgt WHERE id IN (SELECT id FROM chg WHERE op = 'u');
UPDATE tgt SET v = 'max' WHERE n = (SELECT max(n) FROM tgt);
SELECT * FROM tgt ORDER BY id;

-- WHERE CURRENT OF
CREATE TABLE cur (id int PRIMARY KEY, v text) USING colstore;
INSERT INTO cur SELECT i, 'c' || i FROM generate_series(1, 6) i;
BEGIN;
DECLARE c1 CURSOR FOR SELECT * FROM cur WHERE id >= 2 ORDER BY id FOR UPDATE;
FETCH NEXT FROM c1;
UPDATE cur SET v = 'current 2' WHERE CURRENT OF c1;
FETCH NEXT FROM c1;
DELETE FROM cur WHERE CURRENT OF c1;
FETCH NEXT FROM c1;
UPDATE cur SET v = 'current 4' WHERE CURRENT OF c1 RETURNING *;
CLOSE c1;
DECLARE c2 CURSOR FOR SELECT * FROM cur WHERE id = 5;
FETCH NEXT FROM c2;
DELETE FROM cur WHERE CURRENT OF c2 RETURNING *;
CLOSE c2;
DECLARE c3 CURSOR FOR SELECT * FROM cur WHERE id = 6;
FETCH NEXT FROM c3;
UPDATE cur SET v = 'current 6' WHERE CURRENT OF c3;
UPDATE cur SET v = v || ' again' WHERE CURRENT OF c3;
CLOSE c3;
COMMIT;
SELECT * FROM cur ORDER BY id;
-- through an index scan
SET enable_seqscan = off;
BEGIN;
DECLARE c4 CURSOR FOR SELECT * FROM cur WHERE id = 1;
FETCH NEXT FROM c4;
UPDATE cur SET v = 'current 1 by index' WHERE CURRENT OF c4;
CLOSE c4;
COMMIT;
RESET enable_seqscan;
SELECT * FROM cur ORDER BY id;

-- MERGE
CREATE TABLE m (id int PRIMARY KEY, v text, n int) USING colstore;
CREATE TABLE ms (id int, v text, op text) USING colstore;
INSERT INTO m SELECT i, 'm' || i, i FROM generate_series(1, 6) i;
INSERT INTO ms VALUES (1, 'upd1', 'u'), (2, NULL, 'd'), (3, 'keep3', 'k'),
	(7, 'ins7', 'i'), (8, 'skip8', 'k'), (5, 'upd5', 'u');
MERGE INTO m USING ms ON m.id = ms.id
	WHEN MATCHED AND ms.op = 'd' THEN DELETE
	WHEN MATCHED AND ms.op = 'u' THEN UPDATE SET v = ms.v, n = m.n * 10
	WHEN MATCHED THEN DO NOTHING
	WHEN NOT MATCHED AND ms.op = 'i' THEN INSERT VALUES (ms.id, ms.v, 0)
	WHEN NOT MATCHED THEN DO NOTHING;
SELECT * FROM m ORDER BY id;
-- again: the updated rows are matched, the deleted one is inserted back
MERGE INTO m USING ms ON m.id = ms.id
	WHEN MATCHED AND ms.op = 'u' THEN UPDATE SET n = m.n + 1
	WHEN NOT MATCHED AND ms.op = 'd' THEN INSERT VALUES (ms.id, 'back', -1);
SELECT * FROM m ORDER BY id;
-- MERGE from a VALUES list, and a row matched twice
MERGE INTO m USING (VALUES (6, 'six'), (9, 'nine')) AS x(id, v) ON m.id = x.id
	WHEN MATCHED THEN UPDATE SET v = x.v
	WHEN NOT MATCHED THEN INSERT (id, v) VALUES (x.id, x.v);
MERGE INTO m USING (VALUES (6, 'a'), (6, 'b')) AS x(id, v) ON m.id = x.id
	WHEN MATCHED THEN UPDATE SET v = x.v;
BEGIN;
MERGE INTO m USING (SELECT id FROM m WHERE n < 0) AS x ON m.id = x.id
	WHEN MATCHED THEN DELETE;
SELECT * FROM m ORDER BY id;
ROLLBACK;
SELECT * FROM m ORDER BY id;

-- INSERT ... ON CONFLICT
CREATE TABLE oc (id int PRIMARY KEY, v text, hits int DEFAULT 0, u int UNIQUE) USING colstore;
INSERT INTO oc (id, v, u) VALUES (1, 'one', 10), (2, 'two', 20), (3, 'three', 30);
INSERT INTO oc (id, v) VALUES (1, 'ONE') ON CONFLICT (id)
	DO UPDATE SET v = EXCLUDED.v, hits = oc.hits + 1 RETURNING id, v, hits, u;
INSERT INTO oc (id, v) VALUES (1, 'uno'), (2, 'dos'), (4, 'cuatro'), (3, 'tres')
	ON CONFLICT (id) DO UPDATE SET v = oc.v || '/' || EXCLUDED.v, hits = oc.hits + 1
	WHERE oc.id <> 2
	RETURNING id, v, hits, u;
INSERT INTO oc (id, v) VALUES (2, 'never'), (5, 'cinco') ON CONFLICT DO NOTHING RETURNING *;
INSERT INTO oc (id, v) VALUES (2, 'never') ON CONFLICT (id) DO NOTHING;
INSERT INTO oc (id, v, u) VALUES (9, 'by u', 30) ON CONFLICT (u)
	DO UPDATE SET v = EXCLUDED.v || ' ' || EXCLUDED.id RETURNING *;
INSERT INTO oc (id, v) VALUES (1, 'x') ON CONFLICT ON CONSTRAINT oc_pkey
	DO UPDATE SET hits = oc.hits + 100 WHERE oc.hits > 1000 RETURNING *;
-- the same key twice in one statement
INSERT INTO oc (id, v) VALUES (6, 'a'), (6, 'b') ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v;
-- a conflict on the other unique index is an error
INSERT INTO oc (id, v, u) VALUES (1, 'x', 20) ON CONFLICT (id) DO UPDATE SET u = EXCLUDED.u;
-- the conflict action changes the key
INSERT INTO oc (id, v) VALUES (5, 'moved') ON CONFLICT (id) DO UPDATE SET id = 50, v = EXCLUDED.v;
-- rows updated earlier in the same transaction
BEGIN;
UPDATE oc SET v = 'updated first' WHERE id = 4;
INSERT INTO oc (id, v) VALUES (4, 'then upserted') ON CONFLICT (id)
	DO UPDATE SET v = oc.v || ' / ' || EXCLUDED.v RETURNING id, v, hits;
DELETE FROM oc WHERE id = 1;
INSERT INTO oc (id, v) VALUES (1, 'reinserted') ON CONFLICT (id)
	DO UPDATE SET v = 'not this' RETURNING id, v, hits;
COMMIT;
SELECT * FROM oc ORDER BY id;
SET enable_seqscan = off;
SELECT * FROM oc WHERE id = 1;
SELECT * FROM oc WHERE u = 30;
RESET enable_seqscan;

-- row triggers see OLD and NEW; BEFORE triggers can change or skip the row
CREATE TABLE tr (id int PRIMARY KEY, v text) USING colstore;
INSERT INTO tr VALUES (1, 'a'), (2, 'b'), (3, 'protected'), (4, 'd');
CREATE FUNCTION tr_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		RAISE NOTICE '% % on %: old % new %', TG_WHEN, TG_OP, TG_TABLE_NAME, OLD, NEW;
		IF TG_WHEN = 'BEFORE' THEN
			IF OLD.v = 'protected' THEN
				RETURN NULL;
			END IF;
			NEW.v := NEW.v || ' (trg)';
		END IF;
		RETURN NEW;
	ELSE
		RAISE NOTICE '% % on %: old %', TG_WHEN, TG_OP, TG_TABLE_NAME, OLD;
		IF TG_WHEN = 'BEFORE' AND OLD.v = 'protected' THEN
			RETURN NULL;
		END IF;
		RETURN OLD;
	END IF;
END
$$;
CREATE TRIGGER tr_b BEFORE UPDATE OR DELETE ON tr FOR EACH ROW EXECUTE FUNCTION tr_row();
CREATE TRIGGER tr_a AFTER UPDATE OR DELETE ON tr FOR EACH ROW EXECUTE FUNCTION tr_row();
UPDATE tr SET v = 'A' WHERE id = 1;
UPDATE tr SET v = 'never' WHERE id = 3;
DELETE FROM tr WHERE id = 3;
DELETE FROM tr WHERE id = 2 RETURNING *;
UPDATE tr SET v = 'returned' WHERE id = 4 RETURNING *;
SELECT * FROM tr ORDER BY id;
-- a conditional trigger and a column trigger
CREATE TRIGGER tr_when AFTER UPDATE ON tr FOR EACH ROW
	WHEN (OLD.v IS DISTINCT FROM NEW.v) EXECUTE FUNCTION tr_row();
CREATE TRIGGER tr_col BEFORE UPDATE OF id ON tr FOR EACH ROW EXECUTE FUNCTION tr_row();
DROP TRIGGER tr_b ON tr;
DROP TRIGGER tr_a ON tr;
UPDATE tr SET v = v WHERE id = 1;
UPDATE tr SET v = 'changed' WHERE id = 1;
UPDATE tr SET id = 40 WHERE id = 4;
SELECT * FROM tr ORDER BY id;
DROP TRIGGER tr_when ON tr;
DROP TRIGGER tr_col ON tr;

-- statement triggers with transition tables
CREATE FUNCTION tr_upd_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE NOTICE '% %: % old rows (%), % new rows (%)', TG_WHEN, TG_OP,
		(SELECT count(*) FROM old_rows), (SELECT string_agg(id || '=' || v, ', ' ORDER BY id) FROM old_rows),
		(SELECT count(*) FROM new_rows), (SELECT string_agg(id || '=' || v, ', ' ORDER BY id) FROM new_rows);
	RETURN NULL;
END
$$;
CREATE FUNCTION tr_del_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE NOTICE '% %: % old rows (%)', TG_WHEN, TG_OP,
		(SELECT count(*) FROM old_rows), (SELECT string_agg(id || '=' || v, ', ' ORDER BY id) FROM old_rows);
	RETURN NULL;
END
$$;
CREATE TRIGGER tr_us AFTER UPDATE ON tr REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION tr_upd_stmt();
CREATE TRIGGER tr_ds AFTER DELETE ON tr REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION tr_del_stmt();
INSERT INTO tr VALUES (5, 'e'), (6, 'f'), (7, 'g');
UPDATE tr SET v = v || '+' WHERE id >= 5;
UPDATE tr SET v = 'none' WHERE id > 1000;
DELETE FROM tr WHERE id IN (5, 7);
INSERT INTO tr VALUES (6, 'upsert') ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v;
MERGE INTO tr USING (VALUES (1, 'merged')) x(id, v) ON tr.id = x.id
	WHEN MATCHED THEN UPDATE SET v = x.v;
SELECT * FROM tr ORDER BY id;

-- a larger table: more than one chunk, with and without ColstoreAgg
CREATE TABLE big (id int PRIMARY KEY, g int, v text) USING colstore;
INSERT INTO big SELECT i, i % 100, 'row ' || i FROM generate_series(1, 20000) i;
UPDATE big SET g = g + 1000, v = v || ' updated' WHERE id % 4 = 0;
SELECT count(*), sum(id), sum(g), min(g), max(g), count(*) FILTER (WHERE v LIKE '%updated') FROM big;
SET colstore.enable_custom_agg = on;
SELECT count(*), sum(id), sum(g), min(g), max(g) FROM big;
SELECT count(*), sum(g) FROM big WHERE id > 15000;
SELECT count(*), sum(g), max(g) FROM big WHERE g >= 1000;
-- deletes, and an update that is rolled back
DELETE FROM big WHERE id % 10 = 1;
BEGIN;
UPDATE big SET g = 0;
DELETE FROM big WHERE id > 100;
SELECT count(*), sum(g) FROM big;
ROLLBACK;
SELECT count(*), sum(id), sum(g), min(g), max(g) FROM big;
SELECT count(*), sum(g) FROM big WHERE id BETWEEN 5000 AND 15000;
-- in a transaction that updated rows, aggregates see its own changes
BEGIN;
UPDATE big SET g = -1 WHERE id <= 10000;
SELECT count(*), sum(g), min(g), max(g) FROM big;
COMMIT;
SELECT count(*), sum(g), min(g), max(g) FROM big;
SET colstore.enable_custom_agg = off;
SELECT count(*), sum(id), sum(g), min(g), max(g) FROM big;
RESET colstore.enable_custom_agg;
SELECT g, count(*) FROM big WHERE g < 1000 GROUP BY g ORDER BY g LIMIT 5;
SET enable_seqscan = off;
SELECT * FROM big WHERE id IN (1, 2, 4, 11, 12, 10000, 10001, 20000) ORDER BY id;
RESET enable_seqscan;
SELECT * FROM big WHERE id IN (1, 2, 4, 11, 12, 10000, 10001, 20000) ORDER BY id;

-- VACUUM and ANALYZE after updates and deletes
VACUUM big;
ANALYZE big;
VACUUM ANALYZE t;
SELECT count(*), sum(id), sum(g), min(g), max(g) FROM big;
SELECT * FROM t ORDER BY id;
DELETE FROM big WHERE id > 10000;
VACUUM big;
SELECT count(*), sum(id), sum(g) FROM big;
UPDATE big SET g = g + 1 WHERE id % 2 = 0;
INSERT INTO big SELECT i, 7, 'after vacuum' FROM generate_series(10001, 10100) i;
VACUUM (FREEZE) big;
SELECT count(*), sum(id), sum(g) FROM big;
VACUUM FULL big;
SELECT count(*), sum(id), sum(g) FROM big;
SET enable_seqscan = off;
SELECT * FROM big WHERE id IN (2, 3, 9999, 10001) ORDER BY id;
RESET enable_seqscan;
SET colstore.enable_custom_agg = on;
DELETE FROM big;
SELECT count(*), sum(id) FROM big;
VACUUM big;
SELECT count(*), sum(id) FROM big;
RESET colstore.enable_custom_agg;

-- values bigger than 3 kB
CREATE TABLE tx (id int PRIMARY KEY, t text) USING colstore;
INSERT INTO tx VALUES (1, repeat('x', 5000)), (2, 'small'), (3, repeat('z', 4000) || 'end');
UPDATE tx SET t = repeat('y', 6000) WHERE id = 2;
UPDATE tx SET t = t || 'more' WHERE id = 1;
UPDATE tx SET t = 'short now' WHERE id = 3;
SELECT id, length(t), md5(t), left(t, 3), right(t, 4) FROM tx ORDER BY id;
UPDATE tx SET t = t || repeat(md5(id::text), 200) WHERE id IN (1, 3);
DELETE FROM tx WHERE id = 2;
SELECT id, length(t), md5(t), left(t, 3), right(t, 4) FROM tx ORDER BY id;

-- NULLs
CREATE TABLE nl (id int PRIMARY KEY, a int, b text) USING colstore;
INSERT INTO nl VALUES (1, NULL, NULL), (2, 2, 'two'), (3, NULL, 'three'), (4, 4, NULL);
UPDATE nl SET a = 10 WHERE a IS NULL;
UPDATE nl SET b = NULL WHERE id = 2;
UPDATE nl SET b = 'was null' WHERE b IS NULL AND id <> 2;
DELETE FROM nl WHERE a IS NULL;
SELECT * FROM nl ORDER BY id;
UPDATE nl SET a = NULL, b = NULL;
SELECT id, a IS NULL AS a_null, b IS NULL AS b_null FROM nl ORDER BY id;
DELETE FROM nl WHERE b IS NULL AND id = 1;
SELECT * FROM nl ORDER BY id;

-- many types
CREATE TABLE ty (id int PRIMARY KEY, i2 int2, i4 int4, i8 int8, n numeric, f8 float8,
	t text, vc varchar(10), d date, ts timestamp, tstz timestamptz, b bool, u uuid,
	jb jsonb, arr int[]) USING colstore;
INSERT INTO ty VALUES
	(1, 1, 10, 10000000000, 1.5, 0.25, 'one', 'vc1', '2020-01-01', '2020-01-01 10:00',
	 '2020-01-01 10:00+00', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"a": 1}', '{1,2,3}'),
	(2, 2, 20, 20000000000, 2.5, 0.5, 'two', 'vc2', '2021-02-02', '2021-02-02 11:00',
	 '2021-02-02 11:00+00', false, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12', '{"b": [1, 2]}', '{4,NULL}'),
	(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
UPDATE ty SET i2 = -i2, i4 = i4 * 2, i8 = i8 + 1, n = n * 3, f8 = f8 / 2, t = t || '!',
	vc = upper(vc), d = d + 1, ts = ts + interval '1 hour', tstz = tstz - interval '1 day',
	b = NOT b, u = 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', jb = jb || '{"new": true}',
	arr = arr || 9 WHERE id = 1;
UPDATE ty SET i2 = 32767, i4 = -2147483648, i8 = 9223372036854775807, n = 123456789.123456789,
	f8 = 'Infinity', t = '', vc = 'x', d = 'infinity', ts = '-infinity', tstz = 'epoch',
	b = true, u = '00000000-0000-0000-0000-000000000000', jb = 'null', arr = '{}' WHERE id = 3;
UPDATE ty SET i2 = NULL, n = NULL, jb = NULL, arr = NULL, tstz = NULL WHERE id = 2;
SELECT * FROM ty ORDER BY id;
SELECT id FROM ty WHERE jb @> '{"new": true}' ORDER BY id;
SELECT id FROM ty WHERE 9 = ANY (arr) ORDER BY id;
DELETE FROM ty WHERE b;
SELECT id, b, u FROM ty ORDER BY id;

-- ALTER TABLE ADD COLUMN (with a default) and DROP COLUMN, then UPDATE
CREATE TABLE al (id int PRIMARY KEY, a int, b text, c int) USING colstore;
INSERT INTO al SELECT i, i, 'b' || i, i * 100 FROM generate_series(1, 5) i;
ALTER TABLE al ADD COLUMN d text DEFAULT 'dflt';
ALTER TABLE al ADD COLUMN e int;
SELECT * FROM al ORDER BY id;
UPDATE al SET d = 'set' WHERE id = 1;
UPDATE al SET e = id * 7 WHERE id >= 4;
UPDATE al SET a = -a WHERE id = 2;
SELECT * FROM al ORDER BY id;
ALTER TABLE al DROP COLUMN b;
UPDATE al SET c = c + 1 WHERE id IN (1, 3);
UPDATE al SET d = NULL WHERE id = 5;
DELETE FROM al WHERE id = 4;
INSERT INTO al (id, a, c) VALUES (6, 6, 600);
SELECT * FROM al ORDER BY id;
ALTER TABLE al DROP COLUMN a;
ALTER TABLE al ADD COLUMN f int DEFAULT 42;
UPDATE al SET f = f + id;
SELECT * FROM al ORDER BY id;
-- a volatile default rewrites the table with the updated rows
CREATE SEQUENCE al_seq;
ALTER TABLE al ADD COLUMN g int DEFAULT nextval('al_seq');
SELECT count(*), count(DISTINCT g) FROM al;
UPDATE al SET c = 0 WHERE id = 6;
ALTER TABLE al ALTER COLUMN c TYPE bigint;
SELECT id, c, d, e, f FROM al ORDER BY id;

-- a partitioned table: an UPDATE of the partition key moves the row
CREATE TABLE pt (id int, k int, v text) PARTITION BY RANGE (k);
CREATE TABLE pt1 PARTITION OF pt FOR VALUES FROM (0) TO (100) USING colstore;
CREATE TABLE pt2 PARTITION OF pt FOR VALUES FROM (100) TO (200) USING colstore;
INSERT INTO pt VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 110, 'c'), (4, 120, 'd');
UPDATE pt SET k = 150 WHERE id = 1;
UPDATE pt SET k = k - 100, v = v || ' moved back' WHERE id = 3;
UPDATE pt SET v = 'stays' WHERE id = 2;
UPDATE pt SET k = k + 1 WHERE id = 4 RETURNING tableoid::regclass, *;
SELECT tableoid::regclass, * FROM pt ORDER BY id;
WITH u AS (UPDATE pt SET k = 199 - k RETURNING tableoid::regclass AS part, *)
	SELECT * FROM u ORDER BY id;
DELETE FROM pt WHERE id = 2;
UPDATE pt SET k = 500 WHERE id = 1;
BEGIN;
UPDATE pt SET k = 5 WHERE id = 3;
SELECT tableoid::regclass, * FROM pt ORDER BY id;
ROLLBACK;
SELECT tableoid::regclass, * FROM pt ORDER BY id;
SELECT * FROM pt1 ORDER BY id;
SELECT * FROM pt2 ORDER BY id;

-- TRUNCATE after updates
CREATE TABLE tru (id int PRIMARY KEY, v text) USING colstore;
INSERT INTO tru SELECT i, 'v' || i FROM generate_series(1, 100) i;
UPDATE tru SET v = 'u' WHERE id <= 50;
DELETE FROM tru WHERE id > 90;
TRUNCATE tru;
SELECT count(*) FROM tru;
INSERT INTO tru VALUES (1, 'after truncate');
UPDATE tru SET v = v || ' and update';
SELECT * FROM tru ORDER BY id;
BEGIN;
UPDATE tru SET v = 'before rolled back truncate';
TRUNCATE tru;
ROLLBACK;
SELECT * FROM tru ORDER BY id;

-- CREATE INDEX and CREATE UNIQUE INDEX after updates: old row versions hold
-- duplicates, the live rows do not
CREATE TABLE ci (id int, v int, w text) USING colstore;
INSERT INTO ci SELECT i, 1, 'same' FROM generate_series(1, 100) i;
UPDATE ci SET v = id;
CREATE UNIQUE INDEX ci_v ON ci (v);
CREATE INDEX ci_w ON ci (w);
UPDATE ci SET w = 'w' || id WHERE id <= 10;
CREATE UNIQUE INDEX ci_w_u ON ci (w) WHERE id <= 10;
-- the new unique index is enforced
INSERT INTO ci VALUES (101, 1, 'x');
SET enable_seqscan = off;
SELECT * FROM ci WHERE v = 1;
SELECT * FROM ci WHERE v = 50;
SELECT count(*) FROM ci WHERE w = 'same';
SELECT * FROM ci WHERE w = 'w3';
RESET enable_seqscan;
-- in the transaction that made the old versions dead
BEGIN;
DROP INDEX ci_v;
UPDATE ci SET v = 0 WHERE id <= 2;
CREATE UNIQUE INDEX ci_v2 ON ci (v);
ROLLBACK;
BEGIN;
UPDATE ci SET v = 0 WHERE id = 1;
DELETE FROM ci WHERE id = 2;
UPDATE ci SET v = 2 WHERE id = 3;
UPDATE ci SET v = 3 WHERE id = 4;
UPDATE ci SET v = 4 WHERE id = 5;
DROP INDEX ci_v;
CREATE UNIQUE INDEX ci_v ON ci (v);
COMMIT;
SET enable_seqscan = off;
SELECT * FROM ci WHERE v <= 5 ORDER BY v;
RESET enable_seqscan;
SELECT * FROM ci WHERE v <= 5 ORDER BY v;
-- duplicates among live rows still fail
UPDATE ci SET w = 'dup' WHERE id IN (20, 21);
CREATE UNIQUE INDEX ci_w_all ON ci (w);
REINDEX TABLE ci;
SELECT count(*), sum(v) FROM ci;

DROP TABLE t, s, pk, dk, ck, tgt, chg, cur, m, ms, oc, tr, big, tx, nl, ty, al, pt, tru, ci;
DROP FUNCTION tr_row(), tr_upd_stmt(), tr_del_stmt();
DROP SEQUENCE al_seq;
