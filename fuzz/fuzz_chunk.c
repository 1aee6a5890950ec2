/*-------------------------------------------------------------------------
 *
 * fuzz_chunk.c
 *	  libFuzzer target: whole chunk images, through DecodeChunk,
 *	  ChunkReaderOpen/ChunkReaderGetValue and DecodeChunkScaled.
 *
 * Input: byte 0 picks the column type (fuzz_types), byte 1 holds flags,
 * the rest is a chunk image.  Unless flag 0x01 is set, the harness first
 * makes the image's stored length and CRC-32C consistent, so that mutations
 * reach the codec, bitmap and payload parsers instead of dying at the
 * checksum.  The value count is the header's when it is 1..65536.
 *
 * Checks: DecodeChunk and ChunkReaderOpen accept and refuse the same
 * images with the same detail; every decoded value is readable to its
 * end; the reader returns the same values and NULLs; a decoded chunk
 * re-encodes (with the codec flag bits 0x06 pick) and decodes to the same
 * values.
 *
 * IDENTIFICATION
 *	  fuzz/fuzz_chunk.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "port/pg_crc32c.h"

#include "fuzz_common.h"

#define HEADER_SIZE		40
#define CRC_OFFSET		32
#define MAX_VALUES		65536

static void
fix_image(char *img, Size len)
{
	uint64		stored = len - HEADER_SIZE;
	pg_crc32c	crc;

	memcpy(img + 24, &stored, 8);
	memset(img + CRC_OFFSET, 0, 4);
	INIT_CRC32C(crc);
	COMP_CRC32C(crc, img, len);
	FIN_CRC32C(crc);
	memcpy(img + CRC_OFFSET, &crc, 4);
}

static void
check_chunk(const ChunkTypeInfo *type, const char *img, Size len, int nvalues,
			int codec)
{
	const char *fuzz_target_ = "chunk";
	Datum	   *values = palloc(sizeof(Datum) * nvalues);
	bool	   *isnull = palloc(sizeof(bool) * nvalues);
	const char *detail = NULL;
	const char *rdetail = NULL;
	ChunkReader *reader;
	bool		ok;
	int			i;

	ok = DecodeChunk(type, img, len, nvalues, values, isnull, &detail);
	reader = ChunkReaderOpen(type, img, len, nvalues, &rdetail);
	FUZZ_ASSERT(ok == (reader != NULL), "DecodeChunk and ChunkReaderOpen disagree");
	if (!ok)
	{
		FUZZ_ASSERT(detail != NULL && rdetail != NULL && strcmp(detail, rdetail) == 0,
					"refusals differ or have no detail");
		return;
	}
	for (i = 0; i < nvalues; i++)
	{
		bool		null;
		Datum		d = ChunkReaderGetValue(reader, i, &null);

		FUZZ_ASSERT(null == isnull[i], "reader NULL differs");
		if (!null)
		{
			(void) fuzz_touch_datum(type, values[i]);
			FUZZ_ASSERT(fuzz_datum_equal(type, d, values[i]), "reader value differs");
		}
	}
	(void) ChunkReaderMemory(reader);

	if (type->typid == NUMERICOID)
	{
		int64	   *sv;
		int64	   *ds;
		bool	   *snull = palloc(sizeof(bool) * nvalues);
		int			scale;

		if (DecodeChunkScaled(type, img, len, nvalues, &sv, &ds, snull, &scale, &detail))
			for (i = 0; i < nvalues; i++)
				FUZZ_ASSERT(snull[i] == isnull[i], "scaled NULL differs");
	}

	/* decoded values re-encode and decode to themselves */
	{
		EncodedChunk enc;
		Datum	   *again = palloc(sizeof(Datum) * nvalues);
		bool	   *againnull = palloc(sizeof(bool) * nvalues);

		EncodeChunk(type, nvalues, values, isnull, (ColstoreCodec) codec, 3, &enc);
		FUZZ_ASSERT(DecodeChunk(type, enc.data, enc.len, nvalues, again, againnull, &detail),
					"re-encoded chunk does not decode");
		for (i = 0; i < nvalues; i++)
		{
			FUZZ_ASSERT(againnull[i] == isnull[i], "round trip NULL differs");
			if (!isnull[i])
				FUZZ_ASSERT(fuzz_datum_equal(type, again[i], values[i]),
							"round trip value differs");
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const ChunkTypeInfo *type;
	uint8		flags;
	uint32		nvalues;

	if (size < 2 + HEADER_SIZE)
		return 0;
	type = &fuzz_types[data[0] % FUZZ_NTYPES];
	flags = data[1];
	memcpy(&nvalues, data + 2 + 8, 4);
	if (nvalues < 1 || nvalues > MAX_VALUES)
		nvalues = 1;

	FUZZ_BEGIN("chunk");
	{
		Size		len = size - 2;
		char	   *img = palloc(len);

		memcpy(img, data + 2, len);
		if (!(flags & 0x01))
			fix_image(img, len);
		check_chunk(type, img, len, (int) nvalues, (flags >> 1) & 3);
	}
	FUZZ_END();
	return 0;
}
