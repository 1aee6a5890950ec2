/*-------------------------------------------------------------------------
 *
 * delta_vacuum.c
 *	  VACUUM of the heap pages inside a colstore relation
 *	  (storage/delta_heap.c): pruning dead versions, freezing what stays,
 *	  and reusing the items whose index entries are gone.
 *
 * heapam's own pruning (heap_page_prune) cannot be used: it makes dead
 * heap-only tuples LP_UNUSED at once, because heap has no index entries for
 * them, while tables written before colstore kept HOT chains (when every
 * UPDATE made index entries) may have entries on heap-only versions.  So
 * this file does what heap's VACUUM does, page by page, with heap's own
 * visibility and freezing decisions and heap's pruning of HOT chains
 * (storage/delta_chain.c says where they start), but makes every removed
 * version LP_DEAD and collects its TID, and logs its page changes in
 * colstore's own records (delta_wal.c, delta_freeze.c), with the recovery
 * conflicts heap's records carry:
 *
 *	1. DeltaVacuumPage, under a cleanup lock (a page someone holds a pin on
 *	   is left for the next VACUUM, unless the VACUUM is aggressive and the
 *	   page needs freezing, as heap's VACUUM waits only then): versions dead
 *	   to everyone (HeapTupleSatisfiesVacuum against OldestXmin) become
 *	   LP_DEAD, except a HOT chain's start whose chain has a member left,
 *	   which becomes a redirect to it (PlanChain), logged as
 *	   XLOG_COLSTORE_PRUNE with the removed xid horizon; the versions that
 *	   stay are frozen as heap_prepare_freeze_tuple decides
 *	   (XLOG_COLSTORE_FREEZE).  A pruned ordinary version's TID, and a
 *	   redirect's whose chain died, go to the dead items, whose index
 *	   entries the caller removes.
 *	2. A pruned promoted copy (mvcc/row_state.c) stays LP_DEAD for good:
 *	   its row's promotion map slot keeps pointing at it, and an LP_DEAD
 *	   copy reads as "deleted for everyone".  Its heap position is recorded
 *	   so that the caller can find the row and remove the index entries of
 *	   the row's own TID.  An item a map points at is therefore never made
 *	   reusable, so no reader can follow a slot to an unrelated tuple.  A
 *	   copy starts a HOT chain (its row's entries are the chain's): a dead
 *	   copy whose chain has a live member becomes a redirect like any chain
 *	   start, and when that chain dies, the redirect becomes LP_DEAD and is
 *	   recorded as a pruned copy.  The page does not tell a copy's redirect
 *	   from another; the promotion maps do (copy_positions.c, read once per
 *	   VACUUM, the first time such a redirect dies).
 *	3. DeltaVacuumReuseItems, after the index entries are gone: the ordinary
 *	   versions' LP_DEAD items become LP_UNUSED (XLOG_COLSTORE_PRUNE again),
 *	   and the page's free space goes to the free space map, where
 *	   heap_insert and heap_update find it.
 *
 * Dead heap-only (HOT) tuples become LP_DEAD too, where heap would make
 * them LP_UNUSED: they may have index entries here (see above).  heapam's redo of its prune
 * record asserts that no heap-only tuple becomes LP_DEAD; colstore's own
 * record has no such rule.  (Builds before 0.2 wrote heap's records; a
 * server replaying such WAL replays them with heapam.)  Without colstore's
 * resource manager (colstore not in shared_preload_libraries) the changes
 * are logged as full page images instead, after the recovery conflict.
 *
 * An LP_DEAD item found at the start of a VACUUM is taken for a pruned
 * copy.  An ordinary version's LP_DEAD item outlives its VACUUM only if
 * that VACUUM failed between steps 1 and 3; it then stays unused space,
 * never a wrong row.
 *
 * IDENTIFICATION
 *	  src/storage/delta_vacuum.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/heapam.h"
#include "access/heapam_xlog.h"
#include "access/xloginsert.h"
#include "miscadmin.h"
#include "postmaster/autovacuum.h"
#include "storage/bufmgr.h"
#include "storage/freespace.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "storage/copy_positions.h"
#include "storage/delta_chain.h"
#include "storage/delta_freeze.h"
#include "storage/delta_heap.h"
#include "storage/delta_vacuum.h"
#include "storage/delta_wal.h"
#include "storage/page_prefetch.h"

/*
 * DeltaVacuumBegin
 *		Allocate vs's dead item arrays for ndeltas heap pages and
 *		extra_items more TIDs, as many items as
 *		(autovacuum_)maintenance_work_mem allows.  Pages that would overflow
 *		them are left for the next VACUUM.
 */
void
DeltaVacuumBegin(DeltaVacuumState *vs, uint32 ndeltas, double extra_items)
{
	int			work_mem_kb = (InAutoVacuumWorker() && autovacuum_work_mem != -1) ?
		autovacuum_work_mem : maintenance_work_mem;
	double		by_memory = (double) work_mem_kb * 1024 / (2 * sizeof(ItemPointerData));
	double		needed = (double) ndeltas * MaxHeapTuplesPerPage + extra_items;
	int			max_items;

	max_items = (int) Min(by_memory, needed);
	max_items = Min(max_items, (int) ((MaxAllocSize - offsetof(DeadTids, items)) /
									  sizeof(ItemPointerData)));
	max_items = Max(max_items, MaxHeapTuplesPerPage);

	vs->dead_items = palloc(offsetof(DeadTids, items) + sizeof(ItemPointerData) * max_items);
	vs->dead_items->max_items = max_items;
	vs->dead_items->num_items = 0;
	vs->dead_copies = palloc(sizeof(ItemPointerData) * max_items);
	vs->ndead_copies = 0;
	vs->copy_positions = NULL;
	vs->live_versions = vs->dead_versions = 0;
	vs->removed_versions = vs->deleted_rows = vs->pruned_copies = 0;
	vs->prefetch = NULL;
}

/*
 * DeltaVacuumReadAhead
 *		Announce that DeltaVacuumPage will visit the heap pages of
 *		pages[0 .. n) in this order, so that they are read ahead (a read
 *		stream on 17 and later, as heap's VACUUM reads its pages; advice on
 *		15) with vs->strategy.  The prefetcher is allocated in
 *		CurrentMemoryContext; DeltaVacuumEnd releases it.
 */
void
DeltaVacuumReadAhead(Relation rel, DeltaVacuumState *vs,
					 const RowGroupDirEntry *pages, int n)
{
	int			i;

	vs->prefetch = PagePrefetchBegin(rel, vs->strategy, true);
	for (i = 0; i < n; i++)
		PagePrefetchQueue(vs->prefetch, pages[i].rg_header.sp_block);
}

/* Release the pages read ahead for DeltaVacuumPage (none are left in use). */
void
DeltaVacuumEnd(DeltaVacuumState *vs)
{
	if (vs->prefetch != NULL)
		PagePrefetchEnd(vs->prefetch);
	vs->prefetch = NULL;
}

/*
 * Count a version that stays: a dead copy is a deleted row-group row (the
 * row group counted it as a row), a promoted copy otherwise is no row at
 * all, and any other version is a live or a dead row of its own.
 */
static inline void
CountVersion(DeltaVacuumState *vs, bool copy, HTSV_Result res)
{
	if (res == HEAPTUPLE_DEAD || res == HEAPTUPLE_RECENTLY_DEAD)
		*(copy ? &vs->deleted_rows : &vs->dead_versions) += 1;
	else if (!copy)
		vs->live_versions += 1;
}

/*
 * A page VACUUM does not change (someone holds a pin on it): count its
 * versions and lower the horizons to the xids in them.
 */
static void
AccountPage(Relation rel, Buffer buf, DeltaVacuumState *vs)
{
	Page		page = BufferGetPage(buf);
	OffsetNumber off;

	for (off = FirstOffsetNumber; off <= PageGetMaxOffsetNumber(page); off++)
	{
		ItemId		lp = PageGetItemId(page, off);
		HeapTupleData tuple;
		HTSV_Result res;
		bool		copy;

		if (ItemIdIsDead(lp))
			vs->deleted_rows += 1;
		if (!HeapVersionRead(rel, buf, off, &tuple))
			continue;
		copy = HeapTupleHeaderIsPromotedCopy(tuple.t_data);
		res = HeapTupleSatisfiesVacuum(&tuple, vs->oldest_xmin, buf);
		CountVersion(vs, copy, res);
		(void) DeltaTupleWouldFreeze(tuple.t_data, vs, &vs->new_frozen_xid,
									 &vs->new_min_mxid);
	}
}

/* What VACUUM does to one item of a heap page (PlanPrune). */
typedef enum ItemAction
{
	ITEM_KEEP = 0,				/* leave it (and freeze a version that stays) */
	ITEM_DEAD,					/* make it LP_DEAD; its entries go (collected) */
	ITEM_REDIRECT				/* make it (or keep it) a redirect to
								 * redirect_to[off] */
} ItemAction;

typedef struct PrunePlan
{
	HTSV_Result res[MaxHeapTuplesPerPage + 1];	/* verdict of each version */
	uint8		action[MaxHeapTuplesPerPage + 1];	/* ItemAction */
	OffsetNumber redirect_to[MaxHeapTuplesPerPage + 1];
} PrunePlan;

/*
 * Plan the pruning of the HOT chain that starts at item start (a version
 * or a redirect, storage/delta_chain.c), as heap_prune_chain does: its
 * members from the first on are removed up to the last one that is dead to
 * everyone (recently dead ones before it included), and the start, which
 * holds the chain's index entries, becomes a redirect to the member after
 * that, or, if none is left, LP_DEAD (its entries collected).  The removed
 * members are heap-only but, in tables from before colstore kept HOT
 * chains, may have index entries of their own: they become LP_DEAD and
 * are collected too, never unused at once.
 */
static void
PlanChain(Relation rel, Buffer buf, OffsetNumber start, PrunePlan *plan)
{
	OffsetNumber chain[MaxHeapTuplesPerPage];
	bool		seen[MaxHeapTuplesPerPage + 1];
	bool		is_redirect;
	OffsetNumber cur;
	int			n = 0;
	int			latest_dead = -1;
	int			i;

	memset(seen, 0, sizeof(seen));
	is_redirect = !ItemIdIsNormal(PageGetItemId(BufferGetPage(buf), start));
	cur = is_redirect ? DeltaRedirectTarget(rel, buf, start) : start;
	while (cur != InvalidOffsetNumber && !seen[cur])
	{
		HeapTupleData tuple;

		seen[cur] = true;
		chain[n++] = cur;
		if (!HeapVersionRead(rel, buf, cur, &tuple))
			break;
		cur = DeltaChainNext(rel, buf, &tuple);
	}
	for (i = 0; i < n; i++)
	{
		if (plan->res[chain[i]] == HEAPTUPLE_DEAD)
			latest_dead = i;
		else if (plan->res[chain[i]] != HEAPTUPLE_RECENTLY_DEAD)
			break;
	}
	if (is_redirect && n == 0)
	{
		plan->action[start] = ITEM_DEAD;	/* a redirect to nothing */
		return;
	}
	if (latest_dead < 0)
		return;
	for (i = 0; i <= latest_dead; i++)
		plan->action[chain[i]] = ITEM_DEAD;
	if (latest_dead + 1 < n)
	{
		plan->action[start] = ITEM_REDIRECT;
		plan->redirect_to[start] = chain[latest_dead + 1];
	}
	else
		plan->action[start] = ITEM_DEAD;
}

/*
 * Judge every version of the cleanup-locked page in buf once, and, if
 * pruning is on, plan what becomes of each item: HOT chains as PlanChain
 * says, and every other version dead to everyone (promoted copies, and
 * heap-only versions no chain reaches any more, whose updater aborted)
 * LP_DEAD.
 */
static void
PlanPrune(Relation rel, Buffer buf, const DeltaVacuumState *vs, PrunePlan *plan)
{
	OffsetNumber maxoff = PageGetMaxOffsetNumber(BufferGetPage(buf));
	OffsetNumber starts[MaxHeapTuplesPerPage + 1];
	OffsetNumber off;

	memset(plan->action, ITEM_KEEP, sizeof(plan->action));
	for (off = FirstOffsetNumber; off <= maxoff; off++)
	{
		HeapTupleData tuple;

		plan->res[off] = HEAPTUPLE_LIVE;
		if (HeapVersionRead(rel, buf, off, &tuple))
			plan->res[off] = HeapTupleSatisfiesVacuum(&tuple, vs->oldest_xmin, buf);
	}
	if (!vs->may_prune)
		return;
	DeltaChainStarts(rel, buf, starts);
	for (off = FirstOffsetNumber; off <= maxoff; off++)
	{
		ItemId		lp = PageGetItemId(BufferGetPage(buf), off);

		if (starts[off] == off || ItemIdIsRedirected(lp))
			PlanChain(rel, buf, off, plan);
	}
	for (off = FirstOffsetNumber; off <= maxoff; off++)
		if (plan->action[off] == ITEM_KEEP && plan->res[off] == HEAPTUPLE_DEAD &&
			ItemIdIsNormal(PageGetItemId(BufferGetPage(buf), off)))
			plan->action[off] = ITEM_DEAD;
}

/*
 * Make items redirected[2i] redirects to redirected[2i + 1] and items
 * dead[0..ndead) LP_DEAD on the page in buf, and log it.
 */
static void
PruneItems(Relation rel, Buffer buf, TransactionId latest_removed,
		   OffsetNumber *redirected, int nredirected, OffsetNumber *dead, int ndead)
{
	Page		page = BufferGetPage(buf);
	int			i;

	START_CRIT_SECTION();
	for (i = 0; i < nredirected; i++)
		ItemIdSetRedirect(PageGetItemId(page, redirected[2 * i]), redirected[2 * i + 1]);
	for (i = 0; i < ndead; i++)
		ItemIdSetDead(PageGetItemId(page, dead[i]));
	PageRepairFragmentation(page);
	PageClearFull(page);
	MarkBufferDirty(buf);
	if (RelationNeedsWAL(rel))
		LogDeltaPrune(rel, buf, latest_removed, redirected, nredirected,
					  dead, ndead, NULL, 0);
	END_CRIT_SECTION();
}

/* Collect the TID of item off of the page of entry (a version or a redirect). */
static inline void
CollectItem(const RowGroupDirEntry *entry, OffsetNumber off, DeltaVacuumState *vs)
{
	DeltaPageRowOfItem(entry, off, &vs->dead_items->items[vs->dead_items->num_items++]);
}

/*
 * Prune and freeze the page in buf, which is cleanup-locked.  Dead
 * versions are pruned only if pruning is on; the others are frozen either
 * way.  Returns false, changing and counting nothing, if the page's dead
 * items do not fit in vs's arrays: the caller empties them and asks
 * again.
 */
static bool
PrunePage(Relation rel, const RowGroupDirEntry *entry, Buffer buf, DeltaVacuumState *vs,
		  bool *need_copies)
{
	Page		page = BufferGetPage(buf);
	OffsetNumber maxoff = PageGetMaxOffsetNumber(page);
	PrunePlan  *plan = palloc(sizeof(PrunePlan));
	OffsetNumber dead[MaxHeapTuplesPerPage];
	OffsetNumber redirected[2 * MaxHeapTuplesPerPage];
	DeltaPageFreeze freeze;
	TransactionId latest_removed = InvalidTransactionId;
	int			ndead = 0;
	int			nredirected = 0;
	OffsetNumber off;

	*need_copies = false;
	PlanPrune(rel, buf, vs, plan);
	for (off = FirstOffsetNumber; off <= maxoff; off++)
	{
		ndead += plan->action[off] == ITEM_DEAD;
		/* pruned before: collected again, see below */
		ndead += vs->may_prune && ItemIdIsDead(PageGetItemId(page, off));
		/* a redirect that dies may be a copy's: the promotion maps say */
		if (plan->action[off] == ITEM_DEAD && vs->copy_positions == NULL &&
			ItemIdIsRedirected(PageGetItemId(page, off)))
			*need_copies = true;
	}
	if (*need_copies)
	{
		pfree(plan);
		return false;
	}
	if (vs->dead_items->num_items + vs->ndead_copies + ndead > vs->dead_items->max_items)
	{
		pfree(plan);
		return false;
	}

	ndead = 0;
	DeltaFreezeBegin(&freeze, vs);
	for (off = FirstOffsetNumber; off <= maxoff; off++)
	{
		ItemId		lp = PageGetItemId(page, off);
		HeapTupleData tuple;
		bool		is_version = HeapVersionRead(rel, buf, off, &tuple);
		bool		copy = is_version && HeapTupleHeaderIsPromotedCopy(tuple.t_data);

		if (ItemIdIsDead(lp))
		{
			/*
			 * Pruned before: a deleted row's copy.  Its position is collected
			 * again, so that a row whose deleted-rows bit an earlier VACUUM
			 * did not set (it failed before, or predates the bitmaps) loses
			 * its index entries and gets its bit; the caller leaves out rows
			 * whose bit is set, and positions no slot names (an ordinary
			 * version's item a failed VACUUM left LP_DEAD).
			 */
			vs->deleted_rows += 1;
			if (vs->may_prune)
			{
				/* ItemPointerSet is a macro on 15: no side effects in it */
				ItemPointer old_pos = &vs->dead_copies[vs->ndead_copies++];

				ItemPointerSet(old_pos, BufferGetBlockNumber(buf), off);
			}
		}
		if (plan->action[off] == ITEM_REDIRECT)
		{
			if (!ItemIdIsRedirected(lp) || ItemIdGetRedirect(lp) != plan->redirect_to[off])
			{
				redirected[2 * nredirected] = off;
				redirected[2 * nredirected + 1] = plan->redirect_to[off];
				nredirected++;
			}
			if (is_version)
			{
				HeapTupleHeaderAdvanceHorizon(tuple.t_data, &latest_removed);
				vs->removed_versions += 1;
			}
			continue;
		}
		if (plan->action[off] == ITEM_DEAD)
		{
			dead[ndead++] = off;
			if (!is_version)
			{
				ItemPointerData pos;

				/*
				 * A redirect whose chain died: its entries go.  A copy's
				 * redirect (a HOT-updated row's) stays LP_DEAD for good, as a
				 * pruned copy, and its row's entries go.
				 */
				ItemPointerSet(&pos, BufferGetBlockNumber(buf), off);
				if (CopyPositionsLookup(vs->copy_positions, &pos, NULL))
				{
					vs->dead_copies[vs->ndead_copies++] = pos;
					vs->deleted_rows += 1;
					vs->pruned_copies += 1;
				}
				else
					CollectItem(entry, off, vs);
			}
			else if (copy)
			{
				/* ItemPointerSet is a macro on 15: no side effects in it */
				ItemPointer copy_pos = &vs->dead_copies[vs->ndead_copies++];

				HeapTupleHeaderAdvanceHorizon(tuple.t_data, &latest_removed);
				ItemPointerSet(copy_pos, BufferGetBlockNumber(buf), off);
				vs->deleted_rows += 1;
				vs->pruned_copies += 1;
			}
			else
			{
				HeapTupleHeaderAdvanceHorizon(tuple.t_data, &latest_removed);
				CollectItem(entry, off, vs);
				vs->removed_versions += 1;
			}
			continue;
		}
		if (!is_version)
			continue;
		CountVersion(vs, copy, plan->res[off]);
		if (plan->res[off] == HEAPTUPLE_DEAD)
		{
			/* stays for a later VACUUM; it cannot be frozen */
			(void) DeltaTupleWouldFreeze(tuple.t_data, vs, &vs->new_frozen_xid,
										 &vs->new_min_mxid);
			continue;
		}
		DeltaFreezeTuple(&freeze, rel, tuple.t_data, off, vs);
	}
	if (ndead > 0 || nredirected > 0)
		PruneItems(rel, buf, latest_removed, redirected, nredirected, dead, ndead);
	DeltaFreezeFinish(&freeze, rel, buf, vs);
	pfree(plan);
	return true;
}

/*
 * Would any tuple of the share-locked page in buf need freezing?  An
 * aggressive VACUUM waits for a page's cleanup lock only then, as heap's
 * does (lazy_scan_noprune).
 */
static bool
PageNeedsFreezing(Relation rel, Buffer buf, const DeltaVacuumState *vs)
{
	Page		page = BufferGetPage(buf);
	OffsetNumber off;

	for (off = FirstOffsetNumber; off <= PageGetMaxOffsetNumber(page); off++)
	{
		HeapTupleData tuple;
		TransactionId xid = vs->new_frozen_xid;
		MultiXactId mxid = vs->new_min_mxid;

		if (HeapVersionRead(rel, buf, off, &tuple) &&
			DeltaTupleWouldFreeze(tuple.t_data, vs, &xid, &mxid))
			return true;
	}
	return false;
}

/*
 * DeltaVacuumPage
 *		Step 1 of the file header for the heap page of directory entry page
 *		(a copy: the directory may be rebuilt meanwhile).  Takes the page's
 *		cleanup lock without waiting for it, unless the VACUUM is aggressive
 *		and the page needs freezing; a page it cannot lock is only counted.
 *		The page comes from the read-ahead of DeltaVacuumReadAhead, if any.
 *		Returns false, doing nothing, if the page's dead versions do not fit
 *		in vs's arrays (the caller empties them and calls again).
 */
bool
DeltaVacuumPage(Relation rel, const RowGroupDirEntry *page, DeltaVacuumState *vs)
{
	BlockNumber blkno = page->rg_header.sp_block;
	Buffer		buf;
	Size		freespace;
	bool		done;

	bool		need_copies;

retry:
	if (vs->prefetch != NULL)
		buf = PagePrefetchReadBuffer(vs->prefetch, blkno);
	else
		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, vs->strategy);
	if (!ConditionalLockBufferForCleanup(buf))
	{
		bool		must_wait;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		must_wait = vs->wait_for_pins && PageNeedsFreezing(rel, buf, vs);
		if (!must_wait)
		{
			AccountPage(rel, buf, vs);
			UnlockReleaseBuffer(buf);
			return true;
		}
		LockBuffer(buf, BUFFER_LOCK_UNLOCK);
		LockBufferForCleanup(buf);
	}
	done = PrunePage(rel, page, buf, vs, &need_copies);
	if (need_copies)
	{
		/* read the promotion maps once, holding no page lock */
		UnlockReleaseBuffer(buf);
		vs->copy_positions = CopyPositionsBuild(rel);
		goto retry;
	}
	freespace = PageGetHeapFreeSpace(BufferGetPage(buf));
	UnlockReleaseBuffer(buf);
	if (done)
		RecordPageWithFreeSpace(rel, blkno, freespace);
	return done;
}

/*
 * DeltaVacuumReusePageItems
 *		Make the LP_DEAD items offsets[0..n) of heap page blkno reusable
 *		(others are left alone), logged as XLOG_COLSTORE_PRUNE, and
 *		give the page's free space to the free space map.  Call only when
 *		no index entry and no promotion map slot names them.
 */
void
DeltaVacuumReusePageItems(Relation rel, BlockNumber blkno, OffsetNumber *offsets, int n,
						  BufferAccessStrategy strategy)
{
	Buffer		buf;
	Page		page;
	OffsetNumber unused[MaxHeapTuplesPerPage];
	int			nunused = 0;
	int			i;
	Size		freespace;

	buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	page = BufferGetPage(buf);
	for (i = 0; i < n; i++)
	{
		ItemId		lp;

		if (offsets[i] > PageGetMaxOffsetNumber(page))
			continue;
		lp = PageGetItemId(page, offsets[i]);
		if (ItemIdIsDead(lp) && !ItemIdHasStorage(lp))
			unused[nunused++] = offsets[i];
	}
	if (nunused > 0)
	{
		START_CRIT_SECTION();
		for (i = 0; i < nunused; i++)
			ItemIdSetUnused(PageGetItemId(page, unused[i]));
		PageTruncateLinePointerArray(page);
		MarkBufferDirty(buf);
		if (RelationNeedsWAL(rel))
			LogDeltaPrune(rel, buf, InvalidTransactionId, NULL, 0, NULL, 0,
						  unused, nunused);
		END_CRIT_SECTION();
	}
	freespace = PageGetHeapFreeSpace(page);
	UnlockReleaseBuffer(buf);
	RecordPageWithFreeSpace(rel, blkno, freespace);
}

/*
 * DeltaVacuumReuseItems
 *		Step 3 of the file header: the dead items of vs (sorted) that name
 *		versions on heap pages become LP_UNUSED.  The others name row-group
 *		rows (pruned copies' rows) and have nothing to free.  Call only once
 *		their index entries are gone.
 */
void
DeltaVacuumReuseItems(Relation rel, DeltaVacuumState *vs)
{
	DeadTids   *items = vs->dead_items;
	OffsetNumber offsets[MaxHeapTuplesPerPage];
	int			i = 0;

	while (i < items->num_items)
	{
		BlockNumber pseudo = ItemPointerGetBlockNumber(&items->items[i]);
		ColstoreDirectory *dir = DirectoryGet(rel);
		uint64		rownum = 0;
		int			index;
		int			n = 0;

		(void) ItemPointerToRowNumber(&items->items[i], &rownum);
		index = DirectoryFindDeltaPage(dir, rownum);
		for (; i < items->num_items &&
			 ItemPointerGetBlockNumber(&items->items[i]) == pseudo; i++)
		{
			ItemPointerData phys;

			if (index < 0 || n >= MaxHeapTuplesPerPage)
				continue;
			(void) ItemPointerToRowNumber(&items->items[i], &rownum);
			DeltaPageItemOfRow(&dir->entries[index], rownum, &phys);
			offsets[n++] = ItemPointerGetOffsetNumber(&phys);
		}
		if (n > 0)
			DeltaVacuumReusePageItems(rel, dir->entries[index].rg_header.sp_block, offsets, n,
									  vs->strategy);
		VacuumDelayPoint();
	}
}

/* Index AM bulk-delete callback: is tid among the (sorted) dead TIDs? */
static bool
DeadTidReaped(ItemPointer tid, void *state)
{
	DeadTids   *dead = (DeadTids *) state;

	return bsearch(tid, dead->items, dead->num_items, sizeof(ItemPointerData),
				   (int (*) (const void *, const void *)) ItemPointerCompare) != NULL;
}

/*
 * DeadTidsBulkDelete
 *		Remove the index entries of the sorted TIDs in dead from the index of
 *		ivinfo, reporting as heap's VACUUM does (vac_bulkdel_one_index).
 */
IndexBulkDeleteResult *
DeadTidsBulkDelete(IndexVacuumInfo *ivinfo, IndexBulkDeleteResult *stats, DeadTids *dead)
{
	stats = index_bulk_delete(ivinfo, stats, DeadTidReaped, dead);
	ereport(ivinfo->message_level,
			(errmsg("scanned index \"%s\" to remove %d row versions",
					RelationGetRelationName(ivinfo->index), dead->num_items)));
	return stats;
}
