# Corrupted chunk data raises data_corrupted (XX001) naming the table, row
# group and column, never a crash or wrong rows, and colstore.verify finds it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('corrupt');
# colstore's own checks are what this tests: from 18 initdb turns data
# checksums on by default, and they would catch the flipped bytes first
$node->init($node->pg_version >= 18 ? (extra => ['--no-data-checksums']) : ());
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION colstore;
	CREATE TABLE c (id int, v text) USING colstore;
	INSERT INTO c SELECT i, md5(i::text) FROM generate_series(1, 20000) i;
	CREATE TABLE ok (id int) USING colstore;
	INSERT INTO ok SELECT generate_series(1, 10);
});
my $path = $node->data_dir . '/' . $node->safe_psql('postgres', "SELECT pg_relation_filepath('c')");
my $blocks = $node->safe_psql('postgres', "SELECT pg_relation_size('c') / 8192");
ok($blocks >= 5, "table has $blocks blocks");
$node->stop;

# Blocks 0 and 1 are the metapage and the first directory page; overwrite bytes
# in the middle of a data block (inside the 'v' column's chunk data).
my $target = 8192 * int($blocks / 2) + 3000;
open(my $fh, '+<', $path) or die "could not open $path: $!";
binmode $fh;
seek($fh, $target, 0);
print $fh ("\x55" x 64);
close($fh);

$node->start;
my ($ret, $stdout, $stderr) = $node->psql('postgres',
	'\set VERBOSITY verbose' . "\n" . 'SELECT count(*), max(v) FROM c');
isnt($ret, 0, 'reading corrupted data fails');
like($stderr, qr/XX001/, 'with SQLSTATE data_corrupted');
like($stderr, qr/colstore table "c"/, 'naming the table');
like($stderr, qr/row group \d+/, 'and the row group');
like($stderr, qr/column "v"/, 'and the column');

# scans decode only the columns a query reads: a filter on id runs over all
# rows without decoding v (no row passes, so no node copies a whole row)
($ret, $stdout, $stderr) = $node->psql('postgres', 'SELECT count(*) FROM c WHERE id < 0');
is($stdout, '0', 'a scan that reads only id does not decode the corrupted column')
  or diag($stderr);

($ret, $stdout, $stderr) = $node->psql('postgres', "SELECT colstore.verify('c')");
isnt($ret, 0, 'colstore.verify fails too');
like($stderr, qr/colstore table "c"/, 'verify names the table');

is($node->safe_psql('postgres', 'SELECT count(*) FROM ok'), '10', 'the server still answers');

# A numeric chunk that ColstoreAgg's conditions read only for the few rows
# the condition on k left (row by row from the packed values): the chunk is
# still validated whole first, so its corruption is found, not read.
$node->safe_psql('postgres', q{
	CREATE TABLE cn (k int, n numeric(12,2)) USING colstore;
	INSERT INTO cn SELECT abs(hashint4(i + 1)) % 20000, (hashint4(i)::bigint & 1073741823) / 100.0
	FROM generate_series(1, 20000) i;
});
my $npath = $node->data_dir . '/' . $node->safe_psql('postgres', "SELECT pg_relation_filepath('cn')");
my $nblocks = $node->safe_psql('postgres', "SELECT pg_relation_size('cn') / 8192");
my $nquery = 'SELECT sum(n), count(*) FROM cn WHERE k < 500 AND n > 1000';
my $serial = 'SET max_parallel_workers_per_gather = 0;' . "\n";
like($node->safe_psql('postgres', $serial . "EXPLAIN (COSTS OFF) $nquery"), qr/ColstoreAgg/,
	'the query over cn is a ColstoreAgg');
$node->stop;
# n's chunks (twice k's bytes) are written after k's: a block near the end
$target = 8192 * ($nblocks - 4) + 3000;
open($fh, '+<', $npath) or die "could not open $npath: $!";
binmode $fh;
seek($fh, $target, 0);
print $fh ("\x55" x 64);
close($fh);
$node->start;
($ret, $stdout, $stderr) = $node->psql('postgres', '\set VERBOSITY verbose' . "\n" . $serial . $nquery);
isnt($ret, 0, 'a sparse read of a corrupted numeric chunk fails');
like($stderr, qr/XX001/, 'with SQLSTATE data_corrupted');
like($stderr, qr/colstore table "cn".*column "n"/, 'naming the table and the numeric column');
is($node->safe_psql('postgres', 'SELECT count(*) FROM ok'), '10', 'the server still answers');
$node->stop;
done_testing();
