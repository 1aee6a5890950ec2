/*-------------------------------------------------------------------------
 *
 * compaction.c
 *	  Moving the heap tuples of a colstore table's delta pages into row
 *	  groups.
 *
 * UPDATE writes new row versions, and small INSERTs their rows, as heap
 * tuples on delta pages (storage/delta_heap.c, storage/delta_insert.c).
 * Compaction moves the ones every snapshot sees and nobody deletes or locks
 * into row groups, in the caller's transaction C, as an UPDATE that changes
 * no value would:
 *
 * 1. Each candidate is deleted as C, as heap_delete without waiting would
 *    (tuples somebody else locks or changes are skipped), with the "moved
 *    to another partition" marker as its t_ctid (so heapam never follows
 *    it), but logged so that logical decoding does not take it for a
 *    DELETE (storage/undecoded_delete.c); its values, copied just before, are
 *    buffered column by column (TOASTed values expanded).  The row group
 *    is not logged for decoding either: nothing changed.
 * 2. Per batch of up to row_group_size rows, row numbers are reserved and
 *    each row gets index entries for its new TID in every index.
 * 3. The batch is written as one row group with rg_xmin = C, listing the
 *    heap position each row came from (RG_FLAG_MOVED_ROWS).
 *
 * MVCC gives every snapshot each row once: snapshots that do not see C
 * read the heap tuple, the others the row group; if C aborts, nothing
 * moved.  A writer that reaches a moved tuple waits for C like for any
 * updater; if C committed, it gets TM_Updated and follows the row to its
 * new TID (storage/moved_rows.c, tableam/am_dml.c), so READ COMMITTED
 * applies its change to the row in its row group (no lost update) and
 * REPEATABLE READ raises a serialization failure, as for heap.  The moved
 * tuples are dead once C is older than every snapshot; VACUUM then removes
 * them and their index entries and gives their space to later heap
 * tuples.
 *
 * Which heap tuples move: every version every snapshot sees (inserted
 * before OldestXmin).  For the compaction worker, a version UPDATE wrote
 * (HEAP_UPDATED) moves only once its inserter is update_age transactions
 * older than that, since a row updated lately is likely to be updated again
 * (OLTP), and moving it makes that UPDATE promote it again and, racing the
 * compaction, follow it through EvalPlanQual.  The worker's exception, the
 * versions of a transaction that wrote in bulk (tableam/compaction_bulk.c),
 * are not moved with the rest: ColstoreCompact lists them, counting each
 * live version's inserter while it scans the heap pages, and
 * ColstoreCompactBulk moves them later, a row group's worth per
 * transaction, while no writer holds the table (the gate, whose check a
 * batch repeats as it goes and just before it commits: once the gate
 * closes, the batch leaves the table as it was, to be rolled back).  A
 * batch runs in a later transaction than the scan, so it takes only the
 * listed positions that still hold the same live version, visible to
 * every snapshot, on a heap page of the same storage.
 *
 * The live rows of the row groups compaction_choice.c chooses (partly
 * deleted ones whose rewrite pays, and small ones merged) move into
 * full-sized row groups too (FindGroupRows).  A row with no heap copy, in
 * a group of at least a thousand rows, moves through the group's delete
 * log (mvcc/row_state.c, RowStateMoveByRun): C records the move as a run
 * flagged moved, which readers judge as a delete by C (so MVCC gives each
 * snapshot the row once, as for a moved heap tuple), and the new group
 * lists the row's own TID; a writer that reaches the row promotes it, its
 * copy gets the run's delete with the moved marker, and it follows the row
 * as for a moved heap tuple (storage/moved_rows.c).  No copy is made: the
 * run costs a bit a row.  Any other row (a small group's, or one a writer
 * promoted or is deleting) is promoted if it has no copy yet, and the
 * copies are moved like heap tuples.  Once VACUUM has turned the moves
 * into deleted-rows bits and pruned the moved copies, the old group has no
 * row left and VACUUM retires and frees it (mvcc/group_retire.c,
 * storage/group_reclaim.c).  colstore.compact() does
 * all of it at once; the compaction worker (min_rows above one) takes a
 * bounded share per round, and none while an earlier round's old groups
 * wait to be freed (CompactionRetiredPending; the worker frees them right
 * after the round, tableam/compaction_worker.c).
 *
 * IDENTIFICATION
 *	  src/tableam/compaction.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/xact.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "storage/all_visible.h"
#include "storage/bufmgr.h"
#include "storage/procarray.h"
#include "utils/rel.h"

#include "mvcc/row_state.h"
#include "mvcc/visibility.h"
#include "storage/colstore_wal.h"
#include "storage/compaction_progress.h"
#include "storage/delta_heap.h"
#include "storage/delete_log.h"
#include "storage/directory.h"
#include "storage/moved_rows.h"
#include "storage/promotion_map.h"
#include "storage/rowgroup_builder.h"
#include "storage/rowgroup_writer.h"
#include "storage/table_options.h"
#include "tableam/compaction.h"
#include "tableam/compaction_bulk.h"
#include "tableam/compaction_choice.h"

/* One batch of moved rows: their values, and where each came from. */
typedef struct CompactBatch
{
	Relation	rel;
	ColstoreOptions opts;
	CommandId	cid;
	TransactionId oldest_xmin;
	TransactionId update_cutoff;	/* UPDATE's versions: inserted before */
	RowGroupBuilder *builder;
	ItemPointerData *sources;	/* [row_group_size], ascending */
	int			nrows;
	TupleTableSlot *heap_slot;	/* a locked tuple's copy */
	TupleTableSlot *row_slot;	/* a buffered row, for index entries */
	TupleTableSlot *group_slot; /* a row moved through its delete log */
	EState	   *estate;
	ResultRelInfo *result_rel;	/* the table with its indexes open */
	uint64		moved;
	bool		moving_groups;	/* rows of row groups, not heap tuples */
} CompactBatch;

/*
 * How often a batch of bulk versions checks the gate while it takes them:
 * a writer that locks the table meanwhile waits at most this many takes
 * (and the batch's own writes once they started) before the batch aborts.
 */
#define BULK_GATE_CHECK_ROWS	1024

/* Heap blocks of the table's delta pages, ascending (so sources are). */
static BlockNumber *
DeltaBlocks(Relation rel, int *nblocks)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	BlockNumber *blocks = palloc(sizeof(BlockNumber) * Max(dir->ndeltas, 1));
	int			i;

	for (i = 0; i < dir->ndeltas; i++)
		blocks[i] = dir->entries[dir->deltas_by_block[i]].rg_header.sp_block;
	*nblocks = dir->ndeltas;
	return blocks;
}

/* What a heap item is to compaction (ClassifyVersion). */
typedef enum VersionClass
{
	VERSION_OTHER,				/* no live ordinary version: never moves */
	VERSION_YOUNG,				/* live, not yet seen by every snapshot */
	VERSION_MOVABLE,			/* moves now */
	VERSION_RECENT_UPDATE		/* UPDATE's, younger than update_cutoff: the
								 * worker moves it now if its inserter wrote
								 * in bulk */
} VersionClass;

/*
 * Classify the item: an ordinary version (not a promoted copy) that nobody
 * has deleted is live; it moves once its insert is before oldest_xmin (a
 * version UPDATE wrote, before update_cutoff, or see VERSION_RECENT_UPDATE).
 * *xmin is set to a live version's inserter (InvalidTransactionId if
 * frozen).  Tuples locked by running transactions pass here; TakeTuple's
 * delete, which does not wait, skips them.  Caller holds a share lock on
 * buf.
 */
static VersionClass
ClassifyVersion(Relation rel, Buffer buf, BlockNumber blkno, OffsetNumber off,
				TransactionId oldest_xmin, TransactionId update_cutoff,
				TransactionId *xmin)
{
	Page		page = BufferGetPage(buf);
	ItemId		lp;
	HeapTupleData tuple;

	*xmin = InvalidTransactionId;
	if (off < FirstOffsetNumber || off > PageGetMaxOffsetNumber(page))
		return VERSION_OTHER;
	lp = PageGetItemId(page, off);
	if (!ItemIdIsNormal(lp))
		return VERSION_OTHER;
	tuple.t_data = (HeapTupleHeader) PageGetItem(page, lp);
	tuple.t_len = ItemIdGetLength(lp);
	tuple.t_tableOid = RelationGetRelid(rel);
	ItemPointerSet(&tuple.t_self, blkno, off);
	if (tuple.t_data->t_infomask2 & HEAP_COLSTORE_PROMOTED)
		return VERSION_OTHER;
	if (HeapTupleSatisfiesVacuum(&tuple, oldest_xmin, buf) != HEAPTUPLE_LIVE)
		return VERSION_OTHER;
	if (HeapTupleHeaderXminFrozen(tuple.t_data))
		return VERSION_MOVABLE;
	*xmin = HeapTupleHeaderGetXmin(tuple.t_data);
	if (!TransactionIdPrecedes(*xmin, oldest_xmin))
		return VERSION_YOUNG;
	if ((tuple.t_data->t_infomask & HEAP_UPDATED) &&
		!TransactionIdPrecedes(*xmin, update_cutoff))
		return VERSION_RECENT_UPDATE;
	return VERSION_MOVABLE;
}

static void FlushBatch(CompactBatch *batch);

/*
 * Buffer the row in slot, moved from source, in batch.  A row group lists
 * its sources in ascending order of their keys (HeapPositionKey;
 * storage/moved_rows.c searches them): a source not above the last one
 * buffered starts a new group.  Heap tuples and copies come in position
 * order, then a rewrite's rows moved through their delete logs (listed by
 * their TIDs, MovedRowSourceOfRow, whose keys sort after every position).
 */
static void
BatchAdd(CompactBatch *batch, TupleTableSlot *slot, ItemPointer source)
{
	if (batch->nrows > 0 &&
		HeapPositionKey(source) <= HeapPositionKey(&batch->sources[batch->nrows - 1]))
		FlushBatch(batch);
	RowGroupBuilderAdd(batch->builder, slot);
	batch->sources[batch->nrows++] = *source;
}

/*
 * Delete the tuple at phys as moved and buffer its values; false, changing
 * nothing, if somebody else locks or changes it (DeleteUndecoded: as
 * heap_delete without waiting).  The values are copied before the delete: a delete that
 * succeeds proves nobody updated the tuple in between.  TOASTed values are
 * expanded afterwards, which works because TOAST fetches ignore deleters.
 * With expect_xmin valid (a position listed by an earlier transaction), the
 * item must still be a live ordinary version inserted by expect_xmin that
 * every snapshot sees, else it is left alone: VACUUM may have pruned the
 * listed version since, and its slot may hold another.
 */
static bool
TakeTuple(CompactBatch *batch, ItemPointer phys, TransactionId expect_xmin)
{
	Relation	rel = batch->rel;
	BlockNumber blkno = ItemPointerGetBlockNumber(phys);
	OffsetNumber off = ItemPointerGetOffsetNumber(phys);
	HeapTupleData tuple;
	HeapTuple	copy = NULL;
	Buffer		buf;

	buf = ReadBuffer(rel, blkno);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	if (TransactionIdIsValid(expect_xmin))
	{
		TransactionId xmin;
		VersionClass vclass;

		HeapPageCheck(rel, buf);
		vclass = ClassifyVersion(rel, buf, blkno, off, batch->oldest_xmin,
								 batch->update_cutoff, &xmin);
		if ((vclass != VERSION_MOVABLE && vclass != VERSION_RECENT_UPDATE) ||
			!TransactionIdEquals(xmin, expect_xmin))
		{
			UnlockReleaseBuffer(buf);
			return false;
		}
	}
	if (HeapVersionRead(rel, buf, off, &tuple))
		copy = heap_copytuple(&tuple);
	UnlockReleaseBuffer(buf);
	if (copy == NULL)
		return false;
	HeapTupleCheckShape(rel, copy, batch->heap_slot->tts_tupleDescriptor);
	if (!DeleteUndecoded(rel, phys, batch->cid, true))
	{
		heap_freetuple(copy);
		return false;
	}
	ExecStoreHeapTuple(copy, batch->heap_slot, true);
	BatchAdd(batch, batch->heap_slot, phys);
	ExecClearTuple(batch->heap_slot);
	return true;
}

/*
 * Finish moving the batch (its tuples are deleted): give each row index
 * entries at its new TID, and write the row group.
 */
static void
FlushBatch(CompactBatch *batch)
{
	Relation	rel = batch->rel;
	TransactionId xid = GetCurrentTransactionId();
	uint64		first;
	int			i;

	if (batch->nrows == 0)
		return;
	first = RowNumbersReserve(rel, batch->nrows, xid);
	for (i = 0; i < batch->nrows && batch->result_rel->ri_NumIndices > 0; i++)
	{
		TupleTableSlot *slot = batch->row_slot;

		RowGroupBuilderGetRow(batch->builder, i, slot);
		RowNumberToItemPointer(first + i, &slot->tts_tid);
		slot->tts_tableOid = RelationGetRelid(rel);
		ResetPerTupleExprContext(batch->estate);
		list_free(ExecInsertIndexTuplesCompat(batch->result_rel, slot, batch->estate,
											  false, false, NULL, NIL));
		ExecClearTuple(slot);
	}
	RowGroupBuilderWrite(batch->builder, rel, first, xid, batch->cid, 0,
						 &batch->opts, batch->sources, ROWGROUP_DECODE_NONE);
	CompactionProgressAdd(batch->moving_groups ? COMPACTION_GROUP_ROWS_MOVED :
						  COMPACTION_HEAP_TUPLES_MOVED, batch->nrows);
	CompactionProgressAdd(COMPACTION_GROUPS_WRITTEN, 1);
	batch->moved += batch->nrows;
	batch->nrows = 0;
}

/* Positions of movable tuples, ascending. */
typedef struct MovableList
{
	ItemPointerData *items;
	Size		n;
	Size		capacity;
} MovableList;

/* Append a position to *list. */
static void
MovableAdd(MovableList *list, BlockNumber blkno, OffsetNumber off)
{
	if (list->n == list->capacity)
	{
		list->capacity *= 2;
		list->items = repalloc_huge(list->items,
									sizeof(ItemPointerData) * list->capacity);
	}
	/* ItemPointerSet evaluates its pointer argument more than once */
	ItemPointerSet(&list->items[list->n], blkno, off);
	list->n++;
}

/* Append a recent UPDATE version and its inserter to *bulk's lists. */
static void
BulkAdd(CompactBulk *bulk, BlockNumber blkno, OffsetNumber off,
		TransactionId xmin)
{
	if (bulk->n == bulk->capacity)
	{
		bulk->capacity *= 2;
		bulk->items = repalloc_huge(bulk->items,
									sizeof(ItemPointerData) * bulk->capacity);
		bulk->xmins = repalloc_huge(bulk->xmins,
									sizeof(TransactionId) * bulk->capacity);
	}
	ItemPointerSet(&bulk->items[bulk->n], blkno, off);
	bulk->xmins[bulk->n] = xmin;
	bulk->n++;
}

/*
 * Append the positions of the movable tuples of heap page blkno to *list;
 * with bulk (the worker), also its recent UPDATE versions to bulk's lists,
 * and the inserters of its live versions to *counter.
 */
static void
FindMovable(CompactBatch *batch, BlockNumber blkno, MovableList *list,
			CompactBulk *bulk, BulkCounter *counter)
{
	Relation	rel = batch->rel;
	Buffer		buf;
	OffsetNumber maxoff;
	OffsetNumber off;

	buf = ReadBuffer(rel, blkno);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	maxoff = PageGetMaxOffsetNumber(BufferGetPage(buf));
	for (off = FirstOffsetNumber; off <= maxoff; off++)
	{
		TransactionId xmin;
		VersionClass vclass = ClassifyVersion(rel, buf, blkno, off,
											  batch->oldest_xmin,
											  batch->update_cutoff, &xmin);

		if (vclass == VERSION_OTHER)
			continue;
		if (bulk != NULL && TransactionIdIsValid(xmin))
			BulkCounterAdd(counter, xmin);
		if (vclass == VERSION_MOVABLE)
			MovableAdd(list, blkno, off);
		else if (vclass == VERSION_RECENT_UPDATE && bulk != NULL)
			BulkAdd(bulk, blkno, off, xmin);
	}
	UnlockReleaseBuffer(buf);
}

/*
 * Once every heap page is scanned: keep, of the recent UPDATE versions in
 * bulk's lists, those whose inserter wrote in bulk (all of them if the
 * table is quiet; order kept), count the others in bulk->held_back, and
 * note the newest bulk inserter some snapshot does not see yet.
 */
static void
BulkFilter(CompactBulk *bulk, BulkCounter *counter, TransactionId oldest_xmin)
{
	Size		kept = 0;
	Size		i;

	BulkCounterFinish(counter);
	for (i = 0; i < bulk->n; i++)
	{
		if (!bulk->quiet && !BulkCounterIsBulk(counter, bulk->xmins[i]))
		{
			bulk->held_back++;
			continue;
		}
		bulk->items[kept] = bulk->items[i];
		bulk->xmins[kept] = bulk->xmins[i];
		kept++;
	}
	bulk->n = kept;
	bulk->next = 0;
	bulk->waiting_for = BulkCounterNewestYoung(counter, oldest_xmin);
}

/* Move the tuples at list's positions (ascending), in full row groups. */
static void
MoveTuples(CompactBatch *batch, const MovableList *list)
{
	Size		i;

	for (i = 0; i < list->n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		TakeTuple(batch, &list->items[i], InvalidTransactionId);
		if (batch->nrows >= batch->opts.row_group_size)
			FlushBatch(batch);
	}
	FlushBatch(batch);
}

/* Rows of row groups to move through their delete logs, in group order. */
typedef struct RunRows
{
	int		   *dir_index;
	uint32	   *row;			/* 0-based in the group */
	Size		n;
	Size		capacity;
} RunRows;

/* Append row of the group at dir_index to *rows. */
static void
RunRowsAdd(RunRows *rows, int dir_index, uint32 row)
{
	if (rows->n == rows->capacity)
	{
		rows->capacity = Max(rows->capacity * 2, 1024);
		rows->dir_index = rows->dir_index == NULL ?
			palloc(sizeof(int) * rows->capacity) :
			repalloc_huge(rows->dir_index, sizeof(int) * rows->capacity);
		rows->row = rows->row == NULL ?
			palloc(sizeof(uint32) * rows->capacity) :
			repalloc_huge(rows->row, sizeof(uint32) * rows->capacity);
	}
	rows->dir_index[rows->n] = dir_index;
	rows->row[rows->n] = row;
	rows->n++;
}

/* Promote the row numbered rownum if it has no copy: its copy, or invalid. */
static void
PromoteForMove(Relation rel, uint64 rownum, ItemPointer copy)
{
	ItemPointerData tid;
	RowState	state;

	RowNumberToItemPointer(rownum, &tid);
	RowStateLocate(rel, &tid, &state);
	RowStatePromote(rel, &state);
	if (state.kind == ROWSTATE_PROMOTED)
		*copy = state.phys;
	else
		ItemPointerSetInvalid(copy);
}

/*
 * List the live rows of row group e (at directory index dir_index) for
 * moving out of it.  A row with no copy and no live run, in a group that
 * allows it (RowStateMayMoveByRun), goes to *run_rows, to be moved through
 * the group's delete log (MoveRunRows).  The others get their heap copies
 * appended to *list, each row that has none promoted first
 * (mvcc/row_state.c), so that moving it is deleting its copy, like moving
 * a heap tuple.  The copies of deleted rows are listed too: TakeTuple
 * skips them (pruned, or a delete that fails), as it skips the ones
 * somebody locks.
 */
static void
ListGroupRows(Relation rel, int dir_index, const RowGroupDirEntry *e,
			  MovableList *list, RunRows *run_rows)
{
	ItemPointerData *copies = palloc(sizeof(ItemPointerData) * e->rg_nrows);
	bool	   *deleted = palloc(sizeof(bool) * e->rg_nrows);
	DeleteRun  *runs = palloc(sizeof(DeleteRun) * e->rg_nrows);
	bool		by_run = RowStateMayMoveByRun(rel, e);
	uint32		row;

	(void) PromotionMapGetRange(rel, e, 0, e->rg_nrows, copies, deleted, runs);
	for (row = 0; row < e->rg_nrows; row++)
	{
		CHECK_FOR_INTERRUPTS();
		if (deleted[row])
			continue;			/* deleted for everyone: nothing to move */

		/*
		 * a committed delete in the log (storage/delete_log.c): nothing to
		 * move either, and no copy to make (VACUUM gives it its bit)
		 */
		if (TransactionIdIsValid(runs[row].xid) &&
			!TransactionIdIsInProgress(runs[row].xid) &&
			TransactionIdDidCommit(runs[row].xid))
			continue;
		if (!ItemPointerIsValid(&copies[row]) && by_run &&
			!(TransactionIdIsValid(runs[row].xid) && DeleteRunLive(runs[row].xid)))
		{
			RunRowsAdd(run_rows, dir_index, row);
			continue;
		}
		if (!ItemPointerIsValid(&copies[row]))
		{
			PromoteForMove(rel, e->rg_first_row + row, &copies[row]);
			if (!ItemPointerIsValid(&copies[row]))
				continue;
		}
		MovableAdd(list, ItemPointerGetBlockNumber(&copies[row]),
				   ItemPointerGetOffsetNumber(&copies[row]));
	}
	pfree(copies);
	pfree(deleted);
	pfree(runs);
}

/*
 * Move the rows of *run_rows through their groups' delete logs
 * (RowStateMoveByRun), buffering each in batch with its TID as source
 * (MovedRowSourceOfRow, whose keys sort after every heap position, so they
 * follow the copies moved before in one group).  A row a writer reached
 * first (a copy or a live run now) or whose log page is full is promoted
 * instead and its copy appended to *fallback, to be moved after them.
 */
static void
MoveRunRows(CompactBatch *batch, const RunRows *run_rows, MovableList *fallback)
{
	Relation	rel = batch->rel;
	RowGroupDirEntry group;
	int			current = -1;
	Size		i;

	for (i = 0; i < run_rows->n; i++)
	{
		int			dir_index = run_rows->dir_index[i];
		uint32		row = run_rows->row[i];

		CHECK_FOR_INTERRUPTS();
		/* read again after a move that gave the group its root pages */
		if (dir_index != current || group.rg_state_root == 0)
		{
			group = DirectoryGet(rel)->entries[dir_index];
			current = dir_index;
		}
		if (RowStateMoveByRun(rel, dir_index, &group, row, batch->cid, batch->group_slot))
		{
			ItemPointerData tid;
			ItemPointerData source;

			RowNumberToItemPointer(group.rg_first_row + row, &tid);
			MovedRowSourceOfRow(&tid, &source);
			BatchAdd(batch, batch->group_slot, &source);
			ExecClearTuple(batch->group_slot);
			if (batch->nrows >= batch->opts.row_group_size)
				FlushBatch(batch);
		}
		else
		{
			ItemPointerData copy;

			PromoteForMove(rel, group.rg_first_row + row, &copy);
			if (ItemPointerIsValid(&copy))
				MovableAdd(fallback, ItemPointerGetBlockNumber(&copy),
						   ItemPointerGetOffsetNumber(&copy));
		}
	}
}

/*
 * Append to *list the heap copies of the rows of the row groups compaction
 * rewrites now (compaction_choice.c; bounded for the worker), sorted, and
 * to *run_rows the rows to move through their delete logs (ListGroupRows).
 */
static void
FindGroupRows(CompactBatch *batch, MovableList *list, RunRows *run_rows,
			  bool worker, bool quiet)
{
	Relation	rel = batch->rel;
	int			ngroups;
	int			nrewritten;
	int			nmerged;
	int		   *groups;
	int			g;

	groups = CompactionGroupsToRewrite(rel, batch->oldest_xmin,
									   batch->opts.row_group_size, worker,
									   quiet, &ngroups, &nrewritten, &nmerged);
	for (g = 0; g < ngroups; g++)
	{
		RowGroupDirEntry e = DirectoryGet(rel)->entries[groups[g]];

		/*
		 * its rows move: index-only scans must fetch them from now on
		 * (VACUUM, which could mark them again, waits for our lock)
		 */
		AllVisibleClearRows(rel, e.rg_first_row, e.rg_nrows);
		ListGroupRows(rel, groups[g], &e, list, run_rows);
	}
	CompactionProgressAdd(COMPACTION_GROUPS_REWRITTEN, nrewritten);
	CompactionProgressAdd(COMPACTION_GROUPS_MERGED, nmerged);
	pfree(groups);
	/* a moved row group lists its sources in ascending order */
	qsort(list->items, list->n, sizeof(ItemPointerData),
		  (int (*) (const void *, const void *)) ItemPointerCompare);
}

/* Set up batch (whose rel and horizons are set) for moving rows. */
static void
BatchBegin(CompactBatch *batch)
{
	Relation	rel = batch->rel;

	ColstoreGetOptions(RelationGetRelid(rel), &batch->opts);
	batch->cid = GetCurrentCommandId(true);
	batch->builder = RowGroupBuilderCreate(RelationGetDescr(rel), CurrentMemoryContext);
	batch->sources = palloc(sizeof(ItemPointerData) * batch->opts.row_group_size);
	batch->heap_slot = MakeSingleTupleTableSlot(RelationGetDescr(rel), &TTSOpsHeapTuple);
	batch->row_slot = MakeSingleTupleTableSlot(RelationGetDescr(rel), &TTSOpsVirtual);
	batch->group_slot = MakeSingleTupleTableSlot(RelationGetDescr(rel), &TTSOpsVirtual);
	batch->estate = CreateExecutorState();
	batch->result_rel = makeNode(ResultRelInfo);
	InitResultRelInfo(batch->result_rel, rel, 1, NULL, 0);
	ExecOpenIndices(batch->result_rel, false);
}

/* Release what BatchBegin set up. */
static void
BatchEnd(CompactBatch *batch)
{
	ExecCloseIndices(batch->result_rel);
	FreeExecutorState(batch->estate);
	ExecDropSingleTupleTableSlot(batch->heap_slot);
	ExecDropSingleTupleTableSlot(batch->row_slot);
	ExecDropSingleTupleTableSlot(batch->group_slot);
	RowGroupBuilderFree(batch->builder);
	pfree(batch->sources);
}

/*
 * Set batch's horizons: OldestXmin, and the cutoff before which versions
 * UPDATE wrote are update_age transactions old.
 */
static void
BatchHorizons(CompactBatch *batch, int update_age)
{
	batch->oldest_xmin = GetOldestNonRemovableTransactionId(batch->rel);
	batch->update_cutoff = batch->oldest_xmin - update_age;
	if (!TransactionIdIsNormal(batch->update_cutoff) ||
		TransactionIdFollows(batch->update_cutoff, batch->oldest_xmin))
		batch->update_cutoff = FirstNormalTransactionId;
}

/* ColstoreCompact's work, in the table owner's security context. */
static uint64
MoveHeapTuples(Relation rel, uint64 min_rows, int update_age, CompactBulk *bulk)
{
	CompactBatch batch;
	BlockNumber *blocks;
	int			nblocks;
	MovableList movable;
	RunRows		run_rows;
	BulkCounter counter;
	Size		i;

	memset(&batch, 0, sizeof(batch));
	batch.rel = rel;
	BatchHorizons(&batch, update_age);
	CompactionProgressSetPhase(COMPACTION_PHASE_SCANNING_HEAP);
	blocks = DeltaBlocks(rel, &nblocks);
	movable.n = 0;
	movable.capacity = 1024;
	movable.items = palloc(sizeof(ItemPointerData) * movable.capacity);
	if (bulk != NULL)
	{
		bulk->locator = rel->rd_locator;
		bulk->n = 0;
		bulk->next = 0;
		bulk->capacity = 1024;
		bulk->items = MemoryContextAlloc(bulk->cxt,
										 sizeof(ItemPointerData) * bulk->capacity);
		bulk->xmins = MemoryContextAlloc(bulk->cxt,
										 sizeof(TransactionId) * bulk->capacity);
		bulk->waiting_for = InvalidTransactionId;
		bulk->held_back = 0;
		BulkCounterInit(&counter);
	}
	for (i = 0; i < nblocks; i++)
		FindMovable(&batch, blocks[i], &movable, bulk, &counter);
	pfree(blocks);
	if (bulk != NULL)
	{
		BulkFilter(bulk, &counter, batch.oldest_xmin);
		BulkCounterFree(&counter);
		CompactionProgressAdd(COMPACTION_HEAP_TUPLES_FOUND, bulk->n);
	}
	/* a quiet table's last few versions move too (quiet rules) */
	if (movable.n < min_rows && (bulk == NULL || !bulk->quiet))
		movable.n = 0;
	CompactionProgressAdd(COMPACTION_HEAP_TUPLES_FOUND, movable.n);

	BatchBegin(&batch);
	CompactionProgressSetPhase(COMPACTION_PHASE_MOVING_HEAP);
	MoveTuples(&batch, &movable);

	/* the live rows of mostly deleted and of small row groups, in new ones */
	CompactionProgressSetPhase(COMPACTION_PHASE_REWRITING_GROUPS);
	batch.moving_groups = true;
	movable.n = 0;

	/*
	 * colstore.compact() merges and rewrites every group that pays; the
	 * worker merges small groups worth a quarter group, rewrites a bounded
	 * number of rows per round (REWRITE_ROUND_GROUPS), and neither while the
	 * old groups of its last rewrite wait to be freed (file header)
	 */
	memset(&run_rows, 0, sizeof(run_rows));
	if (min_rows <= 1)
		FindGroupRows(&batch, &movable, &run_rows, false, false);
	else if (!CompactionRetiredPending(rel))
		FindGroupRows(&batch, &movable, &run_rows, true, bulk != NULL && bulk->quiet);

	/*
	 * the copies first, then the rows moved through delete logs (whose
	 * sources sort after every heap position), then the copies of those a
	 * writer reached first: one group's sources stay ascending
	 */
	for (i = 0; i < movable.n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		TakeTuple(&batch, &movable.items[i], InvalidTransactionId);
		if (batch.nrows >= batch.opts.row_group_size)
			FlushBatch(&batch);
	}
	movable.n = 0;
	MoveRunRows(&batch, &run_rows, &movable);
	qsort(movable.items, movable.n, sizeof(ItemPointerData),
		  (int (*) (const void *, const void *)) ItemPointerCompare);
	MoveTuples(&batch, &movable);

	BatchEnd(&batch);
	pfree(movable.items);
	return batch.moved;
}

/*
 * Whether the block of each listed position is still one of rel's heap
 * pages, for bulk->items[from .. to): pages VACUUM retired and freed since
 * the list was made may hold row groups now, or be truncated away.  Sets
 * keep[i - from].
 */
static void
BulkBlocksKept(Relation rel, const CompactBulk *bulk, Size from, Size to,
			   bool *keep)
{
	int			nblocks;
	BlockNumber *blocks = DeltaBlocks(rel, &nblocks);
	int			b = 0;
	Size		i;

	for (i = from; i < to; i++)
	{
		BlockNumber blkno = ItemPointerGetBlockNumber(&bulk->items[i]);

		while (b < nblocks && blocks[b] < blkno)
			b++;
		keep[i - from] = b < nblocks && blocks[b] == blkno;
	}
	pfree(blocks);
}

/* ColstoreCompactBulk's work, in the table owner's security context. */
static uint64
MoveBulkBatch(Relation rel, CompactBulk *bulk, bool *gate_open)
{
	CompactBatch batch;
	Size		from = bulk->next;
	Size		to;
	Size		i;
	bool	   *keep;

	/* a writer, or a rewrite since (VACUUM FULL, TRUNCATE): stop here */
	*gate_open = CompactionGateOpen(RelationGetRelid(rel));
	if (!*gate_open || !RelFileLocatorEquals(bulk->locator, rel->rd_locator))
	{
		bulk->next = bulk->n;
		return 0;
	}

	memset(&batch, 0, sizeof(batch));
	batch.rel = rel;
	/* every listed version is older than any cutoff, and UPDATE's */
	BatchHorizons(&batch, 0);
	BatchBegin(&batch);
	CompactionProgressSetPhase(COMPACTION_PHASE_MOVING_BULK);

	/* at most a row group's worth: the listed positions ahead, or fewer */
	to = from + Min((Size) batch.opts.row_group_size, bulk->n - from);
	keep = palloc(sizeof(bool) * Max(to - from, 1));
	BulkBlocksKept(rel, bulk, from, to, keep);
	for (i = from; i < to; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if ((i - from) % BULK_GATE_CHECK_ROWS == BULK_GATE_CHECK_ROWS - 1 &&
			!CompactionGateOpen(RelationGetRelid(rel)))
		{
			*gate_open = false;
			break;
		}
		if (keep[i - from])
			TakeTuple(&batch, &bulk->items[i], bulk->xmins[i]);
	}
	bulk->next = to;
	pfree(keep);

	/* the row group and its index entries: rolled back together if closed */
	if (*gate_open)
	{
		FlushBatch(&batch);
		*gate_open = CompactionGateOpen(RelationGetRelid(rel));
		if (!*gate_open)
		{
			/* the caller aborts: take back what FlushBatch counted */
			CompactionProgressAdd(COMPACTION_HEAP_TUPLES_MOVED, -(int64) batch.moved);
			if (batch.moved > 0)
				CompactionProgressAdd(COMPACTION_GROUPS_WRITTEN, -1);
		}
	}
	BatchEnd(&batch);
	return *gate_open ? batch.moved : 0;
}

/*
 * Run fn(rel, arg...) as the table's owner in a restricted security
 * context: index expressions and predicates run as the owner, as in VACUUM,
 * so whoever compacts (a superuser, the background worker) runs none of the
 * owner's code with its own rights.
 */
typedef struct OwnerContext
{
	Oid			userid;
	int			sec_context;
	int			nestlevel;
} OwnerContext;

static void
OwnerContextEnter(Relation rel, OwnerContext *saved)
{
	GetUserIdAndSecContext(&saved->userid, &saved->sec_context);
	SetUserIdAndSecContext(rel->rd_rel->relowner,
						   saved->sec_context | SECURITY_RESTRICTED_OPERATION);
	saved->nestlevel = NewGUCNestLevel();
}

static void
OwnerContextExit(OwnerContext *saved)
{
	AtEOXact_GUC(false, saved->nestlevel);
	SetUserIdAndSecContext(saved->userid, saved->sec_context);
}

/*
 * ColstoreCompact
 *		Move the heap tuples of rel's delta pages that every snapshot sees
 *		and nobody has deleted into row groups, in the current transaction
 *		(see the file header), if at least min_rows of them may move, and
 *		the live rows of the row groups compaction_choice.c chooses.
 *		Versions UPDATE wrote move only once update_age transactions older
 *		than every snapshot (0: as soon as every snapshot sees them): a row
 *		updated lately is likely to be updated again, and would then need a
 *		promoted copy in its new row group.  With bulk (the worker), the
 *		younger ones whose inserter wrote in bulk are listed in bulk's
 *		lists, allocated in bulk->cxt, for ColstoreCompactBulk, and
 *		bulk->waiting_for is set (see CompactBulk).  Returns the number of
 *		rows moved.  The caller holds a lock that keeps VACUUM and other
 *		compactions away (ShareUpdateExclusiveLock).
 */
uint64
ColstoreCompact(Relation rel, uint64 min_rows, int update_age,
				CompactBulk *bulk)
{
	OwnerContext saved;
	uint64		moved;

	OwnerContextEnter(rel, &saved);
	moved = MoveHeapTuples(rel, min_rows, update_age, bulk);
	OwnerContextExit(&saved);
	return moved;
}

/*
 * ColstoreCompactBulk
 *		Move into one row group, in the current transaction, the versions at
 *		bulk's next positions (at most row_group_size of them) that still
 *		hold the listed live version every snapshot sees, while the gate
 *		(tableam/compaction_bulk.c) stays open; bulk->next advances past the
 *		positions tried.  Returns the number of rows moved.  *gate_open is
 *		set to false if the gate was or became closed: then the transaction
 *		must be rolled back, not committed (what it did is still in it: the
 *		tuples taken so far, the row group if written), and the caller moves
 *		no more bulk versions for now.  The caller holds
 *		ShareUpdateExclusiveLock, as for ColstoreCompact, and checks
 *		nothing between this return and its commit.
 */
uint64
ColstoreCompactBulk(Relation rel, CompactBulk *bulk, bool *gate_open)
{
	OwnerContext saved;
	uint64		moved;

	OwnerContextEnter(rel, &saved);
	moved = MoveBulkBatch(rel, bulk, gate_open);
	OwnerContextExit(&saved);
	return moved;
}
