/*-------------------------------------------------------------------------
 *
 * scan_order.h
 *	  The order an ordered ColstoreScan promises, kept at run time.
 *
 * IDENTIFICATION
 *	  src/cscan/scan_order.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCAN_ORDER_H
#define SCAN_ORDER_H

#include "access/tableam.h"
#include "executor/tuptable.h"
#include "utils/tuplesort.h"

#include "tableam/scan_engine.h"

typedef struct ScanOrder
{
	AttrNumber	attno;			/* column the rows come out ordered by */
	bool		checked;		/* the scan's row groups were looked at */
	bool		sorting;		/* ... and were not in order: rows are sorted */
	bool		ever_sorted;	/* some scan of the node sorted (EXPLAIN) */
	bool		random_access;	/* the plan may mark, restore or go back */
	Tuplesortstate *sort;		/* all rows, sorted; NULL before the first row
								 * of a sorting scan */
	TupleTableSlot *sort_slot;
	ColstoreScanPosition mark;
} ScanOrder;

extern ScanOrder *ScanOrderCreate(AttrNumber attno, bool random_access);
extern bool ScanOrderNext(ScanOrder *order, TableScanDesc scan,
						  TupleTableSlot *slot);
extern void ScanOrderMark(ScanOrder *order, TableScanDesc scan);
extern void ScanOrderRestore(ScanOrder *order, TableScanDesc scan,
							 TupleDesc desc);
extern void ScanOrderReset(ScanOrder *order);
extern void ScanOrderEnd(ScanOrder *order);

#endif							/* SCAN_ORDER_H */
