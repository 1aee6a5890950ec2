-- Every kind of value round-trips exactly: compare a colstore table with a heap table holding
-- the same rows, in both directions, then look at a few values directly.
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE TYPE pair AS (x int, y text);
CREATE DOMAIN posint AS int CHECK (VALUE > 0);

CREATE TABLE src (
	i2 int2, i4 int4, i8 int8, f4 float4, f8 float8, n numeric, n2 numeric(10,2),
	b bool, t text, vc varchar(20), c char(5), by bytea, d date, tm time, tz timetz,
	ts timestamp, tstz timestamptz, iv interval, u uuid, ip inet, cid cidr, mac macaddr,
	j json, jb jsonb, arr int[], tarr text[], mo mood, pr pair, dom posint,
	r int4range, pt point, bits bit varying(10), x xml
);
INSERT INTO src
SELECT (i % 30000)::int2, i, i::int8 * 1000000007, i / 3.0, i / 7.0,
	   (i - 500) / 13.0, (i % 1000) / 100.0,
	   i % 2 = 0, 'text ' || i, 'vc' || (i % 50), 'c' || (i % 10),
	   decode(md5(i::text), 'hex'), date '2000-01-01' + i, time '00:00' + i * interval '1 second',
	   timetz '12:00+02' + i * interval '1 minute',
	   timestamp '2020-01-01' + i * interval '1 hour', timestamptz '2020-01-01 UTC' + i * interval '1 day',
	   i * interval '1 minute', md5(i::text)::uuid, ('10.0.' || (i % 256) || '.1')::inet,
	   ('10.' || (i % 256) || '.0.0/16')::cidr, ('08:00:2b:01:02:' || lpad(to_hex(i % 256), 2, '0'))::macaddr,
	   json_build_object('i', i), jsonb_build_object('i', i, 'a', ARRAY[i, i + 1]),
	   ARRAY[i, NULL, i + 2], ARRAY['x' || i, NULL], (ARRAY['sad', 'ok', 'happy'])[i % 3 + 1]::mood,
	   ROW(i, 'p' || i)::pair, i, int4range(i, i + 10), point(i, -i), (i % 1024)::bit(10)::varbit,
	   ('<r>' || i || '</r>')::xml
FROM generate_series(1, 3000) i;
-- NULLs in every column, and special values
INSERT INTO src (i4) VALUES (NULL), (-1);
INSERT INTO src (f4, f8, n, t, by, d, ts, tstz)
VALUES ('NaN', 'NaN', 'NaN', '', '', 'infinity', '-infinity', 'infinity'),
	   ('-0', '-0', '0.000', repeat('long', 100000), decode(repeat('ff', 50000), 'hex'), '-infinity', 'infinity', '-infinity'),
	   ('Infinity', '-Infinity', '12345678901234567890.1234567890123456789', 'üñíçødé', '\x00', '2000-02-29', 'epoch', 'epoch');

CREATE TABLE col USING colstore AS SELECT * FROM src;
-- xml has no equality operator: compare it as text
CREATE VIEW src_v AS SELECT i2, i4, i8, f4, f8, n, n2, b, t, vc, c, by, d, tm, tz, ts, tstz, iv, u, ip,
	cid, mac, j::text AS j, jb, arr, tarr, mo, pr, dom, r, pt::text AS pt, bits, x::text AS x FROM src;
CREATE VIEW col_v AS SELECT i2, i4, i8, f4, f8, n, n2, b, t, vc, c, by, d, tm, tz, ts, tstz, iv, u, ip,
	cid, mac, j::text AS j, jb, arr, tarr, mo, pr, dom, r, pt::text AS pt, bits, x::text AS x FROM col;
SELECT count(*) FROM (SELECT * FROM src_v EXCEPT ALL SELECT * FROM col_v) d;
SELECT count(*) FROM (SELECT * FROM col_v EXCEPT ALL SELECT * FROM src_v) d;
SELECT count(*) FROM col;

-- exact text forms: display scale, float specials, -0
SELECT f4, f8, n, length(t), length(by), d, ts, tstz FROM col WHERE i4 IS NULL AND i2 IS NULL ORDER BY length(t);
SELECT n, n2, f4, f8 FROM col WHERE i4 IN (1, 2, 3) ORDER BY i4;
SELECT i2, i4, i8, mo, pr, dom, r, arr, tarr, jb FROM col WHERE i4 = 7;

-- a value TOASTed (and compressed) in a heap table is stored expanded, not as a pointer
CREATE TABLE toasty (id int, doc text);
INSERT INTO toasty VALUES (1, repeat('abcdefgh', 200000));
CREATE TABLE toasty_col USING colstore AS SELECT * FROM toasty;
DROP TABLE toasty;
SELECT id, length(doc), md5(doc) = md5(repeat('abcdefgh', 200000)) FROM toasty_col;

DROP VIEW src_v, col_v;
DROP TABLE src, col, toasty_col;
DROP TYPE pair;
DROP TYPE mood;
DROP DOMAIN posint;
