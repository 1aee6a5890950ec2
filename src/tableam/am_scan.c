/*-------------------------------------------------------------------------
 *
 * am_scan.c
 *	  Sequential and parallel scans of colstore tables, and the chunk
 *	  decoder every table scan positions (am_scan_positioned.c for bitmap,
 *	  sample and ANALYZE scans; am_scan_internal.h for the descriptor).
 *
 * A scan takes, at its start, a copy of the directory's row groups in row
 * number order together with their visibility to the scan's snapshot (a
 * row group's visibility is the same for all its rows).  A sequential scan
 * then walks the visible row groups chunk by chunk.  Rows are stored in
 * colstore slots lazily (am_slot.c): a column's chunk is decoded only when
 * the executor first asks for that column of a row of the chunk, so a
 * query decodes only the columns up to the last one it reads.  Values
 * point into the scan's chunk memory, valid until the next call; slots of
 * other types get every column at once.  Parallel workers claim
 * whole row groups through an atomic counter in shared memory; all
 * participants compute the same list because they use the same snapshot.
 *
 * Bitmap, sample and ANALYZE scans (am_scan_positioned.c) position the
 * same chunk decoder on the rows they need.
 *
 * TIDs name row numbers (rowgroup_format.h), so "blocks" here are the
 * pseudo-blocks of ROWS_PER_TID_BLOCK rows of the TID space.
 *
 * IDENTIFICATION
 *	  src/tableam/am_scan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/relscan.h"
#include "access/skey.h"
#include "access/tableam.h"
#include "access/tsmapi.h"
#include "access/valid.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "nodes/execnodes.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "port/atomics.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "encoding/numeric_encoding.h"
#include "mvcc/row_state.h"
#include "mvcc/visibility.h"
#include "storage/chunk_cache.h"
#include "storage/chunk_order.h"
#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/rowgroup_builder.h"
#include "storage/predicate.h"
#include "storage/procarray.h"
#include "storage/rowgroup_reader.h"
#include "storage/write_buffer.h"
#include "tableam/am_scan.h"
#include "tableam/am_scan_internal.h"
#include "tableam/am_slot.h"


/*
 * Drop the decoded chunk: its memory, its columns and its row mask.  Lazy
 * rows stored from it see the generation change and refuse to read it.
 */
static void
ForgetChunk(ColstoreScanDesc s)
{
	MemoryContextReset(s->chunk_cxt);
	memset(s->decoded, 0, sizeof(bool) * s->max_natts);
	s->row_mask = NULL;
	s->row_selected = NULL;
	s->chunk_generation++;
}

/*
 * Copy the directory's row groups and delta pages, in row number order, and
 * judge the row groups' visibility once.
 */
static void
LoadGroups(ColstoreScanDesc s)
{
	Relation	rel = s->rs_base.rs_rd;
	Snapshot	snapshot = s->rs_base.rs_snapshot;
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			i;
	int			gi = 0;
	int			di = 0;

	MemoryContextReset(s->scan_cxt);
	s->ngroups = dir->ngroups + dir->ndeltas;
	s->groups = MemoryContextAlloc(s->scan_cxt, sizeof(ScanGroup) * (s->ngroups + 1));
	if (snapshot == NULL || snapshot->snapshot_type == SNAPSHOT_ANY)
		s->oldest_xmin = GetOldestNonRemovableTransactionId(rel);
	for (i = 0; i < s->ngroups; i++)
	{
		ScanGroup  *g = &s->groups[i];

		if (di < dir->ndeltas &&
			(gi >= dir->ngroups ||
			 dir->entries[dir->deltas[di]].rg_first_row <
			 dir->entries[dir->groups[gi]].rg_first_row))
		{
			g->dir_index = dir->deltas[di++];
			g->entry = dir->entries[g->dir_index];
			g->is_delta = true;
			g->dead = false;
			g->visible = true;
			continue;
		}
		g->dir_index = dir->groups[gi++];
		g->entry = dir->entries[g->dir_index];
		g->is_delta = false;
		g->dead = RowGroupInsertAborted(&g->entry);
		if (g->dead)
			g->visible = false;
		else if (snapshot == NULL)	/* ANALYZE: what VACUUM would keep */
			g->visible = RowGroupInsertCommitted(&g->entry) ||
				TransactionIdIsCurrentTransactionId(g->entry.rg_xmin);
		else
		{
			g->visible = RowGroupIsVisible(&g->entry, snapshot);
			if (!g->visible && IsMVCCSnapshot(snapshot))
				RowGroupCheckConflictOut(rel, &g->entry, snapshot);
		}
	}
	/* rows other transactions are still buffering are concurrent inserts too */
	if (snapshot != NULL && IsMVCCSnapshot(snapshot))
		for (i = 0; i < dir->nreservations; i++)
			RowGroupCheckConflictOut(rel, &dir->entries[dir->reservations[i]], snapshot);

	/*
	 * Parallel participants claim units by position, so their lists must
	 * agree; each reads the directory at its own time.  A row group written
	 * in between may sort before others, but it is invisible to the shared
	 * snapshot, so keep visible groups only, and the groups VACUUM may have
	 * retired in between (group_reclaim.c): they are visible to the snapshot
	 * for a participant that read the directory earlier (with no row it
	 * sees), so every participant keeps them, and reads none.  Delta pages registered in
	 * between sort last and hold no row the snapshot sees (rows the
	 * snapshot sees were committed after their page was registered).
	 */
	if (s->rs_base.rs_parallel != NULL)
	{
		int			kept = 0;

		for (i = 0; i < s->ngroups; i++)
			if (s->groups[i].visible || (s->groups[i].entry.rg_flags & RG_FLAG_EMPTIED))
				s->groups[kept++] = s->groups[i];
		s->ngroups = kept;
	}
	s->next_group = 0;
	s->cur_group = -1;
	s->cur_chunk = -1;
	s->chunk_rows = s->chunk_pos = 0;
	s->header = NULL;
	ForgetChunk(s);
	s->cur_block = InvalidBlockNumber;
	s->bm_index = 0;
#if PG_BITMAP_SCAN_IN_AM
	s->bm_noffsets = 0;
#endif
}

TableScanDesc
colstore_scan_begin(Relation rel, Snapshot snapshot, int nkeys,
					struct ScanKeyData *key, ParallelTableScanDesc pscan,
					uint32 flags)
{
	ColstoreScanDesc s;
	int			natts = RelationGetDescr(rel)->natts;

	WriteBufferFlush(rel);
	RelationIncrementReferenceCount(rel);

	s = palloc0(sizeof(ColstoreScanDescData));
	s->rs_base.rs_rd = rel;
	s->rs_base.rs_snapshot = snapshot;
	s->rs_base.rs_nkeys = nkeys;
	s->rs_base.rs_flags = flags;
	s->rs_base.rs_parallel = pscan;
	if (nkeys > 0)
	{
		s->rs_base.rs_key = palloc(sizeof(ScanKeyData) * nkeys);
		memcpy(s->rs_base.rs_key, key, sizeof(ScanKeyData) * nkeys);
	}
	s->scan_cxt = AllocSetContextCreate(CurrentMemoryContext, "colstore scan",
										ALLOCSET_DEFAULT_SIZES);
	s->group_cxt = AllocSetContextCreate(CurrentMemoryContext, "colstore scan group",
										 ALLOCSET_DEFAULT_SIZES);
	s->chunk_cxt = AllocSetContextCreate(CurrentMemoryContext, "colstore scan chunk",
										 ALLOCSET_DEFAULT_SIZES);
	s->max_natts = Max(natts, 1);
	s->values = palloc0(sizeof(Datum *) * s->max_natts);
	s->isnull = palloc0(sizeof(bool *) * s->max_natts);
	s->decoded = palloc0(sizeof(bool) * s->max_natts);
	s->scaled = palloc0(sizeof(ScaledColumn) * s->max_natts);
	s->buffers = palloc0(sizeof(ColumnBuffer) * s->max_natts);
	s->buffer_cxt = AllocSetContextCreate(CurrentMemoryContext, "colstore scan columns",
										  ALLOCSET_DEFAULT_SIZES);
	s->range_start = 0;
	s->range_end = PG_UINT64_MAX;
	/* SERIALIZABLE: like heap's sequential scans, lock the whole relation */
	if (snapshot && IsMVCCSnapshot(snapshot))
		PredicateLockRelation(rel, snapshot);
	LoadGroups(s);
	if (flags & SO_TYPE_SEQSCAN)
		pgstat_count_heap_scan(rel);
	return (TableScanDesc) s;
}

void
colstore_scan_end(TableScanDesc scan)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	MemoryContextDelete(s->chunk_cxt);
	MemoryContextDelete(s->group_cxt);
	MemoryContextDelete(s->scan_cxt);
	if (scan->rs_flags & SO_TEMP_SNAPSHOT)
		UnregisterSnapshot(scan->rs_snapshot);
	RelationDecrementReferenceCount(scan->rs_rd);
	if (scan->rs_key)
		pfree(scan->rs_key);
	pfree(s->values);
	pfree(s->isnull);
	pfree(s->decoded);
	pfree(s->scaled);
	pfree(s->buffers);
	MemoryContextDelete(s->buffer_cxt);
	pfree(s);
}

void
colstore_scan_rescan(TableScanDesc scan, struct ScanKeyData *key,
					 bool set_params, bool allow_strat, bool allow_sync,
					 bool allow_pagemode)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	if (key != NULL && scan->rs_nkeys > 0)
		memcpy(scan->rs_key, key, sizeof(ScanKeyData) * scan->rs_nkeys);
	MemoryContextReset(s->chunk_cxt);
	MemoryContextReset(s->group_cxt);
	LoadGroups(s);
}

/* Chunks of the current group: a delta page is read as one. */
#define GroupChunks(s)	((int) ((s)->header != NULL ? (s)->header->nchunks : 1))

/* Make group i current (reading its header); no chunk decoded yet. */
void
ScanOpenGroup(ColstoreScanDesc s, int i)
{
	MemoryContext oldcxt;

	ForgetChunk(s);
	MemoryContextReset(s->group_cxt);
	oldcxt = MemoryContextSwitchTo(s->group_cxt);
	if (s->groups[i].is_delta)
	{
		s->header = NULL;
		s->delta_tuples = palloc(sizeof(HeapTuple) * MaxHeapTuplesPerPage);
		s->delta_offsets = palloc(sizeof(OffsetNumber) * MaxHeapTuplesPerPage);
		s->delta_liveness = palloc(sizeof(uint8) * MaxHeapTuplesPerPage);
		s->delta_rows = DeltaPageCollect(s->rs_base.rs_rd,
										 s->groups[i].entry.rg_header.sp_block,
										 s->rs_base.rs_snapshot, s->oldest_xmin,
										 s->delta_tuples, s->delta_offsets,
										 s->delta_liveness);
	}
	else
		s->header = RowGroupReadHeader(s->rs_base.rs_rd, s->groups[i].dir_index,
									   &s->groups[i].entry);
	MemoryContextSwitchTo(oldcxt);
	s->cur_group = i;
	s->cur_chunk = -1;
	s->chunk_rows = s->chunk_pos = 0;
	s->group_has_reads = false;
}

/*
 * Make chunk c of the current group current, typed by desc: the slot's
 * descriptor, which during ALTER TABLE rewrites is the old one.  No column
 * is decoded yet (DecodeColumn does that on demand).
 */
void
ScanSelectChunk(ColstoreScanDesc s, int c, TupleDesc desc)
{
	if (desc->natts > s->max_natts)
	{
		s->max_natts = desc->natts;
		s->values = repalloc(s->values, sizeof(Datum *) * s->max_natts);
		s->isnull = repalloc(s->isnull, sizeof(bool *) * s->max_natts);
		s->decoded = repalloc(s->decoded, sizeof(bool) * s->max_natts);
		s->scaled = repalloc(s->scaled, sizeof(ScaledColumn) * s->max_natts);
		memset(s->scaled, 0, sizeof(ScaledColumn) * s->max_natts);
		s->buffers = repalloc(s->buffers, sizeof(ColumnBuffer) * s->max_natts);
		memset(s->buffers, 0, sizeof(ColumnBuffer) * s->max_natts);
		MemoryContextReset(s->buffer_cxt);
	}
	ForgetChunk(s);
	s->chunk_desc = desc;
	s->cur_chunk = c;
	s->chunk_pos = 0;
	if (s->header == NULL)
	{
		s->chunk_rows = s->delta_rows;
		s->row_mask = s->delta_liveness;
		return;
	}
	s->chunk_rows = RowGroupChunkRows(s->header, c);
	s->row_mask = NULL;
	if (s->groups[s->cur_group].entry.rg_state_root != 0)
	{
		uint8	   *mask = MemoryContextAlloc(s->chunk_cxt, Max(s->chunk_rows, 1));

		if (RowGroupMaskChanged(s->rs_base.rs_rd, &s->groups[s->cur_group].entry,
								s->header->chunk_first_row[c], (uint32) s->chunk_rows,
								s->rs_base.rs_snapshot, s->oldest_xmin, mask))
			s->row_mask = mask;
	}
}

/* Point values[att]/isnull[att] at arrays with room for the chunk's rows. */
static void
UseColumnBuffer(ColstoreScanDesc s, int att)
{
	ColumnBuffer *buf = &s->buffers[att];
	int			rows = Max(s->chunk_rows, 1);

	if (buf->rows < rows)
	{
		if (buf->values != NULL)
		{
			pfree(buf->values);
			pfree(buf->isnull);
		}
		buf->values = MemoryContextAlloc(s->buffer_cxt, sizeof(Datum) * rows);
		buf->isnull = MemoryContextAlloc(s->buffer_cxt, sizeof(bool) * rows);
		buf->rows = rows;
	}
	s->values[att] = buf->values;
	s->isnull[att] = buf->isnull;
}

/*
 * Deform every row of the current delta page into the chunk arrays, typed
 * by the chunk's descriptor.
 */
static void
DeformDeltaRows(ColstoreScanDesc s)
{
	TupleDesc	desc = s->chunk_desc;
	MemoryContext oldcxt = MemoryContextSwitchTo(s->chunk_cxt);
	Datum	   *values = palloc(sizeof(Datum) * Max(desc->natts, 1));
	bool	   *isnull = palloc(sizeof(bool) * Max(desc->natts, 1));
	int			att;
	int			row;

	for (att = 0; att < desc->natts; att++)
	{
		UseColumnBuffer(s, att);
		s->decoded[att] = true;
	}
	for (row = 0; row < s->chunk_rows; row++)
	{
		HeapTupleCheckShape(s->rs_base.rs_rd, s->delta_tuples[row], desc);
		heap_deform_tuple(s->delta_tuples[row], desc, values, isnull);
		for (att = 0; att < desc->natts; att++)
		{
			s->values[att][row] = values[att];
			s->isnull[att][row] = isnull[att];
		}
	}
	MemoryContextSwitchTo(oldcxt);
}

/* Decode column att of the current chunk unless done already. */
static void
DecodeColumn(ColstoreScanDesc s, int att)
{
	MemoryContext oldcxt;

	if (s->decoded[att])
		return;
	if (s->header == NULL)
	{
		DeformDeltaRows(s);
		return;
	}
	UseColumnBuffer(s, att);
	oldcxt = MemoryContextSwitchTo(s->chunk_cxt);
	RowGroupReadColumnChunk(s->rs_base.rs_rd, s->header, s->chunk_desc, att,
							s->cur_chunk, s->values[att], s->isnull[att]);
	MemoryContextSwitchTo(oldcxt);
	s->decoded[att] = true;
}

/*
 * A value of a numeric column for one row of a batch a row filter thinned
 * out: built alone from the chunk's scaled integers, so the rows the filter
 * dropped never have theirs built (that is most of the decoding cost of a
 * numeric chunk).  False if the chunk is stored otherwise (decode it whole).
 */
static bool
FillScaledNumeric(ColstoreScanDesc s, int att, int pos, TupleTableSlot *slot)
{
	int64	   *values;
	int64	   *dscales;
	bool	   *isnull;
	int			scale;
	MemoryContext oldcxt;

	if (TupleDescAttr(s->chunk_desc, att)->atttypid != NUMERICOID ||
		!ColstoreScanBatchScaled(&s->rs_base, att, &values, &dscales, &isnull, &scale))
		return false;
	slot->tts_isnull[att] = isnull[pos];
	if (isnull[pos])
	{
		slot->tts_values[att] = (Datum) 0;
		return true;
	}
	oldcxt = MemoryContextSwitchTo(s->chunk_cxt);
	slot->tts_values[att] = numeric_from_scaled(values[pos], scale, (int) dscales[pos]);
	MemoryContextSwitchTo(oldcxt);
	return true;
}

/*
 * ColstoreSlotFill of the scan: attributes [from, to) of row pos of the
 * current chunk.  A lazy row stored before the scan moved on (generation
 * differs) or typed by another descriptor would read the wrong data; that
 * is a caller bug, reported rather than answered.
 */
static void
FillFromChunk(void *arg, int pos, uint32 generation, TupleTableSlot *slot,
			  int from, int to)
{
	ColstoreScanDesc s = (ColstoreScanDesc) arg;
	int			att;

	if (generation != s->chunk_generation ||
		slot->tts_tupleDescriptor != s->chunk_desc)
		elog(ERROR, "colstore scan of \"%s\" was asked for a row it no longer holds",
			 RelationGetRelationName(s->rs_base.rs_rd));
	for (att = from; att < to; att++)
	{
		if (s->needed != NULL && att < s->needed_natts && !s->needed[att])
		{
			/* the custom scan's plan never reads this column */
			slot->tts_values[att] = (Datum) 0;
			slot->tts_isnull[att] = true;
			continue;
		}
		if (s->row_filter != NULL && !s->decoded[att] &&
			FillScaledNumeric(s, att, pos, slot))
			continue;
		DecodeColumn(s, att);
		slot->tts_values[att] = s->values[att][pos];
		slot->tts_isnull[att] = s->isnull[att][pos];
	}
}

/* Next visible group for this participant, or -1. */
static int
ClaimNextGroup(ColstoreScanDesc s)
{
	ParallelColstoreScanDesc p = (ParallelColstoreScanDesc) s->rs_base.rs_parallel;

	for (;;)
	{
		int			i;

		if (p != NULL)
			i = (int) pg_atomic_fetch_add_u32(&p->next_group, 1);
		else
			i = s->next_group++;
		if (i >= s->ngroups)
			return -1;
		if (s->groups[i].visible &&
			s->groups[i].entry.rg_first_row < s->range_end &&
			s->groups[i].entry.rg_first_row + s->groups[i].entry.rg_nrows > s->range_start)
			return i;
	}
}

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
 * Move a forward scan to its next chunk that the filter (if any) does not
 * rule out, claiming and opening further units as needed.  Returns false at
 * the end of the scan, which is left past its last unit.
 */
static bool
AdvanceChunk(ColstoreScanDesc s, TupleDesc desc)
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
		next = ClaimNextGroup(s);
		if (next < 0)
		{
			s->cur_group = -1;
			s->next_group = s->ngroups;
			return false;
		}
		ScanOpenGroup(s, next);
	}
}

/*
 * Store row pos of the current chunk in slot: lazily in a colstore slot,
 * decoding every column for other slot types.
 */
void
ScanStoreRow(ColstoreScanDesc s, int pos, TupleTableSlot *slot)
{
	const ScanGroup *g = &s->groups[s->cur_group];

	ExecClearTuple(slot);
	if (TTS_IS_COLSTORE(slot))
		ColstoreSlotStoreLazy(slot, FillFromChunk, s, pos, s->chunk_generation);
	else
	{
		FillFromChunk(s, pos, s->chunk_generation, slot, 0,
					  slot->tts_tupleDescriptor->natts);
		StoreFilledSlot(slot);
	}
	s->last_liveness = s->row_mask != NULL ? s->row_mask[pos] : ROW_LIVE;
	if (s->header == NULL)
	{
		HeapTupleHeader tup = s->delta_tuples[pos]->t_data;
		TransactionId xmin = HeapTupleHeaderGetXmin(tup);

		ColstoreSlotSetInsertInfo(slot, xmin,
								  TransactionIdIsCurrentTransactionId(xmin) ?
								  HeapTupleHeaderGetCmin(tup) : FirstCommandId);
		DeltaPageRowOfItem(&g->entry, s->delta_offsets[pos], &slot->tts_tid);
	}
	else
	{
		ColstoreSlotSetInsertInfo(slot, g->entry.rg_xmin, g->entry.rg_cmin);
		RowNumberToItemPointer(g->entry.rg_first_row +
							   s->header->chunk_first_row[s->cur_chunk] + pos,
							   &slot->tts_tid);
	}
	slot->tts_tableOid = RelationGetRelid(s->rs_base.rs_rd);
}


/* ... or one the row filter removed (forward scans)? */
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

/*
 * Run the row filter (if any) over the current chunk, which a forward scan
 * has just selected: row_selected[] marks the rows to return.  Columns the
 * filter reads are decoded for the whole chunk and reused by the rows
 * returned; the other columns are decoded only if some row is returned.
 * The rows removed are counted unless the chunk was filtered before (count
 * false).
 */
static void
ApplyRowFilter(ColstoreScanDesc s, bool count)
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
 * ColstoreScanNextBatch
 *		Batch access for a forward serial or parallel scan: move to the next
 *		chunk (of the next visible row group, if needed) that the filter
 *		does not rule out, and return its row count, or -1 at the end.  The
 *		chunk's columns, typed by desc, are then read with
 *		ColstoreScanBatchColumn and ColstoreScanBatchNulls; their data stays
 *		valid until the next call.  The chunk's rows count as consumed, so
 *		a scan is read either by batches or by rows, not both.
 */
int
ColstoreScanNextBatch(TableScanDesc scan, TupleDesc desc)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	Relation	rel = scan->rs_rd;

	if (!AdvanceChunk(s, desc))
		return -1;
	s->chunk_pos = s->chunk_rows;
	/* seq_tup_read, as row-by-row scans count it */
	if (pgstat_should_count_relation(rel))
		PgStatTuplesReturned(rel->pgstat_info) += s->chunk_rows;
	return s->chunk_rows;
}

/* Decoded values and NULL flags of column att (0-based) of the batch. */
void
ColstoreScanBatchColumn(TableScanDesc scan, int att, Datum **values, bool **isnull)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	Assert(s->cur_chunk >= 0 && att < s->chunk_desc->natts);
	DecodeColumn(s, att);
	*values = s->values[att];
	*isnull = s->isnull[att];
}

/*
 * ColstoreScanBatchScaled
 *		For a numeric column att (0-based) stored in the batch's chunk in the
 *		scaled-integer encoding: its values as int64s times 10^*scale, their
 *		display scales and NULL flags, without building numerics; returns
 *		false (read ColstoreScanBatchColumn then) for other encodings, delta
 *		pages and columns the chunk does not store.  The arrays are read once
 *		per batch, shared by all callers (read only) and valid until the
 *		next batch.
 */
bool
ColstoreScanBatchScaled(TableScanDesc scan, int att, int64 **values,
						int64 **dscales, bool **isnull, int *scale)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;
	ScaledColumn *col = &s->scaled[att];

	Assert(s->cur_chunk >= 0 && att < s->chunk_desc->natts);
	if (s->header == NULL)
		return false;
	if (!col->read || col->generation != s->chunk_generation)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(s->chunk_cxt);

		col->isnull = palloc(sizeof(bool) * s->chunk_rows);
		col->scaled = RowGroupReadScaledChunk(s->rs_base.rs_rd, s->header,
											  s->chunk_desc, att, s->cur_chunk,
											  &col->values, &col->dscales,
											  col->isnull, &col->scale);
		MemoryContextSwitchTo(oldcxt);
		col->generation = s->chunk_generation;
		col->read = true;
	}
	if (!col->scaled)
		return false;
	*values = col->values;
	*dscales = col->dscales;
	*isnull = col->isnull;
	*scale = col->scale;
	return true;
}

/*
 * NULLs of column att in the batch, from the row group header without
 * decoding, or -1 if the header does not know (the column was added after
 * the row group was written: its rows read as the column's missing value;
 * or the batch is a delta page, or has rows the scan does not return).
 */
int
ColstoreScanBatchNulls(TableScanDesc scan, int att)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	Assert(s->cur_chunk >= 0);
	if (s->header == NULL || s->row_mask != NULL || att >= s->header->natts)
		return -1;
	return (int) RowGroupChunk(s->header, att, s->cur_chunk)->cd_nnulls;
}

/*
 * ColstoreScanBatchSelect
 *		If the scan does not return every row of the batch (deleted rows),
 *		set selected[i] to whether it returns row i and return true; else
 *		return false and leave selected alone.
 */
bool
ColstoreScanBatchSelect(TableScanDesc scan, bool *selected)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;
	int			i;

	if (s->row_mask == NULL)
		return false;
	for (i = 0; i < s->chunk_rows; i++)
		selected[i] = !RowHidden(s, i);
	return true;
}

/*
 * ColstoreScanRowIsAlive
 *		For scans with SnapshotAny (index builds): false if the row returned
 *		last is a version that is dead to some snapshots only (deleted or
 *		updated by a committed or our own transaction).
 */
bool
ColstoreScanRowIsAlive(TableScanDesc scan)
{
	return ((ColstoreScanDesc) scan)->last_liveness == ROW_LIVE;
}

/* Add the scan's row group and chunk counts (since it began) to *counters. */
void
ColstoreScanAddCounters(TableScanDesc scan, ColstoreScanCounters *counters)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	counters->groups_read += s->counters.groups_read;
	counters->groups_skipped += s->counters.groups_skipped;
	counters->chunks_read += s->counters.chunks_read;
	counters->chunks_skipped += s->counters.chunks_skipped;
	counters->rows_filtered += s->counters.rows_filtered;
}

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

bool
colstore_scan_getnextslot(TableScanDesc scan, ScanDirection direction,
						  TupleTableSlot *slot)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	if (direction == BackwardScanDirection)
		return ScanBackward(s, slot);
	for (;;)
	{
		if (s->cur_chunk >= 0 && s->chunk_pos < s->chunk_rows)
		{
			if (slot->tts_tupleDescriptor != s->chunk_desc)
			{
				int			pos = s->chunk_pos;

				ScanSelectChunk(s, s->cur_chunk, slot->tts_tupleDescriptor);
				ApplyRowFilter(s, false);
				s->chunk_pos = pos;
			}
			if (RowSkipped(s, s->chunk_pos))
			{
				s->chunk_pos = NextSelectedRow(s, s->chunk_pos + 1);
				continue;
			}
			ScanStoreRow(s, s->chunk_pos++, slot);
			if (!RowQualifies(s, slot))
				continue;
			pgstat_count_heap_getnext(scan->rs_rd);
			return true;
		}
		if (!AdvanceChunk(s, slot->tts_tupleDescriptor))
		{
			/* past the end; a backward step restarts from the last row */
			ExecClearTuple(slot);
			return false;
		}
		ApplyRowFilter(s, true);
	}
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
		ForgetChunk(s);
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
		ForgetChunk(s);
		s->cur_chunk = -1;
		s->chunk_rows = s->chunk_pos = 0;
		return;
	}
	if (s->cur_chunk != pos->chunk || s->chunk_desc != desc)
	{
		ScanSelectChunk(s, pos->chunk, desc);
		ApplyRowFilter(s, false);
	}
	s->chunk_pos = Min(pos->row, s->chunk_rows);
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

/* ----------------------------------------------------------------
 * Parallel scan
 * ----------------------------------------------------------------
 */

Size
colstore_parallelscan_estimate(Relation rel)
{
	return sizeof(ParallelColstoreScanDescData);
}

Size
colstore_parallelscan_initialize(Relation rel, ParallelTableScanDesc pscan)
{
	ParallelColstoreScanDesc p = (ParallelColstoreScanDesc) pscan;

	ParallelScanSetRelation(&p->base, rel);
	p->base.phs_syncscan = false;
	pg_atomic_init_u32(&p->next_group, 0);
	return sizeof(ParallelColstoreScanDescData);
}

void
colstore_parallelscan_reinitialize(Relation rel, ParallelTableScanDesc pscan)
{
	ParallelColstoreScanDesc p = (ParallelColstoreScanDesc) pscan;

	pg_atomic_write_u32(&p->next_group, 0);
}
