# A streaming standby built with a base backup returns the same results as the
# primary for colstore tables, through loads, index builds, TRUNCATE and VACUUM,
# and a standby query keeps its snapshot while VACUUM prunes on the primary and
# frees a row group.  Both servers preload colstore, so the standby's scans
# take row group headers from its shared header cache, filled from the pages
# it replayed (checked after each comparison).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
# no autovacuum: an automatic ANALYZE's snapshot would keep the test's
# VACUUMs from pruning what they must (seen once on a loaded machine)
$primary->append_conf('postgresql.conf', 'autovacuum = off');
# no compaction worker either: its VACUUMs would change the state this test
# compares before and after a crash, at times of their own
$primary->append_conf('postgresql.conf', 'colstore.auto_compaction = off');
$primary->append_conf('postgresql.conf', "shared_preload_libraries = 'colstore'");
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION colstore;
	CREATE TABLE s (id int, grp int, v text, n numeric) USING colstore;
	INSERT INTO s SELECT i, i % 10, md5(i::text), i / 7.0 FROM generate_series(1, 30000) i;
});
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;

my @queries = (
	'SELECT count(*), sum(id), md5(string_agg(v, \',\' ORDER BY id)), sum(n) FROM s',
	'SELECT grp, count(*), min(v), max(n) FROM s GROUP BY grp ORDER BY grp',
	'SET enable_seqscan = off; SELECT * FROM s WHERE id IN (1, 777, 29999) ORDER BY id',
	'SELECT * FROM colstore.row_groups(\'s\')',
);

sub compare
{
	my ($what) = @_;
	$primary->wait_for_catchup($standby);
	foreach my $q (@queries)
	{
		is($standby->safe_psql('postgres', $q), $primary->safe_psql('postgres', $q), "$what: $q");
	}
	# a new standby session finds the headers the queries above read
	like($standby->safe_psql('postgres', q{
		SET max_parallel_workers_per_gather = 0;
		SELECT count(*) FROM s;
		SELECT backend_hits > 0 AND backend_misses = 0 FROM colstore.header_cache_stats()}),
		qr/\nt$/, "$what: the standby's scan took its headers from the header cache");
}

$primary->safe_psql('postgres', q{
	INSERT INTO s SELECT i, i % 10, 'more', i FROM generate_series(30001, 40000) i;
	CREATE INDEX s_id ON s (id);
	BEGIN; INSERT INTO s VALUES (-1, 0, 'rolled back', 0); ROLLBACK;
	INSERT INTO s VALUES (-2, 0, 'single', 0);
});
compare('after loads and index build');

$primary->safe_psql('postgres', q{
	VACUUM (FREEZE) s;
	TRUNCATE s;
	INSERT INTO s SELECT i, i % 3, 'after truncate', i FROM generate_series(1, 5000) i;
});
compare('after vacuum, truncate and reload');

$primary->safe_psql('postgres', 'VACUUM FULL s');
compare('after VACUUM FULL');
is($standby->safe_psql('postgres', 'SELECT colstore.verify(\'s\')'), '5000', 'verify on the standby');

# VACUUM on the primary prunes row versions and deleted rows that a standby
# query still sees.  Its prune records carry the removed xid horizon, so
# replay waits for that query (max_standby_streaming_delay = -1), whose
# snapshot keeps seeing the old rows by every path; afterwards the standby
# equals the primary.
$standby->append_conf('postgresql.conf', 'max_standby_streaming_delay = -1');
$standby->reload;
$primary->safe_psql('postgres', q{
	CREATE TABLE p (id int PRIMARY KEY, v int) USING colstore;
	INSERT INTO p SELECT i, i FROM generate_series(1, 20000) i;
	UPDATE p SET v = v + 1 WHERE id % 2 = 0;
});
$primary->wait_for_catchup($standby);
my @reads = (
	'SELECT count(*), sum(v) FROM p',
	'SET enable_seqscan = off; SELECT count(*), sum(v) FROM p WHERE id BETWEEN 1 AND 20000; RESET enable_seqscan',
	'SELECT * FROM p WHERE id IN (2, 3, 9, 10) ORDER BY id',
);
my $reader = $standby->background_psql('postgres');
$reader->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
my @before = map { $reader->query_safe($_) } @reads;
$primary->safe_psql('postgres', q{
	DELETE FROM p WHERE id % 3 = 0;
	UPDATE p SET v = v + 1 WHERE id % 5 = 0;
	VACUUM p;
});
ok( $standby->poll_query_until('postgres', q{
	SELECT count(*) > 0 FROM pg_stat_activity
	WHERE backend_type = 'startup' AND wait_event = 'RecoveryConflictSnapshot'}),
	'replay of the prune waits for the standby query');
foreach my $i (0 .. $#reads)
{
	is($reader->query_safe($reads[$i]), $before[$i], "the standby snapshot keeps its rows: $reads[$i]");
}
$reader->query_safe('COMMIT');
$reader->quit;
$primary->wait_for_catchup($standby);
foreach my $q (@reads)
{
	is($standby->safe_psql('postgres', $q), $primary->safe_psql('postgres', $q), "after the prune is replayed: $q");
}
isnt($standby->safe_psql('postgres', $reads[0]), $before[0], 'the changes reached the standby');

# A row group all of whose rows are deleted is retired by one VACUUM and
# freed by a later one, which reuses its pages.  A standby query whose
# snapshot predates the retirement may still be reading the group, so the
# freeing carries a recovery conflict (btree's reuse-page record) and its
# replay waits for that query too, although the prunes did not conflict.
$primary->safe_psql('postgres', q{
	LOAD 'colstore';	-- (its utility hook takes the options; the cluster does not preload it)
	CREATE TABLE g (id int PRIMARY KEY, v int) USING colstore WITH (row_group_size = 10000);
	INSERT INTO g SELECT i, i FROM generate_series(1, 30000) i;
	DELETE FROM g WHERE id <= 10000;
});
$primary->wait_for_catchup($standby);
$reader = $standby->background_psql('postgres');
$reader->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
my $g_before = $reader->query_safe('SELECT count(*), sum(v) FROM g');
$primary->safe_psql('postgres', 'VACUUM g');
$primary->wait_for_catchup($standby);
is($primary->safe_psql('postgres', q{SELECT state FROM colstore.row_groups('g') WHERE first_row = 0}),
	'emptied', 'the first VACUUM retires the emptied group');
$primary->safe_psql('postgres', 'SELECT txid_current(); VACUUM g');
is($primary->safe_psql('postgres', q{SELECT state FROM colstore.row_groups('g') WHERE first_row = 0}),
	'reclaimed', 'the second VACUUM frees it');
ok( $standby->poll_query_until('postgres', q{
	SELECT count(*) > 0 FROM pg_stat_activity
	WHERE backend_type = 'startup' AND wait_event = 'RecoveryConflictSnapshot'}),
	'replay of the freeing waits for the standby query');
is($reader->query_safe('SELECT count(*), sum(v) FROM g'), $g_before,
	'the standby snapshot keeps its rows while the freeing waits');
$reader->query_safe('COMMIT');
$reader->quit;
$primary->safe_psql('postgres', 'UPDATE g SET v = -v WHERE id % 7 = 0');
$primary->wait_for_catchup($standby);
foreach my $q ('SELECT count(*), sum(v) FROM g', q{SELECT * FROM colstore.row_groups('g')},
	'SET enable_seqscan = off; SELECT count(*), sum(v) FROM g WHERE id BETWEEN 1 AND 30000')
{
	is($standby->safe_psql('postgres', $q), $primary->safe_psql('postgres', $q),
		"after the freed pages took new versions: $q");
}
is($standby->safe_psql('postgres', q{SELECT colstore.verify('g')}), '20000', 'verify on the standby');

# Rows deleted for everyone get their deleted-rows bits from one VACUUM; a
# later one clears their promotion map slots and frees their copies' items
# and leaves, after btree's reuse-page conflict with the bits' stamp: a
# standby query whose snapshot predates the bits (it may have read a slot
# before its bit was set) makes that replay wait, and keeps its rows.  A
# crash between the bits and the freeing loses nothing: the next VACUUM
# frees them.  The rows are locked before they are deleted, which promotes
# them (a plain DELETE logs the delete without a copy: 007_dml_crash.pl).
$primary->safe_psql('postgres', q{
	LOAD 'colstore';
	CREATE TABLE d (id int PRIMARY KEY, v int) USING colstore WITH (row_group_size = 10000);
	INSERT INTO d SELECT i, i % 100 FROM generate_series(1, 20000) i;
	SELECT count(*) FROM (SELECT FROM d WHERE (id * 7919) % 10 < 3 FOR KEY SHARE) l;
	DELETE FROM d WHERE (id * 7919) % 10 < 3;
});
$primary->wait_for_catchup($standby);
my @d_reads = (
	'SELECT count(*), sum(id) FROM d',
	'SET enable_seqscan = off; SELECT count(*), sum(id) FROM d WHERE id BETWEEN 1 AND 20000; RESET enable_seqscan',
	'SET enable_seqscan = off; SET enable_indexscan = off; SELECT count(*), sum(id) FROM d WHERE id BETWEEN 1 AND 20000; RESET enable_seqscan; RESET enable_indexscan',
);
$reader = $standby->background_psql('postgres');
$reader->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
my @d_before = map { $reader->query_safe($_) } @d_reads;
$primary->safe_psql('postgres', 'VACUUM d');
is($primary->safe_psql('postgres', q{SELECT sum(deleted_rows) FROM colstore.row_group_deletes('d')}),
	'6000', 'the first VACUUM sets the deleted rows\' bits');
$primary->safe_psql('postgres', 'SELECT txid_current(); VACUUM d');
ok( $standby->poll_query_until('postgres', q{
	SELECT count(*) > 0 FROM pg_stat_activity
	WHERE backend_type = 'startup' AND wait_event = 'RecoveryConflictSnapshot'}),
	'replay of the freeing of the deleted rows\' copies waits for the standby query');
foreach my $i (0 .. $#d_reads)
{
	is($reader->query_safe($d_reads[$i]), $d_before[$i], "the standby snapshot keeps its rows: $d_reads[$i]");
}
$reader->query_safe('COMMIT');
$reader->quit;
$primary->safe_psql('postgres', 'SELECT txid_current(); VACUUM d');
$primary->wait_for_catchup($standby);
foreach my $q (@d_reads, q{SELECT * FROM colstore.row_group_deletes('d')})
{
	is($standby->safe_psql('postgres', $q), $primary->safe_psql('postgres', $q), "after the freeing: $q");
}
is($primary->safe_psql('postgres', q{SELECT sum(map_pages) FROM colstore.row_group_deletes('d')}),
	'6', 'the emptied leaves are freed');

# a crash right after the bits are set.  VACUUM's transaction has no xid,
# so its commit does not wait for its WAL to reach the disk: a transaction
# with one, after it, flushes that WAL before the crash.
$primary->safe_psql('postgres', 'DELETE FROM d WHERE id % 10 = 5; VACUUM d; SELECT txid_current()');
my $d_expected = $primary->safe_psql('postgres', $d_reads[0]);
my $bits = $primary->safe_psql('postgres', q{SELECT sum(deleted_rows) FROM colstore.row_group_deletes('d')});
$primary->stop('immediate');
$primary->start;
is($primary->safe_psql('postgres', q{SELECT sum(deleted_rows) FROM colstore.row_group_deletes('d')}),
	$bits, 'the bits survive the crash');
$primary->safe_psql('postgres', 'SELECT txid_current(); VACUUM d; SELECT txid_current(); VACUUM d');
is($primary->safe_psql('postgres', $d_reads[0]), $d_expected, 'the crash loses no row');
is($primary->safe_psql('postgres', $d_reads[1]), $d_expected, 'the crash loses no row by index');
is($primary->safe_psql('postgres', q{SELECT colstore.verify('d')}), '20000', 'verify after the crash');
$primary->wait_for_catchup($standby);
foreach my $q (@d_reads)
{
	is($standby->safe_psql('postgres', $q), $primary->safe_psql('postgres', $q), "standby after the crash: $q");
}

$standby->stop;
$primary->stop;
done_testing();
