/*-------------------------------------------------------------------------
 *
 * compaction_bulk.h
 *	  The compaction worker's bulk rule: which row versions UPDATE wrote
 *	  were written in bulk, and when the worker may move them (the writers'
 *	  gate).
 *
 * IDENTIFICATION
 *	  src/tableam/compaction_bulk.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COMPACTION_BULK_H
#define COMPACTION_BULK_H

#include "utils/rel.h"

/*
 * A transaction that left at least this many live versions of a table on
 * its heap pages wrote them in bulk (a bulk UPDATE, a batch upsert).  The
 * compaction worker's round minimum, so that one such transaction alone is
 * worth a round.
 */
#define COMPACT_BULK_VERSIONS	1000

/*
 * A table is quiet when no writer or row locker held it at any look through
 * a window of COMPACT_QUIET_MS, looking every COMPACT_QUIET_POLL_MS
 * (CompactionTableQuiet); the worker then moves every settled version UPDATE
 * wrote, not only bulk ones.
 */
#define COMPACT_QUIET_MS		1000
#define COMPACT_QUIET_POLL_MS	5

/* One run of live versions with the same inserter, in scan order. */
typedef struct BulkRun
{
	TransactionId xid;
	uint64		count;
} BulkRun;

/* The inserters of a table's live heap versions, counted per transaction. */
typedef struct BulkCounter
{
	BulkRun    *runs;			/* while counting: scan order; then sorted,
								 * one per inserter */
	Size		nruns;
	Size		capacity;
	TransactionId *bulk;		/* after BulkCounterFinish: the inserters of
								 * COMPACT_BULK_VERSIONS or more, ascending */
	Size		nbulk;
} BulkCounter;

extern void BulkCounterInit(BulkCounter *counter);
extern void BulkCounterAdd(BulkCounter *counter, TransactionId xmin);
extern void BulkCounterFinish(BulkCounter *counter);
extern bool BulkCounterIsBulk(const BulkCounter *counter, TransactionId xmin);
extern TransactionId BulkCounterNewestYoung(const BulkCounter *counter,
											TransactionId oldest_xmin);
extern void BulkCounterFree(BulkCounter *counter);

extern bool CompactionGateOpen(Oid relid);
extern bool CompactionTableQuiet(Oid relid, int window_ms);

#endif							/* COMPACTION_BULK_H */
