/*-------------------------------------------------------------------------
 *
 * rowgroup_reader.h
 *	  Reading row group headers and decoding column chunks.
 *
 * IDENTIFICATION
 *	  src/storage/rowgroup_reader.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ROWGROUP_READER_H
#define ROWGROUP_READER_H

#include "access/tupdesc.h"
#include "encoding/chunk_encoding.h"
#include "pg_compat.h"
#include "storage/page_prefetch.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"

/* A parsed row group header; everything points into one allocation. */
typedef struct RowGroupHeader
{
	uint32		dir_index;		/* directory entry, for messages */
	PagePrefetch *prefetch;		/* chunks' pages are read through it, or NULL */
	uint32		nrows;
	int			natts;
	uint32		nchunks;
	uint32	   *chunk_first_row;	/* [nchunks + 1] */
	ChunkDesc  *chunks;			/* [natts * nchunks] */
	char	   *stats;			/* min/max bytes */
	uint32		stats_len;
} RowGroupHeader;

#define RowGroupChunk(h, att, c) \
	(AssertMacro((att) >= 0 && (att) < (h)->natts && (c) < (h)->nchunks), \
	 &(h)->chunks[(att) * (h)->nchunks + (c)])
#define RowGroupChunkRows(h, c) \
	(AssertMacro((c) < (h)->nchunks), \
	 (int) ((h)->chunk_first_row[(c) + 1] - (h)->chunk_first_row[(c)]))

extern RowGroupHeader *RowGroupReadHeader(Relation rel, uint32 dir_index,
										  const RowGroupDirEntry *entry);
extern RowGroupHeader *RowGroupReadHeaderPrefetched(Relation rel, PagePrefetch *pf,
													uint64 identity,
													uint32 dir_index,
													const RowGroupDirEntry *entry);
extern uint32 RowGroupFindChunk(const RowGroupHeader *h, uint32 row);
extern void RowGroupReadColumnChunk(Relation rel, const RowGroupHeader *h,
									TupleDesc desc, int attno, uint32 chunkno,
									Datum *values, bool *isnull);
extern bool RowGroupReadScaledChunk(Relation rel, const RowGroupHeader *h,
									TupleDesc desc, int attno, uint32 chunkno,
									int64 **values, int64 **dscales,
									bool *isnull, int *scale);
extern ChunkReader *RowGroupOpenChunkReader(Relation rel, const RowGroupHeader *h,
											TupleDesc desc, int attno,
											uint32 chunkno);
extern bool RowGroupChunkMinMax(const RowGroupHeader *h, Form_pg_attribute att,
								int attno, uint32 chunkno,
								Datum *min, Datum *max);
extern bool RowGroupChunkStatsMatch(const RowGroupHeader *h, Form_pg_attribute att,
									int attno, uint32 chunkno);
pg_noreturn extern void RowGroupReportCorruption(Relation rel, uint32 dir_index,
												 const char *column, const char *detail);

#endif							/* ROWGROUP_READER_H */
