/*-------------------------------------------------------------------------
 *
 * row_slot.c
 *	  Recording a row's inserter and xmax in colstore's tuple slot.
 *
 * Storage (the write buffer, small inserts) and mvcc (row fetches) store
 * rows in whatever slot the executor gives them; in a colstore slot they
 * also record who inserted the row and its heap tuple's xmax, which the
 * slot returns as system columns (tableam/am_slot.c).  The ops struct is
 * defined here, so that storage can recognise a colstore slot, and filled
 * by tableam/am_slot.c (ColstoreSlotOpsInit, from _PG_init).
 *
 * IDENTIFICATION
 *	  src/storage/row_slot.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"

#include "storage/row_slot.h"

TupleTableSlotOps TTSOpsColstore;

/* Record the row's inserter in slot, if it is a colstore slot. */
void
ColstoreSlotSetInsertInfo(TupleTableSlot *slot, TransactionId xmin,
						  CommandId cmin)
{
	if (TTS_IS_COLSTORE(slot))
	{
		ColstoreRowSlot *cslot = (ColstoreRowSlot *) slot;

		cslot->xmin = xmin;
		cslot->cmin = cmin;
		cslot->xmax = InvalidTransactionId;
	}
}

/*
 * ColstoreSlotSetXmax
 *		Record the raw xmax of the row's heap tuple (its deleter, updater or
 *		locker) for the xmax system column; call after
 *		ColstoreSlotSetInsertInfo, which clears it.  Other slot types ignore it.
 */
void
ColstoreSlotSetXmax(TupleTableSlot *slot, TransactionId xmax)
{
	if (TTS_IS_COLSTORE(slot))
		((ColstoreRowSlot *) slot)->xmax = xmax;
}
