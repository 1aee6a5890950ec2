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
 * The live rows of the row groups compaction_choice.c chooses (partly
 * deleted ones whose rewrite pays, and small ones merged) are moved the
 * same way (FindGroupRows): each row is promoted if it has no heap copy
 * yet, and the copies are moved like heap tuples, so writers follow them
 * alike, into full-sized row groups.  Once VACUUM has pruned the moved
 * copies, the old group has no row left and VACUUM retires and frees it
 * (mvcc/group_retire.c, storage/group_reclaim.c).  colstore.compact() does
 * all of it at once; the compaction worker (min_rows above one) takes a
 * bounded share per round, and none while an earlier round's old groups
 * wait to be freed (CompactionReclaimPending; the worker frees them right
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
#include "storage/bufmgr.h"
#include "storage/procarray.h"
#include "utils/rel.h"

#include "mvcc/row_state.h"
#include "mvcc/visibility.h"
#include "storage/colstore_wal.h"
#include "storage/compaction_progress.h"
#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/promotion_map.h"
#include "storage/rowgroup_builder.h"
#include "storage/rowgroup_writer.h"
#include "storage/table_options.h"
#include "tableam/compaction.h"
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
	EState	   *estate;
	ResultRelInfo *result_rel;	/* the table with its indexes open */
	uint64		moved;
	bool		moving_groups;	/* rows of row groups, not heap tuples */
} CompactBatch;

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

/*
 * Whether the item is a row version compaction may move: an ordinary
 * version (not a promoted copy) whose insert every snapshot sees (before
 * oldest_xmin; a version UPDATE wrote, before update_cutoff) and that
 * nobody has deleted.  Tuples locked by running transactions pass here;
 * TakeTuple's delete, which does not wait, skips them.  Caller holds a
 * share lock on buf.
 */
static bool
IsMovable(Relation rel, Buffer buf, BlockNumber blkno, OffsetNumber off,
		  TransactionId oldest_xmin, TransactionId update_cutoff)
{
	Page		page = BufferGetPage(buf);
	ItemId		lp = PageGetItemId(page, off);
	HeapTupleData tuple;

	if (!ItemIdIsNormal(lp))
		return false;
	tuple.t_data = (HeapTupleHeader) PageGetItem(page, lp);
	tuple.t_len = ItemIdGetLength(lp);
	tuple.t_tableOid = RelationGetRelid(rel);
	ItemPointerSet(&tuple.t_self, blkno, off);
	if (tuple.t_data->t_infomask2 & HEAP_COLSTORE_PROMOTED)
		return false;
	if (HeapTupleSatisfiesVacuum(&tuple, oldest_xmin, buf) != HEAPTUPLE_LIVE)
		return false;
	if (HeapTupleHeaderXminFrozen(tuple.t_data))
		return true;
	return TransactionIdPrecedes(HeapTupleHeaderGetXmin(tuple.t_data),
								 (tuple.t_data->t_infomask & HEAP_UPDATED) ?
								 update_cutoff : oldest_xmin);
}

/*
 * Delete the tuple at phys as moved and buffer its values; false, changing
 * nothing, if somebody else locks or changes it (DeleteUndecoded: as
 * heap_delete without waiting).  The values are copied before the delete: a delete that
 * succeeds proves nobody updated the tuple in between.  TOASTed values are
 * expanded afterwards, which works because TOAST fetches ignore deleters.
 */
static bool
TakeTuple(CompactBatch *batch, ItemPointer phys)
{
	Relation	rel = batch->rel;
	HeapTupleData tuple;
	HeapTuple	copy = NULL;
	Buffer		buf;

	buf = ReadBuffer(rel, ItemPointerGetBlockNumber(phys));
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	if (HeapVersionRead(rel, buf, ItemPointerGetOffsetNumber(phys), &tuple))
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
	RowGroupBuilderAdd(batch->builder, batch->heap_slot);
	ExecClearTuple(batch->heap_slot);
	batch->sources[batch->nrows++] = *phys;
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

/* Append the positions of the movable tuples of heap page blkno to *list. */
static void
FindMovable(CompactBatch *batch, BlockNumber blkno, MovableList *list)
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
		if (!IsMovable(rel, buf, blkno, off, batch->oldest_xmin,
					   batch->update_cutoff))
			continue;
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
	UnlockReleaseBuffer(buf);
}

/* Move the tuples at list's positions (ascending), in full row groups. */
static void
MoveTuples(CompactBatch *batch, const MovableList *list)
{
	Size		i;

	for (i = 0; i < list->n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		TakeTuple(batch, &list->items[i]);
		if (batch->nrows >= batch->opts.row_group_size)
			FlushBatch(batch);
	}
	FlushBatch(batch);
}

/*
 * Append to *list the heap copies of row group e's rows, promoting each row
 * that has none (mvcc/row_state.c), so that moving it is deleting its copy,
 * like moving a heap tuple.  The copies of deleted rows are listed too:
 * TakeTuple skips them (pruned, or a delete that fails), as it skips the
 * ones somebody locks.
 */
static void
ListGroupCopies(Relation rel, const RowGroupDirEntry *e, MovableList *list)
{
	ItemPointerData *copies = palloc(sizeof(ItemPointerData) * e->rg_nrows);
	bool	   *deleted = palloc(sizeof(bool) * e->rg_nrows);
	uint32		row;

	(void) PromotionMapGetRange(rel, e, 0, e->rg_nrows, copies, deleted);
	for (row = 0; row < e->rg_nrows; row++)
	{
		CHECK_FOR_INTERRUPTS();
		if (deleted[row])
			continue;			/* deleted for everyone: nothing to move */
		if (!ItemPointerIsValid(&copies[row]))
		{
			ItemPointerData tid;
			RowState	state;

			RowNumberToItemPointer(e->rg_first_row + row, &tid);
			RowStateLocate(rel, &tid, &state);
			RowStatePromote(rel, &state);
			if (state.kind != ROWSTATE_PROMOTED)
				continue;
			copies[row] = state.phys;
		}
		if (list->n == list->capacity)
		{
			list->capacity *= 2;
			list->items = repalloc_huge(list->items,
										sizeof(ItemPointerData) * list->capacity);
		}
		list->items[list->n++] = copies[row];
	}
	pfree(copies);
	pfree(deleted);
}

/*
 * Append to *list the heap copies of the rows of the row groups compaction
 * rewrites now (compaction_choice.c; bounded for the worker), sorted.
 */
static void
FindGroupRows(CompactBatch *batch, MovableList *list, bool worker)
{
	Relation	rel = batch->rel;
	int			ngroups;
	int			nrewritten;
	int			nmerged;
	int		   *groups;
	int			g;

	groups = CompactionGroupsToRewrite(rel, batch->oldest_xmin,
									   batch->opts.row_group_size, worker,
									   &ngroups, &nrewritten, &nmerged);
	for (g = 0; g < ngroups; g++)
	{
		RowGroupDirEntry e = DirectoryGet(rel)->entries[groups[g]];

		ListGroupCopies(rel, &e, list);
	}
	CompactionProgressAdd(COMPACTION_GROUPS_REWRITTEN, nrewritten);
	CompactionProgressAdd(COMPACTION_GROUPS_MERGED, nmerged);
	pfree(groups);
	/* a moved row group lists its sources in ascending order */
	qsort(list->items, list->n, sizeof(ItemPointerData),
		  (int (*) (const void *, const void *)) ItemPointerCompare);
}

/* ColstoreCompact's work, in the table owner's security context. */
static uint64
MoveHeapTuples(Relation rel, uint64 min_rows, int update_age)
{
	CompactBatch batch;
	BlockNumber *blocks;
	int			nblocks;
	MovableList movable;
	Size		i;

	memset(&batch, 0, sizeof(batch));
	batch.rel = rel;
	batch.oldest_xmin = GetOldestNonRemovableTransactionId(rel);
	batch.update_cutoff = batch.oldest_xmin - update_age;
	if (!TransactionIdIsNormal(batch.update_cutoff) ||
		TransactionIdFollows(batch.update_cutoff, batch.oldest_xmin))
		batch.update_cutoff = FirstNormalTransactionId;
	CompactionProgressSetPhase(COMPACTION_PHASE_SCANNING_HEAP);
	blocks = DeltaBlocks(rel, &nblocks);
	movable.n = 0;
	movable.capacity = 1024;
	movable.items = palloc(sizeof(ItemPointerData) * movable.capacity);
	for (i = 0; i < nblocks; i++)
		FindMovable(&batch, blocks[i], &movable);
	pfree(blocks);
	if (movable.n < min_rows)
		movable.n = 0;
	CompactionProgressAdd(COMPACTION_HEAP_TUPLES_FOUND, movable.n);

	ColstoreGetOptions(RelationGetRelid(rel), &batch.opts);
	batch.cid = GetCurrentCommandId(true);
	batch.builder = RowGroupBuilderCreate(RelationGetDescr(rel), CurrentMemoryContext);
	batch.sources = palloc(sizeof(ItemPointerData) * batch.opts.row_group_size);
	batch.heap_slot = MakeSingleTupleTableSlot(RelationGetDescr(rel), &TTSOpsHeapTuple);
	batch.row_slot = MakeSingleTupleTableSlot(RelationGetDescr(rel), &TTSOpsVirtual);
	batch.estate = CreateExecutorState();
	batch.result_rel = makeNode(ResultRelInfo);
	InitResultRelInfo(batch.result_rel, rel, 1, NULL, 0);
	ExecOpenIndices(batch.result_rel, false);

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
	if (min_rows <= 1)
		FindGroupRows(&batch, &movable, false);
	else if (!CompactionReclaimPending(rel))
		FindGroupRows(&batch, &movable, true);
	MoveTuples(&batch, &movable);

	ExecCloseIndices(batch.result_rel);
	FreeExecutorState(batch.estate);
	ExecDropSingleTupleTableSlot(batch.heap_slot);
	ExecDropSingleTupleTableSlot(batch.row_slot);
	RowGroupBuilderFree(batch.builder);
	pfree(batch.sources);
	pfree(movable.items);
	return batch.moved;
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
 *		promoted copy in its new row group.  Returns the number of rows
 *		moved.  The caller holds a lock that
 *		keeps VACUUM and other compactions away (ShareUpdateExclusiveLock).
 *
 * Index expressions and predicates run as the table's owner in a
 * restricted security context, as in VACUUM: whoever compacts (a superuser,
 * the background worker) runs none of the owner's code with its own rights.
 */
uint64
ColstoreCompact(Relation rel, uint64 min_rows, int update_age)
{
	Oid			save_userid;
	int			save_sec_context;
	int			save_nestlevel;
	uint64		moved;

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(rel->rd_rel->relowner,
						   save_sec_context | SECURITY_RESTRICTED_OPERATION);
	save_nestlevel = NewGUCNestLevel();
	moved = MoveHeapTuples(rel, min_rows, update_age);
	AtEOXact_GUC(false, save_nestlevel);
	SetUserIdAndSecContext(save_userid, save_sec_context);
	return moved;
}
