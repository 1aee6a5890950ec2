/*-------------------------------------------------------------------------
 *
 * header_cache.c
 *	  The shared-memory cache of row group header images (contract in
 *	  header_cache.h).
 *
 * The images live in one ring of colstore.header_cache_size kilobytes;
 * "written" counts the bytes ever placed in it, and an image placed at
 * position start (a count of bytes, not an offset) is intact as long as
 * written - start <= ring size: nothing has been written over it since.
 * An image never wraps around the ring's end (the writer skips to the
 * start instead, counting the skipped bytes as written), so eviction is
 * first in, first out, by overwriting, and needs no bookkeeping per entry.
 * A shared hash table maps each key to its image's start; an entry whose
 * image has been overwritten is dead, is never served, and is removed when
 * the table is full.  The table holds at most one entry per 512 bytes of
 * ring (at least 128), counted here, so it never takes shared memory
 * beyond what was reserved for it.
 *
 * One LWLock protects the ring, "written" and the table: lookups copy the
 * image out under it in shared mode, stores write under it in exclusive
 * mode.  A store of a key that already has an intact image does nothing
 * (two backends that missed together both store).
 *
 * Why an entry can never be stale: what is cached is the exact bytes of a
 * header that passed its checksum, and those bytes never change on disk
 * while the key can name them.  A row group's header is written once,
 * after its chunks, and never rewritten; VACUUM may free the group's pages
 * (RG_FLAG_FREED) and the pages may then hold another row group's header,
 * but that group has other row numbers (row numbers are never given out
 * twice in one relation file), so another key.  TRUNCATE, VACUUM FULL,
 * CLUSTER and rewrites make a new relation file (another RelFileLocator).
 * A dropped file's number may be given to a new file later; the new file's
 * metapage gets a new identity (metapage.c: the WAL insert position when it
 * is created, which only grows while the server runs), so the old entries
 * can never match.  Metapages written before identities existed read 0,
 * and their tables are not cached.  The cache is emptied with shared
 * memory, at every server start and crash restart; a standby fills it from
 * the pages it replayed, which obey the same rules.
 *
 * IDENTIFICATION
 *	  src/storage/header_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/rel.h"

#include "storage/header_cache.h"

/* 1 GB: the ring's offsets stay far from overflowing a Size */
#define HEADER_CACHE_MAX_KB		(1024 * 1024)
/* one entry per this many bytes of ring, at least HEADER_CACHE_MIN_ENTRIES */
#define HEADER_CACHE_BYTES_PER_ENTRY	512
#define HEADER_CACHE_MIN_ENTRIES		128

static int	header_cache_size_kb = 16384;

typedef struct HeaderCacheKey
{
	RelFileLocator locator;		/* the relation file */
	uint32		len;			/* rg_header_len */
	uint64		identity;		/* the file's cm_identity */
	uint64		first_row;		/* rg_first_row */
	BlockNumber block;			/* rg_header */
	uint32		offset;
} HeaderCacheKey;

typedef struct HeaderCacheEntry
{
	HeaderCacheKey key;			/* hash key: first */
	uint64		start;			/* where its image was placed */
} HeaderCacheEntry;

typedef struct HeaderCacheShared
{
	uint64		written;		/* bytes ever placed (or skipped) */
	char		ring[FLEXIBLE_ARRAY_MEMBER];
} HeaderCacheShared;

static HeaderCacheShared *cache = NULL;
static HTAB *cache_index = NULL;
static LWLock *cache_lock = NULL;
static Size ring_size = 0;
static long max_entries = 0;

static int64 backend_hits = 0;
static int64 backend_misses = 0;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* ----------------------------------------------------------------
 * Setup
 * ----------------------------------------------------------------
 */

static void
ComputeSizes(void)
{
	ring_size = (Size) header_cache_size_kb * 1024;
	max_entries = Max((long) (ring_size / HEADER_CACHE_BYTES_PER_ENTRY),
					  HEADER_CACHE_MIN_ENTRIES);
}

static Size
SharedSize(void)
{
	return add_size(add_size(offsetof(HeaderCacheShared, ring), ring_size),
					hash_estimate_size(max_entries, sizeof(HeaderCacheEntry)));
}

static void
HeaderCacheShmemRequest(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	if (ring_size == 0)
		return;
	RequestAddinShmemSpace(SharedSize());
	RequestNamedLWLockTranche("colstore header cache", 1);
}

static void
HeaderCacheShmemStartup(void)
{
	HASHCTL		info;
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	if (ring_size == 0)
		return;
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	cache = ShmemInitStruct("colstore header cache",
							add_size(offsetof(HeaderCacheShared, ring), ring_size),
							&found);
	if (!found)
		cache->written = 0;
	info.keysize = sizeof(HeaderCacheKey);
	info.entrysize = sizeof(HeaderCacheEntry);
	cache_index = ShmemInitHash("colstore header cache index",
								max_entries, max_entries, &info,
								HASH_ELEM | HASH_BLOBS);
	cache_lock = &(GetNamedLWLockTranche("colstore header cache"))->lock;
	LWLockRelease(AddinShmemInitLock);
}

/*
 * HeaderCacheDefineSettings
 *		Define colstore.header_cache_size; only while shared libraries are
 *		preloaded (a postmaster setting cannot be defined later).
 */
void
HeaderCacheDefineSettings(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	DefineCustomIntVariable("colstore.header_cache_size",
							"Sets the shared memory that caches row group headers for all backends.",
							"0 turns the cache off.",
							&header_cache_size_kb,
							16384, 0, HEADER_CACHE_MAX_KB,
							PGC_POSTMASTER, GUC_UNIT_KB, NULL, NULL, NULL);
}

/*
 * HeaderCacheShmemInit
 *		Ask for the cache's shared memory and lock; from _PG_init, after
 *		HeaderCacheDefineSettings.  Does nothing unless preloading.
 */
void
HeaderCacheShmemInit(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	ComputeSizes();
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = HeaderCacheShmemRequest;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = HeaderCacheShmemStartup;
}

/* ----------------------------------------------------------------
 * Lookups and stores
 * ----------------------------------------------------------------
 */

/*
 * Fill *key for entry of rel; false if rel's headers are never cached
 * (no cache, no identity, or a temporary table).
 */
static bool
MakeKey(Relation rel, uint64 identity, const RowGroupDirEntry *entry,
		HeaderCacheKey *key)
{
	if (cache == NULL || identity == 0 || RelationUsesLocalBuffers(rel) ||
		MAXALIGN(entry->rg_header_len) > ring_size / 4)
		return false;
	memset(key, 0, sizeof(*key));
	key->locator = rel->rd_locator;
	key->len = entry->rg_header_len;
	key->identity = identity;
	key->first_row = entry->rg_first_row;
	key->block = entry->rg_header.sp_block;
	key->offset = entry->rg_header.sp_offset;
	return true;
}

/* Is the image of e intact?  Caller holds cache_lock. */
static inline bool
EntryIntact(const HeaderCacheEntry *e)
{
	return cache->written - e->start <= ring_size;
}

/*
 * HeaderCacheRead
 *		Copy the cached image of entry's header (entry->rg_header_len bytes)
 *		into dest and return true, or return false if it is not cached.
 *		identity is rel's cm_identity (0: never cached).  Takes the cache's
 *		lock in shared mode for the copy; never errors.
 */
bool
HeaderCacheRead(Relation rel, uint64 identity, const RowGroupDirEntry *entry,
				char *dest)
{
	HeaderCacheKey key;
	HeaderCacheEntry *e;
	bool		hit = false;

	if (!MakeKey(rel, identity, entry, &key))
		return false;
	LWLockAcquire(cache_lock, LW_SHARED);
	e = hash_search(cache_index, &key, HASH_FIND, NULL);
	if (e != NULL && EntryIntact(e))
	{
		memcpy(dest, cache->ring + e->start % ring_size, key.len);
		hit = true;
	}
	LWLockRelease(cache_lock);
	if (hit)
		backend_hits++;
	else
		backend_misses++;
	return hit;
}

/*
 * HeaderCacheContains
 *		Is entry's header in the cache now?  For read-ahead, which need not
 *		queue the pages of a header the scan will copy: the answer may be
 *		out of date at once (the image pushed out), which costs a read
 *		without read-ahead, never a wrong header.  Counts nothing; takes the
 *		lock in shared mode; never errors.
 */
bool
HeaderCacheContains(Relation rel, uint64 identity, const RowGroupDirEntry *entry)
{
	HeaderCacheKey key;
	HeaderCacheEntry *e;
	bool		found;

	if (!MakeKey(rel, identity, entry, &key))
		return false;
	LWLockAcquire(cache_lock, LW_SHARED);
	e = hash_search(cache_index, &key, HASH_FIND, NULL);
	found = e != NULL && EntryIntact(e);
	LWLockRelease(cache_lock);
	return found;
}

/* Remove the entries whose images were overwritten.  Caller holds it exclusively. */
static void
RemoveDeadEntries(void)
{
	HASH_SEQ_STATUS status;
	HeaderCacheEntry *e;

	hash_seq_init(&status, cache_index);
	while ((e = hash_seq_search(&status)) != NULL)
		if (!EntryIntact(e))
			hash_search(cache_index, &e->key, HASH_REMOVE, NULL);
}

/* Remove every entry.  Caller holds the lock exclusively. */
static void
RemoveAllEntries(void)
{
	HASH_SEQ_STATUS status;
	HeaderCacheEntry *e;

	hash_seq_init(&status, cache_index);
	while ((e = hash_seq_search(&status)) != NULL)
		hash_search(cache_index, &e->key, HASH_REMOVE, NULL);
}

/*
 * HeaderCacheStore
 *		Cache src, the image of entry's header (entry->rg_header_len bytes)
 *		as read from rel's pages, whose checksum and structure the caller
 *		has checked.  identity as for HeaderCacheRead.  The image may push
 *		out the oldest ones.  Takes the cache's lock exclusively; never
 *		errors.
 */
void
HeaderCacheStore(Relation rel, uint64 identity, const RowGroupDirEntry *entry,
				 const char *src)
{
	HeaderCacheKey key;
	HeaderCacheEntry *e;
	Size		alen;
	Size		pos;
	bool		found;

	if (!MakeKey(rel, identity, entry, &key))
		return;
	alen = MAXALIGN(key.len);
	LWLockAcquire(cache_lock, LW_EXCLUSIVE);
	e = hash_search(cache_index, &key, HASH_FIND, NULL);
	if (e != NULL && EntryIntact(e))
	{
		LWLockRelease(cache_lock);
		return;
	}
	if (e == NULL && hash_get_num_entries(cache_index) >= max_entries)
	{
		RemoveDeadEntries();
		if (hash_get_num_entries(cache_index) >= max_entries)
			RemoveAllEntries();
	}
	e = hash_search(cache_index, &key, HASH_ENTER_NULL, &found);
	if (e != NULL)
	{
		pos = cache->written % ring_size;
		if (pos + alen > ring_size)
		{
			/* never wrap an image: skip to the ring's start */
			cache->written += ring_size - pos;
			pos = 0;
		}
		memcpy(cache->ring + pos, src, key.len);
		e->start = cache->written;
		cache->written += alen;
	}
	LWLockRelease(cache_lock);
}

/*
 * HeaderCacheForget
 *		Drop the image cached for entry's header, if any.  A row group VACUUM
 *		moves down the file (storage/space_relocate.c) keeps its first row
 *		and gets a header at a new place; should that place ever have held
 *		an older header of the same group (moved away, its pages truncated
 *		and taken again), the old image must not be found for the new one.
 *		Called before the entry naming the new place is published.  Takes
 *		the lock exclusively; never errors.
 */
void
HeaderCacheForget(Relation rel, uint64 identity, const RowGroupDirEntry *entry)
{
	HeaderCacheKey key;

	if (!MakeKey(rel, identity, entry, &key))
		return;
	LWLockAcquire(cache_lock, LW_EXCLUSIVE);
	hash_search(cache_index, &key, HASH_REMOVE, NULL);
	LWLockRelease(cache_lock);
}

/*
 * HeaderCacheGetStats
 *		This backend's hit and miss counts and the cache's contents now;
 *		all zero sizes without a cache.  Takes the lock in shared mode.
 */
void
HeaderCacheGetStats(HeaderCacheStats *stats)
{
	HASH_SEQ_STATUS status;
	HeaderCacheEntry *e;

	memset(stats, 0, sizeof(*stats));
	stats->backend_hits = backend_hits;
	stats->backend_misses = backend_misses;
	if (cache == NULL)
		return;
	stats->size_bytes = (int64) ring_size;
	LWLockAcquire(cache_lock, LW_SHARED);
	hash_seq_init(&status, cache_index);
	while ((e = hash_seq_search(&status)) != NULL)
	{
		if (!EntryIntact(e))
			continue;
		stats->entries++;
		stats->used_bytes += e->key.len;
	}
	LWLockRelease(cache_lock);
}
