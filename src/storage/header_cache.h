/*-------------------------------------------------------------------------
 *
 * header_cache.h
 *	  A shared-memory cache of row group header images, so that a scan in
 *	  any backend (a new connection's first query included) copies a header
 *	  instead of reading and checksumming it from its pages.
 *
 * The cache holds copies of bytes that are immutable on disk: a row group
 * header, once written, never changes, and its first row number is never
 * given to another row group of the same relation file.  An entry is keyed
 * by the relation file (RelFileLocator), the file's identity (a number the
 * metapage gets when it is created: cm_identity), the group's first row and
 * the header's place and length, so a file dropped and its number reused
 * can never match an old entry.  The shared buffers and WAL stay the truth;
 * the cache is only ever filled from a header that passed its checksum.
 *
 * With colstore not in shared_preload_libraries, or
 * colstore.header_cache_size = 0, there is no cache: lookups miss and
 * stores do nothing.  Temporary tables are never cached (their file
 * numbers are per backend).
 *
 * IDENTIFICATION
 *	  src/storage/header_cache.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef HEADER_CACHE_H
#define HEADER_CACHE_H

#include "storage/rowgroup_format.h"
#include "utils/rel.h"

/* What colstore.header_cache_stats() shows */
typedef struct HeaderCacheStats
{
	int64		backend_hits;	/* this backend's lookups found */
	int64		backend_misses; /* this backend's lookups not found */
	int64		entries;		/* live entries */
	int64		used_bytes;		/* bytes of live entries' images */
	int64		size_bytes;		/* the ring's size (0: no cache) */
} HeaderCacheStats;

extern void HeaderCacheDefineSettings(void);
extern void HeaderCacheShmemInit(void);
extern bool HeaderCacheRead(Relation rel, uint64 identity,
							const RowGroupDirEntry *entry, char *dest);
extern bool HeaderCacheContains(Relation rel, uint64 identity,
								const RowGroupDirEntry *entry);
extern void HeaderCacheStore(Relation rel, uint64 identity,
							 const RowGroupDirEntry *entry, const char *src);
extern void HeaderCacheForget(Relation rel, uint64 identity,
							  const RowGroupDirEntry *entry);
extern void HeaderCacheGetStats(HeaderCacheStats *stats);

#endif							/* HEADER_CACHE_H */
