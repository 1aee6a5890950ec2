/*-------------------------------------------------------------------------
 *
 * byref_values.h
 *	  Plain encoding of pass-by-reference values (varlena, cstring, fixed
 *	  length) and materialization of decoded values as aligned datums.
 *
 * IDENTIFICATION
 *	  src/encoding/byref_values.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_BYREF_VALUES_H
#define COLSTORE_BYREF_VALUES_H

#include "postgres.h"

#include "pg_compat.h"

#include "encoding/chunk_encoding.h"
#include "encoding/encoding_internal.h"
#include "encoding/integer_encoding.h"

/* The content bytes of one value: no varlena header, no cstring NUL. */
typedef struct ByrefView
{
	const char *ptr;
	Size		len;
} ByrefView;

/*
 * The plain form of n values as parsed (byref_parse_plain): validated, with
 * pointers into the parsed buffer.
 */
typedef struct ByrefPlain
{
	uint64		n;
	const char *bytes;			/* the content bytes, back to back */
	IntStream	lens;			/* varlena, cstring: the content lengths */
	uint64	   *lens_all;		/* lengths kept by the parse, or NULL */
	/* random access (byref_build_offsets): n + 1 content offsets */
	uint32	   *off32;			/* when all content is below 4 GB */
	uint64	   *off64;			/* otherwise */
} ByrefPlain;

/*
 * byref_view
 *		Content bytes of a non-null pass-by-reference datum.
 *
 * Varlena values must not be external or compressed (callers detoast).
 * Inline: the encoders call these once per value.
 */
static inline ByrefView
byref_view(const ChunkTypeInfo *type, Datum d)
{
	ByrefView	v;
	char	   *p = DatumGetPointer(d);

	if (type->typlen == -1)
	{
		if (VARATT_IS_EXTERNAL(p) || VARATT_IS_COMPRESSED(p))
			elog(ERROR, "colstore cannot encode a toasted value");
		v.ptr = VARDATA_ANY(p);
		v.len = VARSIZE_ANY_EXHDR(p);
	}
	else if (type->typlen == -2)
	{
		v.ptr = p;
		v.len = strlen(p);
	}
	else
	{
		v.ptr = p;
		v.len = (Size) type->typlen;
	}
	return v;
}

/* Bytes a non-null value takes in memory (as given to the encoder). */
static inline Size
byref_raw_size(const ChunkTypeInfo *type, Datum d)
{
	char	   *p = DatumGetPointer(d);

	if (type->typlen == -1)
		return VARSIZE_ANY(p);
	if (type->typlen == -2)
		return strlen(p) + 1;
	return (Size) type->typlen;
}

extern uint64 byref_plain_size(const ChunkTypeInfo *type,
							   const ByrefView *views, uint64 n);
extern void byref_encode_plain(EncBuf *buf, const ChunkTypeInfo *type,
							   const ByrefView *views, uint64 n);
extern bool byref_parse_plain(ByteReader *r, const ChunkTypeInfo *type,
							  uint64 n, bool keep, ByrefPlain *bp,
							  const char **detail);
extern void byref_plain_views(const ChunkTypeInfo *type, ByrefPlain *bp,
							  ByrefView *views);
extern bool byref_decode_plain(ByteReader *r, const ChunkTypeInfo *type,
							   uint64 n, ByrefView *views,
							   const char **detail);
extern Size byref_build_offsets(const ChunkTypeInfo *type, ByrefPlain *bp);
extern ByrefView byref_plain_get(const ChunkTypeInfo *type,
								 const ByrefPlain *bp, uint64 index);
extern void byref_materialize(const ChunkTypeInfo *type,
							  const ByrefView *views, uint64 n, Datum *out);
extern Datum byref_materialize_one(const ChunkTypeInfo *type, ByrefView view);

#endif							/* COLSTORE_BYREF_VALUES_H */
