-- Every codec stores the same data exactly; chunks pick encodings by themselves.
CREATE TABLE base AS
SELECT i AS id, i % 7 AS small, (i % 10000)::numeric / 100 AS amount, 'v' || (i % 1000) AS label,
	   date '2020-01-01' + (i % 1000) AS day, CASE WHEN i % 3 = 0 THEN NULL ELSE md5(i::text) END AS hash
FROM generate_series(1, 30000) i;

CREATE TABLE z_none (LIKE base) USING colstore WITH (codec = 'none');
CREATE TABLE z_pglz (LIKE base) USING colstore WITH (codec = 'pglz');
CREATE TABLE z_lz4 (LIKE base) USING colstore WITH (codec = 'lz4');
CREATE TABLE z_zstd (LIKE base) USING colstore WITH (codec = 'zstd', compression_level = 19);
INSERT INTO z_none SELECT * FROM base;
INSERT INTO z_pglz SELECT * FROM base;
INSERT INTO z_lz4 SELECT * FROM base;
INSERT INTO z_zstd SELECT * FROM base;

SELECT 'none' AS codec, count(*) FROM (SELECT * FROM z_none EXCEPT ALL SELECT * FROM base) d
UNION ALL SELECT 'pglz', count(*) FROM (SELECT * FROM z_pglz EXCEPT ALL SELECT * FROM base) d
UNION ALL SELECT 'lz4', count(*) FROM (SELECT * FROM z_lz4 EXCEPT ALL SELECT * FROM base) d
UNION ALL SELECT 'zstd', count(*) FROM (SELECT * FROM z_zstd EXCEPT ALL SELECT * FROM base) d;
SELECT count(*) FROM z_zstd;

-- codecs used: the table's codec where it pays, none where it does not
SELECT DISTINCT codec FROM colstore.chunks('z_none');
SELECT bool_and(codec IN ('none', 'lz4')) FROM colstore.chunks('z_lz4');
SELECT count(*) > 0 FROM colstore.chunks('z_zstd') WHERE codec = 'zstd';
-- encodings chosen per column for this data
SELECT column_name, encoding, count(*) FROM colstore.chunks('z_none')
GROUP BY 1, 2 ORDER BY 1, 2;
-- compressed sizes are far below the raw sizes, and zstd beats none on text
SELECT bool_and(stored_bytes < raw_bytes) FROM colstore.stats('z_zstd') WHERE column_name <> 'hash';
SELECT (SELECT sum(stored_bytes) FROM colstore.stats('z_zstd')) <
	   (SELECT sum(stored_bytes) FROM colstore.stats('z_none')) AS zstd_smaller;
SELECT pg_relation_size('z_zstd') < pg_relation_size('base') / 5 AS much_smaller_than_heap;

DROP TABLE base, z_none, z_pglz, z_lz4, z_zstd;
