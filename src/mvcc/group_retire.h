/*-------------------------------------------------------------------------
 *
 * group_retire.h
 *	  Which row groups have lost their rows: counting a group's deleted
 *	  rows, and retiring the groups all of whose rows VACUUM has pruned.
 *
 * IDENTIFICATION
 *	  src/mvcc/group_retire.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GROUP_RETIRE_H
#define GROUP_RETIRE_H

#include "storage/buf.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"

/*
 * colstore.compact() rewrites a row group less than half deleted once at
 * least this share of its rows, and at least this many, are deleted
 * (GroupRewritePays).
 */
#define GROUP_REWRITE_MIN_SHARE	0.2
#define GROUP_REWRITE_MIN_ROWS	64

extern bool GroupRewritePays(uint32 nrows, uint32 deleted, bool automatic);
extern uint32 GroupCountDeleted(Relation rel, const RowGroupDirEntry *group,
								TransactionId oldest_xmin, BufferAccessStrategy strategy,
								uint32 *pruned);
extern uint32 GroupReclaimRetire(Relation rel, TransactionId oldest_xmin,
								 BufferAccessStrategy strategy, double *sparse_rows,
								 double *quiet_rows);

#endif							/* GROUP_RETIRE_H */
