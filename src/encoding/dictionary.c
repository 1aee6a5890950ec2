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
 * The decoder materializes each distinct value once, in one allocation,
 * and points every row's datum at its dictionary entry (datums are
 * read-only, so sharing is safe); every code is checked against ndistinct.
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
 * dict_decode
 *		Decode a dictionary payload of n values at the reader's position into
 *		out[0..n-1].  Returns false with *detail on any inconsistency.
 */
bool
dict_decode(ChunkReader *r, const ChunkTypeInfo *type, uint64 n, Datum *out,
			const char **detail)
{
	uint32		ndistinct;
	ByrefView  *entries;
	Datum	   *dict;
	uint64	   *codes;
	uint64		i;

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
	entries = alloc_array(ndistinct, sizeof(ByrefView));
	if (!byref_decode_plain(r, type, ndistinct, entries, detail))
	{
		pfree(entries);
		return false;
	}
	codes = alloc_array(n, sizeof(uint64));
	if (!intenc_decode(r, n, codes, detail))
	{
		pfree(entries);
		pfree(codes);
		return false;
	}
	for (i = 0; i < n; i++)
	{
		if (codes[i] >= ndistinct)
		{
			pfree(entries);
			pfree(codes);
			*detail = "dictionary code out of range";
			return false;
		}
	}

	dict = alloc_array(ndistinct, sizeof(Datum));
	byref_materialize(type, entries, ndistinct, dict);
	for (i = 0; i < n; i++)
		out[i] = dict[codes[i]];
	pfree(dict);
	pfree(entries);
	pfree(codes);
	return true;
}
