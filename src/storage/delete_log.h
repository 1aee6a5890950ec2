/*-------------------------------------------------------------------------
 *
 * delete_log.h
 *	  Per row group log of plain deletes: (xid, command id) runs of rows.
 *
 * IDENTIFICATION
 *	  src/storage/delete_log.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELETE_LOG_H
#define DELETE_LOG_H

#include "storage/buf.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"

/* The delete a run records for a row: xid Invalid when none. */
typedef struct DeleteRun
{
	TransactionId xid;			/* the deleting (sub)transaction */
	CommandId	cid;			/* its command */
	bool		moved;			/* a compaction moved the row into another row
								 * group (storage/moved_rows.c) */
} DeleteRun;

/* What DeleteLogAppend did. */
typedef enum DeleteLogResult
{
	DELETE_LOG_DONE,			/* the delete is logged */
	DELETE_LOG_CONTENDED,		/* a live run covers the row already */
	DELETE_LOG_FULL				/* the segment's page has no room, or was
								 * detached by VACUUM */
} DeleteLogResult;

extern bool DeleteLogRead(Relation rel, const RowGroupDirEntry *group,
						  uint32 first, uint32 n, DeleteRun *runs);
extern BlockNumber DeleteLogRootFind(Relation rel, const RowGroupDirEntry *group,
									 BlockNumber *deleted_root);
extern uint32 DeleteLogSegmentOf(uint32 row);
extern BlockNumber DeleteLogSegment(Relation rel, const RowGroupDirEntry *group,
									uint32 row);
extern void DeleteLogReadLeaf(Relation rel, const RowGroupDirEntry *group,
							  BlockNumber root, uint32 first, uint32 n,
							  DeleteRun *runs);
extern void DeleteLogAddPages(Relation rel, const RowGroupDirEntry *group, uint32 row);
extern DeleteLogResult DeleteLogAppend(Relation rel, const RowGroupDirEntry *group,
									   BlockNumber blkno, uint32 row,
									   TransactionId xid, CommandId cid, bool moved);
extern bool DeleteRunLive(TransactionId xid);
extern TransactionId DeleteLogPrune(Relation rel, const RowGroupDirEntry *group,
									TransactionId oldest_xmin, bool drop_committed,
									bool *emptied);
extern uint32 DeleteLogDetachEmpty(Relation rel, const RowGroupDirEntry *group,
								   Buffer extra, uint32 room,
								   void (*note) (Page extra, BlockNumber page));
extern int	DeleteLogPages(Relation rel, const RowGroupDirEntry *group,
						   BlockNumber deleted_root, BlockNumber **blocks);

#endif							/* DELETE_LOG_H */
