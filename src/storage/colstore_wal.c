/*-------------------------------------------------------------------------
 *
 * colstore_wal.c
 *	  Registration of colstore's WAL resource manager, its redo dispatch
 *	  and its descriptions (pg_waldump, error contexts).
 *
 * The record kinds and their layouts are in colstore_wal.h; the decode
 * callback is in logical_decode.c; the records that change pages are
 * replayed where they are written (undecoded_delete.c, delta_wal.c,
 * delta_freeze.c).  The records for logical decoding change no page, so
 * their redo does nothing.
 *
 * wal_consistency_checking: every record of this resource manager that
 * references a block changes a heap page (one inside a colstore relation,
 * or one of colstore.options, a heap table) as heapam would, so the mask
 * is heap's (ColstoreMask).  The setting must name the resource manager
 * ('colstore'): 'all' is resolved when the server starts, before
 * shared_preload_libraries register custom resource managers, and so
 * covers only the built-in ones (until a configuration reload resolves it
 * again).  Without a mask function, naming it kept the server from
 * starting.
 *
 * IDENTIFICATION
 *	  src/storage/colstore_wal.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/bufmask.h"
#include "access/heapam_xlog.h"
#include "access/xlog_internal.h"
#include "miscadmin.h"

#include "storage/colstore_wal.h"

static void ColstoreRedo(XLogReaderState *record);
static void ColstoreDesc(StringInfo buf, XLogReaderState *record);
static const char *ColstoreIdentify(uint8 info);
static void ColstoreMask(char *pagedata, BlockNumber blkno);

static RmgrData ColstoreRmgr = {
	.rm_name = COLSTORE_RMGR_NAME,
	.rm_redo = ColstoreRedo,
	.rm_desc = ColstoreDesc,
	.rm_identify = ColstoreIdentify,
	.rm_decode = ColstoreDecode,
	.rm_mask = ColstoreMask,
};

/*
 * ColstoreWalRegister
 *		Register the resource manager; only possible while
 *		shared_preload_libraries are loaded, so a backend that loaded
 *		colstore later has none (see ColstoreWalAvailable).
 */
void
ColstoreWalRegister(void)
{
	if (process_shared_preload_libraries_in_progress)
		RegisterCustomRmgr(COLSTORE_RMGR_ID, &ColstoreRmgr);
}

/* Can this process write colstore's own WAL records? */
bool
ColstoreWalAvailable(void)
{
	return RmgrIdExists(COLSTORE_RMGR_ID);
}

/*
 * ColstoreWalRequire
 *		Raise ERRCODE_FEATURE_NOT_SUPPORTED unless this process can write
 *		colstore's WAL records: a write to table relname (a colstore table,
 *		or colstore.options, which is heap) that logical decoding must see,
 *		or must not see, needs them.  Without the
 *		resource manager, a standby or crash recovery could not replay them.
 */
void
ColstoreWalRequire(const char *relname)
{
	if (!ColstoreWalAvailable())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot write to table \"%s\" under wal_level = logical without colstore in shared_preload_libraries",
						relname),
				 errdetail("Keeping logical decoding right for colstore tables and colstore.options needs colstore's WAL resource manager, which is registered only at server start."),
				 errhint("Add colstore to shared_preload_libraries and restart the server.")));
}

static void
ColstoreRedo(XLogReaderState *record)
{
	uint8		info = ColstoreRecordKind(XLogRecGetInfo(record));

	switch (info)
	{
		case XLOG_COLSTORE_VISIBLE:
		case XLOG_COLSTORE_VISIBLE_CLEAR:
			AllVisibleRedo(record);
			break;
		case XLOG_COLSTORE_INSERT:
		case XLOG_COLSTORE_SPEC_CONFIRM:
		case XLOG_COLSTORE_SPEC_ABORT:
		case XLOG_COLSTORE_LOGGED_DELETE:
			break;				/* for logical decoding only */
		case XLOG_COLSTORE_DELETE:
			DeleteUndecodedRedo(record);
			break;
		case XLOG_COLSTORE_PRUNE:
			DeltaPruneRedo(record);
			break;
		case XLOG_COLSTORE_FREEZE:
			DeltaFreezeRedo(record);
			break;
		case XLOG_COLSTORE_LOG_APPEND:
			DeleteLogAppendRedo(record);
			break;
		default:
			elog(PANIC, "colstore redo: unknown record kind %u", info);
	}
}

/*
 * ColstoreMask
 *		rm_mask: mask, in a copy of the page at blkno as the primary logged
 *		it or as redo left it, what may legitimately differ between the two.
 *
 * XLOG_COLSTORE_DELETE, _PRUNE and _FREEZE reference one block each, a
 * heap page (no special space), and change it as heap's delete, prune and
 * freeze do; XLOG_COLSTORE_VISIBLE references a visibility map page (no
 * special space, no line pointers, its bits between pd_lower and pd_upper,
 * which heap_mask masks as free space: only its header is compared); the
 * other records reference none and are never masked.  So
 * what may differ is what heap_mask masks: the LSN and checksum, page hint
 * bits (PD_PAGE_FULL, PD_HAS_FREE_LINES, PD_ALL_VISIBLE, pd_prune_xid),
 * the free space between pd_lower and pd_upper, tuples' hint bits (all
 * transaction bits of a tuple whose xmin is not frozen: hints are set
 * without WAL; the xmax hints of a frozen one, such as a promoted copy),
 * command ids (redo writes FirstCommandId), a speculative tuple's token and
 * the padding after each tuple.  colstore's own marks on heap tuples
 * (HEAP_COLSTORE_PROMOTED in t_infomask2, the moved marker in t_ctid) are
 * logged, so they stay compared.
 *
 * A page of another kind (a colstore page has special space) never appears
 * here; should a future record reference one, heap_mask would misread its
 * contents as line pointers, so only the LSN and checksum are masked and
 * everything else must match.
 */
static void
ColstoreMask(char *pagedata, BlockNumber blkno)
{
	Page		page = (Page) pagedata;

	if (!PageIsNew(page) && PageGetSpecialSize(page) == 0)
		heap_mask(pagedata, blkno);
	else
		mask_page_lsn_and_checksum(page);
}

static void
ColstoreDesc(StringInfo buf, XLogReaderState *record)
{
	uint8		info = ColstoreRecordKind(XLogRecGetInfo(record));
	char	   *data = XLogRecGetData(record);

	if (info == XLOG_COLSTORE_VISIBLE || info == XLOG_COLSTORE_VISIBLE_CLEAR)
		AllVisibleDesc(buf, record);
	else if (info == XLOG_COLSTORE_INSERT &&
			 XLogRecGetDataLen(record) >= sizeof(xl_colstore_insert))
	{
		xl_colstore_insert *xlrec = (xl_colstore_insert *) data;

		appendStringInfo(buf, "rel %u/%u/%u; xid %u; rows %u; columns %u%s",
						 LocatorSpcOid(xlrec->node), LocatorDbOid(xlrec->node),
						 LocatorNumber(xlrec->node), xlrec->xid, xlrec->nrows,
						 xlrec->natts,
						 (xlrec->flags & COLSTORE_INSERT_SPECULATIVE) ?
						 "; speculative" : "");
	}
	else if ((info == XLOG_COLSTORE_SPEC_CONFIRM ||
			  info == XLOG_COLSTORE_SPEC_ABORT) &&
			 XLogRecGetDataLen(record) >= sizeof(xl_colstore_spec_outcome))
	{
		xl_colstore_spec_outcome *xlrec = (xl_colstore_spec_outcome *) data;

		appendStringInfo(buf, "rel %u/%u/%u; xid %u",
						 LocatorSpcOid(xlrec->node), LocatorDbOid(xlrec->node),
						 LocatorNumber(xlrec->node), xlrec->xid);
	}
	else if (info == XLOG_COLSTORE_LOGGED_DELETE &&
			 XLogRecGetDataLen(record) >= sizeof(xl_colstore_logged_delete))
	{
		xl_colstore_logged_delete *xlrec = (xl_colstore_logged_delete *) data;

		appendStringInfo(buf, "rel %u/%u/%u; xid %u%s",
						 LocatorSpcOid(xlrec->node), LocatorDbOid(xlrec->node),
						 LocatorNumber(xlrec->node), xlrec->xid,
						 (xlrec->flags & COLSTORE_LOGGED_DELETE_OLD) ? "; old key" : "");
	}
	else if (info == XLOG_COLSTORE_LOG_APPEND &&
			 XLogRecGetDataLen(record) >= sizeof(xl_colstore_log_append))
	{
		xl_colstore_log_append *xlrec = (xl_colstore_log_append *) data;

		appendStringInfo(buf, "row %u; xid %u; cid %u%s%s", xlrec->row, xlrec->xid,
						 xlrec->cid, xlrec->new_run ? "; new run" : "",
						 xlrec->new_run && xlrec->moved ? "; moved" : "");
	}
	else if (info == XLOG_COLSTORE_DELETE &&
			 XLogRecGetDataLen(record) >= sizeof(xl_colstore_delete))
	{
		xl_colstore_delete *xlrec = (xl_colstore_delete *) data;

		appendStringInfo(buf, "off %u; xmax %u; flags 0x%02X",
						 xlrec->offnum, xlrec->xmax, xlrec->flags);
	}
	else if (info == XLOG_COLSTORE_PRUNE &&
			 XLogRecGetDataLen(record) >= sizeof(xl_colstore_prune))
	{
		xl_colstore_prune *xlrec = (xl_colstore_prune *) data;
		uint16		nredirected = 0;

		if ((XLogRecGetInfo(record) & XLOG_COLSTORE_PRUNE_REDIRECTS) &&
			XLogRecGetDataLen(record) >= sizeof(xl_colstore_prune) + sizeof(uint16))
			memcpy(&nredirected, data + sizeof(xl_colstore_prune), sizeof(uint16));
		appendStringInfo(buf, "conflict xid %u; redirected %u; dead %u; unused %u",
						 xlrec->conflict_xid, nredirected, xlrec->ndead, xlrec->nunused);
	}
	else if (info == XLOG_COLSTORE_FREEZE &&
			 XLogRecGetDataLen(record) >= sizeof(xl_colstore_freeze))
	{
		xl_colstore_freeze *xlrec = (xl_colstore_freeze *) data;

		appendStringInfo(buf, "conflict xid %u; frozen %u",
						 xlrec->conflict_xid, xlrec->nplans);
	}
}

static const char *
ColstoreIdentify(uint8 info)
{
	switch (ColstoreRecordKind(info))
	{
		case XLOG_COLSTORE_VISIBLE:
			return "VISIBLE";
		case XLOG_COLSTORE_VISIBLE_CLEAR:
			return "VISIBLE_CLEAR";
		case XLOG_COLSTORE_INSERT:
			return "INSERT";
		case XLOG_COLSTORE_SPEC_CONFIRM:
			return "SPEC_CONFIRM";
		case XLOG_COLSTORE_SPEC_ABORT:
			return "SPEC_ABORT";
		case XLOG_COLSTORE_DELETE:
			return "DELETE";
		case XLOG_COLSTORE_PRUNE:
			return "PRUNE";
		case XLOG_COLSTORE_FREEZE:
			return "FREEZE";
		case XLOG_COLSTORE_LOGGED_DELETE:
			return "LOGGED_DELETE";
		case XLOG_COLSTORE_LOG_APPEND:
			return "LOG_APPEND";
	}
	return NULL;
}
