/*-------------------------------------------------------------------------
 *
 * scan_parallel.c
 *	  Claiming a scan's units, serially or among parallel participants.
 *
 * A parallel scan's shared state is one atomic counter, the position in
 * the unit list of the next unit to hand out.  Every participant lists the
 * same units (ColstoreScanBegin keeps, for parallel scans, only those the
 * shared snapshot sees and those VACUUM retired), so a position names the
 * same unit for all of them, and each unit is read by exactly one.  A
 * serial scan claims from its own counter in the descriptor.
 *
 * IDENTIFICATION
 *	  src/tableam/scan_parallel.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/relscan.h"
#include "access/tableam.h"
#include "port/atomics.h"
#include "utils/rel.h"

#include "tableam/scan_engine.h"
#include "tableam/scan_engine_internal.h"

typedef struct ParallelColstoreScanDescData
{
	ParallelTableScanDescData base;
	pg_atomic_uint32 next_group;	/* next row group or delta page */
} ParallelColstoreScanDescData;

typedef ParallelColstoreScanDescData *ParallelColstoreScanDesc;

/*
 * ScanClaimNextGroup
 *		The next unit this participant of a forward scan reads: the next
 *		visible one in list order that holds rows of the scan's row number
 *		range, or -1 when none is left.
 */
int
ScanClaimNextGroup(ColstoreScanDesc s)
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
		if (ScanUnitWanted(s, i))
			return i;
	}
}

/*
 * ScanUnitWanted
 *		Does a forward walk read unit i: is it visible, and does it hold
 *		rows of the scan's row number range?
 */
bool
ScanUnitWanted(ColstoreScanDesc s, int i)
{
	return s->groups[i].visible &&
		s->groups[i].entry.rg_first_row < s->range_end &&
		s->groups[i].entry.rg_first_row + s->groups[i].entry.rg_nrows > s->range_start;
}

/* Size of a parallel scan's shared state (parallelscan_estimate). */
Size
ColstoreScanParallelSize(void)
{
	return sizeof(ParallelColstoreScanDescData);
}

/*
 * ColstoreScanParallelInitialize
 *		Initialize the shared state at pscan, in the DSM the executor sized
 *		with ColstoreScanParallelSize, for a scan of rel that hands out the
 *		units from the first (parallelscan_initialize).
 */
void
ColstoreScanParallelInitialize(Relation rel, ParallelTableScanDesc pscan)
{
	ParallelColstoreScanDesc p = (ParallelColstoreScanDesc) pscan;

	ParallelScanSetRelation(&p->base, rel);
	p->base.phs_syncscan = false;
	pg_atomic_init_u32(&p->next_group, 0);
}

/* Hand the units out from the first again (parallelscan_reinitialize). */
void
ColstoreScanParallelReinitialize(ParallelTableScanDesc pscan)
{
	ParallelColstoreScanDesc p = (ParallelColstoreScanDesc) pscan;

	pg_atomic_write_u32(&p->next_group, 0);
}
