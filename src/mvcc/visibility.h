/*-------------------------------------------------------------------------
 *
 * visibility.h
 *	  Visibility of row groups and reservations for every snapshot type.
 *
 * IDENTIFICATION
 *	  src/mvcc/visibility.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef VISIBILITY_H
#define VISIBILITY_H

#include "mvcc/row_state.h"
#include "storage/delete_log.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"
#include "utils/snapshot.h"

extern bool RowGroupIsVisible(const RowGroupDirEntry *entry, Snapshot snapshot);
extern bool RowGroupInsertCommitted(const RowGroupDirEntry *entry);
extern bool RowGroupInsertAborted(const RowGroupDirEntry *entry);
extern void RowGroupCheckConflictOut(Relation rel, const RowGroupDirEntry *entry,
									 Snapshot snapshot);
extern RowLiveness DeleteRunLiveness(Relation rel, const DeleteRun *run,
									 Snapshot snapshot, TransactionId oldest_xmin);

#endif							/* VISIBILITY_H */
