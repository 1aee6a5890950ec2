/*-------------------------------------------------------------------------
 *
 * am_vacuum.c
 *	  VACUUM of colstore tables: freezing and retiring directory entries,
 *	  and advancing relfrozenxid.
 *
 * Rows are never deleted yet, so VACUUM has no dead rows to remove from
 * indexes except those of aborted inserters, which stay invisible and are
 * marked dead in btree indexes by index scans (all_dead).  What VACUUM must
 * do is keep transaction ids from wrapping around: row groups inserted by
 * committed transactions older than the freeze limit are marked frozen;
 * row groups of aborted inserters, and reservations of finished
 * transactions, are marked invalid, after which their xids are never
 * looked at again.  relfrozenxid then becomes the oldest xid still
 * referenced by a live entry (or OldestXmin if none).
 *
 * IDENTIFICATION
 *	  src/tableam/am_vacuum.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/multixact.h"
#include "access/transam.h"
#include "access/xact.h"
#include "commands/vacuum.h"
#include "pgstat.h"
#include "storage/procarray.h"
#include "utils/rel.h"

#include "mvcc/visibility.h"
#include "storage/directory.h"
#include "storage/metapage.h"
#include "tableam/am_vacuum.h"

/*
 * Decide the new state of one directory entry.  Returns true if it must be
 * rewritten; *keeps_xid says whether it still references rg_xmin.
 */
static bool
VacuumEntry(RowGroupDirEntry *e, TransactionId freeze_limit, bool *keeps_xid)
{
	*keeps_xid = false;
	if (e->rg_flags & (RG_FLAG_INVALID | RG_FLAG_FROZEN))
		return false;
	if (e->rg_kind == RG_KIND_RESERVATION)
	{
		if (TransactionIdIsCurrentTransactionId(e->rg_xmin) ||
			TransactionIdIsInProgress(e->rg_xmin))
		{
			*keeps_xid = true;
			return false;
		}
		e->rg_flags |= RG_FLAG_INVALID;
		return true;
	}
	if (RowGroupInsertAborted(e))
	{
		e->rg_flags |= RG_FLAG_INVALID;
		return true;
	}
	if (RowGroupInsertCommitted(e) && TransactionIdPrecedes(e->rg_xmin, freeze_limit))
	{
		e->rg_flags |= RG_FLAG_FROZEN;
		e->rg_xmin = FrozenTransactionId;
		return true;
	}
	*keeps_xid = true;
	return false;
}

void
colstore_relation_vacuum(Relation rel, VacuumParams *params,
						 BufferAccessStrategy bstrategy)
{
	TransactionId oldest_xmin;
	TransactionId freeze_limit;
	TransactionId new_frozen_xid;
	MultiXactId oldest_mxact;
	MultiXactId multi_cutoff;
	ColstoreDirectory *dir;
	RowGroupDirEntry *entries;
	uint32		count;
	uint32		i;
	double		live_rows = 0;
	double		dead_rows = 0;
	bool		frozenxid_updated;
	bool		minmulti_updated;

	vacuum_set_xid_limits(rel, params->freeze_min_age, params->freeze_table_age,
						  params->multixact_freeze_min_age,
						  params->multixact_freeze_table_age,
						  &oldest_xmin, &oldest_mxact, &freeze_limit, &multi_cutoff);
	new_frozen_xid = oldest_xmin;

	ColstoreLockWriter(rel);
	dir = DirectoryGet(rel);
	count = dir->count;
	entries = palloc(sizeof(RowGroupDirEntry) * (count + 1));
	memcpy(entries, dir->entries, sizeof(RowGroupDirEntry) * count);
	for (i = 0; i < count; i++)
	{
		RowGroupDirEntry *e = &entries[i];
		bool		keeps_xid;

		vacuum_delay_point();
		if (VacuumEntry(e, freeze_limit, &keeps_xid))
			DirectoryUpdateEntry(rel, i, e);
		if (keeps_xid && TransactionIdIsNormal(e->rg_xmin) &&
			TransactionIdPrecedes(e->rg_xmin, new_frozen_xid))
			new_frozen_xid = e->rg_xmin;
		if (e->rg_kind == RG_KIND_ROWGROUP)
		{
			if (e->rg_flags & RG_FLAG_INVALID)
				dead_rows += e->rg_nrows;
			else
				live_rows += e->rg_nrows;
		}
	}
	ColstoreUnlockWriter(rel);

	vac_update_relstats(rel, ColstorePhysicalBlocks(rel), live_rows, 0,
						RelationGetForm(rel)->relhasindex, new_frozen_xid,
						oldest_mxact, &frozenxid_updated, &minmulti_updated,
						false);
	pgstat_report_vacuum(RelationGetRelid(rel), rel->rd_rel->relisshared,
						 live_rows, dead_rows);
}
