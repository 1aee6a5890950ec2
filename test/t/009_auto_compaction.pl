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
# UPDATE's new versions are compacted by the worker the next VACUUM starts,
# and small row groups are merged by the worker a VACUUM starts for them,
# within half the size of their rows in heap.
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
# worker round needs), and the rows still equal heap's.  A sixth of the rows:
# under the fifth at which colstore.compact() would also rewrite their row
# groups, so the compact() below moves only what the worker left
$node->safe_psql('postgres', q{
	UPDATE small SET c2 = upper(c2) WHERE c1 % 6 = 0;
	UPDATE same_in_heap SET c2 = upper(c2) WHERE c1 % 6 = 0;
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

# Small row groups from INSERTs estimated larger than they were (row groups
# of 5,000 rows in a table of 40,000-row groups) are merged by the worker
# the VACUUM after them starts, a quarter group (10,000 rows) at a time, as
# long as the merge fits in free pages and in half the size the rows would
# take in heap (their promoted copies and the merged group coexist with the
# old groups until the second VACUUM after the merge; the worker frees
# those before its next merge, whose copies then take their pages)
$node->safe_psql('postgres', q{
	CREATE TABLE frag (c1 bigint, c2 text) USING colstore WITH (row_group_size = 40000);
	CREATE INDEX frag_c1 ON frag (c1);
	CREATE TABLE frag_heap (c1 bigint, c2 text);
	INSERT INTO frag_heap SELECT i, 'value ' || i % 10 FROM generate_series(1, 30000) i;
});
for my $b (0 .. 5)
{
	my ($lo, $hi) = ($b * 5000 + 1, $b * 5000 + 5000);
	$node->safe_psql('postgres', qq{
		SET colstore.delta_insert_rows = 100;
		INSERT INTO frag SELECT i, 'value ' || i % 10 FROM generate_series($lo, $hi) i});
}
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM colstore.row_groups('frag') WHERE state IN ('committed', 'frozen')}),
	'6', 'six small row groups');
my $frag_size = $node->safe_psql('postgres', "SELECT pg_relation_size('frag')");
$node->safe_psql('postgres', 'VACUUM frag');
ok($node->poll_query_until('postgres', q{
	SELECT count(*) = 3 AND min(row_count) = 10000 FROM colstore.row_groups('frag')
	WHERE state IN ('committed', 'frozen')}),
	'the worker merged the six small row groups into three of a quarter group');
wait_for_workers();
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM ((TABLE frag EXCEPT ALL TABLE frag_heap)
	                      UNION ALL (TABLE frag_heap EXCEPT ALL TABLE frag)) d}),
	'0', 'after merging the rows equal heap\'s');
is($node->safe_psql('postgres', q{
	SET enable_seqscan = off; SET enable_bitmapscan = off;
	SELECT count(*), sum(c1) FROM frag WHERE c1 BETWEEN 10 AND 29990}),
	'29981|449715000', 'the index finds every merged row');
$node->safe_psql('postgres', "SELECT colstore.verify('frag')");
note('frag sizes (before merging, after, heap): ' . $frag_size . ' ' . $node->safe_psql('postgres',
	q{SELECT pg_relation_size('frag'), pg_relation_size('frag_heap')}));
ok($node->safe_psql('postgres', q{
	SELECT pg_relation_size('frag') <= pg_relation_size('frag_heap') / 2}) eq 't',
	'the merges kept the file within half the heap twin\'s size');

# small groups under a quarter group together: the worker leaves them
$node->safe_psql('postgres', q{
	CREATE TABLE frag2 (c1 bigint) USING colstore WITH (row_group_size = 40000);
	SET colstore.delta_insert_rows = 100;
	INSERT INTO frag2 SELECT generate_series(1, 4000);
	INSERT INTO frag2 SELECT generate_series(4001, 8000);
	VACUUM frag2;
});
wait_for_workers();
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM colstore.row_groups('frag2') WHERE state IN ('committed', 'frozen')}),
	'2', 'two small groups under a quarter group together stay');

$node->stop;
done_testing();
