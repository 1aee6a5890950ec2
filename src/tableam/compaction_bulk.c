/*-------------------------------------------------------------------------
 *
 * compaction_bulk.c
 *	  The compaction worker's bulk rule: which row versions UPDATE wrote
 *	  were written in bulk, and when the worker may move them (the writers'
 *	  gate).
 *
 * The worker moves a version UPDATE wrote (HEAP_UPDATED) only once its
 * inserter is colstore.compaction_update_age transactions older than every
 * snapshot: a row updated lately is likely to be updated again, and a
 * writer that reaches a row compaction moved waits for the compaction and
 * then follows the row through EvalPlanQual (tableam/compaction.c).  The
 * exception is a transaction that left at least COMPACT_BULK_VERSIONS live
 * versions of the table on its heap pages (a bulk UPDATE, a batch upsert):
 * its versions move as soon as every snapshot sees them, in bounded batches
 * of their own, and only while the gate below is open.
 *
 * Counting.  While compaction scans the heap pages it hands every live
 * version's inserter to a BulkCounter, which keeps runs of equal inserters
 * in scan order (a bulk write's versions lie together, so its runs are
 * long and few), then sorts the runs and adds up each inserter's.  Why per
 * transaction: OLTP updates (pgbench's TPC-B: a row or a few per
 * transaction) leave one or a few versions per inserter and keep waiting;
 * a rule on the share of the table in heap pages would move hot rows too
 * once they fill enough pages.  Rows updated one per subtransaction count
 * as many transactions.
 *
 * The gate.  The worker moves bulk versions only while no other backend
 * holds a lock on the table that conflicts with ExclusiveLock: RowShareLock
 * (SELECT FOR UPDATE/SHARE, foreign key checks), RowExclusiveLock (INSERT,
 * UPDATE, DELETE, MERGE, COPY) and every stronger mode.  Plain readers
 * (AccessShareLock) do not close it: they never follow a row.
 * GetLockConflicts lists the holders of conflicting locks except the
 * calling backend, so the worker's own ShareUpdateExclusiveLock (which
 * conflicts with ExclusiveLock) does not close it; it counts prepared
 * transactions, and not backends still waiting for their lock (they touch
 * no row before they hold it, and then close it).  Before the gate, a DELETE
 * of every row of a 2,000,000-row table started right after an UPDATE of
 * every row and its VACUUM took 23 times heap's time (2 without the
 * moves): the worker moved the two million versions in one transaction
 * while the DELETE ran, and the DELETE waited for it and then followed
 * every row into its row group (bench/write_patterns.sh).
 *
 * What a writer can still overlap.  A statement locks its tables while it
 * is parsed and analyzed, or when its cached plan is checked
 * (AcquireExecutorLocks), before it runs; parse analysis runs under a
 * snapshot taken before that lock, but in READ COMMITTED the snapshot the
 * statement runs with is taken anew afterwards (PortalRunMulti, PortalStart
 * and SPI call GetTransactionSnapshot after the plan is locked).  So a READ
 * COMMITTED writer sees every batch that committed before its lock: it
 * reads those rows in their row groups and never meets their moved tuples.
 * A batch checks the gate before it starts, every 1,024 versions it takes,
 * and once more after writing its row group, just before it commits; when
 * the gate has closed, the batch aborts (a writer that meanwhile reached
 * one of its tuples waited for it and then finds the tuple unchanged) and
 * the worker moves no more bulk versions this round.  Such a writer can
 * thus overlap only the batch in flight when it locked the table, by
 * waiting for it (at most its index entries and row group being written),
 * and follow its rows only if it locked the table in the instant between
 * the batch's last check and its commit: at most one row group's worth.
 * A writer whose snapshot predates its lock overlaps more: every batch that
 * committed between the two.  That is a REPEATABLE READ or SERIALIZABLE
 * transaction that reaches the table after its first statement (it then
 * fails with a serialization error on a moved row, as it does on the rows
 * of small INSERTs compaction moves, and as on heap for a row another
 * transaction updated), and an INSERT ... ON CONFLICT into a partitioned
 * table, whose rows are routed into partitions opened (and locked) only
 * while it runs, which waits and follows in READ COMMITTED.  The gate is closed as long as any writer holds the table, so
 * a table written all the time gets its bulk versions moved only by the age
 * rule.
 *
 * Quiet tables.  The age rule is for a table being written: a row updated
 * lately is likely to be updated again.  Once nobody writes the table, that
 * reason is gone, and a table that single-row upserts or updates left with
 * many recent versions on its heap pages (each one a heap tuple, its old row
 * a deleted row of a small row group) would keep them for
 * colstore.compaction_update_age transactions.  So the worker also moves
 * every settled version UPDATE wrote, whatever its inserter wrote, once the
 * table is quiet (CompactionTableQuiet: the gate stayed open through a
 * window of COMPACT_QUIET_MS, polled every few milliseconds), in the same
 * batches and behind the same gate as bulk versions; a writer arriving
 * meanwhile closes the gate, the batch in flight is rolled back, and the
 * rest waits, exactly as for bulk versions.  A table written all the time
 * never looks quiet for a whole window (each writer holds its lock from
 * parse to commit), so its versions keep the age rule.
 *
 * IDENTIFICATION
 *	  src/tableam/compaction_bulk.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "access/xlogutils.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "storage/lock.h"
#include "storage/proc.h"
#include "utils/wait_event.h"

#include "tableam/compaction_bulk.h"

/* Start counting. */
void
BulkCounterInit(BulkCounter *counter)
{
	counter->capacity = 64;
	counter->runs = palloc(sizeof(BulkRun) * counter->capacity);
	counter->nruns = 0;
	counter->bulk = NULL;
	counter->nbulk = 0;
}

/* Count one live version inserted by xmin (a normal transaction id). */
void
BulkCounterAdd(BulkCounter *counter, TransactionId xmin)
{
	if (counter->nruns > 0 && counter->runs[counter->nruns - 1].xid == xmin)
	{
		counter->runs[counter->nruns - 1].count++;
		return;
	}
	if (counter->nruns == counter->capacity)
	{
		counter->capacity *= 2;
		counter->runs = repalloc_huge(counter->runs,
									  sizeof(BulkRun) * counter->capacity);
	}
	counter->runs[counter->nruns].xid = xmin;
	counter->runs[counter->nruns].count = 1;
	counter->nruns++;
}

/* qsort comparator of runs by inserter, as plain numbers (to group them) */
static int
BulkRunCmp(const void *a, const void *b)
{
	TransactionId x = ((const BulkRun *) a)->xid;
	TransactionId y = ((const BulkRun *) b)->xid;

	return (x > y) - (x < y);
}

/*
 * Once every version is counted: add up each inserter's runs and list the
 * inserters of COMPACT_BULK_VERSIONS or more, ascending as plain numbers.
 */
void
BulkCounterFinish(BulkCounter *counter)
{
	Size		merged = 0;
	Size		i;

	qsort(counter->runs, counter->nruns, sizeof(BulkRun), BulkRunCmp);
	for (i = 0; i < counter->nruns; i++)
	{
		if (merged > 0 && counter->runs[merged - 1].xid == counter->runs[i].xid)
			counter->runs[merged - 1].count += counter->runs[i].count;
		else
			counter->runs[merged++] = counter->runs[i];
	}
	counter->nruns = merged;
	counter->bulk = palloc(sizeof(TransactionId) * Max(merged, 1));
	for (i = 0; i < merged; i++)
		if (counter->runs[i].count >= COMPACT_BULK_VERSIONS)
			counter->bulk[counter->nbulk++] = counter->runs[i].xid;
}

/* Did xmin write in bulk (after BulkCounterFinish)? */
bool
BulkCounterIsBulk(const BulkCounter *counter, TransactionId xmin)
{
	Size		lo = 0;
	Size		hi = counter->nbulk;

	while (lo < hi)
	{
		Size		mid = lo + (hi - lo) / 2;

		if (counter->bulk[mid] == xmin)
			return true;
		if (counter->bulk[mid] < xmin)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * The newest inserter that wrote in bulk and that some snapshot does not see
 * yet (not before oldest_xmin), or InvalidTransactionId: once no snapshot is
 * that old, its versions can move.
 */
TransactionId
BulkCounterNewestYoung(const BulkCounter *counter, TransactionId oldest_xmin)
{
	TransactionId newest = InvalidTransactionId;
	Size		i;

	for (i = 0; i < counter->nbulk; i++)
	{
		TransactionId xid = counter->bulk[i];

		if (!TransactionIdPrecedes(xid, oldest_xmin) &&
			(!TransactionIdIsValid(newest) || TransactionIdFollows(xid, newest)))
			newest = xid;
	}
	return newest;
}

void
BulkCounterFree(BulkCounter *counter)
{
	pfree(counter->runs);
	if (counter->bulk != NULL)
		pfree(counter->bulk);
}

/*
 * CompactionGateOpen
 *		Whether no other backend holds a lock on relid (a table of the
 *		current database) that conflicts with ExclusiveLock: no writer and
 *		no row locker (see the file header).  Needs no transaction.
 */
bool
CompactionGateOpen(Oid relid)
{
	LOCKTAG		tag;
	VirtualTransactionId *holders;
	int			n;

	SET_LOCKTAG_RELATION(tag, MyDatabaseId, relid);
	holders = GetLockConflicts(&tag, ExclusiveLock, &n);
	/* in hot standby the array is static (no worker runs there) */
	if (!InHotStandby)
		pfree(holders);
	return n == 0;
}

/*
 * CompactionTableQuiet
 *		Whether the gate of relid stays open (CompactionGateOpen) at every
 *		look through window_ms, looking every COMPACT_QUIET_POLL_MS: no
 *		writer or row locker held the table at any of them (see "Quiet
 *		tables" in the file header).  Returns false at the first closed
 *		look.  Needs no transaction.
 */
bool
CompactionTableQuiet(Oid relid, int window_ms)
{
	int			waited = 0;

	for (;;)
	{
		if (!CompactionGateOpen(relid))
			return false;
		if (waited >= window_ms)
			return true;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 COMPACT_QUIET_POLL_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		waited += COMPACT_QUIET_POLL_MS;
	}
}
