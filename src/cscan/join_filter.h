/*-------------------------------------------------------------------------
 *
 * join_filter.h
 *	  Run-time join filters: a ColstoreScan that is the probe (outer) side
 *	  of a hash join drops, a batch at a time, the rows whose join keys the
 *	  hash table cannot hold (join_filter.c).
 *
 * IDENTIFICATION
 *	  src/cscan/join_filter.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef JOIN_FILTER_H
#define JOIN_FILTER_H

#include "access/relscan.h"
#include "nodes/execnodes.h"

typedef struct JoinFilter JoinFilter;

/* colstore.enable_join_filter */
extern bool colstore_enable_join_filter;

extern bool JoinFilterApply(JoinFilter *filter, TableScanDesc scan, int nrows,
							bool *selected);
extern void JoinFilterReset(JoinFilter *filter);
extern List *JoinFilterColumns(const JoinFilter *filter);
extern uint64 JoinFilterRowsRemoved(const JoinFilter *filter);
extern void JoinFilterInit(void);
extern void JoinFilterDefineSettings(void);

#endif							/* JOIN_FILTER_H */
