# Crash recovery: after kill -9 style termination in the middle of a bulk load,
# a colstore table holds exactly the rows of committed transactions, its index
# works, it passes colstore.verify, and it accepts new rows.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);

my $node = PostgreSQL::Test::Cluster->new('crash');
$node->init;
$node->append_conf('postgresql.conf', "wal_consistency_checking = 'generic'");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION colstore;
	CREATE TABLE t (id int, v text) USING colstore;
	CREATE INDEX t_id ON t (id);
	INSERT INTO t SELECT i, 'committed ' || i FROM generate_series(1, 50000) i;
	BEGIN; INSERT INTO t VALUES (-1, 'small commit'); COMMIT;
	BEGIN; INSERT INTO t VALUES (-2, 'aborted'); ROLLBACK;
});

# a large load that is still running when the server dies
my ($out, $err) = ('', '');
my $load = IPC::Run::start(
	[ 'psql', '-X', '-d', $node->connstr('postgres'), '-c',
	  "INSERT INTO t SELECT i, 'uncommitted' FROM generate_series(1, 20000000) i" ],
	'>', \$out, '2>', \$err);
# wait until the load has written something
my $size_before = $node->safe_psql('postgres', "SELECT pg_relation_size('t')");
for (my $i = 0; $i < 300; $i++)
{
	last if $node->safe_psql('postgres', "SELECT pg_relation_size('t')") > $size_before;
	usleep(100_000);
}
$node->stop('immediate');
$load->finish;

$node->start;
is($node->safe_psql('postgres', 'SELECT count(*), sum(id) FROM t'),
	'50001|1250024999', 'exactly the committed rows survive the crash');
is($node->safe_psql('postgres', "SELECT count(*) FROM t WHERE v = 'uncommitted'"),
	'0', 'no row of the interrupted load is visible');
is($node->safe_psql('postgres', q{
	SET enable_seqscan = off; SELECT v FROM t WHERE id = 4242}),
	'committed 4242', 'index lookups work after recovery');
$node->safe_psql('postgres', 'SELECT colstore.verify(\'t\')');
pass('colstore.verify succeeds after recovery');
$node->safe_psql('postgres', "INSERT INTO t VALUES (-3, 'after crash'); VACUUM t;");
is($node->safe_psql('postgres', 'SELECT count(*) FROM t'), '50002', 'inserts work after recovery');

$node->stop;
done_testing();
