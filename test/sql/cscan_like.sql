-- LIKE and NOT LIKE in ColstoreAgg's conditions and ColstoreScan's batch
-- filter, on text, text COLLATE "C", varchar and char(n) columns: patterns
-- of literal text and '%' (wildcards at the start, middle and end, empty,
-- none, overlapping and repeated segments, longer than the value),
-- escaped metacharacters and the ESCAPE clause, '_' (PostgreSQL's own
-- function decides those), multibyte characters, char(n)'s padding, a NULL
-- pattern, AND/OR/NOT, parameters, a trailing escape (PostgreSQL's error)
-- and a NOT LIKE under an outer join (TPC-H Q13).  Every query gives heap's
-- result.
SET max_parallel_workers_per_gather = 0;
CREATE TABLE lk (i int, k int, t text, c text COLLATE "C", v varchar(12), b char(6))
	USING colstore WITH (chunk_size = 1000);
-- the values cycle through vals (each column in another order); t also has
-- distinct values, b values that char(6) pads
INSERT INTO lk
	WITH d(vals) AS (SELECT ARRAY[NULL, '', 'a', 'ab', 'aba', 'abc', 'abab', 'abcabc',
		'abcabcab', 'xaby', 'xxa', 'ba', 'bab', 'acb', 'aXbYc', 'a%b', 'a%', 'a_b', 'aXb',
		'a\b', '50%', '%', '_', '\', 'é', 'café', '日本語', '日本', '本', 'x日本語y',
		'ab  ', ' ab', 'x ', 'special requests', 'a special note about requests',
		'requests special', 'b1'])
	SELECT i, i % 150,
		CASE WHEN i % 11 = 0 THEN 'w' || i ELSE vals[1 + i % cardinality(vals)] END,
		vals[1 + (i / 3) % cardinality(vals)],
		left(vals[1 + (i * 7) % cardinality(vals)], 12),
		CASE WHEN i % 4 = 0 THEN 'b' || (i % 10) ELSE left(vals[1 + (i * 11) % cardinality(vals)], 6) END
	FROM d, generate_series(1, 20000) i;
ANALYZE lk;
CREATE TABLE lh USING heap AS SELECT * FROM lk;

\getenv abs_srcdir PG_ABS_SRCDIR
\set same_result_sql :abs_srcdir '/sql/include/same_result.sql'
\i :same_result_sql
-- each query's result equals heap's (lh for lk); 'agg' and 'scan' say
-- which custom node ran
CREATE FUNCTION check_query(q text) RETURNS TABLE (agg boolean, scan boolean, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
	hq text := regexp_replace(q, '\mlk\M', 'lh', 'g');
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || q INTO plan;
	agg := plan::text LIKE '%ColstoreAgg%';
	scan := plan::text LIKE '%ColstoreScan%';
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO nrows;
	same := same_result(q, hq);
	RETURN NEXT;
END $$;

-- every pattern, LIKE and NOT LIKE, on every column, in two shapes:
-- "SELECT count(*), sum(i) FROM lk WHERE cond" (agg: ColstoreAgg ran) and
-- "SELECT i FROM lk WHERE cond AND i > 0" (scan: ColstoreScan ran, nrows:
-- the rows it returned); same: both gave heap's result
SELECT cond, bool_or(r.agg) FILTER (WHERE s.agg) AS agg, bool_or(r.scan) FILTER (WHERE NOT s.agg) AS scan,
	max(r.nrows) FILTER (WHERE NOT s.agg) AS nrows, bool_and(r.same) AS same
FROM unnest(ARRAY[
		-- '%' at the start, middle, end; only '%'; the empty pattern; none
		$$'%a%'$$, $$'a%'$$, $$'%a'$$, $$'a%b'$$, $$'%a%b%'$$, $$'a%b%c'$$,
		$$'%%'$$, $$'%'$$, $$''$$, $$'ab'$$,
		-- escaped metacharacters, an escaped ordinary character, ESCAPE
		$$'a\%b'$$, $$'a\%'$$, $$'a\_b'$$, $$'%\\%'$$, $$'a\\b'$$, $$'\a%'$$,
		$$'a#%%' ESCAPE '#'$$, $$'a\b' ESCAPE ''$$,
		-- '_' (PostgreSQL's function), also over multibyte characters
		$$'a_b'$$, $$'_'$$, $$'caf_'$$, $$'日_語'$$,
		-- multibyte
		$$'%本%'$$, $$'日%語'$$, $$'%é'$$,
		-- overlapping and repeated segments, longer than any value
		$$'a%a'$$, $$'a%b%b'$$, $$'%ab%ab%'$$, $$'%abc%abc'$$, $$'abcabcabcabc%'$$,
		-- trailing spaces, and char(6)'s padding (b1 is 'b1    ')
		$$'ab %'$$, $$'%1 %'$$, $$'b1%  '$$, $$'x     '$$, $$'b1'$$,
		-- a NULL pattern (the planner folds it to false; see p(NULL) below)
		$$NULL$$]) WITH ORDINALITY p(pat, pn),
	unnest(ARRAY['t', 'c', 'v', 'b']) WITH ORDINALITY col(name, cn),
	unnest(ARRAY['LIKE', 'NOT LIKE']) WITH ORDINALITY op(name, opn),
	LATERAL (SELECT format('%s %s %s', col.name, op.name, pat) AS cond) x,
	LATERAL (VALUES (true, format('SELECT count(*), sum(i) FROM lk WHERE %s', cond)),
					(false, format('SELECT i FROM lk WHERE %s AND i > 0', cond))) s(agg, q),
	LATERAL check_query(s.q) r
GROUP BY pn, cn, opn, cond ORDER BY pn, cn, opn;

-- LIKE with other conditions, NOT (...), grouping, FILTER and a join
SELECT q, c.* FROM (VALUES
	($$SELECT count(*), sum(i) FROM lk WHERE t LIKE 'a%' AND c NOT LIKE '%b%'$$),
	($$SELECT count(*), sum(i) FROM lk WHERE t LIKE '%本%' OR b LIKE 'b1%'$$),
	($$SELECT count(*), sum(i) FROM lk WHERE (t NOT LIKE '%a%' OR k < 10) AND v LIKE '%b'$$),
	($$SELECT count(*), sum(i) FROM lk WHERE NOT (t LIKE '%a%b%')$$),
	($$SELECT count(*), sum(i) FROM lk WHERE NOT (b NOT LIKE 'b%')$$),
	($$SELECT count(*), sum(i) FROM lk WHERE t NOT LIKE '%a%' AND t NOT LIKE '%é%'$$),
	($$SELECT count(*), sum(i) FROM lk WHERE t NOT LIKE NULL OR i < 5$$),
	($$SELECT count(*), sum(i) FROM lk WHERE t LIKE 'a%' AND t LIKE '%b' AND abs(i) % 3 = 0$$),
	($$SELECT i FROM lk WHERE t NOT LIKE '%a%' AND k = 7$$),
	($$SELECT i, t FROM lk WHERE t LIKE '%a%b%' AND i > 0$$),
	($$SELECT i, b FROM lk WHERE b NOT LIKE '%1 %' AND k < 5$$),
	($$SELECT i FROM lk WHERE (t LIKE 'a%' OR v LIKE '%b') AND k < 20$$),
	($$SELECT i FROM lk WHERE NOT (c LIKE '%a%') AND i > 0$$),
	($$SELECT i FROM lk WHERE t NOT LIKE '%a%'$$),
	($$SELECT b, count(*), sum(i) FROM lk WHERE b LIKE '%1%' GROUP BY b$$),
	($$SELECT count(*) FILTER (WHERE t LIKE '%ab%'), count(*) FILTER (WHERE b NOT LIKE 'b%') FROM lk$$),
	($$SELECT c_count, count(*) AS custdist FROM (
		SELECT ck, count(lk.i) AS c_count FROM generate_series(1, 200) ck
			LEFT JOIN lk ON ck = lk.k AND lk.t NOT LIKE '%special%requests%'
		GROUP BY ck) s GROUP BY c_count$$)
) v(q), LATERAL check_query(q) c;

-- the plans
EXPLAIN (COSTS OFF) SELECT i FROM lk WHERE t NOT LIKE '%a%' AND i > 0;
EXPLAIN (COSTS OFF) SELECT i FROM lk WHERE b LIKE 'b1%  ' AND i > 0;
EXPLAIN (COSTS OFF) SELECT i FROM lk WHERE t LIKE '%a%b%' AND i > 0;
EXPLAIN (COSTS OFF) SELECT count(*) FROM lk WHERE t LIKE '%a%b%';

-- a parameter: the pattern is known when the scan starts (NULL included)
PREPARE p(text) AS SELECT count(*), sum(i) FROM lk WHERE t LIKE $1;
PREPARE ph(text) AS SELECT count(*), sum(i) FROM lh WHERE t LIKE $1;
PREPARE pn(text) AS SELECT count(*), sum(i) FROM lk WHERE b NOT LIKE $1;
PREPARE pnh(text) AS SELECT count(*), sum(i) FROM lh WHERE b NOT LIKE $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE p('a%');
EXECUTE p('a%');
EXECUTE ph('a%');
EXECUTE p('%a%b%');
EXECUTE ph('%a%b%');
EXECUTE p('a\%b');
EXECUTE ph('a\%b');
EXECUTE p('a_b');
EXECUTE ph('a_b');
EXECUTE p('%本%');
EXECUTE ph('%本%');
EXECUTE p('');
EXECUTE ph('');
EXECUTE p(NULL);
EXECUTE ph(NULL);
EXECUTE pn('%1 %');
EXECUTE pnh('%1 %');
EXECUTE pn('b_  %');
EXECUTE pnh('b_  %');
EXECUTE p('ab\');
EXECUTE ph('ab\');
RESET plan_cache_mode;
DEALLOCATE ALL;

-- a trailing escape: PostgreSQL's error once a value reaches it ('aba'),
-- none when no value does
SELECT count(*) FROM lk WHERE t LIKE 'ab\';
SELECT count(*) FROM lh WHERE t LIKE 'ab\';
SELECT i FROM lk WHERE t NOT LIKE 'ab\' AND i > 0;
SELECT i FROM lh WHERE t NOT LIKE 'ab\' AND i > 0;
SELECT count(*) FROM lk WHERE b LIKE 'b1\';
SELECT count(*) FROM lh WHERE b LIKE 'b1\';
SELECT count(*) FROM lk WHERE t LIKE 'zzz\';
SELECT count(*) FROM lh WHERE t LIKE 'zzz\';

DROP FUNCTION check_query(text);
DROP TABLE lk, lh;
