/*-------------------------------------------------------------------------
 *
 * moved_rows.c
 *	  Where a heap tuple that compaction moved into a row group went.
 *
 * Compaction (tableam/compaction.c) moves a heap tuple of a delta page
 * into a row group in transaction C: it deletes the tuple with heap_delete
 * as C, with the "moved to another partition" marker as its t_ctid, so
 * heapam never follows that link, and writes the row group with rg_xmin =
 * C and flag RG_FLAG_MOVED_ROWS.  The group stores, in the page stream,
 * the heap position each of its rows came from (rg_sources, ascending, a
 * delta-encoded bigint chunk image).
 *
 * A writer that finds the tuple deleted by a committed C gets TM_Updated
 * with the marker from heapam; MovedRowFind turns the tuple's heap position
 * into the row's new TID, so EvalPlanQual follows the row into its row
 * group as it would follow an UPDATE.  A marker for which no group of C
 * lists the position is a real move to another partition.  Whether a
 * snapshot sees the row in its new place is mvcc/row_fetch.c's question
 * (MovedRowLatestVisible).
 *
 * A row-group row with no promoted copy is moved without one: C records its
 * move in the group's delete log (a run flagged moved, storage/delete_log.c)
 * and the new group lists the row's own TID, flagged
 * (MOVED_ROW_SOURCE_BIT, MovedRowSourceOfRow).  A writer that reaches such
 * a row promotes it, and the promoter gives the copy the run's delete with
 * the marker (mvcc/row_state.c), so heapam reports TM_Updated with the
 * marker as for a moved tuple; the caller then looks the row up by its TID
 * (MovedRowFindRow), since the copy's position is no group's source.
 *
 * IDENTIFICATION
 *	  src/storage/moved_rows.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/htup_details.h"
#include "access/transam.h"
#include "catalog/pg_type.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "encoding/chunk_encoding.h"
#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/moved_rows.h"
#include "storage/page_stream.h"

/*
 * Decoded sources of the last few groups looked at: a writer that follows
 * moved rows one after another (an UPDATE that waited for a compaction)
 * asks for the same group again and again.  Entries are keyed by the
 * group's first row as well as its stream location: row numbers are never
 * reused, while a freed group's stream pages are (page_reuse.c), so the
 * location alone could later name another group's image.  So entries need
 * no invalidation.
 */
#define SOURCES_CACHE_SIZE	4

typedef struct SourcesCacheEntry
{
	RelFileLocator node;
	StreamPointer at;			/* rg_sources; sp_block Invalid: unused */
	uint64		first_row;		/* the group's rg_first_row */
	uint32		nrows;
	int64	   *keys;			/* [nrows], ascending */
} SourcesCacheEntry;

static SourcesCacheEntry SourcesCache[SOURCES_CACHE_SIZE];
static int	SourcesCacheNext = 0;
static MemoryContext SourcesCacheContext = NULL;

/*
 * The first and last key of many more groups: a compaction that moved more
 * rows than the cache holds groups for wrote groups with ascending,
 * disjoint ranges, and a lookup passes over the others without decoding
 * them.
 */
#define SOURCES_RANGES_SIZE	1024

typedef struct SourcesRange
{
	RelFileLocator node;
	StreamPointer at;
	uint64		first_row;		/* the group's rg_first_row */
	int64		first;
	int64		last;
} SourcesRange;

static SourcesRange SourcesRanges[SOURCES_RANGES_SIZE];

/* The slot of the group's range (direct-mapped by stream location). */
static SourcesRange *
RangeSlot(const RowGroupDirEntry *group)
{
	uint32		h = group->rg_sources.sp_block * 8191 + group->rg_sources.sp_offset;

	return &SourcesRanges[h % SOURCES_RANGES_SIZE];
}

/* Is key outside the range recorded for the group (false: not recorded)? */
static bool
OutsideKnownRange(Relation rel, const RowGroupDirEntry *group, int64 key)
{
	SourcesRange *r = RangeSlot(group);

	if (r->at.sp_block != group->rg_sources.sp_block ||
		r->at.sp_offset != group->rg_sources.sp_offset ||
		r->first_row != group->rg_first_row ||
		!RelFileLocatorEquals(r->node, rel->rd_locator))
		return false;
	return key < r->first || key > r->last;
}

/*
 * The group's sources as ascending keys, from the cache or decoded into it.
 * An image that does not decode raises ERRCODE_DATA_CORRUPTED.
 */
static const int64 *
GroupSources(Relation rel, const RowGroupDirEntry *group, int index)
{
	ChunkTypeInfo type = {INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE};
	SourcesCacheEntry *e;
	char	   *image;
	Datum	   *values;
	bool	   *isnull;
	const char *detail = NULL;
	uint32		i;

	for (i = 0; i < SOURCES_CACHE_SIZE; i++)
	{
		e = &SourcesCache[i];
		if (e->keys != NULL && RelFileLocatorEquals(e->node, rel->rd_locator) &&
			e->at.sp_block == group->rg_sources.sp_block &&
			e->at.sp_offset == group->rg_sources.sp_offset &&
			e->first_row == group->rg_first_row &&
			e->nrows == group->rg_nrows)
			return e->keys;
	}

	if (SourcesCacheContext == NULL)
		SourcesCacheContext = AllocSetContextCreate(TopMemoryContext,
													"colstore moved rows",
													ALLOCSET_DEFAULT_SIZES);
	image = palloc(group->rg_sources_len);
	values = palloc(sizeof(Datum) * group->rg_nrows);
	isnull = palloc(sizeof(bool) * group->rg_nrows);
	StreamRead(rel, NULL, group->rg_sources, group->rg_sources_len, image);
	if (!DecodeChunk(&type, image, group->rg_sources_len, group->rg_nrows,
					 values, isnull, &detail))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("moved-row list of row group %d of colstore table \"%s\" is corrupted",
						index, RelationGetRelationName(rel)),
				 detail ? errdetail_internal("%s", detail) : 0));

	e = &SourcesCache[SourcesCacheNext];
	SourcesCacheNext = (SourcesCacheNext + 1) % SOURCES_CACHE_SIZE;
	if (e->keys != NULL)
	{
		pfree(e->keys);
		e->keys = NULL;
	}
	e->keys = MemoryContextAlloc(SourcesCacheContext, sizeof(int64) * group->rg_nrows);
	for (i = 0; i < group->rg_nrows; i++)
		e->keys[i] = DatumGetInt64(values[i]);
	e->node = rel->rd_locator;
	e->at = group->rg_sources;
	e->first_row = group->rg_first_row;
	e->nrows = group->rg_nrows;
	if (group->rg_nrows > 0)
	{
		SourcesRange *r = RangeSlot(group);

		r->node = rel->rd_locator;
		r->at = group->rg_sources;
		r->first_row = group->rg_first_row;
		r->first = e->keys[0];
		r->last = e->keys[group->rg_nrows - 1];
	}
	pfree(image);
	pfree(values);
	pfree(isnull);
	return e->keys;
}

/* Index of phys among the group's sources (ascending), or -1. */
static int
FindSource(Relation rel, const RowGroupDirEntry *group, int index,
		   ItemPointer phys)
{
	int64		key = HeapPositionKey(phys);
	const int64 *keys;
	int			lo = 0;
	int			hi = (int) group->rg_nrows - 1;

	if (OutsideKnownRange(rel, group, key))
		return -1;
	keys = GroupSources(rel, group, index);

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (keys[mid] == key)
			return mid;
		if (keys[mid] < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/*
 * MovedRowFind
 *		If transaction mover moved the heap tuple at phys into a row group,
 *		set *tid to the row's TID there and return true.
 *
 * Whether mover committed is the caller's business (a group of an aborted
 * mover is found too, until VACUUM marks it invalid).  Callers ask while
 * some snapshot may still reach the tuple, so a committed mover is not
 * older than every snapshot's xmin, and VACUUM has not frozen the group
 * (which keeps rg_xmin anyway).
 */
bool
MovedRowFind(Relation rel, TransactionId mover, ItemPointer phys,
			 ItemPointer tid)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			i;

	if (!TransactionIdIsNormal(mover))
		return false;
	for (i = (int) dir->count - 1; i >= 0; i--)
	{
		RowGroupDirEntry group = dir->entries[i];
		int			row;

		if (group.rg_kind != RG_KIND_ROWGROUP ||
			!(group.rg_flags & RG_FLAG_MOVED_ROWS) ||
			(group.rg_flags & RG_FLAG_INVALID) ||
			!TransactionIdEquals(group.rg_xmin, mover))
			continue;
		/* reading the stream may reload the directory: group is a copy */
		row = FindSource(rel, &group, i, phys);
		if (row >= 0)
		{
			RowNumberToItemPointer(group.rg_first_row + row, tid);
			return true;
		}
		dir = DirectoryGet(rel);
		if (i > (int) dir->count)
			i = dir->count;
	}
	return false;
}

/*
 * MovedRowSourceOfRow
 *		The rg_sources entry of row-group row row (its TID) when compaction
 *		moved it through its group's delete log.
 */
void
MovedRowSourceOfRow(ItemPointer row, ItemPointer source)
{
	Assert(ItemPointerGetOffsetNumberNoCheck(row) < MOVED_ROW_SOURCE_BIT);
	ItemPointerSet(source, ItemPointerGetBlockNumberNoCheck(row),
				   ItemPointerGetOffsetNumberNoCheck(row) | MOVED_ROW_SOURCE_BIT);
}

/*
 * MovedRowFindRow
 *		If transaction mover moved row-group row row (its TID) through its
 *		group's delete log, set *tid to the row's TID in its new row group
 *		and return true (tid may be row).  As for MovedRowFind.
 */
bool
MovedRowFindRow(Relation rel, TransactionId mover, ItemPointer row, ItemPointer tid)
{
	ItemPointerData source;

	MovedRowSourceOfRow(row, &source);
	return MovedRowFind(rel, mover, &source, tid);
}

/*
 * MovedVersionOf
 *		If the heap tuple at phys was moved into a row group by compaction
 *		(whether or not that transaction committed), set *tid to the row's
 *		TID there and return true.  row (or NULL): the row-group row whose
 *		promoted copy phys is, which compaction may have moved through its
 *		delete log (the copy then carries the move; see the file header).
 */
bool
MovedVersionOf(Relation rel, ItemPointer phys, ItemPointer row, ItemPointer tid)
{
	Buffer		buf;
	HeapTupleData tuple;
	TransactionId mover = InvalidTransactionId;

	buf = ReadBuffer(rel, ItemPointerGetBlockNumber(phys));
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	if (HeapVersionRead(rel, buf, ItemPointerGetOffsetNumber(phys), &tuple) &&
		HeapTupleHeaderIndicatesMovedPartitions(tuple.t_data))
		mover = HeapTupleHeaderGetUpdateXid(tuple.t_data);
	UnlockReleaseBuffer(buf);
	return TransactionIdIsValid(mover) &&
		(MovedRowFind(rel, mover, phys, tid) ||
		 (row != NULL && MovedRowFindRow(rel, mover, row, tid)));
}
