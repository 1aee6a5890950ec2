/*-------------------------------------------------------------------------
 *
 * compaction_progress.c
 *	  Progress of compactions in shared memory (see compaction_progress.h).
 *
 * PostgreSQL's pg_stat_progress_* machinery knows a fixed list of commands,
 * so colstore keeps its own: an array of MaxBackends slots, one per PGPROC
 * number, each with a spinlock.  A backend changes only its own slot (a
 * few times per batch of rows, so the spinlock is never contended for
 * long); the view's reader copies each busy slot under its lock, so it
 * never sees a half-written one.
 *
 * A slot is freed by CompactionProgressEnd, and also when the transaction
 * that started a colstore.compact() aborts and when the backend exits, so
 * an error never leaves a stale row in the view.  The worker's slot lives
 * across its rounds' transactions, until it exits.
 *
 * IDENTIFICATION
 *	  src/storage/compaction_progress.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/timestamp.h"

#include "pg_compat.h"
#include "storage/compaction_progress.h"

typedef struct ProgressSlot
{
	slock_t		mutex;
	CompactionProgressEntry entry;	/* command COMPACTION_NONE: free */
} ProgressSlot;

static ProgressSlot *slots = NULL;
static int	nslots = 0;
static bool callbacks_registered = false;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static Size
SlotsSize(void)
{
	return mul_size(MaxBackends, sizeof(ProgressSlot));
}

static void
ProgressShmemRequest(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(SlotsSize());
}

static void
ProgressShmemStartup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	slots = ShmemInitStruct("colstore compaction progress", SlotsSize(), &found);
	if (!found)
	{
		int			i;

		memset(slots, 0, SlotsSize());
		for (i = 0; i < MaxBackends; i++)
			SpinLockInit(&slots[i].mutex);
	}
	nslots = MaxBackends;
	LWLockRelease(AddinShmemInitLock);
}

/*
 * CompactionProgressShmemInit
 *		Ask for the slots' shared memory; from _PG_init, which is the only
 *		time it can be asked for (shared_preload_libraries).
 */
void
CompactionProgressShmemInit(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = ProgressShmemRequest;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = ProgressShmemStartup;
}

/* This backend's slot, or NULL without slots (colstore not preloaded). */
static ProgressSlot *
MySlot(void)
{
	int			procno;

	if (slots == NULL || MyProc == NULL)
		return NULL;
	procno = ColstoreMyProcNumber();
	if (procno < 0 || procno >= nslots)
		return NULL;
	return &slots[procno];
}

static void
FreeMySlot(void)
{
	ProgressSlot *slot = MySlot();

	if (slot == NULL || slot->entry.command == COMPACTION_NONE)
		return;
	SpinLockAcquire(&slot->mutex);
	memset(&slot->entry, 0, sizeof(slot->entry));
	SpinLockRelease(&slot->mutex);
}

/* colstore.compact() runs inside one transaction: its slot ends with it */
static void
ProgressXactCallback(XactEvent event, void *arg)
{
	ProgressSlot *slot = MySlot();

	if (slot != NULL && slot->entry.command == COMPACTION_FUNCTION &&
		(event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT))
		FreeMySlot();
}

static void
ProgressExitCallback(int code, Datum arg)
{
	FreeMySlot();
}

/*
 * CompactionProgressStart
 *		Show this backend compacting relid, in phase "starting" with every
 *		counter zero.
 */
void
CompactionProgressStart(CompactionCommand command, Oid relid)
{
	ProgressSlot *slot = MySlot();

	if (slot == NULL)
		return;
	if (!callbacks_registered)
	{
		RegisterXactCallback(ProgressXactCallback, NULL);
		before_shmem_exit(ProgressExitCallback, (Datum) 0);
		callbacks_registered = true;
	}
	SpinLockAcquire(&slot->mutex);
	memset(&slot->entry, 0, sizeof(slot->entry));
	slot->entry.pid = MyProcPid;
	slot->entry.dbid = MyDatabaseId;
	slot->entry.userid = GetUserId();
	slot->entry.relid = relid;
	slot->entry.command = command;
	slot->entry.phase = COMPACTION_PHASE_STARTING;
	slot->entry.started = GetCurrentTimestamp();
	SpinLockRelease(&slot->mutex);
}

void
CompactionProgressSetPhase(CompactionPhase phase)
{
	ProgressSlot *slot = MySlot();

	if (slot == NULL || slot->entry.command == COMPACTION_NONE)
		return;
	SpinLockAcquire(&slot->mutex);
	slot->entry.phase = phase;
	SpinLockRelease(&slot->mutex);
}

void
CompactionProgressSetRound(int round)
{
	ProgressSlot *slot = MySlot();

	if (slot == NULL || slot->entry.command == COMPACTION_NONE)
		return;
	SpinLockAcquire(&slot->mutex);
	slot->entry.round = round;
	SpinLockRelease(&slot->mutex);
}

void
CompactionProgressAdd(CompactionCounter counter, int64 delta)
{
	ProgressSlot *slot = MySlot();

	Assert(counter >= 0 && counter < COMPACTION_NCOUNTERS);
	if (slot == NULL || slot->entry.command == COMPACTION_NONE)
		return;
	SpinLockAcquire(&slot->mutex);
	slot->entry.counters[counter] += delta;
	SpinLockRelease(&slot->mutex);
}

void
CompactionProgressEnd(void)
{
	FreeMySlot();
}

/*
 * CompactionProgressCopy
 *		Copy every busy slot into a palloc'd array at *entries; returns how
 *		many.
 */
int
CompactionProgressCopy(CompactionProgressEntry **entries)
{
	int			n = 0;
	int			i;

	*entries = palloc(sizeof(CompactionProgressEntry) * Max(nslots, 1));
	for (i = 0; i < nslots; i++)
	{
		SpinLockAcquire(&slots[i].mutex);
		if (slots[i].entry.command != COMPACTION_NONE)
			(*entries)[n++] = slots[i].entry;
		SpinLockRelease(&slots[i].mutex);
	}
	return n;
}

const char *
CompactionPhaseName(CompactionPhase phase)
{
	switch (phase)
	{
		case COMPACTION_PHASE_STARTING:
			return "starting";
		case COMPACTION_PHASE_SCANNING_HEAP:
			return "scanning heap pages";
		case COMPACTION_PHASE_MOVING_HEAP:
			return "moving heap tuples";
		case COMPACTION_PHASE_REWRITING_GROUPS:
			return "rewriting row groups";
		case COMPACTION_PHASE_MOVING_BULK:
			return "moving bulk versions";
		case COMPACTION_PHASE_WAITING_WRITERS:
			return "waiting for writers";
		case COMPACTION_PHASE_WAITING_SNAPSHOTS:
			return "waiting for old snapshots";
		case COMPACTION_PHASE_VACUUMING:
			return "vacuuming";
		case COMPACTION_PHASE_SLEEPING:
			return "sleeping";
	}
	return "unknown";
}
