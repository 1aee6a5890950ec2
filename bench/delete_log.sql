-- bench/delete_log.sql: a plain DELETE of a random 30% of bench/write_patterns.sh's seed-000
-- table (section 3's shape and predicate, (hashint8(c1) % 10 + 10) % 10 < 3; the literal
-- "hashint8(c1) % 10 < 3" deletes 65%), heap then colstore in one session: the DELETE's time
-- (psql \timing, after a CHECKPOINT each), and pg_table_size before it, after it and after two
-- VACUUMs.  The ratio against heap is read off the output.  Rows: -v rows=N (default 2,000,000).
-- Usage: psql -X -v rows=2000000 -f bench/delete_log.sql   (never run by CI)
\if :{?rows}
\else
\set rows 2000000
\endif
SET colstore.auto_compaction = off;
DROP TABLE IF EXISTS dl_heap, dl_colstore;
CREATE TABLE dl_heap (c1 bigint, c2 int, c3 numeric, c4 varchar(10), c5 date) USING heap;
CREATE TABLE dl_colstore (c1 bigint, c2 int, c3 numeric, c4 varchar(10), c5 date) USING colstore;
INSERT INTO dl_heap SELECT i, 1, (i % 10000)::numeric / 100, 'v' || (i % 1000), date '2020-01-01' + (i % 1000)
	FROM generate_series(1, :rows) i;
INSERT INTO dl_colstore SELECT i, 1, (i % 10000)::numeric / 100, 'v' || (i % 1000), date '2020-01-01' + (i % 1000)
	FROM generate_series(1, :rows) i;
ALTER TABLE dl_heap ADD PRIMARY KEY (c1);
ALTER TABLE dl_colstore ADD PRIMARY KEY (c1);
VACUUM ANALYZE dl_heap;
VACUUM ANALYZE dl_colstore;
CREATE TEMP TABLE dl_sizes (am text, step text, bytes bigint);
INSERT INTO dl_sizes VALUES ('heap', 'before', pg_table_size('dl_heap')),
	('colstore', 'before', pg_table_size('dl_colstore'));
CHECKPOINT;
\echo heap DELETE:
\timing on
DELETE FROM dl_heap WHERE (hashint8(c1) % 10 + 10) % 10 < 3;
\timing off
CHECKPOINT;
\echo colstore DELETE:
\timing on
DELETE FROM dl_colstore WHERE (hashint8(c1) % 10 + 10) % 10 < 3;
\timing off
INSERT INTO dl_sizes VALUES ('heap', 'after delete', pg_table_size('dl_heap')),
	('colstore', 'after delete', pg_table_size('dl_colstore'));
VACUUM dl_heap;
VACUUM dl_colstore;
VACUUM dl_heap;
VACUUM dl_colstore;
INSERT INTO dl_sizes VALUES ('heap', 'after 2 vacuums', pg_table_size('dl_heap')),
	('colstore', 'after 2 vacuums', pg_table_size('dl_colstore'));
SELECT (SELECT (count(*), sum(c1), sum(c3)) FROM dl_heap) = (SELECT (count(*), sum(c1), sum(c3)) FROM dl_colstore)
	AS same_rows;
SELECT am, step, pg_size_pretty(bytes) AS size, bytes FROM dl_sizes ORDER BY am DESC, ctid;
