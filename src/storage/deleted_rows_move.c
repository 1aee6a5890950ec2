/*-------------------------------------------------------------------------
 *
 * deleted_rows_move.c
 *	  VACUUM's moving of a row group's deleted-rows pages (its DELETED_ROOT
 *	  page and bitmap pages, storage/deleted_rows.c, and its delete log's
 *	  root page, storage/delete_log.c) into freed pages lower in the file,
 *	  for space_relocate.c: these pages are made after the heap pages or
 *	  delete log pages of the statement whose rows they record, so they end
 *	  the file once those pages are freed, and truncation stops at them.
 *
 * A move is one generic WAL record: the new page gets a full image of the
 * old one, the one pointer to it is changed (a bitmap page's is in the
 * DELETED_ROOT page, the log root's in the DELETED_ROOT page's cp_next, the
 * DELETED_ROOT page's in the cp_next of the group's last promotion map root
 * page), and the old page is flagged
 * COLSTORE_PAGE_F_MOVED (truncation then counts it as unreferenced).  All
 * under the writer lock (which space_relocate.c holds throughout).
 *
 * Why every reader and writer stays right:
 * - Writers.  Only VACUUM writes bitmap pages and the DELETED_ROOT page's
 *	 bitmap pointers and list of detached leaves, and one VACUUM runs on a
 *	 table at a time: this one re-finds both (DeletedRootFind,
 *	 DeletedBitmapPage) each time after the move.  The one other write of a
 *	 DELETED_ROOT page is a deleter's link to its new delete log root
 *	 (DeleteLogAddPages), and the DELETED_ROOT page's own making
 *	 (DeletedRowsAddRoot): both find the page under the writer lock, so they
 *	 find the new one.  The log root's segment slots are set under the
 *	 writer lock too (DeleteLogAddPages) and cleared by VACUUM.  The
 *	 segment pages, where deleters add runs, do not move.
 * - Readers.  A reader reads a pointer, lets go of its page, then locks the
 *	 page pointed at, all within one lookup (no pointer is kept across
 *	 lookups).  One that read the old pointer reads the old page, whose
 *	 contents are those the new page started with (nothing writes a flagged
 *	 page, and no writer takes it: a colstore page is never in the free
 *	 space map, and truncation removes it only under an
 *	 AccessExclusiveLock, when no reader is left).  That is the state a
 *	 reader a moment earlier would have read: bits set later are set after
 *	 the move, and a reader that missed them read them unset as before,
 *	 which the bitmap's stamps already allow for (deleted_rows.c); a delete
 *	 log root linked after the move is a log that reader's lookup came too
 *	 early for, as it would be without the move; a segment page made after
 *	 the move is one a deleter then makes itself under the writer lock
 *	 (finding the new root there), and one detached after it is flagged
 *	 retired, which a deleter checks under the page's lock
 *	 (DeleteLogAppend).
 * - Crashes.  Before the record, the new page is a freed page taken from
 *	 the free space map and not yet written (leaked until a VACUUM finds it
 *	 empty again); after it, the old page is flagged and unreferenced.  No
 *	 page is ever referenced and flagged.
 *
 * IDENTIFICATION
 *	  src/storage/deleted_rows_move.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/generic_xlog.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "storage/delete_log.h"
#include "storage/deleted_rows.h"
#include "storage/deleted_rows_page.h"
#include "storage/metapage.h"
#include "storage/page_reuse.h"

/*
 * DeletedRowsMovable
 *		The pages of group's deleted-rows bitmap that a move may take: its
 *		DELETED_ROOT page, its bitmap pages and its delete log's root page,
 *		into blocks (room for DeletedRowsMovableMax(group) entries).
 *		Returns how many.  Caller holds the writer lock.
 */
int
DeletedRowsMovable(Relation rel, const RowGroupDirEntry *group, BlockNumber *blocks)
{
	BlockNumber root = DeletedRootFind(rel, group, NULL);
	uint32		nbitmaps = BitmapPagesFor(group->rg_nrows);
	int			n = 0;
	uint32		i;

	Assert(ColstoreWriterLockHeld(rel));
	if (root == InvalidBlockNumber)
		return 0;
	blocks[n++] = root;
	if (DeleteLogRootFind(rel, group, NULL) != InvalidBlockNumber)
		blocks[n++] = DeleteLogRootFind(rel, group, NULL);
	for (i = 0; i < nbitmaps; i++)
	{
		BlockNumber blkno = DeletedBitmapPage(rel, group, root, i);

		if (blkno != 0)
			blocks[n++] = blkno;
	}
	return n;
}

/* Room DeletedRowsMovable needs for group. */
int
DeletedRowsMovableMax(const RowGroupDirEntry *group)
{
	return 2 + (int) BitmapPagesFor(group->rg_nrows);
}

/*
 * Copy the exclusively locked page oldbuf to newbuf (exclusively locked, as
 * ColstoreNewPageBelow returns it) and flag the old one moved, with the
 * pointer change that set_pointer makes on parent's page, in one record.
 */
static void
MoveOne(Relation rel, Buffer parent, Buffer oldbuf, Buffer newbuf,
		void (*set_pointer) (Page parent, BlockNumber newblk, uint32 arg), uint32 arg)
{
	GenericXLogState *state = GenericXLogStart(rel);
	Page		ppage = GenericXLogRegisterBuffer(state, parent, 0);
	Page		oldpage = GenericXLogRegisterBuffer(state, oldbuf, 0);
	Page		newpage = GenericXLogRegisterBuffer(state, newbuf, GENERIC_XLOG_FULL_IMAGE);

	memcpy(newpage, oldpage, BLCKSZ);
	ColstorePageGetOpaque(oldpage)->cp_flags |= COLSTORE_PAGE_F_MOVED;
	set_pointer(ppage, BufferGetBlockNumber(newbuf), arg);
	GenericXLogFinish(state);
}

static void
SetBitmapPointer(Page root, BlockNumber newblk, uint32 pageno)
{
	RootData(root)->dr_bitmaps[pageno] = newblk;
}

static void
SetNextPointer(Page last_root, BlockNumber newblk, uint32 unused)
{
	ColstorePageGetOpaque(last_root)->cp_next = newblk;
}

/*
 * DeletedRowsRelocate
 *		Move group's deleted-rows pages at or after block cut into freed
 *		pages below it (ColstoreNewPageBelow from *cursor), bitmap pages
 *		first, then the delete log's root page, then the DELETED_ROOT page
 *		(see the file header).  Stops when
 *		no freed page is left below cut (what did not move stays where it
 *		is, referenced).  Returns how many pages moved.  Caller holds the
 *		writer lock and is VACUUM.
 */
int
DeletedRowsRelocate(Relation rel, const RowGroupDirEntry *group, BlockNumber cut,
					BlockNumber *cursor)
{
	BlockNumber last;
	BlockNumber root = DeletedRootFind(rel, group, &last);
	BlockNumber logroot;
	uint32		nbitmaps = BitmapPagesFor(group->rg_nrows);
	int			moved = 0;
	uint32		i;

	Assert(ColstoreWriterLockHeld(rel));
	if (root == InvalidBlockNumber)
		return 0;
	for (i = 0; i < nbitmaps; i++)
	{
		BlockNumber blkno = DeletedBitmapPage(rel, group, root, i);
		Buffer		newbuf;
		Buffer		rootbuf;
		Buffer		oldbuf;

		if (blkno == 0 || blkno < cut)
			continue;
		newbuf = ColstoreNewPageBelow(rel, cursor, cut);
		if (!BufferIsValid(newbuf))
			return moved;
		rootbuf = ReadBuffer(rel, root);
		LockBuffer(rootbuf, BUFFER_LOCK_EXCLUSIVE);
		if (DeletedRootCheck(rel, group, rootbuf)->dr_bitmaps[i] != blkno)
			DeletedRowsReportBad(rel, group, root);
		oldbuf = ReadBuffer(rel, blkno);
		LockBuffer(oldbuf, BUFFER_LOCK_EXCLUSIVE);
		ColstoreCheckPage(rel, blkno, BufferGetPage(oldbuf), COLSTORE_PAGE_DELETED_BITS);
		MoveOne(rel, rootbuf, oldbuf, newbuf, SetBitmapPointer, i);
		UnlockReleaseBuffer(oldbuf);
		UnlockReleaseBuffer(rootbuf);
		UnlockReleaseBuffer(newbuf);
		moved++;
	}
	logroot = DeleteLogRootFind(rel, group, NULL);
	if (logroot != InvalidBlockNumber && logroot >= cut)
	{
		Buffer		newbuf = ColstoreNewPageBelow(rel, cursor, cut);
		Buffer		rootbuf;
		Buffer		oldbuf;

		if (!BufferIsValid(newbuf))
			return moved;
		/* lock order: DELETED_ROOT page, then the log's root page */
		rootbuf = ReadBuffer(rel, root);
		LockBuffer(rootbuf, BUFFER_LOCK_EXCLUSIVE);
		(void) DeletedRootCheck(rel, group, rootbuf);
		if (ColstorePageGetOpaque(BufferGetPage(rootbuf))->cp_next != logroot)
			DeletedRowsReportBad(rel, group, root);
		oldbuf = ReadBuffer(rel, logroot);
		LockBuffer(oldbuf, BUFFER_LOCK_EXCLUSIVE);
		ColstoreCheckPage(rel, logroot, BufferGetPage(oldbuf), COLSTORE_PAGE_DELETE_LOG_ROOT);
		MoveOne(rel, rootbuf, oldbuf, newbuf, SetNextPointer, 0);
		UnlockReleaseBuffer(oldbuf);
		UnlockReleaseBuffer(rootbuf);
		UnlockReleaseBuffer(newbuf);
		moved++;
	}
	if (root >= cut)
	{
		Buffer		newbuf = ColstoreNewPageBelow(rel, cursor, cut);
		Buffer		lastbuf;
		Buffer		oldbuf;

		if (!BufferIsValid(newbuf))
			return moved;
		/* lock order: promotion map root page, then DELETED_ROOT page */
		lastbuf = ReadBuffer(rel, last);
		LockBuffer(lastbuf, BUFFER_LOCK_EXCLUSIVE);
		ColstoreCheckPage(rel, last, BufferGetPage(lastbuf), COLSTORE_PAGE_STATE_ROOT);
		if (ColstorePageGetOpaque(BufferGetPage(lastbuf))->cp_next != root)
			DeletedRowsReportBad(rel, group, last);
		oldbuf = ReadBuffer(rel, root);
		LockBuffer(oldbuf, BUFFER_LOCK_EXCLUSIVE);
		(void) DeletedRootCheck(rel, group, oldbuf);
		MoveOne(rel, lastbuf, oldbuf, newbuf, SetNextPointer, 0);
		UnlockReleaseBuffer(oldbuf);
		UnlockReleaseBuffer(lastbuf);
		UnlockReleaseBuffer(newbuf);
		moved++;
	}
	return moved;
}
