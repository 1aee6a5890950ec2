/*-------------------------------------------------------------------------
 *
 * all_visible.c
 *	  All-visible bits of a colstore table's pseudo-blocks, kept in the
 *	  relation's own visibility map fork, where PostgreSQL's index-only scan
 *	  (nodeIndexonlyscan.c) reads them: VM_ALL_VISIBLE(table, block of the
 *	  index entry's TID).  A bit set says every index entry whose TID lies in
 *	  that pseudo-block leads to a row every snapshot sees, with the entry's
 *	  values, so the scan may return the entry without fetching the row.
 *	  Which pseudo-blocks qualify is the caller's judgment (VACUUM's,
 *	  mvcc/visible_blocks.c); this file keeps the bits and their WAL.
 *
 * The interlock (heap's is the heap page's buffer lock, which a
 * pseudo-block does not have):
 *	- AllVisibleUpdate judges a range of pseudo-blocks and sets or clears
 *	  their bits while it holds their map page's exclusive lock, and reads
 *	  the rows' state inside the judgment (the directory, promotion maps,
 *	  delete logs and deleted-rows bitmaps, each under its buffer lock).
 *	- A writer that makes a row of pseudo-block b not visible to everyone
 *	  (DELETE, UPDATE, compaction moving a row group's rows) first makes its
 *	  change, then calls AllVisibleClear, which reads b's bit under the map
 *	  page's share lock and clears it if set.  Either the writer's read
 *	  comes after the judgment (and sees the bit), or the judgment comes
 *	  after the change (and sees it).  Between the judgment and the clear
 *	  only the writer's own transaction, which is inside the writing call,
 *	  could see the change; others still see the row, so the bit is true
 *	  for them.  The map page is pinned with visibilitymap_pin, which
 *	  extends the fork when needed and so never trusts a cached fork size
 *	  that a concurrent VACUUM made stale.
 *
 * WAL.  Setting writes XLOG_COLSTORE_VISIBLE with the map page registered
 * (full page image after a checkpoint, as heap's visibility record) and a
 * snapshot conflict horizon: a standby query that might not see the rows'
 * inserter as committed is cancelled before the bits appear.  Clearing by
 * a writer writes XLOG_COLSTORE_VISIBLE_CLEAR after its change's own
 * record and before its commit record, so a crash that keeps the commit
 * keeps the clear; its redo clears the bit as heap's delete redo does
 * (visibilitymap_clear).  Without colstore's resource manager (not in
 * shared_preload_libraries) a writer logs the cleared map page as a
 * generic full page image, and VACUUM sets no bits.
 *
 * Heap code also writes this fork: heap_multi_insert with
 * HEAP_INSERT_FROZEN would mark the physical page it fills as all-visible
 * at the page's block number, which is a pseudo-block here, so colstore
 * never calls it with that flag (storage/delta_heap.c); heap's inserts,
 * updates and deletes on a page flagged PD_ALL_VISIBLE (by older builds)
 * only clear bits, which costs a mark, never a wrong answer.  Truncation
 * clears the bits past the new end of the file.  VACUUM rewrites every
 * bit of the fork (AllVisibleUpdate), so bits older builds left (physical
 * pages' bits, set by heap_multi_insert's frozen insertions when the
 * table was not logically logged, which ANALYZE also counted into
 * relallvisible) are gone after it; it then marks the fork's first page
 * (its pd_prune_xid, which nothing else sets on a map page), and the
 * planner offers index-only scans only for a fork so marked
 * (AllVisibleTrusted).  The mark is logged and replayed with the page.
 *
 * IDENTIFICATION
 *	  src/storage/all_visible.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/generic_xlog.h"
#include "access/visibilitymap.h"
#include "access/xact.h"
#include "access/xloginsert.h"
#include "access/xlogutils.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/smgr.h"
#include "storage/standby.h"
#include "utils/rel.h"

#include "storage/all_visible.h"
#include "storage/colstore_wal.h"
#include "storage/rowgroup_format.h"

/* the visibility map's layout (visibilitymap.c keeps it private) */
#define VM_MAPSIZE			(BLCKSZ - MAXALIGN(SizeOfPageHeaderData))
#define VM_BLOCKS_PER_BYTE	4
#define VM_BLOCKS_PER_PAGE	((BlockNumber) (VM_MAPSIZE * VM_BLOCKS_PER_BYTE))

/* pseudo-blocks judged per map page lock */
#define JUDGE_CHUNK			256

/* pd_prune_xid of the fork's first page once VACUUM owns every bit */
#define VM_COLSTORE_MARK	((TransactionId) 0x434F4C53)

/* the two bits of block blk on map page page */
static inline uint8
VmBits(Page page, BlockNumber blk)
{
	uint8	   *map = (uint8 *) PageGetContents(page);
	uint32		i = blk % VM_BLOCKS_PER_PAGE;

	return (map[i / VM_BLOCKS_PER_BYTE] >> ((i % VM_BLOCKS_PER_BYTE) * 2)) &
		VISIBILITYMAP_VALID_BITS;
}

/* mark blk all-visible, or clear both its bits */
static inline void
VmSetBits(Page page, BlockNumber blk, bool visible)
{
	uint8	   *map = (uint8 *) PageGetContents(page);
	uint32		i = blk % VM_BLOCKS_PER_PAGE;
	int			shift = (i % VM_BLOCKS_PER_BYTE) * 2;

	if (visible)
		map[i / VM_BLOCKS_PER_BYTE] |= VISIBILITYMAP_ALL_VISIBLE << shift;
	else
		map[i / VM_BLOCKS_PER_BYTE] &= ~(VISIBILITYMAP_VALID_BITS << shift);
}

/*
 * Give pseudo-blocks [first, first + n) of the locked map page in vmbuf the
 * bits eligible says, logged as XLOG_COLSTORE_VISIBLE with horizon.
 */
static void
ApplyBits(Relation rel, Buffer vmbuf, BlockNumber first, uint32 n,
		  const bool *eligible, TransactionId horizon)
{
	Page		page = BufferGetPage(vmbuf);
	uint32		i;

	START_CRIT_SECTION();
	for (i = 0; i < n; i++)
		VmSetBits(page, first + i, eligible[i]);
	MarkBufferDirty(vmbuf);
	if (RelationNeedsWAL(rel))
	{
		xl_colstore_visible xlrec;
		uint8		bits[(JUDGE_CHUNK + 7) / 8];
		XLogRecPtr	recptr;

		Assert(n <= JUDGE_CHUNK);
		memset(bits, 0, sizeof(bits));
		for (i = 0; i < n; i++)
			if (eligible[i])
				bits[i / 8] |= 1 << (i % 8);
		xlrec.conflict_xid = horizon;
		xlrec.first = first;
		xlrec.n = n;
		xlrec.flags = 0;
		XLogBeginInsert();
		XLogRegisterData((char *) &xlrec, sizeof(xlrec));
		XLogRegisterData((char *) bits, (n + 7) / 8);
		XLogRegisterBuffer(0, vmbuf, 0);
		recptr = XLogInsert(COLSTORE_RMGR_ID, XLOG_COLSTORE_VISIBLE);
		PageSetLSN(page, recptr);
	}
	END_CRIT_SECTION();
}

/*
 * The pseudo-block whose bit this backend's (sub)transaction last read (and
 * cleared) under the map page's lock after changing one of its rows.
 * While that change stands, every judgment that comes later sees it and
 * leaves the bit clear (mvcc/visible_blocks.c: a row with a copy or a
 * delete-log run, committed, running or aborted, or a heap page's
 * pseudo-block is never marked), and every judgment that came earlier was
 * seen by that read: so further changes of rows of the same pseudo-block
 * in the same transaction need no look at the map.  A bulk UPDATE or
 * DELETE changes rows in TID order, so this spares the map page's pin and
 * lock for all but the first row of each pseudo-block.  Forgotten at the
 * end of every transaction and at a subtransaction's abort (whose change
 * may be undone: an aborted delete-log run can be cleaned away).
 */
static struct
{
	bool		valid;
	RelFileLocator locator;
	bool		local;			/* a temporary table's file number may equal a
								 * permanent one's */
	BlockNumber block;
}			LastCleared;

/* forget LastCleared at every transaction end and subtransaction abort */
static void
AllVisibleXactCallback(XactEvent event, void *arg)
{
	LastCleared.valid = false;
}

static void
AllVisibleSubXactCallback(SubXactEvent event, SubTransactionId mySubid,
						  SubTransactionId parentSubid, void *arg)
{
	if (event == SUBXACT_EVENT_ABORT_SUB)
		LastCleared.valid = false;
}

/*
 * AllVisibleInit
 *		Register the callbacks that forget LastCleared (from _PG_init).
 */
void
AllVisibleInit(void)
{
	RegisterXactCallback(AllVisibleXactCallback, NULL);
	RegisterSubXactCallback(AllVisibleSubXactCallback, NULL);
}

/*
 * AllVisibleClear
 *		Clear the all-visible bit of tid's pseudo-block, after the caller
 *		made a row version with that TID not visible to everyone (or gave
 *		it a newer version), before its transaction can commit.  Returns at
 *		once for the pseudo-block the transaction's last call read (see
 *		LastCleared).
 */
void
AllVisibleClear(Relation rel, ItemPointer tid)
{
	BlockNumber blk = ItemPointerGetBlockNumber(tid);
	Buffer		vmbuf = InvalidBuffer;
	bool		set;

	if (LastCleared.valid && LastCleared.block == blk &&
		RelFileLocatorEquals(LastCleared.locator, rel->rd_locator) &&
		LastCleared.local == RelationUsesLocalBuffers(rel))
		return;
	LastCleared.valid = false;
	visibilitymap_pin(rel, blk, &vmbuf);
	LockBuffer(vmbuf, BUFFER_LOCK_SHARE);
	set = VmBits(BufferGetPage(vmbuf), blk) != 0;
	LockBuffer(vmbuf, BUFFER_LOCK_UNLOCK);
	if (set)
	{
		if (RelationNeedsWAL(rel) && !ColstoreWalAvailable())
		{
			GenericXLogState *state = GenericXLogStart(rel);
			Page		page;

			LockBuffer(vmbuf, BUFFER_LOCK_EXCLUSIVE);
			page = GenericXLogRegisterBuffer(state, vmbuf, GENERIC_XLOG_FULL_IMAGE);
			VmSetBits(page, blk, false);
			GenericXLogFinish(state);
			LockBuffer(vmbuf, BUFFER_LOCK_UNLOCK);
		}
		else
		{
			START_CRIT_SECTION();
			if (visibilitymap_clear(rel, blk, vmbuf, VISIBILITYMAP_VALID_BITS) &&
				RelationNeedsWAL(rel))
			{
				xl_colstore_visible_clear xlrec;

				xlrec.node = rel->rd_locator;
				xlrec.block = blk;
				XLogBeginInsert();
				XLogRegisterData((char *) &xlrec, sizeof(xlrec));
				(void) XLogInsert(COLSTORE_RMGR_ID, XLOG_COLSTORE_VISIBLE_CLEAR);
			}
			END_CRIT_SECTION();
		}
	}
	ReleaseBuffer(vmbuf);
	LastCleared.locator = rel->rd_locator;
	LastCleared.local = RelationUsesLocalBuffers(rel);
	LastCleared.block = blk;
	LastCleared.valid = true;
}

/*
 * AllVisibleClearRows
 *		Clear the bits of the pseudo-blocks of rows [first_row, first_row +
 *		nrows), before or after the caller changes them; before only while
 *		it holds a lock that keeps VACUUM from setting them again until its
 *		transaction ends (compaction's ShareUpdateExclusiveLock).
 */
void
AllVisibleClearRows(Relation rel, uint64 first_row, uint64 nrows)
{
	BlockNumber blk;
	BlockNumber last;
	Buffer		vmbuf = InvalidBuffer;
	bool		none[JUDGE_CHUNK];

	if (nrows == 0)
		return;
	memset(none, 0, sizeof(none));
	blk = (BlockNumber) (first_row / ROWS_PER_TID_BLOCK);
	last = (BlockNumber) ((first_row + nrows - 1) / ROWS_PER_TID_BLOCK);
	while (blk <= last)
	{
		uint32		n = Min(last - blk + 1, JUDGE_CHUNK);
		bool		set = false;
		uint32		i;

		n = Min(n, VM_BLOCKS_PER_PAGE - blk % VM_BLOCKS_PER_PAGE);
		visibilitymap_pin(rel, blk, &vmbuf);
		LockBuffer(vmbuf, BUFFER_LOCK_EXCLUSIVE);
		for (i = 0; i < n && !set; i++)
			set = VmBits(BufferGetPage(vmbuf), blk + i) != 0;
		if (set)
		{
			if (RelationNeedsWAL(rel) && !ColstoreWalAvailable())
			{
				GenericXLogState *state = GenericXLogStart(rel);
				Page		page = GenericXLogRegisterBuffer(state, vmbuf,
															 GENERIC_XLOG_FULL_IMAGE);

				for (i = 0; i < n; i++)
					VmSetBits(page, blk + i, false);
				GenericXLogFinish(state);
			}
			else
				ApplyBits(rel, vmbuf, blk, n, none, InvalidTransactionId);
		}
		LockBuffer(vmbuf, BUFFER_LOCK_UNLOCK);
		blk += n;
	}
	if (BufferIsValid(vmbuf))
		ReleaseBuffer(vmbuf);
}

/*
 * AllVisibleUpdate
 *		VACUUM's pass over the map: every pseudo-block below nblocks, and
 *		every one the fork already covers, gets the bit judge gives it,
 *		judged under its map page's exclusive lock (see the file header).
 *		Map pages are added only for blocks judged all-visible.  Returns how
 *		many pseudo-blocks are marked all-visible.  Sets nothing (and
 *		returns 0) for a WAL-logged table when this process has no colstore
 *		resource manager.
 */
BlockNumber
AllVisibleUpdate(Relation rel, BlockNumber nblocks, AllVisibleJudge judge,
				 void *arg)
{
	SMgrRelation smgr = RelationGetSmgr(rel);
	BlockNumber vm_pages;
	uint64		total;
	uint64		first;
	BlockNumber marked = 0;
	Buffer		vmbuf = InvalidBuffer;
	bool		eligible[JUDGE_CHUNK];

	if (RelationNeedsWAL(rel) && !ColstoreWalAvailable())
		return 0;
	vm_pages = smgrexists(smgr, VISIBILITYMAP_FORKNUM) ?
		smgrnblocks(smgr, VISIBILITYMAP_FORKNUM) : 0;
	total = Max((uint64) nblocks, (uint64) vm_pages * VM_BLOCKS_PER_PAGE);
	total = Min(total, (uint64) COLSTORE_TID_BLOCK_LIMIT);
	for (first = 0; first < total;)
	{
		BlockNumber blk = (BlockNumber) first;
		uint32		n = (uint32) Min(total - first, JUDGE_CHUNK);
		TransactionId horizon = InvalidTransactionId;
		bool		changed = false;
		uint32		count = 0;
		uint32		i;
		Page		page;

		CHECK_FOR_INTERRUPTS();
		n = Min(n, VM_BLOCKS_PER_PAGE - blk % VM_BLOCKS_PER_PAGE);
		first += n;
		if (blk / VM_BLOCKS_PER_PAGE >= vm_pages)
		{
			bool		any = false;

			/* no map page yet: make one only for a block to mark */
			judge(arg, blk, n, eligible, &horizon);
			for (i = 0; i < n && !any; i++)
				any = eligible[i];
			if (!any)
				continue;
			vm_pages = blk / VM_BLOCKS_PER_PAGE + 1;
		}
		visibilitymap_pin(rel, blk, &vmbuf);
		LockBuffer(vmbuf, BUFFER_LOCK_EXCLUSIVE);
		horizon = InvalidTransactionId;
		judge(arg, blk, n, eligible, &horizon);
		page = BufferGetPage(vmbuf);
		for (i = 0; i < n; i++)
		{
			uint8		bits = VmBits(page, blk + i);

			if (eligible[i])
				count++;
			if (eligible[i] ? !(bits & VISIBILITYMAP_ALL_VISIBLE) : bits != 0)
				changed = true;
		}
		if (changed)
			ApplyBits(rel, vmbuf, blk, n, eligible, horizon);
		LockBuffer(vmbuf, BUFFER_LOCK_UNLOCK);
		marked += count;
	}

	/* every bit is now VACUUM's: mark the fork's first page, if it has one */
	if (vm_pages > 0)
	{
		Page		page;

		visibilitymap_pin(rel, 0, &vmbuf);
		LockBuffer(vmbuf, BUFFER_LOCK_EXCLUSIVE);
		page = BufferGetPage(vmbuf);
		if (((PageHeader) page)->pd_prune_xid != VM_COLSTORE_MARK)
		{
			START_CRIT_SECTION();
			((PageHeader) page)->pd_prune_xid = VM_COLSTORE_MARK;
			MarkBufferDirty(vmbuf);
			if (RelationNeedsWAL(rel))
			{
				xl_colstore_visible xlrec;
				XLogRecPtr	recptr;

				xlrec.conflict_xid = InvalidTransactionId;
				xlrec.first = 0;
				xlrec.n = 0;
				xlrec.flags = COLSTORE_VISIBLE_MARK;
				XLogBeginInsert();
				XLogRegisterData((char *) &xlrec, sizeof(xlrec));
				XLogRegisterBuffer(0, vmbuf, 0);
				recptr = XLogInsert(COLSTORE_RMGR_ID, XLOG_COLSTORE_VISIBLE);
				PageSetLSN(page, recptr);
			}
			END_CRIT_SECTION();
		}
		LockBuffer(vmbuf, BUFFER_LOCK_UNLOCK);
	}
	if (BufferIsValid(vmbuf))
		ReleaseBuffer(vmbuf);
	return marked;
}

/*
 * AllVisibleTrusted
 *		Has a VACUUM of this build set or cleared every bit of rel's
 *		visibility map fork (so no bit is a physical page's)?  False when
 *		the fork or its first page is missing, or this backend's cached
 *		fork size is stale: index-only scans are then not offered.
 */
bool
AllVisibleTrusted(Relation rel)
{
	Buffer		vmbuf = InvalidBuffer;
	bool		marked;

	(void) visibilitymap_get_status(rel, 0, &vmbuf);
	if (!BufferIsValid(vmbuf))
		return false;
	LockBuffer(vmbuf, BUFFER_LOCK_SHARE);
	marked = ((PageHeader) BufferGetPage(vmbuf))->pd_prune_xid == VM_COLSTORE_MARK;
	UnlockReleaseBuffer(vmbuf);
	return marked;
}

/*
 * AllVisibleRedo
 *		Replay XLOG_COLSTORE_VISIBLE (conflict with standby queries first,
 *		then the bits) and XLOG_COLSTORE_VISIBLE_CLEAR.
 */
void
AllVisibleRedo(XLogReaderState *record)
{
	uint8		info = ColstoreRecordKind(XLogRecGetInfo(record));
	XLogRecPtr	lsn = record->EndRecPtr;
	RelFileLocator locator;
	Buffer		buf;

	if (info == XLOG_COLSTORE_VISIBLE_CLEAR)
	{
		xl_colstore_visible_clear *xlrec = (xl_colstore_visible_clear *) XLogRecGetData(record);
		Relation	reln = CreateFakeRelcacheEntry(xlrec->node);
		Buffer		vmbuf = InvalidBuffer;

		visibilitymap_pin(reln, xlrec->block, &vmbuf);
		visibilitymap_clear(reln, xlrec->block, vmbuf, VISIBILITYMAP_VALID_BITS);
		ReleaseBuffer(vmbuf);
		FreeFakeRelcacheEntry(reln);
		return;
	}

	{
		xl_colstore_visible *xlrec = (xl_colstore_visible *) XLogRecGetData(record);
		const uint8 *bits = (const uint8 *) XLogRecGetData(record) + sizeof(xl_colstore_visible);

		if (XLogRecGetDataLen(record) < sizeof(xl_colstore_visible) + (xlrec->n + 7) / 8)
			elog(PANIC, "colstore visible record: %u bytes of data for %u blocks",
				 XLogRecGetDataLen(record), xlrec->n);
		XLogRecGetBlockTag(record, 0, &locator, NULL, NULL);
		if (InHotStandby && TransactionIdIsValid(xlrec->conflict_xid))
			ResolveSnapshotConflict(xlrec->conflict_xid, locator);
		if (XLogReadBufferForRedoExtended(record, 0, RBM_ZERO_ON_ERROR, false,
										  &buf) == BLK_NEEDS_REDO)
		{
			Page		page = BufferGetPage(buf);
			uint32		i;

			if (PageIsNew(page))
				PageInit(page, BLCKSZ, 0);
			if (xlrec->flags & COLSTORE_VISIBLE_MARK)
				((PageHeader) page)->pd_prune_xid = VM_COLSTORE_MARK;
			for (i = 0; i < xlrec->n; i++)
				VmSetBits(page, xlrec->first + i, (bits[i / 8] & (1 << (i % 8))) != 0);
			PageSetLSN(page, lsn);
			MarkBufferDirty(buf);
		}
		if (BufferIsValid(buf))
			UnlockReleaseBuffer(buf);
	}
}

/* rm_desc of both records */
void
AllVisibleDesc(StringInfo buf, XLogReaderState *record)
{
	uint8		info = ColstoreRecordKind(XLogRecGetInfo(record));

	if (info == XLOG_COLSTORE_VISIBLE_CLEAR &&
		XLogRecGetDataLen(record) >= sizeof(xl_colstore_visible_clear))
	{
		xl_colstore_visible_clear *xlrec = (xl_colstore_visible_clear *) XLogRecGetData(record);

		appendStringInfo(buf, "rel %u/%u/%u; block %u",
						 LocatorSpcOid(xlrec->node), LocatorDbOid(xlrec->node),
						 LocatorNumber(xlrec->node), xlrec->block);
	}
	else if (info == XLOG_COLSTORE_VISIBLE &&
			 XLogRecGetDataLen(record) >= sizeof(xl_colstore_visible))
	{
		xl_colstore_visible *xlrec = (xl_colstore_visible *) XLogRecGetData(record);

		if (xlrec->flags & COLSTORE_VISIBLE_MARK)
			appendStringInfoString(buf, "mark");
		else
			appendStringInfo(buf, "conflict xid %u; blocks %u..%u",
							 xlrec->conflict_xid, xlrec->first,
							 xlrec->first + xlrec->n - 1);
	}
}
