/*-------------------------------------------------------------------------
 *
 * logical_decode.c
 *	  The decode callback of colstore's WAL resource manager: rows logged by
 *	  logical_log.c become the reorder buffer changes heap's inserts give.
 *
 * An XLOG_COLSTORE_INSERT record carries the chunk images of a range of
 * rows and each column's type (length, by-value, alignment, storage).  The
 * callback decodes the images (encoding/chunk_encoding.c: no catalog
 * access, which decoding could only have as of the record's time, later)
 * and forms one heap tuple per row with a descriptor built from those
 * types, laid out as heap_form_tuple lays out a heap table's row, with a
 * header zeroed as heap's decoding leaves it.  The output plugin then reads
 * the tuple with the relation's descriptor as of that point in history,
 * which has the same columns.  Values are never TOAST pointers.
 *
 * The filters are heap_decode's: no changes before the snapshot builder
 * reaches a full snapshot, none in fast-forward mode, none for another
 * database, none from an origin the plugin filters out.  Changes are queued
 * under the rows' inserting (sub)transaction, which the record carries.
 *
 * IDENTIFICATION
 *	  src/storage/logical_decode.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/htup_details.h"
#include "access/tupdesc.h"
#include "replication/decode.h"
#include "replication/logical.h"
#include "replication/reorderbuffer.h"
#include "replication/snapbuild.h"
#include "utils/memutils.h"

#include "storage/colstore_wal.h"

/* The parts of an XLOG_COLSTORE_INSERT record, checked against its length. */
typedef struct InsertRecord
{
	xl_colstore_insert *hdr;
	xl_colstore_column *columns;
	const char **images;		/* natts pointers into the record */
	Size	   *lengths;
} InsertRecord;

static void
CorruptRecord(XLogRecordBuffer *buf, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("invalid colstore WAL record at %X/%X",
					LSN_FORMAT_ARGS(buf->origptr)),
			 errdetail_internal("%s", detail)));
}

/* Split the record into its parts; errors if they do not add up. */
static void
ParseInsertRecord(XLogRecordBuffer *buf, InsertRecord *rec)
{
	char	   *data = XLogRecGetData(buf->record);
	Size		len = XLogRecGetDataLen(buf->record);
	Size		offset;
	uint64	   *lengths;
	int			att;

	if (len < sizeof(xl_colstore_insert))
		CorruptRecord(buf, "record too short for its header");
	rec->hdr = (xl_colstore_insert *) data;
	offset = sizeof(xl_colstore_insert);
	if (rec->hdr->natts == 0 ||
		len - offset < (sizeof(xl_colstore_column) + sizeof(uint64)) * rec->hdr->natts)
		CorruptRecord(buf, "record too short for its columns");
	rec->columns = (xl_colstore_column *) (data + offset);
	offset += sizeof(xl_colstore_column) * rec->hdr->natts;
	lengths = (uint64 *) (data + offset);
	offset += sizeof(uint64) * rec->hdr->natts;
	rec->images = palloc(sizeof(char *) * rec->hdr->natts);
	rec->lengths = palloc(sizeof(Size) * rec->hdr->natts);
	for (att = 0; att < rec->hdr->natts; att++)
	{
		uint64		n;

		memcpy(&n, &lengths[att], sizeof(n));	/* may be unaligned */
		if (n > len - offset)
			CorruptRecord(buf, "chunk image beyond the end of the record");
		rec->images[att] = data + offset;
		rec->lengths[att] = (Size) n;
		offset += n;
	}
	if (offset != len)
		CorruptRecord(buf, "bytes after the last chunk image");
}

/* A descriptor with the record's column types. */
static TupleDesc
RecordTupleDesc(const InsertRecord *rec)
{
	TupleDesc	desc = CreateTemplateTupleDesc(rec->hdr->natts);
	int			att;

	for (att = 0; att < rec->hdr->natts; att++)
	{
		Form_pg_attribute attr = TupleDescAttr(desc, att);
		const xl_colstore_column *col = &rec->columns[att];

		attr->attnum = att + 1;
		attr->atttypid = col->typid;
		attr->attlen = col->typlen;
		attr->attbyval = col->typbyval;
		attr->attalign = col->typalign;
		attr->attstorage = col->typstorage;
		attr->atttypmod = -1;
		PopulateCompactAttribute(desc, att);
	}
	return desc;
}

/*
 * Build row values[] / isnull[] as a tuple in a reorder buffer tuple
 * buffer, laid out as heap_form_tuple does, header fields zeroed.
 */
static ChangeTuple
FormChangeTuple(ReorderBuffer *rb, TupleDesc desc, Datum *values,
				bool *isnull)
{
	ChangeTuple ct;
	HeapTuple	tuple;
	HeapTupleHeader td;
	bool		hasnull = false;
	Size		hoff;
	Size		data_len;
	int			att;

	for (att = 0; att < desc->natts; att++)
		hasnull |= isnull[att];
	hoff = SizeofHeapTupleHeader;
	if (hasnull)
		hoff += BITMAPLEN(desc->natts);
	hoff = MAXALIGN(hoff);
	data_len = heap_compute_data_size(desc, values, isnull);

	ct = ReorderBufferAllocTupleBuf(rb, hoff + data_len - SizeofHeapTupleHeader);
	tuple = ChangeTupleData(ct);
	tuple->t_len = hoff + data_len;
	ItemPointerSetInvalid(&tuple->t_self);
	tuple->t_tableOid = InvalidOid;
	td = tuple->t_data;
	memset(td, 0, hoff);
	HeapTupleHeaderSetNatts(td, desc->natts);
	td->t_hoff = hoff;
	heap_fill_tuple(desc, values, isnull, (char *) td + hoff, data_len,
					&td->t_infomask, hasnull ? td->t_bits : NULL);
	return ct;
}

/* Queue an INSERT (or speculative insertion) per row of the record. */
static void
DecodeInsertRecord(LogicalDecodingContext *ctx, XLogRecordBuffer *buf,
				   const InsertRecord *rec)
{
	xl_colstore_insert *hdr = rec->hdr;
	TupleDesc	desc = RecordTupleDesc(rec);
	Datum	  **values = palloc(sizeof(Datum *) * hdr->natts);
	bool	  **isnull = palloc(sizeof(bool *) * hdr->natts);
	Datum	   *row_values = palloc(sizeof(Datum) * hdr->natts);
	bool	   *row_isnull = palloc(sizeof(bool) * hdr->natts);
	int			att;
	uint32		row;

	for (att = 0; att < hdr->natts; att++)
	{
		ChunkTypeInfo type;
		const char *detail = NULL;

		type.typid = rec->columns[att].typid;
		type.typlen = rec->columns[att].typlen;
		type.typbyval = rec->columns[att].typbyval;
		type.typalign = rec->columns[att].typalign;
		values[att] = palloc(sizeof(Datum) * hdr->nrows);
		isnull[att] = palloc(sizeof(bool) * hdr->nrows);
		if (!DecodeChunk(&type, rec->images[att], rec->lengths[att],
						 (int) hdr->nrows, values[att], isnull[att], &detail))
			CorruptRecord(buf, detail);
	}

	for (row = 0; row < hdr->nrows; row++)
	{
		ReorderBufferChange *change;

		for (att = 0; att < hdr->natts; att++)
		{
			row_values[att] = values[att][row];
			row_isnull[att] = isnull[att][row];
		}
		change = ReorderBufferAllocChange(ctx->reorder);
		change->action = (hdr->flags & COLSTORE_INSERT_SPECULATIVE) ?
			REORDER_BUFFER_CHANGE_INTERNAL_SPEC_INSERT :
			REORDER_BUFFER_CHANGE_INSERT;
		change->origin_id = XLogRecGetOrigin(buf->record);
		ChangeRelLocator(change) = hdr->node;
		change->data.tp.newtuple = FormChangeTuple(ctx->reorder, desc,
												   row_values, row_isnull);
		change->data.tp.clear_toast_afterwards = true;
		ReorderBufferQueueChange(ctx->reorder, hdr->xid, buf->origptr,
								 change, false);
	}
}

/* Queue a speculative insertion's confirmation or super-delete. */
static void
DecodeSpecOutcome(LogicalDecodingContext *ctx, XLogRecordBuffer *buf,
				  bool confirmed)
{
	xl_colstore_spec_outcome *xlrec;
	ReorderBufferChange *change;

	if (XLogRecGetDataLen(buf->record) != sizeof(xl_colstore_spec_outcome))
		CorruptRecord(buf, "speculative insertion outcome of the wrong size");
	xlrec = (xl_colstore_spec_outcome *) XLogRecGetData(buf->record);
	if (LocatorDbOid(xlrec->node) != ctx->slot->data.database)
		return;
	change = ReorderBufferAllocChange(ctx->reorder);
	change->action = confirmed ? REORDER_BUFFER_CHANGE_INTERNAL_SPEC_CONFIRM :
		REORDER_BUFFER_CHANGE_INTERNAL_SPEC_ABORT;
	change->origin_id = XLogRecGetOrigin(buf->record);
	ChangeRelLocator(change) = xlrec->node;
	change->data.tp.clear_toast_afterwards = true;
	ReorderBufferQueueChange(ctx->reorder, xlrec->xid, buf->origptr, change,
							 false);
}

/*
 * Queue the DELETE of an XLOG_COLSTORE_LOGGED_DELETE record, as heap's
 * decoding queues an XLOG_HEAP_DELETE: with the old key tuple if logged.
 */
static void
DecodeLoggedDelete(LogicalDecodingContext *ctx, XLogRecordBuffer *buf)
{
	Size		len = XLogRecGetDataLen(buf->record);
	xl_colstore_logged_delete *xlrec;
	ReorderBufferChange *change;

	if (len < sizeof(xl_colstore_logged_delete))
		CorruptRecord(buf, "logged delete of the wrong size");
	xlrec = (xl_colstore_logged_delete *) XLogRecGetData(buf->record);
	if (LocatorDbOid(xlrec->node) != ctx->slot->data.database)
		return;
	change = ReorderBufferAllocChange(ctx->reorder);
	change->action = REORDER_BUFFER_CHANGE_DELETE;
	change->origin_id = XLogRecGetOrigin(buf->record);
	ChangeRelLocator(change) = xlrec->node;
	if (xlrec->flags & COLSTORE_LOGGED_DELETE_OLD)
	{
		Size		datalen = len - sizeof(xl_colstore_logged_delete);
		ChangeTuple ct = ReorderBufferAllocTupleBuf(ctx->reorder, datalen);
		HeapTuple	tuple = ChangeTupleData(ct);
		HeapTupleHeader td = tuple->t_data;

		tuple->t_len = datalen + SizeofHeapTupleHeader;
		ItemPointerSetInvalid(&tuple->t_self);
		tuple->t_tableOid = InvalidOid;
		memset(td, 0, SizeofHeapTupleHeader);
		memcpy((char *) td + SizeofHeapTupleHeader,
			   (char *) xlrec + sizeof(xl_colstore_logged_delete), datalen);
		td->t_infomask = xlrec->t_infomask;
		td->t_infomask2 = xlrec->t_infomask2;
		td->t_hoff = xlrec->t_hoff;
		change->data.tp.oldtuple = ct;
	}
	change->data.tp.clear_toast_afterwards = true;
	ReorderBufferQueueChange(ctx->reorder, xlrec->xid, buf->origptr, change,
							 false);
}

/* The transaction a decodable record's rows belong to (from its payload). */
static TransactionId
RecordRowsXid(XLogRecordBuffer *buf, uint8 info)
{
	Size		len = XLogRecGetDataLen(buf->record);
	char	   *data = XLogRecGetData(buf->record);

	if (info == XLOG_COLSTORE_INSERT && len >= sizeof(xl_colstore_insert))
		return ((xl_colstore_insert *) data)->xid;
	if (info == XLOG_COLSTORE_LOGGED_DELETE && len >= sizeof(xl_colstore_logged_delete))
		return ((xl_colstore_logged_delete *) data)->xid;
	if (len >= sizeof(xl_colstore_spec_outcome))
		return ((xl_colstore_spec_outcome *) data)->xid;
	CorruptRecord(buf, "record too short for its header");
	return InvalidTransactionId;	/* keep compiler quiet */
}

/*
 * ColstoreDecode
 *		rm_decode of colstore's resource manager (see the file header).
 */
void
ColstoreDecode(LogicalDecodingContext *ctx, XLogRecordBuffer *buf)
{
	uint8		info = ColstoreRecordKind(XLogRecGetInfo(buf->record));
	SnapBuild  *builder = ctx->snapshot_builder;
	TransactionId xid;
	MemoryContext cxt;
	MemoryContext oldcxt;

	ReorderBufferProcessXid(ctx->reorder, XLogRecGetXid(buf->record),
							buf->origptr);
	if (info == XLOG_COLSTORE_DELETE || info == XLOG_COLSTORE_PRUNE ||
		info == XLOG_COLSTORE_FREEZE || info == XLOG_COLSTORE_LOG_APPEND ||
		info == XLOG_COLSTORE_VISIBLE || info == XLOG_COLSTORE_VISIBLE_CLEAR)
		return;					/* not a change of user data */
	xid = RecordRowsXid(buf, info);
	if (TransactionIdIsValid(xid))
		ReorderBufferProcessXid(ctx->reorder, xid, buf->origptr);
	if (SnapBuildCurrentState(builder) < SNAPBUILD_FULL_SNAPSHOT)
		return;
	if (!SnapBuildProcessChange(builder, xid, buf->origptr) ||
		ctx->fast_forward)
		return;
	if (ctx->callbacks.filter_by_origin_cb != NULL &&
		filter_by_origin_cb_wrapper(ctx, XLogRecGetOrigin(buf->record)))
		return;

	switch (info)
	{
		case XLOG_COLSTORE_INSERT:
			cxt = AllocSetContextCreate(CurrentMemoryContext,
										"colstore decoding",
										ALLOCSET_DEFAULT_SIZES);
			oldcxt = MemoryContextSwitchTo(cxt);
			{
				InsertRecord rec;

				ParseInsertRecord(buf, &rec);
				if (LocatorDbOid(rec.hdr->node) == ctx->slot->data.database)
					DecodeInsertRecord(ctx, buf, &rec);
			}
			MemoryContextSwitchTo(oldcxt);
			MemoryContextDelete(cxt);
			break;
		case XLOG_COLSTORE_SPEC_CONFIRM:
		case XLOG_COLSTORE_SPEC_ABORT:
			DecodeSpecOutcome(ctx, buf, info == XLOG_COLSTORE_SPEC_CONFIRM);
			break;
		case XLOG_COLSTORE_LOGGED_DELETE:
			DecodeLoggedDelete(ctx, buf);
			break;
		default:
			elog(ERROR, "colstore decoding: unknown record kind %u", info);
	}
}
