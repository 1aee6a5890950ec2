# Differential test: a heap table h and a colstore table c hold the same rows
# (three loads: a large generated one, a second generated one with other value
# distributions, and a few edge values), and a deterministic generator of
# random read-only queries (fixed seed) runs every query on both.  colstore
# must give exactly the output of heap, and must not raise an error where heap
# does not, with the server's default plans (parallel plans included: they cost
# nothing here), with index and bitmap scans disabled, and without parallel
# workers, and with hash joins disabled.  Query families: row listings,
# aggregates, GROUP BY, self joins, joins of copies of the tables loaded in id
# order (merge and key-range joins), aggregates with FILTER, queries that read
# no column, subqueries/windows, and correlated aggregate subqueries.
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
);

### Running and comparing

my @settings = (
	[ 'default settings', '' ],
	[ 'index and bitmap scans off', 'SET enable_indexscan = off; SET enable_bitmapscan = off; ' ],
	[ 'no parallel workers', 'SET max_parallel_workers_per_gather = 0; ' ],
	[ 'hash joins off', 'SET enable_hashjoin = off; ' ],
	[ 'custom scans off',
		'SET colstore.enable_custom_scan = off; SET colstore.enable_custom_agg = off; ' ],
);

# A query's output, or its error.
sub run
{
	my ($sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql);
	return $ret == 0 ? $out : "ERROR: $err";
}

sub for_table { my ($sql, $table) = @_; return $sql =~ s/\{t\}/$table/gr; }

my $queries = 0;
my @all;
foreach my $family (@families)
{
	my ($name, $generate, $count) = @$family;
	my @failures = map { [] } @settings;
	foreach (1 .. $count)
	{
		my $sql = $generate->();
		push @all, $sql;
		$queries++;
		my $heap = run(for_table($sql, 'h'));
		if ($heap =~ /^ERROR/)
		{
			fail("query $queries is valid on heap");
			diag("query $queries: " . for_table($sql, 'h') . "\n$heap");
			next;
		}
		foreach my $i (0 .. $#settings)
		{
			my $colstore = run($settings[$i][1] . for_table($sql, 'c'));
			push @{ $failures[$i] }, [ $queries, $sql, $colstore, $heap ] if $colstore ne $heap;
		}
	}
	foreach my $i (0 .. $#settings)
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
foreach my $i (0 .. $#settings)
{
	my @failed;
	foreach my $n (0 .. $#all)
	{
		my $heap = run(for_table($all[$n], 'h'));
		my $colstore = run($settings[$i][1] . for_table($all[$n], 'c'));
		push @failed, [ $n + 1, $all[$n], $colstore, $heap ] if $colstore ne $heap;
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
foreach my $setting (@settings)
{
	$plans .= $node->safe_psql('postgres',
		join('', map { "$setting->[1]EXPLAIN (COSTS OFF) " . for_table($_, 'c') . ";\n" } @all));
}
foreach my $scan ('Parallel Seq Scan on c', 'Seq Scan on c', 'Index Scan using c_id_idx on c',
	'c_d_idx', 'Bitmap Heap Scan on c',
	'Parallel Custom Scan (ColstoreScan) on c', 'Custom Scan (ColstoreScan) on c',
	'Custom Scan (ColstoreAgg)', 'Parallel Custom Scan (ColstoreKeyRangeJoin)')
{
	my $n = () = $plans =~ /(?<!Parallel )\Q$scan\E(?!\w)/g;
	ok($n > 0, "plans include $scan ($n times)");
}

$node->stop;
done_testing();
