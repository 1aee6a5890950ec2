/*-------------------------------------------------------------------------
 *
 * group_reclaim.h
 *	  VACUUM's reclaiming of whole row groups: retiring the groups whose
 *	  rows are all gone, and giving their space to new heap tuples.
 *
 * IDENTIFICATION
 *	  src/storage/group_reclaim.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GROUP_RECLAIM_H
#define GROUP_RECLAIM_H

#include "storage/buf.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"

extern uint32 GroupCountDeleted(Relation rel, const RowGroupDirEntry *group,
								TransactionId oldest_xmin, BufferAccessStrategy strategy,
								uint32 *pruned);
extern uint32 GroupReclaimRetire(Relation rel, TransactionId oldest_xmin,
								 BufferAccessStrategy strategy, double *sparse_rows);
extern BlockNumber GroupReclaimFree(Relation rel, TransactionId oldest_xmin,
									BufferAccessStrategy strategy, double *freed_rows);

#endif							/* GROUP_RECLAIM_H */
