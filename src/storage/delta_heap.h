/*-------------------------------------------------------------------------
 *
 * delta_heap.h
 *	  Heap pages inside a colstore relation, and their place in the TID
 *	  space.
 *
 * IDENTIFICATION
 *	  src/storage/delta_heap.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTA_HEAP_H
#define DELTA_HEAP_H

#include "access/htup_details.h"
#include "access/tableam.h"
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

extern void DeltaHeapInsert(Relation rel, HeapTuple tuple, CommandId cid,
							int options);
extern void DeltaHeapMultiInsert(Relation rel, TupleTableSlot **slots, int n,
								 CommandId cid, int options);
extern TM_Result DeltaHeapUpdate(Relation rel, ItemPointer otid,
								 HeapTuple newtup, CommandId cid,
								 Snapshot crosscheck, bool wait,
								 TM_FailureData *tmfd, LockTupleMode *lockmode);
extern bool DeltaHeapHidesSize(Oid relid);
extern void DeltaHeapRegisterPage(Relation rel, BlockNumber blkno);
extern void DeltaHeapToLogical(Relation rel, ItemPointer phys, ItemPointer logical);
extern bool DeltaHeapToPhysical(Relation rel, ItemPointer logical, ItemPointer phys);
extern void DeltaHeapUncountInsert(Relation rel);

#endif							/* DELTA_HEAP_H */
