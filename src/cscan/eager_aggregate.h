/*-------------------------------------------------------------------------
 *
 * eager_aggregate.h
 *	  Aggregates over a join to a colstore table computed before the join
 *	  (eager_aggregate.c).
 *
 * IDENTIFICATION
 *	  src/cscan/eager_aggregate.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef EAGER_AGGREGATE_H
#define EAGER_AGGREGATE_H

#include "nodes/parsenodes.h"

/* colstore.enable_eager_aggregation */
extern bool colstore_enable_eager_aggregation;

extern bool EagerAggregateLevel(Query *q);
extern void EagerAggregateDefineSettings(void);

#endif							/* EAGER_AGGREGATE_H */
