/*-------------------------------------------------------------------------
 *
 * row_state.c
 *	  Where the delete and lock state of a row lives, and reading it.
 *
 * A row-group row is immutable and so is its insert half of MVCC (the row
 * group's xmin, mvcc/visibility.c).  Its delete and lock half is heap's:
 * the first time a row-group row is deleted, updated or locked it is
 * promoted, that is, a copy of its values is inserted into a heap page of
 * the relation (storage/delta_heap.c) as a frozen tuple marked
 * HEAP_COLSTORE_PROMOTED, and storage/promotion_map.c records where.  The
 * copy is visible to everybody from the start, whatever becomes of the
 * promoting transaction, so its header says exactly what happened to the
 * row since: heap_delete, heap_update and heap_lock_tuple run on it, and
 * HeapTupleSatisfiesVisibility on it decides the row's delete half.  A row
 * keeps its row-group TID; the copy is never returned as a row.
 *
 * New versions written by UPDATE are ordinary heap tuples on delta pages,
 * with TIDs of the delta page's pseudo-block; their whole visibility is
 * heap's.
 *
 * Scans that must see every version (index builds, ANALYZE) get a
 * RowLiveness per row from HeapTupleSatisfiesVacuum instead.
 *
 * IDENTIFICATION
 *	  src/mvcc/row_state.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "executor/tuptable.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "mvcc/row_state.h"
#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/promotion_map.h"
#include "storage/row_fetch.h"

/*
 * RowStateLocate
 *		Find where the row tid names keeps its state.  The caller must have
 *		written its own buffered rows (WriteBufferFlush) if they may be
 *		meant.
 */
void
RowStateLocate(Relation rel, ItemPointer tid, RowState *state)
{
	ColstoreDirectory *dir;
	int			index;

	memset(state, 0, sizeof(*state));
	state->kind = ROWSTATE_NONE;
	if (!ItemPointerToRowNumber(tid, &state->rownum))
		return;
	dir = DirectoryGet(rel);
	index = DirectoryFindDeltaPage(dir, state->rownum);
	if (index >= 0)
	{
		state->kind = ROWSTATE_DELTA;
		ItemPointerSet(&state->phys, dir->entries[index].rg_header.sp_block,
					   (OffsetNumber) (state->rownum - dir->entries[index].rg_first_row + 1));
		return;
	}
	index = DirectoryFindRowGroup(dir, state->rownum);
	if (index < 0)
		return;
	state->dir_index = (uint32) index;
	state->group = dir->entries[index];
	state->kind = ROWSTATE_GROUP;
	if (PromotionMapGet(rel, &state->group,
						(uint32) (state->rownum - state->group.rg_first_row),
						&state->phys))
		state->kind = ROWSTATE_PROMOTED;
}

/*
 * RowStatePromote
 *		Give a ROWSTATE_GROUP row its heap copy (or find the one another
 *		backend made meanwhile); the state becomes ROWSTATE_PROMOTED.  The
 *		copy is frozen, TOASTed values included, and logged without logical
 *		decoding information: it is not a change of the row.
 */
void
RowStatePromote(Relation rel, RowState *state)
{
	TupleTableSlot *slot;
	HeapTuple	tuple;
	ItemPointerData copy;

	if (state->kind != ROWSTATE_GROUP)
		return;
	slot = table_slot_create(rel, NULL);
	if (RowFetch(rel, state->rownum, SnapshotAny, slot) != ROW_VISIBLE)
		elog(ERROR, "could not read row %llu of colstore table \"%s\" to promote it",
			 (unsigned long long) state->rownum, RelationGetRelationName(rel));
	tuple = ExecCopySlotHeapTuple(slot);
	ExecDropSingleTupleTableSlot(slot);
	tuple->t_data->t_infomask2 |= HEAP_COLSTORE_PROMOTED;
	tuple->t_tableOid = RelationGetRelid(rel);

	DeltaHeapInsert(rel, tuple, GetCurrentCommandId(true),
					HEAP_INSERT_FROZEN | HEAP_INSERT_NO_LOGICAL);
	DeltaHeapUncountInsert(rel);

	/* a concurrent promoter may have won; its copy is then the row's */
	copy = tuple->t_self;
	PromotionMapSet(rel, state->dir_index,
					(uint32) (state->rownum - state->group.rg_first_row), &copy);
	heap_freetuple(tuple);
	state->phys = copy;
	state->kind = ROWSTATE_PROMOTED;
}

/* Liveness of a heap version for a scan that sees every version. */
static RowLiveness
LivenessForAll(HeapTuple tuple, Buffer buf, TransactionId oldest_xmin)
{
	switch (HeapTupleSatisfiesVacuum(tuple, oldest_xmin, buf))
	{
		case HEAPTUPLE_DEAD:
			return ROW_HIDDEN;
		case HEAPTUPLE_RECENTLY_DEAD:
			return ROW_RECENTLY_DEAD;
		case HEAPTUPLE_DELETE_IN_PROGRESS:
			if (TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetUpdateXid(tuple->t_data)))
				return ROW_RECENTLY_DEAD;
			return ROW_LIVE;
		case HEAPTUPLE_LIVE:
		case HEAPTUPLE_INSERT_IN_PROGRESS:
			return ROW_LIVE;
	}
	return ROW_LIVE;			/* keep compiler quiet */
}

/*
 * Liveness of the heap version tuple (on the locked page buf) for snapshot;
 * snapshot NULL or SnapshotAny: for a scan that sees every version.
 */
static RowLiveness
VersionLiveness(Relation rel, HeapTuple tuple, Buffer buf, Snapshot snapshot,
				TransactionId oldest_xmin)
{
	bool		visible;

	if (snapshot == NULL || snapshot->snapshot_type == SNAPSHOT_ANY)
		return LivenessForAll(tuple, buf, oldest_xmin);
	visible = HeapTupleSatisfiesVisibility(tuple, snapshot, buf);
	if (IsMVCCSnapshot(snapshot))
		HeapCheckForSerializableConflictOut(visible, rel, tuple, buf, snapshot);
	return visible ? ROW_LIVE : ROW_HIDDEN;
}

/* Point tuple at item off of the locked page, or return false. */
static bool
ReadVersion(Relation rel, Buffer buf, OffsetNumber off, HeapTuple tuple)
{
	Page		page = BufferGetPage(buf);
	ItemId		lp;

	if (off < FirstOffsetNumber || off > PageGetMaxOffsetNumber(page))
		return false;
	lp = PageGetItemId(page, off);
	if (!ItemIdIsNormal(lp))
		return false;
	tuple->t_data = (HeapTupleHeader) PageGetItem(page, lp);
	tuple->t_len = ItemIdGetLength(lp);
	ItemPointerSet(&tuple->t_self, BufferGetBlockNumber(buf), off);
	tuple->t_tableOid = RelationGetRelid(rel);
	return true;
}

/*
 * HeapVersionVisible
 *		Is the heap tuple at phys visible to snapshot?  A dirty snapshot's
 *		xmin/xmax are set as HeapTupleSatisfiesDirty does.  If copy is not
 *		NULL and the answer is yes, *copy gets a palloc'd copy of it.
 */
bool
HeapVersionVisible(Relation rel, ItemPointer phys, Snapshot snapshot,
				   HeapTuple *copy)
{
	HeapTupleData tuple;
	Buffer		buf;
	bool		visible = false;

	buf = ReadBuffer(rel, ItemPointerGetBlockNumber(phys));
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	if (ReadVersion(rel, buf, ItemPointerGetOffsetNumber(phys), &tuple))
	{
		visible = VersionLiveness(rel, &tuple, buf, snapshot, InvalidTransactionId) != ROW_HIDDEN;
		if (visible && copy != NULL)
			*copy = heap_copytuple(&tuple);
	}
	UnlockReleaseBuffer(buf);
	return visible;
}

/*
 * RowGroupMaskChanged
 *		For rows [first, first + n) of a visible row group, set mask[i] to
 *		the RowLiveness of row first + i as its promoted copy says (ROW_LIVE
 *		for rows never promoted).  snapshot NULL or SnapshotAny: judged for
 *		a scan that sees every version, against oldest_xmin.  Returns false,
 *		leaving mask alone, if the group has no promoted rows at all.
 */
bool
RowGroupMaskChanged(Relation rel, const RowGroupDirEntry *group, uint32 first,
					uint32 n, Snapshot snapshot, TransactionId oldest_xmin,
					uint8 *mask)
{
	ItemPointerData *copies;
	Buffer		buf = InvalidBuffer;
	uint32		i;

	if (group->rg_state_root == 0)
		return false;
	copies = palloc(sizeof(ItemPointerData) * Max(n, 1));
	PromotionMapGetRange(rel, group, first, n, copies);
	for (i = 0; i < n; i++)
	{
		HeapTupleData tuple;
		BlockNumber blkno;

		mask[i] = ROW_LIVE;
		if (!ItemPointerIsValid(&copies[i]))
			continue;
		blkno = ItemPointerGetBlockNumber(&copies[i]);
		if (!BufferIsValid(buf) || BufferGetBlockNumber(buf) != blkno)
		{
			if (BufferIsValid(buf))
				UnlockReleaseBuffer(buf);
			buf = ReadBuffer(rel, blkno);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
		}
		if (!ReadVersion(rel, buf, ItemPointerGetOffsetNumber(&copies[i]), &tuple))
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg_internal("colstore table \"%s\": promoted copy of row %llu is missing",
									 RelationGetRelationName(rel),
									 (unsigned long long) (group->rg_first_row + first + i))));
		mask[i] = (uint8) VersionLiveness(rel, &tuple, buf, snapshot, oldest_xmin);
	}
	if (BufferIsValid(buf))
		UnlockReleaseBuffer(buf);
	pfree(copies);
	return true;
}

/*
 * DeltaPageCollect
 *		Copy the rows of heap page blkno that snapshot sees (snapshot NULL or
 *		SnapshotAny: that are not dead to everyone, with their liveness)
 *		into tuples[] (palloc'd), their item numbers into offsets[], and
 *		their RowLiveness into liveness[] if not NULL; arrays have room for
 *		MaxHeapTuplesPerPage.  Promoted copies are not rows and are skipped.
 *		Returns the count.
 */
int
DeltaPageCollect(Relation rel, BlockNumber blkno, Snapshot snapshot,
				 TransactionId oldest_xmin, HeapTuple *tuples,
				 OffsetNumber *offsets, uint8 *liveness)
{
	Buffer		buf;
	OffsetNumber off;
	OffsetNumber maxoff;
	int			n = 0;

	buf = ReadBuffer(rel, blkno);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	maxoff = PageGetMaxOffsetNumber(BufferGetPage(buf));
	for (off = FirstOffsetNumber; off <= maxoff; off++)
	{
		HeapTupleData tuple;
		RowLiveness live;

		if (!ReadVersion(rel, buf, off, &tuple) ||
			HeapTupleHeaderIsPromotedCopy(tuple.t_data))
			continue;
		live = VersionLiveness(rel, &tuple, buf, snapshot, oldest_xmin);
		if (live == ROW_HIDDEN)
			continue;
		tuples[n] = heap_copytuple(&tuple);
		offsets[n] = off;
		if (liveness != NULL)
			liveness[n] = (uint8) live;
		n++;
	}
	UnlockReleaseBuffer(buf);
	return n;
}

/*
 * DeltaPagesSettled
 *		True if every heap tuple of rel is dead to everyone, or live with an
 *		inserter every snapshot sees (or frozen) and no delete or update
 *		(a lock only is fine): then every snapshot sees the same rows.
 */
bool
DeltaPagesSettled(Relation rel, TransactionId oldest_xmin)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			i;

	for (i = 0; i < dir->ndeltas; i++)
	{
		BlockNumber blkno = dir->entries[dir->deltas[i]].rg_header.sp_block;
		Buffer		buf = ReadBuffer(rel, blkno);
		OffsetNumber off;
		bool		settled = true;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		for (off = FirstOffsetNumber;
			 settled && off <= PageGetMaxOffsetNumber(BufferGetPage(buf)); off++)
		{
			HeapTupleData tuple;

			if (!ReadVersion(rel, buf, off, &tuple))
				continue;
			switch (HeapTupleSatisfiesVacuum(&tuple, oldest_xmin, buf))
			{
				case HEAPTUPLE_DEAD:
					break;
				case HEAPTUPLE_LIVE:
					settled = HeapTupleHeaderXminFrozen(tuple.t_data) ||
						TransactionIdPrecedes(HeapTupleHeaderGetXmin(tuple.t_data),
											  oldest_xmin);
					break;
				default:
					settled = false;
					break;
			}
		}
		UnlockReleaseBuffer(buf);
		if (!settled)
			return false;
	}
	return true;
}
