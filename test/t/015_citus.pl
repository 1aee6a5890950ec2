# Scale-out with Citus: a coordinator and two workers, each with Citus 13.2.2
# and colstore preloaded (scripts/build_citus.sh builds Citus for the server
# under test; Citus supports PostgreSQL 15 to 17, so 18 skips this test).  Every statement runs on colstore-sharded tables and on their
# heap-sharded twins in the same cluster, and every answer must be the same:
# create_distributed_table and create_reference_table on colstore tables,
# ALTER TABLE ... SET ACCESS METHOD on a distributed table, co-located and
# reference joins, a partitioned distributed table with colstore partitions
# (one added after distribution), multi-row INSERT, INSERT ... SELECT, COPY,
# UPDATE, DELETE and ON CONFLICT across shards (Citus's two-phase commit),
# shard moves in block_writes and force_logical mode (the latter under
# concurrent writes), a shard split, the rebalancer, an 'auto' move, and
# undistribute_table.
# Every shard, including those created by moves, splits and new partitions,
# must be a colstore table that colstore.verify() accepts, and the workers'
# plans, seen through Citus's EXPLAIN, must use colstore's custom scans.
# colstore's table options reach every shard, those made later included:
# each shard's definition carries them in its pg_class.reloptions (see
# src/README.md, "Options").
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my ($major) = `$pg_config --version` =~ /PostgreSQL (\d+)/;
chomp(my $pkglibdir = `$pg_config --pkglibdir`);
if ($major > 17)
{
	plan skip_all => "Citus 13.2.2 supports PostgreSQL 15 to 17, not $major";
}
elsif (!-f "$pkglibdir/citus.so")
{
	# scripts/test.sh builds Citus for 15 and 17: a missing build is a failure
	die "Citus is not installed in $pkglibdir (scripts/build_citus.sh)";
}

my @nodes;
foreach my $name (qw(coordinator worker1 worker2))
{
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(allows_streaming => 'logical');
	$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'citus,colstore'
max_connections = 100
max_prepared_transactions = 20
max_worker_processes = 20
citus.shard_count = 4
citus.local_hostname = '@{[ $node->host ]}'
});
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION citus; CREATE EXTENSION colstore;');
	push @nodes, $node;
}
my ($coord, @workers) = @nodes;
$coord->safe_psql('postgres', sprintf("SELECT citus_set_coordinator_host('%s', %d)",
		$coord->host, $coord->port));
foreach my $w (@workers)
{
	$coord->safe_psql('postgres', sprintf("SELECT citus_add_node('%s', %d)", $w->host, $w->port));
}

sub cq { return $coord->safe_psql('postgres', $_[0]); }

# run a query with %E replaced by each access method's table suffix, and
# compare colstore's answer with heap's
sub same
{
	my ($what, $sql) = @_;
	(my $h = $sql) =~ s/%E/h/g;
	(my $c = $sql) =~ s/%E/c/g;
	$h = cq($h);
	$c = cq($c);
	is($c, $h, "$what: same as heap shards");
	return $c;
}

# access methods of every shard of a table, as "am count" lines
sub shard_ams
{
	my ($table) = @_;
	return cq(qq{
		SELECT result, count(*) FROM run_command_on_placements('$table',
			\$\$SELECT a.amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam
			WHERE c.oid = '%1\$s'::regclass\$\$) GROUP BY 1 ORDER BY 1});
}

# colstore options of every shard of a table, as "codec row_group_size count"
sub shard_options
{
	my ($table) = @_;
	return cq(qq{
		SELECT result, count(*) FROM run_command_on_placements('$table',
			\$\$SELECT codec || ' ' || row_group_size FROM colstore.table_options
			WHERE relation = '%1\$s'::regclass\$\$) GROUP BY 1 ORDER BY 1});
}

# colstore.verify() on every shard of a colstore table: each checks every
# row group of its shard and returns how many rows it checked
sub verify_shards
{
	my ($table) = @_;
	is( cq(qq{
		SELECT count(*), count(*) FILTER (WHERE success AND result ~ '^[0-9]+\$')
		FROM run_command_on_placements('$table', \$\$SELECT colstore.verify('%1\$s')\$\$)}),
		cq(qq{SELECT n || '|' || n FROM (SELECT count(*) AS n FROM pg_dist_shard WHERE logicalrelid = '$table'::regclass) s}),
		"colstore.verify() passes on every shard of $table");
}

# the twins: events (distributed by tenant), accounts (co-located), regions
# (a reference table)
foreach my $am (qw(h c))
{
	my $using = $am eq 'c' ? 'USING colstore WITH (codec = lz4, row_group_size = 20000)' : 'USING heap';
	cq(qq{
		CREATE TABLE ev_$am (tenant int, id bigint, kind text, amount numeric,
			at timestamptz, PRIMARY KEY (tenant, id)) $using;
		INSERT INTO ev_$am SELECT i % 50, i, 'k' || (i % 7),
			CASE WHEN i % 11 = 0 THEN NULL ELSE i / 3.0 END,
			timestamptz '2025-01-01' + i * interval '1 minute'
		FROM generate_series(1, 60000) i;
		CREATE TABLE acc_$am (tenant int PRIMARY KEY, name text, region int) $using;
		INSERT INTO acc_$am SELECT i, 'acct ' || i, i % 3 FROM generate_series(0, 49) i;
		CREATE TABLE reg_$am (region int PRIMARY KEY, rname text) $using;
		INSERT INTO reg_$am VALUES (0, 'north'), (1, 'south'), (2, 'west');
	});
	cq(qq{
		SELECT create_distributed_table('ev_$am', 'tenant');
		SELECT create_distributed_table('acc_$am', 'tenant', colocate_with => 'ev_$am');
		SELECT create_reference_table('reg_$am');
		SELECT truncate_local_data_after_distributing_table('ev_$am');
		SELECT truncate_local_data_after_distributing_table('acc_$am');
		SELECT truncate_local_data_after_distributing_table('reg_$am');
	});
}
is(shard_ams('ev_c'), 'colstore|4', 'distributed table: 4 colstore shards');
is(shard_ams('ev_h'), 'heap|4', 'its twin: 4 heap shards');
is(shard_ams('reg_c'), 'colstore|3', 'reference table: a colstore placement on each node');
is(shard_options('ev_c'), 'lz4 20000|4', 'every shard has the table\'s options');
is(cq("SELECT DISTINCT codec FROM colstore.chunks('ev_c') WHERE codec <> 'none'"), '',
	'the coordinator\'s table kept no rows');

# ALTER TABLE SET/RESET on a distributed table reaches its existing shards:
# Citus sends the statement to each shard, where colstore's hook stores it,
# inside Citus's distributed transaction
cq("ALTER TABLE acc_c SET (codec = pglz, row_group_size = 5000)");
is(shard_options('acc_c'), 'pglz 5000|4', 'ALTER TABLE SET reaches every existing shard');
cq("INSERT INTO acc_$_ SELECT i, 'acct ' || i, i % 3 FROM generate_series(1000, 2999) i") foreach qw(h c);
is(cq(qq{SELECT count(*) FROM run_command_on_placements('acc_c',
	\$\$SELECT count(*) > 0 FROM colstore.chunks('%1\$s') WHERE codec = 'pglz'\$\$)
	WHERE result = 't'}), '4', 'every shard writes its new rows with it');
cq("BEGIN; ALTER TABLE acc_c RESET (codec); ROLLBACK;");
is(shard_options('acc_c'), 'pglz 5000|4', 'a rolled-back ALTER TABLE changes no shard');
cq("ALTER TABLE acc_c RESET (codec, row_group_size)");
is(shard_options('acc_c'), 'zstd 122880|4', 'ALTER TABLE RESET reaches every existing shard');

my $digest = 'SELECT count(*), sum(hashtext(t::text)) FROM ev_%E t';
same('rows after distribution', $digest);
same('aggregates pushed down', 'SELECT kind, count(*), sum(amount), min(at), max(id) FROM ev_%E GROUP BY kind ORDER BY kind');
same('filter and projection', 'SELECT tenant, id, amount FROM ev_%E WHERE amount BETWEEN 100 AND 130 AND kind <> \'k3\' ORDER BY tenant, id');
same('co-located and reference join',
	'SELECT r.rname, a.region, count(*), sum(e.amount) FROM ev_%E e JOIN acc_%E a USING (tenant)
	 JOIN reg_%E r ON r.region = a.region GROUP BY 1, 2 ORDER BY 1, 2');
same('router query', 'SELECT * FROM ev_%E WHERE tenant = 7 AND id BETWEEN 1000 AND 1400 ORDER BY id');
same('repartitioned join on a non-distribution column',
	'SET citus.enable_repartition_joins = on; SELECT count(*), sum(e1.amount), sum(e2.tenant) FROM ev_%E e1 JOIN ev_%E e2 ON e1.id = e2.id WHERE e1.kind = \'k1\'');

# the workers' plans, through Citus's EXPLAIN
like(cq('EXPLAIN (COSTS OFF) SELECT kind, count(*), sum(amount) FROM ev_c GROUP BY kind'),
	qr/Custom Scan \(ColstoreAgg\)/, 'a worker aggregates with ColstoreAgg');
like(cq('EXPLAIN (COSTS OFF) SELECT tenant, id FROM ev_c WHERE amount > 19000'),
	qr/Custom Scan \(ColstoreScan\)/, 'a worker scans with ColstoreScan');
unlike(cq('EXPLAIN (COSTS OFF) SELECT kind, count(*) FROM ev_h GROUP BY kind'),
	qr/Colstore/, 'heap shards do not');

# distributed DML on both twins alike
foreach my $am (qw(h c))
{
	cq(qq{
		INSERT INTO ev_$am VALUES (1, 100001, 'multi', 1.5, timestamptz '2026-06-01'), (2, 100002, 'multi', 2.5, timestamptz '2026-06-01'),
			(3, 100003, 'multi', NULL, timestamptz '2026-06-01');
		INSERT INTO ev_$am SELECT tenant, id + 200000, 'copied', amount * 2, at FROM ev_$am WHERE id % 9 = 0;
		UPDATE ev_$am SET amount = amount + 1, kind = 'upd' WHERE id % 13 = 0;
		DELETE FROM ev_$am WHERE id % 17 = 0;
		INSERT INTO ev_$am VALUES (4, 4, 'conflict', 0, timestamptz '2026-06-01'), (5, 5, 'conflict', 0, timestamptz '2026-06-01')
			ON CONFLICT (tenant, id) DO UPDATE SET kind = EXCLUDED.kind || ' ' || ev_$am.kind;
		INSERT INTO ev_$am VALUES (6, 6, 'nothing', 0, timestamptz '2026-06-01') ON CONFLICT DO NOTHING;
		BEGIN;
		UPDATE ev_$am SET amount = 0 WHERE tenant IN (8, 9, 10) AND id % 5 = 0;
		DELETE FROM ev_$am WHERE tenant = 11 AND id % 3 = 0;
		COMMIT;
		BEGIN;
		DELETE FROM ev_$am WHERE tenant IN (12, 13);
		ROLLBACK;
	});
	$coord->safe_psql('postgres', "COPY ev_$am FROM STDIN WITH (FORMAT csv);\n"
		  . join('', map { "$_," . (300000 + $_) . ",copy,$_.25,2026-01-01\n" } 0 .. 499) . "\\.\n");
}
same('after INSERT, INSERT ... SELECT, UPDATE, DELETE, ON CONFLICT, two-phase commits and COPY', $digest);
same('the changed rows by kind', 'SELECT kind, count(*), sum(amount) FROM ev_%E GROUP BY kind ORDER BY kind');
verify_shards('ev_c');

# a heap table converted on every shard
cq(q{
	CREATE TABLE conv_h (tenant int, v int);
	INSERT INTO conv_h SELECT i % 10, i FROM generate_series(1, 5000) i;
	SELECT create_distributed_table('conv_h', 'tenant');
	CREATE TABLE conv_c (tenant int, v int);
	INSERT INTO conv_c SELECT i % 10, i FROM generate_series(1, 5000) i;
	SELECT create_distributed_table('conv_c', 'tenant');
	ALTER TABLE conv_c SET ACCESS METHOD colstore;
});
is(shard_ams('conv_c'), 'colstore|4', 'ALTER TABLE ... SET ACCESS METHOD converts every shard');
same('converted rows', 'SELECT count(*), sum(v), sum(hashtext(t::text)) FROM conv_%E t');
verify_shards('conv_c');

# a partitioned distributed table with colstore partitions, one added later
foreach my $am (qw(h c))
{
	my $using = $am eq 'c' ? 'USING colstore WITH (codec = pglz)' : 'USING heap';
	cq(qq{
		CREATE TABLE m_$am (tenant int, d date, v int) PARTITION BY RANGE (d);
		CREATE TABLE m_${am}_2024 PARTITION OF m_$am FOR VALUES FROM ('2024-01-01') TO ('2025-01-01') $using;
		CREATE TABLE m_${am}_2025 PARTITION OF m_$am FOR VALUES FROM ('2025-01-01') TO ('2026-01-01') $using;
		INSERT INTO m_$am SELECT i % 20, date '2024-01-01' + (i % 700), i FROM generate_series(1, 20000) i;
		SELECT create_distributed_table('m_$am', 'tenant');
		CREATE TABLE m_${am}_2026 PARTITION OF m_$am FOR VALUES FROM ('2026-01-01') TO ('2027-01-01') $using;
		INSERT INTO m_$am SELECT i % 20, date '2026-01-01' + (i % 300), i FROM generate_series(1, 3000) i;
		UPDATE m_$am SET v = -v WHERE v % 100 = 0;
	});
}
is(shard_ams('m_c_2026'), 'colstore|4', 'a partition added after distribution has colstore shards');
is(shard_options('m_c_2026'), 'pglz 122880|4', 'with the partition\'s options');
# and a partition created alone, then attached
cq(q{
	CREATE TABLE m_c_2027 (tenant int, d date, v int) USING colstore WITH (codec = pglz);
	ALTER TABLE m_c ATTACH PARTITION m_c_2027 FOR VALUES FROM ('2027-01-01') TO ('2028-01-01');
	CREATE TABLE m_h_2027 PARTITION OF m_h FOR VALUES FROM ('2027-01-01') TO ('2028-01-01');
	INSERT INTO m_c SELECT i % 20, date '2027-01-01' + (i % 300), i FROM generate_series(1, 3000) i;
	INSERT INTO m_h SELECT i % 20, date '2027-01-01' + (i % 300), i FROM generate_series(1, 3000) i;
});
is(shard_options('m_c_2027'), 'pglz 122880|4', 'a partition attached after distribution has shards with its options');
same('partitioned table', 'SELECT date_trunc(\'year\', d), count(*), sum(v) FROM m_%E GROUP BY 1 ORDER BY 1');

# shard moves: block_writes, then force_logical (logical replication of the
# shard) under concurrent writes to both twins in one transaction each
my $placements = q{
	SELECT shardid, nodeport FROM pg_dist_shard JOIN pg_dist_placement USING (shardid)
	JOIN pg_dist_node USING (groupid) WHERE logicalrelid = 'ev_c'::regclass ORDER BY shardid LIMIT 1};
my ($shard, $port) = split /\|/, cq($placements);
my ($from, $to) = $port == $workers[0]->port ? @workers : reverse @workers;
cq(sprintf("SELECT citus_move_shard_placement(%d, '%s', %d, '%s', %d, shard_transfer_mode => 'block_writes')",
		$shard, $from->host, $from->port, $to->host, $to->port));
is((split /\|/, cq($placements))[1], $to->port, 'block_writes move placed the shard on the other worker');
same('after a block_writes move', $digest);

my $writer_sql = join('', map {
	my ($i, $u) = (400000 + $_, $_ * 7);
	my ($ti, $tu) = ($i % 50, $u % 50);
	"BEGIN; INSERT INTO ev_c VALUES ($ti, $i, 'during move', $_, timestamptz '2026-06-01'); "
	  . "INSERT INTO ev_h VALUES ($ti, $i, 'during move', $_, timestamptz '2026-06-01'); "
	  . "UPDATE ev_c SET amount = amount + 1 WHERE tenant = $tu AND id = $u; "
	  . "UPDATE ev_h SET amount = amount + 1 WHERE tenant = $tu AND id = $u; COMMIT;\n"
} 1 .. 400);
my ($wout, $werr) = ('', '');
my $writer = IPC::Run::start(
	[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $coord->connstr('postgres') ],
	'<', \$writer_sql, '>', \$wout, '2>', \$werr);
cq(sprintf("SELECT citus_move_shard_placement(%d, '%s', %d, '%s', %d, shard_transfer_mode => 'force_logical')",
		$shard, $to->host, $to->port, $from->host, $from->port));
ok($writer->finish, 'concurrent writer finished') or diag($werr);
is((split /\|/, cq($placements))[1], $from->port, 'force_logical move placed the shard back');
same('after a force_logical move under concurrent writes', $digest);
is(cq("SELECT count(*) FROM ev_c WHERE kind = 'during move'"), '400', 'every write made during the move is there');

# a split (block_writes) and the rebalancer
cq(sprintf("SELECT citus_split_shard_by_split_points(%d, ARRAY['0'], ARRAY[%d, %d], shard_transfer_mode => 'block_writes')",
		$shard + 2, cq("SELECT nodeid FROM pg_dist_node WHERE nodeport = " . $workers[0]->port),
		cq("SELECT nodeid FROM pg_dist_node WHERE nodeport = " . $workers[1]->port)));
is(shard_ams('ev_c'), 'colstore|5', 'a split makes colstore shards');
is(shard_options('ev_c'), 'lz4 20000|5', 'moved and split shards keep the options');
# on failure, name the placements and what their chunks hold
is(cq(qq{SELECT string_agg(nodeport || ' ' || shardid || ': ' || result, '; ' ORDER BY shardid, nodeport)
	FROM run_command_on_placements('ev_c',
	\$\$SELECT string_agg(DISTINCT codec || ' (row group ' || row_group || ')', ', ') FROM colstore.chunks('%1\$s')
	  WHERE codec NOT IN ('lz4', 'none')\$\$)
	WHERE result <> ''}), '', 'their rows are written with them');
same('after a split', $digest);
cq("SELECT rebalance_table_shards('ev_c', shard_transfer_mode => 'block_writes')");
same('after rebalancing', $digest);
verify_shards('ev_c');

# 'auto' chooses logical replication for a co-location group whose tables all
# have a replica identity (ev_c's group has conv_c, which has none)
foreach my $am (qw(h c))
{
	my $using = $am eq 'c' ? 'USING colstore WITH (codec = lz4)' : 'USING heap';
	cq(qq{
		CREATE TABLE au_$am (k int PRIMARY KEY, v text) $using;
		SELECT create_distributed_table('au_$am', 'k', colocate_with => 'none');
		INSERT INTO au_$am SELECT i, 'v' || i FROM generate_series(1, 5000) i;
	});
}
my $au_placement = q{
	SELECT shardid, nodeport FROM pg_dist_shard JOIN pg_dist_placement USING (shardid)
	JOIN pg_dist_node USING (groupid) WHERE logicalrelid = 'au_c'::regclass ORDER BY shardid LIMIT 1};
($shard, $port) = split /\|/, cq($au_placement);
($from, $to) = $port == $workers[0]->port ? @workers : reverse @workers;
cq(sprintf("SELECT citus_move_shard_placement(%d, '%s', %d, '%s', %d, shard_transfer_mode => 'auto')",
		$shard, $from->host, $from->port, $to->host, $to->port));
is((split /\|/, cq($au_placement))[1], $to->port, 'an auto move placed the shard on the other worker');
same('after an auto move', 'SELECT count(*), sum(hashtext(t::text)) FROM au_%E t');
is(cq(qq{SELECT result FROM run_command_on_placements('au_c',
	\$\$SELECT sum(row_count) FILTER (WHERE state IN ('committed', 'frozen')) > 0
	  FROM colstore.row_groups('%1\$s')\$\$) WHERE shardid = $shard}), 't',
	'colstore.row_groups() reads the moved shard on its worker');
is(shard_options('au_c'), 'lz4 122880|4', 'and the moved shard keeps the options');

# back to a local table
cq("SELECT undistribute_table('acc_c')");
is(cq("SELECT a.amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE c.oid = 'acc_c'::regclass"),
	'colstore', 'undistribute_table keeps a colstore table');
is(cq('SELECT count(*), sum(hashtext(t::text)) FROM acc_c t'),
	cq('SELECT count(*), sum(hashtext(t::text)) FROM acc_h t'), 'with every row');
is(cq("SELECT colstore.verify('acc_c')"), '2050', 'and verify() passes');

done_testing();
