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

#include "tableam/am_scan.h"

/*
 * A ColstoreScan plan's custom_private: the positions in custom_exprs of
 * the clauses its batch filter decides (an integer list), and the column
 * its rows come out in ascending order of (0: no order promised).
 */
static inline List *
ColstoreScanPlanPrivate(List *filter_positions, AttrNumber order_attno)
{
	return list_make2(filter_positions, makeInteger(order_attno));
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

extern const CustomScanMethods *ColstoreScanPlanMethods(void);
extern void ColstoreScanExecInit(void);
extern void ColstoreScanExplainCounters(const ColstoreScanCounters *c, ExplainState *es);

#endif							/* CSCAN_EXEC_H */
