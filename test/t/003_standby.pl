# A streaming standby built with a base backup returns the same results as the
# primary for colstore tables, through loads, index builds, TRUNCATE and VACUUM.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
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

$standby->stop;
$primary->stop;
done_testing();
