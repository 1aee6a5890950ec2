/*-------------------------------------------------------------------------
 *
 * space_truncate.c
 *	  VACUUM's truncation of the empty end of a colstore relation, as heap's
 *	  lazy_truncate_heap gives the empty end of a heap back.
 *
 * The pages at the end of the file that nothing references are given back
 * to the operating system.  A page counts as such when it is new (all
 * zero), or a heap page none of whose line pointers is in use: a freed row
 * group's page (group_reclaim.c) no tuple took since, or a heap page whose
 * versions VACUUM removed together with their index entries (LP_UNUSED:
 * not LP_DEAD, whose index entries may remain).  Any colstore page (the
 * metapage, directory pages, the page stream, promotion maps) ends the run,
 * as does a heap page holding an item in use.
 *
 * A registered delta page among them has its directory entry marked
 * INVALID | FREED first, in its own WAL record: its pseudo-block then holds
 * no rows, the directory's index arrays leave it out, and a page that heap
 * later adds at the same block is registered with a new entry and
 * pseudo-block; the next VACUUM's rewrite of the directory drops it.
 *
 * Before VACUUM moves the end down (space_relocate.c), it rewrites the
 * directory without the entries of freed heap pages when that gives back
 * enough pages (SpaceRewriteDirectory, DirectoryDropFreedDeltas): a bulk
 * UPDATE leaves an entry for each of the thousands of heap pages it filled,
 * which would otherwise stay for good.  That changes entry indexes, so it
 * takes the AccessExclusiveLock as truncation does, briefly; the new pages
 * are the lowest free ones, and the old ones become free pages the move
 * and truncation then use.  Its row numbers are
 * never handed out again, as always.  A crash after the marks and before
 * the truncation leaves empty heap pages nothing references, which heap
 * or page_reuse.c may take, or a later VACUUM truncates.  A delta page
 * VACUUM retired and has not freed yet (delta_retire.c) goes as well when
 * it is among them: under the lock nobody reads it, and a later VACUUM
 * marks its entry freed, finding the page gone.
 *
 * As in heap: a first look without the lock decides whether enough can be
 * gained (REL_TRUNCATE_MINIMUM pages, or REL_TRUNCATE_FRACTION of the
 * file); then an AccessExclusiveLock is asked for without waiting, retried
 * for up to five seconds, and the end is checked again under it (no other
 * backend can read or write the table then, and none can hold its writer
 * lock).  RelationTruncate WAL-logs the truncation, truncates the free
 * space map and visibility map with it, and makes other backends forget
 * their cached size.  Standby queries conflict on the lock, as for heap.
 *
 * IDENTIFICATION
 *	  src/storage/space_truncate.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "catalog/storage.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "utils/rel.h"
#include "utils/wait_event.h"

#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/metapage.h"
#include "storage/space_truncate.h"

/* heap's thresholds (vacuumlazy.c) */
#define REL_TRUNCATE_MINIMUM	1000
#define REL_TRUNCATE_FRACTION	16

/* directory pages a rewrite must give back, unless a sixteenth of the file */
#define DIR_REWRITE_MINIMUM		8

/* heap's lock wait: every 50 ms for up to 5 s */
#define TRUNCATE_LOCK_WAIT_INTERVAL		50	/* ms */
#define TRUNCATE_LOCK_TIMEOUT			5000	/* ms */

/*
 * PageIsUnreferenced
 *		Is the locked page one truncation may cut: new, a heap page none of
 *		whose line pointers is in use, or a colstore page whose contents
 *		VACUUM moved lower in the file (COLSTORE_PAGE_F_MOVED: a directory
 *		or stream page, space_relocate.c, a deleted-rows or delete log
 *		root page, deleted_rows_move.c, or a promotion map root page,
 *		promotion_map.c)?
 */
bool
PageIsUnreferenced(Page page)
{
	if (HeapPageHoldsNoItem(page))
		return true;
	return PageGetSpecialSize(page) == MAXALIGN(sizeof(ColstorePageOpaqueData)) &&
		(ColstorePageGetOpaque(page)->cp_flags & COLSTORE_PAGE_F_MOVED) != 0 &&
		(ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_DATA ||
		 ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_DIRECTORY ||
		 ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_DELETED_ROOT ||
		 ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_DELETED_BITS ||
		 ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_DELETE_LOG_ROOT ||
		 ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_STATE_ROOT);
}

/*
 * Is the locked page a directory page (not moved)?  One outside the
 * directory's chain was left by a crash during DirectoryDropFreedDeltas and
 * is nobody's (DirectoryPageInChain, asked after the page was read).
 */
static bool
PageIsDirectory(Page page)
{
	return PageGetSpecialSize(page) == MAXALIGN(sizeof(ColstorePageOpaqueData)) &&
		ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_DIRECTORY &&
		(ColstorePageGetOpaque(page)->cp_flags & COLSTORE_PAGE_F_MOVED) == 0;
}

/*
 * SpaceTruncatePays
 *		Would cutting a file of nblocks pages to end pages pay, by heap's
 *		rule (REL_TRUNCATE_MINIMUM pages, or REL_TRUNCATE_FRACTION of it)?
 */
bool
SpaceTruncatePays(BlockNumber nblocks, BlockNumber end)
{
	return end < nblocks &&
		(nblocks - end >= REL_TRUNCATE_MINIMUM ||
		 nblocks - end >= nblocks / REL_TRUNCATE_FRACTION);
}

/*
 * The block number the file could be truncated to: the first of the run of
 * unreferenced pages that ends the file (at least 1: the metapage stays).
 */
static BlockNumber
UnreferencedEnd(Relation rel, BlockNumber nblocks, BufferAccessStrategy strategy)
{
	BlockNumber end = nblocks;

	while (end > 1)
	{
		Buffer		buf = ReadBufferExtended(rel, MAIN_FORKNUM, end - 1, RBM_NORMAL,
											 strategy);
		bool		unreferenced;
		bool		directory;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		unreferenced = PageIsUnreferenced(BufferGetPage(buf));
		directory = PageIsDirectory(BufferGetPage(buf));
		UnlockReleaseBuffer(buf);
		/* the chain is read after the page, holding no page lock */
		if (!unreferenced && directory)
			unreferenced = !DirectoryPageInChain(rel, end - 1);
		if (!unreferenced)
			break;
		end--;
		if ((end & 63) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	return end;
}

/* Take the AccessExclusiveLock as heap's VACUUM does; false if it cannot. */
static bool
LockForTruncation(Relation rel)
{
	int			waited = 0;

	while (!ConditionalLockRelation(rel, AccessExclusiveLock))
	{
		if (waited >= TRUNCATE_LOCK_TIMEOUT)
			return false;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 TRUNCATE_LOCK_WAIT_INTERVAL, WAIT_EVENT_VACUUM_TRUNCATE);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		waited += TRUNCATE_LOCK_WAIT_INTERVAL;
	}
	return true;
}

/*
 * Mark the delta page entries of blocks from end on freed.  Caller holds
 * the writer lock.
 */
static void
FreeDeltaEntries(Relation rel, BlockNumber end)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int		   *indexes = palloc(sizeof(int) * Max(dir->ndeltas, 1));
	RowGroupDirEntry *entries = palloc(sizeof(RowGroupDirEntry) * Max(dir->ndeltas, 1));
	int			n = 0;
	int			i;

	/*
	 * collected first: the changes make the directory's index arrays stale;
	 * under the writer lock nobody else changes these entries
	 */
	for (i = dir->ndeltas - 1; i >= 0; i--)
	{
		int			index = dir->deltas_by_block[i];

		if (dir->entries[index].rg_header.sp_block < end)
			break;
		entries[n] = dir->entries[index];
		indexes[n++] = index;
	}
	for (i = 0; i < n; i++)
	{
		RowGroupDirEntry e = entries[i];

		Assert(e.rg_kind == RG_KIND_DELTA_PAGE && !(e.rg_flags & RG_FLAG_FREED));
		e.rg_flags |= RG_FLAG_INVALID | RG_FLAG_FREED;
		DirectoryUpdateEntry(rel, indexes[i], &e);
	}
	pfree(indexes);
	pfree(entries);
}

/*
 * SpaceTruncateEnd
 *		Give back the run of unreferenced pages that ends rel's file, if it
 *		is worth it and the AccessExclusiveLock can be had (see the file
 *		header).  Returns the number of pages removed; *old_blocks is set to
 *		the file's size before.  Called by VACUUM holding its
 *		ShareUpdateExclusiveLock and no writer lock; the AccessExclusiveLock
 *		is released before returning.  May error (I/O).
 */
BlockNumber
SpaceTruncateEnd(Relation rel, BufferAccessStrategy strategy, BlockNumber *old_blocks)
{
	BlockNumber nblocks = ColstorePhysicalBlocks(rel);
	BlockNumber end;

	*old_blocks = nblocks;
	end = UnreferencedEnd(rel, nblocks, strategy);
	if (!SpaceTruncatePays(nblocks, end))
		return 0;
	if (!LockForTruncation(rel))
		return 0;

	/* again, now that nobody else can change the end */
	nblocks = ColstorePhysicalBlocks(rel);
	*old_blocks = nblocks;
	end = UnreferencedEnd(rel, nblocks, strategy);
	if (end < nblocks)
	{
		ColstoreLockWriter(rel);
		FreeDeltaEntries(rel, end);
		ColstoreUnlockWriter(rel);
		RelationTruncate(rel, end);
	}
	UnlockRelation(rel, AccessExclusiveLock);
	return nblocks - end;
}

/*
 * SpaceRewriteDirectory
 *		Rewrite rel's directory without the entries of freed heap pages
 *		(DirectoryDropFreedDeltas) if that gives back at least
 *		DIR_REWRITE_MINIMUM pages or a sixteenth of the file, and the
 *		AccessExclusiveLock can be had as truncation takes it (without
 *		waiting more than five seconds).  Returns the number of directory
 *		pages given back.  Called by VACUUM holding its
 *		ShareUpdateExclusiveLock and no writer lock, before it moves the
 *		end of the file down; the AccessExclusiveLock is released before
 *		returning.  May error (I/O).
 */
int
SpaceRewriteDirectory(Relation rel)
{
	BlockNumber nblocks = ColstorePhysicalBlocks(rel);
	int			gain = DirectoryRewriteGain(rel);
	int			dropped;

	if (gain < DIR_REWRITE_MINIMUM && gain < (int) (nblocks / REL_TRUNCATE_FRACTION))
		return 0;
	if (gain <= 0 || !LockForTruncation(rel))
		return 0;
	ColstoreLockWriter(rel);
	dropped = DirectoryDropFreedDeltas(rel, ColstorePhysicalBlocks(rel));
	ColstoreUnlockWriter(rel);
	UnlockRelation(rel, AccessExclusiveLock);
	return dropped;
}
