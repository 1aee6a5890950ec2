# UPDATE and DELETE under concurrency, crash recovery and streaming replication.
# A colstore table t and a heap table h start with the same 5000 rows; pgbench
# runs two clients whose every transaction does a random UPDATE of one row, a
# random DELETE of one row and an INSERT of a new row on both tables alike, so
# that both always hold the same committed rows.  The h side of each change is
# computed from h's own row (never copied from t), and it is done in the same
# statement as the t side (a data-modifying CTE), which sees the same snapshot.
# Some transactions compact t instead (colstore.compact()), so rows move from
# heap tuples into row groups under the other client's changes.
# After a clean run, and again after an immediate shutdown in the middle of a
# run (and after a CHECKPOINT taken during it), t must equal h: same count and
# hash sum, nothing in one EXCEPT the other, the same result through the
# primary key index as through a sequential scan, every row of h found in t by
# an index lookup.  A streaming standby must hold the same content.  The
# assertions compare t with h only, so they do not depend on how many
# transactions ran.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);

my $primary = PostgreSQL::Test::Cluster->new('dml_primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "wal_consistency_checking = 'generic'");
# preloaded: VACUUM logs colstore's own prune and freeze records, which crash
# recovery and the standby replay (003_standby covers the server without it)
$primary->append_conf('postgresql.conf', "shared_preload_libraries = 'colstore'");
# the standby may fall behind while the primary is crashed and restarted
# under load (full-page images make the WAL large): keep what it still needs
$primary->append_conf('postgresql.conf', "wal_keep_size = '2GB'");
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION colstore;
	CREATE TABLE t (id int PRIMARY KEY, n int NOT NULL, v text) USING colstore;
	CREATE TABLE h (id int PRIMARY KEY, n int NOT NULL, v text) USING heap;
	INSERT INTO t SELECT i, 0, md5(i::text) FROM generate_series(1, 5000) i;
	INSERT INTO h SELECT i, 0, md5(i::text) FROM generate_series(1, 5000) i;
	CREATE SEQUENCE ids START 5001;
});

$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('dml_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;

# One transaction: lock the two target rows of t in key order (fewer
# deadlocks; pgbench retries the remaining ones), update one row and delete one
# row of each table, insert one new row into each.  Values alternate between
# short and longer than 3 kB.
my $script = q{
\set u random(1, 12000)
\set d random(1, 12000)
BEGIN;
SELECT id FROM t WHERE id IN (:u, :d) ORDER BY id FOR UPDATE;
WITH x AS (UPDATE t SET n = n + 1,
		v = CASE WHEN length(v) > 100 THEN md5(v) ELSE repeat(md5(v), 120) END
		WHERE id = :u RETURNING id)
	UPDATE h SET n = n + 1,
		v = CASE WHEN length(v) > 100 THEN md5(v) ELSE repeat(md5(v), 120) END
		WHERE id IN (SELECT id FROM x);
WITH x AS (DELETE FROM t WHERE id = :d RETURNING id)
	DELETE FROM h WHERE id IN (SELECT id FROM x);
SELECT nextval('ids') AS nid \gset
INSERT INTO t VALUES (:nid, :client_id, md5(CAST(:nid AS text)));
INSERT INTO h VALUES (:nid, :client_id, md5(CAST(:nid AS text)));
END;
};
my $script_file = PostgreSQL::Test::Utils::tempdir() . '/dml.sql';
PostgreSQL::Test::Utils::append_to_file($script_file, $script);
# about one transaction in twenty compacts t instead: moves its heap tuples
# into a row group while the other client changes rows (compaction in the
# WAL stream, in crash recovery and on the standby)
my $compact_file = PostgreSQL::Test::Utils::tempdir() . '/compact.sql';
PostgreSQL::Test::Utils::append_to_file($compact_file, "SELECT colstore.compact('t');\n");
my @pgbench = ('pgbench', '--no-vacuum', '--client=2', '--jobs=2', '--random-seed=7007',
	'--max-tries=1000', '--file', "$script_file\@20", '--file', "$compact_file\@1");

my %queries = (
	'count and hash sum' => 'SELECT count(*), sum(hashtext(%1$s::text)) FROM %1$s',
	'aggregates' => 'SELECT count(*), sum(id), sum(n), min(id), max(id), max(length(v)) FROM %1$s',
	'ordered content' => q{SELECT md5(string_agg(%1$s::text, ',' ORDER BY id)) FROM %1$s},
	'index scan' => q{SET enable_seqscan = off; SET enable_bitmapscan = off;
		SELECT count(*), sum(hashtext(%1$s::text)) FROM %1$s WHERE id > -1},
	'sequential scan' => q{SET enable_indexscan = off; SET enable_bitmapscan = off;
		SELECT count(*), sum(hashtext(%1$s::text)) FROM %1$s WHERE id > -1},
);

# t and h hold the same rows on $node
sub check_same
{
	my ($node, $what) = @_;
	foreach my $name (sort keys %queries)
	{
		my $q = $queries{$name};
		is($node->safe_psql('postgres', sprintf($q, 't')), $node->safe_psql('postgres', sprintf($q, 'h')),
			"$what: $name");
	}
	is($node->safe_psql('postgres', 'SELECT count(*) FROM (SELECT * FROM t EXCEPT ALL SELECT * FROM h) x'),
		'0', "$what: no row of t missing from h");
	is($node->safe_psql('postgres', 'SELECT count(*) FROM (SELECT * FROM h EXCEPT ALL SELECT * FROM t) x'),
		'0', "$what: no row of h missing from t");
	like($node->safe_psql('postgres', q{SET enable_seqscan = off; SET enable_bitmapscan = off;
		EXPLAIN (COSTS OFF) SELECT * FROM t WHERE id > -1}),
		qr/Index Scan using t_pkey on t/, "$what: the index scan query uses the primary key");
	unlike($node->safe_psql('postgres', q{SET enable_indexscan = off; SET enable_bitmapscan = off;
		EXPLAIN (COSTS OFF) SELECT * FROM t WHERE id > -1}),
		qr/Index/, "$what: the sequential scan query uses no index");
	# every row of h, looked up in t through the primary key
	is($node->safe_psql('postgres', q{
		SET enable_seqscan = off; SET enable_bitmapscan = off;
		SET enable_hashjoin = off; SET enable_mergejoin = off;
		SELECT count(*) = (SELECT count(*) FROM h) FROM h JOIN t ON t.id = h.id AND t.n = h.n AND t.v = h.v}),
		't', "$what: index lookups in t find every row of h");
	is($node->safe_psql('postgres', q{
		SET enable_seqscan = off; SET enable_bitmapscan = off;
		SELECT count(*) FROM t WHERE id IN (SELECT id FROM generate_series(1, 12000) id)}),
		$node->safe_psql('postgres', q{
		SELECT count(*) FROM h WHERE id IN (SELECT id FROM generate_series(1, 12000) id)}),
		"$what: point lookups by key");
	return;
}

sub check_standby
{
	my ($what) = @_;
	$primary->wait_for_catchup($standby);
	check_same($standby, "$what, standby");
	foreach my $name (sort keys %queries)
	{
		my $q = sprintf($queries{$name}, 't');
		is($standby->safe_psql('postgres', $q), $primary->safe_psql('postgres', $q),
			"$what: standby equals primary: $name");
	}
	return;
}

check_same($primary, 'before the run');

# a clean run of about 10 seconds
$primary->command_checks_all([ @pgbench, '--time=10', 'postgres' ], 0,
	[ qr/number of transactions actually processed: [1-9]/ ], [ qr// ], 'pgbench run');
ok($primary->safe_psql('postgres', "SELECT count(*) FROM colstore.row_groups('t')") > 1,
	'compaction moved rows into row groups during the run');
check_same($primary, 'after the run');
check_standby('after the run');

# Deletes without a copy (the delete log, storage/delete_log.c): a committed
# DELETE of a third of tl's rows, one rolled back, and one still running when
# the server crashes below.  After recovery the committed one holds and the
# others do not, on the primary and on the standby; the committed DELETE grew
# the table by the log's pages, not a heap copy per row; VACUUM then turns
# the log into bits.
$primary->safe_psql('postgres', q{
	CREATE TABLE tl (id int PRIMARY KEY, v int) USING colstore;
	INSERT INTO tl SELECT i, i FROM generate_series(1, 30000) i;
	CREATE TABLE tl_size AS SELECT pg_relation_size('tl') / 8192 AS pages;
	DELETE FROM tl WHERE id % 3 = 0;
	UPDATE tl_size SET pages = pg_relation_size('tl') / 8192 - pages;
	BEGIN;
	DELETE FROM tl WHERE id % 3 = 1;
	ROLLBACK;
});
my $tl_file = PostgreSQL::Test::Utils::tempdir() . '/running_delete.sql';
PostgreSQL::Test::Utils::append_to_file($tl_file,
	"BEGIN;\nDELETE FROM tl WHERE id % 3 = 2;\nSELECT pg_sleep(600);\n");
my ($tl_out, $tl_err) = ('', '');
my $tl_run = IPC::Run::start(
	[ 'psql', '-X', '-h', $primary->host, '-p', $primary->port, '-f', $tl_file, 'postgres' ],
	'>', \$tl_out, '2>', \$tl_err);
$primary->poll_query_until('postgres',
	q{SELECT count(*) = 1 FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(600)%'})
  or die 'the running deleter did not start';
my $tl_query = q{SELECT count(*), sum(v) FROM tl};
my $tl_index = q{SET enable_seqscan = off; SET enable_bitmapscan = off;
	SELECT count(*), sum(v) FROM tl WHERE id > 0};
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $tl_query), '20000|300000000',
	'delete log: the standby sees the committed delete only');

# a second run, with a checkpoint in the middle, killed by an immediate shutdown
sub wait_for_progress
{
	my ($run, $n) = @_;
	my $start = $primary->safe_psql('postgres', 'SELECT last_value FROM ids');
	for (my $i = 0; $i < 600; $i++)
	{
		last if !$run->pumpable;
		last if $primary->safe_psql('postgres', 'SELECT last_value FROM ids') >= $start + $n;
		usleep(100_000);
	}
	return;
}
my ($out, $err) = ('', '');
my $run = IPC::Run::start(
	[ @pgbench, '--time=120', '--host', $primary->host, '--port', $primary->port, 'postgres' ],
	'>', \$out, '2>', \$err);
wait_for_progress($run, 300);
$primary->safe_psql('postgres', 'CHECKPOINT');
wait_for_progress($run, 300);
$primary->stop('immediate');
$run->finish;
note("pgbench killed by the crash: $out $err");

$primary->start;
$tl_run->kill_kill;
is($primary->safe_psql('postgres', $tl_query), '20000|300000000',
	'delete log after crash recovery: the committed delete holds, the others do not');
is($primary->safe_psql('postgres', $tl_index), '20000|300000000',
	'delete log after crash recovery: the same through the index');
ok($primary->safe_psql('postgres', q{SELECT pages < 10 FROM tl_size}) eq 't',
	'delete log: 10,000 deleted rows grew the table by a few pages');
$primary->safe_psql('postgres', q{DELETE FROM tl WHERE id % 3 = 1 AND id < 3000});
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $tl_index), '19000|298500500',
	'delete log: the standby replays the log after the crash');
$primary->safe_psql('postgres', q{VACUUM tl});
is($primary->safe_psql('postgres', q{SELECT sum(deleted_rows) FROM colstore.row_group_deletes('tl')}),
	'11000', 'delete log: VACUUM turned the committed deletes into bits');
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $tl_query), '19000|298500500',
	'delete log: the standby reads the bits');
check_same($primary, 'after crash recovery');
$primary->safe_psql('postgres', q{SELECT colstore.verify('t')});
pass('colstore.verify succeeds after recovery');
check_standby('after crash recovery');

# changes after recovery, VACUUM, and a clean run again
my $lsn_before = $primary->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
$primary->safe_psql('postgres', q{
	UPDATE t SET n = n + 1000 WHERE id % 7 = 0;
	UPDATE h SET n = n + 1000 WHERE id % 7 = 0;
	DELETE FROM t WHERE id % 11 = 0;
	DELETE FROM h WHERE id % 11 = 0;
	VACUUM t;
	VACUUM h;
	UPDATE t SET n = n + 1 WHERE id % 13 = 0;
	UPDATE h SET n = n + 1 WHERE id % 13 = 0;
	VACUUM (FREEZE) t;
	VACUUM (FREEZE) h;
});
my $kinds = $primary->safe_psql('postgres', qq{
	CREATE EXTENSION pg_walinspect;
	SELECT string_agg("resource_manager/record_type", ',' ORDER BY 1)
	FROM pg_get_wal_stats('$lsn_before', pg_current_wal_flush_lsn(), true)
	WHERE "resource_manager/record_type" LIKE 'colstore/%' AND count > 0});
like($kinds, qr{colstore/PRUNE}, 'VACUUM logged colstore prune records');
like($kinds, qr{colstore/FREEZE}, 'VACUUM (FREEZE) logged colstore freeze records');
$primary->command_checks_all([ @pgbench, '--time=3', 'postgres' ], 0,
	[ qr/number of transactions actually processed: [1-9]/ ], [ qr// ], 'pgbench run after recovery');
check_same($primary, 'after recovery, DML and VACUUM');
check_standby('after recovery, DML and VACUUM');
$primary->safe_psql('postgres', q{SELECT colstore.verify('t')});
pass('colstore.verify succeeds at the end');

$standby->stop;
$primary->stop;
done_testing();
