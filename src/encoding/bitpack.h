/*-------------------------------------------------------------------------
 *
 * bitpack.h
 *	  Packing and unpacking of unsigned 64-bit integers at a fixed bit width.
 *
 * Values are packed back to back, least significant bit first, into a
 * stream of bytes whose bit i is bit (i % 8) of byte (i / 8): the layout of
 * a little-endian word stream, independent of the platform's byte order.
 * A width of 0 takes no space at all (every value is 0).
 *
 * IDENTIFICATION
 *	  src/encoding/bitpack.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_BITPACK_H
#define COLSTORE_BITPACK_H

#include "postgres.h"

/* Bits needed to represent maxval (0 for 0, 64 for values >= 2^63). */
static inline int
bitpack_width(uint64 maxval)
{
	return maxval == 0 ? 0 : 64 - __builtin_clzll(maxval);
}

/* Bytes taken by n values packed at the given width (0..64). */
static inline uint64
bitpack_size(uint64 n, int width)
{
	/* n * width can overflow uint64 only for n >= 2^58; split to be safe */
	return (n / 8) * (uint64) width + ((n % 8) * (uint64) width + 7) / 8;
}

extern void bitpack_pack(const uint64 *values, uint64 n, int width,
						 uint64 base, uint8 *out);
extern void bitpack_unpack(const uint8 *in, uint64 n, int width,
						   uint64 base, uint64 *out);
extern void bitpack_unpack_range(const uint8 *in, uint64 ntotal, int width,
								 uint64 start, uint64 count, uint64 base,
								 uint64 *out);
extern uint64 bitpack_get(const uint8 *in, uint64 ntotal, int width,
						  uint64 index);

#endif							/* COLSTORE_BITPACK_H */
