# A colstore table's storage options are kept by relation OID in
# colstore.options.  A temporary table removed when its session ends fires
# no event trigger, so its row stays behind; when the OID counter comes
# round to that OID again, the new table must not take the dead table's
# options.  pg_resetwal -o sets the counter back to the dead table's OID so
# that the next CREATE TABLE gets it.  The options of a table created in a
# transaction that then truncates it, and of a table created with options,
# are its own.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('oid_reuse');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'colstore'
autovacuum = off
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION colstore');

# a temporary table with options, gone with its session
my $dead_oid = $node->safe_psql('postgres', q{
	CREATE TEMP TABLE dead (a int) USING colstore
		WITH (codec = 'lz4', row_group_size = 1000);
	SELECT 'dead'::regclass::oid;
});
# (the session's backend drops its temporary tables as it exits, after
# psql has gone)
$node->poll_query_until('postgres',
	"SELECT count(*) = 0 FROM pg_class WHERE oid = $dead_oid")
  or die 'the temporary table was not dropped';
is($node->safe_psql('postgres',
	"SELECT codec, row_group_size FROM colstore.options WHERE relid::oid = $dead_oid"),
	'lz4|1000', 'the temporary table\'s options outlive its session');

# the next relation OID is the dead table's
$node->stop;
command_ok([ 'pg_resetwal', '-o', $dead_oid, $node->data_dir ],
	'pg_resetwal sets the next OID back');
$node->start;

my $new_oid = $node->safe_psql('postgres', q{
	CREATE TABLE fresh (a int) USING colstore;
	SELECT 'fresh'::regclass::oid;
});
is($new_oid, $dead_oid, 'the new table has the dead table\'s OID');
is($node->safe_psql('postgres',
	"SELECT count(*) FROM colstore.options WHERE relid::oid = $new_oid"),
	'0', 'the dead table\'s options row is gone');
$node->safe_psql('postgres', 'INSERT INTO fresh SELECT generate_series(1, 5000)');
is($node->safe_psql('postgres', q{
	SELECT count(*), max(row_count) FROM colstore.row_groups('fresh')}),
	'1|5000', 'its rows are one row group of the default size, not of 1,000');
is($node->safe_psql('postgres', q{
	SELECT codec, row_group_size FROM colstore.table_options WHERE relation = 'fresh'::regclass}),
	'zstd|122880', 'its effective options are the defaults, not lz4 and 1,000 rows');

# a table created with options and truncated in its creating transaction,
# with the dead table's OID once more, keeps the options it was created with
my $dead2 = $node->safe_psql('postgres', q{
	CREATE TEMP TABLE dead2 (a int) USING colstore WITH (codec = 'lz4');
	SELECT 'dead2'::regclass::oid;
});
$node->poll_query_until('postgres',
	"SELECT count(*) = 0 FROM pg_class WHERE oid = $dead2")
  or die 'the second temporary table was not dropped';
is($node->safe_psql('postgres', q{
	SELECT string_agg(relid::oid::text, ',') FROM colstore.options
	WHERE NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = relid::oid)}),
	$dead2, 'the only row of a dead table left is the second temporary table\'s');
$node->stop;
command_ok([ 'pg_resetwal', '-o', $dead2, $node->data_dir ],
	'pg_resetwal sets the next OID back again');
$node->start;
is($node->safe_psql('postgres', q{
	BEGIN;
	CREATE TABLE own (a int) USING colstore WITH (row_group_size = 2000);
	TRUNCATE own;
	INSERT INTO own SELECT generate_series(1, 5000);
	COMMIT;
	SELECT 'own'::regclass::oid = } . $dead2 . q{,
		(SELECT row_group_size FROM colstore.options WHERE relid = 'own'::regclass),
		(SELECT codec FROM colstore.options WHERE relid = 'own'::regclass),
		(SELECT max(row_count) FROM colstore.row_groups('own'))}),
	't|2000||2000', 'a table created with options keeps them through TRUNCATE in its transaction');

$node->stop;
done_testing();
