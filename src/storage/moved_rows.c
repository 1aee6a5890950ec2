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
 * the heap position each of its rows came from (rg_sources, ascending, a
 * delta-encoded bigint chunk image).
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
#include "access/tableam.h"
#include "access/transam.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "encoding/chunk_encoding.h"
#include "mvcc/row_state.h"
#include "storage/row_fetch.h"
#include "storage/directory.h"
#include "storage/moved_rows.h"
#include "storage/page_stream.h"

/*
 * Index of phys among the group's sources (ascending), or -1.  A sources
 * image that does not decode raises ERRCODE_DATA_CORRUPTED.
 */
static int
FindSource(Relation rel, const RowGroupDirEntry *group, int index,
		   ItemPointer phys)
{
	ChunkTypeInfo type = {INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE};
	char	   *image = palloc(group->rg_sources_len);
	Datum	   *keys = palloc(sizeof(Datum) * group->rg_nrows);
	bool	   *isnull = palloc(sizeof(bool) * group->rg_nrows);
	const char *detail = NULL;
	int64		key = HeapPositionKey(phys);
	int			lo = 0;
	int			hi = (int) group->rg_nrows - 1;
	int			found = -1;

	StreamRead(rel, group->rg_sources, group->rg_sources_len, image);
	if (!DecodeChunk(&type, image, group->rg_sources_len, group->rg_nrows,
					 keys, isnull, &detail))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("moved-row list of row group %d of colstore table \"%s\" is corrupted",
						index, RelationGetRelationName(rel)),
				 detail ? errdetail_internal("%s", detail) : 0));
	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int64		k = DatumGetInt64(keys[mid]);

		if (k == key)
		{
			found = mid;
			break;
		}
		if (k < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	pfree(image);
	pfree(keys);
	pfree(isnull);
	return found;
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

/*
 * MovedRowLatestVisible
 *		If the heap tuple at phys was moved into a row group and snapshot
 *		sees the row there, set *tid to the row's TID and return true.
 */
bool
MovedRowLatestVisible(Relation rel, ItemPointer phys, Snapshot snapshot,
					  ItemPointer tid)
{
	ItemPointerData moved;
	TupleTableSlot *slot;
	uint64		rownum = 0;
	bool		visible;

	if (!MovedVersionOf(rel, phys, &moved))
		return false;
	slot = table_slot_create(rel, NULL);
	(void) ItemPointerToRowNumber(&moved, &rownum);
	visible = RowFetch(rel, rownum, snapshot, slot) == ROW_VISIBLE;
	ExecDropSingleTupleTableSlot(slot);
	if (visible)
		*tid = moved;
	return visible;
}
