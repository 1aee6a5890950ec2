# colstore tables as the source of logical replication.  A publisher with
# colstore tables (a keyed table, a REPLICA IDENTITY FULL table without
# indexes, a history table and a partitioned table with colstore partitions)
# replicates to two subscriber databases, one whose tables are heap and one
# whose tables are colstore (this one with streaming = on, so large
# transactions arrive while they are in progress).  Rows loaded before the subscriptions arrive by
# the initial sync; then pgbench clients mix every kind of write (small and
# bulk INSERTs, UPDATEs, DELETEs, upserts, MERGE, updates that move rows
# between partitions, savepoints rolled back) while another client compacts
# and vacuums the tables; the publisher is killed in the middle of a run and
# restarted.  Afterwards every subscriber table equals its publisher table,
# row for row and column for column.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);

my $publisher = PostgreSQL::Test::Cluster->new('publisher');
$publisher->init(allows_streaming => 'logical');
$publisher->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'colstore'
max_prepared_transactions = 5
logical_decoding_work_mem = 64kB
});
$publisher->start;

my $subscriber = PostgreSQL::Test::Cluster->new('subscriber');
$subscriber->init;
$subscriber->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'colstore'
max_logical_replication_workers = 8
});
$subscriber->start;

my $tables = q{
	CREATE TABLE acct (id int PRIMARY KEY, bal int NOT NULL, filler text) USING %1$s;
	CREATE TABLE hist (id bigint PRIMARY KEY, aid int, delta int, note text) USING %1$s;
	CREATE TABLE full_t (a int, b text) USING %1$s;
	ALTER TABLE full_t REPLICA IDENTITY FULL;
	CREATE TABLE parts (id int, k int, v text) PARTITION BY RANGE (k);
	CREATE TABLE parts_lo PARTITION OF parts FOR VALUES FROM (0) TO (10) USING %1$s;
	CREATE TABLE parts_hi PARTITION OF parts FOR VALUES FROM (10) TO (20) USING %1$s;
	ALTER TABLE parts_lo REPLICA IDENTITY FULL;
	ALTER TABLE parts_hi REPLICA IDENTITY FULL;
};
$publisher->safe_psql('postgres', 'CREATE EXTENSION colstore');
$publisher->safe_psql('postgres', sprintf($tables, 'colstore'));
$publisher->safe_psql('postgres', q{
	CREATE SEQUENCE hist_id;
	ALTER TABLE hist ALTER COLUMN id SET DEFAULT nextval('hist_id');
	INSERT INTO acct SELECT i, 0, repeat('x', i % 50) FROM generate_series(1, 20000) i;
	INSERT INTO hist (aid, delta, note) SELECT i, i % 7, 'loaded' FROM generate_series(1, 10000) i;
	INSERT INTO full_t SELECT i, 'b' || i FROM generate_series(1, 1000) i;
	INSERT INTO parts SELECT i, i % 20, 'p' || i FROM generate_series(1, 4000) i;
	CREATE PUBLICATION pub FOR TABLE acct, hist, full_t, parts;
});

# two subscriber databases: heap tables and colstore tables
foreach my $am ('heap', 'colstore')
{
	my $db = "sub_$am";
	$subscriber->safe_psql('postgres', "CREATE DATABASE $db");
	$subscriber->safe_psql($db, 'CREATE EXTENSION colstore');
	$subscriber->safe_psql($db, sprintf($tables, $am));
	$subscriber->safe_psql($db,
		"CREATE SUBSCRIPTION sub_$am CONNECTION '" . $publisher->connstr . ' dbname=postgres'
		  . "' PUBLICATION pub"
		  . ($am eq 'colstore' ? ' WITH (streaming = on)' : ''));
}

my %contents = (
	acct => 'SELECT id, bal, filler FROM acct ORDER BY id',
	hist => 'SELECT id, aid, delta, note FROM hist ORDER BY id',
	full_t => 'SELECT a, b FROM full_t ORDER BY a, b',
	parts => 'SELECT tableoid::regclass, id, k, v FROM parts ORDER BY id, k, v',
);

# Wait until both subscriptions have synced and applied everything the
# publisher wrote.  An apply error shows as a time-out, with the
# subscriber's log (the workers retry after errors: the publisher's crash
# is one).
sub wait_applied
{
	my ($what) = @_;
	my $target = $publisher->lsn('write');
	foreach my $am ('heap', 'colstore')
	{
		my $ok = 0;
		my $deadline = time() + $PostgreSQL::Test::Utils::timeout_default;
		while (time() < $deadline)
		{
			my $state = $subscriber->safe_psql("sub_$am",
				"SELECT count(*) FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')");
			my $caught = $publisher->safe_psql('postgres', qq{
				SELECT '$target' <= replay_lsn AND state = 'streaming'
				FROM pg_stat_replication WHERE application_name = 'sub_$am'});
			if ($state eq '0' && $caught eq 't')
			{
				$ok = 1;
				last;
			}
			usleep(200_000);
		}
		ok($ok, "$what: sub_$am applied every change");
		diag(slurp_file($subscriber->logfile)) unless $ok;
	}
}

sub compare
{
	my ($what) = @_;
	wait_applied($what);
	foreach my $t (sort keys %contents)
	{
		my $expected = $publisher->safe_psql('postgres', $contents{$t});
		foreach my $am ('heap', 'colstore')
		{
			my $got = $subscriber->safe_psql("sub_$am", $contents{$t});
			ok($got eq $expected, "$what: $t on the $am subscriber equals the publisher's");
		}
	}
}

compare('initial sync');

# The mixed workload: each script is a kind of write; weights after @.
my %scripts = (
	'update.sql' => q{
\set aid random(1, 25000)
BEGIN;
UPDATE acct SET bal = bal + 1 WHERE id = :aid;
INSERT INTO hist (aid, delta, note) VALUES (:aid, 1, 'tpcb');
END;
},
	'upsert.sql' => q{
\set aid random(1, 25000)
INSERT INTO acct VALUES (:aid, 7, 'upserted') ON CONFLICT (id) DO UPDATE SET bal = acct.bal - 1, filler = 'upserted';
INSERT INTO acct VALUES (:aid, 9, 'ignored') ON CONFLICT DO NOTHING;
},
	'delete.sql' => q{
\set aid random(1, 25000)
DELETE FROM acct WHERE id = :aid;
DELETE FROM hist WHERE id = :aid;
},
	'bulk.sql' => q{
\set aid random(1, 25000)
INSERT INTO hist (aid, delta, note) SELECT :aid + g, g, 'bulk' FROM generate_series(1, 400) g;
UPDATE hist SET note = 'bulk updated' WHERE aid BETWEEN :aid AND :aid + 30;
},
	'merge.sql' => q{
\set aid random(1, 25000)
MERGE INTO acct a USING (SELECT :aid AS id) s ON a.id = s.id
	WHEN MATCHED AND a.bal > 5 THEN DELETE
	WHEN MATCHED THEN UPDATE SET bal = a.bal + 100
	WHEN NOT MATCHED THEN INSERT VALUES (s.id, 100, 'merged');
},
	'full.sql' => q{
\set a random(1, 1200)
UPDATE full_t SET b = b || '+' WHERE a = :a;
DELETE FROM full_t WHERE a = :a + 1;
INSERT INTO full_t VALUES (:a + 2, 'again');
},
	'parts.sql' => q{
\set id random(1, 4000)
\set k random(0, 19)
UPDATE parts SET k = :k WHERE id = :id;
},
	'savepoint.sql' => q{
\set aid random(1, 25000)
BEGIN;
UPDATE acct SET bal = bal + 1000 WHERE id = :aid;
SAVEPOINT s;
INSERT INTO hist (aid, delta, note) SELECT :aid, g, 'rolled back' FROM generate_series(1, 300) g;
DELETE FROM acct WHERE id = :aid + 1;
ROLLBACK TO s;
INSERT INTO full_t VALUES (:aid, 'after savepoint');
COMMIT;
},
	'maintenance.sql' => q{
SELECT colstore.compact('acct');
SELECT colstore.compact('hist');
VACUUM acct, hist, full_t;
SELECT colstore.compact('parts_lo');
},
);
my $dir = PostgreSQL::Test::Utils::tempdir;
my @files;
foreach my $name (sort keys %scripts)
{
	PostgreSQL::Test::Utils::append_to_file("$dir/$name", $scripts{$name});
	next if $name eq 'maintenance.sql';
	my $weight = $name eq 'update.sql' ? 4 : 1;
	push @files, '-f', "$dir/$name\@$weight";
}

sub pgbench_cmd
{
	my ($clients, $transactions, @f) = @_;
	return ['pgbench', '-n', '-c', $clients, '-t', $transactions, @f,
		'-h', $publisher->host, '-p', $publisher->port, 'postgres'];
}

# Round 1: the workload and, beside it, compaction and VACUUM.
my $maint = IPC::Run::start(pgbench_cmd(1, 15, '-f', "$dir/maintenance.sql"),
	'>', \my $maint_out, '2>', \my $maint_err);
my ($out, $err);
IPC::Run::run(pgbench_cmd(2, 300, @files), '>', \$out, '2>', \$err);
like($out, qr/number of transactions actually processed: 600\/600/,
	'round 1: every pgbench transaction ran') or diag($err);
$maint->finish;
like($maint_out, qr/actually processed: 15\/15/, 'round 1: compaction and VACUUM ran beside it')
	or diag($maint_err);
compare('after round 1');

# Round 2: the publisher is killed while the workload runs, then restarted
# (the clients fail; what they committed must arrive, nothing else).
my $round2 = IPC::Run::start(pgbench_cmd(2, 100000, @files),
	'>', \my $r2_out, '2>', \my $r2_err);
my $deadline = time() + $PostgreSQL::Test::Utils::timeout_default;
while (time() < $deadline &&
	$publisher->safe_psql('postgres', "SELECT count(*) FROM hist WHERE note = 'tpcb'") < 1200)
{
	usleep(200_000);
}
$publisher->stop('immediate');
$round2->finish;
$publisher->start;
compare('after a publisher crash in the middle of the workload');

# Round 3: more of the same after the restart, with compaction beside it.
$maint = IPC::Run::start(pgbench_cmd(1, 10, '-f', "$dir/maintenance.sql"),
	'>', \$maint_out, '2>', \$maint_err);
IPC::Run::run(pgbench_cmd(2, 200, @files), '>', \$out, '2>', \$err);
like($out, qr/actually processed: 400\/400/, 'round 3: every pgbench transaction ran')
	or diag($err);
$maint->finish;
# a VACUUM FULL and a large transaction streamed past logical_decoding_work_mem
$publisher->safe_psql('postgres', q{
	VACUUM FULL hist;
	INSERT INTO hist (aid, delta, note) SELECT g, 0, 'large' FROM generate_series(1, 30000) g;
});
compare('after round 3, a VACUUM FULL and a large transaction');

$subscriber->stop;

# A streaming standby of the publisher replays colstore's records (the
# compaction deletes among them); once promoted, it decodes colstore tables
# as the publisher did: changes to rows compaction moved, a bulk load.
$publisher->backup('backup');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($publisher, 'backup', has_streaming => 1);
$standby->start;
$publisher->safe_psql('postgres', q{
	INSERT INTO acct SELECT i, 0, 'for the standby' FROM generate_series(200001, 200500) i;
	UPDATE acct SET bal = bal + 1 WHERE id BETWEEN 200001 AND 200100;
	SELECT colstore.compact('acct');
	VACUUM acct;
});
$publisher->wait_for_catchup($standby, 'replay', $publisher->lsn('insert'));
my $acct_before = $publisher->safe_psql('postgres', $contents{acct});
$publisher->stop;
$standby->promote;
is($standby->safe_psql('postgres', $contents{acct}), $acct_before,
	'the promoted standby has the publisher\'s rows');
$standby->safe_psql('postgres',
	"SELECT 'init' FROM pg_create_logical_replication_slot('after_promotion', 'test_decoding')");
$standby->safe_psql('postgres', q{
	UPDATE acct SET filler = 'after promotion' WHERE id IN (200010, 200020);
	DELETE FROM acct WHERE id = 200030;
	INSERT INTO acct SELECT i, 0, 'loaded after promotion' FROM generate_series(300001, 300300) i;
});
my @decoded = split /\n/, $standby->safe_psql('postgres', q{
	SELECT data FROM pg_logical_slot_get_changes('after_promotion', NULL, NULL, 'skip-empty-xacts', '1')
	WHERE data NOT LIKE 'BEGIN%' AND data NOT LIKE 'COMMIT%'});
is(scalar(@decoded), 303, 'the promoted standby decodes one change per changed row');
is(join("\n", @decoded[0 .. 2], $decoded[-1]),
	join("\n",
		"table public.acct: UPDATE: id[integer]:200010 bal[integer]:1 filler[text]:'after promotion'",
		"table public.acct: UPDATE: id[integer]:200020 bal[integer]:1 filler[text]:'after promotion'",
		"table public.acct: DELETE: id[integer]:200030",
		"table public.acct: INSERT: id[integer]:300300 bal[integer]:0 filler[text]:'loaded after promotion'"),
	'... for rows compaction moved and for a bulk load');
$standby->stop;

# Without colstore in shared_preload_libraries there is no resource manager
# to log rows for decoding: a write that needs it fails instead of being
# invisible to decoding.
my $plain = PostgreSQL::Test::Cluster->new('not_preloaded');
$plain->init(allows_streaming => 'logical');
$plain->start;
$plain->safe_psql('postgres', q{
	CREATE EXTENSION colstore;
	CREATE TABLE np (id int) USING colstore;
});
my ($ret, $stdout, $stderr) = $plain->psql('postgres',
	'INSERT INTO np SELECT g FROM generate_series(1, 1000) g');
isnt($ret, 0, 'not preloaded: a bulk insert into a logically logged table fails');
like($stderr, qr/cannot write to table "np" under wal_level = logical without colstore in shared_preload_libraries/,
	'... saying why');
$plain->stop;
done_testing();
