/*-------------------------------------------------------------------------
 *
 * bitpack.c
 *	  Packing and unpacking of unsigned 64-bit integers at a fixed bit width.
 *
 * The packed layout is a little-endian bit stream (see bitpack.h).  Packing
 * keeps a 64-bit accumulator and flushes it whole, so it never reads its
 * output.  Unpacking of the common case (width <= 56) loads one unaligned
 * little-endian 64-bit word per value and shifts and masks it; that needs
 * eight readable bytes from the value's first byte, so the last few values
 * of a stream, and widths 57..63, go through a byte-wise slow path that never
 * touches memory past bitpack_size() bytes.  Widths 0, 8, 16, 32 and 64 have
 * dedicated loops.  Every unpack loop adds a base value (frame of reference)
 * while it goes, so callers need no second pass.  Any range of a stream can
 * be unpacked, and any single value read, with the same bounds guarantee
 * (random access by ChunkReader).
 *
 * IDENTIFICATION
 *	  src/encoding/bitpack.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "port/pg_bswap.h"

#include "encoding/bitpack.h"

static inline uint64
load_le64(const uint8 *p)
{
	uint64		v;

	memcpy(&v, p, sizeof(v));
#ifdef WORDS_BIGENDIAN
	v = pg_bswap64(v);
#endif
	return v;
}

static inline void
store_le64(uint8 *p, uint64 v)
{
#ifdef WORDS_BIGENDIAN
	v = pg_bswap64(v);
#endif
	memcpy(p, &v, sizeof(v));
}

/* Read width bits (1..64) starting at bit position bitpos, byte by byte. */
static inline uint64
read_bits_slow(const uint8 *in, uint64 bitpos, int width)
{
	uint64		v = 0;
	int			got = 0;
	uint64		byte = bitpos >> 3;
	int			shift = (int) (bitpos & 7);

	while (got < width)
	{
		uint64		b = in[byte++] >> shift;
		int			take = 8 - shift;

		v |= b << got;
		got += take;
		shift = 0;
	}
	if (width < 64)
		v &= (UINT64CONST(1) << width) - 1;
	return v;
}

/*
 * bitpack_pack
 *		Pack values[i] - base (i in 0..n-1) at width bits each into out.
 *
 * out must have room for bitpack_size(n, width) bytes; exactly that many are
 * written.  Bits of a difference above width are ignored; subtraction wraps
 * around modulo 2^64.
 */
void
bitpack_pack(const uint64 *values, uint64 n, int width, uint64 base,
			 uint8 *out)
{
	uint64		acc = 0;
	int			nbits = 0;
	uint64		mask;
	uint64		i;

	Assert(width >= 0 && width <= 64);
	if (width == 0 || n == 0)
		return;
	if (width == 64)
	{
		for (i = 0; i < n; i++)
			store_le64(out + i * 8, values[i] - base);
		return;
	}

	mask = (UINT64CONST(1) << width) - 1;
	for (i = 0; i < n; i++)
	{
		uint64		v = (values[i] - base) & mask;

		acc |= v << nbits;
		if (nbits + width >= 64)
		{
			int			left = nbits + width - 64;

			store_le64(out, acc);
			out += 8;
			/* nbits > 0 here because width < 64, so the shift is < 64 */
			acc = left ? v >> (64 - nbits) : 0;
			nbits = left;
		}
		else
			nbits += width;
	}
	/* flush the partial word */
	while (nbits > 0)
	{
		*out++ = (uint8) acc;
		acc >>= 8;
		nbits -= 8;
	}
}

/*
 * bitpack_unpack
 *		Unpack n values of width bits from in, storing base + value in out.
 *
 * in must hold bitpack_size(n, width) readable bytes; nothing past them is
 * read.  Additions wrap around modulo 2^64.
 */
void
bitpack_unpack(const uint8 *in, uint64 n, int width, uint64 base, uint64 *out)
{
	bitpack_unpack_range(in, n, width, 0, n, base, out);
}

/*
 * bitpack_unpack_range
 *		Unpack values start .. start + count - 1 of a stream of ntotal values
 *		of width bits, storing base + value in out[0..count-1].
 *
 * in must hold bitpack_size(ntotal, width) readable bytes and start + count
 * must not exceed ntotal; nothing past bitpack_size(ntotal, width) is read.
 */
void
bitpack_unpack_range(const uint8 *in, uint64 ntotal, int width, uint64 start,
					 uint64 count, uint64 base, uint64 *out)
{
	uint64		i = 0;
	uint64		insize;

	Assert(width >= 0 && width <= 64);
	Assert(start <= ntotal && count <= ntotal - start);
	switch (width)
	{
		case 0:
			for (i = 0; i < count; i++)
				out[i] = base;
			return;
		case 8:
			in += start;
			for (i = 0; i < count; i++)
				out[i] = base + in[i];
			return;
		case 16:
			in += start * 2;
			for (i = 0; i < count; i++)
				out[i] = base + ((uint64) in[2 * i] | ((uint64) in[2 * i + 1] << 8));
			return;
		case 32:
			in += start * 4;
			for (i = 0; i < count; i++)
			{
				uint32		v;

				memcpy(&v, in + 4 * i, 4);
#ifdef WORDS_BIGENDIAN
				v = pg_bswap32(v);
#endif
				out[i] = base + v;
			}
			return;
		case 64:
			in += start * 8;
			for (i = 0; i < count; i++)
				out[i] = base + load_le64(in + 8 * i);
			return;
		default:
			break;
	}

	insize = bitpack_size(ntotal, width);
	if (width <= 56)
	{
		uint64		mask = (UINT64CONST(1) << width) - 1;
		uint64		bitpos = start * (uint64) width;
		uint64		nfast = 0;

		/*
		 * Fast path while a whole word can be loaded at the value's first
		 * byte: value j qualifies iff floor(j * width / 8) + 8 <= insize,
		 * which holds for all j <= (insize - 8) * 8 / width.
		 */
		if (insize >= 8)
		{
			uint64		lastfast = (insize - 8) * 8 / width;	/* value index */

			if (lastfast >= start)
				nfast = Min(count, lastfast - start + 1);
		}
		for (; i < nfast; i++, bitpos += width)
			out[i] = base + ((load_le64(in + (bitpos >> 3)) >> (bitpos & 7)) & mask);
	}
	for (; i < count; i++)
		out[i] = base + read_bits_slow(in, (start + i) * (uint64) width, width);
}

/*
 * bitpack_get
 *		Value index of a stream of ntotal values of width bits (without any
 *		base); index < ntotal.  Reads nothing past bitpack_size(ntotal, width).
 */
uint64
bitpack_get(const uint8 *in, uint64 ntotal, int width, uint64 index)
{
	uint64		bitpos = index * (uint64) width;

	Assert(index < ntotal && width >= 0 && width <= 64);
	if (width == 0)
		return 0;
	if (width == 64)
		return load_le64(in + index * 8);
	if (width <= 56 && (bitpos >> 3) + 8 <= bitpack_size(ntotal, width))
		return (load_le64(in + (bitpos >> 3)) >> (bitpos & 7)) &
			((UINT64CONST(1) << width) - 1);
	return read_bits_slow(in, bitpos, width);
}
