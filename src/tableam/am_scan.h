/*-------------------------------------------------------------------------
 *
 * am_scan.h
 *	  Table AM scan callbacks of colstore (am_scan.c, am_scan_positioned.c).
 *	  The scan engine they call, which the custom scans use too, is
 *	  scan_engine.h.
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
struct ScanKeyData;

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
extern bool colstore_tuple_tid_valid(TableScanDesc scan, ItemPointer tid);

#endif							/* AM_SCAN_H */
