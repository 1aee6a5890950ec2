# wal_consistency_checking for colstore's resource manager.  With the setting
# naming 'colstore', every colstore record that references a block carries an
# image of the page as the primary left it, and the standby's startup process
# compares it, masked by colstore's rm_mask (heap_mask: these records change
# heap pages), with the page its redo produced; a difference stops replay
# with FATAL "inconsistent page found".
#
# 'all' is resolved when the server starts, before shared_preload_libraries
# register custom resource managers, so on its own it covers only the
# built-in ones (heap, btree, generic, ...); the primary here names both, so
# heapam's and the generic records on colstore's pages are checked too.
#
# The workload writes every colstore record kind that references a block:
# XLOG_COLSTORE_DELETE (compaction moving heap tuples and promoted copies into
# row groups, and options changes deleting rows of colstore.options),
# XLOG_COLSTORE_PRUNE (VACUUM making dead versions LP_DEAD, then LP_UNUSED,
# and, with the redirects flag, dead starts of HOT chains redirects, among
# them row-group rows' promoted copies)
# and XLOG_COLSTORE_FREEZE (VACUUM FREEZE), besides XLOG_COLSTORE_INSERT
# (wal_level = logical; no block, so nothing to compare) and heap's records
# of promotions, UPDATEs, DELETEs, row locks and speculative insertions
# (INSERT ... ON CONFLICT).  The test then checks, from the primary's WAL
# (pg_waldump), that records of each of the three kinds were written with
# their verification images, so the standby did compare them, and that the
# standby replayed everything, is still running and answers as the primary.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);

my $primary = PostgreSQL::Test::Cluster->new('wcc_primary');
$primary->init(allows_streaming => 'logical');
$primary->append_conf('postgresql.conf', q{
shared_preload_libraries = 'colstore'
wal_consistency_checking = 'all,colstore'
autovacuum = off
colstore.auto_compaction = off
wal_keep_size = '1GB'
});
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION colstore');
is($primary->safe_psql('postgres', 'SHOW wal_consistency_checking'), 'all,colstore',
	'the primary accepts the colstore resource manager in wal_consistency_checking');

$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('wcc_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;

my $start_lsn = $primary->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');

# Wait until the standby has replayed everything the primary wrote; give up
# as soon as its log reports a failed consistency check (replay is then over
# and the standby down).
sub replay_all
{
	my ($what) = @_;
	my $target = $primary->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
	my $max_attempts = 10 * $PostgreSQL::Test::Utils::timeout_default;
	for (my $i = 0; $i < $max_attempts; $i++)
	{
		my $log = slurp_file($standby->logfile);
		if ($log =~ /(inconsistent page found[^\n]*)/)
		{
			fail("standby replays $what: $1");
			return 0;
		}
		my ($ret, $replayed) = $standby->psql('postgres',
			"SELECT pg_last_wal_replay_lsn() >= '$target'::pg_lsn");
		if ($ret == 0 && $replayed eq 't')
		{
			pass("standby replays $what");
			return 1;
		}
		usleep(100_000);
	}
	fail("standby replays $what: not replayed to $target");
	return 0;
}

# Row groups of 1000 rows; row-group rows promoted by UPDATE, DELETE and row
# locks; small INSERTs and upserts as heap tuples; a wide value (TOAST).
$primary->safe_psql('postgres', q{
	CREATE TABLE t (id int PRIMARY KEY, g int NOT NULL, v text)
		USING colstore WITH (row_group_size = 1000);
	CREATE INDEX t_g ON t (g);
	INSERT INTO t SELECT i, i % 10, md5(i::text) FROM generate_series(1, 12000) i;
	INSERT INTO t VALUES (12001, 1, 'small insert'), (12002, 2, repeat('w', 5000));
	INSERT INTO t SELECT i, 3, 'upsert' FROM generate_series(11990, 12010) i
		ON CONFLICT (id) DO UPDATE SET v = excluded.v || ' ' || t.v;
	INSERT INTO t VALUES (5, 0, 'ignored') ON CONFLICT DO NOTHING;
	UPDATE t SET v = 'updated ' || id WHERE id % 7 = 0;
	DELETE FROM t WHERE id % 11 = 0;
	-- most of the second row group: rewritten by compaction below
	DELETE FROM t WHERE id BETWEEN 1001 AND 1800;
	SELECT count(*) FROM (SELECT id FROM t WHERE id BETWEEN 3001 AND 3100 FOR UPDATE) l;
	SELECT count(*) FROM (SELECT id FROM t WHERE id BETWEEN 3101 AND 3200 FOR SHARE) l;
	ALTER TABLE t SET (codec = pglz);
	-- HOT updates (no indexed column changes) on a heap page of small INSERTs
	CREATE TABLE hot (id int PRIMARY KEY, k int, v text) USING colstore;
	CREATE INDEX hot_k ON hot (k);
	INSERT INTO hot SELECT i, i % 7, 'v' FROM generate_series(1, 60) i;
	UPDATE hot SET v = v || 'a';
	UPDATE hot SET v = v || 'b' WHERE id <= 30;
	-- HOT updates of row-group rows (single-row UPDATEs): chains rooted at
	-- the rows' promoted copies
	CREATE TABLE hg (id int PRIMARY KEY, k int, v text) USING colstore;
	CREATE INDEX hg_k ON hg (k);
	INSERT INTO hg SELECT i, i % 7, 'v' FROM generate_series(1, 1000) i;
	DO $$ DECLARE i int; BEGIN
		FOR i IN 7 .. 140 BY 7 LOOP
			UPDATE hg SET v = v || 'a' WHERE id = i;
			UPDATE hg SET v = v || 'b' WHERE id = i;
		END LOOP;
	END $$;
});
replay_all('promotions, updates, deletes, row locks and upserts');

# VACUUM prunes the dead versions (LP_DEAD, then LP_UNUSED after the index
# pass); compaction moves the heap tuples and the mostly deleted group's live
# rows into new row groups (XLOG_COLSTORE_DELETE with the moved marker);
# changing the options deletes colstore.options rows.
$primary->safe_psql('postgres', 'VACUUM t');
# the HOT chains' dead starts become redirects to their live ends, the
# row-group rows' dead copies too
$primary->safe_psql('postgres', 'VACUUM hot');
$primary->safe_psql('postgres', 'VACUUM hg');
$primary->safe_psql('postgres', q{SELECT colstore.compact('t')});
$primary->safe_psql('postgres', 'ALTER TABLE t RESET (codec)');
replay_all('compaction');

# the moved versions pruned, the old group retired and later freed; the
# remaining versions frozen (XLOG_COLSTORE_FREEZE); new changes on the reused
# pages, frozen and pruned again
$primary->safe_psql('postgres', 'VACUUM FREEZE t');
$primary->safe_psql('postgres', 'VACUUM FREEZE t');
$primary->safe_psql('postgres', q{
	UPDATE t SET g = g + 100 WHERE id % 13 = 0;
	DELETE FROM t WHERE id % 17 = 0;
	INSERT INTO t SELECT i, 4, 'late ' || i FROM generate_series(12011, 12030) i
		ON CONFLICT (id) DO NOTHING;
	UPDATE hot SET v = v || 'c' WHERE id <= 10;
	DELETE FROM hot WHERE id % 9 = 0;
	DO $$ DECLARE i int; BEGIN
		FOR i IN 7 .. 70 BY 7 LOOP
			UPDATE hg SET v = v || 'c' WHERE id = i;
		END LOOP;
	END $$;
	DELETE FROM hg WHERE id % 21 = 0;
});
# redirects move on to the new live ends, wholly dead chains' go LP_DEAD
# (a redirected copy's too: its row's index entries go)
$primary->safe_psql('postgres', 'VACUUM hot');
$primary->safe_psql('postgres', 'VACUUM hg');
$primary->safe_psql('postgres', 'VACUUM FREEZE t');
$primary->safe_psql('postgres', q{SELECT colstore.compact('t')});
$primary->safe_psql('postgres', 'VACUUM FREEZE t');
replay_all('vacuum and freezing');

my $end_lsn = $primary->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');

# Every colstore record with a block carries an image of it (with the check
# flag, one for verification unless a full-page write is due anyway), and
# each of the three kinds occurs with verification images.  pg_waldump knows the resource manager only by
# its id (custom153) and the kinds by their info bits.
my ($stdout, $stderr);
IPC::Run::run [ 'pg_waldump', '-p', $primary->data_dir . '/pg_wal',
	'-s', $start_lsn, '-e', $end_lsn ], '>', \$stdout, '2>', \$stderr;
my (%checked, %unchecked);
foreach my $line (split /\n/, $stdout)
{
	next unless $line =~ /^rmgr: custom153 .*desc: UNKNOWN \((\w+)\)/;
	my $kind = $1;
	next unless $line =~ /blkref #/;
	# a block whose image must be applied anyway (its first change after a
	# checkpoint) is restored, not compared; every other one is compared
	if ($line =~ /FPW for WAL verification/)
	{
		$checked{$kind}++;
	}
	elsif ($line !~ /FPW/)
	{
		$unchecked{$kind}++;
	}
}
my %names = ('30' => 'DELETE', '40' => 'PRUNE', '50' => 'FREEZE',
	'c0' => 'PRUNE (with redirects)');
foreach my $kind (sort keys %names)
{
	ok(($checked{$kind} // 0) > 0,
		"XLOG_COLSTORE_$names{$kind} records carry verification images ("
		  . ($checked{$kind} // 0) . ')');
}
is(join(',', map { "$_=$unchecked{$_}" } sort keys %unchecked), '',
	'no colstore record with a block goes unchecked');

# the standby is still in recovery, never failed a check, and answers as the
# primary does, by sequential scan and through the indexes
is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery()'), 't',
	'the standby is still running');
unlike(slurp_file($standby->logfile), qr/inconsistent page found/,
	'no inconsistent page on the standby');
foreach my $query (
	'SELECT count(*), sum(id), sum(g), sum(length(v)), md5(string_agg(v, \',\' ORDER BY id)) FROM t',
	'SET enable_seqscan = off; SET enable_bitmapscan = off; '
	  . 'SELECT count(*), sum(id) FROM t WHERE id BETWEEN 900 AND 3300',
	'SET enable_seqscan = off; SELECT count(*), sum(id) FROM t WHERE g IN (3, 4, 105)',
	'SELECT id, g, v FROM t WHERE id IN (5, 7, 1801, 3001, 11995, 12002, 12020) ORDER BY id',
	'SELECT count(*), md5(string_agg(id || v, \',\' ORDER BY id)) FROM hot',
	'SET enable_seqscan = off; SET enable_bitmapscan = off; '
	  . 'SELECT count(*), md5(string_agg(id || v, \',\' ORDER BY id)) FROM hot WHERE id BETWEEN 1 AND 60',
	'SET enable_seqscan = off; SELECT count(*), md5(string_agg(id || v, \',\' ORDER BY id)) FROM hot WHERE k IN (1, 2, 3)',
	'SELECT count(*), md5(string_agg(id || v, \',\' ORDER BY id)) FROM hg',
	'SET enable_seqscan = off; SET enable_bitmapscan = off; '
	  . 'SELECT count(*), md5(string_agg(id || v, \',\' ORDER BY id)) FROM hg WHERE id BETWEEN 1 AND 200',
	'SET enable_seqscan = off; SET enable_indexscan = off; '
	  . 'SELECT count(*), md5(string_agg(id || v, \',\' ORDER BY id)) FROM hg WHERE k IN (0, 3)')
{
	is($standby->safe_psql('postgres', $query), $primary->safe_psql('postgres', $query),
		"standby equals primary: $query");
}
$standby->safe_psql('postgres', q{SELECT colstore.verify('t')});
pass('colstore.verify succeeds on the standby');

$standby->stop;
$primary->stop;
done_testing();
