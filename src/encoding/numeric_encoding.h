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
#include "encoding/integer_encoding.h"

/* A scaled-numeric payload as parsed (numeric_parse): validated. */
typedef struct ScaledNumeric
{
	int			iscale;			/* common scale s */
	IntStream	dscales;		/* display scales */
	IntStream	values;			/* the values times 10^s */
	uint64	   *dscales_all;	/* kept by the parse, or NULL */
	uint64	   *values_all;
} ScaledNumeric;

extern bool numeric_try_scale(const Datum *values, uint64 n,
							  uint64 *scaled, uint64 *dscales, int *iscale);
extern bool numeric_encode_scaled_bytes(EncBuf *buf, const uint64 *scaled,
										const uint64 *dscales, uint64 n,
										int iscale, uint8 kind);
extern void numeric_encode_scaled(EncBuf *buf, const uint64 *scaled,
								  const uint64 *dscales, uint64 n,
								  int iscale);
extern bool numeric_parse(ByteReader *r, uint64 n, bool keep,
						  ScaledNumeric *sn, const char **detail);
extern void numeric_decode_scaled(ScaledNumeric *sn, Datum *out);
extern Size numeric_build_index(ScaledNumeric *sn);
extern Datum numeric_get(const ScaledNumeric *sn, uint64 index);
extern Datum numeric_from_scaled(int64 m, int scale, int dscale);

#endif							/* COLSTORE_NUMERIC_ENCODING_H */
