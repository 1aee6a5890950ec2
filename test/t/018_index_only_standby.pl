# Index-only scans on a streaming standby and after a crash.  VACUUM's
# all-visible bits of pseudo-blocks (storage/all_visible.c) reach the standby
# through colstore's XLOG_COLSTORE_VISIBLE records, so its index-only scans
# fetch no row either; a record's conflict horizon makes its replay wait for a
# standby query whose snapshot does not see the rows' inserter, which keeps
# its answer.  A DELETE's clearing of the bits is logged before its commit,
# so after a crash that keeps the DELETE, redo clears them again and the
# index-only scan fetches the deleted rows' blocks (and does not count them).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', 'autovacuum = off');
$primary->append_conf('postgresql.conf', 'colstore.auto_compaction = off');
# no background writes, and room enough for no eviction: the cleared map
# page must reach the disk only by redo
$primary->append_conf('postgresql.conf', 'bgwriter_lru_maxpages = 0');
$primary->append_conf('postgresql.conf', 'shared_buffers = 16MB');
$primary->append_conf('postgresql.conf', "shared_preload_libraries = 'colstore'");
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION colstore;
	CREATE TABLE io (id int PRIMARY KEY, v int) USING colstore;
	INSERT INTO io SELECT g, g FROM generate_series(1, 29100) g;
	CREATE TABLE ih (id int PRIMARY KEY, v int);
	INSERT INTO ih SELECT g, g FROM generate_series(1, 29100) g;
	VACUUM io;
	VACUUM ih;
});
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->append_conf('postgresql.conf', 'max_standby_streaming_delay = -1');
$standby->start;

my $ios = q{SET enable_seqscan = off; SET enable_bitmapscan = off;
	EXPLAIN (ANALYZE, COSTS OFF, SUMMARY OFF, TIMING OFF) SELECT count(*) FROM io WHERE id > 0};
my $count = q{SET enable_seqscan = off; SET enable_bitmapscan = off;
	SELECT count(*), sum(id) FROM io WHERE id > 0};
my $heap_count = q{SELECT count(*), sum(id) FROM ih WHERE id > 0};

# VACUUM has no xid, so its records may still wait in the WAL buffers
sub catchup
{
	$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
}

sub fetches
{
	my ($node) = @_;
	my $plan = $node->safe_psql('postgres', $ios);
	like($plan, qr/Index Only Scan/, $node->name . ': an index-only scan');
	return $plan =~ /Heap Fetches: (\d+)/ ? $1 : -1;
}

# the bits of the base backup's VACUUM, and of one after it, replayed
$primary->safe_psql('postgres', q{
	DELETE FROM io WHERE id <= 2910; DELETE FROM ih WHERE id <= 2910;
	VACUUM io;
});
catchup();
is(fetches($primary), 0, 'the primary fetches no row after VACUUM');
is(fetches($standby), 0, 'the standby fetches no row after replaying VACUUM');
is($standby->safe_psql('postgres', $count), $primary->safe_psql('postgres', $heap_count),
	'the standby counts what heap does');

# a standby query whose snapshot does not see new rows' inserter: replay of
# the VACUUM that marks their blocks waits for it, and it never counts them
# (the VACUUMs before it free what the DELETE left, whose records conflict
# too, so that only the marks can make this replay wait)
$primary->safe_psql('postgres', 'SELECT txid_current(); VACUUM io');
$primary->safe_psql('postgres', 'SELECT txid_current(); VACUUM io');
$primary->safe_psql('postgres', 'SELECT txid_current(); VACUUM io');
catchup();
my $reader = $standby->background_psql('postgres');
$reader->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
my $before = $reader->query_safe($count);
$primary->safe_psql('postgres', q{
	INSERT INTO io SELECT g, g FROM generate_series(100001, 102910) g;
	INSERT INTO ih SELECT g, g FROM generate_series(100001, 102910) g;
});
$primary->safe_psql('postgres', 'VACUUM io');
ok( $standby->poll_query_until('postgres', q{
	SELECT count(*) > 0 FROM pg_stat_activity
	WHERE backend_type = 'startup' AND wait_event = 'RecoveryConflictSnapshot'}),
	'replay of the marks waits for the standby query');
is($reader->query_safe($count), $before, 'the standby snapshot keeps its count');
$reader->query_safe('COMMIT');
$reader->quit;
catchup();
is($standby->safe_psql('postgres', $count), $primary->safe_psql('postgres', $heap_count),
	'after the marks are replayed the standby counts the new rows');
is(fetches($standby), fetches($primary), 'the standby fetches what the primary does');

# a crash right after a DELETE: its clearing is replayed, on the primary
# after the crash (the map page on disk still has the bits: a checkpoint
# wrote them) and on the standby
$primary->safe_psql('postgres', 'CHECKPOINT');
$primary->safe_psql('postgres', q{
	DELETE FROM io WHERE id BETWEEN 5821 AND 8730;
	DELETE FROM ih WHERE id BETWEEN 5821 AND 8730;
});
$primary->stop('immediate');
$primary->start;
is($primary->safe_psql('postgres', $count), $primary->safe_psql('postgres', $heap_count),
	'after the crash the index-only scan does not count the deleted rows');
cmp_ok(fetches($primary), '>=', 2910, 'after the crash it fetches the deleted rows\' blocks');
catchup();
is($standby->safe_psql('postgres', $count), $primary->safe_psql('postgres', $heap_count),
	'the standby does not count the deleted rows');
cmp_ok(fetches($standby), '>=', 2910, 'the standby fetches the deleted rows\' blocks');
$primary->safe_psql('postgres', 'VACUUM io');
is($primary->safe_psql('postgres', $count), $primary->safe_psql('postgres', $heap_count),
	'after the next VACUUM too');
catchup();
is($standby->safe_psql('postgres', $count), $primary->safe_psql('postgres', $heap_count),
	'and on the standby');

$standby->stop;
$primary->stop;
done_testing();
