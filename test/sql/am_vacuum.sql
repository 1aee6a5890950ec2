-- VACUUM, VACUUM FULL, CLUSTER and ANALYZE.
CREATE TABLE vt (id int, grp int, note text) USING colstore;
INSERT INTO vt SELECT i, i % 50, CASE WHEN i % 10 = 0 THEN NULL ELSE 'n' || (i % 100) END
FROM generate_series(1, 20000) i;
-- an aborted insert leaves a dead row group behind
-- (the SELECT makes the buffered rows reach disk before the rollback)
BEGIN;
INSERT INTO vt SELECT i, -1, 'aborted' FROM generate_series(1, 500) i;
SELECT count(*) FROM vt;
ROLLBACK;
SELECT state, sum(row_count) FROM colstore.row_groups('vt') GROUP BY state ORDER BY state;

SELECT relfrozenxid AS frozen_before FROM pg_class WHERE relname = 'vt' \gset
VACUUM (FREEZE) vt;
SELECT state, sum(row_count) FROM colstore.row_groups('vt') GROUP BY state ORDER BY state;
SELECT age(relfrozenxid) <= age(:'frozen_before'::xid) AS advanced FROM pg_class WHERE relname = 'vt';
SELECT count(*), sum(id) FROM vt;

VACUUM FULL vt;
SELECT count(*), sum(id) FROM vt;
SELECT state, sum(row_count) FROM colstore.row_groups('vt') GROUP BY state ORDER BY state;

CREATE INDEX vt_grp ON vt (grp);
CLUSTER vt USING vt_grp;
SELECT count(*), sum(id) FROM vt;
-- after CLUSTER the rows are stored in grp order
SELECT bool_and(ordered) FROM (
	SELECT grp >= lag(grp, 1, grp) OVER (ORDER BY ctid) AS ordered FROM vt) s;

ANALYZE vt;
SELECT attname, null_frac, n_distinct FROM pg_stats WHERE tablename = 'vt' ORDER BY attname;
SELECT reltuples FROM pg_class WHERE relname = 'vt';
-- planner estimates follow the real counts
CREATE FUNCTION estimate(q text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT json) ' || q INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::int;
END $$;
SELECT estimate('SELECT * FROM vt') AS all_rows;
SELECT estimate('SELECT * FROM vt WHERE grp = 7') BETWEEN 300 AND 500 AS grp_estimate_ok;
SELECT estimate('SELECT * FROM vt WHERE note IS NULL') BETWEEN 1500 AND 2500 AS null_estimate_ok;

-- autovacuum's counters see the inserts
SELECT pg_stat_force_next_flush();
SELECT n_tup_ins >= 20000 FROM pg_stat_user_tables WHERE relname = 'vt';

DROP FUNCTION estimate(text);
DROP TABLE vt;
