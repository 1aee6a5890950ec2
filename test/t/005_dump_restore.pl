# pg_dump and restore: colstore tables come back with every row, their
# indexes and their storage options.  The options are in each table's
# pg_class.reloptions too, so pg_dump writes them in its CREATE TABLE ...
# WITH (...), and every table is restored with them before its rows are
# loaded, whatever its name.  colstore.options is not configuration data:
# its rows would collide with the ones the CREATE statements made.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('dump');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'colstore'");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', q{
	CREATE EXTENSION colstore;
	CREATE TABLE t (id int PRIMARY KEY, name text, amount numeric, day date)
		USING colstore WITH (codec = 'lz4', chunk_size = 1000);
	INSERT INTO t SELECT i, CASE WHEN i % 9 = 0 THEN NULL ELSE 'n' || (i % 13) END,
		i / 7.0, date '2024-01-01' + i % 400 FROM generate_series(1, 20000) i;
	CREATE SCHEMA "Other";
	CREATE TABLE "Other"."Mixed Case" (v bigint) USING colstore
		WITH (row_group_size = 5000, codec = 'none');
	INSERT INTO "Other"."Mixed Case" SELECT generate_series(1, 12000);
	CREATE TABLE plain_defaults (v int) USING colstore;
	INSERT INTO plain_defaults VALUES (1), (2), (NULL);
});

my $dump = $node->basedir . '/src.sql';
$node->command_ok([ 'pg_dump', '-d', $node->connstr('src'), '-f', $dump ], 'pg_dump runs');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('dst'),
	'-f', $dump ], 'the dump restores');

my $rows = q{
	SELECT count(*), count(name), sum(amount), min(day), max(day), md5(string_agg(name, ',' ORDER BY id)) FROM t;
	SELECT count(*), sum(v) FROM "Other"."Mixed Case";
	SELECT count(*), count(v) FROM plain_defaults;
};
is($node->safe_psql('dst', $rows), $node->safe_psql('src', $rows), 'every row comes back');

my $options = q{
	SELECT relation::text, codec, chunk_size, row_group_size FROM colstore.table_options ORDER BY 1;
};
is($node->safe_psql('dst', $options), $node->safe_psql('src', $options), 'storage options come back');
is($node->safe_psql('dst', q{
	SELECT DISTINCT codec FROM colstore.chunks('t') WHERE codec <> 'none'}),
	'lz4', 'restored rows are written with the table\'s codec');
my $groups = q{
	SELECT string_agg(row_count::text, ',' ORDER BY first_row) FROM colstore.row_groups('"Other"."Mixed Case"')};
is($node->safe_psql('src', $groups), '5000,5000,2000', 'source table follows its row group size');
is($node->safe_psql('dst', $groups), '5000,5000,2000',
	'a table whose data comes before colstore.options\'s in the dump is loaded with its options');
like(slurp_file($dump), qr/CREATE TABLE "Other"."Mixed Case" \(\n    v bigint\n\)\nWITH \(codec='none', row_group_size='5000'\);/,
	'the dump carries the options in CREATE TABLE');
unlike(slurp_file($dump), qr/COPY colstore\.options/, 'and no rows of colstore.options');
is($node->safe_psql('dst', q{
	SELECT am.amname FROM pg_class c JOIN pg_am am ON am.oid = c.relam WHERE c.relname = 't'}),
	'colstore', 'the table is a colstore table again');
is($node->safe_psql('dst', q{
	SET enable_seqscan = off; SELECT name FROM t WHERE id = 14}),
	'n1', 'the primary key is rebuilt and used');
is($node->safe_psql('dst', "SELECT colstore.verify('t')"), '20000',
	'the restored table verifies, all rows checked');
$node->stop;
done_testing();
