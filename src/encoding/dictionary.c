/*-------------------------------------------------------------------------
 *
 * dictionary.c
 *	  Dictionary encoding of pass-by-reference values: distinct values plus
 *	  one integer code per value.
 *
 * The encoder finds the distinct values with an open-addressing hash table
 * (linear probing, hash_bytes over the content bytes, at most half full)
 * that maps content to a code in first-seen order.  The payload is
 *
 *	uint32 ndistinct, the distinct values in plain form (byref_values.c),
 *	an integer stream (integer_encoding.c) of the n codes
 *
 * so codes get frame-of-reference, delta or run-length encoding as fits:
 * repeating patterns such as i % 1000 become a delta stream of a few runs.
 * dict_build gives up as soon as the distinct values alone reach the size
 * limit it is given (the plain size), since the dictionary cannot win then.
 *
 * The parser checks every code against ndistinct.  The decoder
 * materializes each distinct value once, in one allocation, and points
 * every row's datum at its dictionary entry (datums are read-only, so
 * sharing is safe); random access reads one code and copies out its entry.
 *
 * IDENTIFICATION
 *	  src/encoding/dictionary.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"

#include "encoding/dictionary.h"
#include "encoding/integer_encoding.h"

static inline uint32
view_hash(const ByrefView *v)
{
	/* hash_bytes takes an int length; values are below 1 GB */
	return hash_bytes((const unsigned char *) v->ptr, (int) v->len);
}

/*
 * dict_build
 *		Find the distinct values among views[0..n-1] and assign codes.
 *
 * Returns false (and leaves nothing allocated) if the distinct values'
 * content bytes alone reach limit, i.e. the dictionary cannot be smaller
 * than the alternative.  On success plan->size is the exact payload size.
 */
bool
dict_build(const ChunkTypeInfo *type, const ByrefView *views, uint64 n,
		   uint64 limit, DictPlan *plan)
{
	uint64		nslots;
	uint32	   *slots;
	uint32	   *hashes;
	uint64		ndistinct = 0;
	uint64		dict_bytes = 0;
	uint64		i;

	memset(plan, 0, sizeof(*plan));
	if (n == 0 || n > PG_UINT32_MAX / 4)
		return false;

	nslots = 16;
	while (nslots < n * 2)
		nslots *= 2;
	slots = alloc_array(nslots, sizeof(uint32));
	memset(slots, 0, nslots * sizeof(uint32));
	hashes = alloc_array(n, sizeof(uint32));
	plan->entries = alloc_array(n, sizeof(ByrefView));
	plan->codes = alloc_array(n, sizeof(uint64));

	for (i = 0; i < n; i++)
	{
		const ByrefView *v = &views[i];
		uint32		h = view_hash(v);
		uint64		slot = h & (nslots - 1);

		for (;;)
		{
			uint32		s = slots[slot];

			if (s == 0)
			{
				/* new distinct value */
				plan->entries[ndistinct] = *v;
				hashes[ndistinct] = h;
				ndistinct++;
				slots[slot] = (uint32) ndistinct;
				plan->codes[i] = ndistinct - 1;
				dict_bytes += v->len;
				break;
			}
			else
			{
				const ByrefView *e = &plan->entries[s - 1];

				if (hashes[s - 1] == h && e->len == v->len &&
					memcmp(e->ptr, v->ptr, v->len) == 0)
				{
					plan->codes[i] = s - 1;
					break;
				}
			}
			slot = (slot + 1) & (nslots - 1);
		}
		if (dict_bytes >= limit)
		{
			pfree(slots);
			pfree(hashes);
			dict_free(plan);
			return false;
		}
	}
	pfree(slots);
	pfree(hashes);

	plan->ndistinct = ndistinct;
	plan->size = 4 + byref_plain_size(type, plan->entries, ndistinct) +
		intenc_best_size(plan->codes, n, NULL);
	return true;
}

/* Append the dictionary payload described by plan (built for n values). */
void
dict_encode(EncBuf *buf, const ChunkTypeInfo *type, const DictPlan *plan,
			uint64 n)
{
	encbuf_u32(buf, (uint32) plan->ndistinct);
	byref_encode_plain(buf, type, plan->entries, plan->ndistinct);
	intenc_encode(buf, plan->codes, n);
}

/* Release the arrays of a plan (safe on a zeroed or already freed plan). */
void
dict_free(DictPlan *plan)
{
	if (plan->entries)
		pfree(plan->entries);
	if (plan->codes)
		pfree(plan->codes);
	memset(plan, 0, sizeof(*plan));
}

/*
 * dict_parse
 *		Parse and validate a dictionary payload of n values at the reader's
 *		position into *dp, advancing the reader past it.
 *
 * Every code is checked against ndistinct.  With keep, the entries' lengths
 * and the codes are also left in dp (for dict_decode, which frees them).
 * Returns false with *detail on any inconsistency.
 */
bool
dict_parse(ByteReader *r, const ChunkTypeInfo *type, uint64 n, bool keep,
		   DictPayload *dp, const char **detail)
{
	uint32		ndistinct;
	IntStreamIter it;
	uint64		buf[INTENC_BLOCK];
	uint64	   *codes;
	uint64		count;
	uint64		i;

	memset(dp, 0, sizeof(*dp));
	if (!reader_u32(r, &ndistinct))
	{
		*detail = "truncated dictionary";
		return false;
	}
	if (ndistinct == 0 || ndistinct > n)
	{
		*detail = "invalid dictionary size";
		return false;
	}
	dp->ndistinct = ndistinct;
	if (!byref_parse_plain(r, type, ndistinct, keep, &dp->entries, detail))
		return false;
	if (!intenc_parse(r, n, &dp->codes, detail))
		goto fail;
	if (keep)
		dp->codes_all = alloc_array(n, sizeof(uint64));
	intenc_iter_init(&it, &dp->codes);
	while ((count = intenc_iter_batch(&it, dp->codes_all, buf, &codes)) > 0)
	{
		for (i = 0; i < count; i++)
		{
			if (codes[i] >= ndistinct)
			{
				*detail = "dictionary code out of range";
				goto fail;
			}
		}
	}
	return true;

fail:
	if (dp->entries.lens_all)
		pfree(dp->entries.lens_all);
	if (dp->codes_all)
		pfree(dp->codes_all);
	return false;
}

/*
 * dict_decode
 *		Decode a dictionary payload parsed with keep into out[0..n-1]: each
 *		distinct value is materialized once and shared by its rows.
 */
void
dict_decode(const ChunkTypeInfo *type, DictPayload *dp, Datum *out)
{
	ByrefView  *entries = alloc_array(dp->ndistinct, sizeof(ByrefView));
	Datum	   *dict = alloc_array(dp->ndistinct, sizeof(Datum));
	uint64		i;

	byref_plain_views(type, &dp->entries, entries);
	byref_materialize(type, entries, dp->ndistinct, dict);
	for (i = 0; i < dp->codes.n; i++)
		out[i] = dict[dp->codes_all[i]];
	pfree(dict);
	pfree(entries);
	pfree(dp->codes_all);
	dp->codes_all = NULL;
}

/*
 * dict_build_index
 *		Prepare a parsed dictionary payload for dict_get; returns the bytes
 *		allocated in CurrentMemoryContext.
 */
Size
dict_build_index(const ChunkTypeInfo *type, DictPayload *dp)
{
	return byref_build_offsets(type, &dp->entries) +
		intenc_build_index(&dp->codes);
}

/*
 * dict_get
 *		Datum of value index of an indexed dictionary payload, in its own
 *		allocation in CurrentMemoryContext.
 */
Datum
dict_get(const ChunkTypeInfo *type, const DictPayload *dp, uint64 index)
{
	uint64		code = intenc_get(&dp->codes, index);

	return byref_materialize_one(type,
								 byref_plain_get(type, &dp->entries, code));
}
