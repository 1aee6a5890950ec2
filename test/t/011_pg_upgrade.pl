# pg_upgrade keeps colstore tables.  For each older PostgreSQL with colstore
# installed (COLSTORE_UPGRADE_FROM: install directories, separated by spaces;
# scripts/test.sh sets it when it runs a newer version after an older one),
# a cluster there gets colstore tables of every kind of content (bulk-loaded
# row groups, updated and deleted rows, small inserts left as heap tuples,
# every index kind, non-default options, an UNLOGGED table), and pg_upgrade
# moves it to the PostgreSQL this test runs with, in --copy and in --link
# mode.  Afterwards colstore.verify passes on every table, every query gives
# the old cluster's answer through scans and through each index, the options
# are still in force, and the upgraded tables take new writes and VACUUM.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Path qw(rmtree);

my @olds = grep { $_ ne '' } split /\s+/, ($ENV{COLSTORE_UPGRADE_FROM} // '');
plan skip_all => 'no older PostgreSQL with colstore (COLSTORE_UPGRADE_FROM)' unless @olds;

my @tables = qw(bulk changed small opts logged_off);

# Queries whose answers must survive the upgrade, each with the scan
# settings it runs under (a sequential scan and each index kind).
my @queries = (
	[ '', 'SELECT count(*), sum(id), md5(string_agg(v, \',\' ORDER BY id)) FROM bulk' ],
	[ '', 'SELECT g, count(*), sum(n) FROM changed GROUP BY g ORDER BY g' ],
	[ '', 'SELECT md5(string_agg(id || \':\' || v, \',\' ORDER BY id)) FROM changed' ],
	[ '', 'SELECT count(*), sum(id) FROM small' ],
	[ '', 'SELECT count(*), sum(id), min(v), max(v) FROM opts' ],
	[ '', 'SELECT count(*) FROM logged_off' ],
	[ 'SET enable_seqscan = off; SET enable_bitmapscan = off;',
	  'SELECT * FROM bulk WHERE id IN (1, 77777, 150000) ORDER BY id' ],
	[ 'SET enable_seqscan = off; SET enable_indexscan = off;',
	  'SELECT count(*) FROM changed WHERE v = md5(\'42\')' ],
	[ 'SET enable_seqscan = off;',
	  'SELECT count(*) FROM changed WHERE r && int4range(100, 200)' ],
	[ 'SET enable_seqscan = off;',
	  'SELECT count(*) FROM changed WHERE tags @> ARRAY[3]' ],
	[ 'SET enable_seqscan = off;',
	  'SELECT count(*) FROM bulk WHERE id BETWEEN 1000 AND 2000' ],
	[ 'SET enable_seqscan = off;',
	  'SELECT count(*) FROM changed WHERE v LIKE \'a%\'' ],
	[ '', 'SELECT relation::text, codec, compression_level, row_group_size, chunk_size FROM colstore.table_options ORDER BY 1' ],
);

sub answers
{
	my ($node) = @_;
	my @result;
	for my $q (@queries)
	{
		push @result, $node->safe_psql('postgres', "$q->[0] $q->[1]");
	}
	return @result;
}

for my $n (0 .. $#olds)
{
	my $old = PostgreSQL::Test::Cluster->new("old$n", install_path => $olds[$n]);
	my $from = $old->pg_version;
	$old->init;
	$old->append_conf('postgresql.conf', "shared_preload_libraries = 'colstore'");
	$old->start;
	$old->safe_psql('postgres', q{
		CREATE EXTENSION colstore;
		CREATE TABLE bulk (id int PRIMARY KEY, v text, n bigint) USING colstore;
		INSERT INTO bulk SELECT i, md5(i::text), i * 3 FROM generate_series(1, 150000) i;
		CREATE INDEX bulk_brin ON bulk USING brin (id);

		CREATE TABLE changed (id int PRIMARY KEY, g int, n int, v text, r int4range, tags int[])
			USING colstore;
		INSERT INTO changed SELECT i, i % 10, i, md5(i::text), int4range(i, i + 5),
			ARRAY[i % 7, i % 5] FROM generate_series(1, 40000) i;
		CREATE INDEX changed_hash ON changed USING hash (v);
		CREATE INDEX changed_gist ON changed USING gist (r);
		CREATE INDEX changed_gin ON changed USING gin (tags);
		CREATE INDEX changed_spgist ON changed USING spgist (v);
		UPDATE changed SET n = n + 1000000, v = v || 'u' WHERE id % 9 = 0;
		DELETE FROM changed WHERE id % 13 = 0;

		CREATE TABLE small (id int, v text) USING colstore;
		CREATE INDEX small_id ON small (id);
	});
	# small inserts, one per transaction: heap tuples inside the table
	$old->safe_psql('postgres', "INSERT INTO small VALUES ($_, 'r$_')") for 1 .. 30;
	$old->safe_psql('postgres', q{
		CREATE TABLE opts (id int, v text) USING colstore
			WITH (codec = pglz, row_group_size = 20000, chunk_size = 5000);
		INSERT INTO opts SELECT i, 'o' || i FROM generate_series(1, 50000) i;
		CREATE UNLOGGED TABLE logged_off (id int) USING colstore;
		INSERT INTO logged_off SELECT generate_series(1, 1000);
		VACUUM ANALYZE;
	});
	my @before = answers($old);
	my $groups_before = $old->safe_psql('postgres',
		q{SELECT count(*) FROM colstore.row_groups('bulk')});
	# what the upgrade must keep is there to keep
	like($before[0], qr/^150000\|11250075000\|/, "$from: bulk holds its rows");
	like($before[12], qr/opts\|pglz\|\d+\|20000\|5000/, "$from: opts has its options");
	cmp_ok($groups_before, '>', 1, "$from: bulk is in row groups");
	$old->stop;

	for my $mode ('--copy', '--link')
	{
		my $new = PostgreSQL::Test::Cluster->new("new_${mode}_from_$from" =~ s/-//gr);
		# the old cluster has no data checksums; 18's initdb turns them on by default
		$new->init($new->pg_version >= 18 ? (extra => ['--no-data-checksums']) : ());
		$new->append_conf('postgresql.conf', "shared_preload_libraries = 'colstore'");

		# --link leaves the old cluster unusable: upgrade a copy of it
		my $old_data = $old->data_dir;
		if ($mode eq '--link')
		{
			$old_data = $old->basedir . '/data_for_link';
			rmtree($old_data);
			PostgreSQL::Test::RecursiveCopy::copypath($old->data_dir, $old_data);
			chmod 0700, $old_data;
		}
		command_ok(
			[
				'pg_upgrade', '--no-sync',
				'-d', $old_data, '-D', $new->data_dir,
				'-b', $old->config_data('--bindir'),
				'-B', $new->config_data('--bindir'),
				'-s', $new->host, '-p', $old->port, '-P', $new->port,
				$mode
			],
			"pg_upgrade $mode from $from");

		$new->start;
		$new->safe_psql('postgres', 'ALTER EXTENSION colstore UPDATE');
		for my $t (@tables)
		{
			$new->safe_psql('postgres', "SELECT colstore.verify('$t')");
			pass("$mode from $from: colstore.verify('$t') passes");
		}
		my @after = answers($new);
		for my $i (0 .. $#queries)
		{
			is($after[$i], $before[$i], "$mode from $from: $queries[$i][1]");
		}
		is($new->safe_psql('postgres', q{SELECT count(*) FROM colstore.row_groups('bulk')}),
			$groups_before, "$mode from $from: bulk keeps its row groups");
		# pglz chunks stay pglz; new rows get the table's options too
		$new->safe_psql('postgres', q{
			INSERT INTO opts SELECT i, 'n' || i FROM generate_series(50001, 90000) i;
			UPDATE changed SET n = -n WHERE id % 11 = 0;
			DELETE FROM bulk WHERE id % 1000 = 0;
			VACUUM changed;
			VACUUM bulk;
		});
		is($new->safe_psql('postgres', q{
			SELECT count(*), sum(id) FROM opts}), '90000|4050045000',
			"$mode from $from: the upgraded table takes new rows");
		is($new->safe_psql('postgres', q{
			SET enable_seqscan = off; SET enable_bitmapscan = off;
			SELECT count(*) FROM changed WHERE id % 11 = 0 AND n < 0}),
			$new->safe_psql('postgres', q{
			SET enable_indexscan = off; SET enable_bitmapscan = off;
			SELECT count(*) FROM changed WHERE id % 11 = 0}),
			"$mode from $from: updates after the upgrade, found through the index");
		is($new->safe_psql('postgres', q{SELECT count(*) FROM bulk}), '149850',
			"$mode from $from: deletes after the upgrade");
		for my $t (@tables)
		{
			$new->safe_psql('postgres', "SELECT colstore.verify('$t')");
		}
		pass("$mode from $from: colstore.verify passes after new writes and VACUUM");
		$new->stop;
	}
}

done_testing();
