/*-------------------------------------------------------------------------
 *
 * delta_freeze.h
 *	  Freezing the tuples of one heap page inside a colstore relation
 *	  (delta_freeze.c).
 *
 * IDENTIFICATION
 *	  src/storage/delta_freeze.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTA_FREEZE_H
#define DELTA_FREEZE_H

#include "access/heapam.h"
#include "access/heapam_xlog.h"
#include "pg_compat.h"

#include "storage/delta_vacuum.h"

#if !PG_HAS_VACUUM_CUTOFFS
/* before 16 heap's freeze plan was its WAL record's entry */
typedef xl_heap_freeze_tuple HeapTupleFreeze;
#endif

/* The freeze plans of one page, gathered tuple by tuple. */
typedef struct DeltaPageFreeze
{
	int			nplans;
	HeapTupleFreeze plans[MaxHeapTuplesPerPage];
#if PG_HAS_VACUUM_CUTOFFS
	HeapPageFreeze pagefrz;
#endif
} DeltaPageFreeze;

extern void DeltaFreezeBegin(DeltaPageFreeze *f, const DeltaVacuumState *vs);
extern void DeltaFreezeTuple(DeltaPageFreeze *f, Relation rel, HeapTupleHeader tuple,
							 OffsetNumber off, DeltaVacuumState *vs);
extern void DeltaFreezeFinish(DeltaPageFreeze *f, Relation rel, Buffer buf,
							  DeltaVacuumState *vs);
extern bool DeltaTupleWouldFreeze(HeapTupleHeader tuple, const DeltaVacuumState *vs,
								  TransactionId *oldest_xid, MultiXactId *oldest_mxid);

#endif							/* DELTA_FREEZE_H */
