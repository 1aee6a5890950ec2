/*-------------------------------------------------------------------------
 *
 * chunk_cache.h
 *	  Backend cache of row group headers and chunk readers, for point
 *	  lookups.
 *
 * IDENTIFICATION
 *	  src/storage/chunk_cache.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef CHUNK_CACHE_H
#define CHUNK_CACHE_H

#include "storage/rowgroup_reader.h"

/* colstore.chunk_cache_size, in kilobytes */
extern int	colstore_chunk_cache_size_kb;

extern const RowGroupHeader *ChunkCacheGetHeader(Relation rel, uint32 dir_index,
												 const RowGroupDirEntry *entry);
extern ChunkReader *ChunkCacheGetReader(Relation rel, const RowGroupHeader *h,
										const RowGroupDirEntry *entry,
										TupleDesc desc, int attno,
										uint32 chunkno);
extern void ChunkCacheTrim(void);
extern void ChunkCacheInvalidate(Oid relid);
extern void ChunkCacheDefineSettings(void);

#endif							/* CHUNK_CACHE_H */
