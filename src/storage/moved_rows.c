/*-------------------------------------------------------------------------
 *
 * moved_rows.c
 *	  Where a heap tuple that compaction moved into a row group went.
 *
 * Compaction (storage/compaction.c) moves a heap tuple of a delta page
 * into a row group in transaction C: it deletes the tuple with heap_delete
 * as C, with the "moved to another partition" marker as its t_ctid, so
 * heapam never follows that link, and writes the row group with rg_xmin =
 * C and flag RG_FLAG_MOVED_ROWS.  The group stores, in the page stream,
 * the heap position each of its rows came from (rg_sources, ascending).
 *
 * A writer that finds the tuple deleted by a committed C gets TM_Updated
 * with the marker from heapam; MovedRowFind turns the tuple's heap position
 * into the row's new TID, so EvalPlanQual follows the row into its row
 * group as it would follow an UPDATE.  A marker for which no group of C
 * lists the position is a real move to another partition.
 *
 * IDENTIFICATION
 *	  src/storage/moved_rows.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/transam.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "mvcc/row_state.h"
#include "storage/directory.h"
#include "storage/moved_rows.h"
#include "storage/page_stream.h"

/* Index of phys in the group's sources (ascending), or -1. */
static int
FindSource(Relation rel, const RowGroupDirEntry *group, ItemPointer phys)
{
	ItemPointerData *sources;
	int			lo = 0;
	int			hi = (int) group->rg_nrows - 1;
	int			found = -1;

	sources = palloc(sizeof(ItemPointerData) * group->rg_nrows);
	StreamRead(rel, group->rg_sources, sizeof(ItemPointerData) * group->rg_nrows,
			   (char *) sources);
	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int32		cmp = ItemPointerCompare(&sources[mid], phys);

		if (cmp == 0)
		{
			found = mid;
			break;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	pfree(sources);
	return found;
}

/*
 * MovedRowFind
 *		If transaction mover moved the heap tuple at phys into a row group,
 *		set *tid to the row's TID there and return true.
 *
 * Only called for tuples whose deleter mover committed, while some
 * snapshot may still see the tuple: mover is then not older than any
 * snapshot's xmin, so the group is not frozen away from its rg_xmin.
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
		row = FindSource(rel, &group, phys);
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
 * MovedVersionOf
 *		If the heap tuple at phys was moved into a row group by compaction
 *		(whether or not that transaction committed), set *tid to the row's
 *		TID there and return true.
 */
bool
MovedVersionOf(Relation rel, ItemPointer phys, ItemPointer tid)
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
	return TransactionIdIsValid(mover) && MovedRowFind(rel, mover, phys, tid);
}
