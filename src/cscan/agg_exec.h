/*-------------------------------------------------------------------------
 *
 * agg_exec.h
 *	  Executor side of ColstoreAgg.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_exec.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AGG_EXEC_H
#define AGG_EXEC_H

#include "nodes/extensible.h"

extern const CustomScanMethods *ColstoreAggPlanMethods(void);
extern void ColstoreAggExecInit(void);

#endif							/* AGG_EXEC_H */
