/*-------------------------------------------------------------------------
 *
 * scan_engine.c
 *	  The core of the scan engine: a scan's descriptor and units, the chunk
 *	  it stands on, and its rows stored in slots.
 *
 * A scan takes, at its start, a copy of the directory's row groups and
 * delta pages in row number order together with their visibility to the
 * scan's snapshot (a row group's visibility is the same for all its rows).
 * Whatever reads it (scan_walk.c, scan_batch.c, scan_position.c) opens one
 * unit at a time (ScanOpenGroup) and selects one of its chunks
 * (ScanSelectChunk); a delta page is read as one chunk.  A chunk's columns
 * are decoded on demand (ScanDecodeColumn), into buffers kept from chunk to
 * chunk.  Rows are stored in colstore slots lazily (am_slot.c): a column's
 * chunk is decoded only when the executor first asks for that column of a
 * row of the chunk, so a query decodes only the columns up to the last one
 * it reads.  Values point into the scan's chunk memory, valid until the
 * chunk changes; slots of other types get every column at once.
 *
 * TIDs name row numbers (rowgroup_format.h).
 *
 * IDENTIFICATION
 *	  src/tableam/scan_engine.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/relscan.h"
#include "access/skey.h"
#include "access/tableam.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "pgstat.h"
#include "storage/predicate.h"
#include "storage/procarray.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "encoding/numeric_encoding.h"
#include "mvcc/hot_chain.h"
#include "mvcc/row_state.h"
#include "mvcc/visibility.h"
#include "storage/copy_positions.h"
#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/promotion_map.h"
#include "storage/rowgroup_builder.h"
#include "storage/rowgroup_reader.h"
#include "storage/write_buffer.h"
#include "tableam/am_slot.h"
#include "tableam/scan_engine.h"
#include "tableam/scan_engine_internal.h"

/* ----------------------------------------------------------------
 * The scan's life: units listed at the start and at each rescan
 * ----------------------------------------------------------------
 */

static void ScanChainMembers(ColstoreScanDesc s, int c, uint8 *mask);

/*
 * ScanForgetChunk
 *		Drop the decoded chunk: its memory, its columns and its row mask.
 *		Lazy rows stored from it see the generation change and refuse to
 *		read it.
 */
void
ScanForgetChunk(ColstoreScanDesc s)
{
	MemoryContextReset(s->chunk_cxt);
	memset(s->decoded, 0, sizeof(bool) * s->max_natts);
	s->row_mask = NULL;
	s->row_selected = NULL;
	s->row_kept = PG_INT32_MAX;
	s->chain_members = NULL;
	s->chunk_generation++;
}

/* First row of entry i of index array a (n entries), or beyond every row. */
static uint64
FirstRowAt(ColstoreDirectory *dir, const int *a, int n, int i)
{
	return i < n ? dir->entries[a[i]].rg_first_row : PG_UINT64_MAX;
}

/*
 * Copy the directory's row groups and delta pages, in row number order, and
 * judge the row groups' visibility once.  A parallel scan lists the invalid
 * (retired or freed) delta pages too, as units nobody reads (see below).
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
	int			xi = 0;
	int			ndead = s->rs_base.rs_parallel != NULL ? dir->ndead_deltas : 0;

	MemoryContextReset(s->scan_cxt);
	s->copy_positions = NULL;
	s->ngroups = dir->ngroups + dir->ndeltas + ndead;
	s->identity = dir->identity;
	s->groups = MemoryContextAlloc(s->scan_cxt, sizeof(ScanGroup) * (s->ngroups + 1));
	if (snapshot == NULL || snapshot->snapshot_type == SNAPSHOT_ANY)
		s->oldest_xmin = GetOldestNonRemovableTransactionId(rel);
	for (i = 0; i < s->ngroups; i++)
	{
		ScanGroup  *g = &s->groups[i];
		uint64		group_row = FirstRowAt(dir, dir->groups, dir->ngroups, gi);
		uint64		delta_row = FirstRowAt(dir, dir->deltas, dir->ndeltas, di);
		uint64		dead_row = FirstRowAt(dir, dir->dead_deltas, ndead, xi);

		if (dead_row < group_row && dead_row < delta_row)
		{
			/* retired or freed delta page: no rows (parallel scans only) */
			g->dir_index = dir->dead_deltas[xi++];
			g->entry = dir->entries[g->dir_index];
			g->is_delta = true;
			g->dead = true;
			g->visible = false;
			continue;
		}
		if (delta_row < group_row)
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
	 * sees), so every participant keeps them, and reads none.  Delta pages
	 * registered in between sort last and hold no row the snapshot sees (rows
	 * the snapshot sees were committed after their page was registered).
	 * Delta pages VACUUM retired in between (delta_retire.c) are read by a
	 * participant that read the directory earlier (finding no row the
	 * snapshot sees: its page was empty when retired, and a tuple heap put
	 * there since is younger than the snapshot) and listed unread by the
	 * others, so every participant keeps the invalid delta pages, which
	 * LoadGroups listed (with EMPTIED, or FREED by truncation, which no
	 * parallel scan can overlap: it runs under an AccessExclusiveLock).
	 */
	if (s->rs_base.rs_parallel != NULL)
	{
		int			kept = 0;

		for (i = 0; i < s->ngroups; i++)
			if (s->groups[i].visible || (s->groups[i].entry.rg_flags & RG_FLAG_EMPTIED) ||
				s->groups[i].is_delta)
				s->groups[kept++] = s->groups[i];
		s->ngroups = kept;
	}
	s->next_group = 0;
	s->cur_group = -1;
	s->cur_chunk = -1;
	s->chunk_rows = s->chunk_pos = 0;
	s->header = NULL;
	ScanForgetChunk(s);
	ScanPrefetchReset(s);
	s->tid.cur_block = InvalidBlockNumber;
	s->tid.bm_index = 0;
#if PG_BITMAP_SCAN_IN_AM
	s->tid.bm_noffsets = 0;
#endif
}

/*
 * ColstoreScanBegin
 *		Start a scan of rel (scan_begin): the caller's rows still in this
 *		backend's write buffer are written first, the units are listed with
 *		their visibility to snapshot (NULL: ANALYZE, what VACUUM would keep;
 *		SnapshotAny: index builds), and under SERIALIZABLE the relation is
 *		predicate-locked, as heap's sequential scans do.  The descriptor and
 *		its memory contexts are allocated in CurrentMemoryContext; pscan
 *		(or NULL) is the parallel scan's shared state (scan_parallel.c).
 *		May error reading the directory.
 */
TableScanDesc
ColstoreScanBegin(Relation rel, Snapshot snapshot, int nkeys,
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
	ScanPrefetchBegin(s);
	LoadGroups(s);
	if (flags & SO_TYPE_SEQSCAN)
		pgstat_count_heap_scan(rel);
	return (TableScanDesc) s;
}

/*
 * End a scan: release the pages read ahead and free everything
 * ColstoreScanBegin allocated (scan_end).
 */
void
ColstoreScanEnd(TableScanDesc scan)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	ScanPrefetchEnd(s);
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

/*
 * ColstoreScanRescan
 *		Restart a scan from its beginning (scan_rescan), with new scan keys
 *		if key is not NULL.  The units are listed again, so the rescan sees
 *		row groups written since, as its snapshot allows.
 */
void
ColstoreScanRescan(TableScanDesc scan, struct ScanKeyData *key)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	if (key != NULL && scan->rs_nkeys > 0)
		memcpy(scan->rs_key, key, sizeof(ScanKeyData) * scan->rs_nkeys);
	MemoryContextReset(s->chunk_cxt);
	MemoryContextReset(s->group_cxt);
	LoadGroups(s);
}

/* ----------------------------------------------------------------
 * The current unit and chunk, and its columns decoded on demand
 * ----------------------------------------------------------------
 */

/*
 * ScanOpenGroup
 *		Make group i current, reading its row group header (or collecting
 *		a delta page's rows the snapshot sees) into group_cxt; no chunk is
 *		selected yet.  Pages are read through the scan's prefetcher, if it
 *		has one (scan_prefetch.c).  May error on a corrupt header.
 */
void
ScanOpenGroup(ColstoreScanDesc s, int i)
{
	MemoryContext oldcxt;

	ScanForgetChunk(s);
	MemoryContextReset(s->group_cxt);
	oldcxt = MemoryContextSwitchTo(s->group_cxt);
	if (s->groups[i].is_delta)
	{
		s->header = NULL;
		s->delta_tuples = palloc(sizeof(HeapTuple) * MaxHeapTuplesPerPage);
		s->delta_offsets = palloc(sizeof(OffsetNumber) * MaxHeapTuplesPerPage);
		s->delta_starts = palloc(sizeof(OffsetNumber) * MaxHeapTuplesPerPage);
		s->delta_start_kinds = palloc(sizeof(uint8) * MaxHeapTuplesPerPage);
		s->delta_liveness = palloc(sizeof(uint8) * MaxHeapTuplesPerPage);
		s->delta_rows = DeltaPageCollect(s->rs_base.rs_rd, s->prefetch,
										 s->groups[i].entry.rg_header.sp_block,
										 s->rs_base.rs_snapshot, s->oldest_xmin,
										 s->delta_tuples, s->delta_offsets,
										 s->delta_starts, s->delta_start_kinds,
										 s->delta_liveness);
	}
	else
		s->header = RowGroupReadHeaderPrefetched(s->rs_base.rs_rd, s->prefetch,
												 s->identity,
												 s->groups[i].dir_index,
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
 * is decoded yet (ScanDecodeColumn does that on demand).
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
	ScanForgetChunk(s);
	s->chunk_desc = desc;
	s->cur_chunk = c;
	s->chunk_pos = 0;
	if (s->header == NULL)
	{
		s->chunk_rows = s->delta_rows;
		s->row_mask = s->delta_liveness;
		if (s->index_build)
		{
			int			pos;

			/* chains rooted at copies are indexed at their rows' places */
			for (pos = 0; pos < s->delta_rows; pos++)
				if (ScanDeltaRowOfCopy(s, pos, NULL))
					s->delta_liveness[pos] = ROW_HIDDEN;
		}
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
		{
			s->row_mask = mask;
			if (s->index_build)
				ScanChainMembers(s, c, mask);
		}
	}
}

/*
 * For an index build: the rows of chunk c of the current row group whose
 * own version is not alive and whose promoted copy roots a HOT chain
 * (storage/delta_chain.c) are returned as the chain's member to index under
 * the row's TID (mvcc/hot_chain.c), as heap's build indexes a chain's live
 * member under its root, in the row's place, so that the rows come in TID
 * order (BRIN's build and CREATE INDEX CONCURRENTLY's validation need it).
 * A row whose own version is recently dead is then left out, as heap's
 * build leaves out a HOT-updated version that is not alive.
 */
static void
ScanChainMembers(ColstoreScanDesc s, int c, uint8 *mask)
{
	Relation	rel = s->rs_base.rs_rd;
	const RowGroupDirEntry *e = &s->groups[s->cur_group].entry;
	uint32		first = s->header->chunk_first_row[c];
	ItemPointerData *copies;
	bool	   *deleted;
	int			pos;
	MemoryContext oldcxt = MemoryContextSwitchTo(s->chunk_cxt);

	copies = palloc(sizeof(ItemPointerData) * Max(s->chunk_rows, 1));
	deleted = palloc(sizeof(bool) * Max(s->chunk_rows, 1));
	/* a row deleted for everyone has no chain: its copy reads invalid */
	(void) PromotionMapGetRange(rel, e, first, (uint32) s->chunk_rows, copies, deleted,
								NULL);
	for (pos = 0; pos < s->chunk_rows; pos++)
	{
		HeapTuple	member = NULL;
		bool		broken = false;
		RowLiveness live;

		if (mask[pos] == ROW_LIVE || !ItemPointerIsValid(&copies[pos]))
			continue;
		live = HotChainMemberForScan(rel, &copies[pos], s->rs_base.rs_snapshot,
									 s->oldest_xmin, &member, &broken);
		if (live == ROW_HIDDEN && !broken)
			continue;			/* no chain: a deleted row */
		if (mask[pos] == ROW_RECENTLY_DEAD)
			broken = true;		/* the row's own version, HOT-updated */
		s->broken_chain |= broken;
		if (s->chain_members == NULL)
			s->chain_members = palloc0(sizeof(HeapTuple) * s->chunk_rows);
		s->chain_members[pos] = member;
		mask[pos] = (uint8) live;
	}
	MemoryContextSwitchTo(oldcxt);
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

/* Decode column att of the current chunk, unless done already. */
void
ScanDecodeColumn(ColstoreScanDesc s, int att)
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
	ScanPrefetchNoteColumn(s, att);
}

/*
 * A scaled column is read row by row (ScanReadScaled) when fewer than one in
 * SCALED_SPARSE_RATIO of the chunk's rows are wanted: a row then costs a few
 * loads from the packed streams, where decoding the chunk costs every row's
 * unpacking and copies (SCALED_SPARSE_RATIO, scan_engine_internal.h).
 */

/*
 * Open column att of the current chunk for row by row reads into col, if
 * the chunk stores it as scaled integers (else leave col->scaled false).
 * The whole image is validated here (RowGroupOpenChunkReader: CRC, bounds,
 * every display scale), before any row is read from it.
 */
static void
OpenScaledRows(ColstoreScanDesc s, int att, ScaledColumn *col)
{
	Form_pg_attribute a = TupleDescAttr(s->chunk_desc, att);
	int			nnulls;

	col->scaled = false;
	if (a->attisdropped || att >= s->header->natts || a->atttypid != NUMERICOID ||
		RowGroupChunk(s->header, att, s->cur_chunk)->cd_encoding !=
		CHUNK_ENCODING_SCALED_NUMERIC)
		return;
	col->reader = RowGroupOpenChunkReader(s->rs_base.rs_rd, s->header,
										  s->chunk_desc, att, s->cur_chunk);
	/* a header that disagrees with the image: decode it as it is */
	if (!ChunkReaderScaled(col->reader, &col->scale, &nnulls))
		return;
	col->scaled = true;
	col->whole = false;
	col->nonull = nnulls == 0;
	col->values = palloc(sizeof(int64) * s->chunk_rows);
	col->dscales = palloc(sizeof(int64) * s->chunk_rows);
	col->isnull = palloc(sizeof(bool) * s->chunk_rows);
	col->filled = palloc0(sizeof(bool) * s->chunk_rows);
}

/*
 * ScanReadScaled
 *		Column att of the current chunk as scaled integers, or NULL if the
 *		chunk does not store it in the scaled-integer encoding or is a delta
 *		page.  With rows NULL every row's entries are set; else at least
 *		those of rows[0 .. nrows - 1].  nwanted is how many rows of the
 *		chunk the caller expects to ask for in all: when they are few
 *		(SCALED_SPARSE_RATIO) the first call validates the chunk and reads
 *		only the rows asked for, later calls read theirs; else the chunk is
 *		decoded whole, once.  Memory in chunk_cxt.
 */
const ScaledColumn *
ScanReadScaled(ColstoreScanDesc s, int att, const int *rows, int nrows,
			   int nwanted)
{
	ScaledColumn *col = &s->scaled[att];
	MemoryContext oldcxt;

	if (s->header == NULL)
		return NULL;
	if (col->read && col->generation == s->chunk_generation &&
		(!col->scaled || col->whole))
		return col->scaled ? col : NULL;
	oldcxt = MemoryContextSwitchTo(s->chunk_cxt);
	if (!col->read || col->generation != s->chunk_generation)
	{
		col->generation = s->chunk_generation;
		col->read = true;
		col->reader = NULL;
		if (rows != NULL && (int64) nwanted * SCALED_SPARSE_RATIO < s->chunk_rows)
			OpenScaledRows(s, att, col);
		else
		{
			col->isnull = palloc(sizeof(bool) * s->chunk_rows);
			col->scaled = RowGroupReadScaledChunk(s->rs_base.rs_rd, s->header,
												  s->chunk_desc, att, s->cur_chunk,
												  &col->values, &col->dscales,
												  col->isnull, &col->scale);
			col->whole = true;
			col->nonull = col->scaled &&
				memchr(col->isnull, true, s->chunk_rows) == NULL;
		}
		ScanPrefetchNoteColumn(s, att);
	}
	if (col->scaled && !col->whole)
	{
		if (rows != NULL)
			ChunkReaderGetScaledRows(col->reader, rows, nrows, col->filled,
									 col->values, col->dscales, col->isnull);
		else
		{
			int			i;

			/* everything after all: read the rows not read yet */
			for (i = 0; i < s->chunk_rows; i++)
				ChunkReaderGetScaledRows(col->reader, &i, 1, col->filled,
										 col->values, col->dscales, col->isnull);
			col->whole = true;
		}
	}
	MemoryContextSwitchTo(oldcxt);
	return col->scaled ? col : NULL;
}

/* ----------------------------------------------------------------
 * Rows stored in slots
 * ----------------------------------------------------------------
 */

/*
 * A value of a numeric column for one row of a batch a row filter thinned
 * out: built alone from the chunk's scaled integers, so the rows the filter
 * dropped never have theirs built (that is most of the decoding cost of a
 * numeric chunk).  Also for a merge join's inner scan that skips rows below
 * the outer key (skip_sparse: the previous chunk returned under one in
 * SCALED_SPARSE_RATIO of its rows, so this one probably will too; which
 * rows is known only as the outer side advances).  False if the chunk is
 * stored otherwise (decode it whole).
 */
static bool
FillScaledNumeric(ColstoreScanDesc s, int att, int pos, TupleTableSlot *slot)
{
	const ScaledColumn *col;
	MemoryContext oldcxt;

	if (TupleDescAttr(s->chunk_desc, att)->atttypid != NUMERICOID)
		return false;
	col = ScanReadScaled(s, att, &pos, 1, s->skip_sparse ? 0 : s->row_kept);
	if (col == NULL)
		return false;
	slot->tts_isnull[att] = col->isnull[pos];
	if (col->isnull[pos])
	{
		slot->tts_values[att] = (Datum) 0;
		return true;
	}
	oldcxt = MemoryContextSwitchTo(s->chunk_cxt);
	slot->tts_values[att] = numeric_from_scaled(col->values[pos], col->scale,
												(int) col->dscales[pos]);
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
		if ((s->row_filter != NULL || s->skip_sparse) && !s->decoded[att] &&
			FillScaledNumeric(s, att, pos, slot))
			continue;
		ScanDecodeColumn(s, att);
		slot->tts_values[att] = s->values[att][pos];
		slot->tts_isnull[att] = s->isnull[att][pos];
	}
}

/*
 * ScanStoreRow
 *		Store row pos of the current chunk in slot: lazily in a colstore
 *		slot, decoding every column for other slot types; with its TID, its
 *		inserter (for the slot's xmin and cmin) and the table's OID.  The
 *		row's liveness becomes last_liveness (ColstoreScanRowIsAlive).
 */
void
ScanStoreRow(ColstoreScanDesc s, int pos, TupleTableSlot *slot)
{
	const ScanGroup *g = &s->groups[s->cur_group];

	ExecClearTuple(slot);
	if (s->chain_members != NULL && s->chain_members[pos] != NULL)
	{
		/* an index build's HOT chain member, in its row's place */
		HeapTuple	member = s->chain_members[pos];
		TransactionId xmin = HeapTupleHeaderGetXmin(member->t_data);

		HeapTupleCheckShape(s->rs_base.rs_rd, member, slot->tts_tupleDescriptor);
		heap_deform_tuple(member, slot->tts_tupleDescriptor, slot->tts_values,
						  slot->tts_isnull);
		StoreFilledSlot(slot);
		s->last_liveness = s->row_mask[pos];
		s->last_pos = pos;
		ColstoreSlotSetInsertInfo(slot, xmin,
								  TransactionIdIsCurrentTransactionId(xmin) ?
								  HeapTupleHeaderGetCmin(member->t_data) : FirstCommandId);
		RowNumberToItemPointer(g->entry.rg_first_row +
							   s->header->chunk_first_row[s->cur_chunk] + pos,
							   &slot->tts_tid);
		slot->tts_tableOid = RelationGetRelid(s->rs_base.rs_rd);
		return;
	}
	if (TTS_IS_COLSTORE(slot))
		ColstoreSlotStoreLazy(slot, FillFromChunk, s, pos, s->chunk_generation);
	else
	{
		FillFromChunk(s, pos, s->chunk_generation, slot, 0,
					  slot->tts_tupleDescriptor->natts);
		StoreFilledSlot(slot);
	}
	s->last_liveness = s->row_mask != NULL ? s->row_mask[pos] : ROW_LIVE;
	s->last_pos = pos;
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

/*
 * ScanDeltaRowOfCopy
 *		Does the HOT chain of the current delta page's row at pos start at a
 *		promoted copy (or at the redirect VACUUM made of a dead one)?  Then
 *		the chain's index entries are the copy's row's, and *row (may be
 *		NULL) is set to its TID.  The promotion maps are read once per scan,
 *		when first needed: after the scan's snapshot was taken, so they name
 *		every copy a version the scan sees descends from (but those this
 *		transaction promotes later, in a function the scan's query calls:
 *		a copy the set lacks has them read again).  A copy no map names
 *		is corruption.
 */
bool
ScanDeltaRowOfCopy(ColstoreScanDesc s, int pos, ItemPointer row)
{
	Relation	rel = s->rs_base.rs_rd;
	ItemPointerData start;

	if (s->delta_start_kinds[pos] == CHAIN_START_VERSION)
		return false;
	if (s->copy_positions == NULL)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(s->scan_cxt);

		s->copy_positions = CopyPositionsBuild(rel);
		MemoryContextSwitchTo(oldcxt);
	}
	ItemPointerSet(&start, s->groups[s->cur_group].entry.rg_header.sp_block,
				   s->delta_starts[pos]);
	if (CopyPositionsLookup(s->copy_positions, &start, row))
		return true;
	if (s->delta_start_kinds[pos] != CHAIN_START_COPY)
		return false;			/* another chain's redirect */

	/* a copy promoted since the set was read (by this transaction) */
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(s->scan_cxt);

		CopyPositionsFree(s->copy_positions);
		s->copy_positions = CopyPositionsBuild(rel);
		MemoryContextSwitchTo(oldcxt);
	}
	if (!CopyPositionsLookup(s->copy_positions, &start, row))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("colstore table \"%s\": promoted copy at (%u,%u) roots a HOT chain but no promotion map names it",
								 RelationGetRelationName(rel),
								 ItemPointerGetBlockNumber(&start),
								 ItemPointerGetOffsetNumber(&start))));
	return true;
}

/*
 * ColstoreScanRowIndexTid
 *		For index builds: the TID the index entries of the row returned last
 *		must name, into *tid, and whether it is a version that was
 *		HOT-updated.  A version on a heap page is indexed under the item its
 *		HOT chain starts at (storage/delta_chain.c), as heap indexes a
 *		heap-only tuple under its root; a row-group row, or the member of the
 *		HOT chain its promoted copy roots, returned in its place
 *		(ColstoreScanSetIndexBuild), under the row's TID.
 */
void
ColstoreScanRowIndexTid(TableScanDesc scan, ItemPointer tid, bool *hot_updated)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;
	const ScanGroup *g = &s->groups[s->cur_group];

	*hot_updated = false;
	if (s->header != NULL)
		return;
	*hot_updated = HeapTupleHeaderIsHotUpdated(s->delta_tuples[s->last_pos]->t_data);
	DeltaPageRowOfItem(&g->entry, s->delta_starts[s->last_pos], tid);
}

/*
 * ColstoreScanSetIndexBuild
 *		Make scan, not started yet, return rows as an index build must index
 *		them: a HOT chain rooted at a row-group row's promoted copy is
 *		returned at the row's place (the member to index, under the row's
 *		TID), not on its heap page, so rows come in TID order.
 */
void
ColstoreScanSetIndexBuild(TableScanDesc scan)
{
	((ColstoreScanDesc) scan)->index_build = true;
}

/*
 * ColstoreScanBrokenHotChain
 *		Did an index build's scan leave out a HOT chain's version that some
 *		snapshot still sees (ii_BrokenHotChain)?
 */
bool
ColstoreScanBrokenHotChain(TableScanDesc scan)
{
	return ((ColstoreScanDesc) scan)->broken_chain;
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
