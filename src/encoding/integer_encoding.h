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

extern uint64 intenc_best_size(const uint64 *values, uint64 n, uint8 *kind);
extern uint8 intenc_encode(EncBuf *buf, const uint64 *values, uint64 n);
extern bool intenc_decode(ChunkReader *r, uint64 n, uint64 *out,
						  const char **detail);

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

#endif							/* COLSTORE_INTEGER_ENCODING_H */
