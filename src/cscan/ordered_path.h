/*-------------------------------------------------------------------------
 *
 * ordered_path.h
 *	  Which orders a ColstoreScan can promise a query (ordered_path.c).
 *
 * IDENTIFICATION
 *	  src/cscan/ordered_path.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_PATH_H
#define ORDERED_PATH_H

#include "nodes/pathnodes.h"

extern List *ColstoreOrderedScanKeys(PlannerInfo *root, RelOptInfo *rel,
									 Oid relid, List **attnos);

#endif							/* ORDERED_PATH_H */
