/*-------------------------------------------------------------------------
 *
 * scan_walk.c
 *	  The walk of a scan through its units: row by row, forward and
 *	  backward, and the chunk and row filters that narrow it.
 *
 * A forward walk claims the visible units in list order (scan_parallel.c:
 * parallel participants claim whole units through shared memory) and
 * selects their chunks one after another, skipping those the custom scan's
 * chunk filter rules out (ColstoreScanConfigure) and counting what it read
 * and skipped for EXPLAIN ANALYZE.  Once a chunk is selected, the row
 * filter (ColstoreScanSetRowFilter) marks the rows to return, next to the
 * rows the snapshot hides.  Rows are then returned one by one, tested
 * against the scan keys (catalog-style scans) and the row number range
 * (index_build_range_scan).  A backward walk (scroll cursors) steps row by
 * row through the same list, serial scans only, without the filters.
 * Batches (scan_batch.c) advance the same forward walk a chunk at a time.
 *
 * A forward walk that returns a row-group row tells mvcc/row_state.c which
 * rows after it, in the current chunk, it may still return (ScanRowsAhead),
 * so that an UPDATE's promotion batch makes no copy of a row the scan will
 * not return; the answer is withdrawn when the chunk's memory goes.
 *
 * IDENTIFICATION
 *	  src/tableam/scan_walk.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relscan.h"
#include "access/skey.h"
#include "access/tableam.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "mvcc/row_state.h"
#include "storage/chunk_cache.h"
#include "storage/chunk_order.h"
#include "storage/delta_heap.h"
#include "storage/integer_order.h"
#include "tableam/scan_engine.h"
#include "tableam/scan_engine_internal.h"

/* ----------------------------------------------------------------
 * The forward walk's chunks
 * ----------------------------------------------------------------
 */

/*
 * Advance a forward scan to the next chunk of the current group that the
 * filter (if any) does not rule out, and return true.  If none is left,
 * return false: the group is exhausted, and the current chunk becomes its
 * last one, with no rows left.
 */
static bool
SelectNextChunk(ColstoreScanDesc s, TupleDesc desc)
{
	int			nchunks = GroupChunks(s);
	int			c = s->cur_chunk + 1;

	while (c < nchunks && s->filter != NULL && s->header != NULL &&
		   s->filter(s->filter_arg, s->header, (uint32) c))
	{
		s->counters.chunks_skipped++;
		c++;
	}
	if (c < nchunks)
	{
		ScanSelectChunk(s, c, desc);
		s->counters.chunks_read++;
		if (!s->group_has_reads)
			s->counters.groups_read++;
		s->group_has_reads = true;
		return true;
	}
	if (!s->group_has_reads)
		s->counters.groups_skipped++;
	s->group_has_reads = true;	/* counted */
	s->cur_chunk = nchunks - 1;
	s->chunk_rows = s->chunk_pos = 0;
	return false;
}

/*
 * ScanAdvanceChunk
 *		Move a forward scan to its next chunk that the filter (if any) does
 *		not rule out, claiming and opening further units as needed, and
 *		select it, typed by desc.  Returns false at the end of the scan,
 *		which is left past its last unit.  Checks for interrupts.
 */
bool
ScanAdvanceChunk(ColstoreScanDesc s, TupleDesc desc)
{
	for (;;)
	{
		int			next;

		CHECK_FOR_INTERRUPTS();
		if (s->cur_group >= 0 && s->cur_chunk + 1 < GroupChunks(s))
		{
			if (SelectNextChunk(s, desc))
				return true;
			continue;
		}
		next = ScanClaimNextGroup(s);
		if (next < 0)
		{
			s->cur_group = -1;
			s->next_group = s->ngroups;
			return false;
		}
		ScanPrefetchUnit(s, next);
		ScanOpenGroup(s, next);
		ScanPrefetchChunks(s);
	}
}

/* ----------------------------------------------------------------
 * The row filter
 * ----------------------------------------------------------------
 */

/* Is row pos hidden, or removed by the row filter (forward scans)? */
#define RowSkipped(s, pos) \
	(RowHidden(s, pos) || ((s)->row_selected != NULL && !(s)->row_selected[pos]))

/*
 * The first row at or after pos that the row filter kept, or chunk_rows;
 * without a filter, pos.  (A selective filter keeps a few rows of a chunk:
 * finding them must not cost a pass of the row loop per row.)
 */
static inline int
NextSelectedRow(ColstoreScanDesc s, int pos)
{
	const bool *next;

	if (s->row_selected == NULL || pos >= s->chunk_rows)
		return pos;
	next = memchr(s->row_selected + pos, true, s->chunk_rows - pos);
	return next != NULL ? (int) (next - s->row_selected) : s->chunk_rows;
}

/* Is column skip_att of row pos of the current chunk below bound? */
static inline bool
RowBelowBound(ColstoreScanDesc s, int pos, int64 bound)
{
	ScanDecodeColumn(s, s->skip_att);
	return !s->isnull[s->skip_att][pos] &&
		SignedIntegerDatum(s->skip_type, s->values[s->skip_att][pos]) < bound;
}

/*
 * ScanApplyRowFilter
 *		Run the row filter (if any) over the current chunk, which a forward
 *		scan has just selected: row_selected[] (in chunk_cxt) marks the rows to
 *		return.  Columns the filter reads are decoded for the whole chunk
 *		and reused by the rows returned; the other columns are decoded only
 *		if some row is returned.  The rows removed are counted unless the
 *		chunk was filtered before (count false).
 */
void
ScanApplyRowFilter(ColstoreScanDesc s, bool count)
{
	Relation	rel = s->rs_base.rs_rd;
	int			nrows = s->chunk_rows;
	const uint8 *mask = s->row_mask;
	bool	   *selected;
	int			visible = nrows;
	int			kept = 0;
	int			removed;
	int			i;

	if (s->row_filter == NULL || nrows == 0)
		return;
	selected = MemoryContextAlloc(s->chunk_cxt, nrows);
	if (mask == NULL)
		memset(selected, true, nrows);
	else
	{
		visible = 0;
		for (i = 0; i < nrows; i++)
		{
			selected[i] = mask[i] != ROW_HIDDEN;
			visible += selected[i];
		}
	}
	s->row_selected = selected;
	s->row_filter(s->row_filter_arg, &s->rs_base, nrows, selected);
	for (i = 0; i < nrows; i++)
		kept += selected[i];
	s->row_kept = kept;
	/* the filter only clears rows, so the visible ones it cleared */
	removed = visible - kept;
	if (count)
	{
		s->counters.rows_filtered += removed;
		/* seq_tup_read counts them, as it counts rows heap's quals reject */
		if (pgstat_should_count_relation(rel))
			PgStatTuplesReturned(rel->pgstat_info) += removed;
	}
	if (kept == 0)
		s->chunk_pos = s->chunk_rows;
}

/* ----------------------------------------------------------------
 * The rows ahead, for promotion batches
 * ----------------------------------------------------------------
 */

/*
 * RowStateRowsAhead of a forward walk (mvcc/row_state.h): if rownum is the
 * row-group row it returned last, how many rows from it on, one after the
 * other and at most max, it may return before its chunk ends or its row
 * filter removed a row.  Rows the snapshot hides do not end the run: they
 * are deleted, and a copy made of them is as dead as their delete (rows
 * of a row group with a copy already get none).  Rows the scan keys, the
 * skip bound or an executor qual above the scan reject are not known
 * here: the answer is what the scan knows, not what its caller keeps.
 */
static uint32
ScanRowsAhead(void *arg, Relation rel, uint32 dir_index, uint64 rownum,
			  uint32 max)
{
	ColstoreScanDesc s = (ColstoreScanDesc) arg;
	Relation	srel = s->rs_base.rs_rd;
	const ScanGroup *g;
	uint32		n = 1;
	int			pos;

	if (RelationGetRelid(srel) != RelationGetRelid(rel) ||
		!RelFileLocatorEquals(srel->rd_locator, rel->rd_locator) ||
		s->cur_group < 0 || s->header == NULL || s->cur_chunk < 0 ||
		s->last_pos < 0 || s->last_pos >= s->chunk_rows)
		return 0;
	g = &s->groups[s->cur_group];
	if (g->is_delta || g->dir_index != dir_index ||
		g->entry.rg_first_row + s->header->chunk_first_row[s->cur_chunk] +
		(uint64) s->last_pos != rownum)
		return 0;
	for (pos = s->last_pos + 1; pos < s->chunk_rows && n < max; pos++)
	{
		if (s->row_selected != NULL && !s->row_selected[pos] && !RowHidden(s, pos))
			break;
		n++;
	}
	return n;
}

/* chunk_cxt goes: what ScanRowsAhead reads goes with it. */
static void
ScanAheadWithdraw(void *arg)
{
	ColstoreScanDesc s = (ColstoreScanDesc) arg;

	RowStateForgetScanAhead(s);
	s->ahead_armed = false;
}

/*
 * Tell row_state.c that the forward walk just returned row last_pos of a
 * row group's chunk, and have the chunk's memory withdraw it.
 */
static inline void
ScanAheadPublish(ColstoreScanDesc s)
{
	if (!s->ahead_armed)
	{
		s->ahead_callback.func = ScanAheadWithdraw;
		s->ahead_callback.arg = s;
		MemoryContextRegisterResetCallback(s->chunk_cxt, &s->ahead_callback);
		s->ahead_armed = true;
	}
	RowStateNoteScanAhead(ScanRowsAhead, s);
}

/* ----------------------------------------------------------------
 * Rows, forward and backward
 * ----------------------------------------------------------------
 */

/* Does the row in slot pass the scan keys (catalog-style scans only)? */
static bool
PassesKeys(ColstoreScanDesc s, TupleTableSlot *slot)
{
	int			i;

	for (i = 0; i < s->rs_base.rs_nkeys; i++)
	{
		ScanKey		key = &s->rs_base.rs_key[i];
		bool		isnull;
		Datum		value = slot_getattr(slot, key->sk_attno, &isnull);

		if (key->sk_flags & SK_ISNULL || isnull)
			return false;
		if (!DatumGetBool(FunctionCall2Coll(&key->sk_func, key->sk_collation,
											value, key->sk_argument)))
			return false;
	}
	return true;
}

/* Does the row in slot pass the scan keys and the row range? */
static bool
RowQualifies(ColstoreScanDesc s, TupleTableSlot *slot)
{
	if (s->rs_base.rs_nkeys > 0 && !PassesKeys(s, slot))
		return false;
	if (s->range_end != PG_UINT64_MAX || s->range_start != 0)
	{
		uint64		rownum = 0;

		(void) ItemPointerToRowNumber(&slot->tts_tid, &rownum);
		if (rownum < s->range_start || rownum >= s->range_end)
			return false;
	}
	return true;
}

/*
 * Step one row backward (scroll cursors).  The current row is
 * chunk_pos - 1 of the current chunk; after the end (no current group) the
 * scan restarts from the last row.  Serial scans only.
 */
static bool
ScanBackward(ColstoreScanDesc s, TupleTableSlot *slot)
{
	TupleDesc	desc = slot->tts_tupleDescriptor;

	if (s->rs_base.rs_parallel != NULL)
		elog(ERROR, "unexpected backward parallel scan of colstore table \"%s\"",
			 RelationGetRelationName(s->rs_base.rs_rd));
	/* the pages read ahead were for the forward walk */
	if (s->pf_fed >= 0)
		ScanPrefetchReset(s);
	/* the rows after the current one are not the ones it returns next */
	RowStateForgetScanAhead(s);
	for (;;)
	{
		int			row;

		if (s->cur_group < 0)
		{
			/* after the end: the last visible group that has rows */
			int			g = (s->next_group > 0 ? Min(s->next_group, s->ngroups) : 0) - 1;

			while (g >= 0 && !s->groups[g].visible)
				g--;
			if (g < 0)
			{
				s->next_group = 0;
				ExecClearTuple(slot);
				return false;
			}
			ScanOpenGroup(s, g);
			s->next_group = g + 1;
			ScanSelectChunk(s, GroupChunks(s) - 1, desc);
			s->chunk_pos = s->chunk_rows + 1;
		}
		row = s->chunk_pos - 2;
		if (row >= 0)
		{
			s->chunk_pos = row + 1;
			if (RowHidden(s, row))
				continue;
			ScanStoreRow(s, row, slot);
			if (!RowQualifies(s, slot))
				continue;
			return true;
		}
		if (s->cur_chunk > 0)
		{
			ScanSelectChunk(s, s->cur_chunk - 1, desc);
			s->chunk_pos = s->chunk_rows + 1;
			continue;
		}
		/* before the first row of this group: go to an earlier group */
		s->next_group = s->cur_group;
		s->cur_group = -1;
		s->cur_chunk = -1;
		s->chunk_rows = s->chunk_pos = 0;
		if (s->next_group == 0)
		{
			ExecClearTuple(slot);
			return false;
		}
	}
}

/*
 * ColstoreScanGetNextSlot
 *		The scan's next row in direction (scan_getnextslot), stored in slot
 *		(scan_engine.c says how and for how long), or false with slot
 *		cleared at the end.  Forward, the chunk filter and the row filter
 *		apply; backward they do not, and parallel scans may not go
 *		backward.  Each row returned counts in the table's statistics.
 */
bool
ColstoreScanGetNextSlot(TableScanDesc scan, ScanDirection direction,
						TupleTableSlot *slot)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;
	int64		bound = 0;
	bool		skipping;

	if (direction == BackwardScanDirection)
		return ScanBackward(s, slot);
	skipping = s->skip_bound != NULL && s->skip_bound(s->skip_arg, &bound);
	for (;;)
	{
		if (s->cur_chunk >= 0 && s->chunk_pos < s->chunk_rows)
		{
			if (slot->tts_tupleDescriptor != s->chunk_desc)
			{
				int			pos = s->chunk_pos;

				ScanSelectChunk(s, s->cur_chunk, slot->tts_tupleDescriptor);
				ScanApplyRowFilter(s, false);
				s->chunk_pos = pos;
			}
			if (RowSkipped(s, s->chunk_pos))
			{
				s->chunk_pos = NextSelectedRow(s, s->chunk_pos + 1);
				continue;
			}
			if (skipping && RowBelowBound(s, s->chunk_pos, bound))
			{
				s->counters.rows_skipped++;
				s->chunk_pos = NextSelectedRow(s, s->chunk_pos + 1);
				continue;
			}
			ScanStoreRow(s, s->chunk_pos++, slot);
			if (!RowQualifies(s, slot))
				continue;
			if (s->header != NULL)
				ScanAheadPublish(s);
			s->skip_returned++;
			pgstat_count_heap_getnext(scan->rs_rd);
			return true;
		}
		/* a skipping scan's next chunk: build numerics row by row? */
		if (skipping && s->cur_chunk >= 0)
			s->skip_sparse =
				(int64) s->skip_returned * SCALED_SPARSE_RATIO < s->chunk_rows;
		s->skip_returned = 0;
		if (!ScanAdvanceChunk(s, slot->tts_tupleDescriptor))
		{
			/* past the end; a backward step restarts from the last row */
			ExecClearTuple(slot);
			return false;
		}
		ScanApplyRowFilter(s, true);
	}
}

/* ----------------------------------------------------------------
 * Narrowing the walk, and what it read
 * ----------------------------------------------------------------
 */

/*
 * ColstoreScanConfigure
 *		Narrow a forward sequential scan for the custom scan: only the
 *		columns marked in needed[0 .. natts - 1] are decoded (the others
 *		read as NULL), and chunks for which filter(filter_arg, header,
 *		chunk) returns true are skipped.  Either may be NULL.  The caller
 *		must read no other column and must evaluate its quals on every row
 *		returned: the filter only lets chunks be skipped, it does not
 *		filter rows.  needed must stay valid while the scan is used.
 */
void
ColstoreScanConfigure(TableScanDesc scan, const bool *needed, int natts,
					  ColstoreChunkFilter filter, void *filter_arg)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	s->needed = (bool *) needed;
	s->needed_natts = natts;
	s->filter = filter;
	s->filter_arg = filter_arg;
}

/*
 * ColstoreScanSetRowFilter
 *		Let a forward row-by-row scan (the custom scan's) decide its rows a
 *		chunk at a time: filter(arg, scan, nrows, selected) runs once per
 *		chunk, before any row of it is returned, and the rows whose
 *		selected[] it clears are not returned.  The filter decides for the
 *		caller: it must clear exactly the rows the conditions it stands for
 *		reject (the custom scan no longer evaluates them as quals).  The
 *		rows it removes are counted (ColstoreScanAddCounters).  filter NULL
 *		turns it off.
 */
void
ColstoreScanSetRowFilter(TableScanDesc scan, ColstoreRowFilter filter, void *arg)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	s->row_filter = filter;
	s->row_filter_arg = arg;
}

/*
 * ColstoreScanSetSkipBelow
 *		Let a forward row-by-row scan skip rows the caller no longer wants:
 *		at each ColstoreScanGetNextSlot, bound(arg, &b) says whether it
 *		wants only rows whose column att (0-based, of a type
 *		TypeHasSignedIntegerOrder accepts) is at least b; rows below are
 *		skipped before they become tuples, and counted
 *		(ColstoreScanAddCounters).  NULL values are never skipped.  The
 *		caller answers for it that it would discard every skipped row: a
 *		merge join's inner side below its current outer key
 *		(key_range_exec.c).  bound NULL turns it off.
 */
void
ColstoreScanSetSkipBelow(TableScanDesc scan, int att, Oid type,
						 ColstoreKeyBound bound, void *arg)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	Assert(bound == NULL || TypeHasSignedIntegerOrder(type));
	s->skip_bound = bound;
	s->skip_arg = arg;
	s->skip_att = att;
	s->skip_type = type;
}

/*
 * ColstoreScanSetRowRange
 *		Limit a sequential scan to row numbers [start, end), as
 *		index_build_range_scan needs for BRIN summarisation.
 */
void
ColstoreScanSetRowRange(TableScanDesc scan, uint64 start, uint64 end)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	s->range_start = start;
	s->range_end = end;
}

/* Add the scan's row group and chunk counts (since it began) to *counters. */
void
ColstoreScanAddCounters(TableScanDesc scan, ColstoreScanCounters *counters)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	counters->rows_skipped += s->counters.rows_skipped;
	counters->groups_read += s->counters.groups_read;
	counters->groups_skipped += s->counters.groups_skipped;
	counters->chunks_read += s->counters.chunks_read;
	counters->chunks_skipped += s->counters.chunks_skipped;
	counters->rows_filtered += s->counters.rows_filtered;
}

/*
 * ColstoreScanReturnsSortedBy
 *		Will this forward scan (serial, or one participant's share of a
 *		parallel one, which it claims in list order) return column attno's
 *		(0-based) values in ascending order, without NULLs?  True when every
 *		visible unit of its list is a row group and they hold the column in
 *		order (chunk_order.c), and no heap page holds a tuple (one that
 *		VACUUM emptied adds no row).
 *		Call before the first row; reads the visible row groups' headers.
 */
bool
ColstoreScanReturnsSortedBy(TableScanDesc scan, int attno)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;
	Relation	rel = scan->rs_rd;
	ChunkOrderCheck check;
	bool		sorted = true;
	int			i;

	if (attno >= RelationGetDescr(rel)->natts ||
		!ChunkOrderBegin(&check, TupleDescAttr(RelationGetDescr(rel), attno), attno))
		return false;
	for (i = 0; i < s->ngroups && sorted; i++)
	{
		ScanGroup  *g = &s->groups[i];

		if (!g->visible)
			continue;
		if (g->is_delta)
			sorted = !DeltaPageHoldsTuples(rel, g->entry.rg_header.sp_block);
		else
			sorted = ChunkOrderNextGroup(&check,
										 ChunkCacheGetHeader(rel, g->dir_index, &g->entry));
	}
	ChunkOrderEnd(&check);
	return sorted;
}
