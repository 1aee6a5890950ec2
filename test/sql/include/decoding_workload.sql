-- The statements logical_decoding.sql runs against heap tables and then
-- against colstore tables: psql variable am is the access method, t the
-- prefix of the tables' names.  Every statement kind issue 18 lists.
\set t_main :t '_main'
\set t_full :t '_full'
\set t_none :t '_none'
\set t_uidx :t '_uidx'
\set t_part :t '_part'
\set t_part1 :t '_part1'
\set t_part2 :t '_part2'
\set t_uidx_k :t '_uidx_k'
CREATE TABLE :t_main (id int PRIMARY KEY, v text, n numeric, d date) USING :am;
CREATE TABLE :t_full (id int, v text) USING :am;
ALTER TABLE :t_full REPLICA IDENTITY FULL;
CREATE TABLE :t_none (id int PRIMARY KEY, v text) USING :am;
ALTER TABLE :t_none REPLICA IDENTITY NOTHING;
CREATE TABLE :t_uidx (id int NOT NULL, k int NOT NULL, v text) USING :am;
CREATE UNIQUE INDEX :t_uidx_k ON :t_uidx (k);
ALTER TABLE :t_uidx REPLICA IDENTITY USING INDEX :t_uidx_k;
CREATE TABLE :t_part (id int, k int, v text) PARTITION BY RANGE (k);
CREATE TABLE :t_part1 PARTITION OF :t_part FOR VALUES FROM (0) TO (10) USING :am;
CREATE TABLE :t_part2 PARTITION OF :t_part FOR VALUES FROM (10) TO (20) USING :am;
-- INSERT: VALUES, INSERT ... SELECT (a row group of its own), COPY
INSERT INTO :t_main VALUES (1, 'one', 1.5, '2024-01-01'), (2, NULL, NULL, NULL),
	(3, 'three', -3.25, '2024-03-03');
INSERT INTO :t_main SELECT g, 'r' || g, g / 7.0, date '2024-01-01' + g
	FROM generate_series(10, 260) g;
COPY :t_main FROM stdin;
500	copied	5.5	2025-05-05
501	\N	\N	\N
\.
INSERT INTO :t_full SELECT g, 'f' || g FROM generate_series(1, 150) g;
INSERT INTO :t_none SELECT g, 'n' || g FROM generate_series(1, 150) g;
INSERT INTO :t_uidx SELECT g, g * 10, 'u' || g FROM generate_series(1, 150) g;
-- UPDATE: a value, a key, many rows at once; under each replica identity
UPDATE :t_main SET v = 'uno' WHERE id = 1;
UPDATE :t_main SET id = 4 WHERE id = 3;
UPDATE :t_main SET n = n + 1 WHERE id BETWEEN 100 AND 110;
UPDATE :t_full SET v = 'full' WHERE id IN (5, 6);
UPDATE :t_none SET v = 'none' WHERE id = 7;
UPDATE :t_uidx SET v = 'uidx' WHERE id = 8;
UPDATE :t_uidx SET k = -8 WHERE id = 8;
-- DELETE: one row, a range (promoted together), under each replica identity
DELETE FROM :t_main WHERE id = 2;
DELETE FROM :t_main WHERE id BETWEEN 200 AND 230;
DELETE FROM :t_full WHERE id = 9;
DELETE FROM :t_none WHERE id = 9;
DELETE FROM :t_uidx WHERE id = 9;
-- ON CONFLICT DO NOTHING / DO UPDATE, with and without a conflict
INSERT INTO :t_main VALUES (1, 'dup', 0, NULL) ON CONFLICT (id) DO NOTHING;
INSERT INTO :t_main VALUES (600, 'new', 0, NULL) ON CONFLICT (id) DO NOTHING;
INSERT INTO :t_main VALUES (1, 'upserted', 1, NULL), (601, 'inserted', 2, NULL)
	ON CONFLICT (id) DO UPDATE SET v = excluded.v, n = excluded.n;
INSERT INTO :t_main SELECT g, 'bulk upsert', g, NULL FROM generate_series(250, 280) g
	ON CONFLICT (id) DO UPDATE SET v = excluded.v;
-- MERGE
MERGE INTO :t_main m USING (VALUES (10, 'merged'), (11, NULL), (700, 'merge new')) s(id, v)
	ON m.id = s.id
	WHEN MATCHED AND s.v IS NULL THEN DELETE
	WHEN MATCHED THEN UPDATE SET v = s.v
	WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v);
-- savepoints rolled back and released
BEGIN;
INSERT INTO :t_main VALUES (800, 'kept', 0, NULL);
SAVEPOINT a;
INSERT INTO :t_main SELECT g, 'rolled back', 0, NULL FROM generate_series(801, 950) g;
UPDATE :t_main SET v = 'rolled back' WHERE id = 12;
ROLLBACK TO a;
SAVEPOINT b;
INSERT INTO :t_main SELECT g, 'released', 0, NULL FROM generate_series(951, 1100) g;
DELETE FROM :t_main WHERE id = 13;
RELEASE b;
COMMIT;
-- two-phase commit
BEGIN;
INSERT INTO :t_main SELECT g, 'prepared', 0, NULL FROM generate_series(1200, 1320) g;
UPDATE :t_main SET v = 'prepared' WHERE id = 14;
PREPARE TRANSACTION 'decoding_2pc';
COMMIT PREPARED 'decoding_2pc';
BEGIN;
INSERT INTO :t_main VALUES (1400, 'rolled back prepared', 0, NULL);
PREPARE TRANSACTION 'decoding_2pc';
ROLLBACK PREPARED 'decoding_2pc';
-- TOAST-size values: inserted, then the row updated without touching them
INSERT INTO :t_main SELECT 2000 + g, string_agg(md5((g * 1000 + x)::text), ''), g, NULL
	FROM generate_series(1, 2) g, generate_series(1, 300) x GROUP BY g;
UPDATE :t_main SET n = 42 WHERE id = 2001;
-- partitions: rows into both, an UPDATE that moves a row across them
INSERT INTO :t_part SELECT g, g % 20, 'p' || g FROM generate_series(1, 120) g ORDER BY g % 20, g;
UPDATE :t_part SET k = 15 WHERE id = 3;
DELETE FROM :t_part WHERE id = 4;
TRUNCATE :t_none;
TRUNCATE :t_part;
