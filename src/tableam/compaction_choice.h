/*-------------------------------------------------------------------------
 *
 * compaction_choice.h
 *	  Which row groups compaction rewrites.
 *
 * IDENTIFICATION
 *	  src/tableam/compaction_choice.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COMPACTION_CHOICE_H
#define COMPACTION_CHOICE_H

#include "utils/rel.h"

extern int *CompactionGroupsToRewrite(Relation rel, TransactionId oldest_xmin,
									  int row_group_size, bool worker, bool quiet,
									  int *ngroups, int *nrewritten, int *nmerged);
extern bool CompactionRetiredPending(Relation rel);
extern uint64 CompactionMergeableRows(Relation rel);

#endif							/* COMPACTION_CHOICE_H */
