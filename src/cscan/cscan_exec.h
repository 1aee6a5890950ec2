/*-------------------------------------------------------------------------
 *
 * cscan_exec.h
 *	  Executor side of the colstore custom scan.
 *
 * IDENTIFICATION
 *	  src/cscan/cscan_exec.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef CSCAN_EXEC_H
#define CSCAN_EXEC_H

#include "commands/explain.h"
#include "nodes/extensible.h"
#include "nodes/plannodes.h"
#include "nodes/value.h"

#include "tableam/scan_engine.h"

/*
 * A ColstoreScan plan's custom_private: the positions in custom_exprs of
 * the clauses its batch filter decides (an integer list), the column its
 * rows come out in ascending order of (0: no order promised), and its key
 * range: NIL, or (column, low parameter, high parameter) as Integers when
 * the scan runs under a key-range join and returns only the rows whose
 * column lies between the values of those two PARAM_EXEC parameters.  The
 * comparisons are built by the executor, not the planner: the parameters
 * are set by the join node above, and the planner's parameter bookkeeping
 * (extParam, chgParam) must not see them; the join rescans the scans
 * itself each time it sets them.
 */
static inline List *
ColstoreScanPlanPrivate(List *filter_positions, AttrNumber order_attno, List *key_range)
{
	return list_make3(filter_positions, makeInteger(order_attno), key_range);
}

static inline List *
ColstoreScanPlanFilterPositions(const CustomScan *cscan)
{
	return (List *) linitial(cscan->custom_private);
}

static inline AttrNumber
ColstoreScanPlanOrderColumn(const CustomScan *cscan)
{
	return (AttrNumber) intVal(lsecond(cscan->custom_private));
}

static inline List *
ColstoreScanPlanKeyRange(const CustomScan *cscan)
{
	return (List *) lthird(cscan->custom_private);
}

struct JoinFilter;

extern const CustomScanMethods *ColstoreScanPlanMethods(void);
extern bool IsColstoreScanState(PlanState *ps);
extern void ColstoreScanSetJoinFilter(PlanState *ps, struct JoinFilter *filter);
extern void ColstoreScanSetDistinct(PlanState *ps);
extern void ColstoreScanSkipBelowOuter(PlanState *inner, PlanState *outer, Oid type);
extern void ColstoreScanSkipBelowJoinOuter(PlanState *inner, PlanState *join,
										   AttrNumber outer_attno, Oid type);
extern AttrNumber ColstoreScanOrderAttno(PlanState *ps);
extern void ColstoreScanExecInit(void);
extern void ColstoreExplainClauses(const char *label, List *clauses,
								   CustomScanState *node, List *ancestors,
								   ExplainState *es);
extern void ColstoreScanExplainCounters(const ColstoreScanCounters *c, ExplainState *es);

#endif							/* CSCAN_EXEC_H */
