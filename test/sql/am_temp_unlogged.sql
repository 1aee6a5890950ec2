-- TEMPORARY and UNLOGGED colstore tables.
CREATE TEMPORARY TABLE tmp (a int, b text) USING colstore;
INSERT INTO tmp SELECT i, 'x' || i FROM generate_series(1, 1000) i;
SELECT count(*), sum(a) FROM tmp;
CREATE INDEX ON tmp (a);
SET enable_seqscan = off;
SELECT b FROM tmp WHERE a = 500;
RESET enable_seqscan;
SELECT relpersistence FROM pg_class WHERE relname = 'tmp';

CREATE TEMPORARY TABLE tmp_del (a int) USING colstore ON COMMIT DELETE ROWS;
BEGIN;
INSERT INTO tmp_del SELECT generate_series(1, 10);
SELECT count(*) FROM tmp_del;
COMMIT;
SELECT count(*) FROM tmp_del;

BEGIN;
CREATE TEMPORARY TABLE tmp_drop (a int) USING colstore ON COMMIT DROP;
INSERT INTO tmp_drop VALUES (1);
SELECT count(*) FROM tmp_drop;
COMMIT;
SELECT count(*) FROM pg_class WHERE relname = 'tmp_drop';

CREATE UNLOGGED TABLE unl (a int, b text) USING colstore;
INSERT INTO unl SELECT i, 'u' || i FROM generate_series(1, 1000) i;
SELECT relpersistence FROM pg_class WHERE relname = 'unl';
SELECT count(*), sum(a) FROM unl;
-- the init fork exists (an empty fork is an empty table)
SELECT pg_relation_size('unl', 'init');
ALTER TABLE unl SET LOGGED;
SELECT relpersistence, count(*) FROM pg_class, unl WHERE relname = 'unl' GROUP BY 1;
ALTER TABLE unl SET UNLOGGED;
SELECT count(*), sum(a) FROM unl;

DROP TABLE tmp, tmp_del, unl;
