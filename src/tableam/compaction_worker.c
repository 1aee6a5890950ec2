/*-------------------------------------------------------------------------
 *
 * compaction_worker.c
 *	  Automatic compaction: a background worker that compacts one colstore
 *	  table and then vacuums it, started when small inserts have grown the
 *	  table's heap pages.
 *
 * Small INSERTs put their rows on the table's heap pages
 * (storage/delta_insert.c), and UPDATE its new row versions.  When an
 * insert had to register a new heap page (no free space left on the
 * existing ones), or VACUUM found at least COMPACT_MIN_ROWS live row
 * versions on the heap pages, and the table has at least
 * COMPACT_MIN_HEAP_PAGES heap pages and they are at least
 * COMPACT_HEAP_SHARE of its pages, the inserting backend starts a dynamic
 * background worker for the table (if colstore.auto_compaction is on and
 * the table is not a temporary one, which only its session can read),
 * and also when VACUUM found live rows left in row groups whose rewrite
 * pays (mvcc/group_retire.c; or pays once the table is quiet, a fifth
 * deleted: the worker then looks for a quiet table in its first round), or
 * small row groups worth merging
 * (tableam/compaction.c), which compaction rewrites,
 * unless one is running for it (each worker holds a session lock of its
 * own tag for its lifetime), colstore.max_compaction_workers are running
 * (each holds one of that many slot locks), or no background worker slot
 * is free.  The worker repeats, while there is work:
 *
 * 1. compact the table in a transaction of its own (tableam/compaction.c):
 *    its heap tuples if at least COMPACT_MIN_ROWS can move, a row group's
 *    worth of the live rows of row groups whose rewrite pays, and small
 *    row groups the merge bound allows, unless another compaction or a
 *    VACUUM holds the table (it does not wait for them); versions UPDATE
 *    wrote move once colstore.compaction_update_age transactions old, or,
 *    once the table is quiet (no writer or row locker held it through
 *    COMPACT_QUIET_MS, looked for after a round that held such versions
 *    back or moved a quiet table's or a bulk write's rows), as soon as every
 *    snapshot sees them, listed for step 2, and then small and partly
 *    deleted row groups are merged by the quiet rules
 *    (tableam/compaction_choice.c);
 * 2. move the versions of transactions that wrote in bulk (at least
 *    COMPACT_BULK_VERSIONS of them: a bulk UPDATE or upsert), which step 1
 *    listed (all recent UPDATE versions, for a quiet table), as soon as
 *    every snapshot sees them, a row group's worth per
 *    transaction, while no other backend holds a lock on the table that a
 *    writer or row locker takes (tableam/compaction_bulk.c: the gate, and
 *    what a writer can still overlap); a batch that finds the gate closed
 *    is rolled back, and the round moves no more of them;
 * 3. wait, at most COMPACT_WAIT_MS, until no snapshot older than the last
 *    transaction that moved rows is left, so the moved heap tuples are
 *    dead to everyone;
 * 4. run VACUUM on the table, which removes them and their index entries
 *    and hands their space to the free space map, where the next small
 *    inserts find it, and retires the row groups the round emptied (one
 *    VACUUM for all the round's batches: a VACUUM per batch would scan a
 *    big table's indexes once per row group moved);
 * 5. if it retired any, take a transaction id, wait until no snapshot is
 *    that old, and VACUUM again, which frees them, so that the next
 *    round's promoted copies and row groups take their pages (compaction
 *    rewrites no row group while some wait to be freed);
 * 6. sleep COMPACT_NAP_MS,
 *
 * and exits after COMPACT_IDLE_ROUNDS rounds that moved nothing
 * (COMPACT_FIRST_IDLE_ROUNDS if it has moved nothing at all), after a last
 * ReclaimUntilSettled (a VACUUM that ran meanwhile could not start a worker
 * for what it left).  Rounds that
 * moved nothing but left bulk versions are not idle, within bounds: when a
 * writer kept the gate closed, the worker waits (at most COMPACT_WAIT_MS,
 * up to COMPACT_GATE_WAITS times) for the gate to open, polling the lock
 * manager only, and starts the next round once it does; when a snapshot
 * older than a bulk write still needs its versions, it waits for that
 * snapshot (as long, up to COMPACT_BULK_WAITS times); and up to
 * COMPACT_BUSY_ROUNDS rounds (about five minutes) that found the table held
 * by a VACUUM (most likely the one that started the worker, still
 * finishing, or an autovacuum) or another compaction do not count: with 200
 * (ten seconds), a worker started by the VACUUM after a batch upsert of a
 * million rows could give up while that VACUUM or an autovacuum still ran,
 * and leave the whole upsert on the heap pages.  So the
 * heap pages of a table fed by small inserts stay a bounded share of it,
 * reused round after round, and its rows end up in row groups.  The worker
 * connects to the table's database as the bootstrap superuser (compaction
 * runs the owner's index expressions as the owner, in a restricted
 * context, as VACUUM does), in READ COMMITTED; SIGTERM ends it at the next
 * interrupt check, errors end it (and are logged), the table stays as it
 * was.
 *
 * IDENTIFICATION
 *	  src/tableam/compaction_worker.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/relation.h"
#include "access/xact.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "pgstat.h"
#include "tcop/tcopprot.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "utils/guc.h"
#include "storage/bufmgr.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "storage/compaction_progress.h"
#include "storage/metapage.h"
#include "tableam/am_handler.h"
#include "tableam/compaction.h"
#include "tableam/compaction_bulk.h"
#include "tableam/compaction_choice.h"
#include "tableam/compaction_worker.h"

#define COMPACT_MIN_HEAP_PAGES		16
#define COMPACT_HEAP_SHARE			0.1
#define COMPACT_MIN_ROWS			1000
#define COMPACT_WAIT_MS				10000
#define COMPACT_NAP_MS				50
#define COMPACT_IDLE_ROUNDS			20
#define COMPACT_FIRST_IDLE_ROUNDS	3
#define COMPACT_GATE_WAITS			6
#define COMPACT_BULK_WAITS			6
#define COMPACT_BUSY_ROUNDS			6000
#define COMPACT_RECLAIM_VACUUMS		4
#define COMPACT_SKIPPED_VACUUMS		100

/* field4 of the advisory lock tag a table's worker holds (user locks: 1, 2) */
#define COMPACT_LOCKTAG_KIND		0x4353

PGDLLEXPORT void colstore_compaction_main(Datum main_arg);

bool		colstore_auto_compaction = true;
int			colstore_max_compaction_workers = 2;
int			colstore_compaction_update_age = 1000000;

/* are we a compaction worker (whose own VACUUMs start no other)? */
static bool InCompactionWorker = false;

/*
 * What the last colstore VACUUM of this backend left (set by
 * CompactionWorkerNoteVacuum, reset before each of the worker's VACUUMs):
 * whether it ran at all (one that found the table locked skips it), and
 * whether it left work that only a later VACUUM can finish, once a
 * transaction id was assigned after it and no snapshot is that old.
 */
typedef enum VacuumOutcome
{
	VACUUM_SKIPPED,
	VACUUM_SETTLED,
	VACUUM_LEFT_RECLAIM
} VacuumOutcome;

static VacuumOutcome LastVacuum = VACUUM_SKIPPED;

/* what a worker is started with, in bgw_extra */
typedef struct CompactionWorkerArgs
{
	Oid			dboid;
	bool		reclaim;		/* the VACUUM that started it left reclaim */
	bool		look_quiet;		/* ... found row groups whose rewrite pays
								 * once the table is quiet */
} CompactionWorkerArgs;

/* The tag of the lock the compaction worker of relid holds. */
static void
WorkerLockTag(LOCKTAG *tag, Oid dboid, Oid relid)
{
	SET_LOCKTAG_ADVISORY(*tag, dboid, relid, 0, COMPACT_LOCKTAG_KIND);
}

/* The tag of the lock of worker slot i (of the whole server). */
static void
SlotLockTag(LOCKTAG *tag, int i)
{
	SET_LOCKTAG_ADVISORY(*tag, InvalidOid, (uint32) i, 1, COMPACT_LOCKTAG_KIND);
}

/* Is the session lock with this tag held by another process? */
static bool
LockHeldElsewhere(LOCKTAG *tag)
{
	if (LockAcquire(tag, ExclusiveLock, true, true) == LOCKACQUIRE_NOT_AVAIL)
		return true;
	LockRelease(tag, ExclusiveLock, true);
	return false;
}

/* Is a compaction worker running for relid? */
static bool
WorkerRunning(Oid relid)
{
	LOCKTAG		tag;

	WorkerLockTag(&tag, MyDatabaseId, relid);
	return LockHeldElsewhere(&tag);
}

/*
 * Find a free one of the colstore.max_compaction_workers slots; keep it for
 * the rest of this process if keep (a worker), else just say whether there
 * is one (a backend deciding whether to start a worker).
 */
static bool
FreeSlot(bool keep)
{
	int			i;

	for (i = 0; i < colstore_max_compaction_workers; i++)
	{
		LOCKTAG		tag;

		SlotLockTag(&tag, i);
		if (LockAcquire(&tag, ExclusiveLock, true, true) != LOCKACQUIRE_NOT_AVAIL)
		{
			if (!keep)
				LockRelease(&tag, ExclusiveLock, true);
			return true;
		}
	}
	return false;
}

/*
 * CompactionWorkerNoteVacuum
 *		Called by colstore's VACUUM when it ends: left_reclaim tells whether
 *		it retired, pruned or detached anything that a later VACUUM frees
 *		(see ReclaimUntilSettled).
 */
void
CompactionWorkerNoteVacuum(bool left_reclaim)
{
	LastVacuum = left_reclaim ? VACUUM_LEFT_RECLAIM : VACUUM_SETTLED;
}

/*
 * CompactionWorkerMaybeLaunch
 *		Called after an insert registered a new heap page of rel, which now
 *		has heap_pages of them (live_rows < 0), or after VACUUM found
 *		live_rows live row versions on them and sparse_rows rows left in
 *		mostly deleted row groups, whether it found rows left in row groups
 *		whose rewrite pays once the table is quiet (look_quiet: the quiet
 *		rules, tableam/compaction_choice.c; the worker then looks for a
 *		quiet table in its first round), and whether it left reclaim that
 *		only a later VACUUM finishes (reclaim): start a compaction worker for rel if the heap pages
 *		are due for it, or there are such rows to move or such reclaim to
 *		finish (see the file header).  Never errors for lack of worker
 *		slots.
 */
void
CompactionWorkerMaybeLaunch(Relation rel, int heap_pages, double live_rows,
							double sparse_rows, bool look_quiet, bool reclaim)
{
	BackgroundWorker worker;
	CompactionWorkerArgs args;
	bool		heap_due;

	heap_due = (live_rows < 0 || live_rows >= COMPACT_MIN_ROWS) &&
		heap_pages >= COMPACT_MIN_HEAP_PAGES &&
		heap_pages >= COMPACT_HEAP_SHARE * ColstorePhysicalBlocks(rel);

	/* a worker cannot read another session's temporary table */
	if (!colstore_auto_compaction || InCompactionWorker ||
		RelationUsesLocalBuffers(rel) ||
		(!heap_due && sparse_rows <= 0 && !look_quiet && !reclaim) ||
		RecoveryInProgress() || WorkerRunning(RelationGetRelid(rel)) || !FreeSlot(false))
		return;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "colstore");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "colstore_compaction_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "colstore compaction of table %u",
			 RelationGetRelid(rel));
	snprintf(worker.bgw_type, BGW_MAXLEN, "colstore compaction");
	worker.bgw_main_arg = ObjectIdGetDatum(RelationGetRelid(rel));
	memset(&args, 0, sizeof(args));
	args.dboid = MyDatabaseId;
	args.reclaim = reclaim;
	args.look_quiet = look_quiet;
	StaticAssertStmt(sizeof(args) <= BGW_EXTRALEN, "compaction worker arguments do not fit");
	memcpy(worker.bgw_extra, &args, sizeof(args));
	worker.bgw_notify_pid = 0;
	(void) RegisterDynamicBackgroundWorker(&worker, NULL);
}

/*
 * Wait until no transaction of this database holds a snapshot whose xmin
 * is limit or older, for at most timeout_ms.  Returns whether none is left.
 */
static bool
WaitForSnapshotsBefore(TransactionId limit, int timeout_ms)
{
	int			waited = 0;

	for (;;)
	{
		int			n;
		VirtualTransactionId *old;

		old = GetCurrentVirtualXIDs(limit, true, false,
									PROC_IS_AUTOVACUUM | PROC_IN_VACUUM, &n);
		pfree(old);
		if (n == 0)
			return true;
		if (waited >= timeout_ms)
			return false;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 20, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		waited += 20;
	}
}

/*
 * Show in pg_stat_activity's query column which round of relid's compaction
 * runs, and what it does.
 */
static void
ReportRound(Oid relid, int round, const char *doing)
{
	char		activity[128];

	snprintf(activity, sizeof(activity),
			 "colstore compaction of table %u, round %d: %s", relid, round, doing);
	pgstat_report_activity(STATE_RUNNING, activity);
}

/*
 * Compact relid in a transaction of our own if at least COMPACT_MIN_ROWS
 * rows can move; returns the transaction's id if it moved rows, else
 * InvalidTransactionId.  bulk's lists are set to the versions of
 * transactions that wrote in bulk, for MoveBulkVersions (empty if nothing
 * was tried); *busy to whether another compaction or a VACUUM held the
 * table, so nothing was tried.
 */
static TransactionId
CompactInOwnTransaction(Oid relid, int round, CompactBulk *bulk, bool *busy)
{
	TransactionId xid = InvalidTransactionId;
	Relation	rel;

	bulk->n = bulk->next = 0;
	bulk->waiting_for = InvalidTransactionId;
	bulk->held_back = 0;
	*busy = true;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	ReportRound(relid, round, "compacting");
	/* another compaction or a VACUUM is at it: leave the table to them */
	if (ConditionalLockRelationOid(relid, ShareUpdateExclusiveLock))
	{
		*busy = false;
		rel = try_relation_open(relid, NoLock);
		if (rel != NULL)
		{
			if (RelationIsColstore(rel) &&
				ColstoreCompact(rel, COMPACT_MIN_ROWS,
								colstore_compaction_update_age, bulk) > 0)
				xid = GetTopTransactionId();
			relation_close(rel, NoLock);
		}
	}
	PopActiveSnapshot();
	CommitTransactionCommand();
	return xid;
}

/*
 * Move bulk's listed versions of relid, a batch (a row group's worth) per
 * transaction of our own, while the gate stays open (ColstoreCompactBulk);
 * a batch that finds it closed is rolled back.  Returns the id of the last
 * transaction that moved rows, or InvalidTransactionId; *gated is set to
 * whether versions were left because the gate closed.  Stops, leaving the
 * rest for the next round, when another compaction or a VACUUM holds the
 * table, and then sets *busy.
 */
static TransactionId
MoveBulkVersions(Oid relid, int round, CompactBulk *bulk, bool *gated,
				 bool *busy)
{
	TransactionId last = InvalidTransactionId;

	*gated = false;
	while (bulk->next < bulk->n)
	{
		Relation	rel;
		bool		gate_open = true;
		uint64		moved = 0;

		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		PushActiveSnapshot(GetTransactionSnapshot());
		ReportRound(relid, round, "moving bulk versions");
		if (!ConditionalLockRelationOid(relid, ShareUpdateExclusiveLock))
		{
			PopActiveSnapshot();
			CommitTransactionCommand();
			*busy = true;
			break;
		}
		rel = try_relation_open(relid, NoLock);
		if (rel == NULL || !RelationIsColstore(rel))
			bulk->next = bulk->n;
		else
			moved = ColstoreCompactBulk(rel, bulk, &gate_open);
		if (rel != NULL)
			relation_close(rel, NoLock);
		PopActiveSnapshot();
		if (!gate_open)
		{
			/* a writer holds the table: undo this batch, leave the rest */
			AbortCurrentTransaction();
			*gated = true;
			break;
		}
		if (moved > 0)
			last = GetTopTransactionId();
		CommitTransactionCommand();
		CHECK_FOR_INTERRUPTS();
	}
	return last;
}

/*
 * Wait, at most timeout_ms, until no other backend holds a lock on relid
 * that closes the gate (tableam/compaction_bulk.c).  Returns whether it
 * opened.
 */
static bool
WaitForGate(Oid relid, int timeout_ms)
{
	int			waited = 0;

	while (!CompactionGateOpen(relid))
	{
		if (waited >= timeout_ms)
			return false;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 COMPACT_NAP_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		waited += COMPACT_NAP_MS;
	}
	return true;
}

/*
 * VACUUM relid with the table's own settings (its reloptions decide index
 * cleanup and truncation, as for a plain VACUUM); cxt is a memory context
 * outside any transaction.  Returns what the VACUUM left (VACUUM_SKIPPED if
 * the table was locked, or gone).
 */
static VacuumOutcome
VacuumTable(Oid relid, int round, MemoryContext cxt)
{
	VacuumParams params;
	MemoryContext oldcxt;
	List	   *rels;
	BufferAccessStrategy strategy;

	memset(&params, 0, sizeof(params));
	params.options = VACOPT_VACUUM | VACOPT_SKIP_LOCKED | VACOPT_PROCESS_TOAST |
		VACOPT_PROCESS_MAIN_IF_ANY;
	params.freeze_min_age = -1;
	params.freeze_table_age = -1;
	params.multixact_freeze_min_age = -1;
	params.multixact_freeze_table_age = -1;
	params.is_wraparound = false;
	params.log_min_duration = -1;
	params.index_cleanup = VACOPTVALUE_UNSPECIFIED;
	params.truncate = VACOPTVALUE_UNSPECIFIED;
	params.nworkers = -1;

	/*
	 * vacuum() commits and starts transactions: the relation list and the
	 * strategy must live in a context that outlasts them, as autovacuum's do.
	 */
	oldcxt = MemoryContextSwitchTo(cxt);
	rels = list_make1(makeVacuumRelation(NULL, relid, NIL));
	strategy = GetAccessStrategy(BAS_VACUUM);
	MemoryContextSwitchTo(oldcxt);

	LastVacuum = VACUUM_SKIPPED;
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	ReportRound(relid, round, "vacuum");
	VacuumRelations(rels, &params, strategy, cxt);
	CommitTransactionCommand();
	MemoryContextReset(cxt);
	return LastVacuum;
}

/*
 * A transaction id assigned now, in a transaction of our own that reads
 * nothing (InvalidTransactionId if relid is gone or no longer colstore's).
 */
static TransactionId
TakeTransactionId(Oid relid, int round)
{
	TransactionId xid = InvalidTransactionId;
	Relation	rel;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	ReportRound(relid, round, "freeing what VACUUM retired");
	rel = try_relation_open(relid, AccessShareLock);
	if (rel != NULL)
	{
		if (RelationIsColstore(rel))
			xid = GetTopTransactionId();
		relation_close(rel, AccessShareLock);
	}
	CommitTransactionCommand();
	return xid;
}

/* Whether relid has row groups retired and not freed yet. */
static bool
RetiredPending(Oid relid)
{
	bool		pending = false;
	Relation	rel;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	rel = try_relation_open(relid, AccessShareLock);
	if (rel != NULL)
	{
		pending = RelationIsColstore(rel) && CompactionRetiredPending(rel);
		relation_close(rel, AccessShareLock);
	}
	CommitTransactionCommand();
	return pending;
}

/*
 * ReclaimUntilSettled
 *		Finish what VACUUM leaves for a later VACUUM: row groups and heap
 *		pages it retired, rows whose copies it pruned or whose deletes it
 *		turned into bits, pages it detached.  Each is freed by a VACUUM whose
 *		oldest xmin its stamp (the next transaction id when it was made)
 *		precedes, and a table nobody writes, in a database that assigns no
 *		transaction id, would never get one.  So, while the VACUUM before left
 *		such work (left_reclaim for the first), at most max_vacuums times:
 *		take a transaction id, wait until no
 *		snapshot is that old (at most COMPACT_WAIT_MS), and VACUUM again.  A
 *		VACUUM that finds the table locked (another VACUUM, most likely the
 *		one that started us, still finishing) is tried again after a nap, up
 *		to COMPACT_SKIPPED_VACUUMS times.  The last VACUUM moves what holds
 *		the file's end down and truncates it, as every VACUUM does.
 */
static void
ReclaimUntilSettled(Oid relid, int round, MemoryContext cxt, bool left_reclaim,
					int max_vacuums)
{
	int			vacuums = 0;
	int			skipped = 0;

	while (left_reclaim && vacuums < max_vacuums)
	{
		TransactionId xid = TakeTransactionId(relid, round);
		VacuumOutcome outcome;

		if (!TransactionIdIsValid(xid) || !WaitForSnapshotsBefore(xid, COMPACT_WAIT_MS))
			return;
		CompactionProgressSetPhase(COMPACTION_PHASE_VACUUMING);
		outcome = VacuumTable(relid, round, cxt);
		if (outcome == VACUUM_SKIPPED)
		{
			if (++skipped >= COMPACT_SKIPPED_VACUUMS)
				return;
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 COMPACT_NAP_MS * 2, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
			continue;
		}
		vacuums++;
		left_reclaim = (outcome == VACUUM_LEFT_RECLAIM);
	}
}

/*
 * colstore_compaction_main
 *		Entry point of the worker: main_arg is the table's OID, bgw_extra
 *		its database's.
 */
void
colstore_compaction_main(Datum main_arg)
{
	Oid			relid = DatumGetObjectId(main_arg);
	CompactionWorkerArgs args;
	LOCKTAG		tag;
	int			idle = 0;
	int			gate_waits = 0;
	int			bulk_waits = 0;
	int			busy_rounds = 0;
	int			round = 0;
	bool		moved_any = false;
	bool		try_quiet = false;
	MemoryContext vacuum_cxt;
	CompactBulk bulk;

	InCompactionWorker = true;
	memcpy(&args, MyBgworkerEntry->bgw_extra, sizeof(args));
	/* die() only sets a flag: termination waits for CHECK_FOR_INTERRUPTS */
	pqsignal(SIGTERM, die);
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnectionByOid(args.dboid, InvalidOid, 0);
	/* moving rows changes no value: never take part in SSI conflicts */
	SetConfigOption("default_transaction_isolation", "read committed",
					PGC_SUSET, PGC_S_OVERRIDE);

	vacuum_cxt = AllocSetContextCreate(TopMemoryContext, "colstore compaction vacuum",
									   ALLOCSET_DEFAULT_SIZES);
	memset(&bulk, 0, sizeof(bulk));
	bulk.cxt = AllocSetContextCreate(TopMemoryContext, "colstore compaction bulk versions",
									 ALLOCSET_DEFAULT_SIZES);

	/*
	 * One worker per table, at most colstore.max_compaction_workers in all: a
	 * worker started meanwhile leaves.  proc_exit releases the session locks.
	 */
	WorkerLockTag(&tag, args.dboid, relid);
	if (LockAcquire(&tag, ExclusiveLock, true, true) == LOCKACQUIRE_NOT_AVAIL ||
		!FreeSlot(true))
		proc_exit(0);
	CompactionProgressStart(COMPACTION_WORKER, relid);

	/* started to finish what a VACUUM left: do that first */
	ReclaimUntilSettled(relid, round, vacuum_cxt, args.reclaim, COMPACT_RECLAIM_VACUUMS);

	/*
	 * started for row groups whose rewrite pays once the table is quiet (a
	 * DELETE of a fifth of them, say): look for that in the first round
	 */
	try_quiet = args.look_quiet;

	/* a worker that never found work (young UPDATE versions) leaves soon */
	while (idle < (moved_any ? COMPACT_IDLE_ROUNDS : COMPACT_FIRST_IDLE_ROUNDS))
	{
		TransactionId mover;
		TransactionId bulk_mover;
		bool		busy;
		bool		gated;

		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
		}
		round++;
		CompactionProgressSetRound(round);
		MemoryContextReset(bulk.cxt);

		/*
		 * a quiet table has every settled version moved and its small and
		 * partly deleted groups rewritten (compaction_bulk.c); looked for
		 * after a round that held versions back, or that moved a quiet
		 * table's or a bulk write's versions (whose last batches leave small
		 * groups), and again after a busy round that was to look
		 */
		bulk.quiet = false;
		if (try_quiet)
		{
			CompactionProgressSetPhase(COMPACTION_PHASE_WAITING_WRITERS);
			ReportRound(relid, round, "looking for a quiet table");
			bulk.quiet = CompactionTableQuiet(relid, COMPACT_QUIET_MS);
		}
		mover = CompactInOwnTransaction(relid, round, &bulk, &busy);
		bulk_mover = MoveBulkVersions(relid, round, &bulk, &gated, &busy);
		if (TransactionIdIsValid(bulk_mover))
			mover = bulk_mover;
		try_quiet = (busy && try_quiet) || bulk.held_back > 0 ||
			((bulk.quiet || TransactionIdIsValid(bulk_mover)) &&
			 TransactionIdIsValid(mover));

		if (TransactionIdIsValid(mover))
		{
			idle = 0;
			moved_any = true;
			CompactionProgressSetPhase(COMPACTION_PHASE_WAITING_SNAPSHOTS);
			ReportRound(relid, round, "waiting for old snapshots");
			if (WaitForSnapshotsBefore(mover, COMPACT_WAIT_MS))
			{
				CompactionProgressSetPhase(COMPACTION_PHASE_VACUUMING);
				VacuumTable(relid, round, vacuum_cxt);

				/*
				 * free the old groups it retired before the next rewrite,
				 * whose promoted copies and new groups then take their pages
				 */
				ReclaimUntilSettled(relid, round, vacuum_cxt,
									RetiredPending(relid), 1);
			}
		}
		else if (busy && busy_rounds < COMPACT_BUSY_ROUNDS)
		{
			/*
			 * most likely the VACUUM that started us, still finishing: a
			 * round that could not look is not an idle one (bounded)
			 */
			busy_rounds++;
		}
		else if (gated && gate_waits < COMPACT_GATE_WAITS)
		{
			/*
			 * a bulk write's versions, which a writer keeps where they are:
			 * wait for the gate rather than scan the heap pages round after
			 * round (not an idle round; bounded)
			 */
			gate_waits++;
			CompactionProgressSetPhase(COMPACTION_PHASE_WAITING_WRITERS);
			ReportRound(relid, round, "waiting for writers");
			(void) WaitForGate(relid, COMPACT_WAIT_MS);
		}
		else if (TransactionIdIsValid(bulk.waiting_for) &&
				 bulk_waits < COMPACT_BULK_WAITS)
		{
			/*
			 * a bulk write's versions that an older snapshot still needs on
			 * their heap pages: wait for it rather than leave them there
			 * until the next VACUUM (not an idle round; bounded)
			 */
			bulk_waits++;
			CompactionProgressSetPhase(COMPACTION_PHASE_WAITING_SNAPSHOTS);
			ReportRound(relid, round, "waiting for old snapshots");
			(void) WaitForSnapshotsBefore(bulk.waiting_for, COMPACT_WAIT_MS);
		}
		else
			idle++;
		CompactionProgressSetPhase(COMPACTION_PHASE_SLEEPING);
		pgstat_report_activity(STATE_IDLE, NULL);
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 COMPACT_NAP_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}

	/*
	 * A VACUUM run meanwhile by someone else, which could not start a worker
	 * while we ran, may have left reclaim that nobody would finish: retired
	 * entries, or items and pages freed that a later VACUUM retires.  What it
	 * left is not recorded anywhere we can read, so finish as if it had: one
	 * more transaction id, wait and VACUUM, repeated while each leaves more.
	 */
	ReclaimUntilSettled(relid, round, vacuum_cxt, true, COMPACT_RECLAIM_VACUUMS);
	proc_exit(0);
}

/* Define the compaction workers' settings (from _PG_init). */
void
CompactionWorkerDefineSettings(void)
{
	DefineCustomBoolVariable("colstore.auto_compaction",
							 "Starts background workers that compact colstore tables whose heap pages small inserts have grown.",
							 NULL,
							 &colstore_auto_compaction,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("colstore.max_compaction_workers",
							"Sets the most compaction workers that run at once, across all databases.",
							"They come out of max_worker_processes.",
							&colstore_max_compaction_workers,
							2, 0, 64,
							PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("colstore.compaction_update_age",
							"Sets how many transactions older than every snapshot a row version UPDATE wrote must be before compaction workers move it.",
							"Rows of small INSERTs, and the versions of a transaction that left 1,000 or more of them, move as soon as every snapshot sees them (the latter while no other session writes the table); colstore.compact() moves all at once.",
							&colstore_compaction_update_age,
							1000000, 0, 1000000000,
							PGC_SIGHUP, 0, NULL, NULL, NULL);
}
