/*-------------------------------------------------------------------------
 *
 * integer_encoding.h
 *	  Integer streams: frame-of-reference, delta and run-length encoding of
 *	  arrays of 64-bit integers.
 *
 * IDENTIFICATION
 *	  src/encoding/integer_encoding.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_INTEGER_ENCODING_H
#define COLSTORE_INTEGER_ENCODING_H

#include "postgres.h"

#include "encoding/chunk_encoding.h"
#include "encoding/encoding_internal.h"

/* Values per block of the random-access index and of sequential passes. */
#define INTENC_BLOCK		128

/*
 * One FOR or RLE stream: a whole stream, or the differences of a DELTA
 * stream.  Pointers point into the parsed buffer.
 */
typedef struct IntPart
{
	uint8		kind;			/* CHUNK_ENCODING_FOR or _RLE */
	uint64		n;				/* values */
	uint64		base;			/* FOR base, RLE value base */
	int			width;			/* FOR width, RLE value width */
	const uint8 *packed;		/* FOR values, RLE run values */
	uint32		nruns;			/* RLE: runs */
	int			lwidth;			/* RLE: width of (run length - 1) */
	const uint8 *lpacked;		/* RLE: packed run lengths - 1 */

	/*
	 * RLE random-access index (intenc_build_index): one entry per run when
	 * there are at most as many runs as blocks, else one per block.
	 */
	bool		by_run;
	uint32	   *cp_run;			/* per block: run holding its first value */
	uint64	   *cp_start;		/* per block: that run's first position; per
								 * run: its first position */
} IntPart;

/* A parsed integer stream (intenc_parse), validated as a whole. */
typedef struct IntStream
{
	uint8		kind;			/* CHUNK_ENCODING_FOR, _DELTA or _RLE */
	uint64		n;				/* values */
	uint64		first;			/* DELTA: first value */
	IntPart		part;			/* the stream, or DELTA's n - 1 differences */

	/*
	 * DELTA random-access index: the value just before each block (block >=
	 * 1), or, over an RLE part indexed by run, the sum of the differences
	 * before each run; none when the differences are constant.
	 */
	uint64	   *cp_prev;
} IntStream;

/* Sequential reader of a parsed stream. */
typedef struct IntStreamIter
{
	const IntStream *s;
	uint64		pos;			/* next value to produce */
	uint64		prev;			/* DELTA: value pos - 1 (pos > 0) */
	uint64		ppos;			/* next value of the part */
	uint32		run;			/* RLE: next run to load */
	uint64		run_left;		/* RLE: values left in the loaded run */
	uint64		run_value;		/* RLE: the loaded run's value */
} IntStreamIter;

extern uint64 intenc_best_size(const uint64 *values, uint64 n, uint8 *kind);
extern uint8 intenc_encode(EncBuf *buf, const uint64 *values, uint64 n);
extern uint8 intenc_encode_within(EncBuf *buf, const uint64 *values, uint64 n,
								  uint64 limit);

/* Widest bit-packing intenc_encode_bytes widens to whole bytes. */
#define INTENC_BYTES_MAX_WIDTH	16

extern uint8 intenc_encode_bytes(EncBuf *buf, const uint64 *values,
								 uint64 n, uint8 kind);
extern bool intenc_parse(ByteReader *r, uint64 n, IntStream *s,
						 const char **detail);
extern void intenc_iter_init(IntStreamIter *it, const IntStream *s);
extern void intenc_iter_read(IntStreamIter *it, uint64 *out, uint64 count);
extern Size intenc_build_index(IntStream *s);
extern uint64 intenc_get(const IntStream *s, uint64 index);
extern bool intenc_constant(const IntStream *s, uint64 *value);

/*
 * intenc_iter_batch
 *		Next batch of a sequential pass: everything left, into all + pos, if
 *		the caller keeps the values in all[0..n-1]; otherwise at most one
 *		block, into buf[0..INTENC_BLOCK-1].  Sets *vals to the values and
 *		returns their count (0 at the end).
 */
static inline uint64
intenc_iter_batch(IntStreamIter *it, uint64 *all, uint64 *buf, uint64 **vals)
{
	uint64		left = it->s->n - it->pos;
	uint64		count = all ? left : Min(left, INTENC_BLOCK);

	*vals = all ? all + it->pos : buf;
	intenc_iter_read(it, *vals, count);
	return count;
}

/* Conversions between pass-by-value datums and sign-extended integers. */
static inline uint64
intenc_datum_to_u64(Datum d, int typlen)
{
	switch (typlen)
	{
		case 1:
			return (uint64) (int64) (int8) (DatumGetUInt8(d));
		case 2:
			return (uint64) (int64) DatumGetInt16(d);
		case 4:
			return (uint64) (int64) DatumGetInt32(d);
		default:
			return (uint64) DatumGetInt64(d);
	}
}

/* Same datum a heap tuple's fetch_att() would produce for these bytes. */
static inline Datum
intenc_u64_to_datum(uint64 v, int typlen)
{
	switch (typlen)
	{
		case 1:
			return CharGetDatum((char) (int8) v);
		case 2:
			return Int16GetDatum((int16) v);
		case 4:
			return Int32GetDatum((int32) v);
		default:
			return Int64GetDatum((int64) v);
	}
}

/* Datum of a plain typlen-byte pass-by-value value stored at p. */
static inline Datum
intenc_plain_datum(const uint8 *p, int typlen)
{
	switch (typlen)
	{
		case 1:
			return CharGetDatum((char) p[0]);
		case 2:
			{
				int16		v;

				memcpy(&v, p, 2);
				return Int16GetDatum(v);
			}
		case 4:
			{
				int32		v;

				memcpy(&v, p, 4);
				return Int32GetDatum(v);
			}
		default:
			{
				int64		v;

				memcpy(&v, p, 8);
				return Int64GetDatum(v);
			}
	}
}

#endif							/* COLSTORE_INTEGER_ENCODING_H */
