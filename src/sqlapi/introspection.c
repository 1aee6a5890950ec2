/*-------------------------------------------------------------------------
 *
 * introspection.c
 *	  SQL functions that show a colstore table's row groups and chunks:
 *	  colstore.row_groups, colstore.row_group_deletes, colstore.chunks,
 *	  colstore.stats.
 *
 * They read the directory and row group headers (never chunk data) with
 * the same code as scans, so they also serve as a quick consistency check.
 *
 * IDENTIFICATION
 *	  src/sqlapi/introspection.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/procarray.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/rel.h"

#include "encoding/chunk_encoding.h"
#include "mvcc/visibility.h"
#include "sqlapi/introspection.h"
#include "storage/deleted_rows.h"
#include "storage/directory.h"
#include "storage/promotion_map.h"
#include "storage/rowgroup_reader.h"
#include "storage/write_buffer.h"
#include "tableam/am_handler.h"

/*
 * OpenColstoreTable
 *		Open relid with lockmode after checking that it is a colstore table
 *		of this session or a permanent one (ERRCODE_WRONG_OBJECT_TYPE,
 *		ERRCODE_FEATURE_NOT_SUPPORTED otherwise); writes this backend's
 *		buffered rows of it.
 */
Relation
OpenColstoreTable(Oid relid, LOCKMODE lockmode)
{
	Relation	rel = relation_open(relid, lockmode);

	if (!RelationIsColstore(rel))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("table \"%s\" does not use access method colstore",
						RelationGetRelationName(rel))));
	if (RELATION_IS_OTHER_TEMP(rel))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot access temporary tables of other sessions")));
	WriteBufferFlush(rel);
	return rel;
}

/*
 * OpenColstoreForReading
 *		OpenColstoreTable with AccessShareLock, for a user who may read the
 *		table.
 */
Relation
OpenColstoreForReading(Oid relid)
{
	Relation	rel = OpenColstoreTable(relid, AccessShareLock);
	AclResult	aclresult;

	aclresult = pg_class_aclcheck(relid, GetUserId(), ACL_SELECT);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_TABLE, RelationGetRelationName(rel));
	return rel;
}

/*
 * CopyRowGroups
 *		Copy rel's directory entries and the indexes of its row groups in row
 *		order into palloc'd arrays (the cached directory may change while the
 *		caller reads headers).  Returns the number of row groups.
 */
int
CopyRowGroups(Relation rel, RowGroupDirEntry **entries, int **order)
{
	ColstoreDirectory *dir = DirectoryGet(rel);

	*entries = palloc(sizeof(RowGroupDirEntry) * (dir->count + 1));
	memcpy(*entries, dir->entries, sizeof(RowGroupDirEntry) * dir->count);
	*order = palloc(sizeof(int) * (dir->ngroups + 1));
	memcpy(*order, dir->groups, sizeof(int) * dir->ngroups);
	return dir->ngroups;
}

static const char *
RowGroupState(const RowGroupDirEntry *e)
{
	if (e->rg_flags & RG_FLAG_FREED)
		return "reclaimed";
	if (e->rg_flags & RG_FLAG_EMPTIED)
		return "emptied";
	if (e->rg_flags & RG_FLAG_INVALID)
		return "dead";
	if (e->rg_flags & RG_FLAG_FROZEN)
		return "frozen";
	if (TransactionIdIsCurrentTransactionId(e->rg_xmin) ||
		TransactionIdIsInProgress(e->rg_xmin))
		return "in progress";
	return RowGroupInsertCommitted(e) ? "committed" : "aborted";
}

/*
 * RowGroupMayHoldRows
 *		Does e hold rows some transaction may see: is it not aborted,
 *		emptied or reclaimed?  The pages of a group that is may be given to
 *		other data by a VACUUM running meanwhile (AccessShareLock does not
 *		conflict with it, and one VACUUM reclaims an aborted group), so
 *		colstore.chunks() and colstore.verify() do not read it.
 */
bool
RowGroupMayHoldRows(const RowGroupDirEntry *e)
{
	if (e->rg_flags & RG_FLAG_INVALID)
		return false;
	return RowGroupInsertCommitted(e) ||
		TransactionIdIsCurrentTransactionId(e->rg_xmin) ||
		TransactionIdIsInProgress(e->rg_xmin);
}

PG_FUNCTION_INFO_V1(colstore_row_groups);

/* colstore.row_groups(regclass): one row per row group, in row order. */
Datum
colstore_row_groups(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Relation	rel = OpenColstoreForReading(PG_GETARG_OID(0));
	ColstoreDirectory *dir;
	int			i;

	InitMaterializedSRF(fcinfo, 0);
	dir = DirectoryGet(rel);
	for (i = 0; i < dir->ngroups; i++)
	{
		int			index = dir->groups[i];
		RowGroupDirEntry *e = &dir->entries[index];
		Datum		values[8];
		bool		nulls[8] = {0};

		values[0] = Int32GetDatum(index);
		values[1] = Int64GetDatum((int64) e->rg_first_row);
		values[2] = Int64GetDatum((int64) e->rg_nrows);
		values[3] = CStringGetTextDatum(RowGroupState(e));
		values[4] = TransactionIdGetDatum(e->rg_xmin);
		/* a retired group's rg_xmin is VACUUM's stamp, not an inserter */
		nulls[4] = (e->rg_flags & RG_FLAG_EMPTIED) != 0;
		values[5] = Int32GetDatum((int32) e->rg_nchunks);
		values[6] = Int64GetDatum((int64) e->rg_stored_bytes);
		values[7] = Int64GetDatum((int64) e->rg_raw_bytes);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	relation_close(rel, AccessShareLock);
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(colstore_row_group_deletes);

/*
 * colstore.row_group_deletes(regclass): per row group with a promotion map
 * (not freed), the rows its deleted-rows bitmap marks deleted for everyone
 * and the pages of its promotion map and bitmap (storage/deleted_rows.c).
 */
Datum
colstore_row_group_deletes(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Relation	rel = OpenColstoreForReading(PG_GETARG_OID(0));
	RowGroupDirEntry *entries;
	int		   *order;
	int			ngroups;
	int			i;

	InitMaterializedSRF(fcinfo, 0);
	ngroups = CopyRowGroups(rel, &entries, &order);
	for (i = 0; i < ngroups; i++)
	{
		const RowGroupDirEntry *e = &entries[order[i]];
		BlockNumber *pages;
		Datum		values[3];
		bool		nulls[3] = {0};

		if (e->rg_state_root == 0 || (e->rg_flags & RG_FLAG_FREED))
			continue;
		CHECK_FOR_INTERRUPTS();
		values[0] = Int32GetDatum(order[i]);
		values[1] = Int64GetDatum((int64) DeletedRowsCount(rel, e, NULL));
		values[2] = Int32GetDatum(PromotionMapPages(rel, e, &pages));
		pfree(pages);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	relation_close(rel, AccessShareLock);
	return (Datum) 0;
}

/* Text form of a min/max value, through the type's output function. */
static Datum
ValueAsText(Form_pg_attribute att, Datum value)
{
	Oid			typoutput;
	bool		typisvarlena;

	getTypeOutputInfo(att->atttypid, &typoutput, &typisvarlena);
	return CStringGetTextDatum(OidOutputFunctionCall(typoutput, value));
}

PG_FUNCTION_INFO_V1(colstore_chunks);

/* colstore.chunks(regclass): one row per column chunk of the valid row groups. */
Datum
colstore_chunks(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Relation	rel = OpenColstoreForReading(PG_GETARG_OID(0));
	TupleDesc	desc = RelationGetDescr(rel);
	RowGroupDirEntry *entries;
	int		   *order;
	int			ngroups;
	int			i;

	InitMaterializedSRF(fcinfo, 0);
	ngroups = CopyRowGroups(rel, &entries, &order);

	for (i = 0; i < ngroups; i++)
	{
		RowGroupHeader *h;
		int			att;
		uint32		c;

		if (!RowGroupMayHoldRows(&entries[order[i]]))
			continue;
		h = RowGroupReadHeader(rel, order[i], &entries[order[i]]);
		for (att = 0; att < h->natts && att < desc->natts; att++)
		{
			Form_pg_attribute attr = TupleDescAttr(desc, att);

			if (attr->attisdropped)
				continue;
			for (c = 0; c < h->nchunks; c++)
			{
				ChunkDesc  *cd = RowGroupChunk(h, att, c);
				Datum		values[11];
				bool		nulls[11] = {0};
				Datum		min,
							max;

				values[0] = Int32GetDatum(order[i]);
				values[1] = Int32GetDatum((int32) c);
				values[2] = NameGetDatum(&attr->attname);
				values[3] = Int32GetDatum(RowGroupChunkRows(h, c));
				values[4] = CStringGetTextDatum(ChunkEncodingName(cd->cd_encoding));
				values[5] = CStringGetTextDatum(ColstoreCodecName(cd->cd_codec));
				values[6] = Int64GetDatum((int64) ChunkDescLength(cd));
				values[7] = Int64GetDatum((int64) cd->cd_raw_bytes);
				values[8] = Int32GetDatum((int32) cd->cd_nnulls);
				if (RowGroupChunkMinMax(h, attr, att, c, &min, &max))
				{
					values[9] = ValueAsText(attr, min);
					values[10] = ValueAsText(attr, max);
				}
				else
					nulls[9] = nulls[10] = true;
				tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
			}
		}
		pfree(h);
	}
	relation_close(rel, AccessShareLock);
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(colstore_stats);

/* colstore.stats(regclass): stored and raw bytes per column, all row groups. */
Datum
colstore_stats(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Relation	rel = OpenColstoreForReading(PG_GETARG_OID(0));
	TupleDesc	desc = RelationGetDescr(rel);
	RowGroupDirEntry *entries;
	int		   *order;
	int			ngroups;
	uint64	   *stored = palloc0(sizeof(uint64) * (desc->natts + 1));
	uint64	   *raw = palloc0(sizeof(uint64) * (desc->natts + 1));
	int			i;
	int			att;

	InitMaterializedSRF(fcinfo, 0);
	ngroups = CopyRowGroups(rel, &entries, &order);

	for (i = 0; i < ngroups; i++)
	{
		RowGroupHeader *h;
		uint32		c;

		if (entries[order[i]].rg_flags & RG_FLAG_INVALID)
			continue;
		h = RowGroupReadHeader(rel, order[i], &entries[order[i]]);
		for (att = 0; att < h->natts && att < desc->natts; att++)
			for (c = 0; c < h->nchunks; c++)
			{
				stored[att] += ChunkDescLength(RowGroupChunk(h, att, c));
				raw[att] += RowGroupChunk(h, att, c)->cd_raw_bytes;
			}
		pfree(h);
	}
	for (att = 0; att < desc->natts; att++)
	{
		Form_pg_attribute attr = TupleDescAttr(desc, att);
		Datum		values[4];
		bool		nulls[4] = {0};

		if (attr->attisdropped)
			continue;
		values[0] = NameGetDatum(&attr->attname);
		values[1] = Int64GetDatum((int64) stored[att]);
		values[2] = Int64GetDatum((int64) raw[att]);
		if (stored[att] > 0)
			values[3] = DirectFunctionCall2(numeric_div,
											DirectFunctionCall1(int8_numeric, Int64GetDatum((int64) raw[att])),
											DirectFunctionCall1(int8_numeric, Int64GetDatum((int64) stored[att])));
		else
			nulls[3] = true;
		if (!nulls[3])
			values[3] = DirectFunctionCall2(numeric_round, values[3], Int32GetDatum(2));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	relation_close(rel, AccessShareLock);
	return (Datum) 0;
}
