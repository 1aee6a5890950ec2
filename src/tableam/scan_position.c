/*-------------------------------------------------------------------------
 *
 * scan_position.c
 *	  Positions in a scan: where a serial forward walk stands, and rows
 *	  fetched by row number.
 *
 * A merge join marks the inner scan's position and restores it later
 * (ColstoreScanGetPosition, ColstoreScanSetPosition): a position names the
 * unit, the chunk and the next row of the chunk, which stay valid because
 * the scan's unit list does not change until a rescan.  Bitmap, sample and
 * ANALYZE scans (am_scan_positioned.c) visit rows in ascending row number
 * order and fetch each by its number (ColstoreScanFetchRow), which selects
 * the chunk holding it, so each chunk is decoded at most once per scan.
 *
 * IDENTIFICATION
 *	  src/tableam/scan_position.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relscan.h"
#include "executor/tuptable.h"
#include "utils/rel.h"

#include "mvcc/row_fetch.h"
#include "mvcc/row_state.h"
#include "storage/promotion_map.h"
#include "storage/rowgroup_reader.h"
#include "tableam/scan_engine.h"
#include "tableam/scan_engine_internal.h"

/* ----------------------------------------------------------------
 * Positions of a serial forward walk (merge join's mark and restore)
 * ----------------------------------------------------------------
 */

/*
 * ColstoreScanGetPosition
 *		Remember where a serial forward scan stands (merge join's mark):
 *		ColstoreScanSetPosition returns it there, so that the next row is
 *		the one after the row returned last.
 */
void
ColstoreScanGetPosition(TableScanDesc scan, ColstoreScanPosition *pos)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	pos->group = s->cur_group;
	pos->next_group = s->next_group;
	pos->chunk = s->cur_chunk;
	/* a group whose chunks were all passed over has no rows left */
	pos->row = (s->cur_chunk >= 0 && s->chunk_rows == 0) ? INT_MAX : s->chunk_pos;
}

/*
 * ColstoreScanSetPosition
 *		Return a serial forward scan to a position ColstoreScanGetPosition
 *		took (merge join's restore), its chunk decoded with desc.  Rows
 *		stored in slots before the call must not be read after it.
 */
void
ColstoreScanSetPosition(TableScanDesc scan, const ColstoreScanPosition *pos,
						TupleDesc desc)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	if (scan->rs_parallel != NULL)
		elog(ERROR, "cannot restore a position in a parallel scan of colstore table \"%s\"",
			 RelationGetRelationName(scan->rs_rd));
	s->next_group = pos->next_group;
	if (pos->group < 0)
	{
		ScanForgetChunk(s);
		s->cur_group = -1;
		s->cur_chunk = -1;
		s->chunk_rows = s->chunk_pos = 0;
		return;
	}
	if (s->cur_group != pos->group)
	{
		ScanOpenGroup(s, pos->group);
		s->group_has_reads = true;	/* counted when first read */
	}
	if (pos->chunk < 0)
	{
		ScanForgetChunk(s);
		s->cur_chunk = -1;
		s->chunk_rows = s->chunk_pos = 0;
		return;
	}
	if (s->cur_chunk != pos->chunk || s->chunk_desc != desc)
	{
		ScanSelectChunk(s, pos->chunk, desc);
		ScanApplyRowFilter(s, false);
	}
	s->chunk_pos = Min(pos->row, s->chunk_rows);
}

/* ----------------------------------------------------------------
 * Rows by row number (bitmap, sample and ANALYZE scans)
 * ----------------------------------------------------------------
 */

/* Group holding rownum, or -1. */
static int
FindGroup(ColstoreScanDesc s, uint64 rownum)
{
	int			lo = 0,
				hi = s->ngroups - 1;

	if (s->cur_group >= 0)
	{
		const RowGroupDirEntry *e = &s->groups[s->cur_group].entry;

		if (rownum >= e->rg_first_row && rownum < e->rg_first_row + e->rg_nrows)
			return s->cur_group;
	}
	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;
		const RowGroupDirEntry *e = &s->groups[mid].entry;

		if (rownum < e->rg_first_row)
			hi = mid - 1;
		else if (rownum >= e->rg_first_row + e->rg_nrows)
			lo = mid + 1;
		else
			return mid;
	}
	return -1;
}

/*
 * ColstoreScanFetchRow
 *		Put row rownum into slot (as ScanStoreRow does: valid until the
 *		scan's chunk changes) if it exists and is visible to the scan; its
 *		liveness is then ColstoreScanRowIsAlive's.  *dead is set when it
 *		exists but its inserter aborted or it was deleted (or, for scans
 *		without an MVCC snapshot, is dead to everyone).  Fetching rows in
 *		ascending order decodes each chunk at most once.  mode:
 *		- COLSTORE_FETCH_VERSION: the row version rownum names;
 *		- COLSTORE_FETCH_INDEXED: rownum comes from an index entry (a
 *		  bitmap's exact TID), and on a heap page names where a HOT chain
 *		  starts: the chain's member the scan sees is returned, under its own
 *		  TID (storage/delta_chain.c);
 *		- COLSTORE_FETCH_LOSSY: rownum is one of a lossy bitmap page's, and
 *		  each version the scan sees must come back once: a heap version is
 *		  returned for itself unless its chain starts at a promoted copy.
 *		In both bitmap modes, a row-group row whose own version the scan
 *		does not see goes on into the HOT chain its promoted copy roots
 *		(mvcc/row_fetch.c's RowChainFetch), which is how those versions
 *		come back.
 */
bool
ColstoreScanFetchRow(TableScanDesc scan, uint64 rownum, ColstoreFetchMode mode,
					 TupleTableSlot *slot, bool *dead)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;
	int			g = FindGroup(s, rownum);
	uint32		row;
	int			pos;
	uint32		c;

	*dead = false;
	if (g < 0)
		return false;
	if (!s->groups[g].visible)
	{
		*dead = s->groups[g].dead;
		return false;
	}
	if (g != s->cur_group)
		ScanOpenGroup(s, g);
	row = (uint32) (rownum - s->groups[g].entry.rg_first_row);
	if (s->header == NULL)
	{
		/* a delta page: its visible rows, in item number order */
		if (s->cur_chunk != 0 || slot->tts_tupleDescriptor != s->chunk_desc)
			ScanSelectChunk(s, 0, slot->tts_tupleDescriptor);
		for (pos = 0; pos < s->chunk_rows; pos++)
			if ((mode == COLSTORE_FETCH_INDEXED ?
				 s->delta_starts[pos] : s->delta_offsets[pos]) == row + 1)
				break;
		if (pos == s->chunk_rows)
			return false;

		/*
		 * a chain rooted at a copy is returned through the copy's row (no
		 * index entry names a copy's position, so exact TIDs never start one)
		 */
		if (mode == COLSTORE_FETCH_LOSSY && ScanDeltaRowOfCopy(s, pos, NULL))
			return false;
	}
	else
	{
		c = RowGroupFindChunk(s->header, row);
		if ((int) c != s->cur_chunk || slot->tts_tupleDescriptor != s->chunk_desc)
			ScanSelectChunk(s, c, slot->tts_tupleDescriptor);
		pos = (int) (row - s->header->chunk_first_row[c]);
		if (RowHidden(s, pos))
		{
			const RowGroupDirEntry *e = &s->groups[g].entry;
			ItemPointerData copy;
			DeleteRun	run;

			if (mode != COLSTORE_FETCH_VERSION && e->rg_state_root != 0 &&
				PromotionMapLookup(s->rs_base.rs_rd, e, row, &copy, &run) == PROMOTION_COPY &&
				RowChainFetch(s->rs_base.rs_rd, &copy, s->rs_base.rs_snapshot, slot))
			{
				s->last_liveness = ROW_LIVE;
				return true;
			}
			*dead = true;
			return false;
		}
	}
	ScanStoreRow(s, pos, slot);
	return true;
}
