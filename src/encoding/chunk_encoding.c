/*-------------------------------------------------------------------------
 *
 * chunk_encoding.c
 *	  Encoding and decoding of one column chunk into a self-contained,
 *	  checksummed byte image.
 *
 * Chunk image format (version 1).  Multi-byte fields are in native byte
 * order, like the rest of PostgreSQL's on-disk data; nothing in the image is
 * aligned, all reads go through memcpy.
 *
 *	offset size field
 *	     0    4 magic          0x4B484353 ("SCHK" read as little-endian)
 *	     4    1 version        CHUNK_FORMAT_VERSION (1)
 *	     5    1 encoding       ChunkEncoding
 *	     6    1 codec          ColstoreCodec applied to the region below
 *	     7    1 flags          0 (reserved)
 *	     8    4 nvalues        values in the chunk, NULLs included
 *	    12    4 nnulls         NULLs among them
 *	    16    8 encoded_len    length of the uncompressed region
 *	    24    8 stored_len     length of the region as stored (compressed)
 *	    32    4 crc            CRC-32C of the whole image, this field as 0
 *	    36    4 reserved       0
 *	    40      stored region  stored_len bytes; the image is exactly
 *	                           40 + stored_len bytes long
 *
 * The uncompressed region is the null bitmap followed by the encoding's
 * payload; the codec compresses both together (so a sparse bitmap costs
 * almost nothing with a codec).  The bitmap is present iff 0 < nnulls <
 * nvalues: ceil(nvalues / 8) bytes, bit i (bit i % 8 of byte i / 8) set
 * when value i is NULL, unused high bits zero.  Only the non-null values
 * are encoded, in order.  ALL_NULL chunks (nnulls = nvalues) have an
 * empty region.
 *
 * Payloads per encoding (integer streams are described in
 * integer_encoding.c, plain byref values in byref_values.c):
 *
 *	PLAIN, pass-by-value	the typlen-byte values back to back
 *	PLAIN, by reference		plain byref form (lengths stream + bytes, or
 *							fixed-length bytes)
 *	FOR / DELTA / RLE		one integer stream of that kind over the values
 *							sign-extended to 64 bits (float4/float8 as their
 *							bit patterns), pass-by-value types only
 *	DICTIONARY				dictionary.c: ndistinct, distinct values in plain
 *							byref form, integer stream of codes
 *	SCALED_NUMERIC			numeric_encoding.c: uint16 scale s, integer
 *							stream of display scales, integer stream of
 *							value * 10^s
 *	WORDS					word_encoding.c: vocabulary of words in plain
 *							byref form, integer stream of words per
 *							value, byte codes of the words
 *
 * Encoding chooses among the candidates that fit the type by exact size:
 * pass-by-value types take the smallest of plain and the best integer
 * stream; numerics take scaled integers when the chunk qualifies; other
 * by-reference types take the smallest of plain, dictionary and (variable
 * length types, with no codec or zstd) words, ties in that order.  The codec is then run on the
 * region and kept only if it shrinks it.
 *
 * Decoding, and opening a ChunkReader for random access (chunk_reader.c),
 * go through one parser, chunk_parse, which validates, in order: image
 * length >= header, magic, version, known encoding and codec, flags, value
 * count equal to the caller's, null count, stored length equal to the image
 * length less the header, CRC, a plausible decompressed length for the
 * codec (before allocating it), the decompressed length exactly as
 * recorded, the null bitmap's population count, then every length, width,
 * count, code and scale inside the payload, and finally that the payload is
 * consumed exactly.  Any failure returns false with a static English detail
 * string.  A parsed chunk is then decoded in full, or read value by value,
 * without further checks.
 *
 * IDENTIFICATION
 *	  src/encoding/chunk_encoding.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type_d.h"
#include "port/pg_bitutils.h"
#include "port/pg_crc32c.h"
#include "utils/memutils.h"

#include "encoding/byref_values.h"
#include "encoding/chunk_encoding.h"
#include "encoding/chunk_parse.h"
#include "encoding/codec.h"
#include "encoding/dictionary.h"
#include "encoding/encoding_internal.h"
#include "encoding/integer_encoding.h"
#include "encoding/numeric_encoding.h"
#include "encoding/word_encoding.h"

#define CHUNK_MAGIC				0x4B484353
#define CHUNK_FORMAT_VERSION	1

typedef struct ChunkImageHeader
{
	uint32		magic;
	uint8		version;
	uint8		encoding;
	uint8		codec;
	uint8		flags;
	uint32		nvalues;
	uint32		nnulls;
	uint64		encoded_len;
	uint64		stored_len;
	uint32		crc;
	uint32		reserved;
} ChunkImageHeader;

#define CHUNK_HEADER_SIZE		40

/*
 * A word encoding's region is about a third of its text's bytes, so zstd
 * compresses it three levels higher for about the time the table's level
 * took on the text (orders.o_comment at SF1: 4.7% smaller than at the
 * table's level 3).
 */
#define WORDS_LEVEL_BOOST		3
#define CHUNK_CRC_OFFSET		offsetof(ChunkImageHeader, crc)

StaticAssertDecl(sizeof(ChunkImageHeader) == CHUNK_HEADER_SIZE,
				 "ChunkImageHeader must be 40 bytes without padding");

static const char *const encoding_names[CHUNK_ENCODING_COUNT] = {
	"plain", "all_null", "for", "delta", "rle", "dictionary", "scaled_numeric",
	"words"
};

static const char *const codec_names[COLSTORE_CODEC_COUNT] = {
	"none", "pglz", "lz4", "zstd"
};

/* CRC-32C of the image with the crc field taken as zero. */
static pg_crc32c
image_crc(const char *data, Size len)
{
	static const char zeros[4] = {0, 0, 0, 0};
	pg_crc32c	crc;

	INIT_CRC32C(crc);
	COMP_CRC32C(crc, data, CHUNK_CRC_OFFSET);
	COMP_CRC32C(crc, zeros, sizeof(zeros));
	COMP_CRC32C(crc, data + CHUNK_CRC_OFFSET + 4,
				len - CHUNK_CRC_OFFSET - 4);
	FIN_CRC32C(crc);
	return crc;
}

/*
 * encode_intlike
 *		Append the payload for non-null pass-by-value values nv[0..nn-1] and
 *		return the encoding used (PLAIN or an integer stream kind).  With
 *		bytes (FOR or DELTA), append instead a stream of that kind packed in
 *		whole bytes (intenc_encode_bytes) and return its kind, or append
 *		nothing and return 0 if it would not differ.
 */
static uint8
encode_intlike(EncBuf *buf, const ChunkTypeInfo *type, const Datum *nv,
			   uint64 nn, uint8 bytes)
{
	uint64	   *iv = alloc_array(nn, sizeof(uint64));
	uint64		plain = nn * (uint64) type->typlen;
	uint8		kind;
	uint64		i;

	for (i = 0; i < nn; i++)
		iv[i] = intenc_datum_to_u64(nv[i], type->typlen);
	if (bytes != 0)
	{
		/* a stream of that kind packed in whole bytes, or nothing (0) */
		kind = intenc_encode_bytes(buf, iv, nn, bytes);
		pfree(iv);
		return kind;
	}
	/* a stream no larger than plain wins, as intenc_best_size <= plain */
	kind = intenc_encode_within(buf, iv, nn, plain);
	if (kind == 0)
	{
		char	   *dst = encbuf_reserve(buf, plain);

		for (i = 0; i < nn; i++)
		{
			switch (type->typlen)
			{
				case 1:
					{
						int8		v = (int8) iv[i];

						memcpy(dst + i, &v, 1);
						break;
					}
				case 2:
					{
						int16		v = (int16) iv[i];

						memcpy(dst + i * 2, &v, 2);
						break;
					}
				case 4:
					{
						int32		v = (int32) iv[i];

						memcpy(dst + i * 4, &v, 4);
						break;
					}
				default:
					memcpy(dst + i * 8, &iv[i], 8);
					break;
			}
		}
		buf->len += plain;
		kind = CHUNK_ENCODING_PLAIN;
	}
	pfree(iv);
	return kind;
}

/*
 * Positions (among the nn non-null values) of the first occurrence of each
 * dictionary entry.  Codes are assigned in first-seen order, so entry k
 * first occurs where code k is seen while k entries have been seen.
 */
static uint32 *
first_occurrences(const DictPlan *dict, uint64 nn)
{
	uint32	   *firsts = alloc_array(dict->ndistinct, sizeof(uint32));
	uint64		seen = 0;
	uint64		i;

	for (i = 0; i < nn && seen < dict->ndistinct; i++)
		if (dict->codes[i] == seen)
			firsts[seen++] = (uint32) i;
	Assert(seen == dict->ndistinct);
	return firsts;
}

/*
 * Positions (among the nn >= 1 values) of the first occurrence of the
 * smallest and of the largest of the signed integers scaled[], ascending,
 * without repeats; their number goes to *n.  Scaled numerics share one
 * scale, so they order as the numerics do, exactly.
 */
static uint32 *
scaled_extremes(const uint64 *scaled, uint64 nn, uint32 *n)
{
	uint32	   *rows = alloc_array(2, sizeof(uint32));
	uint64		lo = 0,
				hi = 0;
	uint64		i;

	for (i = 1; i < nn; i++)
	{
		if ((int64) scaled[i] < (int64) scaled[lo])
			lo = i;
		else if ((int64) scaled[i] > (int64) scaled[hi])
			hi = i;
	}
	rows[0] = (uint32) Min(lo, hi);
	rows[1] = (uint32) Max(lo, hi);
	*n = (lo == hi) ? 1 : 2;
	return rows;
}

/*
 * encode_byref
 *		Append the payload for non-null pass-by-reference values nv[0..nn-1]
 *		and return the encoding used (SCALED_NUMERIC, WORDS, DICTIONARY or
 *		PLAIN; WORDS only if try_words).
 *		For DICTIONARY, *firsts and *nfirsts describe the entries as
 *		first_occurrences says; for SCALED_NUMERIC, the first occurrences of
 *		the minimum and the maximum (scaled_extremes).  If alt is not NULL
 *		(two buffers holding what buf held before), a SCALED_NUMERIC payload
 *		whose values are in a FOR and a DELTA stream in whole bytes is
 *		appended to each, and alt_encoding[i] is SCALED_NUMERIC where that
 *		was done, else 0.
 */
static uint8
encode_byref(EncBuf *buf, const ChunkTypeInfo *type, const Datum *nv,
			 uint64 nn, bool try_words, uint32 **firsts, uint32 *nfirsts,
			 EncBuf *alt, uint8 *alt_encoding)
{
	ByrefView  *views;
	uint64		plain_size;
	uint64		best;
	bool		use_dict;
	bool		use_words;
	DictPlan	dict;
	WordPlan	words;
	uint8		kind;
	uint64		i;

	if (type->typid == NUMERICOID && type->typlen == -1)
	{
		uint64	   *scaled = alloc_array(nn, sizeof(uint64));
		uint64	   *dscales = alloc_array(nn, sizeof(uint64));
		int			iscale;

		if (numeric_try_scale(nv, nn, scaled, dscales, &iscale))
		{
			numeric_encode_scaled(buf, scaled, dscales, nn, iscale);
			for (i = 0; alt != NULL && i < 2; i++)
				if (numeric_encode_scaled_bytes(&alt[i], scaled, dscales, nn,
												iscale,
												i == 0 ? CHUNK_ENCODING_FOR :
												CHUNK_ENCODING_DELTA))
					alt_encoding[i] = CHUNK_ENCODING_SCALED_NUMERIC;
			*firsts = scaled_extremes(scaled, nn, nfirsts);
			pfree(scaled);
			pfree(dscales);
			return CHUNK_ENCODING_SCALED_NUMERIC;
		}
		pfree(dscales);
		pfree(scaled);
	}

	memset(&dict, 0, sizeof(dict));
	views = alloc_array(nn, sizeof(ByrefView));
	for (i = 0; i < nn; i++)
		views[i] = byref_view(type, nv[i]);
	plain_size = byref_plain_size(type, views, nn);

	/*
	 * The smallest of plain, dictionary and words, ties to the earlier.  The
	 * words are tried first: a dictionary gives up as soon as its distinct
	 * values alone reach the words' size (it could not be smaller), which on
	 * text of distinct values saves hashing the rest of them.
	 */
	memset(&words, 0, sizeof(words));
	best = plain_size;
	use_words = try_words && nn >= 2 &&
		word_build(type, views, nn, plain_size, &words) &&
		words.size < plain_size;
	if (use_words)
		best = words.size;
	use_dict = nn >= 2 && dict_build(type, views, nn, best, &dict) &&
		dict.size < plain_size && dict.size <= best;
	if (use_dict)
	{
		encbuf_reserve(buf, dict.size);
		dict_encode(buf, type, &dict, nn);
		*firsts = first_occurrences(&dict, nn);
		*nfirsts = (uint32) dict.ndistinct;
		kind = CHUNK_ENCODING_DICTIONARY;
	}
	else if (use_words)
	{
		encbuf_reserve(buf, words.size);
		word_encode(buf, type, &words, nn);
		kind = CHUNK_ENCODING_WORDS;
	}
	else
	{
		encbuf_reserve(buf, plain_size);
		byref_encode_plain(buf, type, views, nn);
		kind = CHUNK_ENCODING_PLAIN;
	}
	word_free(&words);
	dict_free(&dict);
	pfree(views);
	return kind;
}

/*
 * compress_region
 *		Run the codec on the region of buf (after the header room) and
 *		return the bytes it would be stored in: the compressed length, with
 *		*compressed set, or the region's length, with *compressed NULL.
 */
static Size
compress_region(const EncBuf *buf, uint8 encoding, ColstoreCodec codec,
				int level, char **compressed)
{
	Size		region_len = buf->len - CHUNK_HEADER_SIZE;
	Size		compressed_len;

	*compressed = NULL;
	if (codec == COLSTORE_CODEC_NONE || region_len == 0)
		return region_len;
	if (encoding == CHUNK_ENCODING_WORDS ?
		codec_compress_split(codec, level + WORDS_LEVEL_BOOST,
							 buf->data + CHUNK_HEADER_SIZE, region_len,
							 compressed, &compressed_len) :
		codec_compress(codec, level, buf->data + CHUNK_HEADER_SIZE, region_len,
					   compressed, &compressed_len))
		return compressed_len;
	*compressed = NULL;
	return region_len;
}

/*
 * EncodeChunk
 *		Encode nvalues values of one column into a chunk image; see
 *		chunk_encoding.h for the contract and the file header for the format.
 */
void
EncodeChunk(const ChunkTypeInfo *type, int nvalues, const Datum *values,
			const bool *isnull, ColstoreCodec codec, int level,
			EncodedChunk *out)
{
	ChunkImageHeader hdr;
	EncBuf		buf;
	EncBuf		alt[2] = {{0}};
	uint8		alt_encoding[2] = {0, 0};
	int			a;
	uint32		nnulls = 0;
	uint64		nn;
	uint64		raw_bytes = 0;
	Datum	   *nv;
	uint8		encoding;
	uint32	   *stats_rows = NULL;
	uint32		nstats = 0;
	Size		region_len;
	char	   *compressed;
	Size		stored_len;
	int			i;

	if (nvalues < 1)
		elog(ERROR, "colstore cannot encode an empty chunk");
	if (!type->typbyval && type->typlen == 0)
		elog(ERROR, "colstore: invalid type length 0");
	if (type->typbyval && !type_is_intlike(type))
		elog(ERROR, "colstore: unsupported pass-by-value type length %d",
			 type->typlen);

	for (i = 0; i < nvalues; i++)
		if (isnull[i])
			nnulls++;
	nn = (uint64) nvalues - nnulls;

	memset(&hdr, 0, sizeof(hdr));
	hdr.magic = CHUNK_MAGIC;
	hdr.version = CHUNK_FORMAT_VERSION;
	hdr.codec = COLSTORE_CODEC_NONE;
	hdr.nvalues = (uint32) nvalues;
	hdr.nnulls = nnulls;

	/* the region is built right after room for the header */
	encbuf_init(&buf, CHUNK_HEADER_SIZE + (nnulls ? (nvalues + 7) / 8 : 0) +
				(type->typlen > 0 ? nn * (uint64) type->typlen : nn * 8));
	buf.len = CHUNK_HEADER_SIZE;

	if (nn == 0)
		encoding = CHUNK_ENCODING_ALL_NULL;
	else
	{
		uint64		j = 0;

		if (nnulls > 0)
		{
			Size		bmlen = ((Size) nvalues + 7) / 8;
			uint8	   *bm = (uint8 *) encbuf_reserve(&buf, bmlen);

			memset(bm, 0, bmlen);
			for (i = 0; i < nvalues; i++)
				if (isnull[i])
					bm[i / 8] |= (uint8) (1 << (i % 8));
			buf.len += bmlen;
		}

		nv = alloc_array(nn, sizeof(Datum));
		for (i = 0; i < nvalues; i++)
			if (!isnull[i])
				nv[j++] = values[i];

		/*
		 * Bit-packed integers hide their repeated bytes from a codec: with
		 * one, frame of reference and delta streams in whole bytes are tried
		 * too for integers and scaled numerics (a line's number among its
		 * order's 1 to 7, dates a few days apart, quantities of 1 to 50), and
		 * the smallest image is kept.  alt[] start as buf is now.
		 */
		if (codec != COLSTORE_CODEC_NONE &&
			(type->typbyval ||
			 (type->typid == NUMERICOID && type->typlen == -1)))
		{
			for (a = 0; a < 2; a++)
			{
				encbuf_init(&alt[a], buf.cap);
				encbuf_append(&alt[a], buf.data, buf.len);
			}
		}

		if (type->typbyval)
		{
			raw_bytes = nn * (uint64) type->typlen;
			encoding = encode_intlike(&buf, type, nv, nn, 0);
			for (a = 0; a < 2 && alt[a].data != NULL; a++)
				if (encoding != CHUNK_ENCODING_PLAIN)
					alt_encoding[a] = encode_intlike(&alt[a], type, nv, nn,
													 a == 0 ? CHUNK_ENCODING_FOR :
													 CHUNK_ENCODING_DELTA);
		}
		else
		{
			for (j = 0; j < nn; j++)
				raw_bytes += byref_raw_size(type, nv[j]);

			/*
			 * Words pay through an entropy coder (zstd's), or as they are
			 * without a codec; pglz and lz4 have none and find fewer repeats
			 * in byte codes than in the text.
			 */
			encoding = encode_byref(&buf, type, nv, nn,
									codec == COLSTORE_CODEC_NONE ||
									codec == COLSTORE_CODEC_ZSTD,
									&stats_rows, &nstats,
									alt[0].data != NULL ? alt : NULL,
									alt_encoding);
		}
		for (a = 0; a < 2; a++)
			if (alt[a].data != NULL && alt_encoding[a] == 0)
				encbuf_free(&alt[a]);
		pfree(nv);
		/* non-null positions to rows, in place (both ascend) */
		if (stats_rows != NULL && nnulls > 0)
		{
			uint32		k = 0;

			j = 0;
			for (i = 0; i < nvalues && k < nstats; i++)
			{
				if (isnull[i])
					continue;
				if (stats_rows[k] == j)
					stats_rows[k++] = (uint32) i;
				j++;
			}
		}
	}

	stored_len = compress_region(&buf, encoding, codec, level, &compressed);
	for (a = 0; a < 2; a++)
	{
		char	   *alt_compressed;
		Size		alt_stored;

		if (alt[a].data == NULL)
			continue;
		alt_stored = compress_region(&alt[a], alt_encoding[a], codec, level,
									 &alt_compressed);
		/* ties keep the earlier form: bit-packed, then FOR */
		if (alt_stored < stored_len)
		{
			EncBuf		tmp = buf;

			buf = alt[a];
			alt[a] = tmp;
			if (compressed)
				pfree(compressed);
			compressed = alt_compressed;
			stored_len = alt_stored;
			encoding = alt_encoding[a];
		}
		else if (alt_compressed)
			pfree(alt_compressed);
		encbuf_free(&alt[a]);
	}

	region_len = buf.len - CHUNK_HEADER_SIZE;
	hdr.encoding = encoding;
	hdr.encoded_len = region_len;
	hdr.stored_len = region_len;
	if (compressed != NULL)
	{
		/* compressed image replaces the uncompressed one */
		encbuf_free(&buf);
		encbuf_init(&buf, CHUNK_HEADER_SIZE + stored_len);
		buf.len = CHUNK_HEADER_SIZE;
		encbuf_append(&buf, compressed, stored_len);
		pfree(compressed);
		hdr.codec = (uint8) codec;
		hdr.stored_len = stored_len;
	}

	memcpy(buf.data, &hdr, CHUNK_HEADER_SIZE);
	hdr.crc = image_crc(buf.data, buf.len);
	memcpy(buf.data + CHUNK_CRC_OFFSET, &hdr.crc, sizeof(hdr.crc));

	out->data = buf.data;
	out->len = buf.len;
	out->encoding = encoding;
	out->codec = hdr.codec;
	out->nnulls = nnulls;
	out->raw_bytes = raw_bytes;
	out->stats_rows = stats_rows;
	out->nstats = nstats;
}

/*
 * parse_payload
 *		Parse and validate the payload of nn non-null values according to the
 *		encoding.  keep is passed on to the parsers that check values one by
 *		one (see chunk_parse).  Returns false with *detail on error.
 */
static bool
parse_payload(const ChunkTypeInfo *type, uint8 encoding, ByteReader *r,
			  uint64 nn, bool keep, ChunkPayload *pl, const char **detail)
{
	memset(pl, 0, sizeof(*pl));
	pl->encoding = encoding;
	pl->nn = nn;
	if (type_is_intlike(type))
	{
		int			typlen = type->typlen;

		if (encoding == CHUNK_ENCODING_PLAIN)
		{
			if (nn > reader_remaining(r) / typlen)
			{
				*detail = "truncated plain values";
				return false;
			}
			pl->u.plain = reader_take(r, nn * typlen);
			return true;
		}
		if (encoding != CHUNK_ENCODING_FOR &&
			encoding != CHUNK_ENCODING_DELTA &&
			encoding != CHUNK_ENCODING_RLE)
		{
			*detail = "encoding not valid for the column type";
			return false;
		}
		if (reader_remaining(r) < 1 || r->data[r->pos] != encoding)
		{
			*detail = "integer stream kind does not match encoding";
			return false;
		}
		return intenc_parse(r, nn, &pl->u.ints, detail);
	}

	switch (encoding)
	{
		case CHUNK_ENCODING_PLAIN:
			return byref_parse_plain(r, type, nn, keep, &pl->u.byref, detail);
		case CHUNK_ENCODING_DICTIONARY:
			return dict_parse(r, type, nn, keep, &pl->u.dict, detail);
		case CHUNK_ENCODING_SCALED_NUMERIC:
			if (type->typid != NUMERICOID || type->typlen != -1)
				break;
			return numeric_parse(r, nn, keep, &pl->u.num, detail);
		case CHUNK_ENCODING_WORDS:
			if (type->typlen >= 0)
				break;
			return word_parse(r, type, nn, keep, &pl->u.words, detail);
		default:
			break;
	}
	*detail = "encoding not valid for the column type";
	return false;
}

/* Release what parse_payload kept for decoding (after a later failure). */
static void
release_payload(const ChunkTypeInfo *type, ChunkPayload *pl)
{
	if (type_is_intlike(type))
		return;
	switch (pl->encoding)
	{
		case CHUNK_ENCODING_PLAIN:
			if (pl->u.byref.lens_all)
				pfree(pl->u.byref.lens_all);
			break;
		case CHUNK_ENCODING_DICTIONARY:
			if (pl->u.dict.entries.lens_all)
				pfree(pl->u.dict.entries.lens_all);
			if (pl->u.dict.codes_all)
				pfree(pl->u.dict.codes_all);
			break;
		case CHUNK_ENCODING_SCALED_NUMERIC:
			if (pl->u.num.dscales_all)
				pfree(pl->u.num.dscales_all);
			if (pl->u.num.values_all)
				pfree(pl->u.num.values_all);
			break;
		case CHUNK_ENCODING_WORDS:
			word_release(&pl->u.words);
			break;
		default:
			break;
	}
}

/*
 * chunk_parse
 *		Validate a chunk image completely and describe it in *pc; see the
 *		file header for the checks, in order.
 *
 * With random_access (ChunkReaderOpen) the uncompressed region is always a
 * copy owned by pc (never a pointer into data) and values are only checked,
 * block by block; otherwise (DecodeChunk) the region of an uncompressed
 * image is used in place, and the parsers that must look at every value
 * keep what they decode, for the caller to consume.  Everything is
 * allocated in CurrentMemoryContext.  Returns false with *detail set (and
 * nothing left allocated) if the image is corrupt.
 */
bool
chunk_parse(const ChunkTypeInfo *type, const char *data, Size len,
			int nvalues, bool random_access, ParsedChunk *pc,
			const char **detail)
{
	ChunkImageHeader hdr;
	pg_crc32c	crc;
	ByteReader	r;

	memset(pc, 0, sizeof(*pc));
	*detail = NULL;
	if (data == NULL || len < CHUNK_HEADER_SIZE)
	{
		*detail = "chunk image shorter than its header";
		return false;
	}
	memcpy(&hdr, data, CHUNK_HEADER_SIZE);
	if (hdr.magic != CHUNK_MAGIC)
	{
		*detail = "bad chunk magic number";
		return false;
	}
	if (hdr.version != CHUNK_FORMAT_VERSION)
	{
		*detail = "unsupported chunk format version";
		return false;
	}
	if (hdr.encoding >= CHUNK_ENCODING_COUNT)
	{
		*detail = "unknown chunk encoding";
		return false;
	}
	if (hdr.codec >= COLSTORE_CODEC_COUNT)
	{
		*detail = "unknown chunk codec";
		return false;
	}
	if (hdr.flags != 0 || hdr.reserved != 0)
	{
		*detail = "invalid chunk header flags";
		return false;
	}
	if (nvalues < 1 || hdr.nvalues != (uint32) nvalues)
	{
		*detail = "value count does not match";
		return false;
	}
	if (hdr.nnulls > hdr.nvalues)
	{
		*detail = "null count exceeds value count";
		return false;
	}
	if (hdr.stored_len != (uint64) (len - CHUNK_HEADER_SIZE))
	{
		*detail = "stored length does not match image length";
		return false;
	}
	crc = image_crc(data, len);
	if (crc != hdr.crc)
	{
		*detail = "checksum mismatch";
		return false;
	}
	pc->encoding = hdr.encoding;
	pc->codec = hdr.codec;
	pc->nvalues = hdr.nvalues;
	pc->nnulls = hdr.nnulls;

	if (hdr.encoding == CHUNK_ENCODING_ALL_NULL || hdr.nnulls == hdr.nvalues)
	{
		if (hdr.encoding != CHUNK_ENCODING_ALL_NULL ||
			hdr.nnulls != hdr.nvalues || hdr.encoded_len != 0 ||
			hdr.stored_len != 0 || hdr.codec != COLSTORE_CODEC_NONE)
		{
			*detail = "inconsistent all-null chunk";
			return false;
		}
		return true;
	}

	/* get the uncompressed region */
	if (hdr.codec == COLSTORE_CODEC_NONE)
	{
		if (hdr.encoded_len != hdr.stored_len)
		{
			*detail = "decompressed length does not match";
			return false;
		}
		if (random_access)
		{
			pc->region = MemoryContextAllocHuge(CurrentMemoryContext,
												Max((Size) hdr.encoded_len, 1));
			memcpy(pc->region, data + CHUNK_HEADER_SIZE, (Size) hdr.encoded_len);
			pc->region_owned = true;
		}
		else
			pc->region = unconstify(char *, data + CHUNK_HEADER_SIZE);
	}
	else
	{
		if (hdr.encoded_len == 0)
		{
			*detail = "decompressed length out of range";
			return false;
		}
		if (!codec_check_rawlen((ColstoreCodec) hdr.codec,
								data + CHUNK_HEADER_SIZE, (Size) hdr.stored_len,
								hdr.encoded_len, detail))
			return false;
		pc->region = MemoryContextAllocHuge(CurrentMemoryContext,
											(Size) hdr.encoded_len);
		pc->region_owned = true;
		if (!codec_decompress((ColstoreCodec) hdr.codec,
							  data + CHUNK_HEADER_SIZE, (Size) hdr.stored_len,
							  pc->region, (Size) hdr.encoded_len, detail))
			goto fail;
	}
	pc->region_len = (Size) hdr.encoded_len;
	reader_init(&r, pc->region, pc->region_len);

	/* null bitmap */
	if (hdr.nnulls > 0)
	{
		Size		bmlen = ((Size) nvalues + 7) / 8;
		uint64		count;

		pc->bitmap = reader_take(&r, bmlen);
		if (pc->bitmap == NULL)
		{
			*detail = "truncated null bitmap";
			goto fail;
		}
		count = pg_popcount((const char *) pc->bitmap, bmlen);
		if (count != hdr.nnulls ||
			(nvalues % 8 != 0 &&
			 (pc->bitmap[bmlen - 1] >> (nvalues % 8)) != 0))
		{
			*detail = "null bitmap does not match null count";
			goto fail;
		}
	}

	if (!parse_payload(type, hdr.encoding, &r,
					   (uint64) nvalues - hdr.nnulls, !random_access,
					   &pc->payload, detail))
		goto fail;
	if (reader_remaining(&r) != 0)
	{
		release_payload(type, &pc->payload);
		*detail = "trailing bytes after chunk payload";
		goto fail;
	}
	return true;

fail:
	if (pc->region_owned)
		pfree(pc->region);
	pc->region = NULL;
	return false;
}

/*
 * decode_payload
 *		Decode the parsed payload of the non-null values into
 *		values[0..nn-1] according to the encoding.  Cannot fail.
 */
static void
decode_payload(const ChunkTypeInfo *type, ChunkPayload *pl, Datum *values)
{
	uint64		nn = pl->nn;
	uint64		i;

	if (type_is_intlike(type))
	{
		int			typlen = type->typlen;
		uint64	   *iv;
		IntStreamIter it;

		if (pl->encoding == CHUNK_ENCODING_PLAIN)
		{
			for (i = 0; i < nn; i++)
				values[i] = intenc_plain_datum(pl->u.plain + i * typlen, typlen);
			return;
		}

		/* decode straight into the datum array when the sizes allow */
		if (sizeof(Datum) == sizeof(uint64))
			iv = (uint64 *) values;
		else
			iv = alloc_array(nn, sizeof(uint64));
		intenc_iter_init(&it, &pl->u.ints);
		intenc_iter_read(&it, iv, nn);
		if (typlen != 8 || (void *) iv != (void *) values)
		{
			/* one loop per width, not a switch per value */
			switch (typlen)
			{
				case 1:
					for (i = 0; i < nn; i++)
						values[i] = intenc_u64_to_datum(iv[i], 1);
					break;
				case 2:
					for (i = 0; i < nn; i++)
						values[i] = intenc_u64_to_datum(iv[i], 2);
					break;
				case 4:
					for (i = 0; i < nn; i++)
						values[i] = intenc_u64_to_datum(iv[i], 4);
					break;
				default:
					for (i = 0; i < nn; i++)
						values[i] = intenc_u64_to_datum(iv[i], 8);
					break;
			}
		}
		if ((void *) iv != (void *) values)
			pfree(iv);
		return;
	}

	switch (pl->encoding)
	{
		case CHUNK_ENCODING_PLAIN:
			{
				ByrefView  *views = alloc_array(nn, sizeof(ByrefView));

				byref_plain_views(type, &pl->u.byref, views);
				byref_materialize(type, views, nn, values);
				pfree(views);
				return;
			}
		case CHUNK_ENCODING_DICTIONARY:
			dict_decode(type, &pl->u.dict, values);
			return;
		case CHUNK_ENCODING_SCALED_NUMERIC:
			numeric_decode_scaled(&pl->u.num, values);
			return;
		case CHUNK_ENCODING_WORDS:
			word_decode(type, &pl->u.words, values);
			return;
		default:
			Assert(false);
	}
}

/*
 * DecodeChunk
 *		Decode a chunk image; see chunk_encoding.h for the contract and the
 *		file header for the checks performed (by chunk_parse).
 */
bool
DecodeChunk(const ChunkTypeInfo *type, const char *data, Size len,
			int nvalues, Datum *values, bool *isnull, const char **detail)
{
	ParsedChunk pc;
	int			i;

	if (!chunk_parse(type, data, len, nvalues, false, &pc, detail))
		return false;

	if (pc.encoding == CHUNK_ENCODING_ALL_NULL)
	{
		for (i = 0; i < nvalues; i++)
		{
			values[i] = (Datum) 0;
			isnull[i] = true;
		}
		return true;
	}

	decode_payload(type, &pc.payload, values);

	/* spread the non-null values out, back to front, in place */
	if (pc.bitmap == NULL)
		memset(isnull, 0, sizeof(bool) * nvalues);
	else
	{
		uint64		j = pc.payload.nn;

		for (i = nvalues - 1; i >= 0; i--)
		{
			if (pc.bitmap[i / 8] & (1 << (i % 8)))
			{
				values[i] = (Datum) 0;
				isnull[i] = true;
			}
			else
			{
				values[i] = values[--j];
				isnull[i] = false;
			}
		}
		Assert(j == 0);
	}
	if (pc.region_owned)
		pfree(pc.region);
	return true;
}

/*
 * DecodeChunkScaled
 *		Decode a chunk image in the scaled-integer numeric encoding; see
 *		chunk_encoding.h.
 */
bool
DecodeChunkScaled(const ChunkTypeInfo *type, const char *data, Size len,
				  int nvalues, int64 **values, int64 **dscales, bool *isnull,
				  int *scale, const char **detail)
{
	ParsedChunk pc;
	ScaledNumeric *sn;
	uint64		j;
	int			i;

	if (!chunk_parse(type, data, len, nvalues, false, &pc, detail))
		return false;
	if (pc.encoding != CHUNK_ENCODING_SCALED_NUMERIC)
	{
		*detail = "chunk is not in the scaled numeric encoding";
		return false;
	}
	sn = &pc.payload.u.num;
	*scale = sn->iscale;
	if (pc.bitmap == NULL)
	{
		/* no NULLs: the parsed arrays are the rows' */
		memset(isnull, 0, sizeof(bool) * nvalues);
		*values = (int64 *) sn->values_all;
		*dscales = (int64 *) sn->dscales_all;
	}
	else
	{
		/* spread the non-null values out */
		*values = palloc(sizeof(int64) * nvalues);
		*dscales = palloc(sizeof(int64) * nvalues);
		j = 0;
		for (i = 0; i < nvalues; i++)
		{
			isnull[i] = (pc.bitmap[i / 8] & (1 << (i % 8))) != 0;
			(*values)[i] = isnull[i] ? 0 : (int64) sn->values_all[j];
			(*dscales)[i] = isnull[i] ? 0 : (int64) sn->dscales_all[j];
			j += !isnull[i];
		}
		Assert(j == pc.payload.nn);
		pfree(sn->values_all);
		pfree(sn->dscales_all);
	}
	if (pc.region_owned)
		pfree(pc.region);
	return true;
}

/* Name of a ChunkEncoding for introspection; "unknown" if out of range. */
const char *
ChunkEncodingName(int encoding)
{
	if (encoding < 0 || encoding >= CHUNK_ENCODING_COUNT)
		return "unknown";
	return encoding_names[encoding];
}

/* Name of a ColstoreCodec for introspection; "unknown" if out of range. */
const char *
ColstoreCodecName(int codec)
{
	if (codec < 0 || codec >= COLSTORE_CODEC_COUNT)
		return "unknown";
	return codec_names[codec];
}

/*
 * ColstoreCodecFromName
 *		Parse a codec name (case-insensitive); false if unknown.
 */
bool
ColstoreCodecFromName(const char *name, ColstoreCodec *codec)
{
	int			i;

	for (i = 0; i < COLSTORE_CODEC_COUNT; i++)
	{
		if (pg_strcasecmp(name, codec_names[i]) == 0)
		{
			*codec = (ColstoreCodec) i;
			return true;
		}
	}
	return false;
}
