# Damaged pages: random bytes flipped in each kind of page of a colstore
# table (metapage, directory, page stream data, promotion map root and leaf,
# heap pages of changed rows) of a stopped cluster, with data checksums on
# and off.  Every query, and colstore.verify(), must then either answer
# exactly what it answered before (what the heap twin answers) or fail with
# an SQLSTATE other than XX000 (internal error); colstore's own corruption
# errors name the table, and those of chunk images and row group headers the
# row group; no query may hang (statement_timeout), crash the server, PANIC
# or fail an assertion (the log is searched).
#
# Each round stops the server, flips 1 to 4 random bytes (XOR with a random
# non-zero byte) in one randomly chosen page of each kind, each kind in its
# own copy of the table (t_meta, t_dir, ...), starts the server, runs the
# queries on every copy, then stops it and puts the files back.  Positions are
# drawn from the page's used bytes (header, line pointers or contents up to
# pd_lower, tuples or special space), never from pd_lsn: a page LSN past the
# end of WAL makes heap's hint-bit writes fail at checkpoint, PostgreSQL's
# behaviour, not colstore's.  The random seed is fixed (COLSTORE_SEED
# overrides it) and printed; COLSTORE_FLIPS sets the rounds per checksum
# setting (default 20) for a longer run by hand.
#
# Without checksums, the metapage, directory entries, promotion maps and heap
# pages carry no checksum of their own, so a flipped byte there can change an
# answer undetectably (a flag that marks a row group aborted, a heap tuple's
# value): such answers are reported (diag) and counted, not failed.  Chunk
# images and row group headers do carry CRCs: a changed answer after a flip
# in a data page fails the test, as does any changed answer with checksums on.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Copy;

my $rounds = $ENV{COLSTORE_FLIPS} // 20;
my $seed = $ENV{COLSTORE_SEED} // 20240521;
note "random seed $seed, $rounds rounds per checksum setting";
srand($seed);

my $BLCKSZ = 8192;
my @kinds = qw(meta dir data root leaf heap);
my %type_of = (0xC001 => 'meta', 0xC002 => 'dir', 0xC003 => 'data',
	0xC004 => 'root', 0xC005 => 'leaf');

# The rows: several row groups and chunks, int, bigint, dictionary-friendly
# text, numeric, timestamp, NULLs in all but id; then updated, deleted and
# small-INSERTed rows (heap pages of changed rows, promotion maps).
my $load = q{
	INSERT INTO TBL SELECT i,
		CASE WHEN i % 23 = 0 THEN NULL ELSE ('x' || substr(md5(i::text), 1, 8))::bit(32)::int::bigint * 1009 END,
		CASE WHEN i % 29 = 0 THEN NULL ELSE 'k' || (i % 13) END,
		CASE WHEN i % 31 = 0 THEN NULL ELSE (i % 1000 - 500) / 8.0 END,
		CASE WHEN i % 37 = 0 THEN NULL ELSE timestamp '2021-06-01' + i * interval '37 seconds' END
	FROM generate_series(1, 20000) i;
	UPDATE TBL SET b = b + 1, txt = 'upd' || (id % 5) WHERE id % 97 = 3;
	UPDATE TBL SET n = n * 2 WHERE id BETWEEN 10000 AND 10060;
	DELETE FROM TBL WHERE id % 89 = 5 OR id BETWEEN 15000 AND 15040;
	INSERT INTO TBL SELECT i, i, 'small', i / 4.0, timestamp '2024-01-01' + i * interval '1 day'
		FROM generate_series(20001, 20030) i;
};

# The queries, each run through probe() (which returns the row count and a
# hash of the rows, or the error's SQLSTATE and message), with the settings
# in front of them.
my @queries = (
	[ count => '', 'SELECT count(*) FROM %s' ],
	[ sums => '',
		'SELECT sum(id), sum(b), sum(n), count(txt), count(ts), min(ts), max(ts), min(txt), max(txt) FROM %s' ],
	[ group_by => '', 'SELECT txt, count(*), sum(b), sum(n), max(ts) FROM %s GROUP BY txt ORDER BY txt' ],
	[ filter => '', 'SELECT count(*), sum(n), sum(b) FROM %s WHERE id BETWEEN 3000 AND 9000' ],
	[ all_rows => '', 'SELECT * FROM %s ORDER BY id' ],
	[ verify => '', q{SELECT colstore.verify('%s') IS NOT NULL} ],
	[ index_lookup => 'SET enable_seqscan = off; SET enable_bitmapscan = off;',
		q{SELECT * FROM %s WHERE id = ANY ('{1,3,100,4999,5000,5001,10003,10030,15005,15020,19999,20010}') ORDER BY id} ],
	[ index_range => 'SET enable_seqscan = off; SET enable_bitmapscan = off;',
		'SELECT id, b, txt FROM %s WHERE id BETWEEN 9900 AND 10100 ORDER BY id' ],
	[ bitmap => 'SET enable_seqscan = off; SET enable_indexscan = off;',
		'SELECT count(*), sum(b), max(txt) FROM %s WHERE id < 2000 OR id > 18000' ],
);

my $probe_fn = q{
CREATE FUNCTION probe(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r record;
	acc text := '';
	n bigint := 0;
BEGIN
	FOR r IN EXECUTE q LOOP
		acc := md5(acc || r::text);
		n := n + 1;
	END LOOP;
	RETURN n || ' rows ' || acc;
EXCEPTION WHEN OTHERS THEN
	RETURN 'ERROR ' || SQLSTATE || ' ' || SQLERRM;
END $$;
};

# Run every query on table $t in one session; returns a hash name => answer,
# or undef if the session failed (connection lost).
sub run_queries
{
	my ($node, $t) = @_;
	my $sql = "SET statement_timeout = '60s'; SET cursor_tuple_fraction = 1;\n";
	foreach my $q (@queries)
	{
		my ($name, $set, $text) = @$q;
		my $query = sprintf($text, $t);
		$query =~ s/'/''/g;
		$sql .= "BEGIN; $set SELECT '$name', probe('$query'); COMMIT;\n";
	}
	my ($ret, $stdout, $stderr) = $node->psql('postgres', $sql,
		extra_params => [ '-A', '-t', '-F', '|' ]);
	my %answer;
	foreach my $line (split /\n/, $stdout)
	{
		next if $line =~ /^(SET|BEGIN|COMMIT)$/;
		my ($name, $value) = split /\|/, $line, 2;
		$answer{$name} = $value;
	}
	return (\%answer, $ret, $stderr);
}

# Blocks of a relation file by kind, each with the byte ranges a flip may hit.
sub classify_pages
{
	my ($path) = @_;
	my %pages = map { $_ => [] } @kinds;
	open(my $fh, '<', $path) or die "could not open $path: $!";
	binmode $fh;
	my $blkno = 0;
	my $page;
	while (read($fh, $page, $BLCKSZ) == $BLCKSZ)
	{
		my ($lower, $upper, $special) = unpack('v v v', substr($page, 12, 6));
		my $kind;
		if ($special == $BLCKSZ - 8)
		{
			$kind = $type_of{ unpack('v', substr($page, $BLCKSZ - 8, 2)) };
		}
		elsif ($special == $BLCKSZ && $lower > 24)
		{
			$kind = 'heap';
		}
		if (defined $kind)
		{
			# a root page's used slots come first, the rest are zeros
			if ($kind eq 'root')
			{
				my $contents = substr($page, 24, $lower - 24);
				$contents =~ s/\0+$//;
				$lower = 24 + length($contents) + 4;
			}
			# skip pd_lsn (bytes 0..7); tuples or special space after pd_upper
			push @{ $pages{$kind} }, [ $blkno, [ 8, $lower ], [ $upper, $BLCKSZ ] ];
		}
		$blkno++;
	}
	close($fh);
	return \%pages;
}

# Flip 1 to 4 random bytes of one page; returns a description.
sub damage_page
{
	my ($path, $target) = @_;
	my ($blkno, @ranges) = @$target;
	my $total = 0;
	$total += $_->[1] - $_->[0] foreach @ranges;
	my @flips;
	open(my $fh, '+<', $path) or die "could not open $path: $!";
	binmode $fh;
	foreach (1 .. 1 + int(rand(4)))
	{
		my $pos = int(rand($total));
		foreach my $r (@ranges)
		{
			my $len = $r->[1] - $r->[0];
			if ($pos < $len)
			{
				$pos += $r->[0];
				last;
			}
			$pos -= $len;
		}
		my $xor = 1 + int(rand(255));
		my $byte;
		seek($fh, $blkno * $BLCKSZ + $pos, 0);
		read($fh, $byte, 1);
		seek($fh, $blkno * $BLCKSZ + $pos, 0);
		print $fh chr(ord($byte) ^ $xor);
		push @flips, sprintf('%d^0x%02x', $pos, $xor);
	}
	close($fh);
	return "block $blkno bytes " . join(',', @flips);
}

# Call $change->(\$page, $offset) for each normal heap tuple of a heap page's
# bytes; it changes the tuple in place and says whether it did.  Returns the
# changed page, or undef if no tuple changed.
sub change_tuples
{
	my ($page, $change) = @_;
	my $lower = unpack('v', substr($page, 12, 2));
	my $changed = 0;
	for (my $lp = 24; $lp < $lower; $lp += 4)
	{
		my $w = unpack('V', substr($page, $lp, 4));
		my ($off, $flags) = ($w & 0x7fff, ($w >> 15) & 3);
		next unless $flags == 1;
		$changed += $change->(\$page, $off);
	}
	return $changed ? $page : undef;
}

# Damage found by earlier runs, made on purpose (checksums off only): each
# sub gets a page's bytes and returns them changed, or undef if the page has
# nothing to change.  A block in a segment the table does not have (0xF00000)
# named by a delta page directory entry or a promotion map leaf slot made
# ReadBuffer fail with an internal error; a heap tuple whose HEAP_HASNULL
# flag is cleared made deforming it read past it (a crash).
my @targeted = (
	[ dir => 'delta page entry names a block past the end' => sub {
		my ($page) = @_;
		my $lower = unpack('v', substr($page, 12, 2));
		for (my $e = 24; $e + 80 <= $lower; $e += 80)
		{
			next unless unpack('v', substr($page, $e + 12, 2)) == 3;
			substr($page, $e + 24, 4) = pack('V', 0xF00000);
			return $page;
		}
		return undef;
	} ],
	[ leaf => 'leaf slot names a block past the end' => sub {
		my ($page) = @_;
		for (my $o = 24; $o + 6 <= 8184; $o += 6)
		{
			next if substr($page, $o, 6) eq "\0" x 6;
			substr($page, $o, 4) = pack('v v', 0x00F0, 0);
			return $page;
		}
		return undef;
	} ],
	[ heap => 'heap tuples lose their HEAP_HASNULL flag' => sub {
		return change_tuples($_[0], sub {
			my ($page, $off) = @_;
			my $infomask = unpack('v', substr($$page, $off + 20, 2));
			return 0 unless $infomask & 1;
			substr($$page, $off + 20, 2) = pack('v', $infomask & ~1);
			return 1;
		});
	} ],
	[ heap => 'heap tuples say their deleter committed, but have none' => sub {
		return change_tuples($_[0], sub {
			my ($page, $off) = @_;
			# xmin committed, xmax 0 and committed (HEAP_XMAX_COMMITTED)
			substr($$page, $off + 4, 4) = pack('V', 0);
			my $infomask = unpack('v', substr($$page, $off + 20, 2));
			substr($$page, $off + 20, 2) = pack('v', ($infomask | 0x0100 | 0x0400) & ~(0x0800 | 0x1000 | 0x0080));
			return 1;
		});
	} ],
);

# Apply a targeted change to the first page of the kind it changes.
sub damage_targeted
{
	my ($path, $list, $change) = @_;
	open(my $fh, '+<', $path) or die "could not open $path: $!";
	binmode $fh;
	foreach my $target (@$list)
	{
		my $page;
		seek($fh, $target->[0] * $BLCKSZ, 0);
		read($fh, $page, $BLCKSZ);
		my $changed = $change->($page);
		next unless defined $changed;
		seek($fh, $target->[0] * $BLCKSZ, 0);
		print $fh $changed;
		close($fh);
		return "block $target->[0]";
	}
	close($fh);
	return undef;
}

# The log since the given offset.
sub log_since
{
	my ($node, $offset) = @_;
	return substr(slurp_file($node->logfile), $offset);
}

my %undetected;				# "checksums kind" => wrong answers not failed
my %messages;				# error messages seen (numbers masked) => count
my %outcomes;				# "checksums kind" => {correct, error}

foreach my $checksums (0, 1)
{
	my $mode = $checksums ? 'checksums on' : 'checksums off';
	my $node = PostgreSQL::Test::Cluster->new($checksums ? 'pages_sum' : 'pages_nosum');
	my @extra;
	if ($checksums)
	{
		@extra = ('--data-checksums');
	}
	elsif ($node->pg_version >= 18)
	{
		@extra = ('--no-data-checksums');
	}
	$node->init(extra => \@extra);
	$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'colstore'
autovacuum = off
colstore.auto_compaction = off
restart_after_crash = on
max_parallel_workers_per_gather = 0
});
	$node->start;
	is($node->safe_psql('postgres', 'SHOW data_checksums'), $checksums ? 'on' : 'off', $mode);

	my $setup = "CREATE EXTENSION colstore; $probe_fn\n";
	my @tables = ('h', map { "t_$_" } @kinds);
	foreach my $t (@tables)
	{
		my $using = $t eq 'h' ? '' : 'USING colstore WITH (row_group_size = 5000, chunk_size = 1000)';
		$setup .= "CREATE TABLE $t (id int, b bigint, txt text, n numeric, ts timestamp) $using;\n";
		$setup .= "CREATE INDEX ON $t (id);\n";
		($setup .= $load) =~ s/TBL/$t/g;
	}
	$node->safe_psql('postgres', $setup);

	# the heap twin's answers (verify's from an undamaged copy); every copy
	# answers the same before any damage
	my ($expected) = run_queries($node, 'h');
	my ($colstore_answer) = run_queries($node, 't_data');
	$expected->{verify} = $colstore_answer->{verify};
	like($expected->{verify}, qr/^1 rows /, "$mode: verify of an undamaged copy succeeds");
	foreach my $t (@tables)
	{
		next if $t eq 'h';
		my ($answer) = run_queries($node, $t);
		is_deeply($answer, $expected, "$mode: $t answers as the heap twin before any damage");
	}

	# the files of each copy: its main fork, damaged, and its index's, put
	# back too since a query that read a damaged page may have marked index
	# entries dead
	my %path;
	my %pages;
	my @saved;
	foreach my $kind (@kinds)
	{
		$path{$kind} = $node->data_dir . '/'
		  . $node->safe_psql('postgres', "SELECT pg_relation_filepath('t_$kind')");
		push @saved, $path{$kind}, $node->data_dir . '/' . $node->safe_psql('postgres',
			"SELECT pg_relation_filepath(indexrelid) FROM pg_index WHERE indrelid = 't_$kind'::regclass");
	}
	$node->stop;
	copy($_, "$_.orig") or die "copy failed: $!" foreach @saved;
	foreach my $kind (@kinds)
	{
		$pages{$kind} = classify_pages($path{$kind})->{$kind};
		ok(@{ $pages{$kind} } > 0,
			"$mode: t_$kind has " . scalar(@{ $pages{$kind} }) . " $kind pages");
	}

	# rounds t0, t1, ...: the targeted damage (checksums off), then random rounds
	foreach my $round (($checksums ? () : (map { "t$_" } 0 .. $#targeted)), 1 .. $rounds)
	{
		my %damage;
		if ($round =~ /^t(\d+)$/)
		{
			my ($kind, $what, $change) = @{ $targeted[$1] };
			my $where = damage_targeted($path{$kind}, $pages{$kind}, $change);
			ok(defined $where, "$mode: targeted damage: $what");
			$damage{$kind} = "$what, $where" if defined $where;
		}
		else
		{
			foreach my $kind (@kinds)
			{
				my $list = $pages{$kind};
				next unless @$list;
				$damage{$kind} = damage_page($path{$kind}, $list->[ int(rand(@$list)) ]);
			}
		}
		my $log_offset = -s $node->logfile;
		$node->start;
		foreach my $kind (@kinds)
		{
			next unless defined $damage{$kind};
			my $case = "$mode, round $round, $kind page, $damage{$kind}";
			my ($answer, $ret, $stderr) = run_queries($node, "t_$kind");
			is($ret, 0, "$case: the session survives") or diag($stderr);
			foreach my $q (@queries)
			{
				my $name = $q->[0];
				my $got = $answer->{$name} // '(no answer)';
				if ($got eq $expected->{$name})
				{
					$outcomes{"$mode $kind"}{correct}++;
					next;
				}
				if ($got =~ /^ERROR (\w{5}) (.*)$/s)
				{
					my ($sqlstate, $msg) = ($1, $2);
					$outcomes{"$mode $kind"}{error}++;
					(my $masked = "$sqlstate $msg") =~ s/\d+/N/g;
					$messages{$masked}++;
					# heapam's own visibility checks of a damaged heap tuple
					# header raise internal errors, as for a heap table
					my $heapam = !$checksums && $kind eq 'heap' && $msg =~
					  /^(MultiXactId \d+ has not been created yet|MultiXactId \d+ does no longer exist|could not access status of transaction)/;
					diag("$case: $name fails with heapam's $sqlstate: $msg") if $heapam;
					my $ok = ($sqlstate ne 'XX000' || $heapam) && $sqlstate ne '57014';
					if ($msg =~ /^colstore table/)
					{
						$ok &&= $msg =~ /^colstore table "t_$kind"/;
						$ok &&= $msg =~ /row group \d+/
						  if $msg =~ /corrupted (data|header)/;
					}
					ok($ok, "$case: $name fails with $sqlstate") or diag($msg);
					next;
				}
				# a changed answer
				if (!$checksums && $kind ne 'data' && $got ne '(no answer)')
				{
					$undetected{"$mode $kind"}++;
					diag("$case: $name answers differently (no checksum covers this page)");
					next;
				}
				fail("$case: $name answers correctly or fails");
				diag("got $got, expected $expected->{$name}");
			}
		}
		ok($node->poll_query_until('postgres', 'SELECT true'), "$mode, round $round: the server is up");
		$node->stop;
		my $log = log_since($node, $log_offset);
		unlike($log, qr/terminated by signal|PANIC|TRAP|server process .* exited/,
			"$mode, round $round: no crash, PANIC or assertion failure in the log");
		copy("$_.orig", $_) or die "copy failed: $!" foreach @saved;
	}

	# the files are back: every copy answers as before
	$node->start;
	foreach my $kind (@kinds)
	{
		my ($answer) = run_queries($node, "t_$kind");
		is_deeply($answer, $expected, "$mode: t_$kind answers as before once restored");
	}
	$node->stop;
}

foreach my $key (sort keys %outcomes)
{
	note sprintf('%s: %d answers correct, %d errors, %d changed answers (no checksum)',
		$key, $outcomes{$key}{correct} // 0, $outcomes{$key}{error} // 0,
		$undetected{$key} // 0);
}
note "$messages{$_} x $_" foreach sort keys %messages;
done_testing();
