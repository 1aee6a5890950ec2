/*-------------------------------------------------------------------------
 *
 * am_slot.c
 *	  The tuple slot type of colstore tables: a virtual slot that also
 *	  knows the inserting transaction and command of its row.
 *
 * Rows come out of colstore as arrays of datums, so a virtual slot is the
 * natural container; but virtual slots have no system columns besides ctid
 * and tableoid, and SQL (SELECT xmin ...) and the executor (the REPEATABLE
 * READ check of INSERT ... ON CONFLICT DO NOTHING) ask for xmin.  This slot
 * type is the virtual one with room for xmin/cmin and a getsysattr that
 * returns them.  A virtual slot never needs deforming, so the executor's
 * fast paths for virtual slots do not depend on the ops pointer.
 *
 * IDENTIFICATION
 *	  src/tableam/am_slot.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "access/transam.h"
#include "executor/tuptable.h"

#include "tableam/am_slot.h"

typedef struct ColstoreTupleTableSlot
{
	VirtualTupleTableSlot base;
	TransactionId xmin;			/* inserter, or Invalid if unknown */
	CommandId	cmin;
} ColstoreTupleTableSlot;

TupleTableSlotOps TTSOpsColstore;

static Datum
ColstoreSlotGetSysAttr(TupleTableSlot *slot, int attnum, bool *isnull)
{
	ColstoreTupleTableSlot *cslot = (ColstoreTupleTableSlot *) slot;

	*isnull = false;
	switch (attnum)
	{
		case MinTransactionIdAttributeNumber:
			if (!TransactionIdIsValid(cslot->xmin))
				break;
			return TransactionIdGetDatum(cslot->xmin);
		case MaxTransactionIdAttributeNumber:
			return TransactionIdGetDatum(InvalidTransactionId);
		case MinCommandIdAttributeNumber:
		case MaxCommandIdAttributeNumber:
			if (!TransactionIdIsValid(cslot->xmin))
				break;
			return CommandIdGetDatum(cslot->cmin);
		default:
			break;
	}
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("this system column is not available for this row of a colstore table")));
	return (Datum) 0;			/* keep compiler quiet */
}

static void
ColstoreSlotClear(TupleTableSlot *slot)
{
	ColstoreTupleTableSlot *cslot = (ColstoreTupleTableSlot *) slot;

	cslot->xmin = InvalidTransactionId;
	TTSOpsVirtual.clear(slot);
}

/* Build TTSOpsColstore from TTSOpsVirtual; called from _PG_init. */
void
ColstoreSlotOpsInit(void)
{
	TTSOpsColstore = TTSOpsVirtual;
	TTSOpsColstore.base_slot_size = sizeof(ColstoreTupleTableSlot);
	TTSOpsColstore.getsysattr = ColstoreSlotGetSysAttr;
	TTSOpsColstore.clear = ColstoreSlotClear;
}

/* Record the row's inserter in slot, if it is a colstore slot. */
void
ColstoreSlotSetInsertInfo(TupleTableSlot *slot, TransactionId xmin,
						  CommandId cmin)
{
	if (TTS_IS_COLSTORE(slot))
	{
		ColstoreTupleTableSlot *cslot = (ColstoreTupleTableSlot *) slot;

		cslot->xmin = xmin;
		cslot->cmin = cmin;
	}
}
