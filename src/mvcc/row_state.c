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
 * A plain DELETE of a row that has no copy does not promote it: it logs
 * the delete in the group's delete log (storage/delete_log.c,
 * RowStateLogDelete), whose runs readers judge with heap's rules for a
 * plain xmax (mvcc/visibility.c); a promoter copies a live run into the
 * copy's header, so everything after the delete is heapam's again.
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

#include "pg_compat.h"

#include "access/heapam.h"
#include "access/multixact.h"
#include "access/htup_details.h"
#include "access/tupmacs.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "executor/tuptable.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/memutils.h"
#include "storage/predicate.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "mvcc/row_fetch.h"
#include "mvcc/row_state.h"
#include "mvcc/visibility.h"
#include "storage/chunk_cache.h"
#include "storage/delta_chain.h"
#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/logical_log.h"
#include "storage/metapage.h"
#include "storage/page_prefetch.h"
#include "storage/promotion_map.h"
#include "storage/colstore_wal.h"

/*
 * Rows a statement promotes one after the other (a bulk DELETE or UPDATE
 * walking a row group in order) are promoted in growing batches: one heap
 * insertion call and one promotion map record per batch instead of per row.
 * A batch never leaves the row group or the map leaf; the rows it promotes
 * ahead that end up unchanged just carry an unset state.  Batches start
 * only after PROMOTION_RUN_BEFORE_BATCH rows were promoted one after the
 * other: a statement that changes scattered rows (a DELETE of a random
 * share) changes short runs, and a batch at every run of two would give
 * the unchanged row after it a copy too, which keeps its heap page and its
 * promotion map leaf from ever being freed (storage/deleted_rows.c).
 *
 * Such an unchanged copy is live and frozen, and nothing frees or moves a
 * live copy (a locker that read its slot may lock it at any time), so a
 * batch also stops where the scan feeding the statement says it will not
 * return the next row (RowStateNoteScanAhead): a colstore scan knows, for
 * the rest of its current chunk, which rows its row filter removed.  An
 * UPDATE of a key range through a ColstoreScan's batch filter then promotes
 * no row past the range's end.  Where the scan cannot tell (another scan
 * type, a row other than the one it returned last), batches stay as they
 * were, bounded by MAX_PROMOTION_BATCH.
 */
#define MAX_PROMOTION_BATCH		256

/*
 * A group's delete log costs three pages besides the promotion map's root
 * (the DELETED_ROOT page, the log's root, a segment page); a copy costs a
 * tuple on a shared heap page and a slot in a leaf.  Below this many rows
 * (a single-row upsert's group, say) promoting the deleted rows is cheaper.
 */
#define DELETE_LOG_MIN_ROWS		1000
#define PROMOTION_RUN_BEFORE_BATCH	8

static struct
{
	Oid			relid;
	RelFileLocator node;
	uint32		dir_index;
	uint64		next_row;		/* row after the last batch */
	uint32		batch;			/* size of the last batch */
	uint32		want;			/* its size before the scan's rows ahead and
								 * the group's and leaf's ends cut it */
	uint32		run;			/* rows promoted one after the other so far,
								 * the last batch's included */
	ItemPointerData copies[MAX_PROMOTION_BATCH];	/* the batch's copies */
	bool		made[MAX_PROMOTION_BATCH];	/* copies the batch created */
	LocalTransactionId lxid;	/* the command that promoted the batch */
	CommandId	cid;
} LastPromotion;

/*
 * The copy of rownum of the row group at dir_index if the last batch, made
 * by the current transaction, recorded it.  A recorded copy is the row's
 * until its row is deleted for everyone and VACUUM frees the copy's item
 * (storage/deleted_rows.c), which waits for every snapshot older than the
 * row's deleted-rows bit: the promoting transaction has an xid, so the
 * copy stays the row's for as long as that transaction runs.  The batch's
 * rows that were deleted for everyone have no copy in it.
 */
static bool
LastPromotionCopy(Relation rel, uint32 dir_index, uint64 rownum, ItemPointer copy)
{
	if (LastPromotion.relid != RelationGetRelid(rel) ||
		!RelFileLocatorEquals(LastPromotion.node, rel->rd_locator) ||
		LastPromotion.lxid != MyLocalTransactionId() ||
		LastPromotion.dir_index != dir_index ||
		rownum >= LastPromotion.next_row ||
		rownum < LastPromotion.next_row - LastPromotion.batch)
		return false;
	*copy = LastPromotion.copies[rownum - (LastPromotion.next_row - LastPromotion.batch)];

	return ItemPointerIsValid(copy);
}

/*
 * RowStateLocate
 *		Find where the row tid names keeps its state.  The caller must have
 *		written its own buffered rows (WriteBufferFlush) if they may be
 *		meant.
 */
void
RowStateLocate(Relation rel, ItemPointer tid, RowState *state)
{
	RowStateLocateRow(rel, tid, state, true);
}

/*
 * RowStateLocateRow
 *		RowStateLocate; without read_map, a row-group row the last promotion
 *		batch did not promote is left ROWSTATE_GROUP without reading its
 *		promotion map (it may have a copy, its bit or a run): for a plain
 *		DELETE, which checks the map under the delete log's locks
 *		(RowStateLogDelete) and locates the row again if it cannot log.
 */
void
RowStateLocateRow(Relation rel, ItemPointer tid, RowState *state, bool read_map)
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
		DeltaPageItemOfRow(&dir->entries[index], state->rownum, &state->phys);
		return;
	}
	index = DirectoryFindRowGroup(dir, state->rownum);
	if (index < 0)
		return;
	state->dir_index = (uint32) index;
	state->group = dir->entries[index];
	state->kind = ROWSTATE_GROUP;
	if (LastPromotionCopy(rel, state->dir_index, state->rownum, &state->phys))
	{
		state->kind = ROWSTATE_PROMOTED;
		state->this_command =
			LastPromotion.made[state->rownum - (LastPromotion.next_row - LastPromotion.batch)] &&
		LastPromotion.lxid == MyLocalTransactionId() &&
			LastPromotion.cid == GetCurrentCommandId(false);
	}
	else if (read_map)
	{
		switch (PromotionMapLookup(rel, &state->group,
								   (uint32) (state->rownum - state->group.rg_first_row),
								   &state->phys, &state->run))
		{
			case PROMOTION_NONE:
			case PROMOTION_LOGGED:
				break;
			case PROMOTION_COPY:
				state->kind = ROWSTATE_PROMOTED;
				break;
			case PROMOTION_DELETED:
				state->kind = ROWSTATE_GONE;
				break;
		}
	}
}

/*
 * The decoded columns of the chunk the last promotion batch read from,
 * kept for the next batch of the same statement (batches walk a chunk in
 * order, so it is decoded once instead of fetching every value).
 */
static struct
{
	Oid			relid;
	RelFileLocator node;
	LocalTransactionId lxid;	/* statement: transaction and command */
	CommandId	cid;
	uint32		dir_index;
	int			chunk;			/* -1: nothing cached */
	uint32		first;			/* first row of the chunk in the group */
	Datum	  **values;			/* [natts][chunk rows] */
	bool	  **isnull;
	MemoryContext cxt;
}			PromotionChunk = {.chunk = -1};

/* Store row (0-based in the group) of state's row group in virtual slot. */
static void
StoreChunkRow(Relation rel, const RowState *state, uint32 row, TupleTableSlot *slot)
{
	TupleDesc	desc = slot->tts_tupleDescriptor;
	const RowGroupHeader *h = ChunkCacheGetHeader(rel, state->dir_index, &state->group);
	uint32		c = RowGroupFindChunk(h, row);
	uint32		pos;
	int			att;

	if (PromotionChunk.chunk != (int) c ||
		PromotionChunk.relid != RelationGetRelid(rel) ||
		!RelFileLocatorEquals(PromotionChunk.node, rel->rd_locator) ||
		PromotionChunk.dir_index != state->dir_index ||
		PromotionChunk.lxid != MyLocalTransactionId() ||
		PromotionChunk.cid != GetCurrentCommandId(false))
	{
		MemoryContext oldcxt;
		int			nrows = RowGroupChunkRows(h, c);

		if (PromotionChunk.cxt == NULL)
			PromotionChunk.cxt = AllocSetContextCreate(TopMemoryContext,
													   "colstore promotion chunk",
													   ALLOCSET_DEFAULT_SIZES);
		MemoryContextReset(PromotionChunk.cxt);
		PromotionChunk.chunk = -1;
		oldcxt = MemoryContextSwitchTo(PromotionChunk.cxt);
		PromotionChunk.values = palloc(sizeof(Datum *) * Max(desc->natts, 1));
		PromotionChunk.isnull = palloc(sizeof(bool *) * Max(desc->natts, 1));
		for (att = 0; att < desc->natts; att++)
		{
			PromotionChunk.values[att] = palloc(sizeof(Datum) * nrows);
			PromotionChunk.isnull[att] = palloc(sizeof(bool) * nrows);
			RowGroupReadColumnChunk(rel, h, desc, att, c, PromotionChunk.values[att],
									PromotionChunk.isnull[att]);
		}
		MemoryContextSwitchTo(oldcxt);
		PromotionChunk.relid = RelationGetRelid(rel);
		PromotionChunk.node = rel->rd_locator;
		PromotionChunk.lxid = MyLocalTransactionId();
		PromotionChunk.cid = GetCurrentCommandId(false);
		PromotionChunk.dir_index = state->dir_index;
		PromotionChunk.first = h->chunk_first_row[c];
		PromotionChunk.chunk = (int) c;
	}
	pos = row - PromotionChunk.first;
	ExecClearTuple(slot);
	for (att = 0; att < desc->natts; att++)
	{
		slot->tts_values[att] = PromotionChunk.values[att][pos];
		slot->tts_isnull[att] = PromotionChunk.isnull[att][pos];
	}
	ExecStoreVirtualTuple(slot);
}

/*
 * RowStateForget
 *		Drop what this backend remembers of relid's promotions (InvalidOid:
 *		of every relation).  Called when the relation's storage or
 *		descriptor changes: a TRUNCATE of a table created in the same
 *		transaction keeps its file but starts its row numbers again.
 */
void
RowStateForget(Oid relid)
{
	if (!OidIsValid(relid) || LastPromotion.relid == relid)
		LastPromotion.relid = InvalidOid;

	if (!OidIsValid(relid) || PromotionChunk.relid == relid)
		PromotionChunk.chunk = -1;
	PromotionMapForget(relid);
}

/*
 * The scan that returned a row last in this backend, as it told
 * (RowStateNoteScanAhead), or NULL.
 */
static struct
{
	RowStateRowsAhead rows_ahead;
	void	   *scan;
}			ScanAhead;

/*
 * RowStateNoteScanAhead
 *		A scan of a row group just returned a row: until it returns another
 *		or calls RowStateForgetScanAhead, promotions of that row may ask
 *		rows_ahead(scan, ...) how far the scan will go on returning the rows
 *		after it.  The scan must call RowStateForgetScanAhead before what
 *		rows_ahead reads goes away (its chunk, the scan itself).
 */
void
RowStateNoteScanAhead(RowStateRowsAhead rows_ahead, void *scan)
{
	ScanAhead.rows_ahead = rows_ahead;
	ScanAhead.scan = scan;
}

/* RowStateForgetScanAhead: scan no longer answers (if it was the one). */
void
RowStateForgetScanAhead(void *scan)
{
	if (ScanAhead.scan == scan)
		ScanAhead.scan = NULL;
}

/*
 * Does the row of state follow the last batch (same relation file and row
 * group, the next row)?
 */
static bool
PromotionContinues(Relation rel, const RowState *state)
{
	return LastPromotion.relid == RelationGetRelid(rel) &&
		RelFileLocatorEquals(LastPromotion.node, rel->rd_locator) &&
		LastPromotion.dir_index == state->dir_index &&
		LastPromotion.next_row == state->rownum;
}

/*
 * Batch size for promoting the row of state: one row until
 * PROMOTION_RUN_BEFORE_BATCH rows were promoted one after the other, then
 * doubling while sequential (*want), cut at the group's and the map leaf's
 * ends and, when the scan that returned the row can tell, at the first row
 * after it that the scan will not return or the end of its chunk.
 */
static uint32
PromotionBatchSize(Relation rel, const RowState *state, uint32 *want)
{
	uint32		row = (uint32) (state->rownum - state->group.rg_first_row);
	uint32		batch = 1;

	if (PromotionContinues(rel, state) &&
		LastPromotion.run >= PROMOTION_RUN_BEFORE_BATCH)
		batch = Min(LastPromotion.want * 2, MAX_PROMOTION_BATCH);
	*want = batch;
	batch = Min(batch, state->group.rg_nrows - row);
	batch = Min(batch, PromotionMapLeafRemaining(row));
	if (batch > 1 && ScanAhead.scan != NULL)
	{
		uint32		ahead = ScanAhead.rows_ahead(ScanAhead.scan, rel,
												 state->dir_index,
												 state->rownum, batch);

		if (ahead > 0)
			batch = Min(batch, ahead);
	}
	return batch;
}

/*
 * RowStatePromote
 *		Give a ROWSTATE_GROUP row its heap copy (or find the one another
 *		backend made meanwhile); the state becomes ROWSTATE_PROMOTED.  The
 *		copy is frozen, TOASTed values included, and logged without logical
 *		decoding information: it is not a change of the row.  Following rows
 *		of the group may be promoted with it (see PromotionBatchSize).
 */
void
RowStatePromote(Relation rel, RowState *state)
{
	uint32		first = (uint32) (state->rownum - state->group.rg_first_row);
	uint32		n;
	ItemPointerData *copies;
	bool	   *deleted;
	DeleteRun  *runs;
	TransactionId *expect;
	HeapTuple  *tuples;
	TupleTableSlot *row_slot;
	int			nnew = 0;
	uint32		want;
	uint32		i;

	if (state->kind != ROWSTATE_GROUP)
		return;
	n = PromotionBatchSize(rel, state, &want);
again:
	copies = palloc(sizeof(ItemPointerData) * n);
	deleted = palloc(sizeof(bool) * n);
	runs = palloc(sizeof(DeleteRun) * n);
	expect = palloc(sizeof(TransactionId) * n);
	tuples = palloc(sizeof(HeapTuple) * n);
	if (PromotionMapGetRange(rel, &state->group, first, n, copies, deleted, runs) &&
		deleted[0])
	{
		/* not reached: nobody changes a row no snapshot sees */
		state->kind = ROWSTATE_GONE;
		pfree(copies);
		pfree(deleted);
		pfree(runs);
		pfree(expect);
		pfree(tuples);
		return;
	}
	for (i = 0; i < n; i++)
	{
		LastPromotion.made[i] = !ItemPointerIsValid(&copies[i]) && !deleted[i];

		expect[i] = runs[i].xid;
	}

	/*
	 * copies of the rows that have none yet: one row fetched, or a chunk
	 * decoded
	 */
	row_slot = n == 1 ? table_slot_create(rel, NULL) :
		MakeSingleTupleTableSlot(RelationGetDescr(rel), &TTSOpsVirtual);
	for (i = 0; i < n; i++)
	{
		HeapTuple	tuple;

		/* a row deleted for everyone needs no copy */
		if (ItemPointerIsValid(&copies[i]) || deleted[i])
			continue;
		if (n > 1)
			StoreChunkRow(rel, state, first + i, row_slot);
		else if (RowFetch(rel, state->rownum, SnapshotAny, row_slot) != ROW_VISIBLE)
			elog(ERROR, "could not read row %llu of colstore table \"%s\" to promote it",
				 (unsigned long long) state->rownum, RelationGetRelationName(rel));
		tuple = ExecCopySlotHeapTuple(row_slot);
		tuple->t_data->t_infomask2 |= HEAP_COLSTORE_PROMOTED;
		tuple->t_tableOid = RelationGetRelid(rel);
		tuples[nnew++] = tuple;
	}
	ExecDropSingleTupleTableSlot(row_slot);

	if (nnew > 0)
	{
		int			k = 0;

		DeltaHeapInsertCopies(rel, tuples, nnew, GetCurrentCommandId(true),
							  HEAP_INSERT_FROZEN | HEAP_INSERT_NO_LOGICAL);
		DeltaHeapUncountInserts(rel, nnew);
		for (i = 0; i < n; i++)
			if (!ItemPointerIsValid(&copies[i]) && !deleted[i])
			{
				copies[i] = tuples[k++]->t_self;

				/*
				 * a delete the log holds becomes the copy's xmax, before any
				 * backend can find the copy: heapam then waits for it,
				 * reports it or sees it aborted as for heap (a compaction's
				 * move, with the moved marker: tableam/am_dml.c follows the
				 * row into its new group, as for a moved heap tuple)
				 */
				if (TransactionIdIsValid(runs[i].xid) && DeleteRunLive(runs[i].xid))
					PromotedCopySetDeleter(rel, &copies[i], runs[i].xid, runs[i].cid,
										   runs[i].moved);
			}
		for (i = 0; i < (uint32) nnew; i++)
			heap_freetuple(tuples[i]);
		/* a concurrent promoter may have won; its copies are then the rows' */
		PromotionMapSet(rel, state->dir_index, first, n, copies, expect);
	}
	for (i = 0; i < n; i++)
		if (deleted[i])
			ItemPointerSetInvalid(&copies[i]);
	pfree(deleted);
	pfree(runs);
	pfree(expect);
	pfree(tuples);
	if (!ItemPointerIsValid(&copies[0]))
	{
		/* a delete was logged for the row meanwhile: copy it from the log */
		pfree(copies);
		n = 1;
		nnew = 0;
		goto again;
	}

	state->phys = copies[0];
	state->kind = ROWSTATE_PROMOTED;
	memcpy(LastPromotion.copies, copies, sizeof(ItemPointerData) * n);
	LastPromotion.run = PromotionContinues(rel, state) ? LastPromotion.run + n : n;
	LastPromotion.relid = RelationGetRelid(rel);
	LastPromotion.node = rel->rd_locator;
	LastPromotion.lxid = MyLocalTransactionId();
	LastPromotion.cid = GetCurrentCommandId(false);
	LastPromotion.dir_index = state->dir_index;
	LastPromotion.next_row = state->rownum + n;
	LastPromotion.batch = n;
	LastPromotion.want = Max(want, n);

	pfree(copies);
}

/*
 * RowStateMayLogDelete
 *		May a delete of the row of state be logged in its group's delete log
 *		(storage/delete_log.c) rather than promote it?  Only for a row-group
 *		row with no copy and no run, of a group of at least
 *		DELETE_LOG_MIN_ROWS rows, and only with colstore's WAL resource
 *		manager when the table is WAL-logged: a promoter that later finds the
 *		run copies it into its copy with XLOG_COLSTORE_DELETE.
 */
bool
RowStateMayLogDelete(Relation rel, const RowState *state)
{
	return state->kind == ROWSTATE_GROUP && !TransactionIdIsValid(state->run.xid) &&
		state->group.rg_nrows >= DELETE_LOG_MIN_ROWS &&
		(!RelationNeedsWAL(rel) || ColstoreWalAvailable());
}

/*
 * RowStateLogDelete
 *		Delete the row of state (RowStateMayLogDelete) by the current
 *		(sub)transaction in command cid through its group's delete log, as
 *		heap_delete deletes a tuple with no xmax: after the caller's
 *		SERIALIZABLE check, with logical decoding's record (the old key from
 *		the row's values) and the statistics.  Returns false, changing
 *		nothing, if the row got a copy or a live run meanwhile
 *		(PromotionMapLogDelete) or its segment page is full: the caller then
 *		promotes it and deletes its copy, where heapam waits, reports or goes
 *		on as for heap.
 */
bool
RowStateLogDelete(Relation rel, const RowState *state, CommandId cid)
{
	TransactionId xid = GetCurrentTransactionId();
	TupleTableSlot *slot = NULL;
	bool		logged;

	/* others may put our xid into a multixact from now on, as in heap_delete */
	MultiXactIdSetOldestMember();
	if (RelationIsLogicallyLogged(rel))
	{
		/*
		 * the old key comes from the row's values, read from its chunk
		 * decoded once for the statement (as promotion batches read them)
		 */
		slot = MakeSingleTupleTableSlot(RelationGetDescr(rel), &TTSOpsVirtual);
		StoreChunkRow(rel, state, (uint32) (state->rownum - state->group.rg_first_row), slot);
	}
	logged = PromotionMapLogDelete(rel, state->dir_index, &state->group,
								   (uint32) (state->rownum - state->group.rg_first_row),
								   xid, cid, false) == DELETE_LOG_DONE;
	if (slot != NULL)
	{
		if (logged)
		{
			bool		shouldFree;
			HeapTuple	tuple = ExecFetchSlotHeapTuple(slot, false, &shouldFree);

			LogicalLogDelete(rel, tuple, xid);
			if (shouldFree)
				heap_freetuple(tuple);
		}
		ExecDropSingleTupleTableSlot(slot);
	}
	if (logged)
		pgstat_count_heap_delete(rel);
	return logged;
}

/*
 * RowStateMayMoveByRun
 *		May compaction move the rows of group, a row group of rel, through
 *		the group's delete log (RowStateMoveByRun) rather than through
 *		promoted copies?  As for a logged delete (RowStateMayLogDelete): a
 *		group of at least DELETE_LOG_MIN_ROWS rows (a log costs three pages),
 *		with colstore's WAL resource manager when the table is WAL-logged.
 */
bool
RowStateMayMoveByRun(Relation rel, const RowGroupDirEntry *group)
{
	return group->rg_nrows >= DELETE_LOG_MIN_ROWS &&
		(!RelationNeedsWAL(rel) || ColstoreWalAvailable());
}

/*
 * RowStateMoveByRun
 *		Move row (0-based) of the row group at dir_index (group: its entry as
 *		the caller read it) out of its group by the current transaction in
 *		command cid without promoting it: a run flagged moved in the group's
 *		delete log (storage/delete_log.c), added as a logged delete is
 *		(PromotionMapLogDelete: only for a row with no copy and no live run,
 *		under the locks that order it with promoters), but with no logical
 *		decoding record and no statistics: a move changes no row, as
 *		DeleteUndecoded's moves of heap tuples do not.  Stores the row's
 *		values in slot (virtual, rel's descriptor) and returns true if it
 *		moved it; returns false, with slot cleared, if the row has a copy or
 *		a live run (a writer was first) or its segment page is full.  The
 *		caller (tableam/compaction.c) writes the row into a row group of its
 *		transaction listing the row's TID (MovedRowSourceOfRow); a writer
 *		that reaches the row later promotes it with the moved run as its
 *		copy's delete (RowStatePromote) and follows it there.
 */
bool
RowStateMoveByRun(Relation rel, uint32 dir_index, const RowGroupDirEntry *group,
				  uint32 row, CommandId cid, TupleTableSlot *slot)
{
	TransactionId xid = GetCurrentTransactionId();
	RowState	state;
	ItemPointerData tid;

	Assert(row < group->rg_nrows && RowStateMayMoveByRun(rel, group));
	memset(&state, 0, sizeof(state));
	state.kind = ROWSTATE_GROUP;
	state.rownum = group->rg_first_row + row;
	state.dir_index = dir_index;
	state.group = *group;
	state.run.xid = InvalidTransactionId;
	RowNumberToItemPointer(state.rownum, &tid);

	/*
	 * the values first: a row-group row's values never change, and the run
	 * added below proves nobody changed or locked the row (that would have
	 * given it a copy or a live run)
	 */
	StoreChunkRow(rel, &state, row, slot);
	CheckForSerializableConflictIn(rel, &tid, ItemPointerGetBlockNumber(&tid));
	/* others may put our xid into a multixact from now on, as in heap_delete */
	MultiXactIdSetOldestMember();
	if (PromotionMapLogDelete(rel, dir_index, group, row, xid, cid, true) == DELETE_LOG_DONE)
		return true;
	ExecClearTuple(slot);
	return false;
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
 * VersionLiveness
 *		Liveness of the heap version tuple (on the locked page buf) for
 *		snapshot; snapshot NULL or SnapshotAny: for a scan that sees every
 *		version, against oldest_xmin.  MVCC snapshots report SSI conflicts.
 */
RowLiveness
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

/*
 * HeapTupleCheckShape
 *		Raise ERRCODE_DATA_CORRUPTED unless the heap tuple's header and
 *		attributes fit inside it under desc, the descriptor it is about to be
 *		deformed with (heap_deform_tuple trusts both): a damaged page without
 *		a data checksum would otherwise let deforming read past the tuple (a
 *		NULL bitmap flag, a varlena length).  desc is the caller's, not rel's:
 *		a rewrite (ALTER COLUMN TYPE) reads the old rows with the old one.
 */
void
HeapTupleCheckShape(Relation rel, HeapTuple tuple, TupleDesc desc)
{
	HeapTupleHeader tup = tuple->t_data;
	int			natts = HeapTupleHeaderGetNatts(tup);
	bool		hasnulls = HeapTupleHasNulls(tuple);
	char	   *tp;
	uint32		len;
	uint32		off = 0;
	int			attnum;

	if (natts > desc->natts ||
		tup->t_hoff < SizeofHeapTupleHeader + (hasnulls ? BITMAPLEN(natts) : 0) ||
		tup->t_hoff > tuple->t_len)
		goto bad;
	tp = (char *) tup + tup->t_hoff;
	len = tuple->t_len - tup->t_hoff;
	for (attnum = 0; attnum < natts; attnum++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, attnum);
		uint32		attlen;

		if (hasnulls && att_isnull(attnum, tup->t_bits))
			continue;
		if (att->attlen > 0)
		{
			off = att_align_nominal(off, att->attalign);
			attlen = att->attlen;
		}
		else if (att->attlen == -1)
		{
			/*
			 * a 1-byte header is never padded; else the 4-byte header's
			 * alignment
			 */
			if (off >= len)
				goto bad;
			off = att_align_pointer(off, att->attalign, -1, tp + off);
			if (off >= len || (VARATT_IS_4B(tp + off) && len - off < VARHDRSZ))
				goto bad;
			attlen = VARSIZE_ANY(tp + off);
		}
		else
		{
			off = att_align_nominal(off, att->attalign);
			if (off >= len)
				goto bad;
			attlen = strnlen(tp + off, len - off) + 1;
		}
		if (off > len || attlen > len - off)
			goto bad;
		off += attlen;
	}
	return;

bad:
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg_internal("colstore table \"%s\": heap tuple (%u,%u) does not fit its length",
							 RelationGetRelationName(rel),
							 ItemPointerGetBlockNumber(&tuple->t_self),
							 ItemPointerGetOffsetNumber(&tuple->t_self))));
}

/*
 * HeapVersionExists
 *		Does the heap position phys hold a tuple (not a pruned or unused
 *		item)?
 */
bool
HeapVersionExists(Relation rel, ItemPointer phys)
{
	HeapTupleData tuple;
	Buffer		buf;
	bool		exists;

	buf = ColstoreReadCached(rel, ItemPointerGetBlockNumber(phys));
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	exists = HeapVersionRead(rel, buf, ItemPointerGetOffsetNumber(phys), &tuple);
	UnlockReleaseBuffer(buf);
	return exists;
}

/*
 * VersionSurelyDead
 *		Is the heap version tuple (not a promoted copy) dead to every
 *		snapshot, as heap's index fetch judges for kill_prior_tuple: its
 *		inserter aborted, or its deleter committed before every snapshot?
 */
bool
VersionSurelyDead(Relation rel, HeapTuple tuple)
{
	return !HeapTupleHeaderIsPromotedCopy(tuple->t_data) &&
		!((tuple->t_data->t_infomask & HEAP_XMAX_COMMITTED) &&
		  !TransactionIdIsNormal(HeapTupleHeaderGetRawXmax(tuple->t_data))) &&
		HeapTupleIsSurelyDead(tuple, GlobalVisTestFor(rel));
}

/*
 * HeapVersionVisible
 *		Is the heap tuple at phys visible to snapshot?  A dirty snapshot's
 *		xmin/xmax are set as HeapTupleSatisfiesDirty does.  If copy is not
 *		NULL and the answer is yes, *copy gets a palloc'd copy of it.  If
 *		raw_xmax is not NULL, it gets the tuple's raw xmax.  If surely_dead
 *		is not NULL and the answer is no, it says whether the tuple (not a
 *		promoted copy) is dead to every snapshot, as heap's index fetch
 *		judges for kill_prior_tuple: its inserter aborted, or its deleter
 *		committed before every snapshot; an item VACUUM pruned counts as
 *		dead.
 */
bool
HeapVersionVisible(Relation rel, ItemPointer phys, Snapshot snapshot,
				   HeapTuple *copy, TransactionId *raw_xmax, bool *surely_dead)
{
	HeapTupleData tuple;
	Buffer		buf;
	bool		visible = false;
	OffsetNumber off = ItemPointerGetOffsetNumber(phys);

	if (surely_dead != NULL)
		*surely_dead = false;
	buf = ColstoreReadCached(rel, ItemPointerGetBlockNumber(phys));
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	if (HeapVersionRead(rel, buf, off, &tuple))
	{
		visible = VersionLiveness(rel, &tuple, buf, snapshot, InvalidTransactionId) != ROW_HIDDEN;
		if (visible && copy != NULL)
			*copy = heap_copytuple(&tuple);
		if (raw_xmax != NULL)
			*raw_xmax = HeapTupleHeaderGetRawXmax(tuple.t_data);
		if (!visible && surely_dead != NULL)
			*surely_dead = VersionSurelyDead(rel, &tuple);
	}
	else if (surely_dead != NULL)
		*surely_dead = HeapItemIsDead(buf, off);
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
	bool	   *deleted;
	DeleteRun  *runs;
	Buffer		buf = InvalidBuffer;
	uint32		i;

	if (group->rg_state_root == 0)
		return false;
	copies = palloc(sizeof(ItemPointerData) * Max(n, 1));
	deleted = palloc(sizeof(bool) * Max(n, 1));
	runs = palloc(sizeof(DeleteRun) * Max(n, 1));
	(void) PromotionMapGetRange(rel, group, first, n, copies, deleted, runs);
	for (i = 0; i < n; i++)
	{
		HeapTupleData tuple;
		BlockNumber blkno;

		/* deleted for everyone: the bit says so, no page to visit */
		mask[i] = deleted[i] ? ROW_HIDDEN : ROW_LIVE;
		/* a delete without a copy: the log's run says it */
		if (TransactionIdIsValid(runs[i].xid))
			mask[i] = (uint8) DeleteRunLiveness(rel, &runs[i], snapshot, oldest_xmin);
		if (!ItemPointerIsValid(&copies[i]))
			continue;
		blkno = ItemPointerGetBlockNumber(&copies[i]);
		if (!BufferIsValid(buf) || BufferGetBlockNumber(buf) != blkno)
		{
			if (BufferIsValid(buf))
				UnlockReleaseBuffer(buf);
			buf = ReadBuffer(rel, blkno);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			HeapPageCheck(rel, buf);
		}
		if (HeapItemIsDead(buf, ItemPointerGetOffsetNumber(&copies[i])) ||
			DeltaRedirectTarget(rel, buf, ItemPointerGetOffsetNumber(&copies[i])) !=
			InvalidOffsetNumber)
		{
			/*
			 * pruned by VACUUM: deleted for everyone, or updated by a HOT
			 * update whose chain lives on (storage/delta_vacuum.c): the row's
			 * version is dead to everyone either way
			 */
			mask[i] = ROW_HIDDEN;
			continue;
		}
		if (!HeapVersionRead(rel, buf, ItemPointerGetOffsetNumber(&copies[i]), &tuple))
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
	pfree(deleted);
	pfree(runs);
	return true;
}

/*
 * DeltaPageCollect
 *		Copy the rows of heap page blkno that snapshot sees (snapshot NULL or
 *		SnapshotAny: that are not dead to everyone, with their liveness)
 *		into tuples[] (palloc'd), their item numbers into offsets[], the
 *		items their HOT chains start at into starts[] (where their index
 *		entries point, storage/delta_chain.c) and what those items are
 *		into start_kinds[] (ChainStartKind) if starts is not NULL, and their
 *		RowLiveness into liveness[] if not NULL; arrays have room for
 *		MaxHeapTuplesPerPage.  Promoted copies are not rows and are skipped.
 *		The page is read through pf (storage/page_prefetch.h) if not NULL.
 *		Returns the count.
 */
int
DeltaPageCollect(Relation rel, PagePrefetch *pf, BlockNumber blkno, Snapshot snapshot,
				 TransactionId oldest_xmin, HeapTuple *tuples,
				 OffsetNumber *offsets, OffsetNumber *starts,
				 uint8 *start_kinds, uint8 *liveness)
{
	Buffer		buf;
	OffsetNumber off;
	OffsetNumber maxoff;
	OffsetNumber chain_starts[MaxHeapTuplesPerPage + 1];
	int			n = 0;

	buf = pf != NULL ? PagePrefetchReadBuffer(pf, blkno) : ReadBuffer(rel, blkno);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	maxoff = PageGetMaxOffsetNumber(BufferGetPage(buf));
	if (starts != NULL)
		DeltaChainStarts(rel, buf, chain_starts);
	for (off = FirstOffsetNumber; off <= maxoff; off++)
	{
		HeapTupleData tuple;
		RowLiveness live;

		if (!HeapVersionRead(rel, buf, off, &tuple) ||
			HeapTupleHeaderIsPromotedCopy(tuple.t_data))
			continue;
		live = VersionLiveness(rel, &tuple, buf, snapshot, oldest_xmin);
		if (live == ROW_HIDDEN)
			continue;
		tuples[n] = heap_copytuple(&tuple);
		offsets[n] = off;
		if (starts != NULL)
		{
			OffsetNumber st = chain_starts[off];
			HeapTupleData root;

			starts[n] = st;
			start_kinds[n] = CHAIN_START_VERSION;
			if (st != InvalidOffsetNumber && !HeapVersionRead(rel, buf, st, &root))
				start_kinds[n] = CHAIN_START_REDIRECT;
			else if (st != InvalidOffsetNumber &&
					 HeapTupleHeaderIsPromotedCopy(root.t_data))
				start_kinds[n] = CHAIN_START_COPY;
		}
		if (liveness != NULL)
			liveness[n] = (uint8) live;
		n++;
	}
	UnlockReleaseBuffer(buf);
	return n;
}

/* The delete half of heap version tuple for a rewrite against oldest_xmin. */
static void
VersionForRewrite(HeapTuple tuple, Buffer buf, TransactionId oldest_xmin,
				  RewriteVersion *v)
{
	switch (HeapTupleSatisfiesVacuum(tuple, oldest_xmin, buf))
	{
		case HEAPTUPLE_DEAD:
			v->dead = true;
			break;
		case HEAPTUPLE_RECENTLY_DEAD:
		case HEAPTUPLE_DELETE_IN_PROGRESS:
			v->xmax = HeapTupleHeaderGetUpdateXid(tuple->t_data);
			break;
		case HEAPTUPLE_LIVE:
		case HEAPTUPLE_INSERT_IN_PROGRESS:
			break;
	}
}

/*
 * RowStateForRewrite
 *		How a table rewrite (VACUUM FULL, CLUSTER) must copy the row version
 *		tid names, judged against oldest_xmin as heap's rewrite judges its
 *		tuples.  Row locks are ignored: the rewrite's exclusive lock leaves
 *		no locker.
 */
void
RowStateForRewrite(Relation rel, ItemPointer tid, TransactionId oldest_xmin,
				   RewriteVersion *v)
{
	RowState	state;
	HeapTupleData tuple;
	Buffer		buf;

	memset(v, 0, sizeof(*v));
	RowStateLocate(rel, tid, &state);
	if (state.kind == ROWSTATE_NONE)
	{
		v->dead = true;
		return;
	}
	if (state.kind != ROWSTATE_DELTA)
	{
		if (RowGroupInsertAborted(&state.group))
		{
			v->dead = true;
			return;
		}
		v->xmin = state.group.rg_xmin;
		v->settled = (state.group.rg_flags & RG_FLAG_FROZEN) ||
			(RowGroupInsertCommitted(&state.group) &&
			 TransactionIdPrecedes(state.group.rg_xmin, oldest_xmin));
		if (state.kind == ROWSTATE_GROUP)
		{
			/* a delete the log holds: heap's rules for a plain xmax */
			if (TransactionIdIsValid(state.run.xid))
			{
				switch (DeleteRunLiveness(rel, &state.run, NULL, oldest_xmin))
				{
					case ROW_HIDDEN:
						v->dead = true;
						break;
					case ROW_RECENTLY_DEAD:
						v->xmax = state.run.xid;
						break;
					case ROW_LIVE:
						if (TransactionIdIsInProgress(state.run.xid))
							v->xmax = state.run.xid;
						break;
				}
			}
			return;
		}
		if (state.kind == ROWSTATE_GONE)
		{
			v->dead = true;
			return;
		}
	}
	buf = ReadBuffer(rel, ItemPointerGetBlockNumber(&state.phys));
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	if (!HeapVersionRead(rel, buf, ItemPointerGetOffsetNumber(&state.phys), &tuple))
		v->dead = true;
	else
	{
		/* judged first: a surviving version's inserter has committed */
		VersionForRewrite(&tuple, buf, oldest_xmin, v);
		if (state.kind == ROWSTATE_DELTA && !v->dead)
		{
			v->xmin = HeapTupleHeaderGetXmin(tuple.t_data);
			v->settled = HeapTupleHeaderXminFrozen(tuple.t_data) ||
				TransactionIdPrecedes(v->xmin, oldest_xmin);
		}
	}
	UnlockReleaseBuffer(buf);
}
