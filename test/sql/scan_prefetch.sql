-- Read-ahead of a scan's pages (storage/page_prefetch.c, tableam/scan_prefetch.c):
-- a sequential scan queues the pages it will read (row group headers, chunk
-- images, delta pages) and reads them through a read stream on 17 and later.
-- The queue is only a hint, and the stream must end on every path: whatever
-- ends or turns a scan early must leave the results equal to heap's and no
-- pin behind (an assertion-enabled server reports leaked pins): cursors going
-- backward and closed mid-scan, LIMITs, rescans, errors and savepoints,
-- parallel workers, VACUUM of many heap pages.  Row groups of 2,000 rows in
-- chunks of 500, whose images span pages, and heap pages between them.
CREATE TABLE pf (id int, k int, t text) USING colstore
	WITH (row_group_size = 2000, chunk_size = 500);
INSERT INTO pf SELECT i, i % 37, md5(i::text) || md5((i * 7)::text)
	FROM generate_series(1, 40000) i;
-- small inserts and updates: heap tuples on heap pages between the row groups
INSERT INTO pf SELECT i, i % 37, 'small' || i FROM generate_series(40001, 40050) i;
UPDATE pf SET k = k + 100 WHERE id % 97 = 0;
DELETE FROM pf WHERE id % 101 = 0;
CREATE TABLE ph USING heap AS SELECT * FROM pf;
SELECT count(*) >= 20 AS row_groups FROM colstore.row_groups('pf');

-- whole scans, plain and custom, with and without aggregation
SET colstore.enable_custom_agg = off;
SELECT count(*), sum(k), sum(hashtext(t)) FROM pf;
SELECT count(*), sum(k), sum(hashtext(t)) FROM ph;
RESET colstore.enable_custom_agg;
SELECT count(*), sum(k), sum(hashtext(t)) FROM pf;
SELECT k, count(*), min(t) FROM pf WHERE k > 30 GROUP BY k
EXCEPT SELECT k, count(*), min(t) FROM ph WHERE k > 30 GROUP BY k;

-- a scroll cursor: forward, backward, forward again, over row group borders
BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT id, k FROM pf;
MOVE FORWARD 3998 IN c;
FETCH FORWARD 4 FROM c;
FETCH BACKWARD 4 FROM c;
FETCH FORWARD 2 FROM c;
MOVE LAST IN c;
FETCH BACKWARD 2 FROM c;
FETCH ABSOLUTE 2001 FROM c;
FETCH RELATIVE 1 FROM c;
CLOSE c;
-- a cursor closed after a few rows, and one left open at commit
DECLARE d CURSOR FOR SELECT id FROM pf WHERE k = 3;
FETCH 3 FROM d;
CLOSE d;
DECLARE e CURSOR FOR SELECT t FROM pf;
FETCH 1 FROM e;
COMMIT;

-- scans ended early by LIMIT, and rescanned (a subplan per outer row)
SELECT g, (SELECT id FROM pf WHERE id = g * 9000 + 5 LIMIT 1) FROM generate_series(1, 4) g;
SELECT g, (SELECT count(*) FROM pf WHERE k = g) = (SELECT count(*) FROM ph WHERE k = g)
	FROM generate_series(1, 3) g;
SELECT count(*) FROM (SELECT id FROM pf LIMIT 4321) s;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT count(*) FROM generate_series(1, 3) g JOIN pf ON pf.id = g * 10000;
RESET enable_hashjoin;
RESET enable_mergejoin;

-- errors in the middle of a scan, also inside a savepoint
SELECT id / (id - 30000) FROM pf;
BEGIN;
SAVEPOINT s;
SELECT sum(id / (id - 30000)) FROM pf;
ROLLBACK TO s;
SELECT count(*) FROM pf;
COMMIT;

-- parallel scans: each worker claims whole units and ends its own stream
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT count(*), sum(k), sum(hashtext(t)) FROM pf;
SET colstore.enable_custom_agg = off;
SELECT count(*), sum(k), sum(hashtext(t)) FROM pf;
RESET colstore.enable_custom_agg;
RESET max_parallel_workers_per_gather;
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;

-- VACUUM reads the heap pages through a read stream: many of them here
UPDATE pf SET k = k + 1000 WHERE id % 3 = 0;
UPDATE ph SET k = k + 1000 WHERE id % 3 = 0;
DELETE FROM pf WHERE id % 5 = 0 AND k > 1000;
DELETE FROM ph WHERE id % 5 = 0 AND k > 1000;
VACUUM pf;
VACUUM ph;
SELECT count(*), sum(k), sum(hashtext(t)) FROM pf;
SELECT count(*), sum(k), sum(hashtext(t)) FROM ph;
-- the freed items are reused by the next changes
UPDATE pf SET k = k + 1 WHERE id % 4 = 0;
UPDATE ph SET k = k + 1 WHERE id % 4 = 0;
VACUUM pf;
SELECT (SELECT sum(k) FROM pf) = (SELECT sum(k) FROM ph) AS same_sum;
DROP TABLE pf, ph;
