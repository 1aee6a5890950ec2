-- Statements nested in an INSERT (row triggers, functions) see and write
-- what they would on heap, and do not cut the outer statement's rows into a
-- row group per row: only top-level statements (and parallel plans) write
-- the rows buffered so far; a read of a table writes that table's.
SET colstore.auto_compaction = off;

CREATE TABLE n_audit_h (id int, note text);
CREATE TABLE n_audit_c (id int, note text) USING colstore;
CREATE TABLE n_h (id int, v int, seen bigint);
CREATE TABLE n_c (id int, v int, seen bigint) USING colstore;

-- a BEFORE ROW trigger that writes each row to an audit table of its own
-- access method and counts the rows its table already has
CREATE FUNCTION n_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('INSERT INTO %I VALUES ($1, $2)',
				   'n_audit_' || right(TG_TABLE_NAME, 1)) USING NEW.id, TG_OP;
	EXECUTE format('SELECT count(*) FROM %I', TG_TABLE_NAME) INTO NEW.seen;
	RETURN NEW;
END $$;
CREATE TRIGGER n_log BEFORE INSERT ON n_h FOR EACH ROW EXECUTE FUNCTION n_log();
CREATE TRIGGER n_log BEFORE INSERT ON n_c FOR EACH ROW EXECUTE FUNCTION n_log();

INSERT INTO n_h SELECT i, i * 2 FROM generate_series(1, 300) i;
INSERT INTO n_c SELECT i, i * 2 FROM generate_series(1, 300) i;
-- each row saw the ones inserted before it, on both
SELECT count(*), min(seen), max(seen), count(DISTINCT seen) FROM n_c;
SELECT (SELECT array_agg(seen ORDER BY id) FROM n_c) = (SELECT array_agg(seen ORDER BY id) FROM n_h) AS same_seen;
SELECT (SELECT count(*) FROM n_audit_c) AS audit_c, (SELECT count(*) FROM n_audit_h) AS audit_h;
SELECT count(*) AS row_groups, sum(row_count) AS rows FROM colstore.row_groups('n_c');

-- the trigger's reads write the buffered rows, so this table still makes
-- a row group per row; a trigger that only writes elsewhere does not
CREATE TABLE n_w_c (id int, v int) USING colstore;
CREATE FUNCTION n_log_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO n_audit_h VALUES (NEW.id, 'only');
	RETURN NEW;
END $$;
CREATE TRIGGER n_log_only BEFORE INSERT ON n_w_c FOR EACH ROW EXECUTE FUNCTION n_log_only();
INSERT INTO n_w_c SELECT i, i FROM generate_series(1, 300) i;
SELECT count(*) AS row_groups, sum(row_count) AS rows FROM colstore.row_groups('n_w_c');

-- the audit table of access method colstore gets one-row INSERTs: they go
-- to its heap pages, not a row group each
SELECT count(*) AS audit_row_groups FROM colstore.row_groups('n_audit_c');

-- a small INSERT with the trigger: its rows go to heap pages, as without it
INSERT INTO n_w_c SELECT i, i FROM generate_series(301, 305) i;
SELECT count(*) AS row_groups, sum(row_count) AS rows FROM colstore.row_groups('n_w_c');
SELECT count(*), sum(id) FROM n_w_c;

-- a function that inserts and then reads the same table, called per row
CREATE FUNCTION n_add_and_count(tab text, k int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	EXECUTE format('INSERT INTO %I VALUES ($1, $1, 0)', tab) USING k;
	EXECUTE format('SELECT count(*) FROM %I WHERE id > 1000', tab) INTO n;
	RETURN n;
END $$;
SELECT array_agg(n_add_and_count('n_c', 1000 + i) ORDER BY i) =
	array_agg(n_add_and_count('n_h', 1000 + i) ORDER BY i) AS same_counts
FROM generate_series(1, 50) i;

-- a nested statement that fails inside an exception block takes only its
-- own rows back; an outer statement that fails takes everything back
CREATE FUNCTION n_sometimes_fail() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	BEGIN
		INSERT INTO n_audit_c VALUES (NEW.id, 'tried');
		IF NEW.id % 3 = 0 THEN
			RAISE EXCEPTION 'no';
		END IF;
	EXCEPTION WHEN raise_exception THEN
		NULL;
	END;
	IF NEW.id = 2999 THEN
		RAISE EXCEPTION 'row % refused', NEW.id;
	END IF;
	RETURN NEW;
END $$;
CREATE TABLE n_x_c (id int) USING colstore;
CREATE TRIGGER n_x BEFORE INSERT ON n_x_c FOR EACH ROW EXECUTE FUNCTION n_sometimes_fail();
TRUNCATE n_audit_c;
INSERT INTO n_x_c SELECT i FROM generate_series(1, 200) i;
SELECT count(*) AS rows, (SELECT count(*) FROM n_audit_c) AS audited FROM n_x_c;
INSERT INTO n_x_c SELECT i FROM generate_series(2800, 3000) i;
SELECT count(*) AS rows, (SELECT count(*) FROM n_audit_c) AS audited FROM n_x_c;
SELECT count(*) AS row_groups FROM colstore.row_groups('n_x_c') WHERE state = 'committed';

-- an AFTER ROW trigger sees every row of its statement, as on heap
CREATE TABLE n_after_h (id int);
CREATE TABLE n_after_c (id int) USING colstore;
CREATE TABLE n_after_seen (tab text, id int, seen bigint);
CREATE FUNCTION n_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('INSERT INTO n_after_seen SELECT %L, $1, count(*) FROM %I', TG_TABLE_NAME, TG_TABLE_NAME)
		USING NEW.id;
	RETURN NULL;
END $$;
CREATE TRIGGER n_after AFTER INSERT ON n_after_h FOR EACH ROW EXECUTE FUNCTION n_after();
CREATE TRIGGER n_after AFTER INSERT ON n_after_c FOR EACH ROW EXECUTE FUNCTION n_after();
INSERT INTO n_after_h SELECT generate_series(1, 150);
INSERT INTO n_after_c SELECT generate_series(1, 150);
SELECT tab, count(*), min(seen), max(seen) FROM n_after_seen GROUP BY tab ORDER BY tab;
SELECT count(*) AS row_groups, sum(row_count) AS rows FROM colstore.row_groups('n_after_c');

DROP TABLE n_audit_h, n_audit_c, n_h, n_c, n_w_c, n_x_c, n_after_h, n_after_c, n_after_seen;
DROP FUNCTION n_log(), n_log_only(), n_add_and_count(text, int), n_sometimes_fail(), n_after();
RESET colstore.auto_compaction;
