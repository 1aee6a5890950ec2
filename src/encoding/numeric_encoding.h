/*-------------------------------------------------------------------------
 *
 * numeric_encoding.h
 *	  Numeric values as scaled 64-bit integers.
 *
 * IDENTIFICATION
 *	  src/encoding/numeric_encoding.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_NUMERIC_ENCODING_H
#define COLSTORE_NUMERIC_ENCODING_H

#include "postgres.h"

#include "encoding/encoding_internal.h"

extern bool numeric_try_scale(const Datum *values, uint64 n,
							  uint64 *scaled, uint64 *dscales, int *iscale);
extern void numeric_encode_scaled(EncBuf *buf, const uint64 *scaled,
								  const uint64 *dscales, uint64 n,
								  int iscale);
extern bool numeric_decode_scaled(ChunkReader *r, uint64 n, Datum *out,
								  const char **detail);

#endif							/* COLSTORE_NUMERIC_ENCODING_H */
