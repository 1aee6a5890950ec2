# A colstore table can be the target of logical replication: the initial
# table sync (COPY) and the apply worker's INSERTs, UPDATEs (also of the
# primary key), DELETEs and TRUNCATEs leave the subscriber's colstore tables
# with exactly the publisher's (heap) rows (010_logical_source.pl has
# colstore tables as the source).  Table k has a primary key and a
# secondary index (the apply worker finds rows through the key's index);
# table f has no index and REPLICA IDENTITY FULL (the apply worker finds rows
# with a sequential scan).  Replicated rows do not become a row group each
# on the subscriber.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $publisher = PostgreSQL::Test::Cluster->new('publisher');
$publisher->init(allows_streaming => 'logical');
$publisher->append_conf('postgresql.conf', "shared_preload_libraries = 'colstore'");
$publisher->start;

my $subscriber = PostgreSQL::Test::Cluster->new('subscriber');
$subscriber->init;
$subscriber->append_conf('postgresql.conf', "shared_preload_libraries = 'colstore'");
$subscriber->start;

# the same tables on both sides: heap on the publisher, colstore on the subscriber
my $tables = q{
	CREATE TABLE k (id int PRIMARY KEY, grp int, v text, n numeric) USING %s;
	CREATE INDEX k_grp ON k (grp);
	CREATE TABLE f (a int, b text, c numeric) USING %s;
	ALTER TABLE f REPLICA IDENTITY FULL;
};
$publisher->safe_psql('postgres', sprintf($tables, 'heap', 'heap'));
$subscriber->safe_psql('postgres', 'CREATE EXTENSION colstore');
$subscriber->safe_psql('postgres', sprintf($tables, 'colstore', 'colstore'));
is($subscriber->safe_psql('postgres', q{
	SELECT string_agg(c.relname || ':' || am.amname || ':' || c.relreplident::text, ','
		ORDER BY c.relname)
	FROM pg_class c JOIN pg_am am ON am.oid = c.relam WHERE c.relname IN ('k', 'f')}),
	'f:colstore:f,k:colstore:d',
	'the subscriber tables are colstore tables, f with REPLICA IDENTITY FULL');

# rows present before the subscriptions exist: copied by the initial sync.
# f has duplicate rows (i % 1000 repeats) and NULLs.
$publisher->safe_psql('postgres', q{
	INSERT INTO k SELECT i, i % 10, 'v' || i, i / 7.0 FROM generate_series(1, 5000) i;
	INSERT INTO f SELECT i % 1000, CASE WHEN i % 11 = 0 THEN NULL ELSE 'b' || (i % 1000) END,
		(i % 1000) / 3.0 FROM generate_series(1, 3000) i;
	CREATE PUBLICATION pub_k FOR TABLE k;
	CREATE PUBLICATION pub_f FOR TABLE f;
});

# One subscription per table, so that an apply error on one table does not
# hold up the other.  disable_on_error turns an apply error into a disabled
# subscription, which the test notices at once (instead of waiting for the
# catch-up to time out while the worker retries).
foreach my $t ('k', 'f')
{
	$subscriber->safe_psql('postgres',
		"CREATE SUBSCRIPTION sub_$t CONNECTION '" . $publisher->connstr . " dbname=postgres'"
		  . " PUBLICATION pub_$t WITH (disable_on_error = true)");
}

my %contents = (
	k => 'SELECT id, grp, v, n FROM k ORDER BY id, grp, v, n',
	f => 'SELECT a, b, c FROM f ORDER BY a, b, c',
);
my %broken;		# table => the apply error that stopped its subscription
my $log_offset = 0;

# the errors about table $t in the subscriber's log from byte $offset, each
# with its CONTEXT line (which names the replicated change)
sub apply_errors
{
	my ($t, $offset) = @_;
	my @out;
	my $error;
	foreach my $l (split /\n/, slurp_file($subscriber->logfile, $offset))
	{
		if ($l =~ /\bERROR:/)
		{
			$error = $l;
			push @out, $l if $l =~ /"$t"/;
		}
		elsif ($l =~ /\bCONTEXT:.*"public\.$t"/ && defined $error)
		{
			push @out, $error unless @out && $out[-1] eq $error;
			push @out, $l;
		}
	}
	splice(@out, 4) if @out > 4;
	return join("\n", @out);
}

# Wait until sub_$t has finished its initial sync and applied everything the
# publisher wrote ($publisher->wait_for_catchup('sub_$t') plus a check of the
# sync state), or has disabled itself after an apply error: a failure then.
sub wait_applied
{
	my ($t, $what) = @_;
	my $target = $publisher->lsn('write');
	my $deadline = time() + $PostgreSQL::Test::Utils::timeout_default;
	while (time() < $deadline)
	{
		if ($subscriber->safe_psql('postgres',
				"SELECT NOT subenabled FROM pg_subscription WHERE subname = 'sub_$t'") eq 't')
		{
			$broken{$t} = apply_errors($t, $log_offset);
			fail("$what: the subscription of $t applied every change");
			diag("its worker stopped with:\n$broken{$t}");
			return;
		}
		my $synced = $subscriber->safe_psql('postgres', qq{
			SELECT count(*) = 0 FROM pg_subscription_rel r
			JOIN pg_subscription s ON s.oid = r.srsubid
			WHERE s.subname = 'sub_$t' AND r.srsubstate NOT IN ('r', 's')});
		my $caught = $publisher->safe_psql('postgres', qq{
			SELECT '$target' <= replay_lsn AND state = 'streaming'
			FROM pg_stat_replication WHERE application_name = 'sub_$t'});
		if ($synced eq 't' && $caught eq 't')
		{
			pass("$what: the subscription of $t applied every change");
			return;
		}
		usleep(100_000);
	}
	$broken{$t} = 'catch-up timed out; ' . apply_errors($t, $log_offset);
	fail("$what: the subscription of $t applied every change");
	diag($broken{$t});
}

# lines only in one of two outputs, for a short diagnosis of a difference
sub difference
{
	my ($got, $expected) = @_;
	my (%g, %e);
	$g{$_}++ foreach split /\n/, $got;
	$e{$_}++ foreach split /\n/, $expected;
	my @out;
	foreach my $l (sort keys %e)
	{
		my $d = $e{$l} - ($g{$l} // 0);
		push @out, "missing on the subscriber ($d): $l" if $d > 0;
	}
	foreach my $l (sort keys %g)
	{
		my $d = $g{$l} - ($e{$l} // 0);
		push @out, "extra on the subscriber ($d): $l" if $d > 0;
	}
	splice(@out, 30, scalar(@out) - 30, '...') if @out > 30;
	return join("\n", @out);
}

sub compare
{
	my ($what) = @_;
	foreach my $t (sort keys %contents)
	{
	  SKIP:
		{
			skip("the subscription of $t stopped in an earlier phase", 2) if $broken{$t};
			wait_applied($t, $what);
			my $expected = $publisher->safe_psql('postgres', $contents{$t});
			my $got = $subscriber->safe_psql('postgres', $contents{$t});
			is($got, $expected, "$what: contents of $t")
			  or diag(difference($got, $expected));
		}
	}
	$log_offset = -s $subscriber->logfile;

	# on the subscriber, index scans of k return what a sequential scan does
	my $seq = 'SET enable_indexscan = off; SET enable_bitmapscan = off; ';
	my $idx = 'SET enable_seqscan = off; SET enable_bitmapscan = off; ';
	foreach my $q (
		'SELECT id, grp, v, n FROM k WHERE grp = 3 ORDER BY id',
		'SELECT id, grp, v, n FROM k WHERE id BETWEEN 2000 AND 2100 OR id > 100000 ORDER BY id',
		'SELECT id, v FROM k ORDER BY id')
	{
		like($subscriber->safe_psql('postgres', "${idx}EXPLAIN (COSTS OFF) $q"),
			qr/Index Scan|ColstoreIndexScan/, "$what: index scan plan for: $q");
		is($subscriber->safe_psql('postgres', "$idx$q"),
			$subscriber->safe_psql('postgres', "$seq$q"),
			"$what: index scan equals sequential scan: $q");
	}

	foreach my $t (sort keys %contents)
	{
		my ($ret, $out, $err) = $subscriber->psql('postgres', "SELECT colstore.verify('$t')");
		is($ret, 0, "$what: colstore.verify('$t') succeeds") or diag($err);
		like($out, qr/^\d+$/, "$what: colstore.verify('$t') returns a row count");
	}
}

compare('after the initial sync');
is($subscriber->safe_psql('postgres', 'SELECT count(*) FROM k'), '5000',
	'the initial sync copied every row of k');
is($subscriber->safe_psql('postgres', 'SELECT count(*) FROM f'), '3000',
	'the initial sync copied every row of f');

# single-row and multi-row inserts, updates of non-key and key columns (one
# row and many rows per statement), deletes, and several changes of the same
# row in one transaction
$publisher->safe_psql('postgres', q{
	INSERT INTO k VALUES (5001, 1, 'single', 1.5);
	INSERT INTO k SELECT i, i % 10, 'multi ' || i, i FROM generate_series(5002, 5200) i;
	UPDATE k SET v = 'updated one' WHERE id = 17;
	UPDATE k SET n = n * 2, v = v || ' x2' WHERE id % 5 = 0;
	UPDATE k SET grp = grp + 100 WHERE id BETWEEN 300 AND 400;
	UPDATE k SET id = 200001 WHERE id = 42;
	UPDATE k SET id = id + 100000 WHERE id % 7 = 0 AND id < 3000;
	UPDATE k SET id = 50000 - id, v = v || ' moved' WHERE id BETWEEN 4000 AND 4010;
	UPDATE k SET v = 'updated inserted row' WHERE id = 5100;
	DELETE FROM k WHERE id = 1;
	DELETE FROM k WHERE id BETWEEN 1000 AND 1499;
	DELETE FROM k WHERE id > 100000 AND id % 2 = 0;
	DELETE FROM k WHERE id BETWEEN 5150 AND 5160;
	BEGIN;
	INSERT INTO k VALUES (9000, 9, 'in transaction', 9);
	UPDATE k SET v = 'changed twice 1' WHERE id IN (9000, 2);
	UPDATE k SET v = 'changed twice 2', id = 9001 WHERE id = 9000;
	UPDATE k SET id = 9002 WHERE id = 2;
	DELETE FROM k WHERE id = 3;
	INSERT INTO k VALUES (3, 33, 'reinserted key', 3);
	INSERT INTO k VALUES (9003, 9, 'inserted then deleted', 9);
	DELETE FROM k WHERE id = 9003;
	COMMIT;

	INSERT INTO f VALUES (5000, 'single', 1), (5000, 'single', 1), (5001, NULL, NULL);
	INSERT INTO f SELECT i, 'multi', i FROM generate_series(6000, 6100) i;
	UPDATE f SET b = 'updated one' WHERE a = 7;
	UPDATE f SET c = c + 1 WHERE a % 4 = 0;
	UPDATE f SET a = a + 10000 WHERE a BETWEEN 100 AND 199;
	UPDATE f SET b = 'was null' WHERE b IS NULL AND a < 500;
	UPDATE f SET c = 0 WHERE a = 5000;
	DELETE FROM f WHERE a = 8;
	DELETE FROM f WHERE a BETWEEN 600 AND 699;
	DELETE FROM f WHERE a = 5001;
	BEGIN;
	INSERT INTO f VALUES (7000, 'in transaction', 7);
	UPDATE f SET c = 8 WHERE a = 7000;
	UPDATE f SET a = 7001 WHERE a = 7000;
	DELETE FROM f WHERE a = 6000;
	COMMIT;
});
compare('after inserts, updates and deletes');

# one statement updating every row, the key included, then deleting many
$publisher->safe_psql('postgres', q{
	UPDATE k SET id = id + 1000000, n = n + 1;
	UPDATE f SET a = a + 1000000, b = coalesce(b, '') || '!';
	DELETE FROM k WHERE id % 3 = 0;
	DELETE FROM f WHERE a % 3 = 0;
});
compare('after updates of every row and mass deletes');

# TRUNCATE is replicated; then new rows and changes of them
$publisher->safe_psql('postgres', q{
	TRUNCATE k, f;
	INSERT INTO k SELECT i, i % 4, 'after truncate ' || i, i / 3.0 FROM generate_series(1, 2000) i;
	INSERT INTO f SELECT i % 300, 'after truncate', i % 7 FROM generate_series(1, 1500) i;
	INSERT INTO k VALUES (2001, 0, 'single after truncate', 0);
});
compare('after truncate and reload');

$publisher->safe_psql('postgres', q{
	UPDATE k SET id = -id WHERE id % 9 = 0;
	UPDATE k SET v = 'changed after truncate' WHERE grp = 1;
	DELETE FROM k WHERE id BETWEEN 500 AND 600;
	UPDATE f SET b = 'changed', c = c * 10 WHERE a % 5 = 0;
	DELETE FROM f WHERE a BETWEEN 100 AND 120;
});
compare('after changes following the truncate');

# the apply worker applies each row as a command of its own: its rows go to
# heap pages (compaction later moves them into row groups), never a row
# group per row; the reload after the TRUNCATE above was 2,000 rows, and
# here come small transactions, as an OLTP publisher sends them
$publisher->safe_psql('postgres',
	join('', map { "INSERT INTO k VALUES (" . (300000 + $_) . ", 7, 'small', $_);\n" } 1 .. 200));
compare('after 200 single-row transactions');
cmp_ok($subscriber->safe_psql('postgres',
		q{SELECT count(*) FROM colstore.row_groups('k') WHERE row_count = 1}),
	'<', 10, 'replicated rows did not become a row group each');

$subscriber->stop;
$publisher->stop;
done_testing();
