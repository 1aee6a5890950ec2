/*-------------------------------------------------------------------------
 *
 * row_fetch.c
 *	  Fetch one row by row number for index scans, TID scans, bitmap heap
 *	  scans, TABLESAMPLE and ANALYZE, if the snapshot sees it.
 *
 * The row is looked up in this order: this backend's buffered rows, the row
 * groups of the directory, and the reservations.  A row number that only a
 * reservation covers belongs to rows another backend is still buffering:
 * for a dirty snapshot (unique checks) that is reported as a row inserted by
 * the reserving transaction while it runs, so the caller waits for it and
 * then looks again; for every other snapshot such rows are invisible.
 * Once the reserving transaction has finished, a row number no row group
 * covers (on a second look at the directory) was never written: its rows
 * were rolled back with a subtransaction or the transaction.  It is dead to
 * everyone, so btree may mark its index entries dead, as heap lets it for
 * aborted tuples.
 *
 * Values come from chunk readers in the chunk cache, one value per column
 * (no chunk is decoded as a whole), and are copied into the slot, which is
 * materialised, so the slot stays valid whatever the cache does later.  An
 * index fetch into a colstore slot may leave a row group's row undecoded
 * instead (RowFetchDeferral): its caller decodes the columns the executor
 * asks for, with RowGroupRowDecode, when it asks.
 *
 * Every fetch decides visibility: of the row group (mvcc/visibility.c), of
 * a promoted row's copy and of a heap tuple (mvcc/row_state.c), so this is
 * mvcc's code; storage gives it the buffered rows, the directory, the
 * promotion maps and the chunk readers.
 *
 * IDENTIFICATION
 *	  src/mvcc/row_fetch.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/tableam.h"
#include "access/tupdesc_details.h"
#include "access/xact.h"
#include "executor/tuptable.h"
#include "storage/procarray.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "mvcc/hot_chain.h"
#include "mvcc/row_fetch.h"
#include "mvcc/row_state.h"
#include "mvcc/visibility.h"
#include "storage/chunk_cache.h"
#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/moved_rows.h"
#include "storage/promotion_map.h"
#include "storage/row_slot.h"
#include "storage/rowgroup_builder.h"
#include "storage/write_buffer.h"

static RowFetchState FetchRowOrChain(Relation rel, uint64 rownum,
									 Snapshot snapshot, TupleTableSlot *slot,
									 const bool *needed, bool chain,
									 bool first_call, RowFetchDeferral *defer);
static void DecodeRowValues(Relation rel, const RowGroupHeader *h,
							const RowGroupDirEntry *entry, TupleDesc desc,
							uint32 chunkno, uint32 row, const bool *needed,
							Datum *values, bool *isnull, int from, int to);

/* Scratch memory of one fetch, reset by the next. */
static MemoryContext FetchContext = NULL;

/*
 * A row number only a reservation covers.  While the reserving transaction
 * runs, its row may still be buffered: a dirty snapshot sees it as in
 * progress with unknown values, other snapshots do not see it.  Once the
 * transaction has finished (or VACUUM found it finished and invalidated
 * the reservation), the row is known never to have been written, and the
 * result is ROW_DEAD, provided the caller looks at the directory again
 * first: a transaction writes its rows before it commits, but it may have
 * done so after the caller read the directory (*recheck is then set, and
 * the result means nothing).
 */
static RowFetchState
FetchReserved(Relation rel, const RowGroupDirEntry *res, Snapshot snapshot,
			  TupleTableSlot *slot, uint64 rownum, bool *recheck)
{
	TransactionId xid = res->rg_xmin;

	*recheck = false;
	if (IsMVCCSnapshot(snapshot) && !(res->rg_flags & RG_FLAG_INVALID))
		RowGroupCheckConflictOut(rel, res, snapshot);
	if ((res->rg_flags & RG_FLAG_INVALID) ||
		(!TransactionIdIsCurrentTransactionId(xid) &&
		 !TransactionIdIsInProgress(xid)))
	{
		*recheck = true;
		return ROW_DEAD;
	}
	if (snapshot->snapshot_type != SNAPSHOT_DIRTY ||
		TransactionIdIsCurrentTransactionId(xid))
		return ROW_NOT_FOUND;
	snapshot->xmin = xid;
	snapshot->xmax = InvalidTransactionId;
	ExecStoreAllNullTuple(slot);
	RowNumberToItemPointer(rownum, &slot->tts_tid);
	return ROW_VISIBLE;
}

/*
 * StoreHeapVersion
 *		Store a heap row version of rel in slot, materialised, with its
 *		inserter for the slot's xmin/cmin.  The slot's TID is left alone.
 */
void
StoreHeapVersion(Relation rel, HeapTuple tuple, TupleTableSlot *slot)
{
	TransactionId xmin = HeapTupleHeaderGetXmin(tuple->t_data);

	ExecClearTuple(slot);
	HeapTupleCheckShape(rel, tuple, slot->tts_tupleDescriptor);
	heap_deform_tuple(tuple, slot->tts_tupleDescriptor, slot->tts_values,
					  slot->tts_isnull);
	StoreFilledSlot(slot);
	ExecMaterializeSlot(slot);
	ColstoreSlotSetInsertInfo(slot, xmin,
							  TransactionIdIsCurrentTransactionId(xmin) ?
							  HeapTupleHeaderGetCmin(tuple->t_data) : FirstCommandId);
	ColstoreSlotSetXmax(slot, HeapTupleHeaderGetRawXmax(tuple->t_data));
	slot->tts_tableOid = RelationGetRelid(rel);
}

/*
 * A row of a delta page: a heap tuple, not a promoted copy.  For an index
 * entry's row (chain), the member of the HOT chain that starts there that
 * snapshot sees (mvcc/hot_chain.c), after the one at rownum if !first_call;
 * its own TID goes into the slot.
 */
static RowFetchState
FetchDelta(Relation rel, const RowGroupDirEntry *page, uint64 rownum,
		   Snapshot snapshot, TupleTableSlot *slot, bool chain, bool first_call)
{
	ItemPointerData phys;
	HeapTuple	tuple = NULL;
	bool		dead;

	DeltaPageItemOfRow(page, rownum, &phys);
	if (chain)
	{
		if (!HotChainSearch(rel, &phys, snapshot, first_call, &tuple, &dead))
			return dead ? ROW_DEAD : ROW_INVISIBLE;
	}
	else
	{
		if (!HeapVersionVisible(rel, &phys, snapshot, &tuple, NULL, &dead))
			return dead ? ROW_DEAD : ROW_INVISIBLE;
		if (HeapTupleHeaderIsPromotedCopy(tuple->t_data))
		{
			heap_freetuple(tuple);
			return ROW_NOT_FOUND;
		}
	}
	StoreHeapVersion(rel, tuple, slot);
	heap_freetuple(tuple);
	DeltaPageRowOfItem(page, ItemPointerGetOffsetNumber(&phys), &slot->tts_tid);
	return ROW_VISIBLE;
}

/*
 * Does the delete half of a promoted row-group row let snapshot see it?
 * The row group's insert half has been checked; for a dirty snapshot, the
 * inserter it reported in xmin is kept.  *xmax gets the copy's raw xmax
 * or the run's xid for a delete the delete log holds (storage/delete_log.c;
 * Invalid if the row has neither), *copy the copy's position (invalid
 * if none), *gone whether the row is deleted for everyone (its
 * deleted-rows bit, storage/deleted_rows.c: no copy is read).
 */
static bool
PromotedRowVisible(Relation rel, const RowGroupDirEntry *entry, uint32 row,
				   Snapshot snapshot, TransactionId *xmax, ItemPointer copy,
				   bool *gone)
{
	TransactionId dirty_xmin = snapshot->xmin;
	PromotionSlot slot;
	DeleteRun	run;

	*xmax = InvalidTransactionId;
	*gone = false;
	slot = PromotionMapLookup(rel, entry, row, copy, &run);
	if (slot == PROMOTION_DELETED)
	{
		*gone = true;
		return false;
	}
	if (slot == PROMOTION_NONE)
		return true;
	if (slot == PROMOTION_LOGGED)
	{
		/* a delete without a copy: heap's rules for a plain xmax */
		*xmax = run.xid;
		return DeleteRunLiveness(rel, &run, snapshot, InvalidTransactionId) != ROW_HIDDEN;
	}
	if (!HeapVersionVisible(rel, copy, snapshot, NULL, xmax, NULL))
		return false;
	if (snapshot->snapshot_type == SNAPSHOT_DIRTY)
		snapshot->xmin = dirty_xmin;
	return true;
}

/*
 * RowChainFetch
 *		For the row-group row whose promoted copy is at *copy, when the row's
 *		own version is hidden from snapshot (or was returned already to a
 *		non-MVCC snapshot): the member of the HOT chain rooted at the copy
 *		(mvcc/hot_chain.c) that snapshot sees, stored in slot with its own
 *		TID.  The row's index entries name its row-group TID, and a HOT
 *		update of the copy made none for the member.
 */
bool
RowChainFetch(Relation rel, ItemPointer copy, Snapshot snapshot,
			  TupleTableSlot *slot)
{
	ItemPointerData phys = *copy;
	HeapTuple	tuple = NULL;

	if (!HotChainSearchFromCopy(rel, &phys, snapshot, &tuple))
		return false;
	StoreHeapVersion(rel, tuple, slot);
	heap_freetuple(tuple);
	DeltaHeapToLogical(rel, &phys, &slot->tts_tid);
	return true;
}

/*
 * The row-group row rownum's chain, after its own version (returned to a
 * non-MVCC snapshot by the first call of RowFetchIndexed).
 */
static RowFetchState
FetchRowChainAgain(Relation rel, ColstoreDirectory *dir, uint64 rownum,
				   Snapshot snapshot, TupleTableSlot *slot)
{
	int			index = DirectoryFindRowGroup(dir, rownum);
	RowGroupDirEntry entry;
	ItemPointerData copy;
	DeleteRun	run;

	if (index < 0)
		return ROW_NOT_FOUND;
	entry = dir->entries[index];
	if (PromotionMapLookup(rel, &entry, (uint32) (rownum - entry.rg_first_row),
						   &copy, &run) != PROMOTION_COPY)
		return ROW_NOT_FOUND;
	return RowChainFetch(rel, &copy, snapshot, slot) ? ROW_VISIBLE : ROW_INVISIBLE;
}

/*
 * Find the directory entry that holds rownum, in *dir, which is read again
 * when a reservation of a finished transaction covers the row
 * (FetchReserved): returns true with *index and *delta (a delta page, not a
 * row group), or false with the RowFetch result in *result when no entry
 * holds the row.
 */
static bool
FindRow(Relation rel, ColstoreDirectory **dir, uint64 rownum, Snapshot snapshot,
		TupleTableSlot *slot, int *index, bool *delta, RowFetchState *result)
{
	for (;;)
	{
		RowGroupDirEntry res;
		bool		recheck;
		int			res_index;

		*index = DirectoryFindDeltaPage(*dir, rownum);
		*delta = *index >= 0;
		if (*index < 0)
			*index = DirectoryFindRowGroup(*dir, rownum);
		if (*index >= 0)
			return true;
		res_index = DirectoryFindReservation(*dir, rownum);
		if (res_index < 0)
		{
			*result = ROW_NOT_FOUND;
			return false;
		}
		res = (*dir)->entries[res_index];
		*result = FetchReserved(rel, &res, snapshot, slot, rownum, &recheck);
		if (!recheck)
			return false;
		/* finished: its rows are in the directory now, or were never written */
		*dir = DirectoryGet(rel);
		if (DirectoryFindDeltaPage(*dir, rownum) < 0 &&
			DirectoryFindRowGroup(*dir, rownum) < 0)
		{
			*result = ROW_DEAD;
			return false;
		}
	}
}

/*
 * RowFetch
 *		Store row rownum of rel in slot if snapshot sees it.  Sets
 *		snapshot->xmin for dirty snapshots as heap does.  May read pages and
 *		raise ERRCODE_DATA_CORRUPTED; the slot is materialised.
 */
RowFetchState
RowFetch(Relation rel, uint64 rownum, Snapshot snapshot, TupleTableSlot *slot)
{
	return RowFetchColumns(rel, rownum, snapshot, slot, NULL);
}

/*
 * RowFetchColumns
 *		RowFetch that decodes from a row group only the columns whose
 *		needed[attno - 1] is set (needed NULL: all; else an entry per
 *		attribute of the slot's descriptor); the others are NULL in the
 *		slot.  Rows still buffered or on delta pages are heap tuples and
 *		come whole.  For callers that know which columns their plan reads
 *		(cscan/index_scan_exec.c): a row group column costs a chunk reader
 *		per chunk, a heap tuple's columns nothing more.
 */
RowFetchState
RowFetchColumns(Relation rel, uint64 rownum, Snapshot snapshot,
				TupleTableSlot *slot, const bool *needed)
{
	return FetchRowOrChain(rel, rownum, snapshot, slot, needed, false, true,
						   NULL);
}

/*
 * RowFetchIndexed
 *		RowFetchColumns for the row an index entry names: on a heap page,
 *		that is where a HOT chain starts, and the slot gets the member
 *		snapshot sees, with its own TID in slot->tts_tid; a row-group row
 *		whose own version snapshot does not see goes on into the chain its
 *		promoted copy roots (RowChainFetch).  With first_call false, rownum
 *		is the member (or row) returned last and the next member the
 *		snapshot sees is looked for (non-MVCC snapshots may see several).
 *		ROW_DEAD: every member is dead to everyone (not judged for chains
 *		rooted at copies).  With defer (and a colstore slot), a row group's
 *		row is left undecoded (see RowFetchDeferral); heap versions come
 *		whole.
 */
RowFetchState
RowFetchIndexed(Relation rel, uint64 rownum, Snapshot snapshot,
				TupleTableSlot *slot, const bool *needed, bool first_call,
				RowFetchDeferral *defer)
{
	return FetchRowOrChain(rel, rownum, snapshot, slot, needed, true, first_call,
						   defer);
}

/*
 * RowGroupRowDecode
 *		Decode attributes [from, to) of the row defer names (set by a fetch
 *		that left it undecoded) into values/isnull, through the chunk cache
 *		(a header or chunk the cache dropped since is read again: the group
 *		stays readable while the fetching snapshot's transaction holds the
 *		relation).  By-reference values are made in CurrentMemoryContext
 *		(ChunkReaderGetValue's contract), missing attributes' come from the
 *		descriptor: none points into the cache.
 */
void
RowGroupRowDecode(Relation rel, const RowFetchDeferral *defer, TupleDesc desc,
				  Datum *values, bool *isnull, int from, int to)
{
	const RowGroupHeader *h = ChunkCacheGetHeader(rel, defer->dir_index,
												  &defer->entry);

	DecodeRowValues(rel, h, &defer->entry, desc, defer->chunkno, defer->row,
					NULL, values, isnull, from, to);
}

/*
 * Decode attributes [from, to) of row row of chunk chunkno of the group
 * whose header is h (those needed, when needed is not NULL; dropped and
 * unneeded ones are NULL, ones added after the group was written their
 * missing value).
 */
static void
DecodeRowValues(Relation rel, const RowGroupHeader *h,
				const RowGroupDirEntry *entry, TupleDesc desc, uint32 chunkno,
				uint32 row, const bool *needed, Datum *values, bool *isnull,
				int from, int to)
{
	int			att;

	for (att = from; att < to; att++)
	{
		Form_pg_attribute attr = TupleDescAttr(desc, att);

		if (attr->attisdropped || (needed != NULL && !needed[att]))
		{
			values[att] = (Datum) 0;
			isnull[att] = true;
		}
		else if (att >= h->natts)
			values[att] = getmissingattr(desc, att + 1, &isnull[att]);
		else
			values[att] =
				ChunkReaderGetValue(ChunkCacheGetReader(rel, h, entry, desc, att, chunkno),
									(int) row, &isnull[att]);
	}
}

/*
 * The fetch of RowFetchColumns (chain false) or RowFetchIndexed (chain
 * true).
 */
static RowFetchState
FetchRowOrChain(Relation rel, uint64 rownum, Snapshot snapshot,
				TupleTableSlot *slot, const bool *needed, bool chain,
				bool first_call, RowFetchDeferral *defer)
{
	ColstoreDirectory *dir;
	RowGroupDirEntry entry;
	const RowGroupHeader *h;
	TupleDesc	desc = slot->tts_tupleDescriptor;
	uint32		row;
	uint32		chunkno;
	bool		buffered;
	TransactionId xmax;
	ItemPointerData copy;
	int			index;
	bool		delta;
	bool		gone;
	RowFetchState result;
	MemoryContext oldcxt;

	/*
	 * A dirty snapshot is an output: like HeapTupleSatisfiesDirty, clear it
	 * on every path (InitDirtySnapshot leaves speculativeToken unset, and a
	 * stale token would make btree "wait" on a lock nobody holds).
	 */
	if (snapshot->snapshot_type == SNAPSHOT_DIRTY)
	{
		snapshot->xmin = snapshot->xmax = InvalidTransactionId;
		snapshot->speculativeToken = 0;
	}
	if (!first_call)
	{
		/* a heap page's chain, or a row-group row's, has more members */
		dir = DirectoryGet(rel);
		index = DirectoryFindDeltaPage(dir, rownum);
		if (index < 0)
			return FetchRowChainAgain(rel, dir, rownum, snapshot, slot);
		entry = dir->entries[index];
		return FetchDelta(rel, &entry, rownum, snapshot, slot, true, false);
	}
	if (WriteBufferFetch(rel, rownum, snapshot, slot, &buffered))
		return ROW_VISIBLE;
	if (buffered)
		return ROW_INVISIBLE;

	ChunkCacheTrim();
	dir = DirectoryGet(rel);
	if (!FindRow(rel, &dir, rownum, snapshot, slot, &index, &delta, &result))
		return result;
	entry = dir->entries[index];
	if (delta)
		return FetchDelta(rel, &entry, rownum, snapshot, slot, chain, true);
	if (!RowGroupIsVisible(&entry, snapshot))
	{
		if (IsMVCCSnapshot(snapshot))
			RowGroupCheckConflictOut(rel, &entry, snapshot);
		return RowGroupInsertAborted(&entry) ? ROW_DEAD : ROW_INVISIBLE;
	}

	row = (uint32) (rownum - entry.rg_first_row);
	if (!PromotedRowVisible(rel, &entry, row, snapshot, &xmax, &copy, &gone))
	{
		/* deleted for everyone, its index entries removed by VACUUM */
		if (gone)
			return ROW_DEAD;
		/* an index entry's row: its copy may root a HOT chain */
		if (chain && ItemPointerIsValid(&copy) &&
			RowChainFetch(rel, &copy, snapshot, slot))
			return ROW_VISIBLE;
		return ROW_INVISIBLE;
	}
	h = ChunkCacheGetHeader(rel, index, &entry);
	chunkno = RowGroupFindChunk(h, row);
	row -= h->chunk_first_row[chunkno];

	ExecClearTuple(slot);
	if (defer != NULL && needed == NULL && TTS_IS_COLSTORE(slot))
	{
		/* the caller decodes what the executor asks for, when it asks */
		defer->entry = entry;
		defer->dir_index = (uint32) index;
		defer->chunkno = chunkno;
		defer->row = (uint32) row;
		defer->store(defer, slot);
	}
	else
	{
		/* numerics the readers build live until the slot copies them */
		if (FetchContext == NULL)
			FetchContext = AllocSetContextCreate(TopMemoryContext, "colstore row fetch",
												 ALLOCSET_DEFAULT_SIZES);
		MemoryContextReset(FetchContext);
		oldcxt = MemoryContextSwitchTo(FetchContext);
		DecodeRowValues(rel, h, &entry, desc, chunkno, (uint32) row, needed,
						slot->tts_values, slot->tts_isnull, 0, desc->natts);
		MemoryContextSwitchTo(oldcxt);
		StoreFilledSlot(slot);
		ExecMaterializeSlot(slot);
	}
	ColstoreSlotSetInsertInfo(slot, entry.rg_xmin, entry.rg_cmin);
	ColstoreSlotSetXmax(slot, xmax);
	RowNumberToItemPointer(rownum, &slot->tts_tid);
	slot->tts_tableOid = RelationGetRelid(rel);
	return ROW_VISIBLE;
}

/*
 * MovedRowLatestVisible
 *		If the heap tuple at phys was moved into a row group and snapshot
 *		sees the row there, set *tid to the row's TID and return true.  row
 *		(or NULL): the row-group row whose promoted copy phys is, which
 *		compaction may have moved through its group's delete log before the
 *		copy was made (storage/moved_rows.c: the copy then carries the move,
 *		and the new group lists the row); with phys NULL, the row moved so
 *		by mover, with no copy.
 */
bool
MovedRowLatestVisible(Relation rel, ItemPointer phys, ItemPointer row,
					  TransactionId mover, Snapshot snapshot, ItemPointer tid)
{
	ItemPointerData moved;
	TupleTableSlot *slot;
	uint64		rownum = 0;
	bool		visible;

	if (phys != NULL ? !MovedVersionOf(rel, phys, row, &moved) :
		!MovedRowFindRow(rel, mover, row, &moved))
		return false;
	slot = table_slot_create(rel, NULL);
	(void) ItemPointerToRowNumber(&moved, &rownum);
	visible = RowFetch(rel, rownum, snapshot, slot) == ROW_VISIBLE;
	ExecDropSingleTupleTableSlot(slot);
	if (visible)
		*tid = moved;
	return visible;
}
