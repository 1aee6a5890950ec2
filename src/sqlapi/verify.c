/*-------------------------------------------------------------------------
 *
 * verify.c
 *	  colstore.verify(regclass): check a colstore table end to end.
 *
 * Reads the metapage, every directory page, and the header and every chunk
 * of every row group that may hold rows (not aborted, emptied or
 * reclaimed ones, whose pages a concurrent VACUUM may reuse), decoding each
 * chunk (which verifies its CRC and internal bounds), and checks that row
 * groups do not overlap in the row number space and lie below the
 * metapage's next row number.  The
 * first problem raises ERRCODE_DATA_CORRUPTED naming the table, row group
 * and column; otherwise the number of rows checked is returned.
 *
 * IDENTIFICATION
 *	  src/sqlapi/verify.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "sqlapi/introspection.h"
#include "storage/directory.h"
#include "storage/rowgroup_reader.h"

/* Decode every chunk of one row group; returns its row count. */
static uint64
VerifyRowGroup(Relation rel, uint32 index, const RowGroupDirEntry *e,
			   MemoryContext scratch)
{
	TupleDesc	desc = RelationGetDescr(rel);
	MemoryContext oldcxt = MemoryContextSwitchTo(scratch);
	RowGroupHeader *h = RowGroupReadHeader(rel, index, e);
	int			att;
	uint32		c;

	for (c = 0; c < h->nchunks; c++)
	{
		int			n = RowGroupChunkRows(h, c);
		Datum	   *values = palloc(sizeof(Datum) * n);
		bool	   *isnull = palloc(sizeof(bool) * n);

		for (att = 0; att < desc->natts; att++)
		{
			CHECK_FOR_INTERRUPTS();
			RowGroupReadColumnChunk(rel, h, desc, att, c, values, isnull);
		}
	}
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(scratch);
	return e->rg_nrows;
}

PG_FUNCTION_INFO_V1(colstore_verify);

Datum
colstore_verify(PG_FUNCTION_ARGS)
{
	Relation	rel = OpenColstoreForReading(PG_GETARG_OID(0));
	uint64		next_row = DirectoryGet(rel)->next_row;
	MemoryContext scratch;
	RowGroupDirEntry *entries;
	int		   *order;
	int			ngroups = CopyRowGroups(rel, &entries, &order);
	uint64		prev_end = 0;
	uint64		rows = 0;
	int			i;

	scratch = AllocSetContextCreate(CurrentMemoryContext, "colstore verify",
									ALLOCSET_DEFAULT_SIZES);

	for (i = 0; i < ngroups; i++)
	{
		RowGroupDirEntry *e = &entries[order[i]];

		if (e->rg_first_row < prev_end || e->rg_first_row + e->rg_nrows > next_row ||
			e->rg_nrows == 0)
			RowGroupReportCorruption(rel, order[i], NULL,
									 "row group overlaps another or lies beyond the reserved row numbers");
		prev_end = e->rg_first_row + e->rg_nrows;
		if (!RowGroupMayHoldRows(e))
			continue;
		rows += VerifyRowGroup(rel, order[i], e, scratch);
	}
	MemoryContextDelete(scratch);
	relation_close(rel, AccessShareLock);
	PG_RETURN_INT64((int64) rows);
}
