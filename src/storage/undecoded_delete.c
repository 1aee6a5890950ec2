/*-------------------------------------------------------------------------
 *
 * undecoded_delete.c
 *	  Deleting a heap tuple without logical decoding seeing a DELETE: for
 *	  the tuples compaction moves into row groups, and for colstore's own
 *	  bookkeeping rows (colstore.options).
 *
 * Compaction (compaction.c) deletes each tuple it moves as heap_delete
 * (changingPart = true, wait = false) would: the tuple then carries the
 * mover's xid as xmax and heap's "moved to another partition" marker, which
 * makes writers that reach it wait for the mover and then follow the row
 * (moved_rows.c).  But heap_delete's WAL record decodes as a DELETE, and a
 * move is not a change of the row: a subscriber would delete a row that
 * still exists.  Likewise an options change is not a change of user data.
 *
 * DeleteUndecoded makes the same change to the page as heap_delete when
 * heap_delete would succeed without waiting, and nothing otherwise; it
 * logs it as XLOG_COLSTORE_DELETE, whose redo (DeleteUndecodedRedo)
 * repeats it as heap_xlog_delete does and which decoding ignores.  What
 * heap_delete computes is simple in that case: HeapTupleSatisfiesUpdate
 * returned TM_Ok, so any old xmax is an aborted updater or a finished
 * locker, and heap's compute_new_xmax_infomask gives the mover's xid alone
 * with HEAP_KEYS_UPDATED (an exclusive delete).  Its TOASTed values are
 * deleted as heap_delete deletes them (decoding ignores TOAST deletes).
 *
 * Without colstore's resource manager (colstore not preloaded), the record
 * cannot be written; heap_delete is used then, unless the table is
 * logically logged, where that would be a wrong change: that is an error.
 *
 * IDENTIFICATION
 *	  src/storage/undecoded_delete.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/heapam.h"
#include "access/heaptoast.h"
#include "access/multixact.h"
#include "access/visibilitymap.h"
#include "access/xact.h"
#include "access/xloginsert.h"
#include "access/xlogutils.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/combocid.h"
#include "catalog/catalog.h"

#include "storage/colstore_wal.h"

/*
 * The header change of an exclusive delete by xmax: xmax, keys updated, and
 * either the moved marker or a t_ctid that points at the tuple itself.
 */
static void
SetDeleteXmax(HeapTupleHeader htup, ItemPointer self, TransactionId xmax,
			  bool moved)
{
	htup->t_infomask &= ~(HEAP_XMAX_BITS | HEAP_MOVED);
	htup->t_infomask2 |= HEAP_KEYS_UPDATED;
	HeapTupleHeaderClearHotUpdated(htup);
	HeapTupleHeaderSetXmax(htup, xmax);
	if (moved)
		HeapTupleHeaderSetMovedPartitions(htup);
	else
		htup->t_ctid = *self;
}

/* Without the resource manager: heap_delete, where that is not decoded. */
static bool
DeleteWithHeap(Relation rel, ItemPointer tid, CommandId cid, bool moved)
{
	TM_FailureData tmfd;

	if (RelationIsLogicallyLogged(rel))
		ColstoreWalRequire(RelationGetRelationName(rel));
	return heap_delete(rel, tid, cid, InvalidSnapshot, false, &tmfd,
					   moved) == TM_Ok;
}

static bool DeleteAs(Relation rel, ItemPointer tid, TransactionId xid,
					 CommandId cid, bool moved, bool own);

/*
 * DeleteUndecoded
 *		Delete the heap tuple at tid (a heap position in rel) by the current
 *		transaction's command cid, marked as moved if moved, if heap_delete
 *		would without waiting; returns whether it did.  Nothing changes if
 *		the tuple is gone, or somebody else locks, changes or deletes it.
 */
bool
DeleteUndecoded(Relation rel, ItemPointer tid, CommandId cid, bool moved)
{
	if (!ColstoreWalAvailable() && RelationNeedsWAL(rel))
		return DeleteWithHeap(rel, tid, cid, moved);
	return DeleteAs(rel, tid, GetCurrentTransactionId(), cid, moved, true);
}

/*
 * PromotedCopySetDeleter
 *		Give the promoted copy at tid, which its promoter has just made and
 *		not yet recorded in the promotion map (so nobody else can reach it),
 *		the delete of the row that the delete log holds (storage/delete_log.c):
 *		xmax xid, with cmax cid, exactly as heap_delete by xid would have left
 *		it (moved: a compaction's move of the row, with the "moved to
 *		another partition" marker, as DeleteUndecoded leaves a tuple it
 *		moves), logged as XLOG_COLSTORE_DELETE.  Its TOASTed values stay
 *		(they are freed with the table).  Requires colstore's resource
 *		manager when the table is WAL-logged (the delete log is only written
 *		then).
 */
void
PromotedCopySetDeleter(Relation rel, ItemPointer tid, TransactionId xid, CommandId cid,
					   bool moved)
{
	if (!ColstoreWalAvailable() && RelationNeedsWAL(rel))
		ColstoreWalRequire(RelationGetRelationName(rel));
	if (!DeleteAs(rel, tid, xid, cid, moved, false))
		elog(ERROR, "could not set the deleter of promoted copy (%u,%u) of colstore table \"%s\"",
			 ItemPointerGetBlockNumber(tid), ItemPointerGetOffsetNumber(tid),
			 RelationGetRelationName(rel));
}

/*
 * The delete of DeleteUndecoded by xid (own: the current transaction's, with
 * its SERIALIZABLE check and TOAST deletes), or by another transaction's
 * xid for PromotedCopySetDeleter.
 */
static bool
DeleteAs(Relation rel, ItemPointer tid, TransactionId xid, CommandId cid,
		 bool moved, bool own)
{
	BlockNumber block = ItemPointerGetBlockNumber(tid);
	Buffer		buffer;
	Buffer		vmbuffer = InvalidBuffer;
	Page		page;
	ItemId		lp;
	HeapTupleData tp;
	bool		iscombo;
	bool		all_visible_cleared = false;

	buffer = ReadBuffer(rel, block);
	page = BufferGetPage(buffer);
	if (PageIsAllVisible(page))
		visibilitymap_pin(rel, block, &vmbuffer);
	LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
	if (vmbuffer == InvalidBuffer && PageIsAllVisible(page))
	{
		/* as heap_delete: never hold the content lock across VM I/O */
		LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
		visibilitymap_pin(rel, block, &vmbuffer);
		LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
	}
	lp = PageGetItemId(page, ItemPointerGetOffsetNumber(tid));
	if (ItemPointerGetOffsetNumber(tid) > PageGetMaxOffsetNumber(page) ||
		!ItemIdIsNormal(lp))
	{
		UnlockReleaseBuffer(buffer);
		if (vmbuffer != InvalidBuffer)
			ReleaseBuffer(vmbuffer);
		return false;
	}
	tp.t_tableOid = RelationGetRelid(rel);
	tp.t_data = (HeapTupleHeader) PageGetItem(page, lp);
	tp.t_len = ItemIdGetLength(lp);
	tp.t_self = *tid;
	if (HeapTupleSatisfiesUpdate(&tp, cid, buffer) != TM_Ok)
	{
		UnlockReleaseBuffer(buffer);
		if (vmbuffer != InvalidBuffer)
			ReleaseBuffer(vmbuffer);
		return false;
	}

	if (own)
		CheckForSerializableConflictIn(rel, tid, block);
	HeapTupleHeaderAdjustCmax(tp.t_data, &cid, &iscombo);
	/* others may put our xid into a multixact from now on, as in heap_delete */
	if (own)
		MultiXactIdSetOldestMember();

	START_CRIT_SECTION();
	PageSetPrunable(page, xid);
	if (PageIsAllVisible(page))
	{
		all_visible_cleared = true;
		PageClearAllVisible(page);
		visibilitymap_clear(rel, block, vmbuffer, VISIBILITYMAP_VALID_BITS);
	}
	SetDeleteXmax(tp.t_data, &tp.t_self, xid, moved);
	HeapTupleHeaderSetCmax(tp.t_data, cid, iscombo);
	MarkBufferDirty(buffer);
	if (RelationNeedsWAL(rel))
	{
		xl_colstore_delete xlrec;
		XLogRecPtr	recptr;

		memset(&xlrec, 0, sizeof(xlrec));
		xlrec.xmax = xid;
		xlrec.offnum = ItemPointerGetOffsetNumber(tid);
		xlrec.flags = (all_visible_cleared ? COLSTORE_DELETE_ALL_VISIBLE_CLEARED : 0) |
			(moved ? COLSTORE_DELETE_MOVED : 0);
		XLogBeginInsert();
		XLogRegisterData((char *) &xlrec, sizeof(xlrec));
		XLogRegisterBuffer(0, buffer, REGBUF_STANDARD);
		recptr = XLogInsert(COLSTORE_RMGR_ID, XLOG_COLSTORE_DELETE);
		PageSetLSN(page, recptr);
	}
	END_CRIT_SECTION();

	LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
	if (vmbuffer != InvalidBuffer)
		ReleaseBuffer(vmbuffer);
	/* the content lock is not needed to read the header's external values */
	if (own && HeapTupleHasExternal(&tp))
		heap_toast_delete(rel, &tp, false);
	ReleaseBuffer(buffer);
	if (own)
		pgstat_count_heap_delete(rel);
	return true;
}

/*
 * DeleteUndecodedRedo
 *		Replay XLOG_COLSTORE_DELETE as heap_xlog_delete replays a delete.
 */
void
DeleteUndecodedRedo(XLogReaderState *record)
{
	XLogRecPtr	lsn = record->EndRecPtr;
	xl_colstore_delete *xlrec = (xl_colstore_delete *) XLogRecGetData(record);
	RelFileLocator node;
	BlockNumber blkno;
	ItemPointerData self;
	Buffer		buffer;

	XLogRecGetBlockTag(record, 0, &node, NULL, &blkno);
	ItemPointerSet(&self, blkno, xlrec->offnum);
	if (xlrec->flags & COLSTORE_DELETE_ALL_VISIBLE_CLEARED)
	{
		/* the map may need fixing even if the page is up to date */
		Relation	reln = CreateFakeRelcacheEntry(node);
		Buffer		vmbuffer = InvalidBuffer;

		visibilitymap_pin(reln, blkno, &vmbuffer);
		visibilitymap_clear(reln, blkno, vmbuffer, VISIBILITYMAP_VALID_BITS);
		ReleaseBuffer(vmbuffer);
		FreeFakeRelcacheEntry(reln);
	}
	if (XLogReadBufferForRedo(record, 0, &buffer) == BLK_NEEDS_REDO)
	{
		Page		page = BufferGetPage(buffer);
		ItemId		lp = NULL;
		HeapTupleHeader htup;

		if (PageGetMaxOffsetNumber(page) >= xlrec->offnum)
			lp = PageGetItemId(page, xlrec->offnum);
		if (lp == NULL || !ItemIdIsNormal(lp))
			elog(PANIC, "colstore delete redo: invalid line pointer %u in block %u",
				 xlrec->offnum, blkno);
		htup = (HeapTupleHeader) PageGetItem(page, lp);
		SetDeleteXmax(htup, &self, xlrec->xmax,
					  (xlrec->flags & COLSTORE_DELETE_MOVED) != 0);
		HeapTupleHeaderSetCmax(htup, FirstCommandId, false);
		PageSetPrunable(page, XLogRecGetXid(record));
		if (xlrec->flags & COLSTORE_DELETE_ALL_VISIBLE_CLEARED)
			PageClearAllVisible(page);
		PageSetLSN(page, lsn);
		MarkBufferDirty(buffer);
	}
	if (BufferIsValid(buffer))
		UnlockReleaseBuffer(buffer);
}
