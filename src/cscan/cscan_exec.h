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

#include "nodes/extensible.h"

extern const CustomScanMethods *ColstoreScanPlanMethods(void);
extern void ColstoreScanExecInit(void);

#endif							/* CSCAN_EXEC_H */
