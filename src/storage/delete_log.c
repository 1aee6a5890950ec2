/*-------------------------------------------------------------------------
 *
 * delete_log.c
 *	  Per row group log of plain deletes: (xid, command id) runs of rows.
 *
 * A plain DELETE of a row-group row that has no promoted copy does not
 * promote it (mvcc/row_state.c): it records the delete here, as a run: the
 * deleting (sub)transaction, its command id and a 64-bit bitmap of the rows
 * of one window of 64 consecutive rows.  A statement that deletes rows of
 * one window one after the other sets bits of one run.  A row's delete is
 * the last run that covers it: a run is only added for a row whose last
 * run is not live (its transaction aborted), so at most one live run
 * covers a row, and readers evaluate it as heap evaluates a plain xmax
 * (mvcc/visibility.c, DeleteRunLiveness).  A row's promoted copy, once
 * recorded in the promotion map, says more than its run: a promoter copies
 * the run into the copy's header (mvcc/row_state.c), and readers that find
 * a copy ignore the run.
 *
 * Layout.  The group's DELETED_ROOT page (storage/deleted_rows.c), found
 * from the promotion map's last root page, names through its cp_next (never
 * used before, InvalidBlockNumber in every older table) a DELETE_LOG_ROOT
 * page: the block numbers of the group's segment pages, one per
 * LOG_SEGMENT_ROWS rows (0: no page yet).  A segment page holds an array of
 * runs in the order they were added.  Pages are made under the writer lock
 * (generic WAL); runs are added under the segment page's exclusive lock, each
 * one XLOG_COLSTORE_LOG_APPEND record of colstore's resource manager (a
 * generic record would compare the whole page for every row), and removed
 * by VACUUM in generic records.  A segment page with no room makes the
 * delete promote its row as before.
 *
 * Serialisation with promotion (storage/promotion_map.c).  A deleter adds
 * a run while it holds the lock on the row's promotion map root page
 * (shared) and leaf (shared, if any), after checking the row has no copy;
 * a promoter sets a slot holding the leaf's exclusive lock and checks the
 * row's last run under it.  Lock order: root page, leaf, segment page.
 *
 * VACUUM turns the runs of committed deletes that every snapshot sees into
 * deleted-rows bits once the rows' index entries are gone, and then drops
 * those runs and the runs of aborted transactions (DeleteLogPrune).
 * Readers read the runs before the bits (storage/promotion_map.c), so a
 * dropped run's row is found bitmapped.  A segment page left with no run is
 * then detached (DeleteLogDetachEmpty) and, once no snapshot from before
 * remains, given to the free space map (storage/deleted_rows_vacuum.c).
 *
 * IDENTIFICATION
 *	  src/storage/delete_log.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/generic_xlog.h"
#include "access/transam.h"
#include "access/xact.h"
#include "access/xloginsert.h"
#include "access/xlogutils.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/procarray.h"
#include "utils/rel.h"

#include "storage/colstore_wal.h"
#include "storage/delete_log.h"
#include "storage/deleted_rows.h"
#include "storage/deleted_rows_page.h"
#include "storage/metapage.h"
#include "storage/page_reuse.h"
#include "storage/promotion_map.h"

#define LOG_WINDOW			64
/* a whole number of promotion map leaves, so a leaf lies in one segment */
#define LOG_SEGMENT_ROWS	(PromotionMapLeafRemaining(0) * 12)

/* Contents of a DELETE_LOG_ROOT page. */
typedef struct LogRootData
{
	uint32		lr_nsegments;	/* segment pages the group has room for */
	BlockNumber lr_segments[FLEXIBLE_ARRAY_MEMBER]; /* 0: none yet */
} LogRootData;

/*
 * One run: rows RunWindow(run) + i for each bit i set in lr_bits.  The
 * window's first row is a multiple of LOG_WINDOW, so lr_first's low bits
 * are free: RUN_MOVED marks the runs of a compaction that moved the rows
 * into another row group (compaction.c; a bit older builds never set).
 */
typedef struct LogRun
{
	TransactionId lr_xid;
	CommandId	lr_cid;
	uint32		lr_first;		/* the window's first row | RUN_MOVED */
	uint32		lr_bits[2];		/* rows 0-31, 32-63 of the window */
} LogRun;

#define RUN_MOVED			0x1
#define RunWindow(run)		((run)->lr_first & ~(uint32) (LOG_WINDOW - 1))
#define RunIsMoved(run)		(((run)->lr_first & RUN_MOVED) != 0)

/* Contents of a DELETE_LOG page. */
typedef struct LogPageData
{
	uint32		lp_nruns;
	LogRun		lp_runs[FLEXIBLE_ARRAY_MEMBER];
} LogPageData;

#define RUNS_PER_PAGE \
	((uint32) ((COLSTORE_DATA_PER_PAGE - offsetof(LogPageData, lp_runs)) / sizeof(LogRun)))
#define LogRoot(page)	((LogRootData *) ((char *) (page) + COLSTORE_DATA_START))
#define LogPage(page)	((LogPageData *) ((char *) (page) + COLSTORE_DATA_START))

static inline uint32
SegmentsFor(uint32 nrows)
{
	return (nrows + LOG_SEGMENT_ROWS - 1) / LOG_SEGMENT_ROWS;
}

static inline bool
RunHasRow(const LogRun *run, uint32 row)
{
	uint32		bit = row - RunWindow(run);

	return row >= RunWindow(run) && bit < LOG_WINDOW &&
		(run->lr_bits[bit / 32] & ((uint32) 1 << (bit % 32))) != 0;
}

/* Raise the error for a delete log page that does not fit its group. */
pg_noreturn static void
ReportBadLog(Relation rel, const RowGroupDirEntry *group, BlockNumber blkno)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg_internal("colstore table \"%s\": delete log of the row group at row %llu is corrupted",
							 RelationGetRelationName(rel),
							 (unsigned long long) group->rg_first_row),
			 errdetail_internal("Block %u does not fit the row group.", blkno)));
}

/*
 * DeleteLogRootFind
 *		The group's DELETE_LOG_ROOT page, or InvalidBlockNumber; *deleted_root
 *		(may be NULL) gets its DELETED_ROOT page (or InvalidBlockNumber).
 *		Once made, it stays until the group is freed.  Reads the promotion
 *		map's last root page and the DELETED_ROOT page: callers holding a
 *		promotion map leaf lock must not (see the file header).
 */
BlockNumber
DeleteLogRootFind(Relation rel, const RowGroupDirEntry *group, BlockNumber *deleted_root)
{
	BlockNumber droot = DeletedRootFind(rel, group, NULL);
	BlockNumber next;
	Buffer		buf;

	if (deleted_root != NULL)
		*deleted_root = droot;
	if (droot == InvalidBlockNumber)
		return InvalidBlockNumber;
	buf = ColstoreReadCached(rel, droot);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	(void) DeletedRootCheck(rel, group, buf);
	next = ColstorePageGetOpaque(BufferGetPage(buf))->cp_next;
	UnlockReleaseBuffer(buf);
	if (next != InvalidBlockNumber && !ColstoreBlockIsValid(rel, next))
		ReportBadLog(rel, group, next);
	return next;
}

/* Check the locked DELETE_LOG_ROOT page of group and return its contents. */
static LogRootData *
LogRootCheck(Relation rel, const RowGroupDirEntry *group, Buffer buf)
{
	Page		page = BufferGetPage(buf);
	LogRootData *root;

	ColstoreCheckPage(rel, BufferGetBlockNumber(buf), page, COLSTORE_PAGE_DELETE_LOG_ROOT);
	root = LogRoot(page);
	if (root->lr_nsegments != SegmentsFor(group->rg_nrows))
		ReportBadLog(rel, group, BufferGetBlockNumber(buf));
	return root;
}

/* The segment page of seg named by log root page root (0: none). */
static BlockNumber
SegmentPage(Relation rel, const RowGroupDirEntry *group, BlockNumber root, uint32 seg)
{
	Buffer		buf;
	BlockNumber blkno;

	Assert(root != InvalidBlockNumber);
	buf = ColstoreReadCached(rel, root);

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	blkno = LogRootCheck(rel, group, buf)->lr_segments[seg];
	UnlockReleaseBuffer(buf);
	if (blkno != 0 && !ColstoreBlockIsValid(rel, blkno))
		ReportBadLog(rel, group, blkno);
	return blkno;
}

/*
 * Segment page blkno, locked in mode and checked to be one; recent (may be
 * NULL) as for ColstoreReadRecent.
 */
static Buffer
ReadLogPage(Relation rel, const RowGroupDirEntry *group, BlockNumber blkno, int mode,
			Buffer *recent)
{
	Buffer		buf = recent != NULL ? ColstoreReadRecent(rel, blkno, recent) :
		ReadBuffer(rel, blkno);

	LockBuffer(buf, mode);
	ColstoreCheckPage(rel, blkno, BufferGetPage(buf), COLSTORE_PAGE_DELETE_LOG);
	if (LogPage(BufferGetPage(buf))->lp_nruns > RUNS_PER_PAGE)
		ReportBadLog(rel, group, blkno);
	return buf;
}

/* Note in runs[] the runs of segment page blkno over [first, first + n). */
static bool
ReadSegmentRuns(Relation rel, const RowGroupDirEntry *group, BlockNumber blkno,
				uint32 first, uint32 n, DeleteRun *runs)
{
	Buffer		buf = ReadLogPage(rel, group, blkno, BUFFER_LOCK_SHARE, NULL);
	LogPageData *log = LogPage(BufferGetPage(buf));
	bool		any = false;
	uint32		i;

	for (i = 0; i < log->lp_nruns; i++)
	{
		const LogRun *run = &log->lp_runs[i];
		uint32		lo = Max(RunWindow(run), first);
		uint32		hi = Min(RunWindow(run) + LOG_WINDOW, first + n);
		uint32		row;

		for (row = lo; row < hi; row++)
			if (RunHasRow(run, row))
			{
				runs[row - first].xid = run->lr_xid;
				runs[row - first].cid = run->lr_cid;
				runs[row - first].moved = RunIsMoved(run);
				any = true;
			}
	}
	UnlockReleaseBuffer(buf);
	return any;
}

/* The segment (of LOG_SEGMENT_ROWS rows) row belongs to. */
uint32
DeleteLogSegmentOf(uint32 row)
{
	return row / LOG_SEGMENT_ROWS;
}

/*
 * DeleteLogSegment
 *		The segment page of row of group's delete log; 0 if the group has no
 *		promotion map, no DELETE_LOG_ROOT page or no page for row's segment
 *		yet.  Once made, a segment page stays until the group is freed or
 *		VACUUM detaches it empty (DeleteLogDetachEmpty), so a caller that does
 *		not hold the writer lock must read it once and use that block (the
 *		detach flags the page, which DeleteLogAppend checks), not ask again.
 */
BlockNumber
DeleteLogSegment(Relation rel, const RowGroupDirEntry *group, uint32 row)
{
	BlockNumber root;

	if (group->rg_state_root == 0)
		return 0;
	root = DeleteLogRootFind(rel, group, NULL);
	if (root == InvalidBlockNumber)
		return 0;
	return SegmentPage(rel, group, root, row / LOG_SEGMENT_ROWS);
}

/*
 * DeleteLogReadLeaf
 *		DeleteLogRead for rows [first, first + n) of one promotion map leaf,
 *		given the group's DELETE_LOG_ROOT page root: reads only that page and
 *		a segment page, so a caller holding the leaf's lock may call it.
 */
void
DeleteLogReadLeaf(Relation rel, const RowGroupDirEntry *group, BlockNumber root,
				  uint32 first, uint32 n, DeleteRun *runs)
{
	BlockNumber blkno;
	uint32		i;

	for (i = 0; i < n; i++)
		runs[i].xid = InvalidTransactionId;
	Assert(n > 0 && first / LOG_SEGMENT_ROWS == (first + n - 1) / LOG_SEGMENT_ROWS);
	blkno = SegmentPage(rel, group, root, first / LOG_SEGMENT_ROWS);
	if (blkno != 0)
		(void) ReadSegmentRuns(rel, group, blkno, first, n, runs);
}

/*
 * DeleteLogRead
 *		runs[i] = the last run of group's delete log that covers row first + i
 *		(0-based in the group), for i < n; xid Invalid where none does.
 *		Returns whether any does.  Whether a run's transaction committed is
 *		for the caller to judge.
 */
bool
DeleteLogRead(Relation rel, const RowGroupDirEntry *group, uint32 first,
			  uint32 n, DeleteRun *runs)
{
	BlockNumber root;
	bool		any = false;
	uint32		seg;
	uint32		i;

	for (i = 0; i < n; i++)
		runs[i].xid = InvalidTransactionId;
	if (group->rg_state_root == 0 || n == 0)
		return false;
	root = DeleteLogRootFind(rel, group, NULL);
	if (root == InvalidBlockNumber)
		return false;
	for (seg = first / LOG_SEGMENT_ROWS; seg <= (first + n - 1) / LOG_SEGMENT_ROWS; seg++)
	{
		BlockNumber blkno = SegmentPage(rel, group, root, seg);

		if (blkno != 0 && ReadSegmentRuns(rel, group, blkno, first, n, runs))
			any = true;
	}
	return any;
}

/*
 * DeleteLogAddPages
 *		Give group its DELETE_LOG_ROOT page and row's segment page if it has
 *		none.  The group must have its DELETED_ROOT page.  Caller holds the
 *		writer lock.
 */
void
DeleteLogAddPages(Relation rel, const RowGroupDirEntry *group, uint32 row)
{
	BlockNumber droot;
	BlockNumber root = DeleteLogRootFind(rel, group, &droot);
	uint32		seg = row / LOG_SEGMENT_ROWS;
	GenericXLogState *state;
	Buffer		newbuf;
	Buffer		parent;
	Page		page;
	Page		ppage;

	Assert(ColstoreWriterLockHeld(rel));
	if (droot == InvalidBlockNumber)
		elog(ERROR, "could not find the deleted-rows root of a row group of colstore table \"%s\"",
			 RelationGetRelationName(rel));
	if (root == InvalidBlockNumber)
	{
		newbuf = ColstoreNewPage(rel);
		parent = ReadBuffer(rel, droot);
		LockBuffer(parent, BUFFER_LOCK_EXCLUSIVE);
		state = GenericXLogStart(rel);
		ppage = GenericXLogRegisterBuffer(state, parent, 0);
		(void) DeletedRootCheck(rel, group, parent);
		page = GenericXLogRegisterBuffer(state, newbuf, GENERIC_XLOG_FULL_IMAGE);
		ColstoreInitPage(page, COLSTORE_PAGE_DELETE_LOG_ROOT);
		memset(LogRoot(page), 0, COLSTORE_DATA_PER_PAGE);
		LogRoot(page)->lr_nsegments = SegmentsFor(group->rg_nrows);
		ColstorePageSetLower(page, COLSTORE_DATA_END);
		ColstorePageGetOpaque(ppage)->cp_next = BufferGetBlockNumber(newbuf);
		GenericXLogFinish(state);
		root = BufferGetBlockNumber(newbuf);
		UnlockReleaseBuffer(newbuf);
		UnlockReleaseBuffer(parent);
	}
	if (SegmentPage(rel, group, root, seg) != 0)
		return;
	newbuf = ColstoreNewPage(rel);
	parent = ReadBuffer(rel, root);
	LockBuffer(parent, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(rel);
	ppage = GenericXLogRegisterBuffer(state, parent, 0);
	(void) LogRootCheck(rel, group, parent);
	page = GenericXLogRegisterBuffer(state, newbuf, GENERIC_XLOG_FULL_IMAGE);
	ColstoreInitPage(page, COLSTORE_PAGE_DELETE_LOG);
	memset(LogPage(page), 0, COLSTORE_DATA_PER_PAGE);
	ColstorePageSetLower(page, COLSTORE_DATA_END);
	LogRoot(ppage)->lr_segments[seg] = BufferGetBlockNumber(newbuf);
	GenericXLogFinish(state);
	UnlockReleaseBuffer(newbuf);
	UnlockReleaseBuffer(parent);
}

/*
 * DeleteRunLive
 *		Is a run of xid a delete that may count: ours, running, or committed
 *		(not aborted or crashed)?
 */
bool
DeleteRunLive(TransactionId xid)
{
	return TransactionIdIsCurrentTransactionId(xid) ||
		TransactionIdIsInProgress(xid) ||
		TransactionIdDidCommit(xid);
}

/*
 * Set row's bit in page's last run, or in a new run of xid and cid (flagged
 * RUN_MOVED if moved).
 */
static void
AppendToPage(Page page, uint32 row, TransactionId xid, CommandId cid, bool new_run,
			 bool moved)
{
	LogPageData *log = LogPage(page);
	LogRun	   *run;
	uint32		bit = row % LOG_WINDOW;

	if (new_run)
	{
		run = &log->lp_runs[log->lp_nruns++];
		memset(run, 0, sizeof(LogRun));
		run->lr_xid = xid;
		run->lr_cid = cid;
		run->lr_first = (row - bit) | (moved ? RUN_MOVED : 0);
	}
	else
		run = &log->lp_runs[log->lp_nruns - 1];
	run->lr_bits[bit / 32] |= (uint32) 1 << (bit % 32);
}

/*
 * DeleteLogAppendRedo
 *		Replay XLOG_COLSTORE_LOG_APPEND.
 */
void
DeleteLogAppendRedo(XLogReaderState *record)
{
	xl_colstore_log_append *xlrec = (xl_colstore_log_append *) XLogRecGetData(record);
	Buffer		buf;

	if (XLogReadBufferForRedo(record, 0, &buf) == BLK_NEEDS_REDO)
	{
		Page		page = BufferGetPage(buf);
		LogPageData *log = LogPage(page);

		if (xlrec->new_run ? log->lp_nruns >= RUNS_PER_PAGE : log->lp_nruns == 0)
			elog(PANIC, "colstore delete log redo: no room for row %u", xlrec->row);
		AppendToPage(page, xlrec->row, xlrec->xid, xlrec->cid, xlrec->new_run,
					 xlrec->moved != 0);
		PageSetLSN(page, record->EndRecPtr);
		MarkBufferDirty(buf);
	}
	if (BufferIsValid(buf))
		UnlockReleaseBuffer(buf);
}

/*
 * Make room on the full, exclusively locked segment page buf by dropping
 * the runs of aborted transactions (what VACUUM would drop): no row's last
 * live run changes, and the others keep their order.  One generic WAL
 * record.  Returns whether any run was dropped.
 */
static bool
DropAbortedRuns(Relation rel, Buffer buf)
{
	LogPageData *log = LogPage(BufferGetPage(buf));
	GenericXLogState *state;
	uint32		keep = 0;
	uint32		i;

	for (i = 0; i < log->lp_nruns; i++)
		if (!DeleteRunLive(log->lp_runs[i].lr_xid))
			break;
	if (i == log->lp_nruns)
		return false;
	state = GenericXLogStart(rel);
	log = LogPage(GenericXLogRegisterBuffer(state, buf, 0));
	for (i = 0; i < log->lp_nruns; i++)
		if (DeleteRunLive(log->lp_runs[i].lr_xid))
			log->lp_runs[keep++] = log->lp_runs[i];
	memset(&log->lp_runs[keep], 0, sizeof(LogRun) * (log->lp_nruns - keep));
	log->lp_nruns = keep;
	GenericXLogFinish(state);
	return true;
}

/*
 * The run this backend added last, if no earlier run of its page covered
 * any row of its window when it was added (a "fresh" run).  Runs are only
 * ever appended at a page's end or removed (DropAbortedRuns, DeleteLogPrune,
 * neither of which drops a run of a running transaction, nor reorders), and
 * only this backend adds runs of its xid and command: so while the page's
 * last run is still this one (same xid, command id and window, which no
 * other run of ours can share without replacing this note), no run before
 * it covers a row of its window, and a row whose bit it lacks has no run at
 * all.  DeleteLogAppend then extends it without reading the page's other
 * runs (a dense DELETE adds up to 64 rows to each run, and a page holds up
 * to RUNS_PER_PAGE runs).  The key includes the relation's file and the
 * page: a page stays a log page of its group while a transaction that
 * deleted from the group runs.
 */
static struct
{
	RelFileLocator node;
	BlockNumber blkno;
	TransactionId xid;			/* Invalid: no note */
	CommandId	cid;
	uint32		window;			/* lr_first: the window's first row, and
								 * RUN_MOVED */
}			FreshRun;

/* the buffer DeleteLogAppend found its page in last (ColstoreReadRecent) */
static Buffer RecentLogBuffer = InvalidBuffer;

/*
 * Is the last run of log (on page blkno of rel) FreshRun, without row's bit?
 * first is the lr_first of a run for row (its window, and RUN_MOVED).
 */
static bool
ExtendsFreshRun(Relation rel, BlockNumber blkno, const LogPageData *log,
				uint32 row, TransactionId xid, CommandId cid, uint32 first)
{
	const LogRun *run;

	if (!TransactionIdEquals(FreshRun.xid, xid) || FreshRun.cid != cid ||
		FreshRun.blkno != blkno || FreshRun.window != first ||
		!RelFileLocatorEquals(FreshRun.node, rel->rd_locator) || log->lp_nruns == 0)
		return false;
	run = &log->lp_runs[log->lp_nruns - 1];
	return TransactionIdEquals(run->lr_xid, xid) && run->lr_cid == cid &&
		run->lr_first == FreshRun.window && !RunHasRow(run, row);
}

/*
 * DeleteLogAppend
 *		Log the delete of row (0-based) of group by xid in command cid.  The
 *		caller holds the locks that keep the row from being promoted
 *		meanwhile and has checked it has no copy (storage/promotion_map.c,
 *		PromotionMapLogDelete); blkno is row's segment page
 *		(DeleteLogSegment), found before those locks were taken.  Returns
 *		DELETE_LOG_CONTENDED, logging nothing, if a live run covers the row
 *		already, DELETE_LOG_FULL if the page has no room even without the
 *		runs of aborted transactions (dropped first when it is full) or if
 *		VACUUM detached it since it was found (DeleteLogDetachEmpty: the
 *		flag, read under the page's exclusive lock, says so).  One XLOG_COLSTORE_LOG_APPEND record, which needs colstore's
 *		resource manager when the table is WAL-logged.
 */
DeleteLogResult
DeleteLogAppend(Relation rel, const RowGroupDirEntry *group, BlockNumber blkno,
				uint32 row, TransactionId xid, CommandId cid, bool moved)
{
	uint32		window = row - row % LOG_WINDOW;
	uint32		first = window | (moved ? RUN_MOVED : 0);
	LogPageData *log;
	LogRun	   *last = NULL;
	LogRun	   *run;
	Buffer		buf;
	uint32		i;

	Assert(blkno != 0 && TransactionIdIsValid(xid));
	buf = ReadLogPage(rel, group, blkno, BUFFER_LOCK_EXCLUSIVE, &RecentLogBuffer);
	if (ColstorePageGetOpaque(BufferGetPage(buf))->cp_flags & COLSTORE_PAGE_F_RETIRED)
	{
		/* VACUUM detached the page since blkno was found: the row promotes */
		UnlockReleaseBuffer(buf);
		return DELETE_LOG_FULL;
	}
	log = LogPage(BufferGetPage(buf));
	if (ExtendsFreshRun(rel, blkno, log, row, xid, cid, first))
	{
		/* no run covers the row (see FreshRun): extend the last one */
		run = &log->lp_runs[log->lp_nruns - 1];
#ifdef USE_ASSERT_CHECKING
		for (i = 0; i < log->lp_nruns; i++)
			Assert(!RunHasRow(&log->lp_runs[i], row));
#endif
	}
	else
	{
		bool		fresh = true;

		for (i = 0; i < log->lp_nruns; i++)
		{
			if (RunWindow(&log->lp_runs[i]) == window)
				fresh = false;
			if (RunHasRow(&log->lp_runs[i], row))
				last = &log->lp_runs[i];
		}
		if (last != NULL && DeleteRunLive(last->lr_xid))
		{
			UnlockReleaseBuffer(buf);
			return DELETE_LOG_CONTENDED;
		}
		run = log->lp_nruns > 0 ? &log->lp_runs[log->lp_nruns - 1] : NULL;
		if (run == NULL || run->lr_xid != xid || run->lr_cid != cid ||
			run->lr_first != first)
		{
			if (log->lp_nruns >= RUNS_PER_PAGE)
			{
				if (!DropAbortedRuns(rel, buf))
				{
					UnlockReleaseBuffer(buf);
					return DELETE_LOG_FULL;
				}
				/* only runs of aborted transactions went: fresh stays right */
			}
			run = NULL;
			/* the note is of our newest run, so it changes now */
			FreshRun.xid = InvalidTransactionId;
			if (fresh)
			{
				FreshRun.node = rel->rd_locator;
				FreshRun.blkno = blkno;
				FreshRun.xid = xid;
				FreshRun.cid = cid;
				FreshRun.window = first;
			}
		}
	}
	START_CRIT_SECTION();
	AppendToPage(BufferGetPage(buf), row, xid, cid, run == NULL, moved);
	MarkBufferDirty(buf);
	if (RelationNeedsWAL(rel))
	{
		xl_colstore_log_append xlrec;
		XLogRecPtr	recptr;

		memset(&xlrec, 0, sizeof(xlrec));
		xlrec.xid = xid;
		xlrec.cid = cid;
		xlrec.row = row;
		xlrec.new_run = run == NULL;
		xlrec.moved = moved;
		XLogBeginInsert();
		XLogRegisterData((char *) &xlrec, sizeof(xlrec));
		XLogRegisterBuffer(0, buf, REGBUF_STANDARD);
		recptr = XLogInsert(COLSTORE_RMGR_ID, XLOG_COLSTORE_LOG_APPEND);
		PageSetLSN(BufferGetPage(buf), recptr);
	}
	END_CRIT_SECTION();
	UnlockReleaseBuffer(buf);
	return DELETE_LOG_DONE;
}

/*
 * DeleteLogPrune
 *		For VACUUM: drop the runs of aborted transactions from group's log,
 *		and, if drop_committed, the runs of transactions that committed
 *		before oldest_xmin (the caller has set their rows' deleted-rows bits,
 *		or their rows have copies).  One generic WAL record per page changed.
 *		Returns the oldest xid of the runs kept (InvalidTransactionId if
 *		none), which relfrozenxid must not pass; *emptied gets whether some
 *		segment page is left without a run (DeleteLogDetachEmpty's work).
 */
TransactionId
DeleteLogPrune(Relation rel, const RowGroupDirEntry *group,
			   TransactionId oldest_xmin, bool drop_committed, bool *emptied)
{
	TransactionId oldest_kept = InvalidTransactionId;
	BlockNumber root;
	uint32		seg;

	*emptied = false;

	if (group->rg_state_root == 0)
		return InvalidTransactionId;
	root = DeleteLogRootFind(rel, group, NULL);
	if (root == InvalidBlockNumber)
		return InvalidTransactionId;
	for (seg = 0; seg < SegmentsFor(group->rg_nrows); seg++)
	{
		BlockNumber blkno = SegmentPage(rel, group, root, seg);
		GenericXLogState *state;
		LogPageData *log;
		Buffer		buf;
		uint32		keep = 0;
		uint32		i;

		if (blkno == 0)
			continue;
		buf = ReadLogPage(rel, group, blkno, BUFFER_LOCK_EXCLUSIVE, NULL);
		state = GenericXLogStart(rel);
		log = LogPage(GenericXLogRegisterBuffer(state, buf, 0));
		for (i = 0; i < log->lp_nruns; i++)
		{
			TransactionId xid = log->lp_runs[i].lr_xid;
			bool		drop;

			if (TransactionIdIsInProgress(xid))
				drop = false;
			else if (!TransactionIdDidCommit(xid))
				drop = true;	/* aborted, or crashed */
			else
				drop = drop_committed && TransactionIdPrecedes(xid, oldest_xmin);
			if (!drop)
			{
				log->lp_runs[keep++] = log->lp_runs[i];
				if (!TransactionIdIsValid(oldest_kept) ||
					TransactionIdPrecedes(xid, oldest_kept))
					oldest_kept = xid;
			}
		}
		if (keep < log->lp_nruns)
		{
			memset(&log->lp_runs[keep], 0, sizeof(LogRun) * (log->lp_nruns - keep));
			log->lp_nruns = keep;
			GenericXLogFinish(state);
		}
		else
			GenericXLogAbort(state);
		if (keep == 0)
			*emptied = true;
		UnlockReleaseBuffer(buf);
	}
	return oldest_kept;
}

/*
 * DeleteLogDetachEmpty
 *		For VACUUM, after DeleteLogPrune: detach up to room segment pages of
 *		group's log that hold no run, each in one generic WAL record: its
 *		slot in the DELETE_LOG_ROOT page cleared, the page flagged
 *		COLSTORE_PAGE_F_RETIRED, and note called to list it (with a stamp) on
 *		extra, the group's DELETED_ROOT page, which the caller holds
 *		exclusively, as it holds the writer lock (no DeleteLogAddPages
 *		meanwhile).  Returns how many were detached.
 *
 *		Why nobody loses a run.  The page is checked empty and flagged under
 *		its exclusive lock, and DeleteLogAppend, which may have found the
 *		page before, checks the flag under the same lock and adds nothing to
 *		a flagged page (its row promotes): so no run is ever added to a
 *		detached page, and readers that still follow the old slot read no
 *		run there, as they would have before.  A later delete in the segment
 *		makes a new page (DeleteLogAddPages finds the slot clear).  The page
 *		itself is given to the free space map only once its stamp precedes
 *		OldestXmin (storage/deleted_rows_vacuum.c, as for detached promotion
 *		map leaves): a reader or deleter that read the slot before holds a
 *		snapshot (a deleter also an xid) from before the stamp.  Lock order:
 *		DELETED_ROOT page, log root, segment page, which readers and
 *		deleters never take in another order (they hold at most one of the
 *		three at a time; a promoter holds a leaf first, which VACUUM does not
 *		take here).
 */
uint32
DeleteLogDetachEmpty(Relation rel, const RowGroupDirEntry *group, Buffer extra,
					 uint32 room, void (*note) (Page extra, BlockNumber page))
{
	BlockNumber root = ColstorePageGetOpaque(BufferGetPage(extra))->cp_next;
	uint32		nseg = SegmentsFor(group->rg_nrows);
	uint32		detached = 0;
	Buffer		rootbuf;
	uint32		seg;

	Assert(ColstoreWriterLockHeld(rel));
	if (root == InvalidBlockNumber || room == 0)
		return 0;
	if (!ColstoreBlockIsValid(rel, root))
		ReportBadLog(rel, group, root);
	rootbuf = ReadBuffer(rel, root);
	LockBuffer(rootbuf, BUFFER_LOCK_EXCLUSIVE);
	(void) LogRootCheck(rel, group, rootbuf);
	for (seg = 0; seg < nseg && detached < room; seg++)
	{
		BlockNumber blkno = LogRoot(BufferGetPage(rootbuf))->lr_segments[seg];
		GenericXLogState *state;
		Page		page;
		Buffer		buf;

		if (blkno == 0)
			continue;
		if (!ColstoreBlockIsValid(rel, blkno))
			ReportBadLog(rel, group, blkno);
		buf = ReadLogPage(rel, group, blkno, BUFFER_LOCK_EXCLUSIVE, NULL);
		if (LogPage(BufferGetPage(buf))->lp_nruns > 0 ||
			(ColstorePageGetOpaque(BufferGetPage(buf))->cp_flags & COLSTORE_PAGE_F_RETIRED))
		{
			UnlockReleaseBuffer(buf);
			continue;
		}
		state = GenericXLogStart(rel);
		LogRoot(GenericXLogRegisterBuffer(state, rootbuf, 0))->lr_segments[seg] = 0;
		page = GenericXLogRegisterBuffer(state, buf, 0);
		ColstorePageGetOpaque(page)->cp_flags |= COLSTORE_PAGE_F_RETIRED;
		note(GenericXLogRegisterBuffer(state, extra, 0), blkno);
		GenericXLogFinish(state);
		UnlockReleaseBuffer(buf);
		detached++;
	}
	UnlockReleaseBuffer(rootbuf);
	return detached;
}

/*
 * DeleteLogPages
 *		Set *blocks (palloc'd) to the pages of group's delete log (its root
 *		and segment pages), found from its DELETED_ROOT page deleted_root,
 *		each checked to be of its kind, and return how many there are.
 */
int
DeleteLogPages(Relation rel, const RowGroupDirEntry *group, BlockNumber deleted_root,
			   BlockNumber **blocks)
{
	uint32		nseg = SegmentsFor(group->rg_nrows);
	BlockNumber root;
	Buffer		buf;
	int			n = 0;
	uint32		seg;

	*blocks = palloc(sizeof(BlockNumber) * (nseg + 1));
	buf = ReadBuffer(rel, deleted_root);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	(void) DeletedRootCheck(rel, group, buf);
	root = ColstorePageGetOpaque(BufferGetPage(buf))->cp_next;
	UnlockReleaseBuffer(buf);
	if (root == InvalidBlockNumber)
		return 0;
	if (!ColstoreBlockIsValid(rel, root))
		ReportBadLog(rel, group, root);
	(*blocks)[n++] = root;
	for (seg = 0; seg < nseg; seg++)
	{
		BlockNumber blkno = SegmentPage(rel, group, root, seg);

		if (blkno == 0)
			continue;
		UnlockReleaseBuffer(ReadLogPage(rel, group, blkno, BUFFER_LOCK_SHARE, NULL));
		(*blocks)[n++] = blkno;
	}
	return n;
}
