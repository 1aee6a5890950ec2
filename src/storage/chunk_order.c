/*-------------------------------------------------------------------------
 *
 * chunk_order.c
 *	  Do row groups hold a column in ascending order?
 *
 * The row group writer flags a chunk CHUNK_ASCENDING when it has no NULLs
 * and each value is at least the one before under the type's default btree
 * ordering (the ordering of its typed min/max).  A sequence of row groups,
 * in row order, then holds the column in ascending order when every chunk
 * is so flagged, its stats were computed for the column's current type and
 * collation, and each chunk's minimum is at least the previous chunk's
 * maximum.  The planner asks this of the whole table (mvcc/table_order.c,
 * which chooses the row groups), to offer ordered ColstoreScan paths (merge
 * joins and ORDER BY without a sort); the executor asks it of the row
 * groups one scan will return, and sorts if the answer changed since
 * planning.
 *
 * IDENTIFICATION
 *	  src/storage/chunk_order.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "utils/datum.h"
#include "utils/memutils.h"

#include "storage/chunk_order.h"
#include "storage/rowgroup_writer.h"

/*
 * ChunkOrderBegin
 *		Start a check of column attno (0-based, described by att) over row
 *		groups given in row order.  Returns false if the type has no default
 *		btree ordering (then nothing needs ending).
 */
bool
ChunkOrderBegin(ChunkOrderCheck *check, Form_pg_attribute att, int attno)
{
	check->cmp = RowGroupColumnComparison(att);
	if (check->cmp == NULL)
		return false;
	check->att = att;
	check->attno = attno;
	check->have_prev = false;
	check->prev_max = (Datum) 0;
	check->prev_cxt = AllocSetContextCreate(CurrentMemoryContext, "colstore order check",
											ALLOCSET_SMALL_SIZES);
	check->tmp_cxt = AllocSetContextCreate(CurrentMemoryContext, "colstore order stats",
										   ALLOCSET_SMALL_SIZES);
	return true;
}

/*
 * ChunkOrderNextGroup
 *		Continue the check with the next row group's header; returns false as
 *		soon as the column is known not to be in order.
 */
bool
ChunkOrderNextGroup(ChunkOrderCheck *check, const RowGroupHeader *h)
{
	uint32		c;

	for (c = 0; c < h->nchunks; c++)
	{
		const ChunkDesc *cd;
		Datum		min;
		Datum		max;
		bool		in_order;
		MemoryContext oldcxt;

		/* a column added later reads as its missing value: no stats */
		if (check->attno >= h->natts ||
			!RowGroupChunkStatsMatch(h, check->att, check->attno, c))
			return false;
		cd = RowGroupChunk(h, check->attno, c);
		if (!(cd->cd_flags & CHUNK_ASCENDING) || cd->cd_nnulls != 0)
			return false;
		MemoryContextReset(check->tmp_cxt);
		oldcxt = MemoryContextSwitchTo(check->tmp_cxt);
		in_order = RowGroupChunkMinMax(h, check->att, check->attno, c, &min, &max) &&
			(!check->have_prev ||
			 DatumGetInt32(FunctionCall2Coll(check->cmp, check->att->attcollation,
											 check->prev_max, min)) <= 0);
		MemoryContextSwitchTo(oldcxt);
		if (!in_order)
			return false;
		MemoryContextReset(check->prev_cxt);
		oldcxt = MemoryContextSwitchTo(check->prev_cxt);
		check->prev_max = datumCopy(max, check->att->attbyval, check->att->attlen);
		MemoryContextSwitchTo(oldcxt);
		check->have_prev = true;
	}
	return true;
}

/* Free what ChunkOrderBegin allocated; the check is over. */
void
ChunkOrderEnd(ChunkOrderCheck *check)
{
	MemoryContextDelete(check->prev_cxt);
	MemoryContextDelete(check->tmp_cxt);
}
