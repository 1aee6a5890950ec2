/*-------------------------------------------------------------------------
 *
 * am_scan_positioned.c
 *	  Bitmap, sample and ANALYZE scans of colstore tables, and TID checks.
 *
 * These scans visit rows in ascending row number order, given by a TID
 * bitmap, a sampling method or ANALYZE's block sampler, and position the
 * scan's chunk decoder (am_scan.c) on the row they need, so each chunk is
 * decoded at most once per scan.  TIDs name row numbers
 * (rowgroup_format.h), so "blocks" here are the pseudo-blocks of
 * ROWS_PER_TID_BLOCK rows of the TID space.
 *
 * IDENTIFICATION
 *	  src/tableam/am_scan_positioned.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tableam.h"
#include "access/tsmapi.h"
#include "executor/tuptable.h"
#include "nodes/execnodes.h"
#include "pgstat.h"
#include "utils/rel.h"

#include "storage/directory.h"
#include "storage/rowgroup_format.h"
#include "storage/rowgroup_reader.h"
#include "tableam/am_scan.h"
#include "tableam/am_scan_internal.h"

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
 * Put row rownum into slot if it exists and is visible to the scan.
 * *dead is set when it exists but its inserter aborted or it was deleted
 * (or, for scans without an MVCC snapshot, is dead to everyone).
 */
static bool
FetchPositioned(ColstoreScanDesc s, uint64 rownum, TupleTableSlot *slot,
				bool *dead)
{
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
			if (s->delta_offsets[pos] == row + 1)
				break;
		if (pos == s->chunk_rows)
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
			*dead = true;
			return false;
		}
	}
	ScanStoreRow(s, pos, slot);
	return true;
}

/*
 * colstore_scan_analyze_next_block
 *		ANALYZE samples block numbers below the relation's size in pages; each
 *		is taken as a pseudo-block of TIDs (ROWS_PER_TID_BLOCK rows).  From 17
 *		the numbers come from a read stream: only the number is taken
 *		(read_stream_next_block), the page itself is never read, and false
 *		ends the sampling.  Before 17 false skips the block.
 */
#if PG_ANALYZE_READS_STREAM
bool
colstore_scan_analyze_next_block(TableScanDesc scan, ReadStream *stream)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;
	BufferAccessStrategy unused_strategy;
	BlockNumber blockno = read_stream_next_block(stream, &unused_strategy);

	if (blockno == InvalidBlockNumber || blockno >= COLSTORE_TID_BLOCK_LIMIT)
		return false;
	s->cur_block = blockno;
	s->cur_offset = FirstOffsetNumber;
	return true;
}
#else
bool
colstore_scan_analyze_next_block(TableScanDesc scan, BlockNumber blockno,
								 BufferAccessStrategy bstrategy)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	s->cur_block = blockno;
	s->cur_offset = FirstOffsetNumber;
	return blockno < COLSTORE_TID_BLOCK_LIMIT;
}
#endif

bool
colstore_scan_analyze_next_tuple(TableScanDesc scan, TransactionId OldestXmin,
								 double *liverows, double *deadrows,
								 TupleTableSlot *slot)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	while (s->cur_offset <= ROWS_PER_TID_BLOCK)
	{
		uint64		rownum = (uint64) s->cur_block * ROWS_PER_TID_BLOCK +
			(s->cur_offset - 1);
		bool		dead;

		s->cur_offset++;
		if (FetchPositioned(s, rownum, slot, &dead))
		{
			if (s->last_liveness == ROW_RECENTLY_DEAD)
			{
				*deadrows += 1;
				continue;
			}
			/* analyze keeps the values beyond the next call */
			ExecMaterializeSlot(slot);
			*liverows += 1;
			return true;
		}
		if (dead)
			*deadrows += 1;
	}
	ExecClearTuple(slot);
	return false;
}

/*
 * Bitmap heap scans.  Before 18 the executor iterates the bitmap and hands
 * each page to colstore_scan_bitmap_next_block, then asks for its rows; from
 * 18 the scan iterates the bitmap itself (scan->st.rs_tbmiterator), one page
 * at a time, from colstore_scan_bitmap_next_tuple.  A page is a pseudo-block
 * of ROWS_PER_TID_BLOCK row numbers; a lossy page means all of them.
 */
/* Fetch the visible row at offset off of the current pseudo-block, if any. */
static bool
FetchBitmapRow(ColstoreScanDesc s, OffsetNumber off, TupleTableSlot *slot)
{
	bool		dead;

	if (off < 1 || off > ROWS_PER_TID_BLOCK ||
		!FetchPositioned(s, (uint64) s->cur_block * ROWS_PER_TID_BLOCK + (off - 1),
						 slot, &dead))
		return false;
	pgstat_count_heap_fetch(s->rs_base.rs_rd);
	return true;
}

#if PG_BITMAP_SCAN_IN_AM
/* Make the bitmap's next page the current one; false at the bitmap's end. */
static bool
BitmapNextPage(ColstoreScanDesc s, uint64 *lossy_pages, uint64 *exact_pages)
{
	TBMIterateResult tbmres;

	do
	{
		if (!tbm_iterate(&s->rs_base.st.rs_tbmiterator, &tbmres))
			return false;
	} while (tbmres.blockno >= COLSTORE_TID_BLOCK_LIMIT);

	s->cur_block = tbmres.blockno;
	s->cur_offset = FirstOffsetNumber;
	s->bm_index = 0;
	s->bm_recheck = tbmres.recheck;
	if (tbmres.lossy)
	{
		s->bm_noffsets = -1;
		(*lossy_pages)++;
	}
	else
	{
		s->bm_noffsets = tbm_extract_page_tuple(&tbmres, s->bm_offsets,
												TBM_MAX_TUPLES_PER_PAGE);
		(*exact_pages)++;
	}
	return true;
}

bool
colstore_scan_bitmap_next_tuple(TableScanDesc scan, TupleTableSlot *slot,
								bool *recheck, uint64 *lossy_pages,
								uint64 *exact_pages)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	for (;;)
	{
		OffsetNumber off;

		if (s->bm_noffsets >= 0 ? s->bm_index >= s->bm_noffsets
			: s->cur_offset > ROWS_PER_TID_BLOCK)
		{
			if (!BitmapNextPage(s, lossy_pages, exact_pages))
				break;
			continue;
		}
		off = s->bm_noffsets >= 0 ? s->bm_offsets[s->bm_index++] : s->cur_offset++;
		if (FetchBitmapRow(s, off, slot))
		{
			*recheck = s->bm_recheck;
			return true;
		}
	}
	ExecClearTuple(slot);
	return false;
}
#else
bool
colstore_scan_bitmap_next_block(TableScanDesc scan, TBMIterateResult *tbmres)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	s->cur_block = tbmres->blockno;
	s->bm_index = 0;
	s->cur_offset = FirstOffsetNumber;
	return tbmres->blockno < COLSTORE_TID_BLOCK_LIMIT;
}

bool
colstore_scan_bitmap_next_tuple(TableScanDesc scan, TBMIterateResult *tbmres,
								TupleTableSlot *slot)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	for (;;)
	{
		OffsetNumber off;

		if (tbmres->ntuples >= 0)
		{
			if (s->bm_index >= tbmres->ntuples)
				break;
			off = tbmres->offsets[s->bm_index++];
		}
		else
		{
			if (s->cur_offset > ROWS_PER_TID_BLOCK)
				break;
			off = s->cur_offset++;
		}
		if (FetchBitmapRow(s, off, slot))
			return true;
	}
	ExecClearTuple(slot);
	return false;
}
#endif

/* Number of pseudo-blocks covering every row number handed out so far. */
static BlockNumber
TidBlocks(ColstoreScanDesc s)
{
	ColstoreDirectory *dir = DirectoryGet(s->rs_base.rs_rd);

	return (BlockNumber) ((dir->next_row + ROWS_PER_TID_BLOCK - 1) / ROWS_PER_TID_BLOCK);
}

bool
colstore_scan_sample_next_block(TableScanDesc scan,
								struct SampleScanState *scanstate)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;
	TsmRoutine *tsm = scanstate->tsmroutine;
	BlockNumber nblocks = TidBlocks(s);
	BlockNumber blockno;

	if (tsm->NextSampleBlock)
		blockno = tsm->NextSampleBlock(scanstate, nblocks);
	else if (s->cur_block == InvalidBlockNumber)
		blockno = nblocks > 0 ? 0 : InvalidBlockNumber;
	else
		blockno = s->cur_block + 1 < nblocks ? s->cur_block + 1 : InvalidBlockNumber;

	s->cur_block = blockno;
	if (blockno == InvalidBlockNumber)
		return false;
	return true;
}

bool
colstore_scan_sample_next_tuple(TableScanDesc scan,
								struct SampleScanState *scanstate,
								TupleTableSlot *slot)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;
	TsmRoutine *tsm = scanstate->tsmroutine;

	for (;;)
	{
		OffsetNumber off = tsm->NextSampleTuple(scanstate, s->cur_block,
												ROWS_PER_TID_BLOCK);
		bool		dead;

		if (!OffsetNumberIsValid(off))
		{
			ExecClearTuple(slot);
			return false;
		}
		if (FetchPositioned(s, (uint64) s->cur_block * ROWS_PER_TID_BLOCK + (off - 1),
							slot, &dead))
		{
			pgstat_count_heap_getnext(scan->rs_rd);
			return true;
		}
	}
}

/* ----------------------------------------------------------------
 * TID helpers
 * ----------------------------------------------------------------
 */

bool
colstore_tuple_tid_valid(TableScanDesc scan, ItemPointer tid)
{
	uint64		rownum;
	ColstoreDirectory *dir;

	if (!ItemPointerToRowNumber(tid, &rownum))
		return false;
	dir = DirectoryGet(scan->rs_rd);
	return rownum < dir->next_row;
}
