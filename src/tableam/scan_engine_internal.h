/*-------------------------------------------------------------------------
 *
 * scan_engine_internal.h
 *	  The scan descriptor of the scan engine and the functions its files
 *	  share (scan_engine.c, scan_walk.c, scan_batch.c, scan_position.c,
 *	  scan_parallel.c, scan_prefetch.c).  am_scan_positioned.c includes it
 *	  for the TID cursor of bitmap, sample and ANALYZE scans
 *	  (ColstoreScanDescData.tid) and touches nothing else.  Every other
 *	  caller uses scan_engine.h.
 *
 * IDENTIFICATION
 *	  src/tableam/scan_engine_internal.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCAN_ENGINE_INTERNAL_H
#define SCAN_ENGINE_INTERNAL_H

#include "access/relscan.h"
#include "nodes/tidbitmap.h"

#include "pg_compat.h"

#include "mvcc/row_state.h"
#include "storage/page_prefetch.h"
#include "storage/rowgroup_reader.h"
#include "tableam/scan_engine.h"

/*
 * A unit of the scan: a row group, or a delta page (a heap page of the
 * relation, whose rows are read as one chunk of its pseudo-block).
 */
typedef struct ScanGroup
{
	RowGroupDirEntry entry;
	uint32		dir_index;
	bool		is_delta;
	bool		visible;
	bool		dead;			/* aborted inserter */
} ScanGroup;

/*
 * A numeric column of the current chunk as scaled integers (ScanReadScaled):
 * every row decoded at once, or, when few rows are wanted, the chunk
 * validated whole but only the rows asked for read from it (filled[]).
 */
typedef struct ScaledColumn
{
	uint32		generation;		/* chunk_generation it was read in */
	bool		read;			/* read in that generation */
	bool		scaled;			/* stored as scaled integers: arrays set */
	bool		whole;			/* every row's entries are set */
	bool		nonull;			/* the chunk has no NULL in the column */
	int			scale;
	int64	   *values;
	int64	   *dscales;
	bool	   *isnull;
	struct ChunkReader *reader; /* !whole: the validated chunk */
	bool	   *filled;			/* !whole: rows whose entries are set */
} ScaledColumn;

/*
 * Arrays a column's decoded values and NULL flags go to, kept from chunk to
 * chunk: allocating them per chunk made malloc return and fetch the same
 * large blocks from the kernel for every chunk.
 */
typedef struct ColumnBuffer
{
	Datum	   *values;
	bool	   *isnull;
	int			rows;			/* room for this many rows */
} ColumnBuffer;

/*
 * Where a bitmap, sample or ANALYZE scan stands in the TID space (pseudo-
 * blocks of ROWS_PER_TID_BLOCK row numbers).  Owned by the callbacks of
 * am_scan_positioned.c; the engine only resets it, when the scan starts
 * and at each rescan.
 */
typedef struct ScanTidCursor
{
	BlockNumber cur_block;		/* InvalidBlockNumber: none yet */
	int			bm_index;
	OffsetNumber cur_offset;
#if PG_BITMAP_SCAN_IN_AM
	/* the current bitmap page's offsets; -1: lossy, every offset */
	int			bm_noffsets;
	bool		bm_recheck;
	OffsetNumber bm_offsets[TBM_MAX_TUPLES_PER_PAGE];
#endif
} ScanTidCursor;

typedef struct ColstoreScanDescData
{
	TableScanDescData rs_base;
	MemoryContext scan_cxt;		/* the group list */
	MemoryContext group_cxt;	/* header of the current group */
	MemoryContext chunk_cxt;	/* decoded chunk of the current group */
	ScanGroup  *groups;			/* all row groups, by first row */
	int			ngroups;
	int			next_group;		/* next group for a serial scan */
	int			cur_group;		/* -1: none */
	RowGroupHeader *header;		/* of the current group; NULL: delta page */
	int			cur_chunk;		/* -1: none decoded */
	int			chunk_rows;
	int			chunk_pos;		/* next row of the chunk to return */
	Datum	  **values;			/* [natts][chunk rows] */
	bool	  **isnull;
	bool	   *decoded;		/* [natts]: column decoded for cur_chunk */
	ScaledColumn *scaled;		/* [natts]: ColstoreScanBatchScaled's reads */
	ColumnBuffer *buffers;		/* [natts]: where values[]/isnull[] point */
	MemoryContext buffer_cxt;	/* the buffers' arrays */
	TupleDesc	chunk_desc;		/* descriptor the columns are decoded with */
	int			max_natts;		/* room in values/isnull/decoded */
	uint32		chunk_generation;	/* bumped whenever decoded data goes */
	/* RowLiveness of each row of the current chunk, or NULL: all ROW_LIVE */
	uint8	   *row_mask;
	uint8		last_liveness;	/* of the row returned last */
	int			last_pos;		/* its position in the current chunk */
	bool		ahead_armed;	/* chunk_cxt's reset callback withdraws the
								 * scan's rows ahead (scan_walk.c) */
	MemoryContextCallback ahead_callback;
	TransactionId oldest_xmin;	/* liveness horizon without an MVCC snapshot */
	uint64		identity;		/* the file's cm_identity when the groups were
								 * loaded: headers are looked up in the shared
								 * header cache under it */

	/*
	 * current delta page: its rows (copies), item numbers, and the items
	 * their HOT chains start at (storage/delta_chain.c)
	 */
	HeapTuple  *delta_tuples;
	OffsetNumber *delta_offsets;
	OffsetNumber *delta_starts;
	uint8	   *delta_start_kinds;	/* ChainStartKind of each start */

	/*
	 * index builds (ColstoreScanSetIndexBuild): rows are returned as their
	 * index entries must be made, a HOT chain rooted at a row's promoted copy
	 * at the row's place (chain_members[pos], or NULL: the row itself), and
	 * broken_chain is set when a chain's version was left out
	 */
	bool		index_build;
	HeapTuple  *chain_members;
	bool		broken_chain;
	/* the promoted copies' positions, read in scan_cxt when first needed */
	struct CopyPositions *copy_positions;
	uint8	   *delta_liveness;
	int			delta_rows;
	/* set by ColstoreScanConfigure (the custom scan); forward scans only */
	bool	   *needed;			/* [needed_natts]: columns to decode, or NULL */
	int			needed_natts;
	ColstoreChunkFilter filter; /* true: skip the chunk, or NULL */
	void	   *filter_arg;
	ColstoreRowFilter row_filter;	/* ColstoreScanSetRowFilter, or NULL */
	void	   *row_filter_arg;
	bool	   *row_selected;	/* [chunk_rows]: rows the filter kept, or NULL */
	int			row_kept;		/* how many it kept */
	ColstoreKeyBound skip_bound;	/* ColstoreScanSetSkipBelow, or NULL */
	void	   *skip_arg;
	int			skip_att;		/* its column (0-based) and type */
	Oid			skip_type;
	int			skip_returned;	/* rows of the current chunk returned */
	/* ... below this share the next chunk's numerics are built row by row */
#define SCALED_SPARSE_RATIO		4
	bool		skip_sparse;	/* the previous chunk returned few of its
								 * rows: build numerics row by row */
	bool		group_has_reads;	/* a chunk of cur_group was selected */
	ColstoreScanCounters counters;
	/* row number range of index_build_range_scan, [range_start, range_end) */
	uint64		range_start;
	uint64		range_end;
	ScanTidCursor tid;
	/* read-ahead of a sequential scan's pages (scan_prefetch.c) */
	PagePrefetch *prefetch;		/* NULL: pages are read directly */
	int			pf_fed;			/* units queued up to here */
	int			pf_stop;		/* a row group queued ahead of its chunks */
	int			pf_claimed;		/* the unit the forward walk claimed last */
	int			pf_natts;		/* room in pf_col_reads, pf_first_read,
								 * pf_order */
	int		   *pf_col_reads;	/* [pf_natts]: chunks of the group read per
								 * column */
	int		   *pf_first_read;	/* [pf_natts]: order of the columns' first
								 * reads in the group */
	int			pf_nread;		/* columns read so far in the group */
	int		   *pf_order;		/* [pf_npredict]: the columns to queue, in
								 * order */
	int			pf_npredict;
	bool		pf_learned;		/* pf_order learned from a row group */
	uint64		pf_chunks_at_open;	/* counters.chunks_read at group open */
} ColstoreScanDescData;

typedef ColstoreScanDescData *ColstoreScanDesc;

/* Is row pos of the current chunk one the scan must not return? */
#define RowHidden(s, pos) \
	((s)->row_mask != NULL && (s)->row_mask[pos] == ROW_HIDDEN)

/* Chunks of the current group: a delta page is read as one. */
#define GroupChunks(s)	((int) ((s)->header != NULL ? (s)->header->nchunks : 1))

/* scan_engine.c: units, chunks, columns and rows */
extern bool ScanDeltaRowOfCopy(ColstoreScanDesc s, int pos, ItemPointer row);
extern void ScanForgetChunk(ColstoreScanDesc s);
extern void ScanOpenGroup(ColstoreScanDesc s, int i);
extern void ScanSelectChunk(ColstoreScanDesc s, int c, TupleDesc desc);
extern void ScanDecodeColumn(ColstoreScanDesc s, int att);
extern const ScaledColumn *ScanReadScaled(ColstoreScanDesc s, int att,
										  const int *rows, int nrows,
										  int nwanted);
extern void ScanStoreRow(ColstoreScanDesc s, int pos, TupleTableSlot *slot);

/* scan_walk.c: the forward walk's next chunk, and its row filter */
extern bool ScanAdvanceChunk(ColstoreScanDesc s, TupleDesc desc);
extern void ScanApplyRowFilter(ColstoreScanDesc s, bool count);

/* scan_parallel.c: the next unit this participant reads */
extern int	ScanClaimNextGroup(ColstoreScanDesc s);
extern bool ScanUnitWanted(ColstoreScanDesc s, int i);

/* scan_prefetch.c: what a forward walk will read, told to the prefetcher */
extern void ScanPrefetchBegin(ColstoreScanDesc s);
extern void ScanPrefetchReset(ColstoreScanDesc s);
extern void ScanPrefetchEnd(ColstoreScanDesc s);
extern void ScanPrefetchNoteColumn(ColstoreScanDesc s, int att);
extern void ScanPrefetchUnit(ColstoreScanDesc s, int i);
extern void ScanPrefetchChunks(ColstoreScanDesc s);

#endif							/* SCAN_ENGINE_INTERNAL_H */
