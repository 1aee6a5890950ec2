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

#include "tableam/am_scan.h"

extern const CustomScanMethods *ColstoreScanPlanMethods(void);
extern void ColstoreScanExecInit(void);
extern void ColstoreScanExplainCounters(const ColstoreScanCounters *c, ExplainState *es);

#endif							/* CSCAN_EXEC_H */
