# UNLOGGED colstore tables are empty after a crash, as heap ones are, and
# usable right away; logged tables next to them keep their rows.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('unlogged');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION colstore;
	CREATE UNLOGGED TABLE u (id int, v text) USING colstore;
	CREATE INDEX u_id ON u (id);
	INSERT INTO u SELECT i, 'x' FROM generate_series(1, 10000) i;
	CREATE TABLE l (id int) USING colstore;
	INSERT INTO l SELECT generate_series(1, 100);
	CHECKPOINT;
});
is($node->safe_psql('postgres', 'SELECT count(*) FROM u'), '10000', 'unlogged table filled');

$node->stop('immediate');
$node->start;
is($node->safe_psql('postgres', 'SELECT count(*) FROM u'), '0', 'unlogged table is empty after a crash');
is($node->safe_psql('postgres', 'SELECT count(*) FROM l'), '100', 'logged table keeps its rows');
$node->safe_psql('postgres', 'INSERT INTO u SELECT i, \'y\' FROM generate_series(1, 500) i');
is($node->safe_psql('postgres', q{
	SET enable_seqscan = off; SELECT count(*) FROM u WHERE id = 250}),
	'1', 'unlogged table and its index work after the reset');

# a clean restart keeps the rows
$node->restart;
is($node->safe_psql('postgres', 'SELECT count(*) FROM u'), '500', 'clean restart keeps unlogged rows');
$node->stop;
done_testing();
