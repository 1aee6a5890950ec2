/*-------------------------------------------------------------------------
 *
 * am_index.c
 *	  Index support of colstore tables: fetching rows by TID for index
 *	  scans, and scanning the table to build and validate indexes.
 *
 * Fetches go through RowFetchIndexed (mvcc/row_fetch.c), which leaves a row
 * group's row for the slot to decode (one chunk per column the executor
 * reads, through the backend's chunk cache; ColstoreIndexFetch), or follows a
 * heap page's HOT chain from the entry's item to the version the snapshot
 * sees (a HOT update makes no index entries; mvcc/hot_chain.c).  call_again
 * asks for the chain's next member under non-MVCC snapshots, and all_dead
 * is set only for rows whose inserter aborted or that a finished
 * transaction reserved and never wrote (rolled back in a subtransaction),
 * and for chains whose every member is dead to everyone, which lets btree
 * mark such entries dead.
 *
 * Index builds see every row group except those of aborted inserters, and
 * every row version that is not dead to everyone, telling the index which
 * are alive as heap's build does (so a unique index is not violated by a
 * row's older versions), a heap page's version under its HOT chain's start,
 * and the member of a HOT chain rooted at a row's promoted copy under the
 * row's TID, in the row's place (ColstoreScanSetIndexBuild: rows come in
 * TID order, which BRIN's build and the validation below rely on);
 * concurrent builds use the snapshot they are given.  CREATE INDEX CONCURRENTLY's validation
 * merges the table's rows, which a scan returns in TID order, with the
 * sorted TIDs already in the index, as heapam_index_validate_scan does.
 *
 * IDENTIFICATION
 *	  src/tableam/am_index.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/genam.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "executor/executor.h"
#include "pgstat.h"
#include "storage/predicate.h"
#include "storage/procarray.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/tuplesort.h"

#include "mvcc/row_fetch.h"
#include "storage/rowgroup_format.h"
#include "storage/write_buffer.h"
#include "tableam/am_index.h"
#include "tableam/am_slot.h"
#include "tableam/scan_engine.h"

/*
 * An index fetch of a colstore table.  A row group's row it finds for a
 * colstore slot is stored lazily (tableam/am_slot.c): the executor asks for
 * the columns it reads (a plain index scan's quals and target list, nothing
 * at all for the planner's probe of a column's extreme values or a unique
 * check), and only those are decoded.  The slot's row is valid until the
 * next fetch of this scan, as a heap slot's buffer tuple is for heapam's:
 * generation tells a row stored before from the current one.
 */
typedef struct ColstoreIndexFetch
{
	IndexFetchTableData base;
	RowFetchDeferral defer;		/* where the current row's values are */
	uint32		generation;		/* counts the rows stored lazily */
	MemoryContext values_cxt;	/* the current row's by-reference values */
} ColstoreIndexFetch;

static void StoreDeferredRow(RowFetchDeferral *defer, TupleTableSlot *slot);
static void FillDeferredRow(void *arg, int pos, uint32 generation,
							TupleTableSlot *slot, int from, int to);

IndexFetchTableData *
colstore_index_fetch_begin(Relation rel)
{
	ColstoreIndexFetch *fetch = palloc0(sizeof(ColstoreIndexFetch));

	fetch->base.rel = rel;
	fetch->defer.store = StoreDeferredRow;
	fetch->values_cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "colstore index fetch values",
											  ALLOCSET_SMALL_SIZES);
	return &fetch->base;
}

void
colstore_index_fetch_reset(IndexFetchTableData *scan)
{
}

void
colstore_index_fetch_end(IndexFetchTableData *scan)
{
	ColstoreIndexFetch *fetch = (ColstoreIndexFetch *) scan;

	MemoryContextDelete(fetch->values_cxt);
	pfree(fetch);
}

/* RowFetchDeferral's store: the row's values come from FillDeferredRow. */
static void
StoreDeferredRow(RowFetchDeferral *defer, TupleTableSlot *slot)
{
	ColstoreIndexFetch *fetch = (ColstoreIndexFetch *)
		((char *) defer - offsetof(ColstoreIndexFetch, defer));

	fetch->generation++;
	MemoryContextReset(fetch->values_cxt);
	ColstoreSlotStoreLazy(slot, FillDeferredRow, fetch, 0, fetch->generation);
}

/*
 * ColstoreSlotFill of a lazily stored index fetch row: decode attributes
 * [from, to) in the fetch's memory (chunk readers build by-reference values
 * in CurrentMemoryContext, so they stay valid until the next fetch of this
 * scan whatever the chunk cache drops meanwhile; a missing attribute's
 * value is the relation descriptor's).  A row stored before the scan's
 * latest fetch is a caller bug, reported rather than answered.
 */
static void
FillDeferredRow(void *arg, int pos, uint32 generation, TupleTableSlot *slot,
				int from, int to)
{
	ColstoreIndexFetch *fetch = (ColstoreIndexFetch *) arg;
	MemoryContext oldcxt;

	if (generation != fetch->generation)
		elog(ERROR, "colstore index fetch of \"%s\" was asked for a row it no longer holds",
			 RelationGetRelationName(fetch->base.rel));
	oldcxt = MemoryContextSwitchTo(fetch->values_cxt);
	RowGroupRowDecode(fetch->base.rel, &fetch->defer, slot->tts_tupleDescriptor,
					  slot->tts_values, slot->tts_isnull, from, to);
	MemoryContextSwitchTo(oldcxt);
}

/*
 * colstore_index_fetch_tuple
 *		Fetch the row an index entry's TID names, as heapam_index_fetch_tuple
 *		does: on a heap page the TID starts a HOT chain, and the member the
 *		snapshot sees is returned, *tid and slot->tts_tid set to its own TID.
 *		*call_again asks for the chain's next member (non-MVCC snapshots);
 *		*all_dead says no member can be seen by anyone.  A row group's row
 *		is stored lazily in a colstore slot (ColstoreIndexFetch).
 */
bool
colstore_index_fetch_tuple(IndexFetchTableData *scan, ItemPointer tid,
						   Snapshot snapshot, TupleTableSlot *slot,
						   bool *call_again, bool *all_dead)
{
	ColstoreIndexFetch *fetch = (ColstoreIndexFetch *) scan;
	uint64		rownum;
	RowFetchState state;
	bool		first_call = !*call_again;

	*call_again = false;
	if (all_dead)
		*all_dead = false;
	if (!ItemPointerToRowNumber(tid, &rownum))
		return false;
	state = RowFetchIndexed(scan->rel, rownum, snapshot, slot, NULL, first_call,
							&fetch->defer);
	if (state == ROW_DEAD && all_dead && first_call)
		*all_dead = true;
	if (state != ROW_VISIBLE)
		return false;
	*tid = slot->tts_tid;
	*call_again = !IsMVCCSnapshot(snapshot);
	if (IsMVCCSnapshot(snapshot))
		PredicateLockRelation(scan->rel, snapshot);
	pgstat_count_heap_fetch(scan->rel);
	return true;
}

bool
colstore_tuple_fetch_row_version(Relation rel, ItemPointer tid,
								 Snapshot snapshot, TupleTableSlot *slot)
{
	uint64		rownum;

	if (!ItemPointerToRowNumber(tid, &rownum))
		return false;
	if (RowFetch(rel, rownum, snapshot, slot) != ROW_VISIBLE)
		return false;

	/*
	 * SERIALIZABLE (TID scans): heap locks the tuple it fetched; colstore, as
	 * for its other reads, the whole relation, which also covers the row
	 * after compaction moved it to another TID.
	 */
	if (IsMVCCSnapshot(snapshot))
		PredicateLockRelation(rel, snapshot);
	return true;
}

bool
colstore_tuple_satisfies_snapshot(Relation rel, TupleTableSlot *slot,
								  Snapshot snapshot)
{
	TupleTableSlot *probe;
	uint64		rownum;
	bool		result;

	if (!ItemPointerToRowNumber(&slot->tts_tid, &rownum))
		return false;
	probe = MakeSingleTupleTableSlot(slot->tts_tupleDescriptor, &TTSOpsVirtual);
	result = RowFetch(rel, rownum, snapshot, probe) == ROW_VISIBLE;
	ExecDropSingleTupleTableSlot(probe);
	return result;
}

/*
 * colstore_index_delete_tuples
 *		Index AMs ask which of some TIDs are dead before removing their
 *		entries.  Entries already known dead (those an index scan marked
 *		after we reported all_dead) keep their status; nothing else is
 *		declared dead, which is always safe: a bottom-up deletion (which
 *		offers entries not known dead) gets none back, as tableam.h asks, by
 *		ndeltids = 0.
 *
 * Returns the snapshot conflict horizon of the removal, which the index AM
 * logs so that a standby cancels (or waits for) its queries that may still
 * need the entries.  Heap returns the newest xmax of the removed tuples;
 * colstore does not read the rows again and returns an upper bound of it
 * instead: all_dead was reported only for rows whose deleter (or aborted
 * inserter) was then older than every snapshot, so every such xid precedes
 * the oldest xid still needed now.  The bound can cancel more standby
 * queries than heap's exact value, never fewer.
 */
TransactionId
colstore_index_delete_tuples(Relation rel, TM_IndexDeleteOp *delstate)
{
	TransactionId horizon;
	bool		any_deletable = false;

	if (delstate->bottomup)
	{
		delstate->ndeltids = 0;
		return InvalidTransactionId;
	}
	for (int i = 0; i < delstate->ndeltids && !any_deletable; i++)
		any_deletable = delstate->status[delstate->deltids[i].id].knowndeletable;
	if (!any_deletable)
		return InvalidTransactionId;

	horizon = GetOldestNonRemovableTransactionId(rel);
	/* nothing normal is removable yet: nothing a standby could need */
	if (!TransactionIdIsNormal(horizon) ||
		!TransactionIdPrecedes(FirstNormalTransactionId, horizon))
		return InvalidTransactionId;
	TransactionIdRetreat(horizon);
	return horizon;
}

/*
 * colstore_index_build_range_scan
 *		Feed every row that should be indexed to callback, as
 *		heapam_index_build_range_scan does.  Rows are those of row groups
 *		whose inserter has not aborted (or, with a concurrent build, that the
 *		build's snapshot sees), limited to the pseudo-blocks
 *		[start_blockno, start_blockno + numblocks).  Returns the row count.
 */
double
colstore_index_build_range_scan(Relation table_rel, Relation index_rel,
								IndexInfo *index_info, bool allow_sync,
								bool anyvisible, bool progress,
								BlockNumber start_blockno,
								BlockNumber numblocks,
								IndexBuildCallback callback,
								void *callback_state, TableScanDesc scan)
{
	EState	   *estate;
	ExprContext *econtext;
	TupleTableSlot *slot;
	ExprState  *predicate;
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];
	Snapshot	snapshot = NULL;
	bool		need_unregister = false;
	double		reltuples = 0;

	WriteBufferFlush(table_rel);
	estate = CreateExecutorState();
	econtext = GetPerTupleExprContext(estate);
	slot = table_slot_create(table_rel, NULL);
	econtext->ecxt_scantuple = slot;
	predicate = ExecPrepareQual(index_info->ii_Predicate, estate);

	if (scan == NULL)
	{
		if (IsBootstrapProcessingMode() || index_info->ii_Concurrent)
		{
			snapshot = RegisterSnapshot(GetTransactionSnapshot());
			need_unregister = true;
		}
		else
			snapshot = SnapshotAny;
		scan = table_beginscan_strat(table_rel, snapshot, 0, NULL, true, allow_sync);
	}
	ColstoreScanSetIndexBuild(scan);
	if (start_blockno != 0 || numblocks != InvalidBlockNumber)
	{
		uint64		start = (uint64) start_blockno * ROWS_PER_TID_BLOCK;
		uint64		end = numblocks == InvalidBlockNumber ? PG_UINT64_MAX :
			((uint64) start_blockno + numblocks) * ROWS_PER_TID_BLOCK;

		ColstoreScanSetRowRange(scan, start, end);
	}

	while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		ItemPointerData tid = slot->tts_tid;
		bool		alive = ColstoreScanRowIsAlive(scan);
		bool		hot_updated;

		CHECK_FOR_INTERRUPTS();

		/*
		 * A heap page's version is indexed under its HOT chain's start.  A
		 * HOT-updated one that some snapshots still see is not indexed (the
		 * chain's live end is, under the same TID): those snapshots must not
		 * use the index, as heap's build decides (indcheckxmin).
		 */
		ColstoreScanRowIndexTid(scan, &tid, &hot_updated);
		if (hot_updated && !alive)
		{
			index_info->ii_BrokenHotChain = true;
			continue;
		}
		MemoryContextReset(econtext->ecxt_per_tuple_memory);
		if (predicate != NULL && !ExecQual(predicate, econtext))
			continue;
		FormIndexDatum(index_info, slot, estate, values, isnull);
		callback(index_rel, &tid, values, isnull, alive, callback_state);
		reltuples += 1;
	}

	/* a row's version left out for a HOT chain rooted at its copy */
	if (ColstoreScanBrokenHotChain(scan))
		index_info->ii_BrokenHotChain = true;
	table_endscan(scan);
	if (need_unregister)
		UnregisterSnapshot(snapshot);
	ExecDropSingleTupleTableSlot(slot);
	FreeExecutorState(estate);
	index_info->ii_ExpressionsState = NIL;
	index_info->ii_PredicateState = NULL;
	return reltuples;
}

/*
 * colstore_index_validate_scan
 *		Second phase of CREATE INDEX CONCURRENTLY: insert into the index
 *		every row snapshot sees whose TID is not among state->tuplesort's.
 *		A heap page's version is looked up and inserted under its HOT
 *		chain's start, as heapam_index_validate_scan does with root TIDs;
 *		those are not in ascending order within a pseudo-block, so the
 *		index TIDs passed over in the current one are remembered.
 */
void
colstore_index_validate_scan(Relation table_rel, Relation index_rel,
							 IndexInfo *index_info, Snapshot snapshot,
							 ValidateIndexState *state)
{
	EState	   *estate;
	ExprContext *econtext;
	TupleTableSlot *slot;
	ExprState  *predicate;
	TableScanDesc scan;
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];
	ItemPointerData indexed;
	bool		have_indexed = false;
	bool		sort_done = false;
	BlockNumber cur_block = InvalidBlockNumber;
	bool		in_index[ROWS_PER_TID_BLOCK];

	estate = CreateExecutorState();
	econtext = GetPerTupleExprContext(estate);
	slot = table_slot_create(table_rel, NULL);
	econtext->ecxt_scantuple = slot;
	predicate = ExecPrepareQual(index_info->ii_Predicate, estate);
	scan = table_beginscan_strat(table_rel, snapshot, 0, NULL, true, false);
	ColstoreScanSetIndexBuild(scan);
	ItemPointerSetInvalid(&indexed);

	while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		ItemPointerData tid = slot->tts_tid;
		bool		hot_updated;

		CHECK_FOR_INTERRUPTS();
		state->htups += 1;
		ColstoreScanRowIndexTid(scan, &tid, &hot_updated);
		if (ItemPointerGetBlockNumber(&tid) != cur_block)
		{
			cur_block = ItemPointerGetBlockNumber(&tid);
			memset(in_index, 0, sizeof(in_index));
		}

		/* advance the sorted index TIDs up to this row's */
		while (!sort_done &&
			   (!have_indexed || ItemPointerCompare(&indexed, &tid) < 0))
		{
			Datum		ts_val;
			bool		ts_isnull;

			if (have_indexed && ItemPointerGetBlockNumber(&indexed) == cur_block)
				in_index[ItemPointerGetOffsetNumber(&indexed) - 1] = true;
			if (TuplesortGetDatum(state->tuplesort, true, &ts_val, &ts_isnull, NULL))
			{
				Assert(!ts_isnull);
				itemptr_decode(&indexed, DatumGetInt64(ts_val));
				have_indexed = true;
			}
			else
				sort_done = true;
		}
		if ((have_indexed && !sort_done && ItemPointerEquals(&indexed, &tid)) ||
			in_index[ItemPointerGetOffsetNumber(&tid) - 1])
			continue;

		MemoryContextReset(econtext->ecxt_per_tuple_memory);
		if (predicate != NULL && !ExecQual(predicate, econtext))
			continue;
		FormIndexDatum(index_info, slot, estate, values, isnull);
		index_insert(index_rel, values, isnull, &tid, table_rel,
					 index_info->ii_Unique ? UNIQUE_CHECK_YES : UNIQUE_CHECK_NO,
					 false, index_info);
		state->tups_inserted += 1;
	}

	table_endscan(scan);
	ExecDropSingleTupleTableSlot(slot);
	FreeExecutorState(estate);
	index_info->ii_ExpressionsState = NIL;
	index_info->ii_PredicateState = NULL;
}
