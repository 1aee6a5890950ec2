/*-------------------------------------------------------------------------
 *
 * scan_order.c
 *	  The order an ordered ColstoreScan promises, kept at run time.
 *
 * The planner offers a ColstoreScan whose rows come out in ascending order
 * of a column (cscan_path.c) when the table holds that column in order
 * (table_order.c).  Rows may arrive between planning and execution, so the
 * executor checks the row groups its own scan will return before the first
 * row (ColstoreScanReturnsSortedBy).  If they are in order, rows come
 * straight from the scan, and a merge join's mark and restore are the
 * scan's positions.  If not, every row of the scan goes into a tuplesort
 * first (with random access when the plan may mark, restore or move
 * backward), which keeps the promise at a sort's price; EXPLAIN ANALYZE
 * says so.  Each sorted row carries its TID in an extra column, so a
 * cursor's WHERE CURRENT OF finds the row it is on.
 *
 * IDENTIFICATION
 *	  src/cscan/scan_order.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tupdesc.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "storage/itemptr.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "cscan/scan_order.h"

/*
 * ScanOrderCreate
 *		An order kept for column attno (1-based), in CurrentMemoryContext
 *		(the node's); random_access if the plan may mark, restore or scan
 *		backward (the executor's EXEC_FLAG_MARK or EXEC_FLAG_BACKWARD).
 */
ScanOrder *
ScanOrderCreate(AttrNumber attno, bool random_access)
{
	ScanOrder  *order = palloc0(sizeof(ScanOrder));

	order->attno = attno;
	order->random_access = random_access;
	return order;
}

/* The scan slot's descriptor plus a last column for the row's TID. */
static TupleDesc
SortDescriptor(TupleDesc desc)
{
	TupleDesc	sort_desc = CreateTemplateTupleDesc(desc->natts + 1);
	int			i;

	for (i = 0; i < desc->natts; i++)
		TupleDescCopyEntry(sort_desc, i + 1, desc, i + 1);
	TupleDescInitEntry(sort_desc, desc->natts + 1, "ctid", TIDOID, -1, 0);
	return sort_desc;
}

/*
 * Read every row of the scan, with its TID, into a tuplesort on the
 * column, and sort.  Errors if the type has no ordering (the planner only
 * promises orders of types that have one).
 */
static void
SortAllRows(ScanOrder *order, TableScanDesc scan, TupleTableSlot *slot)
{
	TupleDesc	desc = slot->tts_tupleDescriptor;
	int			natts = desc->natts;
	Form_pg_attribute att = TupleDescAttr(desc, order->attno - 1);
	TypeCacheEntry *tce = lookup_type_cache(att->atttypid, TYPECACHE_LT_OPR);
	Oid			sort_op = tce->lt_opr;
	Oid			collation = att->attcollation;
	bool		nulls_first = false;
	TupleDesc	sort_desc;
	TupleTableSlot *input;

	if (!OidIsValid(sort_op))
		elog(ERROR, "could not find ordering operator for type %u", att->atttypid);
	/* made once per node: rescans sort again into the same slot */
	if (order->sort_slot == NULL)
		order->sort_slot = MakeSingleTupleTableSlot(SortDescriptor(desc),
													&TTSOpsMinimalTuple);
	sort_desc = order->sort_slot->tts_tupleDescriptor;
	input = MakeSingleTupleTableSlot(sort_desc, &TTSOpsVirtual);
	order->sort = tuplesort_begin_heap(sort_desc, 1, &order->attno, &sort_op,
									   &collation, &nulls_first, work_mem, NULL,
									   order->random_access ?
									   TUPLESORT_RANDOMACCESS : TUPLESORT_NONE);
	while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		ItemPointerData tid = slot->tts_tid;

		CHECK_FOR_INTERRUPTS();
		slot_getallattrs(slot);
		ExecClearTuple(input);
		memcpy(input->tts_values, slot->tts_values, sizeof(Datum) * natts);
		memcpy(input->tts_isnull, slot->tts_isnull, sizeof(bool) * natts);
		input->tts_values[natts] = PointerGetDatum(&tid);
		input->tts_isnull[natts] = false;
		ExecStoreVirtualTuple(input);
		/* copies the values: tid may go out of scope */
		tuplesort_puttupleslot(order->sort, input);
	}
	ExecDropSingleTupleTableSlot(input);
	tuplesort_performsort(order->sort);
	order->ever_sorted = true;
}

/*
 * ScanOrderNext
 *		The scan's next row in the promised order, stored in slot (the
 *		node's virtual scan slot, whose values stay valid until the next
 *		call); false at the end.  The first call checks the scan's row
 *		groups, and if they are out of order reads and sorts all rows (in
 *		work_mem, spilling to temporary files beyond it).
 */
bool
ScanOrderNext(ScanOrder *order, TableScanDesc scan, TupleTableSlot *slot)
{
	int			natts = slot->tts_tupleDescriptor->natts;

	if (!order->checked)
	{
		order->sorting = !ColstoreScanReturnsSortedBy(scan, order->attno - 1);
		order->checked = true;
	}
	if (!order->sorting)
		return table_scan_getnextslot(scan, ForwardScanDirection, slot);
	if (order->sort == NULL)
		SortAllRows(order, scan, slot);
	if (!tuplesort_gettupleslot(order->sort, true, false, order->sort_slot, NULL))
	{
		ExecClearTuple(slot);
		return false;
	}

	/*
	 * The values point into the sort's tuple, valid until the next call (as a
	 * Sort node's are); the last column is the row's TID.
	 */
	slot_getallattrs(order->sort_slot);
	ExecClearTuple(slot);
	memcpy(slot->tts_values, order->sort_slot->tts_values, sizeof(Datum) * natts);
	memcpy(slot->tts_isnull, order->sort_slot->tts_isnull, sizeof(bool) * natts);
	ExecStoreVirtualTuple(slot);
	slot->tts_tid = *(ItemPointer) DatumGetPointer(order->sort_slot->tts_values[natts]);
	slot->tts_tableOid = RelationGetRelid(scan->rs_rd);
	return true;
}

/* Merge join's mark: the row returned last (random_access when sorting). */
void
ScanOrderMark(ScanOrder *order, TableScanDesc scan)
{
	if (order->sorting)
		tuplesort_markpos(order->sort);
	else
		ColstoreScanGetPosition(scan, &order->mark);
}

/* Merge join's restore: the next row is the one after the marked one. */
void
ScanOrderRestore(ScanOrder *order, TableScanDesc scan, TupleDesc desc)
{
	if (order->sorting)
		tuplesort_restorepos(order->sort);
	else
		ColstoreScanSetPosition(scan, &order->mark, desc);
}

/* Forget the check and the sorted rows: the scan starts over (rescan, end). */
void
ScanOrderReset(ScanOrder *order)
{
	if (order->sort != NULL)
		tuplesort_end(order->sort);
	order->sort = NULL;
	order->checked = order->sorting = false;
}

/* Release what the order holds (at the end of the node). */
void
ScanOrderEnd(ScanOrder *order)
{
	ScanOrderReset(order);
	if (order->sort_slot != NULL)
		ExecDropSingleTupleTableSlot(order->sort_slot);
	order->sort_slot = NULL;
}
