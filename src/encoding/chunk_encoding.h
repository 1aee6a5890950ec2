/*-------------------------------------------------------------------------
 *
 * chunk_encoding.h
 *	  Encoding and decoding of one column chunk: a run of values of one
 *	  column, turned into a self-contained, checksummed byte image.
 *
 * A chunk image is what the storage layer writes into the page stream and
 * later hands back byte for byte.  It starts with a ChunkImageHeader that
 * records everything needed to decode it (encoding, codec, value count,
 * lengths, CRC-32C), so a chunk can be decoded without any other metadata
 * except the column's type.  Encoding happens in two layers:
 *
 *	1. a lightweight encoding chosen per chunk by trying the candidates that
 *	   fit the type and keeping the smallest (plain, frame-of-reference
 *	   bit-packing, delta + bit-packing, run-length, dictionary, scaled
 *	   integers for numeric);
 *	2. a general-purpose codec (none, pglz, lz4, zstd) applied to the
 *	   encoded payload, kept only when it makes the payload smaller.
 *
 * NULLs are recorded in a bitmap; only non-null values are encoded.
 *
 * Decoding never trusts the image: every length, count and offset is
 * checked, and the CRC is verified first, so a corrupted image makes
 * DecodeChunk return false with a detail message, never crash or return
 * wrong values.  The caller turns that into an ERRCODE_DATA_CORRUPTED error
 * that names the relation, row group and column.
 *
 * IDENTIFICATION
 *	  src/encoding/chunk_encoding.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef CHUNK_ENCODING_H
#define CHUNK_ENCODING_H

#include "postgres.h"

/* General-purpose codecs; the numbers are stored on disk. */
typedef enum ColstoreCodec
{
	COLSTORE_CODEC_NONE = 0,
	COLSTORE_CODEC_PGLZ = 1,
	COLSTORE_CODEC_LZ4 = 2,
	COLSTORE_CODEC_ZSTD = 3
} ColstoreCodec;

#define COLSTORE_CODEC_COUNT 4

/* Lightweight encodings; the numbers are stored on disk. */
typedef enum ChunkEncoding
{
	CHUNK_ENCODING_PLAIN = 0,	/* values as they are in memory */
	CHUNK_ENCODING_ALL_NULL = 1,	/* no payload at all */
	CHUNK_ENCODING_FOR = 2,		/* frame of reference + bit-packing */
	CHUNK_ENCODING_DELTA = 3,	/* first value, then bit-packed deltas */
	CHUNK_ENCODING_RLE = 4,		/* (run length, value) pairs */
	CHUNK_ENCODING_DICTIONARY = 5,	/* distinct values + bit-packed codes */
	CHUNK_ENCODING_SCALED_NUMERIC = 6,	/* numeric as int64 * 10^-scale */
	CHUNK_ENCODING_WORDS = 7	/* vocabulary of words + byte codes */
} ChunkEncoding;

#define CHUNK_ENCODING_COUNT 8

/* What the encoder needs to know about a column's type. */
typedef struct ChunkTypeInfo
{
	Oid			typid;			/* pg_type OID (NUMERICOID enables scaled
								 * ints) */
	int16		typlen;			/* > 0 fixed, -1 varlena, -2 cstring */
	bool		typbyval;
	char		typalign;
} ChunkTypeInfo;

/* Result of EncodeChunk. */
typedef struct EncodedChunk
{
	char	   *data;			/* whole image, palloc'd (huge allowed) */
	Size		len;			/* bytes in data */
	uint8		encoding;		/* ChunkEncoding chosen */
	uint8		codec;			/* ColstoreCodec applied (NONE if no gain) */
	uint32		nnulls;			/* NULLs among the values */
	uint64		raw_bytes;		/* bytes the non-null values take in memory */

	/*
	 * Rows (indexes into values[], ascending) whose values include the
	 * chunk's minimum and maximum, each at its first occurrence, so callers
	 * can compute min and max over nstats values instead of all of them: for
	 * DICTIONARY chunks the first occurrence of each distinct non-null value,
	 * for SCALED_NUMERIC ones the first occurrences of the smallest and the
	 * largest value.  NULL for other encodings.
	 */
	uint32	   *stats_rows;
	uint32		nstats;
} EncodedChunk;

/*
 * EncodeChunk
 *		Encode nvalues values (nvalues >= 1) of one column into a chunk image.
 *
 * values[] hold plain in-memory datums: varlena values must be detoasted
 * and decompressed (not external, not compressed), but may have short
 * 1-byte headers.  codec/level say which codec to try (level is only used
 * by zstd, 1..19).  The image and any scratch memory are allocated in
 * CurrentMemoryContext; the image may exceed 1 GB for huge values, so huge
 * allocations are used.  Errors only on out-of-memory.
 */
extern void EncodeChunk(const ChunkTypeInfo *type, int nvalues,
						const Datum *values, const bool *isnull,
						ColstoreCodec codec, int level, EncodedChunk *out);

/*
 * DecodeChunk
 *		Decode a chunk image into values[0..nvalues-1] / isnull[0..nvalues-1].
 *
 * nvalues is the count the caller expects (from its own metadata); a
 * mismatch with the image is treated as corruption.  Pass-by-reference
 * results point into memory allocated in CurrentMemoryContext (suitably
 * aligned, valid in-memory datums: varlena values are never external or
 * compressed).  Returns false and sets *detail (a static English string)
 * if the image is corrupt; never reads outside data[0..len-1].
 */
extern bool DecodeChunk(const ChunkTypeInfo *type, const char *data, Size len,
						int nvalues, Datum *values, bool *isnull,
						const char **detail);

/*
 * DecodeChunkScaled
 *		Decode a numeric chunk image in the scaled-integer encoding (the
 *		header's encoding is CHUNK_ENCODING_SCALED_NUMERIC) without building
 *		numerics: (*values)[i] is row i's value times 10^*scale,
 *		(*dscales)[i] its display scale (both 0 for NULLs), isnull[i] its
 *		NULL flag.  The two arrays are allocated in CurrentMemoryContext.
 *		Returns false with *detail set if the image is corrupt or in another
 *		encoding; checks as DecodeChunk does.
 */
extern bool DecodeChunkScaled(const ChunkTypeInfo *type, const char *data,
							  Size len, int nvalues, int64 **values,
							  int64 **dscales, bool *isnull, int *scale,
							  const char **detail);

/*
 * Random access to one chunk image: for point lookups, which need one value
 * of a chunk, without decoding (or caching) the whole chunk.
 */
typedef struct ChunkReader ChunkReader;

/*
 * ChunkReaderOpen
 *		Validate an image exactly as DecodeChunk does (same checks, same
 *		detail strings) and prepare it for random access: the codec layer is
 *		decompressed once and small indexes are built.
 *
 * Everything is allocated in CurrentMemoryContext, which the caller keeps
 * alive as long as the reader (delete or reset it to free the reader); no
 * pointer into data is kept.  The reader holds about the decompressed
 * payload plus a few bytes per 128 values (4 bytes per value for plain
 * variable-length values); values are not materialized.  Returns NULL and
 * sets *detail (a static English string) if the image is corrupt.
 */
extern ChunkReader *ChunkReaderOpen(const ChunkTypeInfo *type,
									const char *data, Size len,
									int nvalues, const char **detail);

/*
 * ChunkReaderGetValue
 *		Value of row index (0 <= index < nvalues) of an open reader: the
 *		same datum, bytes and NULL flag DecodeChunk produces for that row.
 *
 * Pass-by-reference results are built in their own allocation in
 * CurrentMemoryContext (suitably aligned, 4-byte varlena headers); callers
 * copy or free them.  Direct for plain and frame-of-reference values,
 * dictionary entries and the null bitmap; at most one block of 128 values
 * (or runs) is decoded for delta and run-length streams.  Cannot fail on a
 * reader that opened (an index out of range is an elog(ERROR)).
 */
extern Datum ChunkReaderGetValue(ChunkReader *reader, int index,
								 bool *isnull);

/*
 * ChunkReaderScaled
 *		Is the reader's chunk in the scaled-integer numeric encoding?  If so,
 *		*scale is its common scale and *nnulls its NULL count.
 */
extern bool ChunkReaderScaled(const ChunkReader *reader, int *scale,
							  int *nnulls);

/*
 * ChunkReaderGetScaledRows
 *		Rows rows[0 .. n - 1] of a reader ChunkReaderScaled accepts, without
 *		building numerics: for each row i not marked in done[], sets
 *		isnull[i], values[i] (times 10^scale) and dscales[i] (0 for NULL),
 *		the values DecodeChunkScaled gives that row, and marks it done.
 */
extern void ChunkReaderGetScaledRows(const ChunkReader *reader, const int *rows,
									 int n, bool *done, int64 *values,
									 int64 *dscales, bool *isnull);

/* ChunkReaderMemory: bytes the reader holds (for cache accounting). */
extern Size ChunkReaderMemory(const ChunkReader *reader);

/* Names shown in introspection ("plain", "for", ... / "none", "zstd"). */
extern const char *ChunkEncodingName(int encoding);
extern const char *ColstoreCodecName(int codec);

/* Parse a codec name; returns false if the name is unknown. */
extern bool ColstoreCodecFromName(const char *name, ColstoreCodec *codec);

#endif							/* CHUNK_ENCODING_H */
