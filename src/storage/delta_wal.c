/*-------------------------------------------------------------------------
 *
 * delta_wal.c
 *	  WAL of VACUUM's item changes on the heap pages inside a colstore
 *	  relation (XLOG_COLSTORE_PRUNE, see colstore_wal.h, written and
 *	  replayed here), and of the recovery conflicts before dead versions or
 *	  retired row groups' space are removed.
 *
 * The redo of a prune does on the standby exactly what delta_vacuum.c did
 * on the primary: items become redirects (the start of a HOT chain whose
 * first versions were removed), items made LP_DEAD and redirects lose their storage
 * (PageRepairFragmentation, under the cleanup lock, as heap's prune redo),
 * LP_DEAD items made LP_UNUSED are cut from the end of the line pointer
 * array (PageTruncateLinePointerArray), and the page's free space goes to
 * the standby's free space map.  Unlike heap's redo it accepts heap-only
 * tuples made LP_DEAD: they may have index entries (delta_vacuum.c).
 *
 * IDENTIFICATION
 *	  src/storage/delta_wal.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/nbtxlog.h"
#include "access/transam.h"
#include "access/xlog.h"
#include "access/xloginsert.h"
#include "access/xlogutils.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/freespace.h"
#include "storage/standby.h"

#include "storage/colstore_wal.h"
#include "storage/delta_wal.h"

/*
 * LogStandbyConflict
 *		Cancel the standby queries whose snapshots may still see what rel's
 *		transactions up to xid made dead (or a row group retired at stamp
 *		xid), before it is removed.  Logged as btree's "reuse page" record,
 *		which only does that and touches no page, so that a standby replays
 *		it whether or not it has colstore loaded.
 */
void
LogStandbyConflict(Relation rel, TransactionId xid)
{
	FullTransactionId next = ReadNextFullTransactionId();
	uint32		epoch = EpochFromFullTransactionId(next);
	FullTransactionId horizon;
	xl_btree_reuse_page xlrec;

	if (!RelationNeedsWAL(rel) || !XLogStandbyInfoActive() || !TransactionIdIsNormal(xid))
		return;
	if (xid > XidFromFullTransactionId(next))
		epoch--;				/* the xid is from the previous epoch */
	horizon = FullTransactionIdFromEpochAndXid(epoch, xid);
	memset(&xlrec, 0, sizeof(xlrec));
#if PG_HAS_RELFILELOCATOR
	xlrec.locator = rel->rd_locator;
	xlrec.snapshotConflictHorizon = horizon;
	xlrec.isCatalogRel = false;
#else
	xlrec.node = rel->rd_locator;
	xlrec.latestRemovedFullXid = horizon;
#endif
	xlrec.block = 0;
	XLogBeginInsert();
	XLogRegisterData((char *) &xlrec, SizeOfBtreeReusePage);
	XLogInsert(RM_BTREE_ID, XLOG_BTREE_REUSE_PAGE);
}

/*
 * LogPageImage
 *		What a server without colstore's resource manager logs for VACUUM's
 *		change to the heap page in buf (inside the critical section): the
 *		recovery conflict for conflict_xid, then a full image of the page,
 *		both replayed by every server.  Sets the page's LSN.
 */
void
LogPageImage(Relation rel, Buffer buf, TransactionId conflict_xid)
{
	LogStandbyConflict(rel, conflict_xid);
	log_newpage_buffer(buf, true);
}

/*
 * LogDeltaPrune
 *		Log the item changes just made, inside a critical section, to the
 *		heap page in buf of rel (redirected[2i] now redirects to
 *		redirected[2i + 1] for i < nredirected, dead[0..ndead) now LP_DEAD,
 *		unused[0..nunused) now LP_UNUSED) and set the page's LSN.  A server
 *		without colstore's resource manager (colstore not preloaded) logs
 *		the conflict and a full image of the page instead, which every
 *		server replays.
 */
void
LogDeltaPrune(Relation rel, Buffer buf, TransactionId conflict_xid,
			  OffsetNumber *redirected, int nredirected,
			  OffsetNumber *dead, int ndead, OffsetNumber *unused, int nunused)
{
	xl_colstore_prune xlrec;
	uint16		nredirects = (uint16) nredirected;
	uint8		info = XLOG_COLSTORE_PRUNE;
	XLogRecPtr	recptr;

	Assert(nredirected > 0 || ndead > 0 || nunused > 0);
	if (!ColstoreWalAvailable())
	{
		LogPageImage(rel, buf, conflict_xid);
		return;
	}
	xlrec.conflict_xid = conflict_xid;
	xlrec.ndead = (uint16) ndead;
	xlrec.nunused = (uint16) nunused;
	XLogBeginInsert();
	XLogRegisterData((char *) &xlrec, sizeof(xlrec));
	if (nredirected > 0)
	{
		info |= XLOG_COLSTORE_PRUNE_REDIRECTS;
		XLogRegisterData((char *) &nredirects, sizeof(nredirects));
	}
	XLogRegisterBuffer(0, buf, REGBUF_STANDARD);
	if (nredirected > 0)
		XLogRegisterBufData(0, (char *) redirected,
							2 * nredirected * sizeof(OffsetNumber));
	if (ndead > 0)
		XLogRegisterBufData(0, (char *) dead, ndead * sizeof(OffsetNumber));
	if (nunused > 0)
		XLogRegisterBufData(0, (char *) unused, nunused * sizeof(OffsetNumber));
	recptr = XLogInsert(COLSTORE_RMGR_ID, info);
	PageSetLSN(BufferGetPage(buf), recptr);
}

void
DeltaPruneRedo(XLogReaderState *record)
{
	xl_colstore_prune *xlrec = (xl_colstore_prune *) XLogRecGetData(record);
	uint16		nredirected = 0;
	RelFileLocator locator;
	BlockNumber blkno;
	Buffer		buf;

	if (XLogRecGetInfo(record) & XLOG_COLSTORE_PRUNE_REDIRECTS)
	{
		if (XLogRecGetDataLen(record) < sizeof(xl_colstore_prune) + sizeof(uint16))
			elog(PANIC, "colstore prune record: %u bytes of data with redirects",
				 XLogRecGetDataLen(record));
		memcpy(&nredirected, XLogRecGetData(record) + sizeof(xl_colstore_prune),
			   sizeof(uint16));
	}
	XLogRecGetBlockTag(record, 0, &locator, NULL, &blkno);
	if (InHotStandby && TransactionIdIsValid(xlrec->conflict_xid))
		ResolveSnapshotConflict(xlrec->conflict_xid, locator);

	if (XLogReadBufferForRedoExtended(record, 0, RBM_NORMAL,
									  xlrec->ndead > 0 || nredirected > 0,
									  &buf) == BLK_NEEDS_REDO)
	{
		Page		page = BufferGetPage(buf);
		Size		len;
		OffsetNumber *offsets = (OffsetNumber *) XLogRecGetBlockData(record, 0, &len);
		OffsetNumber *dead = offsets + 2 * nredirected;
		int			i;

		if (len != (2 * nredirected + xlrec->ndead + xlrec->nunused) * sizeof(OffsetNumber))
			elog(PANIC, "colstore prune record: %zu bytes of offsets for %u redirected, %u dead and %u unused items",
				 len, nredirected, xlrec->ndead, xlrec->nunused);
		for (i = 0; i < nredirected; i++)
			ItemIdSetRedirect(PageGetItemId(page, offsets[2 * i]), offsets[2 * i + 1]);
		for (i = 0; i < xlrec->ndead; i++)
			ItemIdSetDead(PageGetItemId(page, dead[i]));
		for (i = 0; i < xlrec->nunused; i++)
			ItemIdSetUnused(PageGetItemId(page, dead[xlrec->ndead + i]));
		if (xlrec->ndead > 0 || nredirected > 0)
		{
			PageRepairFragmentation(page);
			PageClearFull(page);
		}
		if (xlrec->nunused > 0)
			PageTruncateLinePointerArray(page);
		PageSetLSN(page, record->EndRecPtr);
		MarkBufferDirty(buf);
	}
	if (BufferIsValid(buf))
	{
		Size		freespace = PageGetHeapFreeSpace(BufferGetPage(buf));

		UnlockReleaseBuffer(buf);
		XLogRecordPageWithFreeSpace(locator, blkno, freespace);
	}
}
