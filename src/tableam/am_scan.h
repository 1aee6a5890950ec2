/*-------------------------------------------------------------------------
 *
 * am_scan.h
 *	  Table AM scan callbacks of colstore.
 *
 * IDENTIFICATION
 *	  src/tableam/am_scan.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AM_SCAN_H
#define AM_SCAN_H

#include "access/relscan.h"
#include "access/tableam.h"
#include "executor/tuptable.h"
#include "nodes/tidbitmap.h"
#include "pg_compat.h"
#if PG_ANALYZE_READS_STREAM
#include "storage/read_stream.h"
#endif

struct SampleScanState;
struct RowGroupHeader;

/* Returns true if chunk chunkno of the row group h can be skipped. */
typedef bool (*ColstoreChunkFilter) (void *arg, const struct RowGroupHeader *h,
									 uint32 chunkno);

/*
 * Clears selected[i] for each of the nrows rows of the scan's current chunk
 * that the caller's quals would reject (read with ColstoreScanBatchColumn).
 */
typedef void (*ColstoreRowFilter) (void *arg, TableScanDesc scan, int nrows,
								   bool *selected);

/* Where a serial forward scan stands (ColstoreScanGetPosition). */
typedef struct ColstoreScanPosition
{
	int			group;			/* current unit, or -1 */
	int			next_group;		/* next unit to claim */
	int			chunk;			/* current chunk, or -1 */
	int			row;			/* next row of the chunk */
} ColstoreScanPosition;

/* What a scan read and skipped, for EXPLAIN ANALYZE. */
typedef struct ColstoreScanCounters
{
	uint64		groups_read;
	uint64		groups_skipped;
	uint64		chunks_read;
	uint64		chunks_skipped;
	uint64		rows_filtered;	/* removed by the row filter */
} ColstoreScanCounters;

extern TableScanDesc colstore_scan_begin(Relation rel, Snapshot snapshot,
										 int nkeys, struct ScanKeyData *key,
										 ParallelTableScanDesc pscan,
										 uint32 flags);
extern void colstore_scan_end(TableScanDesc scan);
extern void colstore_scan_rescan(TableScanDesc scan, struct ScanKeyData *key,
								 bool set_params, bool allow_strat,
								 bool allow_sync, bool allow_pagemode);
extern bool colstore_scan_getnextslot(TableScanDesc scan,
									  ScanDirection direction,
									  TupleTableSlot *slot);
extern Size colstore_parallelscan_estimate(Relation rel);
extern Size colstore_parallelscan_initialize(Relation rel,
											 ParallelTableScanDesc pscan);
extern void colstore_parallelscan_reinitialize(Relation rel,
											   ParallelTableScanDesc pscan);
#if PG_ANALYZE_READS_STREAM
extern bool colstore_scan_analyze_next_block(TableScanDesc scan,
											 ReadStream *stream);
#else
extern bool colstore_scan_analyze_next_block(TableScanDesc scan,
											 BlockNumber blockno,
											 BufferAccessStrategy bstrategy);
#endif
extern bool colstore_scan_analyze_next_tuple(TableScanDesc scan,
											 TransactionId OldestXmin,
											 double *liverows,
											 double *deadrows,
											 TupleTableSlot *slot);
#if PG_BITMAP_SCAN_IN_AM
extern bool colstore_scan_bitmap_next_tuple(TableScanDesc scan,
											TupleTableSlot *slot,
											bool *recheck,
											uint64 *lossy_pages,
											uint64 *exact_pages);
#else
extern bool colstore_scan_bitmap_next_block(TableScanDesc scan,
											TBMIterateResult *tbmres);
extern bool colstore_scan_bitmap_next_tuple(TableScanDesc scan,
											TBMIterateResult *tbmres,
											TupleTableSlot *slot);
#endif
extern bool colstore_scan_sample_next_block(TableScanDesc scan,
											struct SampleScanState *scanstate);
extern bool colstore_scan_sample_next_tuple(TableScanDesc scan,
											struct SampleScanState *scanstate,
											TupleTableSlot *slot);
extern void ColstoreScanSetRowRange(TableScanDesc scan, uint64 start, uint64 end);
extern void ColstoreScanConfigure(TableScanDesc scan, const bool *needed,
								  int natts, ColstoreChunkFilter filter,
								  void *filter_arg);
extern void ColstoreScanSetRowFilter(TableScanDesc scan,
									 ColstoreRowFilter filter, void *arg);
extern void ColstoreScanAddCounters(TableScanDesc scan,
									ColstoreScanCounters *counters);
extern int	ColstoreScanNextBatch(TableScanDesc scan, TupleDesc desc);
extern void ColstoreScanBatchColumn(TableScanDesc scan, int att, Datum **values,
									bool **isnull);
extern bool ColstoreScanBatchScaled(TableScanDesc scan, int att, int64 **values,
									int64 **dscales, bool **isnull, int *scale);
extern bool ColstoreScanBatchSelect(TableScanDesc scan, bool *selected);
extern bool ColstoreScanRowIsAlive(TableScanDesc scan);
extern int	ColstoreScanBatchNulls(TableScanDesc scan, int att);
extern bool ColstoreScanReturnsSortedBy(TableScanDesc scan, int attno);
extern void ColstoreScanGetPosition(TableScanDesc scan, ColstoreScanPosition *pos);
extern void ColstoreScanSetPosition(TableScanDesc scan,
									const ColstoreScanPosition *pos,
									TupleDesc desc);
extern bool colstore_tuple_tid_valid(TableScanDesc scan, ItemPointer tid);

#endif							/* AM_SCAN_H */
