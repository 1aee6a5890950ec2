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

#include "storage/rowgroup_format.h"

/* Outcome of RowFetch beyond visible/not visible. */
typedef enum RowFetchState
{
	ROW_NOT_FOUND,				/* no such row (gap, never written) */
	ROW_INVISIBLE,				/* exists, snapshot does not see it */
	ROW_DEAD,					/* dead to everyone (aborted inserter, or a
								 * reserved row never written) */
	ROW_VISIBLE
} RowFetchState;

/*
 * A fetch's row-group row left undecoded: RowFetchIndexed, given one, calls
 * store(defer, slot) with the slot cleared and the fields below set instead
 * of decoding the row's values, then sets the slot's TID, table, inserter
 * and xmax as for a decoded row.  store must leave the slot holding a row
 * whose values come later (a lazily filled colstore slot), and those come
 * from RowGroupRowDecode with the same fields.  Only a colstore slot is
 * left undecoded; any other slot gets its values at once.
 */
typedef struct RowFetchDeferral
{
	void		(*store) (struct RowFetchDeferral *defer, TupleTableSlot *slot);
	RowGroupDirEntry entry;		/* the row's group, as the directory had it */
	uint32		dir_index;		/* its place there (for error reports) */
	uint32		chunkno;		/* the row's chunk */
	uint32		row;			/* the row within the chunk */
} RowFetchDeferral;

extern void StoreHeapVersion(Relation rel, HeapTuple tuple, TupleTableSlot *slot);
extern RowFetchState RowFetch(Relation rel, uint64 rownum, Snapshot snapshot,
							  TupleTableSlot *slot);
extern RowFetchState RowFetchColumns(Relation rel, uint64 rownum, Snapshot snapshot,
									 TupleTableSlot *slot, const bool *needed);
extern RowFetchState RowFetchIndexed(Relation rel, uint64 rownum,
									 Snapshot snapshot, TupleTableSlot *slot,
									 const bool *needed, bool first_call,
									 RowFetchDeferral *defer);
extern void RowGroupRowDecode(Relation rel, const RowFetchDeferral *defer,
							  TupleDesc desc, Datum *values, bool *isnull,
							  int from, int to);
extern bool RowChainFetch(Relation rel, ItemPointer copy, Snapshot snapshot,
						  TupleTableSlot *slot);
extern bool MovedRowLatestVisible(Relation rel, ItemPointer phys, ItemPointer row,
								  TransactionId mover, Snapshot snapshot,
								  ItemPointer tid);

#endif							/* ROW_FETCH_H */
