/*-------------------------------------------------------------------------
 *
 * chunk_cache.c
 *	  Backend-local LRU cache of row group headers and chunk readers.
 *
 * An index lookup needs one value from one chunk of each column.  A chunk
 * reader (encoding/chunk_reader.c) gives random access to the values of a
 * chunk image without decoding all of them, and takes about as much memory
 * as the encoded chunk, so readers are kept here, up to
 * colstore.chunk_cache_size kilobytes per backend: for most tables all
 * chunks of the looked-up columns fit.  Row groups are
 * immutable, so an entry can only become stale when the relation's storage
 * changes (TRUNCATE, rewrite) or its descriptor does (ADD COLUMN changes
 * missing values); relcache invalidations drop the relation's entries.
 *
 * Entries are evicted only by ChunkCacheTrim, which callers run before
 * starting a lookup, so pointers returned during one lookup stay valid
 * until the lookup has copied what it needs.
 *
 * IDENTIFICATION
 *	  src/storage/chunk_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include <limits.h>

#include "lib/ilist.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "storage/chunk_cache.h"
#include "storage/directory.h"

int			colstore_chunk_cache_size_kb = 131072;

typedef struct ChunkCacheKey
{
	Oid			relid;
	Oid			relnode;
	uint64		first_row;		/* identifies the row group */
	int32		attno;			/* -1: the header */
	uint32		chunkno;
} ChunkCacheKey;

typedef struct ChunkCacheEntry
{
	ChunkCacheKey key;
	MemoryContext cxt;
	const RowGroupHeader *header;
	ChunkReader *reader;
	Size		size;
	dlist_node	lru;			/* most recently used at the head */
} ChunkCacheEntry;

static HTAB *ChunkCache = NULL;
static MemoryContext ChunkCacheContext = NULL;
static dlist_head ChunkCacheLru = DLIST_STATIC_INIT(ChunkCacheLru);
static Size ChunkCacheBytes = 0;

static void
EnsureCache(void)
{
	HASHCTL		ctl;

	if (ChunkCache != NULL)
		return;
	ChunkCacheContext = AllocSetContextCreate(TopMemoryContext, "colstore chunk cache",
											  ALLOCSET_DEFAULT_SIZES);
	ctl.keysize = sizeof(ChunkCacheKey);
	ctl.entrysize = sizeof(ChunkCacheEntry);
	ctl.hcxt = ChunkCacheContext;
	ChunkCache = hash_create("colstore chunk cache", 1024, &ctl,
							 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

static void
RemoveEntry(ChunkCacheEntry *entry)
{
	ChunkCacheKey key = entry->key;

	dlist_delete(&entry->lru);
	ChunkCacheBytes -= entry->size;
	MemoryContextDelete(entry->cxt);
	hash_search(ChunkCache, &key, HASH_REMOVE, NULL);
}

/* Evict least recently used entries until the cache fits its budget. */
void
ChunkCacheTrim(void)
{
	Size		budget = (Size) colstore_chunk_cache_size_kb * 1024;

	while (ChunkCache != NULL && ChunkCacheBytes > budget &&
		   !dlist_is_empty(&ChunkCacheLru))
		RemoveEntry(dlist_container(ChunkCacheEntry, lru,
									dlist_tail_node(&ChunkCacheLru)));
}

/* Drop all entries of relid (InvalidOid: all entries). */
void
ChunkCacheInvalidate(Oid relid)
{
	dlist_mutable_iter iter;

	if (ChunkCache == NULL)
		return;
	dlist_foreach_modify(iter, &ChunkCacheLru)
	{
		ChunkCacheEntry *entry = dlist_container(ChunkCacheEntry, lru, iter.cur);

		if (!OidIsValid(relid) || entry->key.relid == relid)
			RemoveEntry(entry);
	}
}

/* Find or create the entry for key; *found tells which. */
static ChunkCacheEntry *
Lookup(ChunkCacheKey *key, bool *found)
{
	ChunkCacheEntry *entry;

	EnsureCache();
	entry = hash_search(ChunkCache, key, HASH_ENTER, found);
	if (*found)
	{
		dlist_move_head(&ChunkCacheLru, &entry->lru);
		return entry;
	}
	entry->cxt = AllocSetContextCreate(ChunkCacheContext, "colstore cached chunk",
									   ALLOCSET_SMALL_SIZES);
	entry->header = NULL;
	entry->reader = NULL;
	entry->size = 0;
	dlist_push_head(&ChunkCacheLru, &entry->lru);
	return entry;
}

static void
Account(ChunkCacheEntry *entry)
{
	entry->size = MemoryContextMemAllocated(entry->cxt, true);
	ChunkCacheBytes += entry->size;
}

static void
MakeKey(ChunkCacheKey *key, Relation rel, const RowGroupDirEntry *entry,
		int attno, uint32 chunkno)
{
	memset(key, 0, sizeof(*key));
	key->relid = RelationGetRelid(rel);
	key->relnode = LocatorNumber(rel->rd_locator);
	key->first_row = entry->rg_first_row;
	key->attno = attno;
	key->chunkno = chunkno;
}

/*
 * ChunkCacheGetHeader
 *		The parsed header of a row group, from the cache or read now.  Valid
 *		until the next ChunkCacheTrim or invalidation.  One this backend has
 *		not read yet is copied from the shared header cache when it is there
 *		(and put there when not), as scans do: a new connection's planning
 *		and index lookups then read no header pages another backend read.
 */
const RowGroupHeader *
ChunkCacheGetHeader(Relation rel, uint32 dir_index, const RowGroupDirEntry *entry)
{
	ChunkCacheKey key;
	ChunkCacheEntry *ce;
	bool		found;
	MemoryContext oldcxt;

	MakeKey(&key, rel, entry, -1, 0);
	ce = Lookup(&key, &found);
	if (found)
		return ce->header;
	PG_TRY();
	{
		oldcxt = MemoryContextSwitchTo(ce->cxt);
		/* entry came from the directory copy, with the identity it names */
		ce->header = RowGroupReadHeaderPrefetched(rel, NULL,
												  DirectoryCachedIdentity(rel),
												  dir_index, entry);
		MemoryContextSwitchTo(oldcxt);
	}
	PG_CATCH();
	{
		RemoveEntry(ce);
		PG_RE_THROW();
	}
	PG_END_TRY();
	Account(ce);
	return ce->header;
}

/*
 * ChunkCacheGetReader
 *		Random access to chunk chunkno of stored attribute attno, from the
 *		cache or opened now.  Valid until the next ChunkCacheTrim or
 *		invalidation.
 */
ChunkReader *
ChunkCacheGetReader(Relation rel, const RowGroupHeader *h,
					const RowGroupDirEntry *entry, TupleDesc desc,
					int attno, uint32 chunkno)
{
	ChunkCacheKey key;
	ChunkCacheEntry *ce;
	bool		found;
	MemoryContext oldcxt;

	MakeKey(&key, rel, entry, attno, chunkno);
	ce = Lookup(&key, &found);
	if (!found)
	{
		PG_TRY();
		{
			oldcxt = MemoryContextSwitchTo(ce->cxt);
			ce->reader = RowGroupOpenChunkReader(rel, h, desc, attno, chunkno);
			MemoryContextSwitchTo(oldcxt);
		}
		PG_CATCH();
		{
			RemoveEntry(ce);
			PG_RE_THROW();
		}
		PG_END_TRY();
		Account(ce);
	}
	return ce->reader;
}

/* Define colstore.chunk_cache_size (from _PG_init). */
void
ChunkCacheDefineSettings(void)
{
	DefineCustomIntVariable("colstore.chunk_cache_size",
							"Sets the memory each backend may use to cache decoded chunks for index lookups.",
							NULL,
							&colstore_chunk_cache_size_kb,
							131072, 0, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
}
