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
 * Row groups enough of whose rows are deleted that a rewrite pays
 * (GroupRewritePays: half, or a fifth and at least 64), and small row
 * groups (fewer rows than a quarter of row_group_size: statements estimated
 * larger than they were, CLUSTER among older snapshots, earlier compaction
 * rounds), are rewritten the same way (FindGroupRows): their live rows are
 * promoted if they have no heap copy yet, and the copies are moved like
 * heap tuples, so writers follow them alike, into full-sized row groups.
 * Once VACUUM has pruned the moved copies, the old group has no row left
 * and VACUUM retires and frees it (mvcc/group_retire.c,
 * storage/group_reclaim.c).  colstore.compact() does all of it at once.
 * The compaction worker (min_rows above one) bounds it, because a rewrite's
 * old and new copies of the rows coexist until the second VACUUM after it
 * and so raise the file's high-water mark: per round it rewrites a row
 * group's worth of live rows (REWRITE_ROUND_GROUPS), merges small groups a
 * quarter group at a time and only when the merge fits in free pages and
 * in half the size the rows would take in heap (MergeFitsFreeSpace), and
 * neither while an earlier round's old groups wait to be freed
 * (CompactionReclaimPending; the worker frees them right after the round,
 * tableam/compaction_worker.c).  A worker that merged whenever small
 * groups held a quarter group ended 009_auto_compaction's table of small
 * inserts near or above heap's size (src/README.md).
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
#include "storage/freespace.h"
#include "storage/procarray.h"
#include "utils/rel.h"

#include "mvcc/group_retire.h"
#include "mvcc/row_state.h"
#include "mvcc/visibility.h"
#include "storage/colstore_wal.h"
#include "storage/compaction_progress.h"
#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/metapage.h"
#include "storage/promotion_map.h"
#include "storage/rowgroup_builder.h"
#include "storage/rowgroup_writer.h"
#include "storage/table_options.h"
#include "tableam/compaction.h"

/*
 * Row groups of fewer rows than this share of row_group_size are merged
 * (SmallGroups); the worker merges them once they hold this share
 * together, that many rows at a time (WorkerMergeMinimum).
 */
#define SMALL_GROUP_SHARE	0.25

/*
 * A worker round (min_rows > 1) stops taking partly deleted row groups once
 * their live rows fill this many full groups: the promoted copies and new
 * groups of one round then land in the pages the VACUUMs after the round
 * before freed, instead of the whole table's live rows being copied at once
 * (src/README.md, "Rewriting partly deleted row groups").
 */
#define REWRITE_ROUND_GROUPS	1

/*
 * The worker's merges grow the file only while it stays at most this share
 * of the size of its rows as heap tuples (MergeFitsFreeSpace).
 */
#define MERGE_HEAP_SHARE		0.5

/*
 * Free space the worker's merges count on: pages at least this free (freed
 * row groups' pages, emptied heap pages), which a merged group's pages can
 * take as well as promoted copies; scattered room on busy heap pages does
 * not count.
 */
#define MERGE_EMPTY_PAGE_FREE	(BLCKSZ * 3 / 4)

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

/* Whether every snapshot sees the insert of row group e. */
static bool
GroupSettled(const RowGroupDirEntry *e, TransactionId oldest_xmin)
{
	return (e->rg_flags & RG_FLAG_FROZEN) ||
		(RowGroupInsertCommitted(e) && TransactionIdPrecedes(e->rg_xmin, oldest_xmin));
}

/*
 * The row groups of rel that compaction merges: settled ones (every
 * snapshot sees their rows, oldest_xmin) without deleted or changed rows,
 * of fewer than SMALL_GROUP_SHARE of row_group_size rows, in directory
 * order until they hold max_total rows together, when there are at least
 * two of them holding at least min_total rows.  Returns their directory
 * indexes (palloc'd), their count in *ngroups and their rows in *nrows
 * (0 and 0 if none qualify).
 */
static int *
SmallGroups(Relation rel, TransactionId oldest_xmin, int row_group_size,
			uint64 min_total, uint64 max_total, int *ngroups, uint64 *nrows)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int		   *groups = palloc(sizeof(int) * Max(dir->ngroups, 1));
	uint32		limit = (uint32) (row_group_size * SMALL_GROUP_SHARE);
	int			g;

	*ngroups = 0;
	*nrows = 0;
	for (g = 0; g < dir->ngroups && *nrows < max_total; g++)
	{
		const RowGroupDirEntry *e = &dir->entries[dir->groups[g]];

		if (e->rg_state_root == 0 && !(e->rg_flags & RG_FLAG_INVALID) &&
			e->rg_nrows > 0 && e->rg_nrows < limit && GroupSettled(e, oldest_xmin))
		{
			groups[(*ngroups)++] = dir->groups[g];
			*nrows += e->rg_nrows;
		}
	}
	if (*ngroups < 2 || *nrows < min_total)
	{
		*ngroups = 0;
		*nrows = 0;
	}
	return groups;
}

/* The rows small groups must hold together for the worker to merge them. */
static uint64
WorkerMergeMinimum(int row_group_size)
{
	return (uint64) (row_group_size * SMALL_GROUP_SHARE);
}

/* About the bytes row group e's rows take as heap tuples. */
static uint64
GroupHeapBytes(const RowGroupDirEntry *e)
{
	return e->rg_raw_bytes +
		(uint64) e->rg_nrows * (MAXALIGN(SizeofHeapTupleHeader) + sizeof(ItemIdData));
}

/*
 * Whether the worker may merge the nsmall row groups at directory indexes
 * small now.  A merge's old and new copies of the rows coexist until the
 * second VACUUM after it: it needs room for the rows' promoted copies (heap
 * tuples, GroupHeapBytes) and for the merged group (about their stored
 * size).  It may take pages the free space map records as free, and grow
 * the file only as long as the file stays at most MERGE_HEAP_SHARE of the
 * size its rows would take as heap tuples: so merging never raises the
 * high-water mark of a compact table above that share of heap's.
 */
static bool
MergeFitsFreeSpace(Relation rel, const int *small, int nsmall)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	BlockNumber nblocks = ColstorePhysicalBlocks(rel);
	uint64		need = 0;
	uint64		heap_bytes = 0;
	uint64		file_bytes = (uint64) nblocks * BLCKSZ;
	uint64		room;
	Size		avail;
	BlockNumber blkno;
	int			g;

	for (g = 0; g < nsmall; g++)
	{
		const RowGroupDirEntry *e = &dir->entries[small[g]];

		need += GroupHeapBytes(e) + e->rg_stored_bytes;
	}
	for (g = 0; g < dir->ngroups; g++)
	{
		const RowGroupDirEntry *e = &dir->entries[dir->groups[g]];

		if (!(e->rg_flags & RG_FLAG_INVALID))
			heap_bytes += GroupHeapBytes(e);
	}
	room = file_bytes < MERGE_HEAP_SHARE * heap_bytes ?
		(uint64) (MERGE_HEAP_SHARE * heap_bytes) - file_bytes : 0;
	for (blkno = 0; blkno < nblocks && room < need; blkno++)
	{
		if ((blkno & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
		avail = GetRecordedFreeSpace(rel, blkno);
		if (avail >= MERGE_EMPTY_PAGE_FREE)
			room += avail;
	}
	return room >= need;
}

/*
 * CompactionReclaimPending
 *		Whether a row group of rel was retired and not freed yet: the old
 *		groups of a rewrite or merge whose space the next VACUUM gives back.
 *		The worker rewrites no row group until then (see the file header).
 */
bool
CompactionReclaimPending(Relation rel)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			g;

	for (g = 0; g < dir->ngroups; g++)
	{
		uint16		flags = dir->entries[dir->groups[g]].rg_flags;

		if ((flags & RG_FLAG_EMPTIED) && !(flags & RG_FLAG_FREED))
			return true;
	}
	return false;
}

/*
 * CompactionMergeableRows
 *		The rows of rel's small row groups that a compaction worker would
 *		merge now (0 if none, or if the merge does not fit:
 *		MergeFitsFreeSpace), for VACUUM's decision to start one.
 */
uint64
CompactionMergeableRows(Relation rel)
{
	ColstoreOptions opts;
	int			ngroups;
	uint64		nrows;
	int		   *small;

	ColstoreGetOptions(RelationGetRelid(rel), &opts);
	small = SmallGroups(rel, GetOldestNonRemovableTransactionId(rel), opts.row_group_size,
						WorkerMergeMinimum(opts.row_group_size),
						WorkerMergeMinimum(opts.row_group_size), &ngroups, &nrows);
	if (ngroups > 0 && !MergeFitsFreeSpace(rel, small, ngroups))
		nrows = 0;
	pfree(small);
	return nrows;
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
	uint32		row;

	PromotionMapGetRange(rel, e, 0, e->rg_nrows, copies);
	for (row = 0; row < e->rg_nrows; row++)
	{
		CHECK_FOR_INTERRUPTS();
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
}

/*
 * Append to *list the heap copies of the rows compaction rewrites out of
 * row groups: those of the groups whose rewrite pays (every snapshot sees
 * them, GroupRewritePays) and of the small ones (SmallGroups) holding at
 * least merge_min_rows rows together, which then make full-sized groups.
 * Once the list holds max_rows rows, no further partly deleted group is
 * taken (the worker's rounds: see REWRITE_ROUND_GROUPS).
 */
static void
FindGroupRows(CompactBatch *batch, MovableList *list, uint64 merge_min_rows, Size max_rows)
{
	Relation	rel = batch->rel;
	ColstoreDirectory *dir = DirectoryGet(rel);
	int		   *groups = palloc(sizeof(int) * Max(dir->ngroups, 1));
	int			ngroups = 0;
	int		   *small;
	int			nsmall;
	uint64		small_rows;
	int			g;

	for (g = 0; g < dir->ngroups; g++)
	{
		const RowGroupDirEntry *e = &dir->entries[dir->groups[g]];

		if (e->rg_state_root != 0 && !(e->rg_flags & RG_FLAG_INVALID) &&
			GroupSettled(e, batch->oldest_xmin))
			groups[ngroups++] = dir->groups[g];
	}
	small = SmallGroups(rel, batch->oldest_xmin, batch->opts.row_group_size,
						merge_min_rows, merge_min_rows > 0 ? merge_min_rows : PG_UINT64_MAX,
						&nsmall, &small_rows);
	/* the worker merges only into free space (MergeFitsFreeSpace) */
	if (merge_min_rows > 0 && nsmall > 0 && !MergeFitsFreeSpace(rel, small, nsmall))
		nsmall = 0;
	for (g = 0; g < ngroups && list->n < max_rows; g++)
	{
		RowGroupDirEntry e = DirectoryGet(rel)->entries[groups[g]];
		uint32		pruned;
		uint32		deleted = GroupCountDeleted(rel, &e, batch->oldest_xmin, NULL, &pruned);

		if (!GroupRewritePays(e.rg_nrows, deleted))
			continue;
		ListGroupCopies(rel, &e, list);
		CompactionProgressAdd(COMPACTION_GROUPS_REWRITTEN, 1);
	}
	for (g = 0; g < nsmall; g++)
	{
		RowGroupDirEntry e = DirectoryGet(rel)->entries[small[g]];

		ListGroupCopies(rel, &e, list);
	}
	CompactionProgressAdd(COMPACTION_GROUPS_MERGED, nsmall);
	pfree(groups);
	pfree(small);
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
		FindGroupRows(&batch, &movable, 0, (Size) -1);
	else if (!CompactionReclaimPending(rel))
		FindGroupRows(&batch, &movable, WorkerMergeMinimum(batch.opts.row_group_size),
					  (Size) batch.opts.row_group_size * REWRITE_ROUND_GROUPS);
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
 *		the live rows of the row groups at least half of whose rows are
 *		deleted.
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
