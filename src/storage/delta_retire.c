/*-------------------------------------------------------------------------
 *
 * delta_retire.c
 *	  VACUUM's retiring and freeing of emptied heap pages: a registered
 *	  delta page none of whose line pointers is in use gives its page back,
 *	  in two VACUUMs, as a fully deleted row group does (group_reclaim.c).
 *
 * A heap page of the relation keeps its directory entry (its pseudo-block)
 * once a tuple landed on it; compaction moves its tuples into row groups
 * and VACUUM prunes them, so it ends up empty.  Reclaiming it:
 *
 * 1. DeltaPagesRetire: a delta page whose line pointers are all LP_UNUSED
 *	  (or which has none; LP_DEAD and LP_REDIRECT items count as in use:
 *	  index entries and promotion map slots may name them) is marked
 *	  INVALID | EMPTIED, and its rg_xmin becomes the next transaction id, its
 *	  stamp.  The check and the mark are made under the writer lock and an
 *	  exclusive lock on the page, got without waiting (a locked page is
 *	  waited for holding nothing, then tried again; buffer locks have no
 *	  deadlock detection; the lock order is writer lock, page, metapage,
 *	  directory page, and nobody holding the metapage waits for a heap page).
 *	  heap_insert, heap_multi_insert and heap_update put a tuple on a page
 *	  under its lock and register the page afterwards (delta_heap.c), under
 *	  the writer lock: a tuple that landed before the check makes the page
 *	  non-empty, and one that lands after the mark finds the entry retired
 *	  and registers the page anew, with a new entry and pseudo-block.  From
 *	  the mark on, no new scan, fetch or planner check reads the old
 *	  pseudo-block (directory.c keeps invalid delta pages out of its lookup
 *	  arrays).  A scan that copied the directory before may still read the
 *	  page as that pseudo-block: it finds no tuple but ones heap put there
 *	  since, which its snapshot (older than the mark) does not see; a
 *	  parallel scan lists retired pages in every participant (scan_engine.c).
 *	  The page inserts are aimed at (delta_heap.c's PrepareInsert) is
 *	  retired too when empty: the next insert takes a freed page from the
 *	  free space map (or adds one) and registers it anew.  Keeping it, as
 *	  this once did, kept the file from being truncated below it when it
 *	  was the highest registered page and compaction had emptied every
 *	  page (a batch upsert of 1,000,000 rows stayed at its 83 MB).
 * 2. DeltaPagesFree, in a later VACUUM: a retired page whose stamp precedes
 *	  OldestXmin can no longer be read as its old pseudo-block (a reader
 *	  that copied the directory earlier holds a snapshot whose xmin is at
 *	  most the stamp).  Standby queries get the conflict first
 *	  (LogStandbyConflict, as for row groups).  The entry is marked FREED;
 *	  then, unless a tuple landed on the page since (it was registered
 *	  anew), the page becomes an empty heap page without line pointers (a
 *	  generic WAL record) in the free space map, which heap may fill
 *	  (registering it anew) and page_reuse.c may take for colstore's own
 *	  pages, and which space_truncate.c gives back at the end of the file.
 *	  A crash between the mark and the page's change leaves an empty heap
 *	  page nothing references, which page_reuse.c and truncation accept.
 *
 * Each directory change is its own WAL record (DirectoryUpdateEntry), so a
 * crash between retiring and freeing leaves the entry retired with its
 * stamp, and the next VACUUM frees it; a standby replays the same marks.
 * Row numbers are never handed out again, so the old pseudo-block stays
 * empty for good.
 *
 * IDENTIFICATION
 *	  src/storage/delta_retire.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/transam.h"
#include "commands/vacuum.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "storage/delta_heap.h"
#include "storage/delta_retire.h"
#include "storage/delta_wal.h"
#include "storage/directory.h"
#include "storage/metapage.h"
#include "storage/page_reuse.h"

/* A directory entry to change, copied with its index. */
typedef struct DeltaCandidate
{
	uint32		index;
	RowGroupDirEntry entry;
} DeltaCandidate;

/* Does heap page blkno look empty (share lock, a first look)? */
static bool
BlockLooksEmpty(Relation rel, BlockNumber blkno, BufferAccessStrategy strategy)
{
	Buffer		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
	bool		empty;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	empty = HeapPageHoldsNoItem(BufferGetPage(buf));
	UnlockReleaseBuffer(buf);
	return empty;
}

/*
 * The registered delta pages that look empty; *n is set to their number.
 */
static DeltaCandidate *
EmptyLookingPages(Relation rel, BufferAccessStrategy strategy, int *n)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			ndeltas = dir->ndeltas;
	DeltaCandidate *all = palloc(sizeof(DeltaCandidate) * Max(ndeltas, 1));
	int			i;

	/* copied first: the directory may be reread while pages are read */
	for (i = 0; i < ndeltas; i++)
	{
		all[i].index = dir->deltas_by_block[i];
		all[i].entry = dir->entries[all[i].index];
	}
	*n = 0;
	for (i = 0; i < ndeltas; i++)
	{
		VacuumDelayPoint();
		if (BlockLooksEmpty(rel, all[i].entry.rg_header.sp_block, strategy))
			all[(*n)++] = all[i];
	}
	return all;
}

/*
 * Retire candidate c if its page is empty, under the writer lock and the
 * page's exclusive lock got without waiting (see the file header).  A page
 * somebody holds locked (a reader, or the background writer writing it
 * out) is waited for with no lock held, and tried again, a few times.
 * Only VACUUM changes a delta page's entry, and one VACUUM runs on a table
 * at a time, so c's copy of the entry is current.  Returns whether it was
 * retired.
 */
static bool
RetireIfEmpty(Relation rel, const DeltaCandidate *c, BufferAccessStrategy strategy)
{
	BlockNumber blkno = c->entry.rg_header.sp_block;
	int			attempt;

	for (attempt = 0; attempt < 3; attempt++)
	{
		Buffer		buf;
		bool		locked;
		bool		retired = false;

		ColstoreLockWriter(rel);
		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
		locked = ConditionalLockBuffer(buf);
		if (locked)
		{
			if (HeapPageHoldsNoItem(BufferGetPage(buf)))
			{
				RowGroupDirEntry e = c->entry;

				e.rg_flags |= RG_FLAG_INVALID | RG_FLAG_EMPTIED;
				e.rg_xmin = ReadNextTransactionId();
				DirectoryUpdateEntry(rel, c->index, &e);
				retired = true;
			}
			LockBuffer(buf, BUFFER_LOCK_UNLOCK);
		}
		ColstoreUnlockWriter(rel);
		if (locked)
		{
			ReleaseBuffer(buf);
			return retired;
		}
		/* wait for the holder, holding nothing else */
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		UnlockReleaseBuffer(buf);
	}
	return false;
}

/*
 * DeltaPagesRetire
 *		Step 1 of the file header, for every registered delta page that is
 *		empty.  Call after VACUUM's index passes and the freeing of row
 *		groups, which make items LP_UNUSED.  Returns the number of pages
 *		retired.  Called holding no writer lock.
 */
uint32
DeltaPagesRetire(Relation rel, BufferAccessStrategy strategy)
{
	int			n;
	DeltaCandidate *candidates = EmptyLookingPages(rel, strategy, &n);
	uint32		retired = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		VacuumDelayPoint();
		if (RetireIfEmpty(rel, &candidates[i], strategy))
			retired++;
	}
	pfree(candidates);
	return retired;
}

/*
 * Give the page of freed delta page e to heap tuples and colstore's pages:
 * an empty heap page without line pointers in the free space map, unless a
 * tuple landed on it since it was retired (it is heap's then, and
 * registered anew).  An exclusive lock is enough: with no item in use, no
 * pin holder can be pointing into the page; and VACUUM holds no other lock
 * here, so it may wait for it.
 */
static void
GiveBackPage(Relation rel, BlockNumber blkno, BufferAccessStrategy strategy)
{
	Buffer		buf;
	Page		page;

	/* truncated away while retired: nothing left to give */
	if (blkno >= ColstorePhysicalBlocks(rel))
		return;
	buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	page = BufferGetPage(buf);
	if (PageIsNew(page) || !HeapPageHoldsNoItem(page) ||
		DirectoryFindDeltaBlock(DirectoryGet(rel), blkno) >= 0)
	{
		UnlockReleaseBuffer(buf);
		return;
	}
	PageGiveToHeap(rel, buf);
}

/*
 * DeltaPagesFree
 *		Step 2 of the file header, for every retired delta page whose stamp
 *		precedes oldest_xmin.  Returns the number of pages freed.  Called
 *		holding no writer lock.
 */
uint32
DeltaPagesFree(Relation rel, TransactionId oldest_xmin, BufferAccessStrategy strategy)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	DeltaCandidate *candidates = palloc(sizeof(DeltaCandidate) *
										Max(dir->nretired_deltas, 1));
	TransactionId newest_stamp = InvalidTransactionId;
	int			n = 0;
	int			i;

	for (i = 0; i < dir->nretired_deltas; i++)
	{
		const RowGroupDirEntry *e = &dir->entries[dir->retired_by_block[i]];

		Assert((e->rg_flags & (RG_FLAG_INVALID | RG_FLAG_EMPTIED | RG_FLAG_FREED)) ==
			   (RG_FLAG_INVALID | RG_FLAG_EMPTIED));
		if (TransactionIdIsNormal(e->rg_xmin) &&
			!TransactionIdPrecedes(e->rg_xmin, oldest_xmin))
			continue;
		candidates[n].index = dir->retired_by_block[i];
		candidates[n++].entry = *e;
		if (TransactionIdIsNormal(e->rg_xmin) &&
			(!TransactionIdIsValid(newest_stamp) ||
			 TransactionIdFollows(e->rg_xmin, newest_stamp)))
			newest_stamp = e->rg_xmin;
	}
	if (n > 0)
		LogStandbyConflict(rel, newest_stamp);
	for (i = 0; i < n; i++)
	{
		RowGroupDirEntry e = candidates[i].entry;

		VacuumDelayPoint();

		/* marked first: a crash from here on leaves an unreferenced page */
		ColstoreLockWriter(rel);
		e.rg_flags |= RG_FLAG_FREED;
		DirectoryUpdateEntry(rel, candidates[i].index, &e);
		ColstoreUnlockWriter(rel);
	}
	for (i = 0; i < n; i++)
	{
		VacuumDelayPoint();
		GiveBackPage(rel, candidates[i].entry.rg_header.sp_block, strategy);
	}
	pfree(candidates);
	return n;
}
