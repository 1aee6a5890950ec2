-- Statements colstore does not support yet fail with feature_not_supported and a plain
-- message, never silently.
CREATE TABLE u (id int PRIMARY KEY, v text) USING colstore;
INSERT INTO u VALUES (1, 'a'), (2, 'b');

UPDATE u SET v = 'x' WHERE id = 1;
DELETE FROM u WHERE id = 2;
SELECT * FROM u WHERE id = 1 FOR UPDATE;
SELECT * FROM u FOR SHARE;
SELECT * FROM u FOR KEY SHARE SKIP LOCKED;
INSERT INTO u VALUES (1, 'c') ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v;
MERGE INTO u USING (VALUES (1, 'm')) s(id, v) ON u.id = s.id
	WHEN MATCHED THEN UPDATE SET v = s.v;
-- a foreign key that references a colstore table needs row locks
CREATE TABLE ref (uid int REFERENCES u);
INSERT INTO ref VALUES (1);

-- the SQLSTATE is feature_not_supported
DO $$
BEGIN
	UPDATE u SET v = 'y';
EXCEPTION WHEN feature_not_supported THEN
	RAISE NOTICE 'caught feature_not_supported: %', SQLERRM;
END
$$;

-- statements that touch no row behave as on heap; MERGE that only inserts works
UPDATE u SET v = 'x' WHERE false;
DELETE FROM u WHERE id > 100;
INSERT INTO u VALUES (3, 'no conflict') ON CONFLICT (id) DO UPDATE SET v = 'never';
MERGE INTO u USING (VALUES (4, 'm4')) s(id, v) ON u.id = s.id
	WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v);
SELECT * FROM u ORDER BY id;

DROP TABLE ref, u;
