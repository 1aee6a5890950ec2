/*-------------------------------------------------------------------------
 *
 * page_reuse.c
 *	  New pages for colstore's own structures (page stream, directory,
 *	  promotion maps): freed pages taken back from the free space map, or
 *	  the relation extended.
 *
 * VACUUM gives the pages of freed row groups to heap as empty heap pages in
 * the free space map (group_reclaim.c), frees the delta pages it found
 * empty (delta_retire.c), and truncates the empty end of the file
 * (space_truncate.c).  A writer that needs a page takes one of those
 * back before it extends the relation.  Heap backends use the same map
 * without colstore's writer lock, so a page is taken only:
 *
 * - under an exclusive buffer lock got without waiting (a heap backend
 *	 holding the page is using it; buffer locks have no deadlock detection,
 *	 and the caller may hold the metapage's or a stream page's lock);
 * - after checking, under that lock, that it is empty: new (all zero), or a
 *	 heap page none of whose line pointers is in use (LP_UNUSED only: an
 *	 LP_DEAD or LP_REDIRECT item may still have index entries or a
 *	 promotion map slot); a tuple that landed there since VACUUM freed it
 *	 makes it heap's;
 * - when no directory entry registers it as a delta page, nor names it as a
 *	 retired delta page not yet freed: a registered heap page keeps its
 *	 pseudo-block, and scans read it, empty or not; a retired one may still
 *	 be read as its old pseudo-block by a scan that copied the directory
 *	 before it was retired, until VACUUM frees it (delta_retire.c).
 *
 * Its free space map entry is then set to 0, and the caller initialises it
 * as a colstore page in a full-page WAL record.  A heap backend that read
 * the map before that locks the page afterwards and finds no room on it,
 * because every colstore page has pd_upper == pd_lower
 * (ColstoreInitPage): heapam decides by PageGetHeapFreeSpace, not by the
 * page's type.  A crash before the caller's WAL record leaves the page an
 * empty heap page that only the free space map forgot (VACUUM truncation
 * or a later map update find it again); a crash after it, before the page
 * is referenced, leaks it as an unreferenced colstore page.  Either way no
 * page is ever referenced twice.
 *
 * IDENTIFICATION
 *	  src/storage/page_reuse.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/generic_xlog.h"
#include "access/htup_details.h"
#include "storage/bufmgr.h"
#include "storage/freespace.h"
#include "utils/rel.h"

#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/metapage.h"
#include "storage/page_reuse.h"

/* Candidates from the free space map tried before extending the relation. */
#define PAGE_REUSE_TRIES	8

/* Does no directory entry still name heap block blkno (see the file header)? */
static bool
BlockUnregistered(ColstoreDirectory *dir, BlockNumber blkno)
{
	return DirectoryFindDeltaBlock(dir, blkno) < 0 && !DirectoryBlockRetired(dir, blkno);
}

/*
 * Is the locked page in buf an empty page nothing references: new, or a
 * heap page with no line pointer in use that no delta page entry names?
 */
static bool
PageIsFreeForColstore(ColstoreDirectory *dir, Buffer buf)
{
	return BlockUnregistered(dir, BufferGetBlockNumber(buf)) &&
		HeapPageHoldsNoItem(BufferGetPage(buf));
}

/*
 * Try to take blkno, a block the free space map offered; returns it
 * exclusively locked, or InvalidBuffer.
 */
static Buffer
TryTakePage(Relation rel, ColstoreDirectory *dir, BlockNumber blkno)
{
	Buffer		buf;
	Page		page;

	if (blkno == COLSTORE_METAPAGE_BLKNO || blkno >= ColstorePhysicalBlocks(rel))
		return InvalidBuffer;
	buf = ReadBuffer(rel, blkno);
	if (!ConditionalLockBuffer(buf))
	{
		ReleaseBuffer(buf);
		return InvalidBuffer;
	}
	if (PageIsFreeForColstore(dir, buf))
	{
		RecordPageWithFreeSpace(rel, blkno, 0);
		return buf;
	}

	/*
	 * not free: correct its entry, which heap does not update while it fills
	 * a page it took from the map (a freed page heap filled since would
	 * otherwise be offered again and again); a heap page keeps the room it
	 * has, for heap
	 */
	page = BufferGetPage(buf);
	if (((PageHeader) page)->pd_special != BLCKSZ)
		RecordPageWithFreeSpace(rel, blkno, 0);
	else
		RecordPageWithFreeSpace(rel, blkno, PageGetHeapFreeSpace(page));
	UnlockReleaseBuffer(buf);
	return InvalidBuffer;
}

/*
 * ColstoreNewPage
 *		A page for a colstore structure, pinned and exclusively locked, not
 *		yet initialised: an empty page freed by VACUUM, taken from the free
 *		space map as the file header describes, or else a block added at the
 *		end (ColstoreExtend).  The caller initialises it (ColstoreInitPage)
 *		in a full-page WAL record before releasing it, and holds the writer
 *		lock, so no two callers take the same page.  Creates the metapage
 *		first if the fork is empty.  May error (I/O).
 */
Buffer
ColstoreNewPage(Relation rel)
{
	ColstoreDirectory *dir;
	int			i;

	Assert(ColstoreWriterLockHeld(rel));
	if (ColstorePhysicalBlocks(rel) == 0)
		UnlockReleaseBuffer(ColstoreLockMetaForUpdate(rel));
	dir = DirectoryGet(rel);
	for (i = 0; i < PAGE_REUSE_TRIES; i++)
	{
		BlockNumber blkno = GetPageWithFreeSpace(rel, MaxHeapTupleSize);
		Buffer		buf;

		if (blkno == InvalidBlockNumber)
			break;
		buf = TryTakePage(rel, dir, blkno);
		if (BufferIsValid(buf))
			return buf;
	}
	return ColstoreExtend(rel);
}

/*
 * ColstoreFreedPageListed
 *		Whether the free space map offers block blkno as a page
 *		ColstoreNewPage may take, as far as the map and dir tell without
 *		reading the page: at least MaxHeapTupleSize free, and no entry of
 *		dir registers it as a heap page or names it as a retired one not yet
 *		freed (VACUUM records the room of the heap pages it empties, and
 *		retires and frees them only in later steps and VACUUMs).  For
 *		space_relocate.c's count of the freed pages below its cut; a page is
 *		checked again when taken (ColstoreNewPageBelow).
 */
bool
ColstoreFreedPageListed(Relation rel, ColstoreDirectory *dir, BlockNumber blkno)
{
	return blkno != COLSTORE_METAPAGE_BLKNO &&
		GetRecordedFreeSpace(rel, blkno) >= MaxHeapTupleSize &&
		BlockUnregistered(dir, blkno);
}

/*
 * ColstoreNewPageBelow
 *		ColstoreNewPage, but only a freed page below block limit, looked for
 *		in the free space map from *cursor on (which is moved past the page
 *		taken or the pages found not free): for VACUUM's moving of the
 *		file's end into freed pages lower down (space_relocate.c), which
 *		must not extend the relation.  InvalidBuffer if there is none.
 *		Caller holds the writer lock.
 */
Buffer
ColstoreNewPageBelow(Relation rel, BlockNumber *cursor, BlockNumber limit)
{
	ColstoreDirectory *dir;

	Assert(ColstoreWriterLockHeld(rel));
	dir = DirectoryGet(rel);
	limit = Min(limit, ColstorePhysicalBlocks(rel));
	for (; *cursor < limit; (*cursor)++)
	{
		BlockNumber blkno = *cursor;
		Buffer		buf;

		if (blkno == COLSTORE_METAPAGE_BLKNO ||
			GetRecordedFreeSpace(rel, blkno) < MaxHeapTupleSize)
			continue;
		buf = TryTakePage(rel, dir, blkno);
		if (BufferIsValid(buf))
		{
			(*cursor)++;
			return buf;
		}
	}
	return InvalidBuffer;
}

/*
 * PageGiveToHeap
 *		Make the exclusively locked page in buf an empty heap page without
 *		line pointers (a full-image generic WAL record), release it, and
 *		record it in the free space map, where heap tuples and
 *		ColstoreNewPage find it: VACUUM's freeing of row groups
 *		(group_reclaim.c) and of emptied heap pages (delta_retire.c).
 */
void
PageGiveToHeap(Relation rel, Buffer buf)
{
	BlockNumber blkno = BufferGetBlockNumber(buf);
	GenericXLogState *state;
	Page		page;
	Size		freespace;

	state = GenericXLogStart(rel);
	page = GenericXLogRegisterBuffer(state, buf, GENERIC_XLOG_FULL_IMAGE);
	PageInit(page, BLCKSZ, 0);
	GenericXLogFinish(state);
	freespace = PageGetHeapFreeSpace(BufferGetPage(buf));
	UnlockReleaseBuffer(buf);
	RecordPageWithFreeSpace(rel, blkno, freespace);
}
