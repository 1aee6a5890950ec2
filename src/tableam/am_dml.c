/*-------------------------------------------------------------------------
 *
 * am_dml.c
 *	  DELETE, UPDATE and row locks of colstore tables.
 *
 * Each callback finds where the row's state lives (mvcc/row_state.c),
 * promotes a row-group row to its heap copy on first use, and hands the
 * work to heapam on the heap position: heap_delete, heap_update and
 * heap_lock_tuple (a plain DELETE of a row-group row with no copy logs the
 * delete in its group's delete log instead, storage/delete_log.c), with their tuple locks, waits, multixacts, key-column
 * rules and SERIALIZABLE checks.  What comes back is translated from heap
 * positions to colstore TIDs: a promoted row keeps its row-group TID, and
 * a heap tuple's TID is its delta page's pseudo-block with the same item
 * number (storage/delta_heap.c).  tuple_lock follows update chains for
 * EvalPlanQual as heapam_tuple_lock does.
 *
 * New row versions are heap tuples.  UPDATE passes heapam's answer on
 * index entries through: a HOT update (new version on the old one's page,
 * no index-relevant column changed) makes none, and readers reach the new
 * version from the HOT chain's start (mvcc/hot_chain.c), as in heap.  A
 * promoted copy's HOT chain is rooted at its row: the row's index entries,
 * naming its row-group TID, lead readers on into the chain, and a HOT update
 * in such a chain that asks for summarizing entries gets them under the
 * row's TID (tableam/summarizing_insert.c).
 *
 * IDENTIFICATION
 *	  src/tableam/am_dml.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/heapam.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "executor/tuptable.h"
#include "storage/all_visible.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/predicate.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "mvcc/hot_chain.h"
#include "mvcc/row_fetch.h"
#include "mvcc/row_state.h"
#include "mvcc/visibility.h"
#include "storage/delta_heap.h"
#include "storage/moved_rows.h"
#include "storage/write_buffer.h"
#include "tableam/am_slot.h"
#include "tableam/am_dml.h"
#include "tableam/summarizing_insert.h"

/*
 * Locate the row tid names (RowStateLocateRow: without read_map, a
 * row-group row's promotion map is not read).  Raises an error for TIDs
 * that name no row: the executor only passes TIDs of rows its snapshot saw.
 * Returns false if the row is a row-group row that command cid cannot
 * change because our own transaction inserted it in cid or later (heap's
 * TM_Invisible, which is how the executor detects a row that one command
 * would change twice).
 */
static bool
LocateRow(Relation rel, ItemPointer tid, CommandId cid, RowState *state,
		  bool read_map)
{
	WriteBufferFlush(rel);
	RowStateLocateRow(rel, tid, state, read_map);
	if (state->kind == ROWSTATE_NONE)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg_internal("colstore table \"%s\" has no row at TID (%u,%u)",
								 RelationGetRelationName(rel),
								 ItemPointerGetBlockNumberNoCheck(tid),
								 ItemPointerGetOffsetNumberNoCheck(tid))));
	if (state->kind != ROWSTATE_DELTA &&
		!(state->group.rg_flags & RG_FLAG_FROZEN) &&
		TransactionIdIsCurrentTransactionId(state->group.rg_xmin) &&
		state->group.rg_cmin >= cid)
		return false;
	return true;
}

/*
 * The heap position of the row tid names: LocateRow, then promote a
 * row-group row (see LocateRow for the result).  Raises an error for a
 * version VACUUM pruned.  located: *state is LocateRow's answer already,
 * and one that reading the promotion map would not change (not
 * ROWSTATE_GROUP).
 */
static bool
LocateForChange(Relation rel, ItemPointer tid, CommandId cid, RowState *state,
				bool located)
{
	if (!located && !LocateRow(rel, tid, cid, state, true))
		return false;

	/*
	 * heap_* must never be handed a pruned (empty) item.  A copy this command
	 * created is younger than every VACUUM's horizon: no need to look (bulk
	 * UPDATE and DELETE find most rows that way).
	 */
	if (state->kind == ROWSTATE_GONE ||
		(state->kind != ROWSTATE_GROUP && !state->this_command &&
		 !HeapVersionExists(rel, &state->phys)))
		elog(ERROR, "row at TID (%u,%u) of colstore table \"%s\" was removed by VACUUM",
			 ItemPointerGetBlockNumberNoCheck(tid), ItemPointerGetOffsetNumberNoCheck(tid),
			 RelationGetRelationName(rel));
	RowStatePromote(rel, state);
	return true;
}

/*
 * Where mover moved the row of state (tid: its TID): if compaction moved
 * the heap tuple at state's heap position (a heap version, or a row-group
 * row's copy), or moved a row-group row through its group's delete log
 * (whose copy, made afterwards, carries the moved run: mvcc/row_state.c),
 * set *moved_to to the row's TID in its new row group and return true
 * (moved_to may be tid).
 */
static bool
FollowMove(Relation rel, const RowState *state, ItemPointer tid, TransactionId mover,
		   ItemPointer moved_to)
{
	ItemPointerData row = *tid;

	if (state->kind == ROWSTATE_GROUP)
		return false;
	if (MovedRowFind(rel, mover, (ItemPointer) &state->phys, moved_to))
		return true;
	return state->kind == ROWSTATE_PROMOTED && MovedRowFindRow(rel, mover, &row, moved_to);
}

/*
 * tmfd->ctid from a heap position to a TID; the row itself maps to tid, and
 * a heap tuple (or a row-group row's copy) that compaction moved maps to the
 * row's TID in its new row group
 * (the "moved to another partition" marker stays for a real partition
 * move).  Only results whose ctid the executor reads are translated: for
 * TM_BeingModified and TM_WouldBlock it may name a new version whose page
 * its still running updater has not registered yet.
 */
static void
TranslateFailure(Relation rel, const RowState *state, ItemPointer tid,
				 TM_Result result, TM_FailureData *tmfd)
{
	if (result != TM_Updated && result != TM_Deleted && result != TM_SelfModified)
		return;
	if (ItemPointerEquals(&tmfd->ctid, (ItemPointer) &state->phys))
		tmfd->ctid = *tid;
	else if (ItemPointerIndicatesMovedPartitions(&tmfd->ctid))
		(void) FollowMove(rel, state, tid, tmfd->xmax, &tmfd->ctid);
	else
		DeltaHeapToLogical(rel, &tmfd->ctid, &tmfd->ctid);
}

/*
 * The transaction-snapshot check of RI actions (crosscheck, see heap_delete):
 * a row-group row whose insert the crosscheck snapshot does not see counts
 * as concurrently updated.  The heap copy's insert is frozen, so heapam
 * cannot tell; this checks the row group, after waiting for the row's
 * lockers as heapam would (by locking it).  Returns TM_Ok if the check
 * passes.
 */
static TM_Result
CrosscheckRowGroup(Relation rel, RowState *state, ItemPointer tid,
				   CommandId cid, Snapshot crosscheck, bool wait,
				   TM_FailureData *tmfd)
{
	HeapTupleData tuple;
	Buffer		buffer;
	TM_Result	result;

	if (crosscheck == InvalidSnapshot || state->kind != ROWSTATE_PROMOTED ||
		RowGroupIsVisible(&state->group, crosscheck))
		return TM_Ok;
	tuple.t_self = state->phys;
	result = heap_lock_tuple(rel, &tuple, cid, LockTupleExclusive,
							 wait ? LockWaitBlock : LockWaitError, false,
							 &buffer, tmfd);
	ReleaseBuffer(buffer);
	if (result != TM_Ok)
	{
		TranslateFailure(rel, state, tid, result, tmfd);
		return result;
	}
	tmfd->ctid = *tid;
	tmfd->xmax = state->group.rg_xmin;
	tmfd->cmax = InvalidCommandId;
	return TM_Updated;
}

/*
 * What DELETE and UPDATE do before heapam changes the row tid names: find
 * and promote it, report the write to SERIALIZABLE readers of the colstore
 * TID (they take predicate locks on it), and apply an RI crosscheck to a
 * row-group row.  Returns TM_Ok to go on, or the result to return.
 * located as for LocateForChange.
 */
static TM_Result
PrepareChange(Relation rel, ItemPointer tid, CommandId cid, Snapshot crosscheck,
			  bool wait, TM_FailureData *tmfd, RowState *state, bool located)
{
	if (!LocateForChange(rel, tid, cid, state, located))
		return TM_Invisible;
	CheckForSerializableConflictIn(rel, tid, ItemPointerGetBlockNumber(tid));
	return CrosscheckRowGroup(rel, state, tid, cid, crosscheck, wait, tmfd);
}

/*
 * colstore_tuple_delete
 *		Delete the row tid names, as heap_delete does (see tableam.h for the
 *		contract); tmfd->ctid comes back as a colstore TID.
 */
TM_Result
colstore_tuple_delete(Relation rel, ItemPointer tid, CommandId cid,
					  Snapshot snapshot, Snapshot crosscheck, bool wait,
					  TM_FailureData *tmfd, bool changingPart)
{
	RowState	state;
	TM_Result	result;

	/* the promotion map is read under the delete log's locks, if at all */
	if (!LocateRow(rel, tid, cid, &state, false))
		return TM_Invisible;

	/*
	 * a plain delete of a row-group row with no copy: logged in its group's
	 * delete log, not promoted (an RI crosscheck, or a move to another
	 * partition, takes heapam's way on a copy)
	 */
	if (crosscheck == InvalidSnapshot && !changingPart && RowStateMayLogDelete(rel, &state))
	{
		CheckForSerializableConflictIn(rel, tid, ItemPointerGetBlockNumber(tid));
		if (RowStateLogDelete(rel, &state, cid))
		{
			AllVisibleClear(rel, tid);
			return TM_Ok;
		}
	}

	/*
	 * a heap version (or a row this statement's last promotion batch copied)
	 * is where LocateRow found it: reading the map would not change that, so
	 * it is not located again
	 */
	result = PrepareChange(rel, tid, cid, crosscheck, wait, tmfd, &state,
						   state.kind != ROWSTATE_GROUP);
	if (result != TM_Ok)
		return result;
	result = heap_delete(rel, &state.phys, cid, crosscheck, wait, tmfd,
						 changingPart);
	if (result == TM_Ok)
		AllVisibleClear(rel, tid);
	TranslateFailure(rel, &state, tid, result, tmfd);
	return result;
}

#if PG_HAS_TU_UPDATE_INDEXES
/*
 * A HOT update that changed only summarizing-indexed columns of a version
 * whose chain is rooted at a row's promoted copy: its summarizing entries
 * go under the row's TID (tableam/summarizing_insert.c), and the executor
 * makes none.  otid names the row itself when its copy was updated.
 */
static void
SummarizeUnderRoot(Relation rel, const RowState *state, ItemPointer otid,
				   TupleTableSlot *slot, TU_UpdateIndexes *update_indexes)
{
	ItemPointerData row;

	if (state->kind == ROWSTATE_PROMOTED)
		row = *otid;
	else if (!HotChainRootRow(rel, (ItemPointer) &state->phys, &row))
		return;
	SummarizingIndexesInsert(rel, slot, &row);
	*update_indexes = TU_None;
}
#endif

/*
 * colstore_tuple_update
 *		Replace the row otid names by the row in slot, as heap_update does
 *		(see tableam.h): the new version is a heap tuple whose colstore TID is
 *		stored in slot->tts_tid; it needs index entries unless heap_update
 *		made a HOT update (of a heap version or of a row's promoted copy).
 */
TM_Result
colstore_tuple_update(Relation rel, ItemPointer otid, TupleTableSlot *slot,
					  CommandId cid, Snapshot snapshot, Snapshot crosscheck,
					  bool wait, TM_FailureData *tmfd, LockTupleMode *lockmode,
					  TU_UpdateIndexes *update_indexes)
{
	RowState	state;
	TM_Result	result;
	bool		shouldFree = true;
	HeapTuple	tuple;

	result = PrepareChange(rel, otid, cid, crosscheck, wait, tmfd, &state, false);
	if (result != TM_Ok)
		return result;

	tuple = ExecFetchSlotHeapTuple(slot, true, &shouldFree);
	if (!shouldFree)
	{
		/* the marker bits are ours to clear: work on a copy */
		tuple = heap_copytuple(tuple);
		shouldFree = true;
	}
	tuple->t_data->t_infomask2 &= ~HEAP_COLSTORE_PROMOTED;
	slot->tts_tableOid = RelationGetRelid(rel);
	tuple->t_tableOid = slot->tts_tableOid;

	result = DeltaHeapUpdate(rel, &state.phys, tuple, cid, crosscheck, wait,
							 tmfd, lockmode, &slot->tts_tid, update_indexes);
	if (result == TM_Ok)
	{
		/* the old version is no longer visible to everyone */
		AllVisibleClear(rel, otid);
		/* RETURNING xmin of the new version */
		ColstoreSlotSetInsertInfo(slot, GetCurrentTransactionId(), cid);
#if PG_HAS_TU_UPDATE_INDEXES
		if (*update_indexes == TU_Summarizing)
			SummarizeUnderRoot(rel, &state, otid, slot, update_indexes);
#endif
	}
	TranslateFailure(rel, &state, otid, result, tmfd);
	if (shouldFree)
		heap_freetuple(tuple);
	return result;
}

/*
 * Put the locked row into slot: a row-group row from its row group (its
 * promoted copy's TOASTed values are not the row's to hand out), a heap
 * row from its tuple.
 */
static void
StoreLockedRow(Relation rel, const RowState *state, HeapTuple tuple,
			   ItemPointer tid, TupleTableSlot *slot)
{
	if (state->kind == ROWSTATE_PROMOTED)
	{
		if (RowFetch(rel, state->rownum, SnapshotAny, slot) != ROW_VISIBLE)
			elog(ERROR, "could not read locked row %llu of colstore table \"%s\"",
				 (unsigned long long) state->rownum, RelationGetRelationName(rel));
	}
	else
		StoreHeapVersion(rel, tuple, slot);
	slot->tts_tid = *tid;
	slot->tts_tableOid = RelationGetRelid(rel);
}

/*
 * Follow the update chain from the heap position next (whose inserter must
 * be prior_xmax), as heapam_tuple_lock does for TUPLE_LOCK_FLAG_FIND_LAST_
 * VERSION: wait for in-progress updaters per wait_policy, skip versions
 * our own command made.  Returns TM_Ok with *next set to the latest live
 * version, or the result to give up with.  A version that compaction moved
 * continues in a row group: then *next is the row's TID there and
 * *in_group is set.
 */
static TM_Result
FindLastVersion(Relation rel, ItemPointer next, TransactionId prior_xmax,
				CommandId cid, LockWaitPolicy wait_policy, TM_FailureData *tmfd,
				bool *in_group)
{
	SnapshotData SnapshotDirty;
	HeapTupleData tuple;
	Buffer		buffer;

	InitDirtySnapshot(SnapshotDirty);
	*in_group = false;
	for (;;)
	{
		if (ItemPointerIndicatesMovedPartitions(next))
			ereport(ERROR,
					(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					 errmsg("tuple to be locked was already moved to another partition due to concurrent update")));

		tuple.t_self = *next;
		if (heap_fetch(rel, &SnapshotDirty, &tuple, &buffer, true))
		{
			/* a reused slot: the latest version was deleted */
			if (!TransactionIdEquals(HeapTupleHeaderGetXmin(tuple.t_data), prior_xmax))
			{
				ReleaseBuffer(buffer);
				return TM_Deleted;
			}
			if (TransactionIdIsValid(SnapshotDirty.xmin))
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg_internal("t_xmin %u is uncommitted in tuple to be updated in table \"%s\"",
										 SnapshotDirty.xmin, RelationGetRelationName(rel))));
			if (TransactionIdIsValid(SnapshotDirty.xmax))
			{
				ReleaseBuffer(buffer);
				switch (wait_policy)
				{
					case LockWaitBlock:
						XactLockTableWait(SnapshotDirty.xmax, rel, &tuple.t_self,
										  XLTW_FetchUpdated);
						break;
					case LockWaitSkip:
						if (!ConditionalXactLockWait(SnapshotDirty.xmax))
							return TM_WouldBlock;
						break;
					case LockWaitError:
						if (!ConditionalXactLockWait(SnapshotDirty.xmax))
							ereport(ERROR,
									(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
									 errmsg("could not obtain lock on row in relation \"%s\"",
											RelationGetRelationName(rel))));
						break;
				}
				continue;
			}
			if (TransactionIdIsCurrentTransactionId(prior_xmax) &&
				HeapTupleHeaderGetCmin(tuple.t_data) >= cid)
			{
				tmfd->xmax = prior_xmax;
				tmfd->cmax = HeapTupleHeaderGetCmin(tuple.t_data);
				ReleaseBuffer(buffer);
				return TM_SelfModified;
			}
			ReleaseBuffer(buffer);
			return TM_Ok;
		}
		if (tuple.t_data == NULL)
			return TM_Deleted;
		if (!TransactionIdEquals(HeapTupleHeaderGetXmin(tuple.t_data), prior_xmax) ||
			ItemPointerEquals(&tuple.t_self, &tuple.t_data->t_ctid))
		{
			ReleaseBuffer(buffer);
			return TM_Deleted;
		}
		if (HeapTupleHeaderIndicatesMovedPartitions(tuple.t_data) &&
			MovedRowFind(rel, HeapTupleHeaderGetUpdateXid(tuple.t_data),
						 &tuple.t_self, next))
		{
			ReleaseBuffer(buffer);
			*in_group = true;
			return TM_Ok;
		}
		*next = tuple.t_data->t_ctid;
		prior_xmax = HeapTupleHeaderGetUpdateXid(tuple.t_data);
		ReleaseBuffer(buffer);
	}
}

/*
 * colstore_tuple_lock
 *		Lock the row *tid names, as heapam_tuple_lock does (see tableam.h):
 *		with TUPLE_LOCK_FLAG_FIND_LAST_VERSION, the latest version of an
 *		updated row is locked instead and *tid set to it.  On TM_Ok and
 *		TM_Invisible the row is stored in slot.
 */
TM_Result
colstore_tuple_lock(Relation rel, ItemPointer tid, Snapshot snapshot,
					TupleTableSlot *slot, CommandId cid, LockTupleMode mode,
					LockWaitPolicy wait_policy, uint8 flags,
					TM_FailureData *tmfd)
{
	bool		follow_updates = (flags & TUPLE_LOCK_FLAG_LOCK_UPDATE_IN_PROGRESS) != 0;
	RowState	state;
	HeapTupleData tuple;
	Buffer		buffer;
	TM_Result	result;
	ItemPointerData locked = *tid;	/* tid may point into slot */
	bool		in_group;

	tmfd->traversed = false;
	for (;;)
	{
		ItemPointerData next;

		if (!LocateForChange(rel, &locked, cid, &state, false))
		{
			/* the executor reads the row's xmin to say why */
			(void) RowFetch(rel, state.rownum, SnapshotAny, slot);
			return TM_Invisible;
		}
		tuple.t_self = state.phys;
		result = heap_lock_tuple(rel, &tuple, cid, mode, wait_policy,
								 follow_updates, &buffer, tmfd);
		if (result != TM_Updated || !(flags & TUPLE_LOCK_FLAG_FIND_LAST_VERSION))
			break;
		ReleaseBuffer(buffer);
		if (ItemPointerEquals(&tmfd->ctid, &tuple.t_self))
			return TM_Deleted;

		/* updated: lock the latest version instead */
		tmfd->traversed = true;
		if (ItemPointerIndicatesMovedPartitions(&tmfd->ctid) &&
			FollowMove(rel, &state, &locked, tmfd->xmax, &locked))
			continue;			/* compaction moved it into a row group */
		next = tmfd->ctid;
		result = FindLastVersion(rel, &next, tmfd->xmax, cid, wait_policy, tmfd,
								 &in_group);
		if (result != TM_Ok)
			return result;
		if (in_group)
			locked = next;
		else
			DeltaHeapToLogical(rel, &next, &locked);
	}

	/* TM_Invisible too: the executor reads the row's xmin to say why */
	if (result == TM_Ok || result == TM_Invisible)
		StoreLockedRow(rel, &state, &tuple, &locked, slot);
	else
		ExecClearTuple(slot);
	ReleaseBuffer(buffer);
	TranslateFailure(rel, &state, &locked, result, tmfd);
	*tid = locked;
	return result;
}

/*
 * colstore_tuple_get_latest_tid
 *		Replace *tid by the TID of the latest version of its row that the
 *		scan's snapshot sees, following heap's update chain, and from a heap
 *		tuple that compaction moved into its row group.
 */
void
colstore_tuple_get_latest_tid(TableScanDesc scan, ItemPointer tid)
{
	Relation	rel = scan->rs_rd;
	RowState	state;
	ItemPointerData phys;

	WriteBufferFlush(rel);
	RowStateLocate(rel, tid, &state);
	/* a row compaction moved through its delete log, with no copy */
	if (state.kind == ROWSTATE_GROUP && TransactionIdIsValid(state.run.xid) &&
		state.run.moved)
	{
		(void) MovedRowLatestVisible(rel, NULL, tid, state.run.xid,
									 scan->rs_snapshot, tid);
		return;
	}
	if (state.kind != ROWSTATE_PROMOTED && state.kind != ROWSTATE_DELTA)
		return;
	phys = state.phys;
	heap_get_latest_tid(scan, &phys);
	/* ... or with a copy, made after the move: the copy is no source */
	if (MovedRowLatestVisible(rel, &phys,
							  state.kind == ROWSTATE_PROMOTED &&
							  ItemPointerEquals(&phys, &state.phys) ? tid : NULL,
							  InvalidTransactionId, scan->rs_snapshot, tid))
		return;
	if (!ItemPointerEquals(&phys, &state.phys))
		DeltaHeapToLogical(rel, &phys, tid);
}
