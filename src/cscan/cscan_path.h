/*-------------------------------------------------------------------------
 *
 * cscan_path.h
 *	  Planner side of the colstore custom scan.
 *
 * IDENTIFICATION
 *	  src/cscan/cscan_path.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef CSCAN_PATH_H
#define CSCAN_PATH_H

#include "nodes/pathnodes.h"
#include "sqlapi/options.h"

extern double ColstoreScanShareRead(PlannerInfo *root, RelOptInfo *rel,
									int *npruning);
extern double ColstoreParallelDivisor(int workers);
extern bool ColstoreTableOptions(Oid relid, ColstoreOptions *opts);
extern void ColstoreScanPathInit(void);

#endif							/* CSCAN_PATH_H */
