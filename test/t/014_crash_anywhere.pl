# Crashes at any point.  A colstore table t and its heap twin h hold the same
# rows; pgbench clients change both alike (007_dml_crash's twin DML: the h
# side of a change is done in the same statement as the t side, or in the same
# transaction, so both always hold the same committed rows): single-row
# UPDATE, DELETE and INSERT, small INSERT ... SELECTs written as row groups of
# their own (something for compaction to merge), and range DELETEs and UPDATEs
# (row groups emptied or mostly deleted, for VACUUM to retire and free and for
# compaction to rewrite).  A maintenance client runs, one per transaction, on
# t only: colstore.compact() (moving heap tuples, rewriting mostly deleted
# groups, merging small ones), VACUUM (retiring and freeing row groups; it also
# starts compaction workers), VACUUM (FREEZE), VACUUM FULL, CLUSTER, an ALTER
# TABLE rewrite (n's type flips between int and bigint) and CHECKPOINT.  The
# automatic compaction worker and autovacuum run too.
#
# The loop lets the clients run for a random 0.2 to 2 seconds, then picks a
# target by weight: one maintenance operation, a DML statement, a compaction
# worker, an autovacuum worker, or the postmaster.  For a process target, a
# server-side function polls pg_stat_activity every millisecond (at most 5 s)
# until a process does that, lets it run a random 0 to 50 ms more, and the
# test sends it SIGKILL: the postmaster resets and runs crash recovery (if no
# process did it in time, any process at work is killed instead, and the
# report says so).  The postmaster is killed together with all its children
# (a whole-server crash) and started again.  wal_consistency_checking =
# 'all,colstore' makes crash recovery compare each page a heap, btree,
# generic or colstore record changes with an image of it logged with the
# record ('all' alone misses colstore's: it is resolved before
# shared_preload_libraries register the resource manager).  After
# each crash: t has the same count, sums and hash sum as h, nothing in one
# EXCEPT ALL the other, the same rows through its primary key as through a
# sequential scan, every row of h found in t by an index lookup, and
# colstore.verify() passes; a crash the server does not come back from stops
# the test at once.  The assertions compare t with h only, not with what ran.
# The pgbench clients must see no error but those of the crashes.
#
# COLSTORE_KILLS (default 16) sets the number of kills, COLSTORE_SEED the seed
# (default 14014; printed).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);

my $kills = $ENV{COLSTORE_KILLS} // 16;
my $seed = $ENV{COLSTORE_SEED} // 14014;
srand($seed);
note("seed $seed (COLSTORE_SEED), $kills kills (COLSTORE_KILLS)");

my $node = PostgreSQL::Test::Cluster->new('crash_anywhere');
$node->init;
# crash recovery compares replayed pages with images logged for that; preloaded
# so that colstore's resource manager and the compaction worker are there;
# workers move UPDATE's versions at once; autovacuum often; no statement log
# (a long run would fill the disk), errors are still logged with theirs
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'colstore'
wal_consistency_checking = 'all,colstore'
restart_after_crash = on
max_worker_processes = 8
colstore.compaction_update_age = 0
autovacuum_naptime = 1
autovacuum_vacuum_threshold = 200
autovacuum_vacuum_scale_factor = 0.05
autovacuum_vacuum_insert_threshold = 500
autovacuum_vacuum_insert_scale_factor = 0.05
deadlock_timeout = 100ms
log_statement = none
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION colstore;
	CREATE TABLE t (id int PRIMARY KEY, n int NOT NULL, v text) USING colstore
		WITH (row_group_size = 1000, chunk_size = 250);
	CREATE TABLE h (id int PRIMARY KEY, n int NOT NULL, v text) USING heap;
	INSERT INTO t SELECT i, 0, md5(i::text) FROM generate_series(1, 20000) i;
	INSERT INTO h SELECT i, 0, md5(i::text) FROM generate_series(1, 20000) i;
	CREATE SEQUENCE ids START 20001;
});

my $dir = PostgreSQL::Test::Utils::tempdir();
my %scripts;
sub script
{
	my ($name, $text) = @_;
	my $file = "$dir/$name.sql";
	PostgreSQL::Test::Utils::append_to_file($file, $text);
	$scripts{$name} = $file;
	return;
}

# twin DML, as in 007: lock the two target rows of t in key order, update one
# row and delete one row of each table, insert one new row into each (a heap
# tuple of t).  Values alternate between short and longer than 3 kB.
script('dml', q{
SELECT last_value AS maxid FROM ids \gset
\set u random(1, :maxid)
\set d random(1, :maxid)
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
});
# a small committed INSERT ... SELECT written as a row group of its own
script('small_group', q{
\set k random(1, 60)
BEGIN;
SET LOCAL colstore.delta_insert_rows = 0;
WITH x AS (INSERT INTO t SELECT nextval('ids'), :client_id, md5(random()::text)
		FROM generate_series(1, :k) RETURNING *)
	INSERT INTO h SELECT * FROM x;
END;
});
# a range of ids deleted (row groups emptied or mostly deleted)
script('range_delete', q{
SELECT last_value AS maxid FROM ids \gset
\set a random(1, :maxid)
\set len random(20, 800)
WITH x AS (DELETE FROM t WHERE id BETWEEN :a AND :a + :len RETURNING id)
	DELETE FROM h WHERE id IN (SELECT id FROM x);
});
# a range of ids updated (rows promoted, new versions on heap pages)
script('range_update', q{
SELECT last_value AS maxid FROM ids \gset
\set a random(1, :maxid)
\set len random(10, 300)
WITH x AS (UPDATE t SET n = n + 7 WHERE id BETWEEN :a AND :a + :len RETURNING id)
	UPDATE h SET n = n + 7 WHERE id IN (SELECT id FROM x);
});

# maintenance, one operation per transaction, on t
my %maint = (
	compact => "SELECT colstore.compact('t');\n",
	vacuum => "VACUUM t;\n",
	vacuum_freeze => "VACUUM (FREEZE) t;\n",
	vacuum_full => "VACUUM FULL t;\n",
	cluster => "CLUSTER t USING t_pkey;\n",
	alter_type => q{DO $$
BEGIN
	IF (SELECT atttypid FROM pg_attribute WHERE attrelid = 't'::regclass AND attname = 'n') = 'int4'::regtype THEN
		ALTER TABLE t ALTER COLUMN n TYPE bigint;
	ELSE
		ALTER TABLE t ALTER COLUMN n TYPE int;
	END IF;
END $$;
},
	checkpoint => "CHECKPOINT;\n",
);
# (each after a pause of up to 300 ms, so that the DML changes the table
# between two maintenance operations)
script("maint_$_", "\\set s random(0, 300)\n\\sleep :s ms\n$maint{$_}") foreach keys %maint;
my %maint_weight = (compact => 6, vacuum => 6, vacuum_freeze => 1, vacuum_full => 1,
	cluster => 1, alter_type => 2, checkpoint => 1);

# which operation a backend's query is
sub operation
{
	my ($query) = @_;
	return 'compact' if $query =~ /colstore\.compact/;
	return 'vacuum_full' if $query =~ /VACUUM FULL/;
	return 'vacuum_freeze' if $query =~ /VACUUM \(FREEZE\)/;
	return 'vacuum' if $query =~ /VACUUM/;
	return 'cluster' if $query =~ /CLUSTER/;
	return 'alter_type' if $query =~ /ALTER TABLE|atttypid/;
	return 'checkpoint' if $query =~ /CHECKPOINT/;
	return 'small_group' if $query =~ /generate_series/;
	return 'range_delete' if $query =~ /BETWEEN .* DELETE|DELETE .* BETWEEN/s;
	return 'range_update' if $query =~ /UPDATE .* BETWEEN/s;
	return 'dml';
}

# start the clients: two doing twin DML, one doing maintenance
sub start_clients
{
	my @runs;
	my @common = ('pgbench', '--no-vacuum', '--time=3600', '--max-tries=1000000',
		'--host', $node->host, '--port', $node->port);
	foreach my $client ([ 'dml', '--client=2', '--jobs=2', '--file', "$scripts{dml}\@20",
			'--file', "$scripts{small_group}\@4", '--file', "$scripts{range_delete}\@1",
			'--file', "$scripts{range_update}\@1" ],
		[ 'maint', '--client=1',
			map { ('--file', "$scripts{\"maint_$_\"}\@$maint_weight{$_}") } sort keys %maint ])
	{
		my ($app, @args) = @$client;
		my ($out, $err) = ("$dir/$app.out", "$dir/$app.err");
		local $ENV{PGAPPNAME} = $app;
		my $h = IPC::Run::start([ @common, @args, '--random-seed=' . int(rand(2**31)), 'postgres' ],
			'>', $out, '2>', $err);
		push @runs, { app => $app, h => $h, out => $out, err => $err };
	}
	return \@runs;
}

# errors the clients saw other than those of the crash
my @unexpected;
sub stop_clients
{
	my ($runs, $crashed) = @_;
	foreach my $r (@$runs)
	{
		# pgbench ends by itself once its connections are gone (it is
		# stopped if it has not after 10 s); without a crash, at once
		for (my $n = 0; $crashed && $r->{h}->pumpable && $n < 100; $n++)
		{
			eval { $r->{h}->pump_nb; };
			usleep(100_000);
		}
		eval { $r->{h}->kill_kill; };
		my $out = slurp_file($r->{out});
		my $err = slurp_file($r->{err});
		note("$r->{app}: $1") if $out =~ /(number of transactions actually processed: \d+)/;
		foreach my $line (split /\n/, $err)
		{
			next unless $line =~ /ERROR|FATAL|PANIC|aborted/;
			next if $line =~ /terminating connection because of crash|server closed the connection|the database system is (in recovery mode|shutting down|starting up|not yet accepting)|perhaps the backend died|connection to server .* failed|Connection refused|server conn crashed|No such file or directory|terminating connection due to administrator command|could not receive data from server|SSL SYSCALL|no connection to the server|lost synchronization with server|client \d+ aborted in command \d+ \(SQL\)|Run was aborted|unexpected postmaster exit/;
			push @unexpected, "$r->{app}: $line";
		}
	}
	return;
}

my $index_scan = 'SET enable_seqscan = off; SET enable_bitmapscan = off;';
my $seq_scan = 'SET enable_indexscan = off; SET enable_bitmapscan = off;';
my %queries = (
	'count and hash sum' => 'SELECT count(*), sum(hashtext(%1$s::text)) FROM %1$s',
	'aggregates' => 'SELECT count(*), sum(id), sum(n), min(id), max(id), max(length(v)) FROM %1$s',
);

sub check_same
{
	my ($what) = @_;
	my $ok = 1;
	foreach my $name (sort keys %queries)
	{
		$ok &&= is($node->safe_psql('postgres', sprintf($queries{$name}, 't')),
			$node->safe_psql('postgres', sprintf($queries{$name}, 'h')), "$what: $name");
	}
	$ok &&= is($node->safe_psql('postgres', q{
		SELECT (SELECT count(*) FROM (SELECT * FROM t EXCEPT ALL SELECT * FROM h) x) || '/' ||
			(SELECT count(*) FROM (SELECT * FROM h EXCEPT ALL SELECT * FROM t) y)}),
		'0/0', "$what: nothing in t EXCEPT ALL h, nothing in h EXCEPT ALL t");
	$ok &&= is($node->safe_psql('postgres', qq{$index_scan
		SELECT count(*), sum(hashtext(t::text)) FROM t WHERE id > -1}),
		$node->safe_psql('postgres', qq{$seq_scan
		SELECT count(*), sum(hashtext(t::text)) FROM t WHERE id > -1}),
		"$what: the same rows through the primary key as by a sequential scan");
	$ok &&= is($node->safe_psql('postgres', qq{$index_scan
		SET enable_hashjoin = off; SET enable_mergejoin = off;
		SELECT count(*) = (SELECT count(*) FROM h) FROM h JOIN t ON t.id = h.id AND t.n = h.n AND t.v = h.v}),
		't', "$what: index lookups in t find every row of h");
	my ($ret, $stdout, $stderr) = $node->psql('postgres', q{SELECT colstore.verify('t')});
	$ok &&= is($ret . $stderr, '0', "$what: colstore.verify passes");
	return $ok;
}

# server processes that do the work, with their operation
sub candidates
{
	my $rows = $node->safe_psql('postgres', q{
		SELECT pid, backend_type, application_name, state, replace(replace(query, E'\n', ' '), '|', ' ')
		FROM pg_stat_activity
		WHERE pid <> pg_backend_pid()
		  AND (application_name IN ('dml', 'maint')
		       OR backend_type IN ('autovacuum worker', 'colstore compaction'))});
	my @c;
	foreach my $row (split /\n/, $rows)
	{
		my ($pid, $type, $app, $state, $query) = split /\|/, $row, 5;
		my $what;
		if ($type eq 'colstore compaction') { $what = 'compaction worker'; }
		elsif ($type eq 'autovacuum worker') { $what = 'autovacuum'; }
		elsif ($state ne 'active') { $what = "$app (idle)"; }
		else { $what = operation($query); }
		push @c, { pid => $pid, app => $app, state => $state, what => $what };
	}
	return @c;
}

# pids of a process's children
sub children
{
	my ($ppid) = @_;
	my @pids;
	opendir(my $d, '/proc') or die "cannot read /proc: $!";
	foreach my $pid (grep { /^\d+$/ } readdir($d))
	{
		open(my $f, '<', "/proc/$pid/stat") or next;
		my $stat = <$f>;
		close $f;
		next unless defined $stat && $stat =~ /\) \S+ (\d+) /;
		push @pids, $pid if $1 == $ppid;
	}
	closedir $d;
	return @pids;
}

# what to kill: a condition on pg_stat_activity (or the postmaster), with the
# weights they are picked by
my %targets = (
	'maint compact' => q{application_name = ''maint'' AND query ~ ''colstore.compact''},
	'maint vacuum' => q{application_name = ''maint'' AND query ~ ''^VACUUM t''},
	'maint vacuum_freeze' => q{application_name = ''maint'' AND query ~ ''VACUUM \(FREEZE\)''},
	'maint vacuum_full' => q{application_name = ''maint'' AND query ~ ''VACUUM FULL''},
	'maint cluster' => q{application_name = ''maint'' AND query ~ ''CLUSTER''},
	'maint alter_type' => q{application_name = ''maint'' AND query ~ ''atttypid''},
	'maint checkpoint' => q{application_name = ''maint'' AND query ~ ''CHECKPOINT''},
	'dml' => q{application_name = ''dml''},
	'compaction worker' => q{backend_type = ''colstore compaction''},
	'autovacuum' => q{backend_type = ''autovacuum worker''},
	'postmaster' => undef);
my %target_weight = ('maint compact' => 4, 'maint vacuum' => 4, 'maint vacuum_freeze' => 2,
	'maint vacuum_full' => 2, 'maint cluster' => 2, 'maint alter_type' => 3,
	'maint checkpoint' => 1, dml => 4, 'compaction worker' => 2, autovacuum => 1,
	postmaster => 2);
sub pick_target
{
	my $total = 0;
	$total += $_ foreach values %target_weight;
	my $r = rand($total);
	foreach my $t (sort keys %target_weight)
	{
		return $t if ($r -= $target_weight{$t}) < 0;
	}
	return 'postmaster';
}

# the pid and query of a process that matches cond, once one has run for a
# random 0 to delay_ms milliseconds longer (the same statement still running),
# polled every millisecond for at most timeout_ms; NULL if none did
$node->safe_psql('postgres', q{
CREATE FUNCTION crash_target(cond text, timeout_ms int, delay_ms int) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	p int;
	q text;
	qs timestamptz;
	wait float8;
	deadline timestamptz := clock_timestamp() + timeout_ms * interval '1 ms';
BEGIN
	WHILE clock_timestamp() < deadline LOOP
		PERFORM pg_stat_clear_snapshot();
		EXECUTE format('SELECT pid, query, query_start FROM pg_stat_activity
			WHERE state = ''active'' AND pid <> pg_backend_pid() AND %s
			ORDER BY random() LIMIT 1', cond) INTO p, q, qs;
		IF p IS NOT NULL THEN
			wait := random() * delay_ms / 1000.0;
			IF wait > 0.001 THEN
				PERFORM pg_sleep(wait);
				PERFORM pg_stat_clear_snapshot();
				PERFORM FROM pg_stat_activity
					WHERE pid = p AND state = 'active' AND query_start = qs;
				IF NOT FOUND THEN
					CONTINUE;
				END IF;
			END IF;
			RETURN p || '|' || replace(q, E'\n', ' ');
		END IF;
		PERFORM pg_sleep(0.001);
	END LOOP;
	RETURN NULL;
END $$;
});

# wait until the postmaster has reset and recovery is done: the log says the
# server is ready after the reset; fails at once if the postmaster exited
# (recovery failed).  Returns false if no child was reported killed within
# 30 s: the victim had just exited on its own (a signal to a child the
# postmaster has not reaped yet succeeds), so there was no crash to wait for.
sub wait_for_restart
{
	my ($offset) = @_;
	for (my $n = 0; $n < 3000; $n++)
	{
		my $log = slurp_file($node->logfile, $offset);
		return 1 if $log =~ /all server processes terminated; reinitializing.*database system is ready to accept connections/s;
		BAIL_OUT("the server did not come back after the crash: "
			  . join("\n", grep { /FATAL|PANIC/ } split /\n/, $log))
		  if !kill(0, $node->{_pid});
		return 0 if $n >= 300 && $log !~ /terminated by signal/;
		usleep(100_000);
	}
	BAIL_OUT('the server did not come back within 300 s');
}

check_same('before the run');
like($node->safe_psql('postgres', qq{$index_scan EXPLAIN (COSTS OFF) SELECT * FROM t WHERE id > -1}),
	qr/Index Scan using t_pkey on t/, 'the index scan query uses the primary key');
unlike($node->safe_psql('postgres', qq{$seq_scan EXPLAIN (COSTS OFF) SELECT * FROM t WHERE id > -1}),
	qr/Index/, 'the sequential scan query uses no index');
like($node->safe_psql('postgres', qq{$index_scan SET enable_hashjoin = off; SET enable_mergejoin = off;
	EXPLAIN (COSTS OFF) SELECT * FROM h JOIN t ON t.id = h.id}),
	qr/Index Scan using t_pkey on t/, 'the join looks rows of h up in t through the primary key');

my %killed;
my $survived = 0;
for (my $i = 1; $i <= $kills; $i++)
{
	my $runs = start_clients();
	usleep(200_000 + int(rand(1_800_000)));

	my $target = pick_target();
	my $what;
	my $offset = -s $node->logfile;
	if ($target eq 'postmaster')
	{
		# the whole server: the postmaster and every child at once
		my $postmaster = $node->{_pid};
		my @children = children($postmaster);
		$node->kill9;
		kill 'KILL', @children;
		foreach my $pid (@children)
		{
			usleep(10_000) while kill(0, $pid);
		}
		$what = 'postmaster';
		stop_clients($runs, 1);
		$node->start;
	}
	else
	{
		# wait (at most 5 s) for a process doing what the target names,
		# then for a random moment of up to 50 ms while it still does
		my ($pid, $query) = split /\|/, $node->safe_psql('postgres',
			"SELECT crash_target('$targets{$target}', 5000, 50)"), 2;
		if ($pid)
		{
			$what = $target;
			$what = operation($query) if $target eq 'dml';
		}
		else
		{
			# none did: any process at work
			my @c = candidates();
			my @busy = grep { $_->{what} !~ /idle/ } @c;
			@busy = @c unless @busy;
			if (@busy)
			{
				my $victim = $busy[ int(rand(@busy)) ];
				$pid = $victim->{pid};
				$what = ($victim->{app} eq 'maint' && $victim->{what} !~ /idle/ ? 'maint ' : '') .
					$victim->{what} .
					" (instead of $target)";
			}
		}
		if (!$pid || !kill('KILL', $pid) || !wait_for_restart($offset))
		{
			# nothing to kill (or it had just exited): check anyway
			stop_clients($runs, 0);
			$i--;
			last unless check_same("round without a kill");
			next;
		}
		stop_clients($runs, 1);
	}
	$killed{$what}++;
	note("kill $i: $what");
	if (!check_same("after kill $i ($what)"))
	{
		diag("t differs from h after kill $i ($what), seed $seed");
		last;
	}
	$survived++;
}

note("kills survived: $survived");
note("killed: " . join(', ', map { "$_ $killed{$_}" } sort keys %killed));
note('row groups by state: ' . $node->safe_psql('postgres',
	q{SELECT string_agg(state || ' ' || n, ', ') FROM (SELECT state, count(*) n FROM colstore.row_groups('t') GROUP BY 1 ORDER BY 1) s}));
is(scalar(@unexpected), 0, 'the clients saw no error other than the crashes')
	or diag(join("\n", @unexpected));
is($survived, $kills, "$kills kills survived");

$node->stop;
done_testing();
