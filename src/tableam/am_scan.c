/*-------------------------------------------------------------------------
 *
 * am_scan.c
 *	  The table AM's scan callbacks of colstore: sequential and parallel
 *	  scans (the "Operations on relation scans" and "Parallel table scan
 *	  related functions" of tableam.h).
 *
 * Each callback hands its call to the scan engine (scan_engine.h), which
 * lists a scan's row groups and delta pages with their visibility, walks
 * them chunk by chunk and stores rows in slots; the engine's batch and
 * position interface serves the custom scans (cscan/) too.  Bitmap, sample
 * and ANALYZE scans are in am_scan_positioned.c.
 *
 * IDENTIFICATION
 *	  src/tableam/am_scan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relscan.h"
#include "access/tableam.h"
#include "executor/tuptable.h"

#include "tableam/am_scan.h"
#include "tableam/scan_engine.h"

/* ----------------------------------------------------------------
 * Relation scans
 * ----------------------------------------------------------------
 */

/*
 * colstore_scan_begin
 *		Start a scan of rel with snapshot (ColstoreScanBegin: the rows this
 *		backend still buffers are written first, and the scan lists the
 *		units its snapshot sees).  nkeys scan keys (catalog-style scans)
 *		filter its rows; pscan is the parallel scan's shared state, or NULL.
 */
TableScanDesc
colstore_scan_begin(Relation rel, Snapshot snapshot, int nkeys,
					struct ScanKeyData *key, ParallelTableScanDesc pscan,
					uint32 flags)
{
	return ColstoreScanBegin(rel, snapshot, nkeys, key, pscan, flags);
}

/* End a scan and free it. */
void
colstore_scan_end(TableScanDesc scan)
{
	ColstoreScanEnd(scan);
}

/*
 * colstore_scan_rescan
 *		Restart a scan, with new scan keys if key is not NULL.  The strategy,
 *		syncscan and page mode flags are not used.
 */
void
colstore_scan_rescan(TableScanDesc scan, struct ScanKeyData *key,
					 bool set_params, bool allow_strat, bool allow_sync,
					 bool allow_pagemode)
{
	ColstoreScanRescan(scan, key);
}

/*
 * colstore_scan_getnextslot
 *		Store the scan's next row in direction in slot and return true, or
 *		clear slot and return false at the end.  A colstore slot holds the
 *		row lazily: its columns are decoded when first read, and are valid
 *		until the next call.
 */
bool
colstore_scan_getnextslot(TableScanDesc scan, ScanDirection direction,
						  TupleTableSlot *slot)
{
	return ColstoreScanGetNextSlot(scan, direction, slot);
}

/* ----------------------------------------------------------------
 * Parallel table scans: participants claim whole row groups
 * ----------------------------------------------------------------
 */

Size
colstore_parallelscan_estimate(Relation rel)
{
	return ColstoreScanParallelSize();
}

Size
colstore_parallelscan_initialize(Relation rel, ParallelTableScanDesc pscan)
{
	ColstoreScanParallelInitialize(rel, pscan);
	return ColstoreScanParallelSize();
}

void
colstore_parallelscan_reinitialize(Relation rel, ParallelTableScanDesc pscan)
{
	ColstoreScanParallelReinitialize(pscan);
}
