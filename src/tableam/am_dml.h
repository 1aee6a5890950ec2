/*-------------------------------------------------------------------------
 *
 * am_dml.h
 *	  Table AM callbacks of colstore for DELETE, UPDATE and row locks.
 *
 * IDENTIFICATION
 *	  src/tableam/am_dml.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AM_DML_H
#define AM_DML_H

#include "access/tableam.h"
#include "pg_compat.h"

extern TM_Result colstore_tuple_delete(Relation rel, ItemPointer tid,
									   CommandId cid, Snapshot snapshot,
									   Snapshot crosscheck, bool wait,
									   TM_FailureData *tmfd, bool changingPart);
extern TM_Result colstore_tuple_update(Relation rel, ItemPointer otid,
									   TupleTableSlot *slot, CommandId cid,
									   Snapshot snapshot, Snapshot crosscheck,
									   bool wait, TM_FailureData *tmfd,
									   LockTupleMode *lockmode,
									   TU_UpdateIndexes *update_indexes);
extern TM_Result colstore_tuple_lock(Relation rel, ItemPointer tid,
									 Snapshot snapshot, TupleTableSlot *slot,
									 CommandId cid, LockTupleMode mode,
									 LockWaitPolicy wait_policy, uint8 flags,
									 TM_FailureData *tmfd);
extern void colstore_tuple_get_latest_tid(TableScanDesc scan, ItemPointer tid);

#endif							/* AM_DML_H */
