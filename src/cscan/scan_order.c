/*-------------------------------------------------------------------------
 *
 * scan_order.c
 *	  The order an ordered ColstoreScan promises, kept at run time.
 *
 * The planner offers a ColstoreScan whose rows come out in ascending order
 * of a column (cscan_path.c) when the table holds that column in order
 * (chunk_order.c).  Rows may arrive between planning and execution, so the
 * executor checks the row groups its own scan will return before the first
 * row (ColstoreScanReturnsSortedBy).  If they are in order, rows come
 * straight from the scan, and a merge join's mark and restore are the
 * scan's positions.  If not, every row of the scan goes into a tuplesort
 * first (random access, so mark and restore work there too), which keeps
 * the promise at a sort's price; EXPLAIN ANALYZE says so.
 *
 * Sorted rows are copies: they carry no TID, which is why the planner
 * offers ordered paths only when the plan reads no system column but
 * tableoid.
 *
 * IDENTIFICATION
 *	  src/cscan/scan_order.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/executor.h"
#include "miscadmin.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "cscan/scan_order.h"

/* An order kept for column attno (1-based). */
ScanOrder *
ScanOrderCreate(AttrNumber attno)
{
	ScanOrder  *order = palloc0(sizeof(ScanOrder));

	order->attno = attno;
	return order;
}

/* Read every row of the scan into a tuplesort on the column, and sort. */
static void
SortAllRows(ScanOrder *order, TableScanDesc scan, TupleTableSlot *slot)
{
	TupleDesc	desc = slot->tts_tupleDescriptor;
	Form_pg_attribute att = TupleDescAttr(desc, order->attno - 1);
	TypeCacheEntry *tce = lookup_type_cache(att->atttypid, TYPECACHE_LT_OPR);
	Oid			sort_op = tce->lt_opr;
	Oid			collation = att->attcollation;
	bool		nulls_first = false;

	if (!OidIsValid(sort_op))
		elog(ERROR, "no ordering operator for type %u", att->atttypid);
	if (order->sort_slot == NULL)
		order->sort_slot = MakeSingleTupleTableSlot(desc, &TTSOpsMinimalTuple);
	order->sort = tuplesort_begin_heap(desc, 1, &order->attno, &sort_op,
									   &collation, &nulls_first, work_mem,
									   NULL, TUPLESORT_RANDOMACCESS);
	while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		CHECK_FOR_INTERRUPTS();
		tuplesort_puttupleslot(order->sort, slot);
	}
	tuplesort_performsort(order->sort);
	order->sorted = true;
	order->ever_sorted = true;
}

/*
 * ScanOrderNext
 *		The scan's next row in the promised order, stored in slot (the scan
 *		slot); false at the end.
 */
bool
ScanOrderNext(ScanOrder *order, TableScanDesc scan, TupleTableSlot *slot)
{
	if (!order->checked)
	{
		order->sorting = !ColstoreScanReturnsSortedBy(scan, order->attno - 1);
		order->checked = true;
	}
	if (!order->sorting)
		return table_scan_getnextslot(scan, ForwardScanDirection, slot);
	if (!order->sorted)
		SortAllRows(order, scan, slot);
	if (!tuplesort_gettupleslot(order->sort, true, false, order->sort_slot, NULL))
	{
		ExecClearTuple(slot);
		return false;
	}
	ExecCopySlot(slot, order->sort_slot);
	slot->tts_tableOid = RelationGetRelid(scan->rs_rd);
	return true;
}

/* Merge join's mark: the row returned last. */
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
	order->checked = order->sorting = order->sorted = false;
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
