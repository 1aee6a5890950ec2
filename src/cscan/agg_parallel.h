/*-------------------------------------------------------------------------
 *
 * agg_parallel.h
 *	  Parallel ColstoreAgg: participants fold their share of the table, and
 *	  the last one to finish merges everybody's groups and returns them.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_parallel.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AGG_PARALLEL_H
#define AGG_PARALLEL_H

#include "postgres.h"

#include "access/relscan.h"
#include "utils/dsa.h"
#include "utils/snapshot.h"

#include "cscan/agg_fold.h"
#include "cscan/agg_groups.h"
#include "tableam/scan_engine.h"

typedef struct AggShared AggShared;

extern Size AggParallelEstimate(Relation rel, Snapshot snapshot);
extern void AggParallelInitialize(AggShared *shared, Relation rel,
								  Snapshot snapshot);
extern void AggParallelReinitialize(AggShared *shared, Relation rel,
									dsa_area *dsa);
extern ParallelTableScanDesc AggParallelScan(AggShared *shared);
extern bool AggParallelAttach(AggShared *shared);
extern bool AggParallelFinish(AggShared *shared, dsa_area *dsa,
							  GroupTable *groups, AggFold *aggs, int naggs,
							  const ColstoreScanCounters *counters);
extern void AggParallelAddCounters(AggShared *shared, ColstoreScanCounters *totals);

#endif							/* AGG_PARALLEL_H */
