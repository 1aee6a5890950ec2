/*-------------------------------------------------------------------------
 *
 * row_fetch.h
 *	  Fetching one row by row number, as index scans and TID access need.
 *
 * IDENTIFICATION
 *	  src/mvcc/row_fetch.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ROW_FETCH_H
#define ROW_FETCH_H

#include "access/htup.h"
#include "executor/tuptable.h"
#include "utils/rel.h"
#include "utils/snapshot.h"

/* Outcome of RowFetch beyond visible/not visible. */
typedef enum RowFetchState
{
	ROW_NOT_FOUND,				/* no such row (gap, never written) */
	ROW_INVISIBLE,				/* exists, snapshot does not see it */
	ROW_DEAD,					/* dead to everyone (aborted inserter, or a
								 * reserved row never written) */
	ROW_VISIBLE
} RowFetchState;

extern void StoreHeapVersion(Relation rel, HeapTuple tuple, TupleTableSlot *slot);
extern RowFetchState RowFetch(Relation rel, uint64 rownum, Snapshot snapshot,
							  TupleTableSlot *slot);
extern RowFetchState RowFetchColumns(Relation rel, uint64 rownum, Snapshot snapshot,
									 TupleTableSlot *slot, const bool *needed);
extern RowFetchState RowFetchIndexed(Relation rel, uint64 rownum,
									 Snapshot snapshot, TupleTableSlot *slot,
									 const bool *needed, bool first_call);
extern bool RowChainFetch(Relation rel, ItemPointer copy, Snapshot snapshot,
						  TupleTableSlot *slot);
extern bool MovedRowLatestVisible(Relation rel, ItemPointer phys,
								  Snapshot snapshot, ItemPointer tid);

#endif							/* ROW_FETCH_H */
