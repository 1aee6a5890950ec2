/*-------------------------------------------------------------------------
 *
 * agg_groups.c
 *	  The groups of ColstoreAgg's GROUP BY: a hash table from grouping key
 *	  values to group numbers, filled batch by batch.
 *
 * GroupTableAssign gives every selected row of a batch the number of its
 * group (0, 1, ... in order of first appearance), creating groups as new
 * key combinations appear; the aggregates then fold values into per-group
 * states by those numbers (agg_fold.c).  Keys are compared the way the
 * planner allowed them (agg_path.c): pass-by-value keys by their datums
 * (integers, date, bool, timestamps: types whose equality is identity);
 * varlena keys by their bytes (text and varchar under a deterministic
 * collation), bpchar without its trailing blanks, as bpchareq compares;
 * any other key (float, where -0 = 0 and NaN = NaN; numeric, where 1.5 =
 * 1.50; nondeterministic collations) through the grouping operator's own
 * hash and equality functions, as HashAggregate compares it.
 * NULLs form one group, as GROUP BY wants.  A group's key values are those
 * of its first row, copied into the table's memory, which is what
 * PostgreSQL's Agg returns as well.
 *
 * Dictionary-encoded chunks hand every row of one distinct value the same
 * pointer, so a small per-batch cache from the rows' raw key datums
 * (pointers, for varlena keys) to their group skips hashing and comparing
 * values for all but the first row of each combination.
 *
 * Memory grows with the number of groups; the planner offers ColstoreAgg
 * only when its estimate of the groups fits in hash_mem.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_groups.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "common/hashfn.h"
#include "fmgr.h"
#include "utils/datum.h"
#include "utils/memutils.h"

#include "cscan/agg_groups.h"

#define RAW_CACHE_SIZE	4096
#define RAW_CACHE_KEYS	4

/*
 * A batch-local cache entry: the raw datums of a row's keys (pointers for
 * varlena keys) and the group they belong to.
 */
typedef struct RawCacheEntry
{
	uint32		batch;			/* GroupTable.batch it was made in */
	uint32		group;
	uint32		nulls;			/* bit k: key k is NULL */
	Datum		raw[RAW_CACHE_KEYS];
} RawCacheEntry;

/* The bytes a varlena key is compared by. */
typedef struct KeyBytes
{
	const char *data;
	int32		len;
} KeyBytes;

/* One row's key values, ready to hash and compare. */
typedef struct RowKey
{
	Datum		value;
	bool		isnull;
	KeyBytes	bytes;			/* varlena keys */
} RowKey;

struct GroupTable
{
	MemoryContext cxt;			/* groups, keys, slots */
	MemoryContext batch_cxt;	/* detoasted values of the current batch */
	int			nkeys;
	GroupKeySpec *keys;
	uint32		ngroups;
	uint32		capacity;		/* groups the arrays below hold */
	RowKey	   *group_keys;		/* [capacity * nkeys] */
	uint32	   *hashes;			/* [capacity] */
	uint32	   *slots;			/* [nslots]: group + 1, 0 for empty */
	uint32		nslots;			/* a power of 2, at least twice ngroups */
	/* up to RAW_CACHE_KEYS keys: batch-local cache from raw datums to group */
	RawCacheEntry *cache;		/* [RAW_CACHE_SIZE], or NULL */
	uint32		batch;			/* batches assigned so far */
};

/*
 * GroupTableCreate
 *		An empty table for the given grouping columns, in a memory context
 *		of its own under CurrentMemoryContext (deleted with it).
 */
GroupTable *
GroupTableCreate(int nkeys, const GroupKeySpec *keys)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "ColstoreAgg groups",
											  ALLOCSET_DEFAULT_SIZES);
	GroupTable *table = MemoryContextAllocZero(cxt, sizeof(GroupTable));

	table->cxt = cxt;
	table->batch_cxt = AllocSetContextCreate(cxt, "ColstoreAgg group batch",
											 ALLOCSET_DEFAULT_SIZES);
	table->nkeys = nkeys;
	table->keys = MemoryContextAlloc(cxt, sizeof(GroupKeySpec) * Max(nkeys, 1));
	memcpy(table->keys, keys, sizeof(GroupKeySpec) * nkeys);
	table->capacity = 64;
	table->group_keys = MemoryContextAlloc(cxt, sizeof(RowKey) * table->capacity * Max(nkeys, 1));
	table->hashes = MemoryContextAlloc(cxt, sizeof(uint32) * table->capacity);
	table->nslots = 128;
	table->slots = MemoryContextAllocZero(cxt, sizeof(uint32) * table->nslots);
	if (nkeys <= RAW_CACHE_KEYS)
		table->cache = MemoryContextAllocZero(cxt, sizeof(RawCacheEntry) * RAW_CACHE_SIZE);
	return table;
}

/* Groups created so far. */
uint32
GroupTableSize(const GroupTable *table)
{
	return table->ngroups;
}

/* Grouping columns. */
int
GroupTableNumKeys(const GroupTable *table)
{
	return table->nkeys;
}

/* Whether grouping column key (0-based) is pass-by-value. */
bool
GroupTableKeyByVal(const GroupTable *table, int key)
{
	return table->keys[key].byval;
}

/* Value of grouping column key (0-based) of a group. */
Datum
GroupTableKey(const GroupTable *table, uint32 group, int key, bool *isnull)
{
	const RowKey *k = &table->group_keys[(Size) group * table->nkeys + key];

	Assert(group < table->ngroups);
	*isnull = k->isnull;
	return k->value;
}

/* 64-bit mix (the splitmix64 finalizer) folded to 32 bits. */
static inline uint32
HashDatum(Datum value)
{
	uint64		x = (uint64) value;

	x ^= x >> 30;
	x *= UINT64CONST(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64CONST(0x94d049bb133111eb);
	x ^= x >> 31;
	return (uint32) x;
}

/* Fill *key from a row's datum of grouping column k; returns its hash. */
static inline uint32
ReadRowKey(GroupTable *table, int k, Datum value, bool isnull, RowKey *key)
{
	struct varlena *v;

	const GroupKeySpec *spec = &table->keys[k];

	key->value = value;
	key->isnull = isnull;
	if (isnull)
		return 0x9e3779b9;
	if (spec->byval && !spec->by_function)
		return HashDatum(value);
	if (!spec->byval)
	{
		v = (struct varlena *) DatumGetPointer(value);
		if (VARATT_IS_EXTENDED(v) && !VARATT_IS_SHORT(v))
		{
			/* compressed or external (a heap tuple's value) */
			MemoryContext old = MemoryContextSwitchTo(table->batch_cxt);

			v = pg_detoast_datum_packed(v);
			MemoryContextSwitchTo(old);
			key->value = PointerGetDatum(v);
		}
	}
	if (spec->by_function)
	{
		/* what it allocates (detoasting) lives as long as the batch */
		MemoryContext old = MemoryContextSwitchTo(table->batch_cxt);
		uint32		hash = DatumGetUInt32(FunctionCall1Coll((FmgrInfo *) &spec->hash_fn,
															spec->collation, key->value));

		MemoryContextSwitchTo(old);
		return hash;
	}
	v = (struct varlena *) DatumGetPointer(key->value);
	key->bytes.data = VARDATA_ANY(v);
	key->bytes.len = VARSIZE_ANY_EXHDR(v);
	if (table->keys[k].blank_padded)
	{
		while (key->bytes.len > 0 && key->bytes.data[key->bytes.len - 1] == ' ')
			key->bytes.len--;
	}
	return hash_bytes((const unsigned char *) key->bytes.data, key->bytes.len);
}

static inline bool
KeysEqual(const GroupTable *table, const RowKey *a, const RowKey *b)
{
	int			k;

	for (k = 0; k < table->nkeys; k++)
	{
		if (a[k].isnull != b[k].isnull)
			return false;
		if (a[k].isnull)
			continue;
		if (table->keys[k].by_function)
		{
			MemoryContext old = MemoryContextSwitchTo(table->batch_cxt);
			bool		equal = DatumGetBool(FunctionCall2Coll((FmgrInfo *) &table->keys[k].eq_fn,
															   table->keys[k].collation,
															   a[k].value, b[k].value));

			MemoryContextSwitchTo(old);
			if (!equal)
				return false;
		}
		else if (table->keys[k].byval)
		{
			if (a[k].value != b[k].value)
				return false;
		}
		else if (a[k].bytes.len != b[k].bytes.len ||
				 memcmp(a[k].bytes.data, b[k].bytes.data, a[k].bytes.len) != 0)
			return false;
	}
	return true;
}

/* Double the slot array and put every group back. */
static void
GrowSlots(GroupTable *table)
{
	uint32		nslots = table->nslots * 2;
	uint32	   *slots = MemoryContextAllocZero(table->cxt, sizeof(uint32) * nslots);
	uint32		g;

	for (g = 0; g < table->ngroups; g++)
	{
		uint32		i = table->hashes[g] & (nslots - 1);

		while (slots[i] != 0)
			i = (i + 1) & (nslots - 1);
		slots[i] = g + 1;
	}
	pfree(table->slots);
	table->slots = slots;
	table->nslots = nslots;
}

/* A new group for key (copied into the table's memory) at slot i. */
static uint32
AddGroup(GroupTable *table, const RowKey *key, uint32 hash, uint32 slot)
{
	uint32		g = table->ngroups;
	RowKey	   *stored;
	int			k;

	if (g == table->capacity)
	{
		table->capacity *= 2;
		table->group_keys = repalloc_huge(table->group_keys,
										  sizeof(RowKey) * table->capacity * Max(table->nkeys, 1));
		table->hashes = repalloc_huge(table->hashes, sizeof(uint32) * table->capacity);
	}
	stored = &table->group_keys[(Size) g * table->nkeys];
	for (k = 0; k < table->nkeys; k++)
	{
		stored[k] = key[k];
		if (!key[k].isnull && !table->keys[k].byval)
		{
			MemoryContext old = MemoryContextSwitchTo(table->cxt);
			struct varlena *copy = (struct varlena *) DatumGetPointer(datumCopy(key[k].value, false, -1));

			MemoryContextSwitchTo(old);
			stored[k].value = PointerGetDatum(copy);
			if (!table->keys[k].by_function)
				stored[k].bytes.data = VARDATA_ANY(copy);
		}
	}
	table->hashes[g] = hash;
	table->slots[slot] = g + 1;
	table->ngroups++;
	if (table->ngroups * 2 > table->nslots)
		GrowSlots(table);
	return g;
}

/* The group of one row's keys, created if new. */
static uint32
FindGroup(GroupTable *table, const RowKey *key, uint32 hash)
{
	uint32		mask = table->nslots - 1;
	uint32		i = hash & mask;

	for (;;)
	{
		uint32		s = table->slots[i];

		if (s == 0)
			return AddGroup(table, key, hash, i);
		if (table->hashes[s - 1] == hash &&
			KeysEqual(table, &table->group_keys[(Size) (s - 1) * table->nkeys], key))
			return s - 1;
		i = (i + 1) & mask;
	}
}

/* The group of row i of the batch. */
static inline uint32
RowGroup(GroupTable *table, int i, Datum **values, bool **isnull, RowKey *key)
{
	uint32		hash = 0;
	int			k;

	for (k = 0; k < table->nkeys; k++)
		hash = hash_combine(hash, ReadRowKey(table, k, values[k][i], isnull[k][i], &key[k]));
	return FindGroup(table, key, hash);
}

/*
 * The group of row i through the raw datum cache: rows whose keys have the
 * same datums (the same pointers, for varlena keys) within one batch are
 * in the same group, since a batch's values do not move.
 */
static inline uint32
CachedRowGroup(GroupTable *table, int i, Datum **values, bool **isnull, RowKey *key)
{
	RawCacheEntry *entry;
	uint64		h = 0;
	uint32		nulls = 0;
	int			k;

	for (k = 0; k < table->nkeys; k++)
	{
		if (isnull[k][i])
			nulls |= 1 << k;
		else
			h = (h ^ (uint64) values[k][i]) * UINT64CONST(0x9e3779b97f4a7c15);
	}
	h ^= h >> 29;
	/* pointers are 8-byte aligned: the low bits carry little */
	entry = &table->cache[(h >> 3) & (RAW_CACHE_SIZE - 1)];
	if (entry->batch == table->batch && entry->nulls == nulls)
	{
		for (k = 0; k < table->nkeys; k++)
		{
			if (!(nulls & (1 << k)) && entry->raw[k] != values[k][i])
				break;
		}
		if (k == table->nkeys)
			return entry->group;
	}
	entry->batch = table->batch;
	entry->nulls = nulls;
	for (k = 0; k < table->nkeys; k++)
		entry->raw[k] = (nulls & (1 << k)) ? (Datum) 0 : values[k][i];
	entry->group = RowGroup(table, i, values, isnull, key);
	return entry->group;
}

/*
 * GroupTableAssign
 *		Set groups[i] to the group of row i for every row of the batch
 *		(nrows rows; values[k] and isnull[k] are the batch's arrays of
 *		grouping column k) that selected marks (every row if selected is
 *		NULL), creating groups as needed.  Other entries are left alone.
 */
void
GroupTableAssign(GroupTable *table, int nrows, Datum **values, bool **isnull,
				 const bool *selected, uint32 *groups)
{
	RowKey		keybuf[8];
	RowKey	   *key = table->nkeys <= lengthof(keybuf) ? keybuf :
		palloc(sizeof(RowKey) * table->nkeys);
	int			i;

	MemoryContextReset(table->batch_cxt);
	table->batch++;
	for (i = 0; i < nrows; i++)
	{
		if (selected != NULL && !selected[i])
			continue;
		groups[i] = table->cache != NULL ?
			CachedRowGroup(table, i, values, isnull, key) :
			RowGroup(table, i, values, isnull, key);
	}
	if (key != keybuf)
		pfree(key);
}
