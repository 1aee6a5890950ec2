/*-------------------------------------------------------------------------
 *
 * am_scan_positioned.c
 *	  The table AM's bitmap, sample and ANALYZE scan callbacks of colstore,
 *	  and its TID check.
 *
 * These scans visit rows in ascending row number order, given by a TID
 * bitmap, a sampling method or ANALYZE's block sampler, and fetch each
 * from the scan engine by its number (ColstoreScanFetchRow), so each chunk
 * is decoded at most once per scan.  TIDs name row numbers
 * (rowgroup_format.h), so "blocks" here are the pseudo-blocks of
 * ROWS_PER_TID_BLOCK rows of the TID space; where a scan stands in that
 * space is the descriptor's TID cursor (scan_engine_internal.h), the only
 * part of the descriptor these callbacks touch.
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
#include "tableam/am_scan.h"
#include "tableam/scan_engine.h"
#include "tableam/scan_engine_internal.h"

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
	s->tid.cur_block = blockno;
	s->tid.cur_offset = FirstOffsetNumber;
	return true;
}
#else
bool
colstore_scan_analyze_next_block(TableScanDesc scan, BlockNumber blockno,
								 BufferAccessStrategy bstrategy)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	s->tid.cur_block = blockno;
	s->tid.cur_offset = FirstOffsetNumber;
	return blockno < COLSTORE_TID_BLOCK_LIMIT;
}
#endif

bool
colstore_scan_analyze_next_tuple(TableScanDesc scan, TransactionId OldestXmin,
								 double *liverows, double *deadrows,
								 TupleTableSlot *slot)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	while (s->tid.cur_offset <= ROWS_PER_TID_BLOCK)
	{
		uint64		rownum = (uint64) s->tid.cur_block * ROWS_PER_TID_BLOCK +
			(s->tid.cur_offset - 1);
		bool		dead;

		s->tid.cur_offset++;
		if (ColstoreScanFetchRow(scan, rownum, COLSTORE_FETCH_VERSION, slot, &dead))
		{
			/* fetched rows are live or recently dead (not hidden) */
			if (!ColstoreScanRowIsAlive(scan))
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
/*
 * Fetch the visible row at offset off of the current pseudo-block, if any.
 * An exact page's offsets come from index entries: on a heap page, where a
 * HOT chain starts, and the chain's visible member is returned.  A lossy
 * page's offsets are every item, each visible version returned for its own,
 * but for those of chains rooted at a row's promoted copy: in both, a
 * row-group row whose own version is not visible returns its chain's
 * visible member (ColstoreScanFetchRow).
 */
static bool
FetchBitmapRow(ColstoreScanDesc s, OffsetNumber off, bool exact, TupleTableSlot *slot)
{
	bool		dead;

	if (off < 1 || off > ROWS_PER_TID_BLOCK ||
		!ColstoreScanFetchRow(&s->rs_base,
							  (uint64) s->tid.cur_block * ROWS_PER_TID_BLOCK + (off - 1),
							  exact ? COLSTORE_FETCH_INDEXED : COLSTORE_FETCH_LOSSY,
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

	s->tid.cur_block = tbmres.blockno;
	s->tid.cur_offset = FirstOffsetNumber;
	s->tid.bm_index = 0;
	s->tid.bm_recheck = tbmres.recheck;
	if (tbmres.lossy)
	{
		s->tid.bm_noffsets = -1;
		(*lossy_pages)++;
	}
	else
	{
		s->tid.bm_noffsets = tbm_extract_page_tuple(&tbmres, s->tid.bm_offsets,
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

		if (s->tid.bm_noffsets >= 0 ? s->tid.bm_index >= s->tid.bm_noffsets
			: s->tid.cur_offset > ROWS_PER_TID_BLOCK)
		{
			if (!BitmapNextPage(s, lossy_pages, exact_pages))
				break;
			continue;
		}
		off = s->tid.bm_noffsets >= 0 ? s->tid.bm_offsets[s->tid.bm_index++] : s->tid.cur_offset++;
		if (FetchBitmapRow(s, off, s->tid.bm_noffsets >= 0, slot))
		{
			*recheck = s->tid.bm_recheck;
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

	s->tid.cur_block = tbmres->blockno;
	s->tid.bm_index = 0;
	s->tid.cur_offset = FirstOffsetNumber;
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
			if (s->tid.bm_index >= tbmres->ntuples)
				break;
			off = tbmres->offsets[s->tid.bm_index++];
		}
		else
		{
			if (s->tid.cur_offset > ROWS_PER_TID_BLOCK)
				break;
			off = s->tid.cur_offset++;
		}
		if (FetchBitmapRow(s, off, tbmres->ntuples >= 0, slot))
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
	else if (s->tid.cur_block == InvalidBlockNumber)
		blockno = nblocks > 0 ? 0 : InvalidBlockNumber;
	else
		blockno = s->tid.cur_block + 1 < nblocks ? s->tid.cur_block + 1 : InvalidBlockNumber;

	s->tid.cur_block = blockno;
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
		OffsetNumber off = tsm->NextSampleTuple(scanstate, s->tid.cur_block,
												ROWS_PER_TID_BLOCK);
		bool		dead;

		if (!OffsetNumberIsValid(off))
		{
			ExecClearTuple(slot);
			return false;
		}
		if (ColstoreScanFetchRow(scan,
								 (uint64) s->tid.cur_block * ROWS_PER_TID_BLOCK + (off - 1),
								 COLSTORE_FETCH_VERSION, slot, &dead))
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
