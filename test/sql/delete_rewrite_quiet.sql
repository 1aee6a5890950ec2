-- Issue 23's random 30% DELETE, at 300,000 rows: once the table is quiet
-- after it, the compaction worker (started by the VACUUM that finds row
-- groups whose rewrite pays by colstore.compact()'s rule, a fifth deleted)
-- rewrites the partly deleted groups whose live rows rewritten take less
-- than the group and its row state pages, moving them through the delete
-- log (no promoted copies); the rounds' VACUUMs then retire and free the
-- old groups with their side structures (promotion map roots, bitmaps,
-- delete logs), move the new groups down and truncate the end.  Two rounds
-- of (VACUUM, wait for the worker), as bench/write_patterns.sh part 3 runs
-- them, leave a table of values that compress the same after the DELETE
-- (an md5 text) at most 0.8 times its size before it (the groups stayed,
-- at more than their size before, without the rewrite).  A table whose
-- columns follow its key (the seed-000 table's) would grow rewritten (its
-- live rows lose the rule their columns followed): its groups stay.
-- Results equal a heap twin's by every read path.
\getenv abs_srcdir PG_ABS_SRCDIR
\set settle_sql :abs_srcdir '/sql/include/settle.sql'
\i :settle_sql
-- until no compaction worker of this database runs (at most ten minutes),
-- committing between looks so that no snapshot of ours holds the worker's
-- waits back
CREATE PROCEDURE wait_compaction() LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_sleep(1);
	FOR i IN 1 .. 3000 LOOP
		EXIT WHEN NOT EXISTS (SELECT FROM pg_stat_activity
							  WHERE backend_type = 'colstore compaction');
		COMMIT;
		PERFORM pg_sleep(0.2);
	END LOOP;
END $$;
SET colstore.auto_compaction = on;
CREATE TABLE dq (c1 bigint PRIMARY KEY, c2 int, c3 numeric, c4 text, c5 date)
	USING colstore WITH (autovacuum_enabled = false, row_group_size = 20000);
CREATE TABLE dh (c1 bigint PRIMARY KEY, c2 int, c3 numeric, c4 text, c5 date);
INSERT INTO dq SELECT i, hashint4(i::int), (i % 10000)::numeric / 100, md5(i::text),
	date '2020-01-01' + (i % 1000)::int FROM generate_series(1, 300000) i;
INSERT INTO dh SELECT * FROM dq;
VACUUM ANALYZE dq;
VACUUM ANALYZE dh;
SELECT pg_relation_size('dq') AS size_before \gset
SELECT count(*) AS groups_before FROM colstore.row_groups('dq') \gset

DELETE FROM dq WHERE (hashint8(c1) % 10 + 10) % 10 < 3;
DELETE FROM dh WHERE (hashint8(c1) % 10 + 10) % 10 < 3;
SELECT count(*) AS live FROM dh \gset
SELECT settle();

-- two rounds
VACUUM dq;
CALL wait_compaction();
VACUUM dq;
CALL wait_compaction();

SELECT pg_relation_size('dq') AS size_settled \gset
SELECT :size_settled <= 0.8 * :size_before AS settled_within_bound,
	:size_settled >= 0.5 * :size_before AS settled_plausible;
-- the live rows are in new row groups, the old ones freed
SELECT count(*) FILTER (WHERE state = 'committed') <= :groups_before * 0.7 + 1 AS fewer_groups,
	sum(row_count) FILTER (WHERE state = 'committed') = :live AS only_live_rows
FROM colstore.row_groups('dq');
SELECT colstore.verify('dq') = :live AS verified;

-- same rows by every path
SELECT NOT EXISTS (SELECT * FROM dq EXCEPT ALL SELECT * FROM dh) AND
	NOT EXISTS (SELECT * FROM dh EXCEPT ALL SELECT * FROM dq) AS same;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*), sum(c2::bigint) FROM dq WHERE c1 BETWEEN 1000 AND 200000;
SELECT count(*), sum(c2::bigint) FROM dh WHERE c1 BETWEEN 1000 AND 200000;
SELECT * FROM dq WHERE c1 IN (1, 2, 3, 4, 5, 150000, 299999, 300000) ORDER BY c1;
SELECT * FROM dh WHERE c1 IN (1, 2, 3, 4, 5, 150000, 299999, 300000) ORDER BY c1;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SELECT count(*), sum(c2::bigint) FROM dq WHERE c1 BETWEEN 1000 AND 200000;
RESET enable_indexscan;
RESET enable_seqscan;
-- the rows keep their delete and update behaviour after the move
UPDATE dq SET c2 = 0 WHERE c1 % 1000 = 1;
UPDATE dh SET c2 = 0 WHERE c1 % 1000 = 1;
DELETE FROM dq WHERE c1 % 1000 = 2;
DELETE FROM dh WHERE c1 % 1000 = 2;
SELECT NOT EXISTS (SELECT * FROM dq EXCEPT ALL SELECT * FROM dh) AND
	NOT EXISTS (SELECT * FROM dh EXCEPT ALL SELECT * FROM dq) AS same_after_dml;
DROP TABLE dq, dh;

-- the seed-000 table's columns (c1 counting up, the others cycling with
-- it), in full-sized groups: its 30%-deleted groups stay, since their
-- live rows rewritten would take more than they do with their bitmaps and
-- roots (at 20,000-row groups the roots weigh more, and they are rewritten)
CREATE TABLE ds (c1 bigint PRIMARY KEY, c2 int, c3 numeric, c4 varchar(10), c5 date)
	USING colstore WITH (autovacuum_enabled = false);
INSERT INTO ds SELECT i, 1, (i % 10000)::numeric / 100, 'v' || (i % 1000),
	date '2020-01-01' + (i % 1000)::int FROM generate_series(1, 300000) i;
VACUUM ANALYZE ds;
SELECT count(*) AS groups_before FROM colstore.row_groups('ds') \gset
DELETE FROM ds WHERE (hashint8(c1) % 10 + 10) % 10 < 3;
SELECT settle();
VACUUM ds;
CALL wait_compaction();
SELECT pg_relation_size('ds') AS size_vacuumed \gset
VACUUM ds;
CALL wait_compaction();
SELECT count(*) = :groups_before AS groups_kept,
	count(*) FILTER (WHERE state = 'committed') = :groups_before AS none_rewritten
FROM colstore.row_groups('ds');
SELECT pg_relation_size('ds') <= :size_vacuumed AS no_growth;
SELECT count(*), sum(c1), sum(c3), count(DISTINCT c4) FROM ds;
SELECT count(*), sum(i), sum((i % 10000)::numeric / 100), count(DISTINCT 'v' || (i % 1000))
FROM generate_series(1, 300000) i WHERE NOT (hashint8(i::bigint) % 10 + 10) % 10 < 3;
DROP TABLE ds;
DROP PROCEDURE wait_compaction();
