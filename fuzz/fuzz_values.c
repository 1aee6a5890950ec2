/*-------------------------------------------------------------------------
 *
 * fuzz_values.c
 *	  libFuzzer target: the payloads of pass-by-reference columns without
 *	  the chunk header around them: plain byref values, dictionaries,
 *	  scaled numerics and words.
 *
 * Input: byte 0 picks the payload (0 plain, 1 dictionary, 2 scaled
 * numeric, 3 words), byte 1 the pass-by-reference type, bytes 2-3 the value count
 * (uint16), the rest the payload.  Each payload is parsed twice, as
 * DecodeChunk does (keeping what it decodes) and as ChunkReaderOpen does
 * (checking only); both must agree, and the fully decoded values must be
 * readable to their end and equal those read at random.
 *
 * IDENTIFICATION
 *	  fuzz/fuzz_values.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type_d.h"

#include "encoding/byref_values.h"
#include "encoding/dictionary.h"
#include "encoding/numeric_encoding.h"
#include "encoding/word_encoding.h"

#include "fuzz_common.h"

/* fuzz_types 5..11 are the pass-by-reference ones */
#define FIRST_BYREF	5

static void
check_plain(const ChunkTypeInfo *type, const char *bytes, Size len, uint64 n)
{
	const char *fuzz_target_ = "values";
	ByteReader	r1,
				r2;
	ByrefPlain	kept,
				idx;
	const char *d1 = NULL,
			   *d2 = NULL;
	bool		ok1,
				ok2;

	reader_init(&r1, bytes, len);
	reader_init(&r2, bytes, len);
	ok1 = byref_parse_plain(&r1, type, n, true, &kept, &d1);
	ok2 = byref_parse_plain(&r2, type, n, false, &idx, &d2);
	FUZZ_ASSERT(ok1 == ok2 && r1.pos == r2.pos, "plain parses disagree");
	if (ok1)
	{
		ByrefView  *views = palloc(sizeof(ByrefView) * Max(n, 1));
		Datum	   *out = palloc(sizeof(Datum) * Max(n, 1));
		uint64		i;

		byref_plain_views(type, &kept, views);
		byref_materialize(type, views, n, out);
		(void) byref_build_offsets(type, &idx);
		for (i = 0; i < n; i++)
		{
			(void) fuzz_touch_datum(type, out[i]);
			FUZZ_ASSERT(fuzz_datum_equal(type, out[i],
										 byref_materialize_one(type, byref_plain_get(type, &idx, i))),
						"plain random access differs");
		}
	}
	else
		FUZZ_ASSERT(d1 && d2 && strcmp(d1, d2) == 0, "plain refusals differ");
}

static void
check_dict(const ChunkTypeInfo *type, const char *bytes, Size len, uint64 n)
{
	const char *fuzz_target_ = "values";
	ByteReader	r1,
				r2;
	DictPayload kept,
				idx;
	const char *d1 = NULL,
			   *d2 = NULL;
	bool		ok1,
				ok2;

	reader_init(&r1, bytes, len);
	reader_init(&r2, bytes, len);
	ok1 = dict_parse(&r1, type, n, true, &kept, &d1);
	ok2 = dict_parse(&r2, type, n, false, &idx, &d2);
	FUZZ_ASSERT(ok1 == ok2 && r1.pos == r2.pos, "dictionary parses disagree");
	if (ok1)
	{
		Datum	   *out = palloc(sizeof(Datum) * Max(n, 1));
		uint64		i;

		dict_decode(type, &kept, out);
		(void) dict_build_index(type, &idx);
		for (i = 0; i < n; i++)
		{
			(void) fuzz_touch_datum(type, out[i]);
			FUZZ_ASSERT(fuzz_datum_equal(type, out[i], dict_get(type, &idx, i)),
						"dictionary random access differs");
		}
	}
	else
		FUZZ_ASSERT(d1 && d2 && strcmp(d1, d2) == 0, "dictionary refusals differ");
}

static void
check_numeric(const char *bytes, Size len, uint64 n)
{
	const char *fuzz_target_ = "values";
	const ChunkTypeInfo *type = &fuzz_types[6];
	ByteReader	r1,
				r2;
	ScaledNumeric kept,
				idx;
	const char *d1 = NULL,
			   *d2 = NULL;
	bool		ok1,
				ok2;

	Assert(type->typid == NUMERICOID);
	reader_init(&r1, bytes, len);
	reader_init(&r2, bytes, len);
	ok1 = numeric_parse(&r1, n, true, &kept, &d1);
	ok2 = numeric_parse(&r2, n, false, &idx, &d2);
	FUZZ_ASSERT(ok1 == ok2 && r1.pos == r2.pos, "numeric parses disagree");
	if (ok1)
	{
		Datum	   *out = palloc(sizeof(Datum) * Max(n, 1));
		uint64		i;

		numeric_decode_scaled(&kept, out);
		(void) numeric_build_index(&idx);
		for (i = 0; i < n; i++)
		{
			(void) fuzz_touch_datum(type, out[i]);
			FUZZ_ASSERT(fuzz_datum_equal(type, out[i], numeric_get(&idx, i)),
						"numeric random access differs");
		}
	}
	else
		FUZZ_ASSERT(d1 && d2 && strcmp(d1, d2) == 0, "numeric refusals differ");
}

static void
check_words(const ChunkTypeInfo *type, const char *bytes, Size len, uint64 n)
{
	const char *fuzz_target_ = "values";
	ByteReader	r1,
				r2;
	WordPayload kept,
				idx;
	const char *d1 = NULL,
			   *d2 = NULL;
	bool		ok1,
				ok2;

	reader_init(&r1, bytes, len);
	reader_init(&r2, bytes, len);
	ok1 = word_parse(&r1, type, n, true, &kept, &d1);
	ok2 = word_parse(&r2, type, n, false, &idx, &d2);
	FUZZ_ASSERT(ok1 == ok2 && r1.pos == r2.pos, "word parses disagree");
	if (ok1)
	{
		Datum	   *out = palloc(sizeof(Datum) * Max(n, 1));
		uint64		i;

		word_decode(type, &kept, out);
		(void) word_build_index(type, &idx);
		for (i = 0; i < n; i++)
		{
			(void) fuzz_touch_datum(type, out[i]);
			FUZZ_ASSERT(fuzz_datum_equal(type, out[i], word_get(type, &idx, i)),
						"word random access differs");
		}
	}
	else
		FUZZ_ASSERT(d1 && d2 && strcmp(d1, d2) == 0, "word refusals differ");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint16		n16;
	int			kind;
	const ChunkTypeInfo *type;

	if (size < 4)
		return 0;
	kind = data[0] % 4;
	type = &fuzz_types[FIRST_BYREF + data[1] % (FUZZ_NTYPES - FIRST_BYREF)];
	memcpy(&n16, data + 2, 2);

	FUZZ_BEGIN("values");
	{
		Size		len = size - 4;
		char	   *bytes = palloc(Max(len, 1));

		memcpy(bytes, data + 4, len);
		if (kind == 0)
			check_plain(type, bytes, len, n16);
		else if (kind == 1)
			check_dict(type, bytes, len, n16);
		else if (kind == 2)
			check_numeric(bytes, len, n16);
		else
			check_words(type, bytes, len, n16);
	}
	FUZZ_END();
	return 0;
}
