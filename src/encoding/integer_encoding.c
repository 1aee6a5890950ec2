/*-------------------------------------------------------------------------
 *
 * integer_encoding.c
 *	  Integer streams: frame-of-reference, delta and run-length encoding of
 *	  arrays of 64-bit integers.
 *
 * An integer stream encodes n values (n is known to the reader from its
 * context) and starts with a one-byte kind that reuses the ChunkEncoding
 * numbers.  All integers are handled as uint64 with wrap-around arithmetic;
 * signed order is used only to pick minima, so any int64 input round-trips
 * exactly.  The three kinds are:
 *
 *	FOR    uint8 kind, int64 base, uint8 width, n packed (v - base) values
 *	RLE    uint8 kind, uint32 nruns, uint8 length width, int64 value base,
 *		   uint8 value width, nruns packed (run length - 1),
 *		   nruns packed (run value - value base)
 *	DELTA  uint8 kind, int64 first value, then a nested FOR or RLE stream of
 *		   the n - 1 differences v[i] - v[i-1] (never a nested DELTA)
 *
 * Sequential data (1, 2, 3, ...) is a DELTA whose differences are a FOR at
 * width 0, i.e. about zero bits per value; data that is sequential with
 * occasional wrap-arounds (i % 1000) is a DELTA over an RLE of differences;
 * constants are a FOR at width 0 or an RLE of one run.  The encoder
 * computes the exact size of every candidate and writes the smallest (ties
 * go to the cheaper decoder: FOR, then DELTA, then RLE).
 *
 * The parser checks every width (0..64), every packed length against the
 * input, the run count and the sum of run lengths against n, so that a
 * parsed stream can then be read without further checks: sequentially
 * (intenc_iter_read, any number of values at a time) or at random
 * (intenc_get).  Random access to FOR streams, and to DELTA streams of
 * constant differences, is direct.  RLE and other DELTA streams get a small
 * index (intenc_build_index): with few long runs, one entry per run (its
 * first position, and for DELTA the sum of the differences before it), so
 * a lookup is a binary search; otherwise one entry per block of
 * INTENC_BLOCK values (the run holding the block's first value, or the
 * value just before the block), so a lookup decodes at most one block.
 *
 * IDENTIFICATION
 *	  src/encoding/integer_encoding.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "encoding/bitpack.h"
#include "encoding/integer_encoding.h"

/* Fixed parts of each stream kind. */
#define FOR_HEADER_SIZE		(1 + 8 + 1)
#define RLE_HEADER_SIZE		(1 + 4 + 1 + 8 + 1)
#define DELTA_HEADER_SIZE	(1 + 8)

typedef struct ForStats
{
	uint64		base;			/* signed minimum */
	int			width;
} ForStats;

typedef struct RleStats
{
	uint64		nruns;
	int			len_width;
	uint64		vbase;			/* signed minimum of run values */
	int			vwidth;
} RleStats;

/* Bytes of a FOR stream of n values with these stats. */
static uint64
for_size(uint64 n, const ForStats *st)
{
	return FOR_HEADER_SIZE + bitpack_size(n, st->width);
}

/* Bytes of an RLE stream with these stats. */
static uint64
rle_size(const RleStats *st)
{
	return RLE_HEADER_SIZE + bitpack_size(st->nruns, st->len_width) +
		bitpack_size(st->nruns, st->vwidth);
}

/* Append a FOR stream of values[0..n-1] using the precomputed stats. */
static void
write_for(EncBuf *buf, const uint64 *values, uint64 n, const ForStats *st)
{
	uint64		sz = bitpack_size(n, st->width);

	encbuf_u8(buf, CHUNK_ENCODING_FOR);
	encbuf_u64(buf, st->base);
	encbuf_u8(buf, (uint8) st->width);
	bitpack_pack(values, n, st->width, st->base,
				 (uint8 *) encbuf_reserve(buf, sz));
	buf->len += sz;
}

/*
 * write_rle
 *		Append an RLE stream of values[0..n-1] using the precomputed stats.
 */
static void
write_rle(EncBuf *buf, const uint64 *values, uint64 n, const RleStats *st)
{
	uint64	   *lens = alloc_array(st->nruns, sizeof(uint64));
	uint64	   *vals = alloc_array(st->nruns, sizeof(uint64));
	uint64		r = 0;
	uint64		i = 0;
	uint64		sz;

	while (i < n)
	{
		uint64		start = i;
		uint64		v = values[i];

		while (i < n && values[i] == v)
			i++;
		lens[r] = i - start;
		vals[r] = v;
		r++;
	}
	Assert(r == st->nruns);

	encbuf_u8(buf, CHUNK_ENCODING_RLE);
	encbuf_u32(buf, (uint32) st->nruns);
	encbuf_u8(buf, (uint8) st->len_width);
	encbuf_u64(buf, st->vbase);
	encbuf_u8(buf, (uint8) st->vwidth);
	sz = bitpack_size(st->nruns, st->len_width);
	bitpack_pack(lens, st->nruns, st->len_width, 1,
				 (uint8 *) encbuf_reserve(buf, sz));
	buf->len += sz;
	sz = bitpack_size(st->nruns, st->vwidth);
	bitpack_pack(vals, st->nruns, st->vwidth, st->vbase,
				 (uint8 *) encbuf_reserve(buf, sz));
	buf->len += sz;
	pfree(lens);
	pfree(vals);
}

/* Candidate analysis of one array. */
typedef struct IntPlan
{
	uint8		kind;			/* best kind */
	uint64		size;			/* its size in bytes */
	ForStats	fst;
	RleStats	rst;
	/* for DELTA */
	uint64	   *deltas;			/* n - 1 differences, or NULL */
	uint8		dkind;			/* FOR or RLE for the differences */
	ForStats	dfst;
	RleStats	drst;
} IntPlan;

#ifdef USE_ASSERT_CHECKING
/*
 * The statistics each candidate had before plan_stream gathered them in
 * one pass; assert-enabled builds check that pass against them.
 */
/* Signed minimum of values[0..n-1] and the width of (max - min). */
static void
for_stats(const uint64 *values, uint64 n, ForStats *st)
{
	int64		min = PG_INT64_MAX;
	int64		max = PG_INT64_MIN;
	uint64		i;

	if (n == 0)
	{
		st->base = 0;
		st->width = 0;
		return;
	}
	for (i = 0; i < n; i++)
	{
		int64		v = (int64) values[i];

		if (v < min)
			min = v;
		if (v > max)
			max = v;
	}
	st->base = (uint64) min;
	st->width = bitpack_width((uint64) max - (uint64) min);
}

/*
 * rle_stats
 *		Count the runs of equal values and the widths needed to pack the run
 *		lengths and the run values.
 */
static void
rle_stats(const uint64 *values, uint64 n, RleStats *st)
{
	int64		min = PG_INT64_MAX;
	int64		max = PG_INT64_MIN;
	uint64		maxlen = 0;
	uint64		nruns = 0;
	uint64		i = 0;

	while (i < n)
	{
		uint64		start = i;
		uint64		v = values[i];

		while (i < n && values[i] == v)
			i++;
		nruns++;
		if (i - start - 1 > maxlen)
			maxlen = i - start - 1;
		if ((int64) v < min)
			min = (int64) v;
		if ((int64) v > max)
			max = (int64) v;
	}
	st->nruns = nruns;
	st->len_width = bitpack_width(maxlen);
	if (nruns == 0)
	{
		st->vbase = 0;
		st->vwidth = 0;
	}
	else
	{
		st->vbase = (uint64) min;
		st->vwidth = bitpack_width((uint64) max - (uint64) min);
	}
}

static void
check_plan(const uint64 *values, uint64 n, const IntPlan *plan)
{
	ForStats	fst;
	RleStats	rst;

	for_stats(values, n, &fst);
	rle_stats(values, n, &rst);
	Assert(fst.base == plan->fst.base && fst.width == plan->fst.width);
	Assert(rst.nruns == plan->rst.nruns && rst.len_width == plan->rst.len_width &&
		   rst.vbase == plan->rst.vbase && rst.vwidth == plan->rst.vwidth);
	if (n >= 2)
	{
		uint64	   *deltas = alloc_array(n - 1, sizeof(uint64));
		uint64		i;

		for (i = 0; i + 1 < n; i++)
			deltas[i] = values[i + 1] - values[i];
		for_stats(deltas, n - 1, &fst);
		rle_stats(deltas, n - 1, &rst);
		Assert(fst.base == plan->dfst.base && fst.width == plan->dfst.width);
		Assert(rst.nruns == plan->drst.nruns &&
			   rst.len_width == plan->drst.len_width &&
			   rst.vbase == plan->drst.vbase && rst.vwidth == plan->drst.vwidth);
		pfree(deltas);
	}
}
#endif

/*
 * plan_stream
 *		Compute the size of every candidate kind for values[0..n-1] and pick
 *		the smallest.  If want_deltas and DELTA wins, the differences array
 *		is left in plan->deltas (caller frees).
 *
 * One pass gathers everything the candidates need: the signed minimum and
 * maximum of the values and of the differences, and the number of runs and
 * the longest run of each.  (An RLE stream's run values are the values
 * themselves, so its value base and width are FOR's.)  The choice is the
 * same as computing each candidate's statistics separately.
 */
static void
plan_stream(const uint64 *values, uint64 n, IntPlan *plan, bool want_deltas)
{
	int64		vmin = PG_INT64_MAX,
				vmax = PG_INT64_MIN;
	int64		dmin = PG_INT64_MAX,
				dmax = PG_INT64_MIN;
	uint64		vruns = 0,
				vmaxlen = 0,
				vlen = 0;
	uint64		druns = 0,
				dmaxlen = 0,
				dlen = 0;
	uint64		prevd = 0;
	uint64		size;
	uint64		i;

	memset(plan, 0, sizeof(*plan));
	if (n > 0)
	{
		vmin = vmax = (int64) values[0];
		vruns = 1;
	}
	if (n >= 2)
	{
		prevd = values[1] - values[0];
		dmin = dmax = (int64) prevd;
		druns = 1;
	}

	/*
	 * vlen and dlen are the length - 1 of the current run of values and of
	 * differences; the loop has no data-dependent branch (random data would
	 * mispredict them).
	 */
	for (i = 1; i < n; i++)
	{
		uint64		v = values[i];
		uint64		prev = values[i - 1];
		uint64		d = v - prev;	/* difference i - 1 */
		bool		same = (v == prev);

		vmin = Min(vmin, (int64) v);
		vmax = Max(vmax, (int64) v);
		vruns += !same;
		vlen = same ? vlen + 1 : 0;
		vmaxlen = Max(vmaxlen, vlen);
		if (i >= 2)
		{
			bool		dsame = (d == prevd);

			dmin = Min(dmin, (int64) d);
			dmax = Max(dmax, (int64) d);
			druns += !dsame;
			dlen = dsame ? dlen + 1 : 0;
			dmaxlen = Max(dmaxlen, dlen);
			prevd = d;
		}
	}
	if (n > 0)
	{
		plan->fst.base = (uint64) vmin;
		plan->fst.width = bitpack_width((uint64) vmax - (uint64) vmin);
	}
	plan->rst.nruns = vruns;
	plan->rst.len_width = bitpack_width(vmaxlen);
	plan->rst.vbase = plan->fst.base;
	plan->rst.vwidth = plan->fst.width;

	plan->kind = CHUNK_ENCODING_FOR;
	plan->size = for_size(n, &plan->fst);

	if (n >= 2)
	{
		uint64		dsize;

		plan->dfst.base = (uint64) dmin;
		plan->dfst.width = bitpack_width((uint64) dmax - (uint64) dmin);
		plan->drst.nruns = druns;
		plan->drst.len_width = bitpack_width(dmaxlen);
		plan->drst.vbase = plan->dfst.base;
		plan->drst.vwidth = plan->dfst.width;
		plan->dkind = CHUNK_ENCODING_FOR;
		dsize = for_size(n - 1, &plan->dfst);
		if (rle_size(&plan->drst) < dsize)
		{
			plan->dkind = CHUNK_ENCODING_RLE;
			dsize = rle_size(&plan->drst);
		}
		size = DELTA_HEADER_SIZE + dsize;
		if (size < plan->size)
		{
			plan->kind = CHUNK_ENCODING_DELTA;
			plan->size = size;
		}
	}

	size = rle_size(&plan->rst);
	if (size < plan->size)
	{
		plan->kind = CHUNK_ENCODING_RLE;
		plan->size = size;
	}

#ifdef USE_ASSERT_CHECKING
	check_plan(values, n, plan);
#endif
	if (want_deltas && plan->kind == CHUNK_ENCODING_DELTA)
	{
		plan->deltas = alloc_array(n - 1, sizeof(uint64));
		for (i = 0; i + 1 < n; i++)
			plan->deltas[i] = values[i + 1] - values[i];
	}
}

/*
 * intenc_best_size
 *		Size in bytes of the stream intenc_encode would write for values,
 *		and (if kind is not NULL) the kind it would choose.
 */
uint64
intenc_best_size(const uint64 *values, uint64 n, uint8 *kind)
{
	IntPlan		plan;

	plan_stream(values, n, &plan, false);
	if (kind)
		*kind = plan.kind;
	return plan.size;
}

/* Append the stream plan_stream chose for values[0..n-1]; frees its deltas. */
static void
write_planned(EncBuf *buf, const uint64 *values, uint64 n, IntPlan *plan)
{
	switch (plan->kind)
	{
		case CHUNK_ENCODING_FOR:
			write_for(buf, values, n, &plan->fst);
			break;
		case CHUNK_ENCODING_RLE:
			write_rle(buf, values, n, &plan->rst);
			break;
		case CHUNK_ENCODING_DELTA:
			encbuf_u8(buf, CHUNK_ENCODING_DELTA);
			encbuf_u64(buf, values[0]);
			if (plan->dkind == CHUNK_ENCODING_FOR)
				write_for(buf, plan->deltas, n - 1, &plan->dfst);
			else
				write_rle(buf, plan->deltas, n - 1, &plan->drst);
			break;
	}
	if (plan->deltas)
		pfree(plan->deltas);
}

/*
 * intenc_encode
 *		Append the smallest integer stream for values[0..n-1] to buf and
 *		return the kind written (CHUNK_ENCODING_FOR, _DELTA or _RLE).
 */
uint8
intenc_encode(EncBuf *buf, const uint64 *values, uint64 n)
{
	IntPlan		plan;

	plan_stream(values, n, &plan, true);
	write_planned(buf, values, n, &plan);
	return plan.kind;
}

/*
 * intenc_encode_within
 *		intenc_encode if the stream takes at most limit bytes (the size
 *		intenc_best_size would report); otherwise append nothing and return
 *		0.  Plans once where intenc_best_size then intenc_encode plan twice.
 */
uint8
intenc_encode_within(EncBuf *buf, const uint64 *values, uint64 n, uint64 limit)
{
	IntPlan		plan;

	plan_stream(values, n, &plan, false);
	if (plan.size > limit)
		return 0;
	if (plan.kind == CHUNK_ENCODING_DELTA)
	{
		uint64		i;

		plan.deltas = alloc_array(n - 1, sizeof(uint64));
		for (i = 0; i + 1 < n; i++)
			plan.deltas[i] = values[i + 1] - values[i];
	}
	write_planned(buf, values, n, &plan);
	return plan.kind;
}

/*
 * intenc_encode_bytes
 *		Append a stream of kind (FOR, or DELTA over FOR) for values[0..n-1]
 *		with its bit-packed values widened to a whole number of bytes, and
 *		return kind; a general-purpose codec then sees the bytes the values
 *		repeat, which bit-packing hides.  Appends nothing and returns 0 if
 *		the narrowest width is whole bytes already (the stream intenc_encode
 *		writes is as good) or above INTENC_BYTES_MAX_WIDTH, or a DELTA has
 *		fewer than two values.
 */
uint8
intenc_encode_bytes(EncBuf *buf, const uint64 *values, uint64 n, uint8 kind)
{
	IntPlan		plan;
	ForStats   *fst;
	uint64		i;

	plan_stream(values, n, &plan, false);
	if (kind == CHUNK_ENCODING_FOR)
		fst = &plan.fst;
	else
	{
		Assert(kind == CHUNK_ENCODING_DELTA);
		if (n < 2)
			return 0;
		fst = &plan.dfst;
		plan.dkind = CHUNK_ENCODING_FOR;
	}
	/* wider values are too varied for the codec to find repeated bytes */
	if (fst->width % 8 == 0 || fst->width > INTENC_BYTES_MAX_WIDTH)
		return 0;
	fst->width = (fst->width + 7) / 8 * 8;
	plan.kind = kind;
	if (kind == CHUNK_ENCODING_DELTA)
	{
		plan.deltas = alloc_array(n - 1, sizeof(uint64));
		for (i = 0; i + 1 < n; i++)
			plan.deltas[i] = values[i + 1] - values[i];
	}
	write_planned(buf, values, n, &plan);
	return kind;
}

/* Read a width byte and the packed bytes for count values. */
static bool
read_packed(ByteReader *r, uint64 count, int *width, const uint8 **packed)
{
	uint8		w;

	if (!reader_u8(r, &w) || w > 64)
		return false;
	*width = w;
	*packed = reader_take(r, bitpack_size(count, w));
	return *packed != NULL;
}

/* Length of run i of an RLE part (0 only for a corrupt stream). */
static inline uint64
rle_run_length(const IntPart *p, uint64 i)
{
	return bitpack_get(p->lpacked, p->nruns, p->lwidth, i) + 1;
}

/* Value of run i of an RLE part. */
static inline uint64
rle_run_value(const IntPart *p, uint64 i)
{
	return p->base + bitpack_get(p->packed, p->nruns, p->width, i);
}

/*
 * intenc_constant
 *		Does the parsed stream (n > 0) hold one value n times, as its
 *		encoding shows without reading the values (frame of reference of
 *		width 0, or a single run)?  If so, *value is that value.  False
 *		does not mean the values differ.
 */
bool
intenc_constant(const IntStream *s, uint64 *value)
{
	const IntPart *p = &s->part;

	if (s->n == 0 || s->kind == CHUNK_ENCODING_DELTA)
		return false;
	if (p->kind == CHUNK_ENCODING_FOR && p->width == 0)
		*value = p->base;
	else if (p->kind == CHUNK_ENCODING_RLE && p->nruns == 1)
		*value = rle_run_value(p, 0);
	else
		return false;
	return true;
}

/*
 * parse_rle
 *		Parse the body of an RLE stream (after the kind byte) of n values,
 *		checking run count and run lengths against n.
 */
static bool
parse_rle(ByteReader *r, uint64 n, IntPart *p, const char **detail)
{
	uint32		nruns;
	uint8		lw;
	uint8		vw;
	uint64		vbase;
	uint64		pos = 0;
	uint64		i;

	if (!reader_u32(r, &nruns) || !reader_u8(r, &lw) ||
		!reader_u64(r, &vbase) || !reader_u8(r, &vw))
	{
		*detail = "truncated run-length stream";
		return false;
	}
	if (lw > 64 || vw > 64 || nruns > n || (n > 0 && nruns == 0))
	{
		*detail = "invalid run-length stream header";
		return false;
	}
	p->nruns = nruns;
	p->lwidth = lw;
	p->base = vbase;
	p->width = vw;
	p->lpacked = reader_take(r, bitpack_size(nruns, lw));
	p->packed = reader_take(r, bitpack_size(nruns, vw));
	if (p->lpacked == NULL || p->packed == NULL)
	{
		*detail = "truncated run-length stream";
		return false;
	}
	for (i = 0; i < nruns; i++)
	{
		uint64		len = rle_run_length(p, i);

		if (len == 0 || len > n - pos)
		{
			*detail = "run lengths do not match value count";
			return false;
		}
		pos += len;
	}
	if (pos != n)
	{
		*detail = "run lengths do not match value count";
		return false;
	}
	return true;
}

/*
 * parse_part
 *		Parse a FOR or RLE stream of n values, kind byte included.  nested is
 *		true for the differences inside a DELTA stream, where a DELTA kind
 *		is reported as invalid rather than unknown.
 */
static bool
parse_part(ByteReader *r, uint64 n, IntPart *p, uint8 kind, bool nested,
		   const char **detail)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->n = n;
	switch (kind)
	{
		case CHUNK_ENCODING_FOR:
			if (!reader_u64(r, &p->base) ||
				!read_packed(r, n, &p->width, &p->packed))
			{
				*detail = "truncated or invalid frame-of-reference stream";
				return false;
			}
			return true;
		case CHUNK_ENCODING_RLE:
			return parse_rle(r, n, p, detail);
		case CHUNK_ENCODING_DELTA:
			if (nested)
			{
				*detail = "invalid delta stream";
				return false;
			}
			break;
		default:
			break;
	}
	*detail = "unknown integer stream kind";
	return false;
}

/*
 * intenc_parse
 *		Parse and validate an integer stream of n values at the reader's
 *		position, advancing the reader past it.  Every width, packed length,
 *		run count and run length is checked, so that reading the stream
 *		afterwards (intenc_iter_read, intenc_get) cannot fail or read outside
 *		it.  Returns false with *detail set if the stream is malformed or
 *		truncated.
 */
bool
intenc_parse(ByteReader *r, uint64 n, IntStream *s, const char **detail)
{
	uint8		kind;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!reader_u8(r, &kind))
	{
		*detail = "truncated integer stream";
		return false;
	}
	s->kind = kind;
	if (kind != CHUNK_ENCODING_DELTA)
		return parse_part(r, n, &s->part, kind, false, detail);

	if (n == 0)
	{
		*detail = "invalid delta stream";
		return false;
	}
	if (!reader_u64(r, &s->first))
	{
		*detail = "truncated delta stream";
		return false;
	}
	if (!reader_u8(r, &kind))
	{
		*detail = "truncated integer stream";
		return false;
	}
	return parse_part(r, n - 1, &s->part, kind, true, detail);
}

/* Read count values of a part from the iterator's part position. */
static void
part_read(IntStreamIter *it, uint64 *out, uint64 count)
{
	const IntPart *p = &it->s->part;

	if (p->kind == CHUNK_ENCODING_FOR)
	{
		bitpack_unpack_range(p->packed, p->n, p->width, it->ppos, count,
							 p->base, out);
		it->ppos += count;
		return;
	}
	it->ppos += count;
	while (count > 0)
	{
		uint64		take;
		uint64		v;
		uint64		j;

		if (it->run_left == 0)
		{
			Assert(it->run < p->nruns);
			it->run_left = rle_run_length(p, it->run);
			it->run_value = rle_run_value(p, it->run);
			it->run++;
		}
		take = Min(count, it->run_left);
		v = it->run_value;
		for (j = 0; j < take; j++)
			out[j] = v;
		out += take;
		count -= take;
		it->run_left -= take;
	}
}

/*
 * part_seek
 *		Position the iterator's part at value ppos (< part n), using the RLE
 *		index: at most one block's worth of runs is walked.
 */
static void
part_seek(IntStreamIter *it, uint64 ppos)
{
	const IntPart *p = &it->s->part;
	uint32		run;
	uint64		start;

	Assert(ppos < p->n);
	it->ppos = ppos;
	if (p->kind == CHUNK_ENCODING_FOR)
		return;
	Assert(p->cp_run != NULL && !p->by_run);
	run = p->cp_run[ppos / INTENC_BLOCK];
	start = p->cp_start[ppos / INTENC_BLOCK];
	for (;;)
	{
		uint64		len = rle_run_length(p, run);

		if (ppos < start + len)
		{
			it->run_left = start + len - ppos;
			it->run_value = rle_run_value(p, run);
			it->run = run + 1;
			return;
		}
		start += len;
		run++;
	}
}

/* Start a sequential pass over a parsed stream. */
void
intenc_iter_init(IntStreamIter *it, const IntStream *s)
{
	memset(it, 0, sizeof(*it));
	it->s = s;
}

/*
 * intenc_iter_read
 *		Produce the next count values of the stream (count <= values left)
 *		into out[0..count-1].
 */
void
intenc_iter_read(IntStreamIter *it, uint64 *out, uint64 count)
{
	uint64		k = 0;
	uint64		j;

	Assert(count <= it->s->n - it->pos);
	if (count == 0)
		return;
	if (it->s->kind != CHUNK_ENCODING_DELTA)
	{
		part_read(it, out, count);
		it->pos += count;
		return;
	}

	/* value 0 is the first value, value i > 0 adds difference i - 1 */
	if (it->pos == 0)
	{
		out[0] = it->s->first;
		it->prev = out[0];
		k = 1;
	}
	if (it->s->part.kind == CHUNK_ENCODING_FOR && it->s->part.width == 0)
	{
		/* constant differences (sequences): no differences to unpack */
		uint64		step = it->s->part.base;
		uint64		prev = it->prev;

		for (j = k; j < count; j++)
		{
			prev += step;
			out[j] = prev;
		}
		it->prev = prev;
		it->ppos += count - k;
	}
	else
	{
		/* a local running value: it->prev could alias out[] */
		uint64		prev = it->prev;

		part_read(it, out + k, count - k);
		for (j = k; j < count; j++)
		{
			prev += out[j];
			out[j] = prev;
		}
		it->prev = prev;
	}
	it->pos += count;
}

/*
 * iter_seek_block
 *		Position a fresh iterator at the first value of a block, using the
 *		stream's random-access index.
 */
static void
iter_seek_block(IntStreamIter *it, uint64 block)
{
	uint64		pos = block * INTENC_BLOCK;

	it->pos = pos;
	if (pos == 0)
		return;
	if (it->s->kind != CHUNK_ENCODING_DELTA)
		part_seek(it, pos);
	else
	{
		it->prev = it->s->cp_prev[block];
		part_seek(it, pos - 1);
	}
}

/* Does the stream read values directly (no block decoding, no index)? */
static inline bool
delta_is_constant(const IntStream *s)
{
	return s->kind == CHUNK_ENCODING_DELTA &&
		s->part.kind == CHUNK_ENCODING_FOR && s->part.width == 0;
}

/*
 * intenc_build_index
 *		Build the random-access index of a parsed stream in
 *		CurrentMemoryContext and return the bytes allocated.
 *
 * An RLE part with at most one run per block on average gets each run's
 * first position (lookups search it); otherwise each block gets the run
 * holding its first value.  A DELTA stream gets the sum of the differences
 * before each run of an RLE part indexed by run, else the value just before
 * each block; constant differences and FOR streams need nothing.
 */
Size
intenc_build_index(IntStream *s)
{
	IntPart    *p = &s->part;
	Size		bytes = 0;

	if (p->kind == CHUNK_ENCODING_RLE && p->n > 0)
	{
		uint64		nblocks = (p->n + INTENC_BLOCK - 1) / INTENC_BLOCK;
		uint64		start = 0;
		uint64		b = 0;
		uint32		run;

		p->by_run = p->nruns <= nblocks;
		if (p->by_run)
			p->cp_start = alloc_array(p->nruns, sizeof(uint64));
		else
		{
			p->cp_run = alloc_array(nblocks, sizeof(uint32));
			p->cp_start = alloc_array(nblocks, sizeof(uint64));
			bytes += GetMemoryChunkSpace(p->cp_run);
		}
		bytes += GetMemoryChunkSpace(p->cp_start);
		for (run = 0; run < p->nruns; run++)
		{
			uint64		end = start + rle_run_length(p, run);

			if (p->by_run)
				p->cp_start[run] = start;
			for (; !p->by_run && b < nblocks && b * INTENC_BLOCK < end; b++)
			{
				p->cp_run[b] = run;
				p->cp_start[b] = start;
			}
			start = end;
		}
	}
	if (s->kind == CHUNK_ENCODING_DELTA && !delta_is_constant(s) &&
		p->by_run)
	{
		uint64		sum = 0;
		uint32		run;

		s->cp_prev = alloc_array(p->nruns, sizeof(uint64));
		bytes += GetMemoryChunkSpace(s->cp_prev);
		for (run = 0; run < p->nruns; run++)
		{
			s->cp_prev[run] = sum;
			sum += rle_run_length(p, run) * rle_run_value(p, run);
		}
	}
	else if (s->kind == CHUNK_ENCODING_DELTA && !delta_is_constant(s))
	{
		uint64		nblocks = (s->n + INTENC_BLOCK - 1) / INTENC_BLOCK;
		uint64		buf[INTENC_BLOCK];
		IntStreamIter it;
		uint64		b;

		s->cp_prev = alloc_array(nblocks, sizeof(uint64));
		bytes += GetMemoryChunkSpace(s->cp_prev);
		s->cp_prev[0] = s->first;	/* unused: block 0 starts at first */
		intenc_iter_init(&it, s);
		for (b = 1; b < nblocks; b++)
		{
			intenc_iter_read(&it, buf, INTENC_BLOCK);
			s->cp_prev[b] = it.prev;
		}
	}
	return bytes;
}

/* Run of an RLE part indexed by run that holds position pos. */
static inline uint32
find_run(const IntPart *p, uint64 pos)
{
	uint32		lo = 0;
	uint32		hi = p->nruns - 1;

	/* the last run starting at or before pos; run 0 starts at 0 */
	while (lo < hi)
	{
		uint32		mid = lo + (hi - lo + 1) / 2;

		if (p->cp_start[mid] <= pos)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/*
 * intenc_get
 *		Value index (< n) of a parsed stream whose index has been built.
 *
 * FOR streams, constant differences and RLE parts indexed by run are read
 * directly (the latter after a binary search of the runs); otherwise the
 * value's block is decoded up to the value (at most INTENC_BLOCK values,
 * at most as many runs).
 */
uint64
intenc_get(const IntStream *s, uint64 index)
{
	const IntPart *p = &s->part;
	IntStreamIter it;
	uint64		buf[INTENC_BLOCK];

	Assert(index < s->n);
	if (s->kind == CHUNK_ENCODING_FOR)
		return p->base + bitpack_get(p->packed, p->n, p->width, index);
	if (delta_is_constant(s))
		return s->first + index * p->base;
	if (p->by_run)
	{
		uint32		run;

		if (s->kind == CHUNK_ENCODING_RLE)
			return rle_run_value(p, find_run(p, index));
		/* DELTA: differences 0 .. index - 1 are summed */
		if (index == 0)
			return s->first;
		run = find_run(p, index - 1);
		return s->first + s->cp_prev[run] +
			(index - p->cp_start[run]) * rle_run_value(p, run);
	}

	intenc_iter_init(&it, s);
	iter_seek_block(&it, index / INTENC_BLOCK);
	intenc_iter_read(&it, buf, index % INTENC_BLOCK + 1);
	return buf[index % INTENC_BLOCK];
}
