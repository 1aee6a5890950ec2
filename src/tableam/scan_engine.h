/*-------------------------------------------------------------------------
 *
 * scan_engine.h
 *	  The scan engine of colstore tables: the one interface through which
 *	  the table AM's scan callbacks (am_scan.c, am_scan_positioned.c) and
 *	  the custom scans (cscan/) read a table.
 *
 * A scan is a TableScanDesc the engine allocated (ColstoreScanBegin, which
 * table_beginscan reaches through colstore_scan_begin).  It holds, from its
 * start, the table's units (row groups and delta pages) in row number order
 * with their visibility to the scan's snapshot, and walks them chunk by
 * chunk.  It is read in one of three ways:
 *	- row by row (ColstoreScanGetNextSlot), forward or backward, optionally
 *	  narrowed by a custom scan (ColstoreScanConfigure, ...SetRowFilter) and
 *	  limited to a row number range (ColstoreScanSetRowRange);
 *	- by batches, one chunk at a time (ColstoreScanNextBatch and the
 *	  ColstoreScanBatch* accessors);
 *	- by row number, for bitmap, sample and ANALYZE scans
 *	  (ColstoreScanFetchRow).
 * Forward scans may be parallel: participants claim whole units.  A serial
 * forward scan can remember and return to a position (merge join's
 * mark/restore).
 *
 * The engine's files: scan_engine.c (the descriptor, units, chunk decoding
 * and rows stored in slots), scan_walk.c (the forward and backward walk and
 * its filters), scan_batch.c (batches), scan_position.c (positions and
 * fetches by row number), scan_parallel.c (parallel claiming).
 *
 * IDENTIFICATION
 *	  src/tableam/scan_engine.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCAN_ENGINE_H
#define SCAN_ENGINE_H

#include "access/relscan.h"
#include "access/sdir.h"
#include "executor/tuptable.h"
#include "utils/relcache.h"
#include "utils/snapshot.h"

struct ScanKeyData;
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

/*
 * Sets *bound to the least key the caller wants next and returns true, or
 * returns false if it wants every row (ColstoreScanSetSkipBelow).
 */
typedef bool (*ColstoreKeyBound) (void *arg, int64 *bound);

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
	uint64		rows_skipped;	/* below the skip bound */
} ColstoreScanCounters;

/* scan_engine.c: the scan's life, and rows as index builds see them */
extern TableScanDesc ColstoreScanBegin(Relation rel, Snapshot snapshot,
									   int nkeys, struct ScanKeyData *key,
									   ParallelTableScanDesc pscan,
									   uint32 flags);
extern void ColstoreScanEnd(TableScanDesc scan);
extern void ColstoreScanRescan(TableScanDesc scan, struct ScanKeyData *key);
extern bool ColstoreScanRowIsAlive(TableScanDesc scan);
extern void ColstoreScanRowIndexTid(TableScanDesc scan, ItemPointer tid,
									bool *hot_updated);
extern void ColstoreScanSetIndexBuild(TableScanDesc scan);
extern bool ColstoreScanBrokenHotChain(TableScanDesc scan);

/* scan_walk.c: reading row by row, and narrowing the walk */
extern bool ColstoreScanGetNextSlot(TableScanDesc scan, ScanDirection direction,
									TupleTableSlot *slot);
extern void ColstoreScanSetRowRange(TableScanDesc scan, uint64 start, uint64 end);
extern void ColstoreScanConfigure(TableScanDesc scan, const bool *needed,
								  int natts, ColstoreChunkFilter filter,
								  void *filter_arg);
extern void ColstoreScanSetRowFilter(TableScanDesc scan,
									 ColstoreRowFilter filter, void *arg);
extern void ColstoreScanSetSkipBelow(TableScanDesc scan, int att, Oid type,
									 ColstoreKeyBound bound, void *arg);
extern void ColstoreScanAddCounters(TableScanDesc scan,
									ColstoreScanCounters *counters);
extern bool ColstoreScanReturnsSortedBy(TableScanDesc scan, int attno);

/* A numeric column of a batch as scaled integers (ColstoreScanBatchScaledRows). */
typedef struct ColstoreScaledValues
{
	int64	   *values;			/* the values times 10^scale */
	int64	   *dscales;		/* their display scales */
	bool	   *isnull;
	int			scale;
	bool		nonull;			/* no row of the batch is NULL */
} ColstoreScaledValues;

/* scan_batch.c: reading a chunk at a time */
extern int	ColstoreScanNextBatch(TableScanDesc scan, TupleDesc desc);
extern void ColstoreScanBatchColumn(TableScanDesc scan, int att, Datum **values,
									bool **isnull);
extern bool ColstoreScanBatchScaled(TableScanDesc scan, int att, int64 **values,
									int64 **dscales, bool **isnull, int *scale);
extern bool ColstoreScanBatchScaledRows(TableScanDesc scan, int att,
										const int *rows, int nrows, int nwanted,
										ColstoreScaledValues *out);
extern bool ColstoreScanBatchNoNulls(TableScanDesc scan, int att);
extern bool ColstoreScanBatchSelect(TableScanDesc scan, bool *selected);
extern int	ColstoreScanBatchNulls(TableScanDesc scan, int att);

/* scan_position.c: positions of a serial walk, and rows by row number */
extern void ColstoreScanGetPosition(TableScanDesc scan, ColstoreScanPosition *pos);
extern void ColstoreScanSetPosition(TableScanDesc scan,
									const ColstoreScanPosition *pos,
									TupleDesc desc);

/* How ColstoreScanFetchRow takes a row number. */
typedef enum ColstoreFetchMode
{
	COLSTORE_FETCH_VERSION,		/* the version it names (ANALYZE, samples) */
	COLSTORE_FETCH_INDEXED,		/* an index entry's TID (exact bitmap pages) */
	COLSTORE_FETCH_LOSSY		/* every row of a lossy bitmap page */
} ColstoreFetchMode;

extern bool ColstoreScanFetchRow(TableScanDesc scan, uint64 rownum,
								 ColstoreFetchMode mode, TupleTableSlot *slot,
								 bool *dead);

/* scan_parallel.c: the shared state of a parallel scan */
extern Size ColstoreScanParallelSize(void);
extern void ColstoreScanParallelInitialize(Relation rel,
										   ParallelTableScanDesc pscan);
extern void ColstoreScanParallelReinitialize(ParallelTableScanDesc pscan);

#endif							/* SCAN_ENGINE_H */
