/*-------------------------------------------------------------------------
 *
 * delta_freeze.c
 *	  Freezing the tuples of one heap page inside a colstore relation, with
 *	  heap's own freeze decisions, logged as XLOG_COLSTORE_FREEZE and
 *	  replayed here.
 *
 * heapam decides how each tuple is frozen (heap_prepare_freeze_tuple) and
 * changes it (heap_execute_freeze_tuple); colstore gathers the plans of a
 * page, executes them and logs them in its own record, because heap's
 * freeze record became part of its prune record in 17 (delta_vacuum.c
 * explains why colstore cannot use that).  The version difference:
 *
 *	- before 16 every tuple with an xid older than FreezeLimit (or a
 *	  multixact older than MultiXactCutoff) is frozen, and the others only
 *	  lower the relation's new relfrozenxid/relminmxid;
 *	- from 16 heap decides per page (HeapPageFreeze): plans are prepared
 *	  for every tuple that could be frozen, and executed when the page must
 *	  be frozen (freeze_required, the same FreezeLimit rule); the page's
 *	  "freeze" or "no freeze" trackers then become the new horizons.
 *
 * A record's snapshot conflict horizon is OldestXmin retreated by one: every
 * xid a plan removes precedes OldestXmin.
 *
 * IDENTIFICATION
 *	  src/storage/delta_freeze.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/transam.h"
#include "access/xloginsert.h"
#include "access/xlogutils.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/standby.h"

#include "storage/colstore_wal.h"
#include "storage/delta_freeze.h"
#include "storage/delta_wal.h"

/* Start gathering the plans of a page. */
void
DeltaFreezeBegin(DeltaPageFreeze *f, const DeltaVacuumState *vs)
{
	f->nplans = 0;
#if PG_HAS_VACUUM_CUTOFFS
	f->pagefrz.freeze_required = false;
	f->pagefrz.FreezePageRelfrozenXid = vs->new_frozen_xid;
	f->pagefrz.FreezePageRelminMxid = vs->new_min_mxid;
	f->pagefrz.NoFreezePageRelfrozenXid = vs->new_frozen_xid;
	f->pagefrz.NoFreezePageRelminMxid = vs->new_min_mxid;
#endif
}

/*
 * Prepare the freezing of the tuple at off, which stays (it is not dead to
 * everyone), lowering vs's horizons as heap's VACUUM does.
 */
void
DeltaFreezeTuple(DeltaPageFreeze *f, Relation rel, HeapTupleHeader tuple,
				 OffsetNumber off, DeltaVacuumState *vs)
{
	HeapTupleFreeze *plan = &f->plans[f->nplans];
	bool		totally_frozen;
	bool		planned;

#if PG_HAS_VACUUM_CUTOFFS
	planned = heap_prepare_freeze_tuple(tuple, &vs->cutoffs, &f->pagefrz, plan,
										&totally_frozen);
#else
	planned = heap_prepare_freeze_tuple(tuple, RelationGetForm(rel)->relfrozenxid,
										RelationGetForm(rel)->relminmxid,
										vs->freeze_limit, vs->multi_cutoff,
										plan, &totally_frozen,
										&vs->new_frozen_xid, &vs->new_min_mxid);
#endif
	if (planned)
	{
		plan->offset = off;
		f->nplans++;
	}
}

/*
 * Freeze the tuple plan names on page as the plan says: what
 * heap_execute_freeze_tuple does (not exported by every version).
 */
static void
ApplyFreezePlan(Page page, const xl_colstore_freeze_plan *plan)
{
	HeapTupleHeader tuple = (HeapTupleHeader)
		PageGetItem(page, PageGetItemId(page, plan->offset));

	HeapTupleHeaderSetXmax(tuple, plan->xmax);
	if (plan->frzflags & XLH_FREEZE_XVAC)
		HeapTupleHeaderSetXvac(tuple, FrozenTransactionId);
	if (plan->frzflags & XLH_INVALID_XVAC)
		HeapTupleHeaderSetXvac(tuple, InvalidTransactionId);
	tuple->t_infomask = plan->t_infomask;
	tuple->t_infomask2 = plan->t_infomask2;
}

/* Log plans[0..nplans) just applied to the page in buf (inside the critical section). */
static void
LogFreeze(Buffer buf, TransactionId conflict_xid, const xl_colstore_freeze_plan *plans,
		  int nplans)
{
	xl_colstore_freeze xlrec;
	XLogRecPtr	recptr;

	xlrec.conflict_xid = conflict_xid;
	xlrec.nplans = (uint16) nplans;
	XLogBeginInsert();
	XLogRegisterData((char *) &xlrec, sizeof(xlrec));
	XLogRegisterBuffer(0, buf, REGBUF_STANDARD);
	XLogRegisterBufData(0, (char *) plans, nplans * sizeof(xl_colstore_freeze_plan));
	recptr = XLogInsert(COLSTORE_RMGR_ID, XLOG_COLSTORE_FREEZE);
	PageSetLSN(BufferGetPage(buf), recptr);
}

/*
 * DeltaFreezeFinish
 *		Freeze the page in buf (cleanup-locked) as the gathered plans say,
 *		if it is to be frozen, and log it; update vs's horizons.
 */
void
DeltaFreezeFinish(DeltaPageFreeze *f, Relation rel, Buffer buf, DeltaVacuumState *vs)
{
	Page		page = BufferGetPage(buf);
	TransactionId conflict_xid = vs->oldest_xmin;
	xl_colstore_freeze_plan plans[MaxHeapTuplesPerPage];
	int			i;

#if PG_HAS_VACUUM_CUTOFFS
	if (f->pagefrz.freeze_required)
	{
		vs->new_frozen_xid = f->pagefrz.FreezePageRelfrozenXid;
		vs->new_min_mxid = f->pagefrz.FreezePageRelminMxid;
	}
	else
	{
		f->nplans = 0;
		vs->new_frozen_xid = f->pagefrz.NoFreezePageRelfrozenXid;
		vs->new_min_mxid = f->pagefrz.NoFreezePageRelminMxid;
	}
	if (f->nplans > 0)
		heap_pre_freeze_checks(buf, f->plans, f->nplans);
#endif
	if (f->nplans == 0)
		return;
	TransactionIdRetreat(conflict_xid);
	for (i = 0; i < f->nplans; i++)
	{
		plans[i].xmax = f->plans[i].xmax;
		plans[i].offset = f->plans[i].offset;
		plans[i].t_infomask2 = f->plans[i].t_infomask2;
		plans[i].t_infomask = f->plans[i].t_infomask;
		plans[i].frzflags = f->plans[i].frzflags;
		plans[i].pad = 0;
	}

	START_CRIT_SECTION();
	MarkBufferDirty(buf);
	for (i = 0; i < f->nplans; i++)
		ApplyFreezePlan(page, &plans[i]);
	if (RelationNeedsWAL(rel) && ColstoreWalAvailable())
		LogFreeze(buf, conflict_xid, plans, f->nplans);
	else if (RelationNeedsWAL(rel))
		LogPageImage(rel, buf, conflict_xid);
	END_CRIT_SECTION();
}

/*
 * DeltaTupleWouldFreeze
 *		For a tuple VACUUM leaves as it is: lower *oldest_xid and *oldest_mxid
 *		to the xids and multixacts it keeps; true if it holds one that VACUUM
 *		must freeze (an aggressive VACUUM then waits for the page's cleanup
 *		lock).
 */
bool
DeltaTupleWouldFreeze(HeapTupleHeader tuple, const DeltaVacuumState *vs,
					  TransactionId *oldest_xid, MultiXactId *oldest_mxid)
{
#if PG_HAS_VACUUM_CUTOFFS
	return heap_tuple_should_freeze(tuple, &vs->cutoffs, oldest_xid, oldest_mxid);
#else
	return heap_tuple_would_freeze(tuple, vs->freeze_limit, vs->multi_cutoff,
								   oldest_xid, oldest_mxid);
#endif
}

void
DeltaFreezeRedo(XLogReaderState *record)
{
	xl_colstore_freeze *xlrec = (xl_colstore_freeze *) XLogRecGetData(record);
	RelFileLocator locator;
	Buffer		buf;

	XLogRecGetBlockTag(record, 0, &locator, NULL, NULL);
	if (InHotStandby && TransactionIdIsValid(xlrec->conflict_xid))
		ResolveSnapshotConflict(xlrec->conflict_xid, locator);

	if (XLogReadBufferForRedo(record, 0, &buf) == BLK_NEEDS_REDO)
	{
		Page		page = BufferGetPage(buf);
		Size		len;
		xl_colstore_freeze_plan *plans =
			(xl_colstore_freeze_plan *) XLogRecGetBlockData(record, 0, &len);
		int			i;

		if (len != xlrec->nplans * sizeof(xl_colstore_freeze_plan))
			elog(PANIC, "colstore freeze record: %zu bytes of plans for %u tuples",
				 len, xlrec->nplans);
		for (i = 0; i < xlrec->nplans; i++)
			ApplyFreezePlan(page, &plans[i]);
		PageSetLSN(page, record->EndRecPtr);
		MarkBufferDirty(buf);
	}
	if (BufferIsValid(buf))
		UnlockReleaseBuffer(buf);
}
