# When btree removes index entries that an index scan on the primary marked
# dead (simple deletion, on an insert into a full leaf page), its WAL record
# carries the snapshot conflict horizon colstore's index_delete_tuples
# returned.  A standby query whose snapshot still sees the rows behind those
# entries must conflict with that record: with max_standby_streaming_delay
# = -1 replay waits for it, and the query keeps finding every row through the
# index.  Without a horizon, replay would remove the entries under the query,
# and its index scans would silently miss rows its snapshot sees.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', 'autovacuum = off');
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION colstore;
	CREATE TABLE d (k int, v int) USING colstore;
	-- one index tuple per row version, so that each version's entry can be
	-- marked dead on its own (a posting list is marked only when all are)
	CREATE INDEX d_k ON d (k) WITH (deduplicate_items = off);
	INSERT INTO d SELECT i, 0 FROM generate_series(1, 2000) i;
	UPDATE d SET v = 1;
});
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->append_conf('postgresql.conf', 'max_standby_streaming_delay = -1');
$standby->start;
$primary->wait_for_catchup($standby);

# the standby's reader sees the versions the first UPDATE made (v = 1)
my $read = 'SET enable_seqscan = off; '
  . 'SELECT count(*), sum(v) FROM d WHERE k BETWEEN 1 AND 2000';
my $reader = $standby->background_psql('postgres');
$reader->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
is($reader->query_safe($read), '2000|2000', 'standby reader sees the first update');

# The second UPDATE deletes those versions; an index scan on the primary
# finds them dead to everyone there and marks their entries, and the next
# inserts into the full leaf pages remove the marked entries.
$primary->safe_psql('postgres', q{
	UPDATE d SET v = 2;
	SET enable_seqscan = off; SET enable_bitmapscan = off;
	SELECT count(*) FROM d WHERE k BETWEEN 1 AND 2000;
});
$primary->safe_psql('postgres',
	'INSERT INTO d SELECT i, 100 FROM generate_series(1, 2000) i');

# replay stops at the deletion, waiting for the reader's snapshot
ok( $standby->poll_query_until(
		'postgres',
		"SELECT count(*) > 0 FROM pg_stat_activity "
		  . "WHERE backend_type = 'startup' AND wait_event = 'RecoveryConflictSnapshot'"),
	'replay of the index deletion waits for the standby reader');
is($reader->query_safe($read), '2000|2000',
	'the reader still finds every row through the index');
$reader->query_safe('COMMIT');
$reader->quit;

$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $read), '4000|204000',
	'after replay the standby sees the primary\'s rows');
is($primary->safe_psql('postgres', $read), '4000|204000', 'the primary agrees');

done_testing();
