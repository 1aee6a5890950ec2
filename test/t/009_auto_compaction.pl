# Automatic compaction: 100,000 rows inserted ten per transaction by two pgbench
# clients (throttled to 1,500 transactions a second: unthrottled, on two cores,
# the clients starve the workers, and how much space is reused then varies
# from run to run) become heap tuples (small INSERTs), and background workers move
# them into row groups and vacuum the table while the inserts go on, so the
# heap pages are reused.  Afterwards the table holds exactly the inserted
# rows, finds them through its index, passes colstore.verify, has its rows
# in row groups, and is smaller than a heap table with the same rows
# (without compaction and reuse its heap pages alone would be as large; how
# much smaller is bench/small_inserts.sh's business, not a test's).  Then an
# UPDATE's new versions are compacted by the worker the next VACUUM starts.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('compaction');
$node->init;
# (versions UPDATE wrote move at once, not after a million transactions;
# preloaded, as in production, for colstore.compaction_progress's shared memory)
$node->append_conf('postgresql.conf',
	"autovacuum = off\nmax_worker_processes = 8\ncolstore.compaction_update_age = 0\n"
	  . "shared_preload_libraries = 'colstore'");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION colstore;
	CREATE TABLE small (c1 bigint, c2 text) USING colstore;
	CREATE INDEX small_c1 ON small (c1);
	CREATE TABLE same_in_heap (c1 bigint, c2 text);
	CREATE SEQUENCE seq;
});

# wait until no compaction worker runs
sub wait_for_workers
{
	$node->poll_query_until('postgres',
		"SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'colstore compaction'")
	  or die "compaction workers did not finish";
}

my $script = $node->basedir . '/insert10.sql';
PostgreSQL::Test::Utils::append_to_file($script,
	"INSERT INTO small SELECT i, md5(i::text) FROM (SELECT nextval('seq') i FROM generate_series(1, 10)) s;\n");
$node->command_checks_all(
	[ 'pgbench', '--no-vacuum', '--client=2', '--jobs=2', '--transactions=5000', '--rate=1500',
	  '--file', $script, '--host', $node->host, '--port', $node->port, 'postgres' ],
	0, [ qr/number of transactions actually processed: 10000/ ], [ qr// ],
	'100,000 rows inserted ten per transaction');

# let the last worker finish
wait_for_workers();

$node->safe_psql('postgres', 'INSERT INTO same_in_heap SELECT i, md5(i::text) FROM generate_series(1, 100000) i');
is($node->safe_psql('postgres', q{
	SELECT count(*), count(DISTINCT c1), sum(c1) FROM small}),
	'100000|100000|5000050000', 'every inserted row is there once');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM ((TABLE small EXCEPT TABLE same_in_heap)
	                      UNION ALL (TABLE same_in_heap EXCEPT TABLE small)) d}),
	'0', 'the rows equal a heap table fed the same values');
is($node->safe_psql('postgres', q{
	SET enable_seqscan = off; SET enable_bitmapscan = off;
	SELECT c2 = md5('12345') FROM small WHERE c1 = 12345}),
	't', 'the index finds a row at its new TID');
ok($node->safe_psql('postgres', q{
	SELECT sum(row_count) FROM colstore.row_groups('small') WHERE state <> 'aborted'}) > 50000,
	'most rows were moved into row groups automatically');
note('sizes (colstore, heap): ' . $node->safe_psql('postgres',
	q{SELECT pg_relation_size('small'), pg_relation_size('same_in_heap')}));
ok($node->safe_psql('postgres', q{
	SELECT pg_relation_size('small') < pg_relation_size('same_in_heap')}) eq 't',
	'heap pages are reused: the table is smaller than heap');
$node->safe_psql('postgres', "SELECT colstore.verify('small')");
pass('colstore.verify succeeds');

# versions UPDATE wrote wait colstore.compaction_update_age transactions: with
# the default, the worker the VACUUM after an UPDATE starts leaves them alone
$node->safe_psql('postgres', q{
	ALTER SYSTEM SET colstore.compaction_update_age = 1000000;
	SELECT pg_reload_conf();
});
$node->safe_psql('postgres', q{
	UPDATE small SET c2 = lower(c2) WHERE c1 % 5 = 0;
	UPDATE same_in_heap SET c2 = lower(c2) WHERE c1 % 5 = 0;
	VACUUM small;
});
wait_for_workers();
# (it may also move the last few hundred inserted rows, too few for a worker)
ok($node->safe_psql('postgres', "SELECT colstore.compact('small')") >= 20000,
	'young UPDATE versions are left for colstore.compact(), which moves them at once');
$node->safe_psql('postgres', q{
	ALTER SYSTEM SET colstore.compaction_update_age = 0;
	SELECT pg_reload_conf();
});

# UPDATE writes new versions as heap tuples; the VACUUM after it starts a
# worker that moves them into row groups (leaving fewer than the 1,000 rows a
# worker round needs), and the rows still equal heap's
$node->safe_psql('postgres', q{
	UPDATE small SET c2 = upper(c2) WHERE c1 % 3 = 0;
	UPDATE same_in_heap SET c2 = upper(c2) WHERE c1 % 3 = 0;
	VACUUM small;
});
# the worker shows in colstore.compaction_progress and in pg_stat_activity,
# with its round, for as long as it runs (it keeps running for a second of
# idle rounds after its work)
ok($node->poll_query_until('postgres', q{
	SELECT EXISTS (SELECT FROM colstore.compaction_progress p JOIN pg_stat_activity a USING (pid)
		WHERE p.command = 'worker' AND p.relid = 'small'::regclass AND p.round >= 1
		AND p.datname = current_database() AND a.backend_type = 'colstore compaction'
		AND a.query LIKE 'colstore compaction of table ' || p.relid || ', round %')}),
	'the worker shows in colstore.compaction_progress and pg_stat_activity');
wait_for_workers();
is($node->safe_psql('postgres', 'SELECT count(*) FROM colstore.compaction_progress'), '0',
	'a worker that exited leaves nothing in colstore.compaction_progress');
ok($node->safe_psql('postgres', "SELECT colstore.compact('small')") < 1000,
	'the VACUUM after an UPDATE started a worker that moved the new versions');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM ((TABLE small EXCEPT TABLE same_in_heap)
	                      UNION ALL (TABLE same_in_heap EXCEPT TABLE small)) d}),
	'0', 'after the UPDATE and its compaction the rows equal heap\'s');

$node->stop;
done_testing();
