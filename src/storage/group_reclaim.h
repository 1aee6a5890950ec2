/*-------------------------------------------------------------------------
 *
 * group_reclaim.h
 *	  VACUUM's freeing of whole row groups: giving the space of the groups
 *	  no backend can read any more to new heap tuples.
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

extern ItemPointerData *GroupSortedCopies(Relation rel, const RowGroupDirEntry *group,
										  uint32 *ndeleted);
extern BlockNumber GroupReclaimFree(Relation rel, TransactionId oldest_xmin,
									BufferAccessStrategy strategy, double *freed_rows);

#endif							/* GROUP_RECLAIM_H */
