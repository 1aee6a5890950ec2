/*-------------------------------------------------------------------------
 *
 * semi_join_distinct.h
 *	  Dropping repeated rows of the ColstoreScan under a semi or anti hash
 *	  join's hash table (semi_join_distinct.c).
 *
 * IDENTIFICATION
 *	  src/cscan/semi_join_distinct.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SEMI_JOIN_DISTINCT_H
#define SEMI_JOIN_DISTINCT_H

#include "access/relscan.h"
#include "access/tupdesc.h"
#include "nodes/execnodes.h"

typedef struct DistinctFilter DistinctFilter;

extern DistinctFilter *DistinctFilterCreate(TupleDesc desc, const bool *needed);
extern void DistinctFilterApply(DistinctFilter *filter, TableScanDesc scan, int nrows,
								bool *selected);
extern void DistinctFilterReset(DistinctFilter *filter);
extern uint64 DistinctFilterRowsRemoved(const DistinctFilter *filter);
extern void SemiJoinDistinctLink(HashJoinState *hj);

#endif							/* SEMI_JOIN_DISTINCT_H */
