/*-------------------------------------------------------------------------
 *
 * row_state.h
 *	  Where the delete and lock state of a row lives, and reading it.
 *
 * IDENTIFICATION
 *	  src/mvcc/row_state.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ROW_STATE_H
#define ROW_STATE_H

#include "access/htup.h"
#include "executor/tuptable.h"
#include "storage/buf.h"
#include "storage/delete_log.h"
#include "storage/page_prefetch.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"
#include "utils/snapshot.h"

typedef enum RowStateKind
{
	ROWSTATE_NONE,				/* the TID names no written row */
	ROWSTATE_GROUP,				/* a row-group row never promoted (its delete
								 * may be logged: run) */
	ROWSTATE_PROMOTED,			/* a row-group row whose heap copy is phys */
	ROWSTATE_GONE,				/* a row-group row deleted for everyone
								 * (storage/deleted_rows.c): no state left */
	ROWSTATE_DELTA				/* a heap tuple of a delta page, at phys */
} RowStateKind;

typedef struct RowState
{
	RowStateKind kind;
	uint64		rownum;			/* the row number the TID names */
	uint32		dir_index;		/* GROUP, PROMOTED: the row group's entry */
	RowGroupDirEntry group;		/* ... and a copy of it */
	ItemPointerData phys;		/* PROMOTED, DELTA: heap position */
	bool		this_command;	/* PROMOTED: the current command created the
								 * copy (in a promotion batch) */
	DeleteRun	run;			/* GROUP: its run in the delete log
								 * (storage/delete_log.c), xid Invalid if none */
} RowState;

/* What a scan that must see every version makes of one row. */
typedef enum RowLiveness
{
	ROW_LIVE = 0,				/* alive: visible, and index it as alive */
	ROW_HIDDEN = 1,				/* skip it */
	ROW_RECENTLY_DEAD = 2		/* return it, but it is not alive */
} RowLiveness;

extern void RowStateLocate(Relation rel, ItemPointer tid, RowState *state);
extern void RowStateLocateRow(Relation rel, ItemPointer tid, RowState *state,
							  bool read_map);
extern void RowStatePromote(Relation rel, RowState *state);
extern void RowStateForget(Oid relid);

/*
 * How many rows, one after the other from rownum (a row of the row group at
 * dir_index of rel, the row the scan returned last), the scan may return
 * before it leaves its current chunk or skips a row, at most max; 0 if it
 * cannot tell (RowStateNoteScanAhead).
 */
typedef uint32 (*RowStateRowsAhead) (void *scan, Relation rel, uint32 dir_index,
									 uint64 rownum, uint32 max);
extern void RowStateNoteScanAhead(RowStateRowsAhead rows_ahead, void *scan);
extern void RowStateForgetScanAhead(void *scan);
extern bool RowStateMayLogDelete(Relation rel, const RowState *state);
extern bool RowStateMayMoveByRun(Relation rel, const RowGroupDirEntry *group);
extern bool RowStateMoveByRun(Relation rel, uint32 dir_index,
							  const RowGroupDirEntry *group, uint32 row,
							  CommandId cid, TupleTableSlot *slot);
extern bool RowStateLogDelete(Relation rel, const RowState *state, CommandId cid);

extern RowLiveness VersionLiveness(Relation rel, HeapTuple tuple, Buffer buf,
								   Snapshot snapshot, TransactionId oldest_xmin);
extern bool VersionSurelyDead(Relation rel, HeapTuple tuple);
extern bool HeapVersionExists(Relation rel, ItemPointer phys);
extern void HeapTupleCheckShape(Relation rel, HeapTuple tuple, TupleDesc desc);
extern bool HeapVersionVisible(Relation rel, ItemPointer phys, Snapshot snapshot,
							   HeapTuple *copy, TransactionId *raw_xmax,
							   bool *surely_dead);
extern bool RowGroupMaskChanged(Relation rel, const RowGroupDirEntry *group,
								uint32 first, uint32 n, Snapshot snapshot,
								TransactionId oldest_xmin, uint8 *mask);

/* A row version as a table rewrite must copy it (RowStateForRewrite). */
typedef struct RewriteVersion
{
	bool		dead;			/* dead to everyone: not copied */
	bool		settled;		/* inserter seen by every snapshot */
	TransactionId xmin;			/* inserter, if not settled */
	TransactionId xmax;			/* committed deleter some snapshot does not
								 * see, or Invalid */
} RewriteVersion;

extern void RowStateForRewrite(Relation rel, ItemPointer tid,
							   TransactionId oldest_xmin, RewriteVersion *v);

/* What the item a heap version's HOT chain starts at is (DeltaPageCollect). */
typedef enum ChainStartKind
{
	CHAIN_START_VERSION = 0,	/* a version: its index entries are its own */
	CHAIN_START_COPY = 1,		/* a promoted copy: the row's entries */
	CHAIN_START_REDIRECT = 2	/* a redirect: a copy's if the promotion maps
								 * name it (storage/copy_positions.c) */
} ChainStartKind;

extern int	DeltaPageCollect(Relation rel, PagePrefetch *pf, BlockNumber blkno,
							 Snapshot snapshot,
							 TransactionId oldest_xmin, HeapTuple *tuples,
							 OffsetNumber *offsets, OffsetNumber *starts,
							 uint8 *start_kinds, uint8 *liveness);

#endif							/* ROW_STATE_H */
