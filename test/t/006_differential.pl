# Differential test: a heap table h and a colstore table c hold the same rows
# (three loads: a large generated one, a second generated one with other value
# distributions, and a few edge values), and a deterministic generator of
# random read-only queries (fixed seed) runs every query on both.  colstore
# must give exactly the output of heap, and must not raise an error where heap
# does not, with the server's default plans (parallel plans included: they cost
# nothing here), with index and bitmap scans disabled, without parallel
# workers, with hash joins disabled, without colstore's custom scans, without
# its hash join filters and ColstoreIndexScan, and (for the joins with
# dimension tables) with nested loops only: hash and merge joins disabled, so
# parameterized index scans of c and of the dimensions on the inner side.
# Query families: row listings, aggregates, GROUP BY, self joins, joins of
# copies of the tables loaded in id order (merge and key-range joins),
# aggregates with FILTER, queries that read no column, subqueries/windows,
# correlated aggregate subqueries, and joins of h or c (the fact table) with
# small dimension tables of the same engine (da_h with h, da_c with c; keys
# with duplicates, NULL keys, keys that match nothing, an empty dimension):
# star joins, semi joins (EXISTS, IN), anti joins (NOT EXISTS, NOT IN, LEFT
# JOIN ... IS NULL), LEFT/RIGHT/FULL joins, aggregates grouped by dimension
# columns, and joins with an empty side.  All of them run again after
# identical UPDATEs and DELETEs of h and c.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('differential');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'colstore'
max_parallel_workers_per_gather = 2
parallel_setup_cost = 0
parallel_tuple_cost = 0
min_parallel_table_scan_size = 0
});
$node->start;

# Every value's text form is a function of the value (no 0 next to -0, no
# numeric 1 next to 1.0), so min/max and ORDER BY ties cannot legitimately
# print differently depending on the order rows are read in.  float8 values
# are multiples of 1/8, so their sums are exact in any order.
my $batch1 = q{
	SELECT CASE WHEN i % 997 = 0 THEN NULL ELSE i END,
		CASE WHEN i % 17 = 0 THEN NULL WHEN i % 10 < 7 THEN 5 ELSE i % 61 - 30 END,
		CASE WHEN i % 19 = 0 THEN NULL ELSE (i / 1000) * 7 % 100 - 50 END,
		CASE WHEN i % 13 = 0 THEN NULL WHEN i % 101 = 0 THEN -(1e25 + i)
			WHEN i % 5 = 0 THEN i * 1000003::numeric ELSE (i % 1000 - 500) / 8.0 END,
		CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 7 % 4001 - 2000) / 8.0 END,
		CASE WHEN i % 29 = 0 THEN NULL WHEN i % 5 = 0 THEN repeat('x', i % 300)
			WHEN i % 211 = 0 THEN 'long ' || repeat(md5(i::text), 100)
			WHEN i % 3 = 0 THEN 'ü' || i % 11 ELSE 'k' || i % 37 END,
		CASE WHEN i % 31 = 0 THEN NULL WHEN i % 50 = 0 THEN 'longer_val' ELSE 'v' || i % 4 END,
		CASE WHEN i % 37 = 0 THEN NULL ELSE date '2020-01-01' + i / 100 END,
		CASE WHEN i % 41 = 0 THEN NULL ELSE timestamp '2021-06-01' + i * interval '37 seconds' END,
		CASE WHEN i % 43 = 0 THEN NULL
			ELSE timestamptz '2022-03-01 00:00+00' + i % 500 * interval '1 hour' END,
		CASE WHEN i % 47 = 0 THEN NULL ELSE i % 3 = 0 END
	FROM generate_series(1, 30000) i
};
my $batch2 = q{
	SELECT -i,
		CASE WHEN i % 23 = 0 THEN NULL ELSE -i END,
		CASE WHEN i % 7 = 0 THEN NULL ELSE i % 3 END,
		CASE WHEN i % 9 = 0 THEN NULL ELSE (i % 1000 - 500) / 8.0 END,
		CASE WHEN i % 10 = 0 THEN NULL ELSE -i * 0.5 END,
		CASE WHEN i % 6 = 0 THEN NULL ELSE 'batch2-' || i % 9 END,
		CASE WHEN i % 8 = 0 THEN NULL ELSE 'w' || i % 2 END,
		CASE WHEN i % 12 = 0 THEN NULL ELSE date '2019-12-31' - i % 40 END,
		CASE WHEN i % 14 = 0 THEN NULL ELSE timestamp '2021-05-31' - i * interval '1 minute' END,
		CASE WHEN i % 15 = 0 THEN NULL ELSE timestamptz '2022-02-28 12:00+00' - i * interval '90 seconds' END,
		CASE WHEN i % 5 = 0 THEN NULL ELSE i % 2 = 0 END
	FROM generate_series(1, 2500) i
};
my $edge_rows = q{
	VALUES (9000000000000000000, 2000000000, 32767, 0.000001, 'Infinity', '', 'v0',
			'infinity', 'infinity', '-infinity', true),
		(-9000000000000000000, -2000000000, -32768, -99999999999999999999.99999, '-Infinity',
			repeat('z', 5000), 'v9', '-infinity', '-infinity', 'infinity', false),
		(123456789, 0, 0, 123456.789, 'NaN', 'k1', 'longer_val', '2020-02-29', '2000-01-01 00:00:00.000001',
			'1999-12-31 23:59:59.999999+00', NULL),
		(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
};

my $columns = 'id bigint, a int, s smallint, n numeric, f float8, t text, v varchar(10), '
  . 'd date, ts timestamp, tz timestamptz, b bool';
$node->safe_psql('postgres', qq{
	CREATE EXTENSION colstore;
	CREATE TABLE h ($columns);
	CREATE TABLE c ($columns) USING colstore WITH (row_group_size = 5000, chunk_size = 1000);
	INSERT INTO h $batch1;
	INSERT INTO c SELECT * FROM h;
	INSERT INTO h $batch2;
	INSERT INTO c $batch2;
	INSERT INTO h $edge_rows;
	INSERT INTO c $edge_rows;
	CREATE INDEX ON h (id);
	CREATE INDEX ON c (id);
	CREATE INDEX ON h (d);
	CREATE INDEX ON c (d);
	ANALYZE h;
	ANALYZE c;
	-- hk and ck: the rows with an id, every seventh twice, loaded in id order
	-- (ck holds id in ascending order: merge and key-range joins on it)
	CREATE TABLE hk (LIKE h);
	CREATE TABLE ck (LIKE h) USING colstore WITH (row_group_size = 5000, chunk_size = 1000);
	INSERT INTO hk SELECT * FROM (SELECT * FROM h WHERE id IS NOT NULL
		UNION ALL SELECT * FROM h WHERE id % 7 = 0) s ORDER BY id;
	INSERT INTO ck SELECT * FROM (SELECT * FROM h WHERE id IS NOT NULL
		UNION ALL SELECT * FROM h WHERE id % 7 = 0) s ORDER BY id;
	ANALYZE hk;
	ANALYZE ck;
});

# Dimension tables for the join families, da_h and da_c, ..., loaded alike,
# each keyed (k) on a column of the fact tables (h, c): da on a, ds on s
# (through int), dv on v (through text), dd on d, di on id.  Keys that match
# many fact rows, a few, or none (7 and 100 in ds, 'zz' and 'w1 ' in dv),
# duplicate keys, NULL keys, and fact values without a key; de (on a) is
# empty.  g (0 to 4, or NULL), name and w are for filters, groups and
# aggregates.  da_c, ds_c and dd_c are loaded into row groups, dv_c and di_c
# onto heap pages.  Every key column is indexed (and s in h and c), so nested
# loops can probe either side.
my $dimension_rows = q{SELECT k, CASE WHEN n % 7 <> 0 THEN n % 5 END, '%s' || n % 11,
	(n * 37 % 200 - 100) / 4.0 FROM unnest(%s) WITH ORDINALITY u(k, n)};
my %dimension_keys = (
	da => 'ARRAY[-30, -27, -24, -21, -18, -15, -12, -9, -6, -3, 0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30,
		5, 5, -3, -3, NULL, NULL, 1000, -99999, -100, -2500, -2501, 31, 2000000000]',
	ds => 'ARRAY[-50, -45, -43, -40, -36, -31, -22, -10, -1, 0, 0, 1, 2, 4, 11, 18, 27, 34, 41, 48,
		32767, -32768, NULL, 7, 100, -49, 1000]',
	dv => "ARRAY['v0', 'v1', 'v1', 'v3', 'w0', 'longer_val', 'v9', NULL, 'zz', '', 'V1', 'w1 ']",
	dd => "ARRAY[date '2020-01-01', '2020-01-08', '2020-01-14', '2020-02-20', '2020-03-18', '2020-04-10',
		'2020-05-30', '2020-07-19', '2020-09-07', '2020-10-26', '2019-12-31', '2019-12-01', '2019-11-22',
		'2020-02-29', '2020-02-29', 'infinity', '-infinity', NULL, '1999-01-01', '2030-01-01']",
	di => 'ARRAY(SELECT i * 613 % 33000 - 2600 FROM generate_series(1, 50) i)
		|| ARRAY[0, 997, 1, 30000, -2500, 9000000000000000000, -9000000000000000000, 123456789, 7, 7,
			NULL, NULL, 40000, 30100]::bigint[]');
my %dimension_type = (da => 'int', ds => 'int', dv => 'text', dd => 'date', di => 'bigint', de => 'int');
my $dimension_sql = 'CREATE INDEX ON h (s); CREATE INDEX ON c (s); ANALYZE h; ANALYZE c;';
foreach my $dim (sort keys %dimension_type)
{
	$dimension_sql .= "
	CREATE TABLE ${dim}_h (k $dimension_type{$dim}, g int, name text, w numeric(8,2));
	CREATE TABLE ${dim}_c (LIKE ${dim}_h) USING colstore;";
	$dimension_sql .= "
	INSERT INTO ${dim}_h " . sprintf($dimension_rows, substr($dim, 1), $dimension_keys{$dim}) . ";
	SET colstore.delta_insert_rows = " . ($dim =~ /^d[asd]$/ ? 0 : 1000) . ";
	INSERT INTO ${dim}_c SELECT * FROM ${dim}_h;
	RESET colstore.delta_insert_rows;" if $dimension_keys{$dim};
	$dimension_sql .= "
	CREATE INDEX ON ${dim}_h (k);
	CREATE INDEX ON ${dim}_c (k);
	ANALYZE ${dim}_h;
	ANALYZE ${dim}_c;";
}
$node->safe_psql('postgres', $dimension_sql);
my $dimension_counts = join(' UNION ALL ',
	map { "SELECT '$_', count(*), count(k), count(DISTINCT k) FROM $_" }
	  sort map { ("${_}_c", "${_}_h") } keys %dimension_type) . ' ORDER BY 1';
is($node->safe_psql('postgres', $dimension_counts), 'da_c|34|32|29
da_h|34|32|29
dd_c|20|19|18
dd_h|20|19|18
de_c|0|0|0
de_h|0|0|0
di_c|64|62|61
di_h|64|62|61
ds_c|27|26|25
ds_h|27|26|25
dv_c|12|11|10
dv_h|12|11|10', 'dimension tables hold the same rows in both engines');

# the edge rows are a small INSERT: heap tuples on a heap page, so queries
# cover row groups and heap pages together
is($node->safe_psql('postgres', 'SELECT count(*) FROM colstore.row_groups(\'c\')'), '7',
	'colstore table has 6 row groups from the first load and one from the second');

### The query generator

srand(20261123);

sub pick { return $_[ int(rand(@_)) ]; }
sub between { my ($lo, $hi) = @_; return $lo + int(rand($hi - $lo + 1)); }

# Distinct random elements of a list, at least one and at most $max.
sub some
{
	my ($max, @list) = @_;
	my $want = between(1, $max);
	my @picked;
	while (@picked < $want && @list)
	{
		push @picked, splice(@list, int(rand(@list)), 1);
	}
	return @picked;
}

# A constant of each column's type, in the range of the data.
my %constant = (
	id => sub { pick(between(-2600, 30100), '9000000000000000000', '-9000000000000000000') },
	a => sub { pick(between(-32, 32), 5, -between(1, 2500)) },
	s => sub { between(-52, 52) },
	n => sub { pick(sprintf('%.3f', between(-510, 510) / 8), between(1, 30000) * 1000003, '-1e25') },
	f => sub { pick(sprintf('%.3f', between(-2010, 2010) / 8), "'Infinity'::float8", '0') },
	t => sub { pick("'k" . between(0, 40) . "'", "''", "'" . ('x' x between(0, 4)) . "'", "'ü3'", "'batch2-4'") },
	v => sub { pick("'v" . between(0, 4) . "'", "'w1'", "'longer_val'") },
	d => sub { "date '2020-01-01' + " . between(-45, 310) },
	ts => sub { "timestamp '2021-06-01' + interval '" . between(-200000, 1120000) . " seconds'" },
	tz => sub { "timestamptz '2022-03-01 00:00+00' + interval '" . between(-70, 510) . " hours'" },
);
my @columns = qw(id a s n f t v d ts tz b);

# A leaf predicate on a column of the table aliased $p ('' for none).
sub leaf
{
	my ($p) = @_;
	my $col = pick(@columns);
	my $x = "$p$col";
	return pick("$x IS NULL", "$x IS NOT NULL") if rand() < 0.15;
	return pick($x, "NOT $x", "$x IS TRUE", "$x IS NOT FALSE", "$x IS UNKNOWN", "$x = false")
	  if $col eq 'b';
	my $k = $constant{$col};
	my $r = rand();
	if ($r < 0.45)
	{
		return "$x " . pick('=', '<>', '<', '<=', '>', '>=') . ' ' . $k->();
	}
	elsif ($r < 0.6)
	{
		return "$x " . pick('BETWEEN', 'NOT BETWEEN', 'BETWEEN SYMMETRIC') . ' ' . $k->() . ' AND ' . $k->();
	}
	elsif ($r < 0.75)
	{
		return "$x " . pick('IN', 'NOT IN') . ' (' . join(', ', map { $k->() } 1 .. between(1, 4)) . ')';
	}
	elsif ($col eq 't' && $r < 0.95)
	{
		return "$x " . pick('LIKE', 'NOT LIKE') . ' ' . pick("'k1%'", "'x%'", "'xxx%'", "'ü%'", "'long%'", "'batch2-%'", "'%'");
	}
	elsif ($col eq 'v' && $r < 0.95)
	{
		return "$x LIKE " . pick("'v%'", "'w%'", "'longer%'");
	}
	# comparisons between two columns or with an expression
	return pick("${p}a < ${p}s", "${p}id::numeric > ${p}n", "${p}f >= ${p}a",
		"length(${p}t) > " . between(0, 300), "${p}ts::date = ${p}d", "${p}a::bigint + ${p}s > " . between(-40, 40),
		"${p}v = left(${p}t, 2)");
}

# A predicate: leaves combined with AND, OR and NOT, nested up to depth 2.
sub predicate
{
	my ($p, $depth) = @_;
	$depth //= 0;
	my $r = rand();
	return leaf($p) if $depth == 2 || $r < 0.4;
	return 'NOT (' . predicate($p, $depth + 1) . ')' if $r < 0.5;
	return '(' . predicate($p, $depth + 1) . pick(' AND ', ' OR ') . predicate($p, $depth + 1) . ')';
}

sub where { return 'WHERE ' . predicate(''); }

# ORDER BY the first $n output columns, NULLs first.
sub order_by { my ($n) = @_; return 'ORDER BY ' . join(', ', map { "$_ NULLS FIRST" } 1 .. $n); }

my @expressions = (@columns, 'length(t)', 'a::bigint * 2 + s', 'upper(v)', "date_trunc('month', ts)",
	'extract(dow from d)', 'n + 1', "coalesce(t, 'none')", 'floor(f)', 'left(t, 12)', 'tz::date', 'b IS NULL');

# An aggregate over a column, valid for its type and independent of the order
# rows are read in, with an optional FILTER clause.
sub aggregate
{
	my ($col, $filter) = @_;
	$filter = $filter ? " FILTER ($filter)" : '';
	my ($bare) = $col =~ /(\w+)$/;
	return pick("bool_and($col)", "bool_or($col)", "count($col)") . $filter if $bare eq 'b';
	my @aggs = ("min($col)", "max($col)", "count($col)", "count(DISTINCT $col)");
	if ($bare eq 'f')
	{
		return pick((map { "$_$filter" } @aggs),
			map { "round(($_($col)$filter)::numeric, 6)" } qw(sum avg));
	}
	push @aggs, "sum($col)", "avg($col)" if grep { $_ eq $bare } qw(id a s n);
	push @aggs, "sum($col * (1 - $col))", "avg($col * 2 + 0.5)" if $bare eq 'n';
	return pick(@aggs) . $filter;
}

sub rows_query
{
	my @items = some(4, @expressions);
	my $sql = 'SELECT ' . join(', ', @items) . ' FROM {t} ' . where() . ' ORDER BY '
	  . join(', ', map { $_ . pick(' NULLS FIRST', ' DESC NULLS LAST') } 1 .. @items) . ' LIMIT ' . between(1, 40);
	$sql .= ' OFFSET ' . between(1, 100) if rand() < 0.2;
	return $sql;
}

sub aggregate_query
{
	my @aggs = ('count(*)', map { aggregate($_) } some(5, @columns));
	return 'SELECT ' . join(', ', @aggs) . ' FROM {t} ' . where();
}

sub group_query
{
	my @keys = some(2, qw(a s v b d t n f), "date_trunc('month', ts)", 'length(t) % 10',
		'a % 7', 'extract(dow from d)', "coalesce(t, 'none')", 'upper(v)', 'floor(f)', 'floor(n / 7)',
		"CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' END", 's + a');
	my @aggs = ('count(*)', map { aggregate($_) } some(3, @columns));
	my $sql = 'SELECT ' . join(', ', @keys, @aggs) . ' FROM {t} ' . where()
	  . ' GROUP BY ' . join(', ', 1 .. @keys);
	$sql .= ' HAVING ' . pick('count(*) > ' . between(1, 50),
		'max(a) > ' . between(-30, 30) . ' OR min(s) < ' . between(-50, 50),
		'avg(f) > ' . between(-100, 100), 'sum(n) IS NOT NULL AND count(t) > ' . between(0, 20))
	  if rand() < 0.3;
	return $sql . ' ' . order_by(scalar @keys) . ' LIMIT 60';
}

sub join_query
{
	my $on = pick('a.id = b.id', 'a.id = b.id + 1', 'a.id / 3 = b.id / 3', 'a.ts = b.ts',
		'a.t = b.t AND a.id = b.id');
	my $kind = pick('JOIN', 'LEFT JOIN');
	my @aggs = ('count(*)', map { aggregate($_) } some(3, map { ("a.$_", "b.$_") } @columns));
	my $sql = 'SELECT ' . join(', ', @aggs) . " FROM {t} a $kind {t} b ON $on";
	$sql .= ' AND ' . predicate('b.') if $kind eq 'LEFT JOIN' || rand() < 0.5;
	return $sql . ' WHERE ' . predicate('a.');
}

# Joins of the tables ordered by id (hk, ck) on id.
sub ordered_join_query
{
	my $on = pick('a.id = b.id', 'a.id = b.id', 'a.id = b.id AND a.t = b.t', 'a.id = b.id + 1');
	my $kind = pick('JOIN', 'JOIN', 'LEFT JOIN');
	my @aggs = ('count(*)', map { aggregate($_) } some(3, map { ("a.$_", "b.$_") } @columns));
	my $sql = 'SELECT ' . join(', ', @aggs) . " FROM {t}k a $kind {t}k b ON $on";
	$sql .= ' AND ' . predicate('b.') if rand() < 0.3;
	return $sql . (rand() < 0.6 ? ' WHERE ' . predicate('a.') : '');
}

sub filter_query
{
	my @aggs = map { aggregate($_, where()) } some(4, @columns);
	return 'SELECT count(*) FILTER (' . where() . '), ' . join(', ', @aggs) . ' FROM {t} '
	  . (rand() < 0.7 ? where() : '');
}

# Queries that read no user column (nor any system column).
sub no_column_query
{
	return pick(
		'SELECT count(*) FROM {t} ' . where(),
		'SELECT count(*) FROM {t}',
		'SELECT 1 FROM {t} ' . where() . ' LIMIT 3',
		'SELECT EXISTS (SELECT FROM {t} ' . where() . ')',
		'SELECT count(*) FROM (SELECT FROM {t} ' . where() . ' OFFSET 0) s');
}

sub subquery_query
{
	my $col = pick(qw(a s v d t));
	return pick(
		"SELECT count(*), sum(id) FROM {t} WHERE $col IN (SELECT $col FROM {t} " . where() . ')',
		"SELECT count(*) FROM {t} x WHERE NOT EXISTS (SELECT FROM {t} y WHERE y.id = x.id + 1 AND "
		  . predicate('y.') . ') AND ' . predicate('x.'),
		"SELECT id, $col, sum(a) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), "
		  . "row_number() OVER (PARTITION BY $col ORDER BY id) FROM {t} WHERE id IS NOT NULL AND "
		  . predicate('') . ' ORDER BY id LIMIT 30',
		"SELECT DISTINCT $col FROM {t} " . where() . ' ' . order_by(1) . ' LIMIT 50');
}

# Correlated subqueries with aggregates, on keys with duplicates and NULLs:
# over colstore, the shapes decorrelate.c can rewrite into joins with grouped
# aggregates are rewritten (the others, with count, a float sum or coalesce,
# run as written); over heap they run once per outer row.
sub correlated_query
{
	my $key = pick(qw(a s d));
	my ($agg, $outer) = @{ pick(
		[ 'avg(y.n)', 'x.n' ], [ 'sum(y.a)', 'x.id' ], [ 'min(y.t)', 'x.t' ],
		[ 'max(y.d)', 'x.d' ], [ 'avg(y.s) * 2', 'x.a' ], [ 'max(y.n) - 1', 'x.n' ],
		[ 'count(*)', 'x.a' ], [ 'sum(y.f)', 'x.f' ], [ 'coalesce(max(y.a), 0)', 'x.s' ]) };
	my $op = pick('<', '<=', '=', '>=', '>', '<>');
	my $lo = between(-2600, 30000);
	my $local = rand() < 0.5 ? ' AND ' . predicate('y.') : '';
	my $sql = "SELECT count(*), sum(x.id), min(x.t) FROM {t} x WHERE x.id BETWEEN $lo AND $lo + 200"
	  . " AND $outer $op (SELECT $agg FROM {t} y WHERE y.$key = x.$key$local)";
	$sql .= ' AND ' . predicate('x.') if rand() < 0.5;
	return $sql;
}

# Join families: the fact table ({t}: h or c) joined with the dimension
# tables (da_{t} ... de_{t}: da_h with h, da_c with c), each keyed (k) on a
# column of the fact table, s and v through another type (int, text).
my %dimension_of = (da => 'a', ds => 's', dv => 'v', dd => 'd', di => 'id', de => 'a');
my @dimensions = qw(da ds dv dd di);

# A predicate on the dimension aliased $x: most keep a few of its rows, some
# none, some its NULL keys.
sub dimension_filter
{
	my ($x, $dim) = @_;
	my $k = $constant{ $dimension_of{$dim} };
	my $leaf = sub {
		return pick("$x.g = " . between(0, 4), "$x.g IN (" . between(0, 4) . ', ' . between(0, 4) . ')',
			"$x.g <> " . between(0, 4), "$x.g IS NULL", "$x.g > 10",
			"$x.name = '" . substr($dim, 1) . between(0, 10) . "'", "$x.name LIKE '%" . between(0, 9) . "'",
			"$x.w " . pick('<', '>=') . ' ' . between(-25, 25), "$x.k " . pick('<', '>=', '<>') . ' ' . $k->(),
			"$x.k IN (" . join(', ', map { $k->() } 1 .. 3) . ')', "($x.k IS NULL OR $x.g = " . between(0, 4) . ')');
	};
	return rand() < 0.25 ? '(' . $leaf->() . pick(' AND ', ' OR ') . $leaf->() . ')' : $leaf->();
}

# Joins of f with the dimensions, aliased x0, x1, ...: "JOIN da_{t} x0 ON f.a = x0.k ..."
sub dimension_joins
{
	my ($kind, $on_filters, @dims) = @_;
	return join('', map {
		" $kind $dims[$_]_{t} x$_ ON f.$dimension_of{$dims[$_]} = x$_.k"
		  . ($on_filters ? ' AND ' . dimension_filter("x$_", $dims[$_]) : '')
	} 0 .. $#dims);
}

# Aggregates over a join of f with the dimensions aliased @x.
sub join_aggregates
{
	my @x = @_;
	return ('count(*)', (map { aggregate("f.$_") } some(2, @columns)),
		map { pick("sum($_.w)", "max($_.name)", "min($_.k)", "count($_.k)", "count(DISTINCT $_.g)", "avg($_.w)") }
		  some(2, @x));
}

# A select list of columns of f and of the dimensions aliased @x, and its
# ORDER BY (all of them) and LIMIT.
sub join_listing
{
	my @x = @_;
	my @items = ((map { "f.$_" } some(2, qw(id a s v d t n))), map { "$_." . pick(qw(k g name w)) } some(2, @x));
	return ('SELECT ' . join(', ', @items), ' ' . order_by(scalar @items) . ' LIMIT ' . between(1, 50));
}

# Star joins: the fact table and two or three dimensions on different
# columns, selective filters on the dimensions, aggregated, grouped by
# dimension columns or listed in full order.
sub star_query
{
	my @dims = some(3, @dimensions);
	push @dims, pick(grep { my $d = $_; !grep { $_ eq $d } @dims } @dimensions) if @dims < 2;
	my @x = map { "x$_" } 0 .. $#dims;
	my $from = ' FROM {t} f' . dimension_joins('JOIN', 0, @dims) . ' WHERE '
	  . join(' AND ', map { dimension_filter("x$_", $dims[$_]) } 0 .. $#dims);
	$from .= ' AND ' . predicate('f.') if rand() < 0.4;
	my $r = rand();
	return 'SELECT ' . join(', ', join_aggregates(@x)) . $from if $r < 0.4;
	if ($r < 0.7)
	{
		my @keys = map { "$_." . pick(qw(g name k)) } some(2, @x);
		return 'SELECT ' . join(', ', @keys, join_aggregates(@x)) . $from . ' GROUP BY '
		  . join(', ', 1 .. @keys) . ' ' . order_by(scalar @keys) . ' LIMIT 60';
	}
	my ($select, $order) = join_listing(@x);
	return $select . $from . $order;
}

# The output of a query on f alone: aggregates or a listing in full order.
sub fact_output
{
	if (rand() < 0.6)
	{
		return ('SELECT count(*), ' . join(', ', map { aggregate("f.$_") } some(3, @columns)), '');
	}
	my @items = map { "f.$_" } some(3, qw(id a s v d t n b));
	return ('SELECT ' . join(', ', @items), ' ' . order_by(scalar @items) . ' LIMIT ' . between(1, 50));
}

# Semi joins: EXISTS and IN over the dimensions, one key or two.
sub semi_query
{
	my @conditions = map {
		my $col = $dimension_of{$_};
		my $filter = dimension_filter('x', $_);
		pick("EXISTS (SELECT FROM ${_}_{t} x WHERE x.k = f.$col AND $filter)",
			"f.$col IN (SELECT x.k FROM ${_}_{t} x WHERE $filter)",
			"EXISTS (SELECT 1 FROM ${_}_{t} x WHERE x.k = f.$col AND x.g = f.s % 5)",
			"(f.$col, f.s % 5) IN (SELECT x.k, x.g FROM ${_}_{t} x WHERE $filter)")
	} some(2, @dimensions);
	push @conditions, predicate('f.') if rand() < 0.5;
	my ($select, $order) = fact_output();
	return "$select FROM {t} f WHERE " . join(' AND ', @conditions) . $order;
}

# Anti joins: NOT EXISTS, NOT IN (no rows when the subquery returns a NULL
# key) and LEFT JOIN ... IS NULL.
sub anti_query
{
	my $dim = pick(@dimensions);
	my $col = $dimension_of{$dim};
	my $filter = dimension_filter('x', $dim);
	my $from = pick(
		" FROM {t} f WHERE NOT EXISTS (SELECT FROM ${dim}_{t} x WHERE x.k = f.$col AND $filter)",
		" FROM {t} f WHERE f.$col NOT IN (SELECT x.k FROM ${dim}_{t} x WHERE $filter)",
		" FROM {t} f WHERE f.$col NOT IN (SELECT x.k FROM ${dim}_{t} x WHERE x.k IS NOT NULL AND $filter)",
		" FROM {t} f LEFT JOIN ${dim}_{t} x ON x.k = f.$col AND $filter WHERE x.k IS NULL",
		" FROM {t} f WHERE NOT EXISTS (SELECT FROM ${dim}_{t} x WHERE x.k = f.$col AND x.g = f.s % 5)");
	$from .= ' AND ' . predicate('f.') if rand() < 0.6;
	my ($select, $order) = fact_output();
	return $select . $from . $order;
}

# LEFT, RIGHT and FULL joins with one or two dimensions, the filters in the
# ON clause or in subqueries on either side.
sub outer_query
{
	my @dims = some(2, @dimensions);
	my @x = map { "x$_" } 0 .. $#dims;
	my $kind = pick('LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN');
	my $from;
	if (rand() < 0.5)
	{
		$from = ' FROM {t} f' . dimension_joins($kind, 1, @dims);
		$from .= ' AND ' . predicate('f.') if rand() < 0.5;
	}
	else
	{
		$from = ' FROM ' . (rand() < 0.5 ? '(SELECT * FROM {t} ' . where() . ') f' : '{t} f') . join('', map {
			" $kind (SELECT * FROM $dims[$_]_{t} y WHERE " . dimension_filter('y', $dims[$_])
			  . ") x$_ ON f.$dimension_of{$dims[$_]} = x$_.k"
		} 0 .. $#dims);
	}
	my $r = rand();
	return 'SELECT ' . join(', ', 'count(f.id)', join_aggregates(@x)) . $from if $r < 0.4;
	if ($r < 0.7)
	{
		my @keys = map { "$_." . pick(qw(g name k)) } some(2, @x);
		return 'SELECT ' . join(', ', @keys, 'count(f.a)', join_aggregates(@x)) . $from . ' GROUP BY '
		  . join(', ', 1 .. @keys) . ' ' . order_by(scalar @keys) . ' LIMIT 60';
	}
	my ($select, $order) = join_listing(@x);
	return $select . $from . $order;
}

# Aggregates over joins, grouped by dimension columns (one dimension, or two
# with the second left-joined).
sub join_aggregate_query
{
	my @dims = some(2, @dimensions);
	my @x = map { "x$_" } 0 .. $#dims;
	my $from = ' FROM {t} f' . dimension_joins('JOIN', 0, $dims[0]);
	$from .= " LEFT JOIN $dims[1]_{t} x1 ON f.$dimension_of{$dims[1]} = x1.k AND "
	  . dimension_filter('x1', $dims[1]) if @dims > 1;
	my @where = ((rand() < 0.7 ? dimension_filter('x0', $dims[0]) : ()), (rand() < 0.5 ? predicate('f.') : ()));
	$from .= ' WHERE ' . join(' AND ', @where) if @where;
	my @keys = map { "$_." . pick(qw(g name k)) } some(2, @x);
	my $sql = 'SELECT ' . join(', ', @keys, join_aggregates(@x)) . $from . ' GROUP BY ' . join(', ', 1 .. @keys);
	$sql .= ' HAVING count(*) > ' . between(1, 500) if rand() < 0.3;
	return $sql . ' ' . order_by(scalar @keys) . ' LIMIT 60';
}

# Joins with an empty side: the empty dimension de, a dimension filter no
# row passes, or a fact filter no row passes.
sub empty_side_query
{
	my $dim = pick(@dimensions);
	my $col = $dimension_of{$dim};
	my $none = pick('f.a > 2000000000', 'f.id < -9000000000000000000', 'f.d > date \'infinity\'');
	my @aggs = ('count(*)', 'count(x.k)', 'sum(x.w)', map { aggregate("f.$_") } some(2, @columns));
	my $where = rand() < 0.5 ? ' WHERE ' . predicate('f.') : '';
	return pick(
		'SELECT ' . join(', ', @aggs) . " FROM {t} f JOIN de_{t} x ON f.a = x.k$where",
		'SELECT ' . join(', ', @aggs) . " FROM {t} f LEFT JOIN de_{t} x ON f.a = x.k$where",
		'SELECT ' . join(', ', @aggs) . " FROM de_{t} x RIGHT JOIN {t} f ON f.a = x.k$where",
		'SELECT ' . join(', ', @aggs) . " FROM {t} f FULL JOIN de_{t} x ON f.a = x.k$where",
		'SELECT ' . join(', ', @aggs) . ' FROM {t} f' . dimension_joins('JOIN', 0, 'de', $dim) =~ s/x0/x/gr
		  . $where,
		"SELECT count(*), sum(f.id) FROM {t} f WHERE EXISTS (SELECT FROM de_{t} x WHERE x.k = f.a)",
		"SELECT count(*), sum(f.id) FROM {t} f WHERE NOT EXISTS (SELECT FROM de_{t} x WHERE x.k = f.a)",
		"SELECT count(*), sum(f.id), count(f.a) FROM {t} f WHERE f.a NOT IN (SELECT k FROM de_{t})",
		'SELECT ' . join(', ', @aggs) . " FROM {t} f JOIN ${dim}_{t} x ON f.$col = x.k AND x.g > 10$where",
		'SELECT ' . join(', ', @aggs) . " FROM {t} f LEFT JOIN ${dim}_{t} x ON f.$col = x.k AND x.g > 10$where",
		"SELECT count(*), sum(f.id) FROM {t} f WHERE f.$col IN (SELECT k FROM ${dim}_{t} WHERE g > 10)",
		"SELECT count(*), sum(f.id) FROM {t} f WHERE f.$col NOT IN (SELECT k FROM ${dim}_{t} WHERE g > 10)",
		'SELECT ' . join(', ', @aggs) . " FROM {t} f JOIN ${dim}_{t} x ON f.$col = x.k WHERE $none",
		'SELECT ' . join(', ', @aggs) . " FROM {t} f RIGHT JOIN ${dim}_{t} x ON f.$col = x.k AND $none",
		'SELECT ' . join(', ', @aggs) . " FROM (SELECT * FROM {t} f WHERE $none) f FULL JOIN ${dim}_{t} x"
		  . " ON f.$col = x.k",
		"SELECT x.k, x.g, count(f.id) FROM ${dim}_{t} x LEFT JOIN {t} f ON f.$col = x.k AND $none"
		  . ' GROUP BY 1, 2 ORDER BY 1 NULLS FIRST, 2 NULLS FIRST');
}

my @families = (
	[ 'row listing', \&rows_query, 70 ],
	[ 'aggregate', \&aggregate_query, 50 ],
	[ 'GROUP BY', \&group_query, 50 ],
	[ 'self join', \&join_query, 40 ],
	[ 'ordered join', \&ordered_join_query, 30 ],
	[ 'FILTER', \&filter_query, 40 ],
	[ 'no column', \&no_column_query, 25 ],
	[ 'subquery and window', \&subquery_query, 30 ],
	[ 'correlated aggregate subquery', \&correlated_query, 20 ],
	# joins with the dimension tables (1: run under every setting, nested loops too)
	[ 'star join', \&star_query, 20, 1 ],
	[ 'semi join', \&semi_query, 15, 1 ],
	[ 'anti join', \&anti_query, 15, 1 ],
	[ 'outer join', \&outer_query, 15, 1 ],
	[ 'aggregate over a join', \&join_aggregate_query, 15, 1 ],
	[ 'join with an empty side', \&empty_side_query, 12, 1 ],
);

### Running and comparing

my @settings = (
	[ 'default settings', '' ],
	[ 'index and bitmap scans off', 'SET enable_indexscan = off; SET enable_bitmapscan = off; ' ],
	[ 'no parallel workers', 'SET max_parallel_workers_per_gather = 0; ' ],
	[ 'hash joins off', 'SET enable_hashjoin = off; ' ],
	[ 'custom scans off',
		'SET colstore.enable_custom_scan = off; SET colstore.enable_custom_agg = off; ' ],
	[ 'join filters and ColstoreIndexScan off',
		'SET colstore.enable_join_filter = off; SET colstore.enable_custom_index_scan = off; ' ],
	# only for the joins with dimensions: over the other families, nested
	# loops join c with itself without an index (seconds a query)
	[ 'nested loops only', 'SET enable_hashjoin = off; SET enable_mergejoin = off; ', 1 ],
);

# Does setting $i apply to queries of a family with dimension joins ($dim)?
sub applies { my ($i, $dim) = @_; return !$settings[$i][2] || $dim; }

# A query's output, or its error.
sub run
{
	my ($sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql);
	return $ret == 0 ? $out : "ERROR: $err";
}

# The outputs of several queries run one after another in one session, in
# order: each runs after RESET ALL, and gives its output as run() does, or
# "ERROR: " and its error's message.  (A session per query costs a connection
# each; with thousands of queries that made this test take ten minutes.)
sub run_batch
{
	my @sqls = @_;
	my $marker = '@@end of output@@';
	my $script = '';
	foreach my $sql (@sqls)
	{
		$script .= "RESET ALL;\n$sql\n;\n"
		  . "\\if :ERROR\n\\echo 'ERROR:' :LAST_ERROR_MESSAGE\n\\endif\n"
		  . "\\echo '$marker'\n";
	}
	my ($ret, $out, $err) = $node->psql('postgres', $script, on_error_stop => 0);
	my @outputs;
	while ($out =~ /\G(.*?)^\Q$marker\E(?:\n|\z)/gms)
	{
		push @outputs, $1 =~ s/\n\z//r;
	}
	die "run_batch: " . scalar(@sqls) . " queries, " . scalar(@outputs)
	  . " outputs (psql exit $ret): $err"
	  if @outputs != @sqls;
	return @outputs;
}

sub for_table { my ($sql, $table) = @_; return $sql =~ s/\{t\}/$table/gr; }

my $queries = 0;
my @all;
foreach my $family (@families)
{
	my ($name, $generate, $count, $dim) = @$family;
	my @failures = map { [] } @settings;
	foreach (1 .. $count)
	{
		my $sql = $generate->();
		push @all, [ $sql, $dim ];
		$queries++;
		my $heap = run(for_table($sql, 'h'));
		if ($heap =~ /^ERROR/)
		{
			fail("query $queries is valid on heap");
			diag("query $queries: " . for_table($sql, 'h') . "\n$heap");
			next;
		}
		my @applied = grep { applies($_, $dim) } 0 .. $#settings;
		my @colstore = run_batch(map { $settings[$_][1] . for_table($sql, 'c') } @applied);
		foreach my $k (0 .. $#applied)
		{
			push @{ $failures[ $applied[$k] ] }, [ $queries, $sql, $colstore[$k], $heap ]
			  if $colstore[$k] ne $heap;
		}
	}
	foreach my $i (grep { applies($_, $dim) } 0 .. $#settings)
	{
		my $failed = $failures[$i];
		is(scalar @$failed, 0, "$name queries ($count): colstore matches heap, $settings[$i][0]");
		foreach my $f (@$failed > 3 ? @$failed[ 0 .. 2 ] : @$failed)
		{
			my ($number, $sql, $colstore, $heap) = @$f;
			diag("query $number ($settings[$i][0]): $settings[$i][1]" . for_table($sql, 'c')
				  . "\n--- colstore:\n" . substr($colstore, 0, 1500)
				  . "\n--- heap:\n" . substr($heap, 0, 1500));
		}
	}
}
note("$queries queries");

### The same queries after UPDATE and DELETE

# Identical changes to both tables: deleted rows must stay invisible and new
# versions (heap tuples on delta pages) must be seen by every scan path,
# including chunk pruning and ColstoreAgg.
my @changes;
foreach (1 .. 24)
{
	my $lo = between(-2600, 30100);
	my $hi = $lo + between(0, 3000);
	push @changes, pick(
		"UPDATE {t} SET a = a + 1, t = 'upd' WHERE id BETWEEN $lo AND $hi",
		"UPDATE {t} SET n = n * 2, d = d + 3 WHERE id BETWEEN $lo AND $hi AND a > " . between(-32, 32),
		"UPDATE {t} SET id = id + 100000 WHERE id BETWEEN $lo AND " . ($lo + between(0, 50)),
		"DELETE FROM {t} WHERE id BETWEEN $lo AND $hi AND s > " . between(-52, 52),
		"DELETE FROM {t} WHERE id BETWEEN $lo AND " . ($lo + between(0, 400)));
}
foreach my $sql (@changes)
{
	is(run(for_table($sql, 'c')), run(for_table($sql, 'h')), "change: " . for_table($sql, 'c'));
}
$node->safe_psql('postgres', 'ANALYZE h; ANALYZE c;');
my @heap_after = run_batch(map { for_table($_->[0], 'h') } @all);
foreach my $i (0 .. $#settings)
{
	my @failed;
	my @queried = grep { applies($i, $all[$_][1]) } 0 .. $#all;
	my @colstore = run_batch(map { $settings[$i][1] . for_table($all[$_][0], 'c') } @queried);
	foreach my $k (0 .. $#queried)
	{
		my $n = $queried[$k];
		push @failed, [ $n + 1, $all[$n][0], $colstore[$k], $heap_after[$n] ]
		  if $colstore[$k] ne $heap_after[$n];
	}
	is(scalar @failed, 0, "all queries after changes: colstore matches heap, $settings[$i][0]");
	foreach my $f (@failed > 3 ? @failed[ 0 .. 2 ] : @failed)
	{
		my ($number, $sql, $colstore, $heap) = @$f;
		diag("query $number after changes ($settings[$i][0]): " . for_table($sql, 'c')
			  . "\n--- colstore:\n" . substr($colstore, 0, 1500)
			  . "\n--- heap:\n" . substr($heap, 0, 1500));
	}
}

# Under these settings, the queries exercise every scan path of colstore.
my $plans = '';
foreach my $i (0 .. $#settings)
{
	$plans .= $node->safe_psql('postgres', join('',
		map { "$settings[$i][1]EXPLAIN (COSTS OFF) " . for_table($_->[0], 'c') . ";\n" }
		  grep { applies($i, $_->[1]) } @all));
}
foreach my $scan ('Parallel Seq Scan on c', 'Seq Scan on c', 'Index Scan using c_id_idx on c',
	'c_d_idx', 'Bitmap Heap Scan on c',
	'Parallel Custom Scan (ColstoreScan) on c', 'Custom Scan (ColstoreScan) on c',
	'Custom Scan (ColstoreAgg)', 'Parallel Custom Scan (ColstoreKeyRangeJoin)',
	'Custom Scan (ColstoreIndexScan) on c', 'Hash Join Filter', 'Semi Join', 'Anti Join', 'Full Join')
{
	my $n = () = $plans =~ /(?<!Parallel )\Q$scan\E(?!\w)/g;
	ok($n > 0, "plans include $scan ($n times)");
}

$node->stop;
done_testing();
