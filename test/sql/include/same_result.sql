\set ECHO none
-- same_result(q, hq): whether queries q and hq return the same rows, each as
-- often (compared in text form, order ignored).  The tests that compare a
-- query on a colstore table with the same query on its heap twin share it.
-- Pulled in with
--   \getenv abs_srcdir PG_ABS_SRCDIR
--   \set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
--   \i :same_result_sql
-- and quiet while it runs, so expected files show only those lines.
CREATE OR REPLACE FUNCTION same_result(q text, hq text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
	same boolean;
BEGIN
	EXECUTE format($f$SELECT NOT EXISTS (SELECT row(x.*)::text FROM (%s) x
									   EXCEPT ALL SELECT row(y.*)::text FROM (%s) y)
						 AND NOT EXISTS (SELECT row(y.*)::text FROM (%s) y
									   EXCEPT ALL SELECT row(x.*)::text FROM (%s) x)$f$,
				   q, hq, hq, q)
		INTO same;
	RETURN same;
END $$;
\set ECHO all
