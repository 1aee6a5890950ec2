/*-------------------------------------------------------------------------
 *
 * delta_heap.h
 *	  Heap pages inside a colstore relation, their place in the TID space,
 *	  and reading their items.
 *
 * IDENTIFICATION
 *	  src/storage/delta_heap.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTA_HEAP_H
#define DELTA_HEAP_H

#include "pg_compat.h"

#include "access/htup_details.h"
#include "access/tableam.h"
#include "storage/buf.h"
#include "storage/rowgroup_format.h"
#include "storage/itemptr.h"
#include "utils/rel.h"

/*
 * t_infomask2 bit of a promoted copy: a heap tuple that holds a row-group
 * row's values only so that heapam can keep the row's delete and lock state
 * (see mvcc/row_state.c).  It is not a row of its own, so scans of heap
 * pages skip it.  htup_details.h leaves bits 0x1800 unused; heapam never
 * sets or clears them, and its WAL records carry t_infomask2 unchanged.
 */
#define HEAP_COLSTORE_PROMOTED	0x0800

#define HeapTupleHeaderIsPromotedCopy(tup) \
	(((tup)->t_infomask2 & HEAP_COLSTORE_PROMOTED) != 0)

/*
 * A delta page entry's pseudo-block and its heap page have the same item
 * numbers: row page->rg_first_row + i is item i + 1.
 */
static inline void
DeltaPageItemOfRow(const RowGroupDirEntry *page, uint64 rownum, ItemPointer phys)
{
	Assert(page->rg_kind == RG_KIND_DELTA_PAGE && rownum >= page->rg_first_row &&
		   rownum - page->rg_first_row < ROWS_PER_TID_BLOCK);
	ItemPointerSet(phys, page->rg_header.sp_block,
				   (OffsetNumber) (rownum - page->rg_first_row + 1));
}

static inline void
DeltaPageRowOfItem(const RowGroupDirEntry *page, OffsetNumber off, ItemPointer logical)
{
	Assert(page->rg_kind == RG_KIND_DELTA_PAGE && off >= FirstOffsetNumber);
	RowNumberToItemPointer(page->rg_first_row + off - 1, logical);
}

extern void DeltaHeapInsert(Relation rel, HeapTuple tuple, CommandId cid,
							int options);
extern void DeltaHeapInsertCopies(Relation rel, HeapTuple *tuples, int n,
								  CommandId cid, int options);
extern TM_Result DeltaHeapUpdate(Relation rel, ItemPointer otid,
								 HeapTuple newtup, CommandId cid,
								 Snapshot crosscheck, bool wait,
								 TM_FailureData *tmfd, LockTupleMode *lockmode,
								 ItemPointer newtid,
								 TU_UpdateIndexes *update_indexes);
extern bool DeltaHeapHidesSize(Oid relid);
extern void DeltaHeapToLogical(Relation rel, ItemPointer phys, ItemPointer logical);
extern void DeltaHeapUncountInserts(Relation rel, int n);
extern bool DeltaPageHoldsTuples(Relation rel, BlockNumber blkno);
extern bool DeltaPagesHoldTuples(Relation rel, int max_pages);
extern void HeapPageCheck(Relation rel, Buffer buf);
extern bool HeapPageHoldsNoItem(Page page);
extern bool HeapVersionRead(Relation rel, Buffer buf, OffsetNumber off,
							HeapTuple tuple);
extern bool HeapItemIsDead(Buffer buf, OffsetNumber off);

#endif							/* DELTA_HEAP_H */
