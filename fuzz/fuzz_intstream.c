/*-------------------------------------------------------------------------
 *
 * fuzz_intstream.c
 *	  libFuzzer target: integer streams (frame of reference, delta,
 *	  run-length) and the bit-packing under them.
 *
 * Input: bytes 0-1 the value count n (uint16), the rest one stream as
 * intenc_parse reads it.  A parsed stream must have consumed only its own
 * bytes, read sequentially in blocks and at random (after
 * intenc_build_index) to the same values, and agree with intenc_constant;
 * re-encoding the values and parsing them again gives the same values.
 *
 * IDENTIFICATION
 *	  fuzz/fuzz_intstream.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "encoding/integer_encoding.h"

#include "fuzz_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint16		n16;

	if (size < 2)
		return 0;
	memcpy(&n16, data, 2);

	FUZZ_BEGIN("intstream");
	{
		uint64		n = n16;
		Size		len = size - 2;
		char	   *bytes = palloc(Max(len, 1));
		ByteReader	r;
		IntStream	s;
		const char *detail = NULL;

		memcpy(bytes, data + 2, len);
		reader_init(&r, bytes, len);
		if (!intenc_parse(&r, n, &s, &detail))
			FUZZ_ASSERT(detail != NULL, "refusal without detail");
		else
		{
			uint64	   *all = palloc(sizeof(uint64) * Max(n, 1));
			uint64	   *blk;
			uint64		buf[INTENC_BLOCK];
			uint64		got = 0;
			uint64		count;
			uint64		cval;
			IntStreamIter it;
			uint64		i;

			FUZZ_ASSERT(r.pos <= len, "reader past the end");
			intenc_iter_init(&it, &s);
			intenc_iter_read(&it, all, n);
			intenc_iter_init(&it, &s);
			while ((count = intenc_iter_batch(&it, NULL, buf, &blk)) > 0)
			{
				for (i = 0; i < count; i++)
					FUZZ_ASSERT(blk[i] == all[got + i], "block read differs");
				got += count;
			}
			FUZZ_ASSERT(got == n, "block reads miss values");
			(void) intenc_build_index(&s);
			for (i = 0; i < n; i++)
				FUZZ_ASSERT(intenc_get(&s, i) == all[i], "random access differs");
			if (intenc_constant(&s, &cval))
				for (i = 0; i < n; i++)
					FUZZ_ASSERT(all[i] == cval, "constant stream is not constant");

			if (n > 0)
			{
				EncBuf		eb;
				IntStream	s2;
				ByteReader	r2;

				encbuf_init(&eb, 64);
				(void) intenc_encode(&eb, all, n);
				reader_init(&r2, eb.data, eb.len);
				FUZZ_ASSERT(intenc_parse(&r2, n, &s2, &detail), "re-encoded stream refused");
				FUZZ_ASSERT(r2.pos == eb.len, "re-encoded stream not consumed");
				(void) intenc_build_index(&s2);
				for (i = 0; i < n; i++)
					FUZZ_ASSERT(intenc_get(&s2, i) == all[i], "round trip differs");
			}
		}
	}
	FUZZ_END();
	return 0;
}
