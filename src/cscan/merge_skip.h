/*-------------------------------------------------------------------------
 *
 * merge_skip.h
 *	  Merge joins whose inner ColstoreScan skips the rows below the outer
 *	  row's key (merge_skip.c).
 *
 * IDENTIFICATION
 *	  src/cscan/merge_skip.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MERGE_SKIP_H
#define MERGE_SKIP_H

#include "nodes/execnodes.h"

/* colstore.enable_merge_skip */
extern bool colstore_enable_merge_skip;

extern void MergeSkipLink(PlanState *ps);
extern void MergeSkipDefineSettings(void);

#endif							/* MERGE_SKIP_H */
