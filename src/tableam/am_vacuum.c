/*-------------------------------------------------------------------------
 *
 * am_vacuum.c
 *	  VACUUM of colstore tables: freezing and retiring directory entries,
 *	  and advancing relfrozenxid.
 *
 * VACUUM does not reclaim deleted rows or old row versions yet (issue 4):
 * they stay, invisible, in the heap pages of changed rows, and so do their
 * index entries.  Index entries of aborted inserters are marked dead in
 * btree indexes by index scans (all_dead).  What VACUUM does is count live
 * and dead rows and keep transaction ids from wrapping around: row groups inserted by
 * committed transactions older than the freeze limit are marked frozen;
 * row groups of aborted inserters, and reservations of finished
 * transactions, are marked invalid, after which their xids are never
 * looked at again.  relfrozenxid then becomes the oldest xid still
 * referenced by a live entry or a heap tuple (or OldestXmin if none).
 *
 * IDENTIFICATION
 *	  src/tableam/am_vacuum.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/multixact.h"
#include "access/transam.h"
#include "access/xact.h"
#include "commands/vacuum.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/procarray.h"
#include "utils/rel.h"

#include "mvcc/row_state.h"
#include "mvcc/visibility.h"
#include "storage/delta_heap.h"
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

/*
 * Heap tuples of changed rows (storage/delta_heap.c) hold transaction ids
 * too.  Nothing reclaims or freezes them yet, so relfrozenxid must not pass
 * the oldest of them; *oldest_xid is lowered to it.  Returns false if some
 * xmax is a multixact, which this does not resolve: then neither
 * relfrozenxid nor relminmxid may advance.  Counts live and dead rows:
 * a dead promoted copy is a dead row-group row.
 */
static bool
ScanHeapPages(Relation rel, ColstoreDirectory *dir, TransactionId oldest_xmin,
			  TransactionId *oldest_xid, double *live_rows, double *dead_rows)
{
	bool		no_multi = true;
	int			i;

	for (i = 0; i < dir->ndeltas; i++)
	{
		BlockNumber blkno = dir->entries[dir->deltas[i]].rg_header.sp_block;
		Buffer		buf;
		Page		page;
		OffsetNumber off;

		vacuum_delay_point();
		buf = ReadBuffer(rel, blkno);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		for (off = FirstOffsetNumber; off <= PageGetMaxOffsetNumber(page); off++)
		{
			HeapTupleData tuple;
			TransactionId xid;
			bool		promoted;
			bool		dead;

			if (!HeapVersionRead(rel, buf, off, &tuple))
				continue;
			promoted = HeapTupleHeaderIsPromotedCopy(tuple.t_data);

			xid = HeapTupleHeaderGetRawXmin(tuple.t_data);
			if (!HeapTupleHeaderXminFrozen(tuple.t_data) && TransactionIdIsNormal(xid) &&
				TransactionIdPrecedes(xid, *oldest_xid))
				*oldest_xid = xid;
			if (!(tuple.t_data->t_infomask & HEAP_XMAX_INVALID))
			{
				xid = HeapTupleHeaderGetRawXmax(tuple.t_data);
				if (tuple.t_data->t_infomask & HEAP_XMAX_IS_MULTI)
					no_multi = false;
				else if (TransactionIdIsNormal(xid) &&
						 TransactionIdPrecedes(xid, *oldest_xid))
					*oldest_xid = xid;
			}

			switch (HeapTupleSatisfiesVacuum(&tuple, oldest_xmin, buf))
			{
				case HEAPTUPLE_DEAD:
				case HEAPTUPLE_RECENTLY_DEAD:
					dead = true;
					break;
				default:
					dead = false;
					break;
			}
			if (promoted && dead)
			{
				*live_rows -= 1;
				*dead_rows += 1;
			}
			else if (!promoted)
				*(dead ? dead_rows : live_rows) += 1;
		}
		UnlockReleaseBuffer(buf);
	}
	return no_multi;
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

	if (!ScanHeapPages(rel, DirectoryGet(rel), oldest_xmin, &new_frozen_xid,
					   &live_rows, &dead_rows))
	{
		new_frozen_xid = InvalidTransactionId;
		oldest_mxact = InvalidMultiXactId;
	}
	vac_update_relstats(rel, ColstorePhysicalBlocks(rel), Max(live_rows, 0), 0,
						RelationGetForm(rel)->relhasindex, new_frozen_xid,
						oldest_mxact, &frozenxid_updated, &minmulti_updated,
						false);
	pgstat_report_vacuum(RelationGetRelid(rel), rel->rd_rel->relisshared,
						 live_rows, dead_rows);
}
