/*-------------------------------------------------------------------------
 *
 * chunk_parse.h
 *	  The one validation path of chunk images, shared by DecodeChunk and
 *	  ChunkReaderOpen.
 *
 * chunk_parse checks an image completely (header, CRC, codec, null bitmap,
 * every length, width, count, code and scale of the payload, exact
 * consumption) and leaves a ParsedChunk that describes the payload's
 * streams without decoding them.  Reading a parsed chunk, in full or value
 * by value, then cannot fail.
 *
 * IDENTIFICATION
 *	  src/encoding/chunk_parse.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_CHUNK_PARSE_H
#define COLSTORE_CHUNK_PARSE_H

#include "postgres.h"

#include "encoding/byref_values.h"
#include "encoding/chunk_encoding.h"
#include "encoding/dictionary.h"
#include "encoding/integer_encoding.h"
#include "encoding/numeric_encoding.h"
#include "encoding/word_encoding.h"

/* The payload of the non-null values; the encoding says which part is set. */
typedef struct ChunkPayload
{
	uint8		encoding;		/* ChunkEncoding */
	uint64		nn;				/* non-null values */
	union
	{
		const uint8 *plain;		/* PLAIN, pass-by-value: nn * typlen bytes */
		IntStream	ints;		/* FOR, DELTA, RLE (pass-by-value) */
		ByrefPlain	byref;		/* PLAIN, by reference */
		DictPayload dict;		/* DICTIONARY */
		ScaledNumeric num;		/* SCALED_NUMERIC */
		WordPayload words;		/* WORDS */
	}			u;
} ChunkPayload;

typedef struct ParsedChunk
{
	uint8		encoding;		/* ChunkEncoding */
	uint8		codec;			/* ColstoreCodec */
	uint32		nvalues;
	uint32		nnulls;
	char	   *region;			/* uncompressed region, or NULL if none */
	Size		region_len;
	bool		region_owned;	/* region palloc'd by chunk_parse */
	const uint8 *bitmap;		/* null bitmap in the region, or NULL */
	ChunkPayload payload;		/* unset for ALL_NULL chunks */
} ParsedChunk;

extern bool chunk_parse(const ChunkTypeInfo *type, const char *data,
						Size len, int nvalues, bool random_access,
						ParsedChunk *pc, const char **detail);

/* Is this an integer-like pass-by-value type? */
static inline bool
type_is_intlike(const ChunkTypeInfo *type)
{
	return type->typbyval &&
		(type->typlen == 1 || type->typlen == 2 ||
		 type->typlen == 4 || type->typlen == 8);
}

#endif							/* COLSTORE_CHUNK_PARSE_H */
