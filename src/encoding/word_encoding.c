/*-------------------------------------------------------------------------
 *
 * word_encoding.c
 *	  Word encoding of variable-length values (text): a vocabulary of the
 *	  words the chunk's values are made of, and each value as the codes of
 *	  its words.
 *
 * A value is cut into words: each word is a run of bytes other than the
 * space (0x20) followed by the run of spaces after it, so the words of a
 * value, concatenated, are the value, byte for byte (an empty value has no
 * words; one that starts with spaces starts with a word of spaces only).
 * The vocabulary holds each distinct word once, the most frequent first
 * (ties in first-seen order); word k has code k + 1 and code 0 ends a
 * value, so frequent words get the small codes.  The payload is
 *
 *	uint32 nvocab (1..WORDS_MAX_VOCAB), the words in plain form
 *	(byref_values.c; every word at least one byte long), then for each
 *	value the codes of its words and a 0, each code one byte (below 224),
 *	two or three (see put_code)
 *
 * A chunk is put in this encoding only when the payload is smaller than
 * the plain form and the dictionary: text whose values are different but
 * made of the same words (comments, descriptions, names of a few parts).
 * The codes are bytes on purpose: the chunk's codec (zstd) then codes the
 * frequent words in a few bits each, where it would spend a match (an
 * offset and a length) on each word of the plain text; zstd compresses
 * such a region with its block splitter (codec_compress_split), so the
 * vocabulary's text and the codes get entropy tables of their own.
 *
 * The parser checks the vocabulary like any plain form, that no word is
 * empty, that every code is complete and at most nvocab, that n values end,
 * each value's length against the largest value and the chunk's total
 * content against WORDS_MAX_CONTENT (a few code bytes may name a long word
 * many times: the decoded size is bounded here, not by the image), and
 * that the codes are consumed exactly.  Decoding assembles the values'
 * content in one buffer and materializes them as the plain form's are
 * (byref_values.c); random access keeps the offset of each value's first
 * code.
 *
 * IDENTIFICATION
 *	  src/encoding/word_encoding.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "encoding/word_encoding.h"

/* Largest content length a decoded value may have (byref_values.c's). */
#define MAX_VARLENA_CONTENT		((Size) (MaxAllocSize - VARHDRSZ))
#define MAX_CSTRING_CONTENT		((Size) (MaxAllocSize - 1))

/*
 * Codes: below 224 one byte; below 8160 two bytes, 224 + (c - 224) / 256
 * and (c - 224) % 256; else three, 255 and c - 8160 as a little-endian
 * uint16.
 */
#define CODE_ONE_BYTE		224
#define CODE_TWO_BYTES		(CODE_ONE_BYTE + 31 * 256)

/* Bytes of one code. */
static inline int
code_bytes(uint32 code)
{
	return code < CODE_ONE_BYTE ? 1 : (code < CODE_TWO_BYTES ? 2 : 3);
}

/* Bytes of the code whose first byte is b. */
static inline int
code_bytes_at(uint8 b)
{
	return b < CODE_ONE_BYTE ? 1 : (b < 255 ? 2 : 3);
}

/* Append one code at dst; returns the bytes written. */
static inline int
put_code(uint8 *dst, uint32 code)
{
	if (code < CODE_ONE_BYTE)
	{
		dst[0] = (uint8) code;
		return 1;
	}
	if (code < CODE_TWO_BYTES)
	{
		dst[0] = (uint8) (CODE_ONE_BYTE + ((code - CODE_ONE_BYTE) >> 8));
		dst[1] = (uint8) ((code - CODE_ONE_BYTE) & 0xFF);
		return 2;
	}
	dst[0] = 255;
	dst[1] = (uint8) ((code - CODE_TWO_BYTES) & 0xFF);
	dst[2] = (uint8) ((code - CODE_TWO_BYTES) >> 8);
	return 3;
}

/*
 * Read the code at codes[*pos] (the caller has checked that the codes are
 * well formed) and advance *pos.
 */
static inline uint32
get_code(const uint8 *codes, uint64 *pos)
{
	uint8		b = codes[(*pos)++];
	uint32		c;

	if (b < CODE_ONE_BYTE)
		return b;
	if (b < 255)
		return CODE_ONE_BYTE + ((uint32) (b - CODE_ONE_BYTE) << 8) + codes[(*pos)++];
	c = CODE_TWO_BYTES + codes[*pos] + ((uint32) codes[*pos + 1] << 8);
	*pos += 2;
	return c;
}

/* Length of the word at p (p < end): non-spaces, then spaces. */
static inline Size
word_length(const char *p, const char *end)
{
	const char *s = p;

	while (p < end && *p != ' ')
		p++;
	while (p < end && *p == ' ')
		p++;
	return (Size) (p - s);
}

/*
 * The first (up to) 8 bytes of a word as an integer, zero padded: with the
 * length, it tells most words apart without a memcmp.
 */
static inline uint64
word_prefix(const char *p, Size len)
{
	uint64		k = 0;

	memcpy(&k, p, Min(len, sizeof(k)));
	return k;
}

/* Hash of a word whose prefix is k (one multiply for words of 8 bytes). */
static inline uint32
word_hash(const char *p, Size len, uint64 k)
{
	uint64		h = (k ^ len) * UINT64CONST(0x9E3779B97F4A7C15);
	Size		off;

	for (off = sizeof(k); off < len; off += sizeof(k))
	{
		uint64		more = 0;

		memcpy(&more, p + off, Min(len - off, sizeof(more)));
		h = (h ^ more) * UINT64CONST(0x9E3779B97F4A7C15);
	}
	return (uint32) (h >> 32);
}

/* Order of vocabulary entries: more frequent first, then first seen. */
typedef struct VocabRank
{
	uint64		freq;
	uint32		first;
} VocabRank;

static int
vocab_rank_cmp(const void *a, const void *b)
{
	const VocabRank *x = (const VocabRank *) a;
	const VocabRank *y = (const VocabRank *) b;

	if (x->freq != y->freq)
		return x->freq > y->freq ? -1 : 1;
	return x->first < y->first ? -1 : (x->first > y->first ? 1 : 0);
}

/*
 * word_build
 *		Cut views[0..n-1] into words, find the distinct ones and code every
 *		word.  Returns false (and leaves nothing allocated) if the type is
 *		not variable-length, the content exceeds WORDS_MAX_CONTENT, there
 *		are more than WORDS_MAX_VOCAB distinct words, or their bytes and a
 *		byte per word reach limit (the payload would be larger).  On success plan->size
 *		is the exact payload size.
 */
bool
word_build(const ChunkTypeInfo *type, const ByrefView *views, uint64 n,
		   uint64 limit, WordPlan *plan)
{
	uint64		content = 0;
	uint64		maxvocab;
	uint64		nslots = 1024;
	uint32	   *slots;
	uint32	   *hashes;
	uint64	   *prefixes;
	uint64	   *freq;
	uint32	   *codes;
	uint64		codes_cap;
	uint64		ntokens = 0;
	uint64		vocab_bytes = 0;
	uint32		nvocab = 0;
	VocabRank  *rank;
	uint32	   *remap;
	ByrefView  *sorted;
	uint64		code_size = 0;
	uint64		i;

	memset(plan, 0, sizeof(*plan));
	if (n == 0 || type->typlen >= 0)
		return false;
	for (i = 0; i < n; i++)
		content += views[i].len;
	if (content == 0 || content > WORDS_MAX_CONTENT)
		return false;

	maxvocab = Min(content, (uint64) WORDS_MAX_VOCAB);
	slots = alloc_array(nslots, sizeof(uint32));
	memset(slots, 0, nslots * sizeof(uint32));
	hashes = alloc_array(maxvocab, sizeof(uint32));
	prefixes = alloc_array(maxvocab, sizeof(uint64));
	freq = alloc_array(maxvocab, sizeof(uint64));
	plan->vocab = alloc_array(maxvocab, sizeof(ByrefView));
	codes_cap = n * 8 + 64;
	codes = alloc_array(codes_cap, sizeof(uint32));

	for (i = 0; i < n; i++)
	{
		const char *p = views[i].ptr;
		const char *end = p + views[i].len;

		while (p < end)
		{
			Size		len = word_length(p, end);
			uint64		k = word_prefix(p, len);
			uint32		h = word_hash(p, len, k);
			uint64		slot = h & (nslots - 1);
			uint32		code = 0;

			for (;;)
			{
				uint32		s = slots[slot];

				if (s == 0)
				{
					if (nvocab == maxvocab)
						goto fail;
					code = nvocab++;
					plan->vocab[code].ptr = p;
					plan->vocab[code].len = len;
					hashes[code] = h;
					prefixes[code] = k;
					freq[code] = 0;
					slots[slot] = code + 1;
					vocab_bytes += len;
					break;
				}
				if (prefixes[s - 1] == k && plan->vocab[s - 1].len == len &&
					(len <= sizeof(k) ||
					 memcmp(plan->vocab[s - 1].ptr + sizeof(k), p + sizeof(k),
							len - sizeof(k)) == 0))
				{
					code = s - 1;
					break;
				}
				slot = (slot + 1) & (nslots - 1);
			}
			/* the payload takes more than the words and a byte per code */
			if (vocab_bytes + ntokens >= limit)
				goto fail;
			freq[code]++;
			if (ntokens == codes_cap)
			{
				codes_cap = codes_cap * 2;
				codes = repalloc_huge(codes, codes_cap * sizeof(uint32));
			}
			codes[ntokens++] = code;
			p += len;

			/* keep the table at most half full */
			if ((uint64) nvocab * 2 > nslots)
			{
				uint64		e;

				pfree(slots);
				nslots *= 2;
				slots = alloc_array(nslots, sizeof(uint32));
				memset(slots, 0, nslots * sizeof(uint32));
				for (e = 0; e < nvocab; e++)
				{
					uint64		sl = hashes[e] & (nslots - 1);

					while (slots[sl] != 0)
						sl = (sl + 1) & (nslots - 1);
					slots[sl] = (uint32) e + 1;
				}
			}
		}
		/* the end of the value */
		if (ntokens == codes_cap)
		{
			codes_cap = codes_cap * 2;
			codes = repalloc_huge(codes, codes_cap * sizeof(uint32));
		}
		codes[ntokens++] = PG_UINT32_MAX;
	}

	/* most frequent words first */
	rank = alloc_array(nvocab, sizeof(VocabRank));
	for (i = 0; i < nvocab; i++)
	{
		rank[i].freq = freq[i];
		rank[i].first = (uint32) i;
	}
	qsort(rank, nvocab, sizeof(VocabRank), vocab_rank_cmp);
	remap = alloc_array(nvocab, sizeof(uint32));
	sorted = alloc_array(nvocab, sizeof(ByrefView));
	for (i = 0; i < nvocab; i++)
	{
		remap[rank[i].first] = (uint32) i + 1;
		sorted[i] = plan->vocab[rank[i].first];
		code_size += freq[rank[i].first] * code_bytes((uint32) i + 1);
	}
	code_size += n;				/* the ends, code 0 */
	plan->codes = alloc_array(ntokens, sizeof(uint16));
	for (i = 0; i < ntokens; i++)
		plan->codes[i] = codes[i] == PG_UINT32_MAX ? 0 : (uint16) remap[codes[i]];
	pfree(plan->vocab);
	plan->vocab = sorted;
	pfree(remap);
	pfree(rank);
	pfree(codes);
	pfree(freq);
	pfree(prefixes);
	pfree(hashes);
	pfree(slots);

	plan->nvocab = nvocab;
	plan->ntokens = ntokens;
	plan->code_size = code_size;
	plan->size = 4 + byref_plain_size(type, plan->vocab, nvocab) + code_size;
	return true;

fail:
	pfree(codes);
	pfree(freq);
	pfree(prefixes);
	pfree(hashes);
	pfree(slots);
	word_free(plan);
	return false;
}

/* Append the word payload described by plan (built for n values). */
void
word_encode(EncBuf *buf, const ChunkTypeInfo *type, const WordPlan *plan,
			uint64 n)
{
	Size		start = buf->len;
	uint8	   *dst;
	uint64		i;

	encbuf_u32(buf, plan->nvocab);
	byref_encode_plain(buf, type, plan->vocab, plan->nvocab);
	dst = (uint8 *) encbuf_reserve(buf, plan->code_size);
	for (i = 0; i < plan->ntokens; i++)
		dst += put_code(dst, plan->codes[i]);
	buf->len += plan->code_size;
	Assert(buf->len - start == plan->size);
	(void) start;
}

/* Release the arrays of a plan (safe on a zeroed or already freed plan). */
void
word_free(WordPlan *plan)
{
	if (plan->vocab)
		pfree(plan->vocab);
	if (plan->codes)
		pfree(plan->codes);
	memset(plan, 0, sizeof(*plan));
}

/*
 * word_parse
 *		Parse and validate a word payload of n values at the reader's
 *		position into *wp, advancing the reader past it; see the file
 *		header for the checks.  With keep, the words' lengths are left in
 *		wp for word_decode (word_release frees them otherwise).  Returns
 *		false with *detail on any inconsistency, leaving nothing allocated.
 */
bool
word_parse(ByteReader *r, const ChunkTypeInfo *type, uint64 n, bool keep,
		   WordPayload *wp, const char **detail)
{
	Size		maxlen = type->typlen == -1 ? MAX_VARLENA_CONTENT : MAX_CSTRING_CONTENT;
	uint32		nvocab;
	const uint8 *codes;
	Size		avail;
	uint64		pos = 0;
	uint64		content = 0;
	uint64		i;

	memset(wp, 0, sizeof(*wp));
	wp->n = n;
	if (type->typlen >= 0)
	{
		*detail = "encoding not valid for the column type";
		return false;
	}
	if (!reader_u32(r, &nvocab))
	{
		*detail = "truncated word vocabulary";
		return false;
	}
	if (nvocab == 0 || nvocab > WORDS_MAX_VOCAB)
	{
		*detail = "invalid word vocabulary size";
		return false;
	}
	wp->nvocab = nvocab;
	if (!byref_parse_plain(r, type, nvocab, true, &wp->vocab, detail))
		return false;
	for (i = 0; i < nvocab; i++)
	{
		if (wp->vocab.lens_all[i] == 0)
		{
			*detail = "empty word in vocabulary";
			goto fail;
		}
	}

	/* every code takes a byte at least: the loop ends within avail steps */
	avail = reader_remaining(r);
	codes = r->data + r->pos;
	for (i = 0; i < n; i++)
	{
		uint64		vlen = 0;

		for (;;)
		{
			uint32		code;

			if (pos >= avail || code_bytes_at(codes[pos]) > avail - pos)
			{
				*detail = "truncated word codes";
				goto fail;
			}
			code = get_code(codes, &pos);
			if (code == 0)
				break;
			if (code > nvocab)
			{
				*detail = "word code out of range";
				goto fail;
			}
			vlen += wp->vocab.lens_all[code - 1];
			if (vlen > maxlen)
			{
				*detail = "value length out of range";
				goto fail;
			}
		}
		content += vlen;
		if (content > WORDS_MAX_CONTENT)
		{
			*detail = "word values too large";
			goto fail;
		}
	}
	wp->codes = reader_take(r, pos);
	wp->code_bytes = pos;
	wp->content = content;
	if (!keep)
		word_release(wp);
	return true;

fail:
	word_release(wp);
	return false;
}

/* Free what word_parse kept (safe to call twice). */
void
word_release(WordPayload *wp)
{
	if (wp->vocab.lens_all)
		pfree(wp->vocab.lens_all);
	wp->vocab.lens_all = NULL;
}

/*
 * word_decode
 *		Decode a word payload parsed with keep into out[0..n-1], as the
 *		plain form's values are materialized; frees what the parse kept.
 */
void
word_decode(const ChunkTypeInfo *type, WordPayload *wp, Datum *out)
{
	ByrefView  *vocab = alloc_array(wp->nvocab, sizeof(ByrefView));
	ByrefView  *views = alloc_array(wp->n, sizeof(ByrefView));
	char	   *content = alloc_array(wp->content, 1);
	char	   *dst = content;
	uint64		pos = 0;
	uint64		i;

	byref_plain_views(type, &wp->vocab, vocab);
	for (i = 0; i < wp->n; i++)
	{
		uint32		code;

		views[i].ptr = dst;
		while ((code = get_code(wp->codes, &pos)) != 0)
		{
			const ByrefView *w = &vocab[code - 1];

			memcpy(dst, w->ptr, w->len);
			dst += w->len;
		}
		views[i].len = (Size) (dst - views[i].ptr);
	}
	Assert(pos == wp->code_bytes);
	byref_materialize(type, views, wp->n, out);
	pfree(content);
	pfree(views);
	pfree(vocab);
}

/*
 * word_build_index
 *		Prepare a parsed word payload for word_get: the words' offsets and
 *		the offset of each value's first code.  Returns the bytes allocated
 *		in CurrentMemoryContext.
 */
Size
word_build_index(const ChunkTypeInfo *type, WordPayload *wp)
{
	uint64		pos = 0;
	uint64		v;
	Size		mem = byref_build_offsets(type, &wp->vocab);

	/*
	 * The codes are at most 3 * WORDS_MAX_CONTENT bytes and an end per value
	 * (n < 2^32): offsets fit 32 bits.
	 */
	wp->value_start = alloc_array(wp->n, sizeof(uint32));
	for (v = 0; v < wp->n; v++)
	{
		wp->value_start[v] = (uint32) pos;
		while (get_code(wp->codes, &pos) != 0)
			;
	}
	Assert(pos == wp->code_bytes);
	return mem + GetMemoryChunkSpace(wp->value_start);
}

/*
 * word_get
 *		Datum of value index of an indexed word payload, in its own
 *		allocation in CurrentMemoryContext (as byref_materialize_one).
 */
Datum
word_get(const ChunkTypeInfo *type, const WordPayload *wp, uint64 index)
{
	uint64		first = wp->value_start[index];
	uint64		pos;
	uint32		code;
	Size		len = 0;
	char	   *tmp;
	char	   *dst;
	ByrefView	value;
	Datum		d;

	pos = first;
	while ((code = get_code(wp->codes, &pos)) != 0)
		len += byref_plain_get(type, &wp->vocab, code - 1).len;
	tmp = dst = palloc(Max(len, 1));
	pos = first;
	while ((code = get_code(wp->codes, &pos)) != 0)
	{
		ByrefView	w = byref_plain_get(type, &wp->vocab, code - 1);

		memcpy(dst, w.ptr, w.len);
		dst += w.len;
	}
	value.ptr = tmp;
	value.len = len;
	d = byref_materialize_one(type, value);
	pfree(tmp);
	return d;
}
