-- One UNLOGGED or TEMPORARY round of index_only_clear.sql (psql variable
-- kind): make c and h of that kind, then the bulk UPDATE and DELETE checks
-- that the permanent round also runs, in and after their transactions.
SELECT ioc_make(:'kind');
VACUUM c;
VACUUM h;
SELECT * FROM ioc_run();
SELECT 'later transaction: ' || d FROM ioc_diff() d;
BEGIN;
UPDATE c SET v = v + 1;
UPDATE h SET v = v + 1;
SELECT 'UPDATE of every row, same transaction: ' || d FROM ioc_diff() d;
COMMIT;
SELECT 'UPDATE of every row, later: ' || d FROM ioc_diff() d;
VACUUM c;
VACUUM h;
BEGIN;
DELETE FROM c;
DELETE FROM h;
SELECT 'DELETE of every row, same transaction: ' || d FROM ioc_diff() d;
COMMIT;
SELECT count(*) FROM c WHERE id > 0;
DROP TABLE c, h;
