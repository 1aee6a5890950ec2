-- char(n) "=", "<>" and IN lists in the batch filter (ColstoreScan) and in
-- ColstoreAgg's conditions, decided as bytes without trailing spaces (as
-- bpchareq under a deterministic collation), with the verdicts remembered
-- per batch by datum (dictionary-encoded chunks share one pointer per
-- distinct value; the high-cardinality column is not dictionary-encoded).
-- Every result must be heap's: padding in the data and in the constants,
-- the empty string, characters other than spaces at the end (a tab),
-- multibyte characters, NULLs in the column and in the lists, a domain.
SET max_parallel_workers_per_gather = 0;
CREATE DOMAIN bpc_dom AS char(8);
CREATE TABLE bpc (i int, low char(12), high char(10), d bpc_dom, vc varchar(12))
	USING colstore WITH (chunk_size = 1000);
INSERT INTO bpc SELECT i,
	CASE WHEN i % 17 = 0 THEN NULL
		 WHEN i % 13 = 0 THEN ''
		 WHEN i % 11 = 0 THEN 'AIR' || chr(9)
		 WHEN i % 7 = 0 THEN 'RÉG AIR'
		 ELSE (ARRAY['AIR', 'AIR REG', 'MAIL', 'SHIP', 'TRUCK'])[1 + i % 5] END,
	'h' || i,
	(ARRAY['MED BOX', 'SM CASE', 'LG PACK'])[1 + i % 3],
	(ARRAY['AIR', 'AIR REG', 'MAIL'])[1 + i % 3]
	FROM generate_series(1, 12000) i;
ANALYZE bpc;
CREATE TABLE bpch USING heap AS SELECT * FROM bpc;

CREATE FUNCTION bpc_check(q text) RETURNS TABLE (node text, nrows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	plan text;
	h text := replace(q, 'FROM bpc', 'FROM bpch');
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || q INTO plan;
	node := CASE WHEN plan LIKE '%ColstoreAgg%' THEN 'agg'
				 WHEN plan LIKE '%Batch Filter%' THEN 'batch filter'
				 ELSE 'other' END;
	EXECUTE format('SELECT count(*) FROM (%s) x', q) INTO nrows;
	EXECUTE format('SELECT NOT EXISTS ((%s) EXCEPT ALL (%s)) AND NOT EXISTS ((%s) EXCEPT ALL (%s))',
				   q, h, h, q) INTO same;
	RETURN NEXT;
END $$;

EXPLAIN (COSTS OFF) SELECT i FROM bpc WHERE low IN ('AIR', 'AIR REG') AND d = 'MED BOX';
SELECT q, c.* FROM (VALUES
	('SELECT i FROM bpc WHERE low = ''AIR'''),
	('SELECT i FROM bpc WHERE low = ''AIR         '''),
	('SELECT i FROM bpc WHERE low = ''AIR   '''),
	('SELECT i FROM bpc WHERE low = (''AIR'' || chr(9))::char(4)'),
	('SELECT i FROM bpc WHERE low IN (''AIR'', (''AIR'' || chr(9))::char(4))'),
	('SELECT i FROM bpc WHERE low = '''''),
	('SELECT i FROM bpc WHERE low = ''   '''),
	('SELECT i FROM bpc WHERE low = ''RÉG AIR'''),
	('SELECT i FROM bpc WHERE low <> ''AIR'''),
	('SELECT i FROM bpc WHERE low <> '''''),
	('SELECT i FROM bpc WHERE low = NULL'),
	('SELECT i FROM bpc WHERE low IN (''AIR'', ''AIR REG'')'),
	('SELECT i FROM bpc WHERE low IN (''AIR  '', ''SHIP'', NULL, '''')'),
	('SELECT i FROM bpc WHERE low IN (''TRUCKS'', ''AI'')'),
	('SELECT i FROM bpc WHERE low IN (''AIR'', ''AIR REG'') AND d = ''MED BOX'''),
	('SELECT i FROM bpc WHERE low = ''MAIL'' OR d = ''LG PACK  '''),
	('SELECT i FROM bpc WHERE high = ''h77'''),
	('SELECT i FROM bpc WHERE high IN (''h1'', ''h1000  '', ''h11999'', ''h12001'')'),
	('SELECT i FROM bpc WHERE high <> ''h5'''),
	('SELECT i FROM bpc WHERE d = ''SM CASE'''),
	('SELECT i FROM bpc WHERE d IN (''SM CASE '', ''XX'')'),
	('SELECT i FROM bpc WHERE vc = ''AIR'''),
	-- ColstoreAgg's conditions
	('SELECT count(*), sum(i) FROM bpc WHERE low = ''AIR'''),
	('SELECT count(*), sum(i) FROM bpc WHERE low IN (''MAIL'', ''SHIP  '') AND high <> ''h20'''),
	('SELECT low, count(*) FROM bpc WHERE low <> ''TRUCK'' GROUP BY low')) v(q),
	LATERAL bpc_check(q) c;
-- the counts are what the filters must keep
SELECT count(*) FROM bpc WHERE low = 'AIR';
SELECT count(*) FROM bpc WHERE low = '';
SELECT count(*) FROM bpc WHERE low <> 'AIR';
SELECT count(*) FROM bpc WHERE low IN ('AIR  ', 'SHIP', NULL, '');

-- a clause under another collation than the column's is left to the
-- executor (as one under a nondeterministic collation would be)
EXPLAIN (COSTS OFF) SELECT i FROM bpc WHERE low = 'AIR' COLLATE "C";
SELECT count(*) FROM bpc WHERE low = 'AIR' COLLATE "C";

DROP FUNCTION bpc_check(text);
DROP TABLE bpc, bpch;
DROP DOMAIN bpc_dom;
RESET max_parallel_workers_per_gather;
