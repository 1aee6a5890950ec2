/*-------------------------------------------------------------------------
 *
 * cscan_path.h
 *	  Planner side of the colstore custom scan.
 *
 * IDENTIFICATION
 *	  src/cscan/cscan_path.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef CSCAN_PATH_H
#define CSCAN_PATH_H

#include "nodes/pathnodes.h"
#include "storage/block.h"
#include "storage/table_options.h"

/*
 * Decoding and folding or testing one value of a batch costs about a tenth
 * of evaluating one operator on a tuple (measured with bench/: GROUP BY,
 * TPC-H Q1/Q6); ColstoreScan's batch filter and ColstoreAgg both cost
 * their per-value work as this share of cpu_operator_cost.
 */
#define COLSTORE_PER_VALUE_COST_FACTOR	0.1

/*
 * Each parallel worker's start-up, as a share of parallel_setup_cost
 * (ColstoreWorkerStartupCost): a worker is a new process (fork, backend
 * start, page faults on the shared buffers and the memory it touches
 * first, exit), about 7 ms of CPU per worker on the 2-core machine of
 * bench/q6_shard.sh, where heap's serial Q6 runs at about 3 us of CPU per
 * cost unit: more than parallel_setup_cost again per worker.  Charged at
 * parallel_setup_cost, as the worker's start overlaps the leader's work.
 */
#define COLSTORE_WORKER_STARTUP_SHARE	1.0

/* colstore.enable_custom_scan */
extern bool colstore_enable_custom_scan;

extern double ColstoreScanShareRead(PlannerInfo *root, RelOptInfo *rel,
									int *npruning);
extern double ColstoreChunksWithPassingRows(double rows_passing, double rows_read,
											int chunk_size);
extern double ColstoreParallelDivisor(int workers);
extern Cost ColstoreWorkerStartupCost(int workers);
extern bool ColstoreTableOptions(Oid relid, ColstoreOptions *opts);
extern BlockNumber ColstorePhysicalPages(Oid relid);
extern Cost ColstoreHeapPagesCost(Oid relid, BlockNumber *heap_pages);
extern bool ColstoreRelReadsSystemColumns(RelOptInfo *rel, bool allow_ctid);
extern bool IsColstoreScanPath(Path *path);
extern AttrNumber ColstoreScanPathOrderColumn(Path *path);
extern Path *ColstoreScanPathInKeyRange(Path *path, AttrNumber attno, int lo_param,
										int hi_param);
extern void ColstoreScanPathInit(void);
extern void ColstoreScanPathDefineSettings(void);

#endif							/* CSCAN_PATH_H */
