/*-------------------------------------------------------------------------
 *
 * agg_sorted.h
 *	  ColstoreAgg's sorted (streaming) grouping: groups closed as the keys
 *	  change in a scan held in key order (agg_sorted.c, agg_sorted_path.c).
 *
 * IDENTIFICATION
 *	  src/cscan/agg_sorted.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AGG_SORTED_H
#define AGG_SORTED_H

#include "postgres.h"

#include "nodes/execnodes.h"
#include "nodes/pathnodes.h"
#include "utils/rel.h"
#include "utils/snapshot.h"

#include "cscan/agg_fold.h"
#include "cscan/agg_groups.h"
#include "cscan/chunk_pruning.h"
#include "tableam/scan_engine.h"

typedef struct SortedAgg SortedAgg;

/* executor (agg_sorted.c) */
extern SortedAgg *SortedAggBegin(Relation rel, Snapshot snapshot,
								 ChunkPruner *pruner, ExprContext *econtext,
								 AggFold *aggs, int naggs,
								 const GroupKeySpec *keys, int nkeys,
								 MemoryContext parent);
extern bool SortedAggNext(SortedAgg *sa, uint32 *group, Datum *key_values,
						  bool *key_nulls);
extern bool SortedAggFellBack(const SortedAgg *sa);
extern void SortedAggAddCounters(const SortedAgg *sa,
								 ColstoreScanCounters *counters);
extern void SortedAggEnd(SortedAgg *sa, ColstoreScanCounters *counters);

/* planner (agg_sorted_path.c) */
extern List *SortedAggPathkeys(PlannerInfo *root, RelOptInfo *input_rel,
							   Oid relid, List *group_keys, List *group_eqops);

#endif							/* AGG_SORTED_H */
