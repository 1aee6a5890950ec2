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
 * The decoder checks every width (0..64), every packed length against the
 * input, the run count and the sum of run lengths against n.
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

/* Bytes of a FOR stream of n values with these stats. */
static uint64
for_size(uint64 n, const ForStats *st)
{
	return FOR_HEADER_SIZE + bitpack_size(n, st->width);
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

/*
 * plan_stream
 *		Compute the size of every candidate kind for values[0..n-1] and pick
 *		the smallest.  If want_deltas, the differences array computed for
 *		the DELTA candidate is kept in plan->deltas (caller frees); otherwise
 *		it is freed here.
 */
static void
plan_stream(const uint64 *values, uint64 n, IntPlan *plan, bool want_deltas)
{
	uint64		size;

	memset(plan, 0, sizeof(*plan));
	for_stats(values, n, &plan->fst);
	plan->kind = CHUNK_ENCODING_FOR;
	plan->size = for_size(n, &plan->fst);

	if (n >= 2)
	{
		uint64	   *deltas = alloc_array(n - 1, sizeof(uint64));
		uint64		dsize;
		uint64		i;

		for (i = 0; i + 1 < n; i++)
			deltas[i] = values[i + 1] - values[i];
		for_stats(deltas, n - 1, &plan->dfst);
		rle_stats(deltas, n - 1, &plan->drst);
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
		if (want_deltas)
			plan->deltas = deltas;
		else
			pfree(deltas);
	}

	rle_stats(values, n, &plan->rst);
	size = rle_size(&plan->rst);
	if (size < plan->size)
	{
		plan->kind = CHUNK_ENCODING_RLE;
		plan->size = size;
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
	switch (plan.kind)
	{
		case CHUNK_ENCODING_FOR:
			write_for(buf, values, n, &plan.fst);
			break;
		case CHUNK_ENCODING_RLE:
			write_rle(buf, values, n, &plan.rst);
			break;
		case CHUNK_ENCODING_DELTA:
			encbuf_u8(buf, CHUNK_ENCODING_DELTA);
			encbuf_u64(buf, values[0]);
			if (plan.dkind == CHUNK_ENCODING_FOR)
				write_for(buf, plan.deltas, n - 1, &plan.dfst);
			else
				write_rle(buf, plan.deltas, n - 1, &plan.drst);
			break;
	}
	if (plan.deltas)
		pfree(plan.deltas);
	return plan.kind;
}

/* Read a width byte and the packed bytes for count values. */
static bool
read_packed(ChunkReader *r, uint64 count, int *width, const uint8 **packed)
{
	uint8		w;

	if (!reader_u8(r, &w) || w > 64)
		return false;
	*width = w;
	*packed = reader_take(r, bitpack_size(count, w));
	return *packed != NULL;
}

/*
 * decode_rle
 *		Decode the body of an RLE stream (after the kind byte) into
 *		out[0..n-1], checking run count and run lengths against n.
 */
static bool
decode_rle(ChunkReader *r, uint64 n, uint64 *out, const char **detail)
{
	uint32		nruns;
	uint8		lw;
	uint8		vw;
	uint64		vbase;
	const uint8 *lpacked;
	const uint8 *vpacked;
	uint64	   *lens;
	uint64	   *vals;
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
	lpacked = reader_take(r, bitpack_size(nruns, lw));
	vpacked = reader_take(r, bitpack_size(nruns, vw));
	if (lpacked == NULL || vpacked == NULL)
	{
		*detail = "truncated run-length stream";
		return false;
	}

	lens = alloc_array(nruns, sizeof(uint64));
	vals = alloc_array(nruns, sizeof(uint64));
	bitpack_unpack(lpacked, nruns, lw, 1, lens);
	bitpack_unpack(vpacked, nruns, vw, vbase, vals);
	for (i = 0; i < nruns; i++)
	{
		uint64		len = lens[i];
		uint64		v = vals[i];
		uint64		j;

		if (len == 0 || len > n - pos)
		{
			pfree(lens);
			pfree(vals);
			*detail = "run lengths do not match value count";
			return false;
		}
		for (j = 0; j < len; j++)
			out[pos + j] = v;
		pos += len;
	}
	pfree(lens);
	pfree(vals);
	if (pos != n)
	{
		*detail = "run lengths do not match value count";
		return false;
	}
	return true;
}

/*
 * decode_stream
 *		Decode one integer stream of n values into out[0..n-1].  nested is
 *		true for the differences inside a DELTA stream, where only FOR and
 *		RLE are allowed.
 */
static bool
decode_stream(ChunkReader *r, uint64 n, uint64 *out, bool nested,
			  const char **detail)
{
	uint8		kind;

	if (!reader_u8(r, &kind))
	{
		*detail = "truncated integer stream";
		return false;
	}
	switch (kind)
	{
		case CHUNK_ENCODING_FOR:
			{
				uint64		base;
				int			width;
				const uint8 *packed;

				if (!reader_u64(r, &base) ||
					!read_packed(r, n, &width, &packed))
				{
					*detail = "truncated or invalid frame-of-reference stream";
					return false;
				}
				bitpack_unpack(packed, n, width, base, out);
				return true;
			}

		case CHUNK_ENCODING_RLE:
			return decode_rle(r, n, out, detail);

		case CHUNK_ENCODING_DELTA:
			{
				uint64		first;
				uint64		i;

				if (nested || n == 0)
				{
					*detail = "invalid delta stream";
					return false;
				}
				if (!reader_u64(r, &first))
				{
					*detail = "truncated delta stream";
					return false;
				}
				if (!decode_stream(r, n - 1, out + 1, true, detail))
					return false;
				out[0] = first;
				for (i = 1; i < n; i++)
					out[i] += out[i - 1];
				return true;
			}

		default:
			*detail = "unknown integer stream kind";
			return false;
	}
}

/*
 * intenc_decode
 *		Decode an integer stream of n values at the reader's position into
 *		out[0..n-1], advancing the reader past it.  Returns false with
 *		*detail set if the stream is malformed or truncated.
 */
bool
intenc_decode(ChunkReader *r, uint64 n, uint64 *out, const char **detail)
{
	return decode_stream(r, n, out, false, detail);
}
