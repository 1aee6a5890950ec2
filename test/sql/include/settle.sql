\set ECHO none
-- settle(): shared by the tests that wait for VACUUM or compaction to be able
-- to remove or free something.  Waits (at most 30 s) until no other backend of
-- this database holds a snapshot (an autovacuum's or a compaction worker's
-- would keep OldestXmin back), then takes a transaction id, so that stamps
-- taken before it (a retired group's, a detached page's) precede the next
-- VACUUM's OldestXmin.  Returns true.  Pulled in with
--   \getenv abs_srcdir PG_ABS_SRCDIR
--   \set settle_sql :abs_srcdir '/sql/include/settle.sql'
--   \i :settle_sql
-- Quiet while it runs, so expected files show only those lines.
-- (pg_regress feeds a test to psql on standard input, so \ir would resolve
-- against the working directory; PG_ABS_SRCDIR is pg_regress's --inputdir).
CREATE OR REPLACE FUNCTION settle() RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1 .. 300 LOOP
		EXIT WHEN NOT EXISTS (SELECT FROM pg_stat_activity WHERE datname = current_database()
							  AND pid <> pg_backend_pid() AND backend_xmin IS NOT NULL);
		PERFORM pg_sleep(0.1);
	END LOOP;
	RETURN txid_current() > 0;
END $$;
\set ECHO all
