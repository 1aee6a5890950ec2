# Freed pages taking row groups, and VACUUM truncating the empty end of the
# file, across WAL replay: a standby checks every record with
# wal_consistency_checking = 'all,colstore' (the generic records that turn a
# freed heap page back into a colstore page, the directory marks of
# truncated delta pages, the truncation itself), then the primary crashes
# right after reusing and truncating and recovers, and finally the standby
# is promoted and reuses pages on its own (its free space map is the one
# replay left).  Emptied heap pages are retired, the primary crashes
# before they are freed, and after recovery a VACUUM frees them and new row
# groups take them.  After each step the data equal what the statements
# wrote and colstore.verify passes.  Row groups and directory pages at the
# end of the file are moved into freed pages lower down, replayed, and the
# server killed during such moves.  Delete log segment pages are detached
# and freed by VACUUM across crashes; deleted-rows pages at the end are
# moved down, replayed, and survive a crash and kills during the move.  Last, a row group write interrupted after its
# pages reached disk (made on a stopped server) must not keep later writes
# from working.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);

my $primary = PostgreSQL::Test::Cluster->new('reuse_primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', q{
shared_preload_libraries = 'colstore'
wal_consistency_checking = 'all,colstore'
autovacuum = off
colstore.auto_compaction = off
wal_keep_size = '1GB'
restart_after_crash = on
});
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION colstore');
# a slot keeps every WAL segment the standby has not received: its replay
# checks every page image, and on a loaded machine it fell further behind
# the kill rounds' WAL than wal_keep_size kept (the primary removed a
# segment the standby still needed, and catching up timed out)
$primary->safe_psql('postgres',
	q{SELECT pg_create_physical_replication_slot('reuse_standby')});
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('reuse_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->append_conf('postgresql.conf', q{primary_slot_name = 'reuse_standby'});
$standby->start;

# the rows the table must hold, from a heap twin kept on the primary
my $summary = 'SELECT count(*), sum(id), sum(v), md5(string_agg(t, \',\' ORDER BY id)) FROM ';
my $indexed = 'SET enable_seqscan = off; SET enable_bitmapscan = off; '
  . 'SELECT count(*), sum(id), md5(string_agg(t, \',\' ORDER BY id)) FROM ';
my $range = ' WHERE id BETWEEN 25000 AND 120000';

sub pages
{
	my ($node, $table) = @_;
	return $node->safe_psql('postgres',
		"SELECT pg_relation_size('$table') / current_setting('block_size')::int");
}

# no snapshot older than the retirement may be left when VACUUM frees
sub free_groups
{
	my ($node, $table, $options) = @_;
	$node->safe_psql('postgres', "VACUUM $options $table");
	$node->safe_psql('postgres', 'SELECT txid_current()');
	$node->safe_psql('postgres', "VACUUM $options $table");
	$node->safe_psql('postgres', 'SELECT txid_current()');
	$node->safe_psql('postgres', "VACUUM $options $table");
}

sub same_as_twin
{
	my ($node, $what) = @_;
	is($node->safe_psql('postgres', $summary . 'r'),
		$primary->safe_psql('postgres', $summary . 'rh'), "$what: rows equal the heap twin's");
	is($node->safe_psql('postgres', $indexed . 'r' . $range),
		$primary->safe_psql('postgres', $indexed . 'rh' . $range),
		"$what: index scan equals the heap twin's");
	is($node->safe_psql('postgres', q{SELECT colstore.verify('r') >= 0}), 't',
		"$what: colstore.verify passes");
}

sub replayed
{
	my ($what) = @_;
	$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
	unlike(slurp_file($standby->logfile), qr/inconsistent page found/,
		"$what: no inconsistent page on the standby");
	same_as_twin($standby, "standby after $what");
}

# statements run on both tables
sub both
{
	my ($sql) = @_;
	(my $heap = $sql) =~ s/\br\b/rh/g;
	$primary->safe_psql('postgres', $sql);
	$primary->safe_psql('postgres', $heap);
}

$primary->safe_psql('postgres', q{
	CREATE TABLE r (id int PRIMARY KEY, v int, t text) USING colstore
		WITH (row_group_size = 5000);
	CREATE TABLE rh (id int PRIMARY KEY, v int, t text);
});
both(q{INSERT INTO r SELECT i, i % 97, md5(i::text) FROM generate_series(1, 40000) i});

# most rows deleted, the rest compacted out, every group freed without
# truncation; then loaded again into the freed pages
both(q{DELETE FROM r WHERE id <= 30000 OR id % 10 <> 0});
$primary->safe_psql('postgres', 'VACUUM (TRUNCATE false) r');
$primary->safe_psql('postgres', q{SELECT colstore.compact('r')});
free_groups($primary, 'r', '(TRUNCATE false)');
is($primary->safe_psql('postgres',
	q{SELECT count(*) FROM colstore.row_groups('r') WHERE state = 'reclaimed'}), '8',
	'all eight groups freed');
my $freed = pages($primary, 'r');
both(q{INSERT INTO r SELECT i, i % 97, md5(i::text) FROM generate_series(100001, 130000) i});
my $reloaded = pages($primary, 'r');
ok($reloaded <= $freed + 2, "reloading takes the freed pages ($freed pages, then $reloaded)");
# promotion maps, new versions and small inserts on the reused groups
both(q{UPDATE r SET v = v + 1 WHERE id % 100 = 0});
both(q{INSERT INTO r VALUES (-1, 1, 'small')});
same_as_twin($primary, 'primary after reuse');
replayed('reuse');

# everything deleted and freed, then the end truncated away
both(q{DELETE FROM r});
free_groups($primary, 'r', '(TRUNCATE false)');
my $all_freed = pages($primary, 'r');
$primary->safe_psql('postgres', 'VACUUM r');
my $truncated = pages($primary, 'r');
ok($truncated < $all_freed, "VACUUM truncates the empty end ($all_freed pages, then $truncated)");
# new rows on what is left: freed pages, pages past the old end
both(q{INSERT INTO r SELECT i, i % 97, md5(i::text) FROM generate_series(200001, 230000) i});
both(q{INSERT INTO r VALUES (-2, 2, 'small after truncation')});
both(q{DELETE FROM r WHERE id % 3 = 0});
same_as_twin($primary, 'primary after truncation');
replayed('truncation');

# crash right after more reuse and truncation: recovery replays the pages
# taken back, the delta page marks and the truncation
both(q{DELETE FROM r WHERE id > 215000});
free_groups($primary, 'r', '');
both(q{INSERT INTO r SELECT i, i % 97, md5(i::text) FROM generate_series(300001, 310000) i});
$primary->stop('immediate');
$primary->start;
same_as_twin($primary, 'primary after crash recovery');
replayed('crash recovery of the primary');

# Emptied heap pages (storage/delta_retire.c): an UPDATE's new versions
# fill heap pages, compaction moves them into row groups, and VACUUM
# retires the pages it leaves empty.  The primary crashes right after the
# retirement, before any VACUUM frees them: recovery and the standby replay
# the directory marks, the pages stay out of scans, and a later VACUUM
# frees them for new row groups, so a load after it does not grow the file.
$primary->safe_psql('postgres', q{
	CREATE TABLE d (id int PRIMARY KEY, v int, t text) USING colstore
		WITH (row_group_size = 5000);
	CREATE TABLE dh (id int PRIMARY KEY, v int, t text);
});
my $dsum = 'SELECT count(*), sum(id), sum(v), md5(string_agg(t, \',\' ORDER BY id)) FROM ';
my $dindexed = 'SET enable_seqscan = off; SET enable_bitmapscan = off; '
  . 'SELECT count(*), sum(v), md5(string_agg(t, \',\' ORDER BY id)) FROM ';
sub d_same
{
	my ($node, $what) = @_;
	is($node->safe_psql('postgres', $dsum . 'd'), $primary->safe_psql('postgres', $dsum . 'dh'),
		"$what: rows equal the heap twin's");
	is($node->safe_psql('postgres', $dindexed . 'd WHERE id BETWEEN 1 AND 1000000'),
		$primary->safe_psql('postgres', $dindexed . 'dh WHERE id BETWEEN 1 AND 1000000'),
		"$what: index scan equals the heap twin's");
	is($node->safe_psql('postgres', q{SELECT colstore.verify('d') >= 0}), 't',
		"$what: colstore.verify passes");
}
sub d_both
{
	my ($sql) = @_;
	(my $heap = $sql) =~ s/\bd\b/dh/g;
	$primary->safe_psql('postgres', $sql);
	$primary->safe_psql('postgres', $heap);
}
d_both(q{INSERT INTO d SELECT i, i, repeat('w', 200) FROM generate_series(1, 20000) i});
d_both(q{UPDATE d SET v = v + 1 WHERE id % 2 = 0});
my $updated = pages($primary, 'd');
$primary->safe_psql('postgres', q{SELECT colstore.compact('d')});
# the first VACUUM retires the old row groups, whose promoted copies share
# the heap pages; the second frees the groups, which empties the pages
$primary->safe_psql('postgres', 'SELECT txid_current()');
$primary->safe_psql('postgres', 'VACUUM (TRUNCATE false) d');
$primary->safe_psql('postgres', 'SELECT txid_current()');
$primary->psql('postgres', 'VACUUM (TRUNCATE false, VERBOSE) d', stderr => \my $verbose);
like($verbose, qr/[1-9][0-9]* empty heap pages were retired and 0 freed/,
	'VACUUM retires the emptied heap pages, frees none yet');
$primary->stop('immediate');
$primary->start;
d_same($primary, 'primary after a crash between retiring and freeing');
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
unlike(slurp_file($standby->logfile), qr/inconsistent page found/,
	'retiring: no inconsistent page on the standby');
d_same($standby, 'standby after retiring');
$primary->safe_psql('postgres', 'SELECT txid_current()');
$primary->psql('postgres', 'VACUUM (TRUNCATE false, VERBOSE) d', stderr => \$verbose);
like($verbose, qr/empty heap pages were retired and [1-9][0-9]* freed/,
	'the VACUUM after recovery frees the retired pages');
my $freed_heap = pages($primary, 'd');
d_both(q{INSERT INTO d SELECT i, i % 97, md5(i::text) || md5((-i)::text) FROM generate_series(100001, 120000) i});
my $loaded = pages($primary, 'd');
ok($loaded <= $freed_heap + 2,
	"new row groups take the freed heap pages ($updated pages after the UPDATE, $freed_heap freed, then $loaded)");
d_both(q{UPDATE d SET v = -v WHERE id % 100 = 1});
d_both(q{INSERT INTO d VALUES (-1, 1, 'small')});
d_same($primary, 'primary after reusing freed heap pages');
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
unlike(slurp_file($standby->logfile), qr/inconsistent page found/,
	'freeing heap pages: no inconsistent page on the standby');
d_same($standby, 'standby after freeing heap pages');

# kill_during_vacuum(TABLE, VACUUM_MS): run VACUUM TABLE in a new session
# after a one-second sleep there, SIGKILL that session at a random point
# within VACUUM_MS of the sleep's end (timed from the server's clock: the
# sleep's query_start), wait until crash recovery has let connections in
# again, and return whether the server log shows the killed backend's VACUUM
# statement and its termination (15 and 17+ word the latter differently)
sub kill_during_vacuum
{
	my ($table, $vacuum_ms) = @_;
	my $app = "reuse_kill_$table";
	my ($out, $err) = ('', '');
	my $log_offset = -s $primary->logfile;
	my $h = IPC::Run::start(
		[
			'psql', '-X', '-d', $primary->connstr('postgres') . " application_name=$app",
			'-c', 'SELECT pg_sleep(1)', '-c', "VACUUM $table"
		],
		'>', \$out, '2>', \$err);
	my ($pid, $wait_ms) = ('', '');
	for (1 .. 200)
	{
		($pid, $wait_ms) = split /\|/, $primary->safe_psql('postgres', qq{
			SELECT pid, greatest(0, 1000 - 1000 * extract(epoch FROM clock_timestamp() - query_start))::int
			FROM pg_stat_activity
			WHERE application_name = '$app' AND query = 'SELECT pg_sleep(1)'});
		last if defined $pid && $pid ne '';
		usleep(10_000);
	}
	die 'the killed session never started its sleep' if !defined $pid || $pid eq '';
	usleep(1000 * ($wait_ms + int(rand(0.9 * $vacuum_ms))));
	my $signalled = kill 'KILL', $pid;
	# psql may exit before reading its input while the server resets: IPC::Run
	# then dies of the broken pipe, which is one more failed try
	eval { $h->finish; };
	# a backend that got the signal makes the postmaster reset every session:
	# wait for the reset to be over (a query answered before the postmaster
	# noticed the death would be followed by one the reset cuts off)
	for (1 .. 600)
	{
		my $since = substr(slurp_file($primary->logfile), $log_offset);
		last if !$signalled
		  || $since =~ /\(PID $pid\) was terminated by signal 9.*database system is ready to accept connections/s
		  || ($since !~ /\(PID $pid\) was terminated/ && !kill(0, $pid) && $_ > 50);
		usleep(100_000);
	}
	for (1 .. 600)
	{
		last if eval { $primary->psql('postgres', 'SELECT 1') == 0 };
		usleep(100_000);
	}
	my $log = substr(slurp_file($primary->logfile), $log_offset);
	return $log =~ /\[$pid\][^\n]*statement: VACUUM $table\n/
	  && $log =~ /(?:server process|client backend) \(PID $pid\) was terminated by signal 9/;
}

# Moving the end of the file down (storage/space_relocate.c): an UPDATE's
# heap pages, compaction's row groups written after them and directory
# pages taken among them.  Once VACUUM has freed the heap pages, the next
# VACUUM moves those row groups and directory pages into freed pages lower
# down and truncates the end.  The standby replays the moves and the
# truncation (wal_consistency_checking); then the server is killed at
# random points of such a VACUUM (the kill lands before, during or after
# the move, 5 times), and after crash recovery the table equals its heap
# twin, and a VACUUM after it finishes the move and the truncation.
$primary->safe_psql('postgres', q{
	CREATE TABLE m (id int PRIMARY KEY, v int, t text) USING colstore
		WITH (row_group_size = 1000);
	CREATE TABLE mh (id int PRIMARY KEY, v int, t text);
});
sub m_both
{
	my ($sql) = @_;
	(my $heap = $sql) =~ s/\bm\b/mh/g;
	$primary->safe_psql('postgres', $sql);
	$primary->safe_psql('postgres', $heap);
}
sub m_same
{
	my ($node, $what) = @_;
	is($node->safe_psql('postgres', $dsum . 'm'), $primary->safe_psql('postgres', $dsum . 'mh'),
		"$what: rows equal the heap twin's");
	is($node->safe_psql('postgres', $dindexed . 'm WHERE id BETWEEN 1 AND 1000000'),
		$primary->safe_psql('postgres', $dindexed . 'mh WHERE id BETWEEN 1 AND 1000000'),
		"$what: index scan equals the heap twin's");
	is($node->safe_psql('postgres', q{SELECT colstore.verify('m') >= 0}), 't',
		"$what: colstore.verify passes");
}
# the UPDATE, compaction and VACUUMs (no truncation) until the heap pages are freed
sub m_prepare
{
	my ($round) = @_;
	m_both("UPDATE m SET v = v + $round WHERE id <= 12000");
	$primary->safe_psql('postgres', 'VACUUM (TRUNCATE false) m');
	$primary->safe_psql('postgres', q{SELECT colstore.compact('m')});
	for (1 .. 4)
	{
		$primary->safe_psql('postgres', 'SELECT txid_current()');
		$primary->safe_psql('postgres', 'VACUUM (TRUNCATE false) m');
	}
	# the free space map is not WAL-logged: keep it across the kills
	$primary->safe_psql('postgres', 'CHECKPOINT');
}
m_both(q{INSERT INTO m SELECT i, i, 'row ' || (i % 100) FROM generate_series(1, 60000) i});
my $m_loaded = pages($primary, 'm');
m_prepare(1);
my $m_freed = pages($primary, 'm');
$primary->psql('postgres', 'VACUUM (VERBOSE) m', stderr => \my $m_verbose);
like($m_verbose, qr/moved [1-9][0-9]* row groups and [1-9][0-9]* directory pages/,
	'VACUUM moves the row groups and directory pages at the end of the file');
my $m_moved = pages($primary, 'm');
ok($m_moved < $m_freed / 4,
	"and truncates the end ($m_loaded pages loaded, $m_freed after the UPDATE, $m_moved after the move)");
m_same($primary, 'primary after the move');
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
unlike(slurp_file($standby->logfile), qr/inconsistent page found/,
	'moving the end: no inconsistent page on the standby');
m_same($standby, 'standby after the move');

# kills during such VACUUMs.  The VACUUM lasts tens of milliseconds, less
# than a poll of pg_stat_activity takes, so the kill is timed from the
# server's own clock: the session sleeps a second first, and the kill lands
# a random time after the VACUUM's expected start, within its length
# (measured on the server: clock_timestamp() read before and after a VACUUM
# in one session).  A kill that lands before or after the VACUUM still
# tests recovery; rounds go on until five have landed while it ran (the
# server log shows the killed backend's VACUUM statement), at most twenty.
m_prepare(2);
my @clock = split /\n/, $primary->safe_psql('postgres',
	q{SELECT extract(epoch FROM clock_timestamp())}
	. q{; VACUUM m; SELECT extract(epoch FROM clock_timestamp())});
my $vacuum_ms = int(1000 * ($clock[1] - $clock[0])) + 1;
note("a VACUUM that moves takes $vacuum_ms ms");
my ($landed, $round) = (0, 2);
while ($landed < 5 && $round < 22)
{
	$round++;
	m_prepare($round);
	my $before = pages($primary, 'm');
	my $during = kill_during_vacuum('m', $vacuum_ms);
	$landed++ if $during;
	note("round $round: the kill landed " . ($during ? 'during the VACUUM' : 'outside it'));
	m_same($primary, "primary after a kill near VACUUM (round $round)");
	$primary->safe_psql('postgres', 'SELECT txid_current()');
	$primary->safe_psql('postgres', 'VACUUM m');
	m_same($primary, "primary after the VACUUM after recovery (round $round)");
	my $now = pages($primary, 'm');
	ok($now < $before / 3,
		"the VACUUM after recovery moves and truncates (round $round: $before pages, then $now)");
}
is($landed, 5, "five kills landed during a VACUUM that moves ($round rounds)");
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
unlike(slurp_file($standby->logfile), qr/inconsistent page found/,
	'kills during the move: no inconsistent page on the standby');
m_same($standby, 'standby after the kills');

# Rewriting the directory (storage/directory.c, DirectoryDropFreedDeltas):
# an UPDATE of the first 130,000 of 300,000 rows registers 1,700 heap
# pages (their entries fill 17 directory pages); once VACUUM has
# freed them, the next VACUUM writes the directory again without their
# entries (new pages, the metapage's switch, the old pages freed), under a
# brief AccessExclusiveLock, before it moves the end down and truncates.
# The standby replays it (wal_consistency_checking); then the server is
# killed at random points of such VACUUMs (three rounds), and after crash
# recovery the table equals its heap twin and a VACUUM after it ends the
# file where a VACUUM without a kill would.
$primary->safe_psql('postgres', q{
	CREATE TABLE dr (id int PRIMARY KEY, v int, t text) USING colstore;
	CREATE TABLE drh (id int PRIMARY KEY, v int, t text);
});
sub dr_both
{
	my ($sql) = @_;
	(my $heap = $sql) =~ s/\bdr\b/drh/g;
	$primary->safe_psql('postgres', $sql);
	$primary->safe_psql('postgres', $heap);
}
sub dr_same
{
	my ($node, $what) = @_;
	is($node->safe_psql('postgres', $dsum . 'dr'), $primary->safe_psql('postgres', $dsum . 'drh'),
		"$what: rows equal the heap twin's");
	is($node->safe_psql('postgres', $dindexed . 'dr WHERE id BETWEEN 1 AND 1000000'),
		$primary->safe_psql('postgres', $dindexed . 'drh WHERE id BETWEEN 1 AND 1000000'),
		"$what: index scan equals the heap twin's");
	is($node->safe_psql('postgres', q{SELECT colstore.verify('dr') >= 0}), 't',
		"$what: colstore.verify passes");
}
# the UPDATE, compaction and VACUUMs (no truncation, no rewrite) until the heap pages are freed
sub dr_prepare
{
	my ($round) = @_;
	dr_both("UPDATE dr SET v = v + $round WHERE id <= 130000");
	$primary->safe_psql('postgres', 'VACUUM (TRUNCATE false) dr');
	$primary->safe_psql('postgres', q{SELECT colstore.compact('dr')});
	for (1 .. 4)
	{
		$primary->safe_psql('postgres', 'SELECT txid_current()');
		$primary->safe_psql('postgres', 'VACUUM (TRUNCATE false) dr');
	}
	$primary->safe_psql('postgres', 'CHECKPOINT');
}
dr_both(q{INSERT INTO dr SELECT i, i, 'row ' || (i % 100) FROM generate_series(1, 300000) i});
my $dr_loaded = pages($primary, 'dr');
dr_prepare(1);
my $dr_freed = pages($primary, 'dr');
$primary->psql('postgres', 'VACUUM (VERBOSE) dr', stderr => \my $dr_verbose);
like($dr_verbose, qr/rewrote the directory without the entries of freed heap pages, [1-9][0-9]* pages fewer/,
	'VACUUM rewrites the directory without the freed heap pages\' entries');
my $dr_rewritten = pages($primary, 'dr');
ok($dr_rewritten <= $dr_loaded + 12,
	"and the file ends near its size before ($dr_loaded pages loaded, $dr_freed after the UPDATE, $dr_rewritten after)");
dr_same($primary, 'primary after the rewrite');
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
unlike(slurp_file($standby->logfile), qr/inconsistent page found/,
	'rewriting the directory: no inconsistent page on the standby');
dr_same($standby, 'standby after the rewrite');
@clock = split /\n/, $primary->safe_psql('postgres',
	q{SELECT extract(epoch FROM clock_timestamp())}
	. q{; VACUUM dr; SELECT extract(epoch FROM clock_timestamp())});
my $dr_vacuum_ms = int(1000 * ($clock[1] - $clock[0])) + 1;
for my $dr_round (2 .. 4)
{
	dr_prepare($dr_round);
	my $before = pages($primary, 'dr');
	my $during = kill_during_vacuum('dr', $dr_vacuum_ms);
	note("directory rewrite round $dr_round: the kill landed " . ($during ? 'during the VACUUM' : 'outside it'));
	dr_same($primary, "primary after a kill near a rewriting VACUUM (round $dr_round)");
	$primary->safe_psql('postgres', 'SELECT txid_current()');
	$primary->safe_psql('postgres', 'VACUUM dr');
	dr_same($primary, "primary after the VACUUM after recovery (round $dr_round)");
	my $now = pages($primary, 'dr');
	ok($now < $before / 3,
		"the VACUUM after recovery truncates (round $dr_round: $before pages, then $now)");
}
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
unlike(slurp_file($standby->logfile), qr/inconsistent page found/,
	'kills during the rewrite: no inconsistent page on the standby');
dr_same($standby, 'standby after the kills during the rewrite');

# Delete log pages (storage/delete_log.c): a random 30% DELETE logs runs in
# segment pages; the VACUUM that turns them into bits detaches the emptied
# pages (listed with a stamp), and a VACUUM after the stamp gives them to
# the free space map, where a new row group takes them.  The primary
# crashes right after each of these VACUUMs and after deletes into the
# segments whose pages went (new segment pages); after recovery the table
# equals its heap twin, the standby replays every record
# (wal_consistency_checking), and the pages of each group's delete state
# (colstore.row_group_deletes) show the detach and the freeing surviving.
sub dl_same
{
	my ($node, $what) = @_;
	is($node->safe_psql('postgres', $summary . 'dl'),
		$primary->safe_psql('postgres', $summary . 'dlh'), "$what: rows equal the heap twin's");
	is($node->safe_psql('postgres', $indexed . 'dl' . $range),
		$primary->safe_psql('postgres', $indexed . 'dlh' . $range),
		"$what: index scan equals the heap twin's");
	is($node->safe_psql('postgres', q{SELECT colstore.verify('dl') >= 0}), 't',
		"$what: colstore.verify passes");
}
sub dl_both
{
	my ($sql) = @_;
	(my $heap = $sql) =~ s/\bdl\b/dlh/g;
	$primary->safe_psql('postgres', $sql);
	$primary->safe_psql('postgres', $heap);
}
sub dl_state_pages
{
	return $primary->safe_psql('postgres',
		q{SELECT coalesce(sum(map_pages), 0) FROM colstore.row_group_deletes('dl')});
}
sub dl_crash
{
	my ($what) = @_;
	# VACUUM commits without waiting for its WAL, and so does a transaction
	# that only took an xid: one that wrote a row flushes it all
	$primary->safe_psql('postgres', 'INSERT INTO dl_flush VALUES (1)');
	$primary->stop('immediate');
	$primary->start;
	# the horizon after crash recovery starts at the checkpoint's next xid:
	# a transaction id taken now lets the next VACUUM pass the stamps
	$primary->safe_psql('postgres', 'SELECT txid_current()');
	dl_same($primary, "primary after a crash $what");
}
$primary->safe_psql('postgres', q{
	CREATE TABLE dl (id int PRIMARY KEY, v int, t text) USING colstore
		WITH (row_group_size = 20000);
	CREATE TABLE dlh (id int PRIMARY KEY, v int, t text);
	CREATE TABLE dl_flush (i int);
});
dl_both(q{INSERT INTO dl SELECT i, i % 97, md5(i::text) FROM generate_series(1, 60000) i});
dl_both(q{DELETE FROM dl WHERE (hashint4(id) & 1023) < 307});
my $dl_deleted = dl_state_pages();
# three groups: promotion map root, DELETED_ROOT, log root, two segment pages
is($dl_deleted, 15, 'the DELETE logs its rows in two segment pages per group');
$primary->safe_psql('postgres', 'VACUUM dl');
dl_crash('after the VACUUM that detaches the segment pages');
# a bitmap page each; the segment pages listed, not yet freed
is(dl_state_pages(), 18, 'after the detach and a crash: bitmap pages added, segment pages still listed');
$primary->safe_psql('postgres', 'VACUUM dl');
# the free space map is not WAL-logged: keep it across the crash
$primary->safe_psql('postgres', 'CHECKPOINT');
dl_crash('after the VACUUM that frees the segment pages');
is(dl_state_pages(), 12, 'after the freeing and a crash: the six segment pages are gone');
my $dl_freed = pages($primary, 'dl');
dl_both(q{INSERT INTO dl SELECT i, i % 97, md5(i::text) FROM generate_series(60001, 70000) i});
my $dl_grown = pages($primary, 'dl') - $dl_freed;
my $dl_need = $primary->safe_psql('postgres',
	q{SELECT ceil(sum(stored_bytes) / 8160.0) FROM colstore.row_groups('dl') WHERE first_row >= 60000});
ok($dl_grown <= $dl_need - 5,
	"a new row group takes the freed segment pages (the file grew $dl_grown pages for $dl_need)");
dl_both(q{DELETE FROM dl WHERE id % 10 = 1});
dl_crash('after deletes into segments whose pages went');
$primary->safe_psql('postgres', 'VACUUM dl');
dl_crash('after those deletes were vacuumed and their pages detached');
$primary->safe_psql('postgres', 'VACUUM dl');
dl_crash('after those pages were freed');
# the new group's map root, DELETED_ROOT, log root and bitmap page added; no
# segment page left
is(dl_state_pages(), 16, 'after the second freeing and a crash: no segment page is left');
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
unlike(slurp_file($standby->logfile), qr/inconsistent page found/,
	'delete log pages: no inconsistent page on the standby');
dl_same($standby, 'standby after the delete log pages were freed');

# Deleted-rows pages at the end of the file (storage/deleted_rows_move.c):
# an UPDATE of a tenth of the last row group fills heap pages, the first
# VACUUM puts the group's DELETED_ROOT and bitmap pages after them, and
# once the heap pages are freed a VACUUM moves those pages (with the row
# group compaction wrote after them) into freed pages lower down and
# truncates.  The standby replays the moves (wal_consistency_checking); the
# primary crashes right after the moving VACUUM, and after recovery the
# table equals its heap twin, the bitmap still holds the updated rows, and
# new deletes in the group get bits on the moved pages.
sub bm_both
{
	my ($sql) = @_;
	(my $heap = $sql) =~ s/\bbm\b/bmh/g;
	$primary->safe_psql('postgres', $sql);
	$primary->safe_psql('postgres', $heap);
}
sub bm_same
{
	my ($node, $what) = @_;
	is($node->safe_psql('postgres', $summary . 'bm'),
		$primary->safe_psql('postgres', $summary . 'bmh'), "$what: rows equal the heap twin's");
	is($node->safe_psql('postgres', $indexed . 'bm WHERE id BETWEEN 90000 AND 100000'),
		$primary->safe_psql('postgres', $indexed . 'bmh WHERE id BETWEEN 90000 AND 100000'),
		"$what: index scan equals the heap twin's");
	is($node->safe_psql('postgres', q{SELECT colstore.verify('bm') >= 0}), 't',
		"$what: colstore.verify passes");
}
$primary->safe_psql('postgres', q{
	CREATE TABLE bm (id int PRIMARY KEY, v int, t text) USING colstore
		WITH (row_group_size = 20000);
	CREATE TABLE bmh (id int PRIMARY KEY, v int, t text);
});
bm_both(q{INSERT INTO bm SELECT i, i % 97, md5(i::text) FROM generate_series(1, 100000) i});
my $bm_loaded = pages($primary, 'bm');
bm_both(q{UPDATE bm SET v = v + 1000 WHERE id > 98000});
$primary->safe_psql('postgres', 'VACUUM (TRUNCATE false) bm');
$primary->safe_psql('postgres', q{SELECT colstore.compact('bm')});
for (1 .. 4)
{
	$primary->safe_psql('postgres', 'SELECT txid_current()');
	$primary->safe_psql('postgres', 'VACUUM (TRUNCATE false) bm');
}
my $bm_freed = pages($primary, 'bm');
$primary->psql('postgres', 'VACUUM (VERBOSE) bm', stderr => \my $bm_verbose);
like($bm_verbose, qr/moved [1-9][0-9]* row state pages/,
	'VACUUM moves the deleted-rows pages at the end of the file');
my $bm_moved = pages($primary, 'bm');
ok($bm_moved <= $bm_loaded + 10,
	"and truncates the end ($bm_loaded pages loaded, $bm_freed after the UPDATE, $bm_moved after the move)");
bm_same($primary, 'primary after moving deleted-rows pages');
$primary->safe_psql('postgres', 'INSERT INTO dl_flush VALUES (1)');
$primary->stop('immediate');
$primary->start;
bm_same($primary, 'primary after a crash after moving deleted-rows pages');
is($primary->safe_psql('postgres', q{SELECT sum(deleted_rows) FROM colstore.row_group_deletes('bm')}),
	'2000', 'the moved bitmap still holds the updated rows');
bm_both(q{DELETE FROM bm WHERE id > 90000 AND id % 7 = 0});
for (1 .. 2)
{
	$primary->safe_psql('postgres', 'SELECT txid_current()');
	$primary->safe_psql('postgres', 'VACUUM bm');
}
bm_same($primary, 'primary after deletes on the moved pages');
ok($primary->safe_psql('postgres', q{SELECT sum(deleted_rows) FROM colstore.row_group_deletes('bm')}) > 2000,
	'new bits are set on the moved bitmap');
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
unlike(slurp_file($standby->logfile), qr/inconsistent page found/,
	'moving deleted-rows pages: no inconsistent page on the standby');
bm_same($standby, 'standby after moving deleted-rows pages');

# kills during VACUUMs that move row state pages, timed as for m above:
# each round loads a fresh twin pair, prepares it as bm was, and kills the
# VACUUM that moves a random time into it; after crash recovery the table
# equals its twin, and a VACUUM moves and truncates what is left
sub bk_prepare
{
	my ($round) = @_;
	$primary->safe_psql('postgres', qq{
		DROP TABLE IF EXISTS bk, bkh;
		CREATE TABLE bk (id int PRIMARY KEY, v int, t text) USING colstore
			WITH (row_group_size = 20000);
		CREATE TABLE bkh (id int PRIMARY KEY, v int, t text);
		INSERT INTO bk SELECT i, i % 97, md5(i::text) FROM generate_series(1, 100000) i;
		INSERT INTO bkh SELECT * FROM bk;
		UPDATE bk SET v = v + $round WHERE id > 98000;
		UPDATE bkh SET v = v + $round WHERE id > 98000;
	});
	$primary->safe_psql('postgres', 'VACUUM (TRUNCATE false) bk');
	$primary->safe_psql('postgres', q{SELECT colstore.compact('bk')});
	for (1 .. 4)
	{
		$primary->safe_psql('postgres', 'SELECT txid_current()');
		$primary->safe_psql('postgres', 'VACUUM (TRUNCATE false) bk');
	}
	$primary->safe_psql('postgres', 'CHECKPOINT');
	return pages($primary, 'bk');
}
sub bk_same
{
	my ($what) = @_;
	is($primary->safe_psql('postgres', $summary . 'bk'),
		$primary->safe_psql('postgres', $summary . 'bkh'), "$what: rows equal the heap twin's");
	is($primary->safe_psql('postgres', $indexed . 'bk WHERE id BETWEEN 90000 AND 100000'),
		$primary->safe_psql('postgres', $indexed . 'bkh WHERE id BETWEEN 90000 AND 100000'),
		"$what: index scan equals the heap twin's");
	is($primary->safe_psql('postgres', q{SELECT colstore.verify('bk') >= 0}), 't',
		"$what: colstore.verify passes");
}
bk_prepare(1);
my @bk_clock = split /\n/, $primary->safe_psql('postgres',
	q{SELECT extract(epoch FROM clock_timestamp())}
	. q{; VACUUM bk; SELECT extract(epoch FROM clock_timestamp())});
my $bk_vacuum_ms = int(1000 * ($bk_clock[1] - $bk_clock[0])) + 1;
note("a VACUUM that moves row state pages takes $bk_vacuum_ms ms");
my ($bk_landed, $bk_round) = (0, 1);
while ($bk_landed < 3 && $bk_round < 12)
{
	$bk_round++;
	my $before = bk_prepare($bk_round);
	my $during = kill_during_vacuum('bk', $bk_vacuum_ms);
	$bk_landed++ if $during;
	note("row state round $bk_round: the kill landed " . ($during ? 'during the VACUUM' : 'outside it'));
	bk_same("primary after a kill near a VACUUM moving row state pages (round $bk_round)");
	$primary->safe_psql('postgres', 'SELECT txid_current()');
	$primary->safe_psql('postgres', 'VACUUM bk');
	bk_same("primary after the VACUUM after recovery (row state round $bk_round)");
	my $now = pages($primary, 'bk');
	ok($now <= $before - 20,
		"the VACUUM after recovery moves and truncates (row state round $bk_round: $before pages, then $now)");
}
is($bk_landed, 3, "three kills landed during a VACUUM that moves row state pages ($bk_round rounds)");
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
unlike(slurp_file($standby->logfile), qr/inconsistent page found/,
	'kills while moving row state pages: no inconsistent page on the standby');

# the standby promoted: it takes pages from the free space map replay left
# (its VACUUMs do not truncate: the end they would cut, now that the row
# state pages there move down, is what the new rows are to take)
my $old_rows = $primary->safe_psql('postgres', $summary . 'rh WHERE id <= 300000');
$primary->stop;
$standby->promote;
$standby->safe_psql('postgres', q{DELETE FROM r WHERE id > 305000});
free_groups($standby, 'r', '(TRUNCATE false)');
my $before = pages($standby, 'r');
$standby->safe_psql('postgres',
	q{INSERT INTO r SELECT i, i % 97, md5(i::text) FROM generate_series(400001, 405000) i});
my $after = pages($standby, 'r');
ok($after <= $before + 2, "the promoted standby reuses freed pages ($before pages, then $after)");
is($standby->safe_psql('postgres', $summary . 'r WHERE id <= 300000'), $old_rows,
	'promoted standby: the older rows are intact');
is($standby->safe_psql('postgres', q{SELECT count(*), sum(id) FROM r WHERE id > 300000}),
	$standby->safe_psql('postgres', q{SELECT count(*), sum(i) FROM
		(SELECT generate_series(300001, 305000) UNION ALL SELECT generate_series(400001, 405000)) s(i)}),
	'promoted standby: the newer rows are the ones written');
is($standby->safe_psql('postgres', q{SELECT colstore.verify('r') >= 0}), 't',
	'promoted standby: colstore.verify passes');

$standby->stop;

# A crash after a row group write's pages reached disk and before the record
# publishing it did: the stream's tail page then ends past the metapage's
# tail offset, with cp_next naming a page the write took and never used.
# That state is made here on a stopped server (so no timing decides it):
# the tail page filled with stray bytes up to its end and chained to a
# stray data page added at the end of the file.  The next write must cut
# the tail page back (the stray page stays leaked, referenced by nobody),
# not fail on it for good.
my $node = PostgreSQL::Test::Cluster->new('reuse_tail');
$node->init($node->pg_version >= 18 ? (extra => ['--no-data-checksums']) : ());
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'colstore'
autovacuum = off
colstore.auto_compaction = off
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION colstore;
	CREATE TABLE x (id int PRIMARY KEY, t text) USING colstore WITH (row_group_size = 10000);
	INSERT INTO x SELECT i, md5(i::text) FROM generate_series(1, 10500) i;
});
my $path = $node->data_dir . '/' . $node->safe_psql('postgres', q{SELECT pg_relation_filepath('x')});
$node->stop;
my $BLCKSZ = 8192;
my $DATA_END = $BLCKSZ - 8;
open(my $fh, '+<', $path) or die "could not open $path: $!";
binmode $fh;
my $meta;
read($fh, $meta, $BLCKSZ) == $BLCKSZ or die "short read";
my ($tail, $offset) = unpack('V V', substr($meta, 24 + 40, 8));
my $nblocks = (-s $path) / $BLCKSZ;
ok($offset > 24 && $offset < $DATA_END, "the stream's tail page $tail is partly filled (offset $offset)");
my $page;
seek($fh, $tail * $BLCKSZ, 0);
read($fh, $page, $BLCKSZ);
substr($page, 12, 4) = pack('v v', $DATA_END, $DATA_END);
substr($page, $offset, $DATA_END - $offset) = "\xAB" x ($DATA_END - $offset);
substr($page, $DATA_END + 4, 4) = pack('V', $nblocks);
seek($fh, $tail * $BLCKSZ, 0);
print $fh $page;
# the stray page: a full data page of stray bytes
my $stray = pack('x8 v v v v v v V', 0, 0, $DATA_END, $DATA_END, $DATA_END, $BLCKSZ | 4, 0)
  . ("\xCD" x ($DATA_END - 24)) . pack('v v V', 0xC003, 0, 0xFFFFFFFF);
seek($fh, $nblocks * $BLCKSZ, 0);
print $fh $stray;
close($fh);
$node->start;
my ($ret, $out, $err) = $node->psql('postgres',
	q{INSERT INTO x SELECT i, md5(i::text) FROM generate_series(10501, 40000) i});
is($ret, 0, 'a write after the unpublished one succeeds') or diag($err);
is($node->safe_psql('postgres', q{SELECT count(*), sum(id), md5(string_agg(t, ',' ORDER BY id)) FROM x}),
	$node->safe_psql('postgres',
		q{SELECT count(*), sum(i), md5(string_agg(md5(i::text), ',' ORDER BY i)) FROM generate_series(1, 40000) i}),
	'the table holds the rows written, none of the stray bytes');
is($node->safe_psql('postgres', q{SELECT colstore.verify('x')}), '40000', 'colstore.verify passes');
$node->stop;
done_testing();
