/*-------------------------------------------------------------------------
 *
 * fuzz_codec.c
 *	  libFuzzer target: the codecs' framing (pglz, lz4, zstd streams and
 *	  the recorded decompressed length).
 *
 * Input: byte 0 the codec (modulo 4), bytes 1-4 the recorded decompressed
 * length (uint32), the rest the stored bytes.  As chunk_parse does, the
 * length is checked with codec_check_rawlen before the buffer is
 * allocated, then codec_decompress must produce exactly that many bytes
 * or refuse with a detail.  What decompresses, compresses (when that
 * gains) and decompresses back to itself.
 *
 * IDENTIFICATION
 *	  fuzz/fuzz_codec.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "encoding/codec.h"

#include "fuzz_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ColstoreCodec codec;
	uint32		rawlen;

	if (size < 5)
		return 0;
	codec = (ColstoreCodec) (data[0] % COLSTORE_CODEC_COUNT);
	memcpy(&rawlen, data + 1, 4);

	FUZZ_BEGIN("codec");
	{
		Size		srclen = size - 5;
		char	   *src = palloc(Max(srclen, 1));
		const char *detail = NULL;

		memcpy(src, data + 5, srclen);
		if (rawlen > 0 &&
			codec_check_rawlen(codec, src, srclen, rawlen, &detail))
		{
			char	   *dst = MemoryContextAllocHuge(CurrentMemoryContext, rawlen);

			if (codec_decompress(codec, src, srclen, dst, rawlen, &detail))
			{
				char	   *comp;
				Size		complen;

				if (codec_compress(codec, 3, dst, rawlen, &comp, &complen))
				{
					char	   *back = MemoryContextAllocHuge(CurrentMemoryContext, rawlen);

					FUZZ_ASSERT(complen < rawlen, "compression did not gain");
					FUZZ_ASSERT(codec_check_rawlen(codec, comp, complen, rawlen, &detail),
								"own compressed length refused");
					FUZZ_ASSERT(codec_decompress(codec, comp, complen, back, rawlen, &detail),
								"own compressed stream refused");
					FUZZ_ASSERT(memcmp(back, dst, rawlen) == 0, "round trip differs");
				}
			}
			else
				FUZZ_ASSERT(detail != NULL, "refusal without detail");
		}
		else if (rawlen > 0)
			FUZZ_ASSERT(detail != NULL, "refusal without detail");
	}
	FUZZ_END();
	return 0;
}
