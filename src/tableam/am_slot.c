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
 * returns them.
 *
 * A slot can also be filled lazily (ColstoreSlotStoreLazy): the sequential
 * scan stores only the position of its row, and the attributes are fetched
 * through a callback when the executor first asks for them
 * (slot_getsomeattrs, which asks for a prefix of the attributes).  That is
 * what keeps a scan from decoding the chunks of columns a query never
 * reads.  Everything that needs all values (materialize, copying the
 * slot's tuple) fetches the rest first; once materialized, the slot no
 * longer refers to its source.  The source's data must stay valid while
 * the slot holds the row, which the table AM contract guarantees: a scan's
 * row is valid until the next call on the scan; the scan also checks that
 * a lazy row still points at the chunks it was read from.
 *
 * The scheme relies on TTSOpsColstore being a distinct ops struct: the
 * executor's TTS_IS_VIRTUAL() tests compare with &TTSOpsVirtual, so a
 * colstore slot is never mistaken for a plain virtual slot whose values
 * are all present.
 *
 * The slot's first part, the row's inserter and xmax, and the ops struct
 * itself are storage/row_slot.c's, so that storage and mvcc can record
 * the inserter of the rows they store; this file fills the ops struct.
 *
 * IDENTIFICATION
 *	  src/tableam/am_slot.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/sysattr.h"
#include "access/transam.h"
#include "access/xact.h"
#include "executor/tuptable.h"

#include "tableam/am_slot.h"

typedef struct ColstoreTupleTableSlot
{
	ColstoreRowSlot row;		/* the virtual slot, the row's xmin/cmin/xmax */
	/* lazy source: fills attributes [tts_nvalid, natts) of the row, or NULL */
	ColstoreSlotFill fill;
	void	   *fill_arg;
	int			fill_pos;
	uint32		fill_generation;
} ColstoreTupleTableSlot;

static Datum
ColstoreSlotGetSysAttr(TupleTableSlot *slot, int attnum, bool *isnull)
{
	ColstoreTupleTableSlot *cslot = (ColstoreTupleTableSlot *) slot;

	*isnull = false;
	switch (attnum)
	{
		case MinTransactionIdAttributeNumber:
			if (!TransactionIdIsValid(cslot->row.xmin))
				break;
			return TransactionIdGetDatum(cslot->row.xmin);
		case MaxTransactionIdAttributeNumber:
			return TransactionIdGetDatum(cslot->row.xmax);
		case MinCommandIdAttributeNumber:
		case MaxCommandIdAttributeNumber:
			if (!TransactionIdIsValid(cslot->row.xmin))
				break;
			return CommandIdGetDatum(cslot->row.cmin);
		default:
			break;
	}
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("this system column is not available for this row of a colstore table")));
	return (Datum) 0;			/* keep compiler quiet */
}

#if PG_SLOT_TELLS_CURRENT_XACT
/* Was the slot's row inserted by this transaction?  (17's RI triggers ask.) */
static bool
ColstoreSlotIsCurrentXactTuple(TupleTableSlot *slot)
{
	bool		isnull;
	Datum		xmin = ColstoreSlotGetSysAttr(slot, MinTransactionIdAttributeNumber, &isnull);

	return TransactionIdIsCurrentTransactionId(DatumGetTransactionId(xmin));
}
#endif

static void
ColstoreSlotClear(TupleTableSlot *slot)
{
	ColstoreTupleTableSlot *cslot = (ColstoreTupleTableSlot *) slot;

	cslot->row.xmin = InvalidTransactionId;
	cslot->row.xmax = InvalidTransactionId;
	cslot->fill = NULL;
	TTSOpsVirtual.clear(slot);
}

/* Fetch attributes up to natts from the lazy source. */
static void
ColstoreSlotGetSomeAttrs(TupleTableSlot *slot, int natts)
{
	ColstoreTupleTableSlot *cslot = (ColstoreTupleTableSlot *) slot;

	if (cslot->fill == NULL)
		elog(ERROR, "colstore slot has no source to fetch attributes from");
	natts = Min(natts, slot->tts_tupleDescriptor->natts);
	if (natts <= slot->tts_nvalid)
		return;
	cslot->fill(cslot->fill_arg, cslot->fill_pos, cslot->fill_generation,
				slot, slot->tts_nvalid, natts);
	slot->tts_nvalid = natts;
}

/* Fetch every attribute not fetched yet. */
static inline void
FetchAll(TupleTableSlot *slot)
{
	if (slot->tts_nvalid < slot->tts_tupleDescriptor->natts)
		ColstoreSlotGetSomeAttrs(slot, slot->tts_tupleDescriptor->natts);
}

static void
ColstoreSlotMaterialize(TupleTableSlot *slot)
{
	ColstoreTupleTableSlot *cslot = (ColstoreTupleTableSlot *) slot;

	if (!TTS_EMPTY(slot))
		FetchAll(slot);
	cslot->fill = NULL;
	TTSOpsVirtual.materialize(slot);
}

/*
 * Copy src's values into slot (a colstore slot).  The values are copied by
 * the virtual slot's routine, which fetches all of a lazy source's
 * attributes first; the row's TID and table come along, as in a heap
 * slot's copy (logical replication's apply worker locks the row it found
 * through its copy), and so does the row's inserter when src is a colstore
 * slot too, so xmin stays selectable from the copy.
 */
static void
ColstoreSlotCopySlot(TupleTableSlot *slot, TupleTableSlot *src)
{
	ColstoreTupleTableSlot *cslot = (ColstoreTupleTableSlot *) slot;

	TTSOpsVirtual.copyslot(slot, src);
	/* the row's identity too, as heap slots' copies keep t_self */
	slot->tts_tid = src->tts_tid;
	slot->tts_tableOid = src->tts_tableOid;
	if (TTS_IS_COLSTORE(src))
	{
		ColstoreTupleTableSlot *csrc = (ColstoreTupleTableSlot *) src;

		cslot->row.xmin = csrc->row.xmin;
		cslot->row.cmin = csrc->row.cmin;
		cslot->row.xmax = csrc->row.xmax;
	}
}

/*
 * A heap tuple copy of the row, carrying the row's TID and table OID as a
 * heap slot's copy does: ANALYZE sorts its sample by t_self, which is where
 * the correlation statistic (and so index and pruning costs) comes from.
 */
static HeapTuple
ColstoreSlotCopyHeapTuple(TupleTableSlot *slot)
{
	HeapTuple	tuple;

	FetchAll(slot);
	tuple = TTSOpsVirtual.copy_heap_tuple(slot);
	tuple->t_self = slot->tts_tid;
	tuple->t_tableOid = slot->tts_tableOid;
	return tuple;
}

#if PG_MINIMAL_TUPLE_HAS_EXTRA
static MinimalTuple
ColstoreSlotCopyMinimalTuple(TupleTableSlot *slot, Size extra)
{
	FetchAll(slot);
	return TTSOpsVirtual.copy_minimal_tuple(slot, extra);
}
#else
static MinimalTuple
ColstoreSlotCopyMinimalTuple(TupleTableSlot *slot)
{
	FetchAll(slot);
	return TTSOpsVirtual.copy_minimal_tuple(slot);
}
#endif

/* Build TTSOpsColstore from TTSOpsVirtual; called from _PG_init. */
void
ColstoreSlotOpsInit(void)
{
	TTSOpsColstore = TTSOpsVirtual;
	TTSOpsColstore.base_slot_size = sizeof(ColstoreTupleTableSlot);
	TTSOpsColstore.getsysattr = ColstoreSlotGetSysAttr;
#if PG_SLOT_TELLS_CURRENT_XACT
	TTSOpsColstore.is_current_xact_tuple = ColstoreSlotIsCurrentXactTuple;
#endif
	TTSOpsColstore.clear = ColstoreSlotClear;
	TTSOpsColstore.getsomeattrs = ColstoreSlotGetSomeAttrs;
	TTSOpsColstore.materialize = ColstoreSlotMaterialize;
	TTSOpsColstore.copyslot = ColstoreSlotCopySlot;
	TTSOpsColstore.copy_heap_tuple = ColstoreSlotCopyHeapTuple;
	TTSOpsColstore.copy_minimal_tuple = ColstoreSlotCopyMinimalTuple;
}

/*
 * ColstoreSlotStoreLazy
 *		Store a row whose attributes fill(arg, pos, generation, slot, from,
 *		to) will write into slot->tts_values/tts_isnull[from .. to - 1] when
 *		they are first needed.  The slot must be a colstore slot, cleared.
 */
void
ColstoreSlotStoreLazy(TupleTableSlot *slot, ColstoreSlotFill fill, void *arg,
					  int pos, uint32 generation)
{
	ColstoreTupleTableSlot *cslot = (ColstoreTupleTableSlot *) slot;

	Assert(TTS_IS_COLSTORE(slot) && TTS_EMPTY(slot));
	cslot->fill = fill;
	cslot->fill_arg = arg;
	cslot->fill_pos = pos;
	cslot->fill_generation = generation;
	slot->tts_flags &= ~TTS_FLAG_EMPTY;
	slot->tts_nvalid = 0;
}
