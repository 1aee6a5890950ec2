/*-------------------------------------------------------------------------
 *
 * logical_log.c
 *	  Logging inserted rows for logical decoding.
 *
 * Row groups are written with generic WAL records, which logical decoding
 * cannot read.  When a table is logically logged (RelationIsLogicallyLogged:
 * wal_level = logical, a permanent user table), every row group that holds
 * rows a user inserted is also logged as XLOG_COLSTORE_INSERT records, one
 * per chunk range, carrying the chunk images the row group stores (already
 * encoded and compressed, so this costs about the table's compressed size
 * in WAL) and the column types needed to turn them back into heap tuples
 * (logical_decode.c).  Row groups that move or copy rows (compaction,
 * VACUUM FULL, CLUSTER) log nothing: they change no row.
 *
 * Speculative insertions are heap tuples (storage/delta_insert.c), which
 * heap's own records decode.  Earlier builds wrote them as one-row groups
 * logged with COLSTORE_INSERT_SPECULATIVE and an XLOG_COLSTORE_SPEC_CONFIRM
 * or _ABORT record after; logical_decode.c still decodes those.
 *
 * IDENTIFICATION
 *	  src/storage/logical_log.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/heaptoast.h"
#include "access/htup_details.h"
#include "access/sysattr.h"
#include "access/xact.h"
#include "access/xloginsert.h"
#include "nodes/bitmapset.h"
#include "utils/memutils.h"
#include "utils/relcache.h"
#include "catalog/catalog.h"
#include "utils/rel.h"

#include "storage/colstore_wal.h"
#include "storage/logical_log.h"

/*
 * The most bytes one record may carry, and the most bytes the values of
 * one chunk range may take in memory: a decoded row must fit one
 * allocation (MaxAllocSize) and a record the WAL reader's buffer.
 */
#define LOGICAL_RECORD_LIMIT	((Size) 1000 * 1024 * 1024)

/*
 * LogicalInsertWanted
 *		Must rows inserted into rel be logged for logical decoding?  True
 *		when PostgreSQL would log a heap table's inserts with their tuples;
 *		errors if colstore's resource manager is not registered then.
 */
bool
LogicalInsertWanted(Relation rel)
{
	if (!RelationIsLogicallyLogged(rel))
		return false;
	ColstoreWalRequire(RelationGetRelationName(rel));
	return true;
}

/* Log rows [bounds[c], bounds[c + 1]) of a row group: one record. */
static void
LogChunkRange(Relation rel, TupleDesc tupdesc, TransactionId xid,
			  uint32 nrows, const EncodedChunk *images, uint32 nchunks,
			  uint32 c)
{
	int			natts = tupdesc->natts;
	xl_colstore_insert xlrec;
	xl_colstore_column *columns;
	uint64	   *lengths;
	Size		record_bytes = 0;
	Size		raw_bytes = 0;
	int			att;

	columns = palloc0(sizeof(xl_colstore_column) * natts);
	lengths = palloc(sizeof(uint64) * natts);
	for (att = 0; att < natts; att++)
	{
		Form_pg_attribute attr = TupleDescAttr(tupdesc, att);
		const EncodedChunk *img = &images[att * nchunks + c];

		columns[att].typid = attr->atttypid;
		columns[att].typlen = attr->attlen;
		columns[att].typbyval = attr->attbyval;
		columns[att].typalign = attr->attalign;
		columns[att].typstorage = attr->attstorage;
		lengths[att] = img->len;
		record_bytes += img->len;
		raw_bytes += img->raw_bytes;
	}
	if (record_bytes > LOGICAL_RECORD_LIMIT || raw_bytes > LOGICAL_RECORD_LIMIT)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("row of colstore table \"%s\" is too large for logical decoding",
						RelationGetRelationName(rel)),
				 errdetail("Under wal_level = logical, the values of a row of a colstore table may take at most %zu MB.",
						   LOGICAL_RECORD_LIMIT / (1024 * 1024))));

	memset(&xlrec, 0, sizeof(xlrec));
	xlrec.node = rel->rd_locator;
	xlrec.xid = xid;
	xlrec.nrows = nrows;
	xlrec.natts = (uint16) natts;
	xlrec.flags = 0;

	XLogEnsureRecordSpace(0, natts + 3);
	XLogBeginInsert();
	XLogRegisterData((char *) &xlrec, sizeof(xlrec));
	XLogRegisterData((char *) columns, sizeof(xl_colstore_column) * natts);
	XLogRegisterData((char *) lengths, sizeof(uint64) * natts);
	for (att = 0; att < natts; att++)
	{
		const EncodedChunk *img = &images[att * nchunks + c];

		if (img->len > 0)
			XLogRegisterData(img->data, (int) img->len);
	}
	/* as heap's DML records: lets decoding filter by replication origin */
	XLogSetRecordFlags(XLOG_INCLUDE_ORIGIN);
	(void) XLogInsert(COLSTORE_RMGR_ID, XLOG_COLSTORE_INSERT);
	pfree(columns);
	pfree(lengths);
}

/*
 * LogicalLogRowGroup
 *		Log the rows of a row group about to be written to rel, inserted by
 *		xid, for logical decoding: images[att * nchunks + c] is column att's
 *		image of chunk c, which holds rows [bounds[c], bounds[c + 1]).
 *		Caller has checked LogicalInsertWanted.
 */
void
LogicalLogRowGroup(Relation rel, TupleDesc tupdesc, TransactionId xid,
				   uint32 nchunks, const uint32 *bounds,
				   const EncodedChunk *images)
{
	uint32		c;

	for (c = 0; c < nchunks; c++)
		LogChunkRange(rel, tupdesc, xid, bounds[c + 1] - bounds[c], images,
					  nchunks, c);
}

/*
 * The old key heap_delete would log for a delete of row tuple of rel, as
 * its ExtractReplicaIdentity does (key_required): none for REPLICA IDENTITY
 * NOTHING or without key columns, the whole row for FULL, else the key
 * columns with the others null; TOASTed values inlined.  palloc'd or NULL.
 */
static HeapTuple
OldKeyTuple(Relation rel, HeapTuple tuple)
{
	TupleDesc	desc = RelationGetDescr(rel);
	char		replident = rel->rd_rel->relreplident;
	Bitmapset  *idattrs;
	HeapTuple	key;
	Datum	   *values;
	bool	   *nulls;
	int			i;

	if (replident == REPLICA_IDENTITY_NOTHING)
		return NULL;
	if (replident == REPLICA_IDENTITY_FULL)
		return HeapTupleHasExternal(tuple) ? toast_flatten_tuple(tuple, desc) :
			heap_copytuple(tuple);
	idattrs = RelationGetIndexAttrBitmap(rel, INDEX_ATTR_BITMAP_IDENTITY_KEY);
	if (bms_is_empty(idattrs))
		return NULL;
	values = palloc(sizeof(Datum) * desc->natts);
	nulls = palloc(sizeof(bool) * desc->natts);
	heap_deform_tuple(tuple, desc, values, nulls);
	for (i = 0; i < desc->natts; i++)
		if (!bms_is_member(i + 1 - FirstLowInvalidHeapAttributeNumber, idattrs))
			nulls[i] = true;
	key = heap_form_tuple(desc, values, nulls);
	bms_free(idattrs);
	if (HeapTupleHasExternal(key))
	{
		HeapTuple	flat = toast_flatten_tuple(key, desc);

		heap_freetuple(key);
		key = flat;
	}
	pfree(values);
	pfree(nulls);
	return key;
}

/*
 * LogicalLogDelete
 *		For a logically logged rel: log the delete of row tuple (its values)
 *		by xid, made without a promoted copy (storage/delete_log.c), as an
 *		XLOG_COLSTORE_LOGGED_DELETE record that decodes as the DELETE
 *		heap_delete's record decodes as, with the same old key.  Does nothing
 *		for other relations.
 */
void
LogicalLogDelete(Relation rel, HeapTuple tuple, TransactionId xid)
{
	xl_colstore_logged_delete xlrec;
	HeapTuple	key;

	if (!RelationIsLogicallyLogged(rel))
		return;
	ColstoreWalRequire(RelationGetRelationName(rel));
	key = OldKeyTuple(rel, tuple);
	memset(&xlrec, 0, sizeof(xlrec));
	xlrec.node = rel->rd_locator;
	xlrec.xid = xid;
	XLogBeginInsert();
	if (key != NULL)
	{
		xlrec.flags = COLSTORE_LOGGED_DELETE_OLD;
		xlrec.t_infomask2 = key->t_data->t_infomask2;
		xlrec.t_infomask = key->t_data->t_infomask;
		xlrec.t_hoff = key->t_data->t_hoff;
	}
	XLogRegisterData((char *) &xlrec, sizeof(xlrec));
	if (key != NULL)
		XLogRegisterData((char *) key->t_data + SizeofHeapTupleHeader,
						 key->t_len - SizeofHeapTupleHeader);
	XLogSetRecordFlags(XLOG_INCLUDE_ORIGIN);
	(void) XLogInsert(COLSTORE_RMGR_ID, XLOG_COLSTORE_LOGGED_DELETE);
	if (key != NULL)
		heap_freetuple(key);
}
