-- colstore.row_groups, chunks, stats, verify and the views, on a small deterministic table.
CREATE TABLE ci (id int, name text, score numeric) USING colstore
	WITH (row_group_size = 1000, chunk_size = 400);
INSERT INTO ci SELECT i, CASE WHEN i % 5 = 0 THEN NULL ELSE 'n' || (i % 3) END, i / 4.0
FROM generate_series(1, 2500) i;

SELECT row_group >= 0 AS has_index, first_row, row_count, state, chunks,
	   stored_bytes > 0 AS stored, raw_bytes > 0 AS raw
FROM colstore.row_groups('ci') ORDER BY first_row;

SELECT c.chunk, c.column_name, c.row_count, c.null_count, c.min_value, c.max_value
FROM colstore.chunks('ci') c
JOIN colstore.row_groups('ci') g USING (row_group)
WHERE g.first_row = 0 ORDER BY c.column_name, c.chunk;

SELECT column_name, stored_bytes > 0 AS stored, raw_bytes > 0 AS raw, compression_ratio > 1 AS compressed
FROM colstore.stats('ci') ORDER BY column_name;

SELECT colstore.verify('ci');

SELECT relation, count(*), sum(row_count) FROM colstore.row_group WHERE relation = 'ci'::regclass GROUP BY 1;

-- sizes reported by PostgreSQL are the real ones
SELECT pg_relation_size('ci') > 0 AND pg_relation_size('ci') < 100000 AS real_size;
SELECT pg_total_relation_size('ci') = pg_table_size('ci') AS no_index;

-- an aborted row group, and the same group once VACUUM has reclaimed it (its
-- pages may then hold other data): listed by row_groups, never read by chunks
BEGIN;
INSERT INTO ci SELECT i, 'gone', 0 FROM generate_series(1, 1500) i;
ROLLBACK;
SELECT state, count(*) FROM colstore.row_groups('ci') GROUP BY 1 ORDER BY 1;
SELECT g.state, count(c.*) AS chunks
FROM colstore.row_groups('ci') g LEFT JOIN colstore.chunks('ci') c USING (row_group)
GROUP BY 1 ORDER BY 1;
SELECT colstore.verify('ci');	-- the committed rows only
VACUUM ci;
SELECT state, count(*) FROM colstore.row_groups('ci') GROUP BY 1 ORDER BY 1;
SELECT g.state, count(c.*) AS chunks
FROM colstore.row_groups('ci') g LEFT JOIN colstore.chunks('ci') c USING (row_group)
GROUP BY 1 ORDER BY 1;
SELECT count(*), sum(row_count) FROM colstore.chunks('ci') WHERE column_name = 'id';

-- the functions refuse other kinds of tables
CREATE TABLE hp (a int);
SELECT * FROM colstore.row_groups('hp');
SELECT colstore.verify('hp');
DROP TABLE ci, hp;
