/*-------------------------------------------------------------------------
 *
 * join_filter.h
 *	  Run-time join filters: a ColstoreScan that is the probe (outer) side
 *	  of a hash join drops, a batch at a time, the rows whose join keys the
 *	  hash table cannot hold (join_filter.c).
 *
 * IDENTIFICATION
 *	  src/cscan/join_filter.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef JOIN_FILTER_H
#define JOIN_FILTER_H

#include "access/relscan.h"
#include "nodes/execnodes.h"

typedef struct JoinFilter JoinFilter;

extern bool JoinFilterApply(JoinFilter *filter, TableScanDesc scan, int nrows,
							bool *selected);
extern void JoinFilterReset(JoinFilter *filter);
extern List *JoinFilterColumns(const JoinFilter *filter);
extern uint64 JoinFilterRowsRemoved(const JoinFilter *filter);
extern void JoinFilterInit(void);

/* cscan_exec.c: the ColstoreScan side */
extern bool IsColstoreScanState(PlanState *ps);
extern void ColstoreScanSetJoinFilter(PlanState *ps, JoinFilter *filter);
extern void ColstoreScanKeepJoinFilters(PlanState *ps);

/* key_range_exec.c */
extern bool IsKeyRangeJoinState(PlanState *ps);

#endif							/* JOIN_FILTER_H */
