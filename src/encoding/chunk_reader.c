/*-------------------------------------------------------------------------
 *
 * chunk_reader.c
 *	  Random access to the values of one chunk image without decoding the
 *	  whole chunk.
 *
 * Point lookups (index scans) need one value of a chunk per column.
 * ChunkReaderOpen validates an image through the same path as DecodeChunk
 * (chunk_parse), which leaves the codec-decompressed region (always a
 * private copy) and a description of its streams, and then adds small
 * indexes:
 *
 *	null bitmap			the NULL count before each 64-value word (4 bytes
 *						per 64 values), so a row's position among the
 *						non-null values is one popcount away
 *	FOR streams			none: a value is read directly from the packed bits
 *	RLE and DELTA		an index built by intenc_build_index: with few
 *	streams				long runs, one entry per run (a binary search
 *						finds the run); otherwise one entry per block of
 *						INTENC_BLOCK values, so a lookup decodes at most
 *						one block.  DELTA streams of constant differences
 *						(sequences) need no index at all.
 *	plain varlena and	the offset of each value's content (4 bytes per
 *	cstring values		value, 8 beyond 4 GB of content)
 *	dictionaries		offsets of the distinct values, plus the index of
 *						the codes' stream
 *	scaled numerics		the indexes of the display scale and value streams
 *
 * So a reader holds about the decompressed payload plus a few bytes per 128
 * values, and 4 bytes per value for plain variable-length values; no value
 * is materialized until asked for.  ChunkReaderGetValue returns exactly the
 * datum DecodeChunk returns for the same row: pass-by-value datums are
 * built the same way, pass-by-reference ones are built by the same code
 * (byref_materialize_one, build_numeric) into their own allocation.
 *
 * IDENTIFICATION
 *	  src/encoding/chunk_reader.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "port/pg_bitutils.h"
#include "port/pg_bswap.h"

#include "encoding/bitpack.h"
#include "encoding/chunk_encoding.h"
#include "encoding/chunk_parse.h"

struct ChunkReader
{
	ChunkTypeInfo type;
	int			nvalues;
	ParsedChunk pc;				/* validated image, indexes built */
	uint32	   *null_rank;		/* NULLs before each 64-value word */
	Size		memory;			/* bytes held, for ChunkReaderMemory */
};

/* Word w of the null bitmap (bits of values 64w .. 64w + 63). */
static inline uint64
bitmap_word(const ChunkReader *reader, uint64 w)
{
	const uint8 *bm = reader->pc.bitmap;
	Size		bmlen = ((Size) reader->nvalues + 7) / 8;
	Size		first = (Size) w * 8;
	Size		last = Min(first + 8, bmlen);
	uint64		word = 0;
	Size		i;

	for (i = first; i < last; i++)
		word |= (uint64) bm[i] << ((i - first) * 8);
	return word;
}

/*
 * ChunkReaderOpen
 *		Validate an image exactly as DecodeChunk does and prepare it for
 *		random access; see chunk_encoding.h for the contract.
 */
ChunkReader *
ChunkReaderOpen(const ChunkTypeInfo *type, const char *data, Size len,
				int nvalues, const char **detail)
{
	ChunkReader *reader;
	ChunkPayload *pl;

	reader = palloc0(sizeof(ChunkReader));
	if (!chunk_parse(type, data, len, nvalues, true, &reader->pc, detail))
	{
		pfree(reader);
		return NULL;
	}
	reader->type = *type;
	reader->nvalues = nvalues;
	reader->memory = GetMemoryChunkSpace(reader);
	if (reader->pc.region_owned)
		reader->memory += GetMemoryChunkSpace(reader->pc.region);
	if (reader->pc.encoding == CHUNK_ENCODING_ALL_NULL)
		return reader;

	if (reader->pc.bitmap != NULL)
	{
		uint64		nwords = ((uint64) nvalues + 63) / 64;
		uint64		w;
		uint32		nulls = 0;

		reader->null_rank = palloc(sizeof(uint32) * nwords);
		reader->memory += GetMemoryChunkSpace(reader->null_rank);
		for (w = 0; w < nwords; w++)
		{
			reader->null_rank[w] = nulls;
			nulls += pg_popcount64(bitmap_word(reader, w));
		}
	}

	pl = &reader->pc.payload;
	if (type_is_intlike(type))
	{
		if (pl->encoding != CHUNK_ENCODING_PLAIN)
			reader->memory += intenc_build_index(&pl->u.ints);
	}
	else if (pl->encoding == CHUNK_ENCODING_PLAIN)
		reader->memory += byref_build_offsets(type, &pl->u.byref);
	else if (pl->encoding == CHUNK_ENCODING_DICTIONARY)
		reader->memory += dict_build_index(type, &pl->u.dict);
	else if (pl->encoding == CHUNK_ENCODING_WORDS)
		reader->memory += word_build_index(type, &pl->u.words);
	else
		reader->memory += numeric_build_index(&pl->u.num);
	return reader;
}

/*
 * ChunkReaderGetValue
 *		Value of row index of an open reader; see chunk_encoding.h.
 */
Datum
ChunkReaderGetValue(ChunkReader *reader, int index, bool *isnull)
{
	const ChunkTypeInfo *type = &reader->type;
	const ChunkPayload *pl = &reader->pc.payload;
	uint64		k = (uint64) index;

	if (index < 0 || index >= reader->nvalues)
		elog(ERROR, "colstore chunk row %d out of range (%d rows)",
			 index, reader->nvalues);
	*isnull = true;
	if (reader->pc.encoding == CHUNK_ENCODING_ALL_NULL)
		return (Datum) 0;
	if (reader->pc.bitmap != NULL)
	{
		uint64		word = bitmap_word(reader, k / 64);
		int			bit = (int) (k % 64);

		if ((word >> bit) & 1)
			return (Datum) 0;
		/* position among the non-null values */
		k -= reader->null_rank[k / 64] +
			pg_popcount64(word & ((UINT64CONST(1) << bit) - 1));
	}
	*isnull = false;

	if (type_is_intlike(type))
	{
		if (pl->encoding == CHUNK_ENCODING_PLAIN)
			return intenc_plain_datum(pl->u.plain + k * type->typlen,
									  type->typlen);
		return intenc_u64_to_datum(intenc_get(&pl->u.ints, k), type->typlen);
	}
	switch (pl->encoding)
	{
		case CHUNK_ENCODING_PLAIN:
			return byref_materialize_one(type,
										 byref_plain_get(type, &pl->u.byref, k));
		case CHUNK_ENCODING_DICTIONARY:
			return dict_get(type, &pl->u.dict, k);
		case CHUNK_ENCODING_WORDS:
			return word_get(type, &pl->u.words, k);
		default:
			return numeric_get(&pl->u.num, k);
	}
}

/*
 * ChunkReaderScaled
 *		Is the chunk in the scaled-integer numeric encoding?  See
 *		chunk_encoding.h.
 */
bool
ChunkReaderScaled(const ChunkReader *reader, int *scale, int *nnulls)
{
	if (reader->pc.encoding != CHUNK_ENCODING_SCALED_NUMERIC)
		return false;
	*scale = reader->pc.payload.u.num.iscale;
	*nnulls = (int) reader->pc.nnulls;
	return true;
}

/*
 * Position of non-null row k among the non-null values of a reader whose
 * chunk has a null bitmap (row k must not be NULL).
 */
static inline uint64
NonNullPosition(const ChunkReader *reader, uint64 k)
{
	int			bit = (int) (k % 64);
	uint64		word = bitmap_word(reader, k / 64);

	return k - (reader->null_rank[k / 64] +
				pg_popcount64(word & ((UINT64CONST(1) << bit) - 1)));
}

/*
 * ChunkReaderGetScaledRows
 *		Rows rows[0 .. n - 1] of a reader ChunkReaderScaled accepts, without
 *		building numerics; see chunk_encoding.h.  The common form, values in
 *		a frame-of-reference stream of width <= 56 and one display scale,
 *		is read inline: one unaligned 64-bit load per value, as
 *		bitpack_get's fast path, where the value's eight bytes lie within
 *		the packed values; others through intenc_get.  The caller passes
 *		valid rows (the scan's), so they are only asserted.
 */
void
ChunkReaderGetScaledRows(const ChunkReader *reader, const int *rows, int n,
						 bool *done, int64 *values, int64 *dscales, bool *isnull)
{
	const ScaledNumeric *sn = &reader->pc.payload.u.num;
	const IntPart *vp = &sn->values.part;
	const uint8 *bitmap = reader->pc.bitmap;
	bool		direct = sn->values.kind == CHUNK_ENCODING_FOR && vp->width <= 56;
	uint64		fast_end = 0;	/* bytes from which a 64-bit load fits */
	uint64		mask = 0;
	uint64		dconst = 0;
	bool		dscale_constant = intenc_constant(&sn->dscales, &dconst);
	int			j;

	Assert(reader->pc.encoding == CHUNK_ENCODING_SCALED_NUMERIC);
	if (direct)
	{
		uint64		size = bitpack_size(vp->n, vp->width);

		fast_end = size >= 8 ? size - 8 : 0;
		mask = (UINT64CONST(1) << vp->width) - 1;
		direct = size >= 8;
	}
	for (j = 0; j < n; j++)
	{
		int			i = rows[j];
		uint64		k = (uint64) i;
		uint64		bitpos;

		Assert(i >= 0 && i < reader->nvalues);
		if (done[i])
			continue;
		done[i] = true;
		if (bitmap != NULL)
		{
			if (bitmap[k / 8] & (1 << (k % 8)))
			{
				isnull[i] = true;
				values[i] = dscales[i] = 0;
				continue;
			}
			k = NonNullPosition(reader, k);
		}
		isnull[i] = false;
		bitpos = k * (uint64) vp->width;
		if (direct && (bitpos >> 3) <= fast_end)
		{
			uint64		w;

			memcpy(&w, vp->packed + (bitpos >> 3), sizeof(w));
#ifdef WORDS_BIGENDIAN
			w = pg_bswap64(w);
#endif
			values[i] = (int64) (vp->base + ((w >> (bitpos & 7)) & mask));
		}
		else
			values[i] = (int64) intenc_get(&sn->values, k);
		dscales[i] = dscale_constant ? (int64) dconst :
			(int64) intenc_get(&sn->dscales, k);
	}
}

/* Bytes an open reader holds (for cache accounting). */
Size
ChunkReaderMemory(const ChunkReader *reader)
{
	return reader->memory;
}
