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

#include "encoding/chunk_encoding.h"
#include "encoding/encoding_internal.h"

/* The content bytes of one value: no varlena header, no cstring NUL. */
typedef struct ByrefView
{
	const char *ptr;
	Size		len;
} ByrefView;

extern ByrefView byref_view(const ChunkTypeInfo *type, Datum d);
extern Size byref_raw_size(const ChunkTypeInfo *type, Datum d);
extern uint64 byref_plain_size(const ChunkTypeInfo *type,
							   const ByrefView *views, uint64 n);
extern void byref_encode_plain(EncBuf *buf, const ChunkTypeInfo *type,
							   const ByrefView *views, uint64 n);
extern bool byref_decode_plain(ChunkReader *r, const ChunkTypeInfo *type,
							   uint64 n, ByrefView *views,
							   const char **detail);
extern void byref_materialize(const ChunkTypeInfo *type,
							  const ByrefView *views, uint64 n, Datum *out);

#endif							/* COLSTORE_BYREF_VALUES_H */
