-- Creating colstore tables every way SQL allows, and converting to and from heap.
CREATE TABLE c1 (a int, b text) USING colstore;
SELECT amname FROM pg_class c JOIN pg_am am ON am.oid = c.relam WHERE c.relname = 'c1';
INSERT INTO c1 VALUES (1, 'one'), (2, 'two');

CREATE TABLE c2 USING colstore AS SELECT * FROM c1;
SELECT * FROM c2 ORDER BY a;

SET default_table_access_method = colstore;
CREATE TABLE c3 (x int);
SELECT a, b INTO c4 FROM c1 WHERE a = 2;
CREATE MATERIALIZED VIEW mv AS SELECT a * 10 AS a10 FROM c1;
RESET default_table_access_method;
SELECT c.relname, am.amname FROM pg_class c JOIN pg_am am ON am.oid = c.relam
WHERE c.relname IN ('c3', 'c4', 'mv') ORDER BY 1;
SELECT * FROM c4;
SELECT * FROM mv ORDER BY 1;
INSERT INTO c1 VALUES (3, 'three');
REFRESH MATERIALIZED VIEW mv;
SELECT * FROM mv ORDER BY 1;

-- heap -> colstore -> heap keeps every row
CREATE TABLE h (id int, payload text, n numeric);
INSERT INTO h SELECT i, repeat('p', i % 7), i / 3.0 FROM generate_series(1, 2000) i;
CREATE TABLE h_copy AS SELECT * FROM h;
ALTER TABLE h SET ACCESS METHOD colstore;
SELECT amname FROM pg_class c JOIN pg_am am ON am.oid = c.relam WHERE c.relname = 'h';
SELECT count(*) FROM (SELECT * FROM h EXCEPT SELECT * FROM h_copy) d;
SELECT count(*) FROM (SELECT * FROM h_copy EXCEPT SELECT * FROM h) d;
ALTER TABLE h SET ACCESS METHOD heap;
SELECT amname FROM pg_class c JOIN pg_am am ON am.oid = c.relam WHERE c.relname = 'h';
SELECT count(*) FROM (SELECT * FROM h EXCEPT SELECT * FROM h_copy) d;
SELECT count(*), sum(id) FROM h;

-- the extension's own options table stays heap even when colstore is the default
SELECT amname FROM pg_class c JOIN pg_am am ON am.oid = c.relam
WHERE c.oid = 'colstore.options'::regclass;

DROP MATERIALIZED VIEW mv;
DROP TABLE c1, c2, c3, c4, h, h_copy;
