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
 * IDENTIFICATION
 *	  src/storage/colstore_wal.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/xlog_internal.h"
#include "miscadmin.h"

#include "storage/colstore_wal.h"

static void ColstoreRedo(XLogReaderState *record);
static void ColstoreDesc(StringInfo buf, XLogReaderState *record);
static const char *ColstoreIdentify(uint8 info);

static RmgrData ColstoreRmgr = {
	.rm_name = COLSTORE_RMGR_NAME,
	.rm_redo = ColstoreRedo,
	.rm_desc = ColstoreDesc,
	.rm_identify = ColstoreIdentify,
	.rm_decode = ColstoreDecode,
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
	uint8		info = XLogRecGetInfo(record) & XLOG_COLSTORE_OPMASK;

	switch (info)
	{
		case XLOG_COLSTORE_INSERT:
		case XLOG_COLSTORE_SPEC_CONFIRM:
		case XLOG_COLSTORE_SPEC_ABORT:
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
		default:
			elog(PANIC, "colstore redo: unknown record kind %u", info);
	}
}

static void
ColstoreDesc(StringInfo buf, XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & XLOG_COLSTORE_OPMASK;
	char	   *data = XLogRecGetData(record);

	if (info == XLOG_COLSTORE_INSERT &&
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

		appendStringInfo(buf, "conflict xid %u; dead %u; unused %u",
						 xlrec->conflict_xid, xlrec->ndead, xlrec->nunused);
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
	switch (info & XLOG_COLSTORE_OPMASK)
	{
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
	}
	return NULL;
}
