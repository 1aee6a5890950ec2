/*-------------------------------------------------------------------------
 *
 * am_vacuum.c
 *	  VACUUM of colstore tables: retiring and freezing directory entries,
 *	  reclaiming dead row versions with their index entries, freezing heap
 *	  tuples, and advancing relfrozenxid and relminmxid.
 *
 * 1. The directory: row groups inserted by committed transactions older
 *	  than the freeze limit are marked frozen; row groups of aborted
 *	  inserters, and reservations of finished transactions, are marked
 *	  invalid, after which their xids are never looked at again.
 * 2. The heap pages (storage/delta_vacuum.c): versions dead to everyone
 *	  are pruned, the rest frozen as heap freezes.  A pruned ordinary
 *	  version's TID, and the row TID of a pruned promoted copy (found
 *	  through the promotion maps), are collected.
 *	  So are the rows of row groups found aborted in step 1.
 * 3. Every index loses its entries for the collected TIDs (ambulkdelete),
 *	  and the pruned ordinary versions' items become reusable; this index
 *	  pass also runs whenever the collected TIDs fill maintenance_work_mem.
 *	  Then every index cleans up (amvacuumcleanup: statistics, BRIN
 *	  summaries, GIN pending lists).
 * 4. relfrozenxid and relminmxid become the oldest xid and multixact still
 *	  referenced by a live entry or a heap tuple.
 * 5. Whole row groups: the space of invalid ones (aborted, or retired by
 *	  an earlier VACUUM) that nobody can read any more goes to new heap
 *	  tuples and row groups (storage/group_reclaim.c); groups all of whose rows this or an
 *	  earlier VACUUM pruned are retired (mvcc/group_retire.c).
 *	  Then the run of unreferenced pages that ends the file is truncated
 *	  away (storage/space_truncate.c), unless VACUUM (TRUNCATE false) or
 *	  the vacuum_truncate option says not to.
 * 6. Every pseudo-block's all-visible bit in the visibility map, which
 *	  index-only scans read, is set or cleared (mvcc/visible_blocks.c judges,
 *	  storage/all_visible.c writes); their count becomes relallvisible.
 * 7. With enough live row versions on the heap pages, live rows left in
 *	  row groups whose rewrite pays (mvcc/group_retire.c), or small row
 *	  groups worth merging, a background worker is started to compact them
 *	  into row groups (tableam/compaction_worker.c); VACUUM itself cannot,
 *	  as it may not take a transaction id.
 *
 * Not reclaimed yet: deleted rows of row groups too little deleted for a
 * rewrite to pay (each keeps its values and a line pointer on a heap
 * page), and the index
 * entries of rows an aborted transaction never wrote (btree marks those
 * dead on access), or whose VACUUM failed or ran with INDEX_CLEANUP off
 * after step 1 retired their row group.  VACUUM FULL rewrites all of it.
 *
 * IDENTIFICATION
 *	  src/tableam/am_vacuum.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/heapam.h"
#include "access/multixact.h"
#include "access/transam.h"
#include "access/xact.h"
#include "commands/vacuum.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/freespace.h"
#include "storage/procarray.h"
#include "utils/rel.h"

#include "mvcc/visible_blocks.h"
#include "mvcc/group_retire.h"
#include "mvcc/row_state.h"
#include "mvcc/visibility.h"
#include "storage/delete_log.h"
#include "storage/deleted_rows.h"
#include "storage/delta_heap.h"
#include "storage/delta_retire.h"
#include "storage/delta_vacuum.h"
#include "storage/delta_wal.h"
#include "storage/directory.h"
#include "storage/group_reclaim.h"
#include "storage/metapage.h"
#include "storage/promotion_map.h"
#include "storage/space_relocate.h"
#include "storage/space_truncate.h"
#include "tableam/am_vacuum.h"
#include "tableam/compaction.h"
#include "tableam/compaction_choice.h"
#include "tableam/compaction_worker.h"

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

/* The rows whose deleted-rows bits an index pass sets (SetDeletedBits). */
typedef struct PrunedRows
{
	uint32	   *groups;			/* index into VACUUM's copy of the groups */
	uint32	   *rows;			/* row, 0-based in its group */
	int			n;
	int			capacity;
} PrunedRows;

/*
 * Add to vs's dead items the TIDs of the row-group rows whose promoted
 * copies this VACUUM pruned, or found pruned (LP_DEAD) by an earlier one
 * without their deleted-rows bit set: their index entries name the row, not
 * the copy.  The rows are listed in *pruned too.  Only row groups with a
 * promotion map can have such rows; groups is a copy of the directory's row
 * groups taken before the heap pages were pruned (a row promoted later has
 * a copy too young to prune).  Rows deleted for everyone already (their bit
 * set) are left out: their entries are gone, and their slots are not read.
 */
static void
AddRowsOfPrunedCopies(Relation rel, const RowGroupDirEntry *groups, uint32 ngroups,
					  DeltaVacuumState *vs, PrunedRows *pruned)
{
	ItemPointerData *copies = NULL;
	bool	   *deleted = NULL;
	uint32		capacity = 0;
	uint32		g;

	pruned->n = 0;
	if (vs->ndead_copies == 0)
		return;
	qsort(vs->dead_copies, vs->ndead_copies, sizeof(ItemPointerData),
		  (int (*) (const void *, const void *)) ItemPointerCompare);
	for (g = 0; g < ngroups; g++)
	{
		const RowGroupDirEntry *e = &groups[g];
		uint32		i;

		if (e->rg_state_root == 0 || (e->rg_flags & RG_FLAG_INVALID))
			continue;
		if (e->rg_nrows > capacity)
		{
			capacity = e->rg_nrows;
			copies = copies ? repalloc(copies, sizeof(ItemPointerData) * capacity) :
				palloc(sizeof(ItemPointerData) * capacity);
			deleted = deleted ? repalloc(deleted, sizeof(bool) * capacity) :
				palloc(sizeof(bool) * capacity);
		}
		VacuumDelayPoint();
		(void) PromotionMapGetRange(rel, e, 0, e->rg_nrows, copies, deleted, NULL);
		for (i = 0; i < e->rg_nrows; i++)
		{
			DeadTids   *items = vs->dead_items;

			if (!ItemPointerIsValid(&copies[i]) ||
				bsearch(&copies[i], vs->dead_copies, vs->ndead_copies,
						sizeof(ItemPointerData),
						(int (*) (const void *, const void *)) ItemPointerCompare) == NULL)
				continue;
			Assert(items->num_items < items->max_items);
			RowNumberToItemPointer(e->rg_first_row + i, &items->items[items->num_items++]);
			if (pruned->n == pruned->capacity)
			{
				pruned->capacity = Max(pruned->capacity * 2, 1024);
				pruned->groups = pruned->groups ?
					repalloc_huge(pruned->groups, sizeof(uint32) * pruned->capacity) :
					palloc_extended(sizeof(uint32) * pruned->capacity, MCXT_ALLOC_HUGE);
				pruned->rows = pruned->rows ?
					repalloc_huge(pruned->rows, sizeof(uint32) * pruned->capacity) :
					palloc_extended(sizeof(uint32) * pruned->capacity, MCXT_ALLOC_HUGE);
			}
			pruned->groups[pruned->n] = g;
			pruned->rows[pruned->n++] = i;
		}
	}
	if (copies)
	{
		pfree(copies);
		pfree(deleted);
	}
}

/*
 * Set the deleted-rows bits (storage/deleted_rows.c) of the rows in pruned
 * (listed by group, rows ascending), whose copies are LP_DEAD for good and
 * whose index entries the index pass just removed.  A group all of whose
 * rows are then deleted for everyone gets none: this VACUUM retires it
 * whole (mvcc/group_retire.c), and its bitmap's pages would only grow the
 * file until the group is freed.
 */
static void
SetDeletedBits(Relation rel, const RowGroupDirEntry *groups, const PrunedRows *pruned)
{
	int			i = 0;

	while (i < pruned->n)
	{
		int			start = i;
		const RowGroupDirEntry *group;

		VacuumDelayPoint();

		while (i < pruned->n && pruned->groups[i] == pruned->groups[start])
			i++;
		group = &groups[pruned->groups[start]];
		if ((uint64) (i - start) + DeletedRowsCount(rel, group, NULL) >= group->rg_nrows)
			continue;
		DeletedRowsSet(rel, group, &pruned->rows[start], i - start, true);
	}
}

/*
 * Add to vs's dead items the TIDs of the rows of row groups this VACUUM
 * found aborted (aborted[0..naborted), directory entries): the inserting
 * transaction made their index entries.  *group and *row say where the
 * previous call stopped; returns false when all are added, true when the
 * items are full and must be emptied first.
 */
static bool
AddRowsOfAbortedGroups(const RowGroupDirEntry *aborted, int naborted, int *group,
					   uint32 *row, DeltaVacuumState *vs)
{
	DeadTids   *items = vs->dead_items;

	for (; *group < naborted; (*group)++, *row = 0)
	{
		for (; *row < aborted[*group].rg_nrows; (*row)++)
		{
			if (items->num_items + vs->ndead_copies >= items->max_items)
				return true;
			RowNumberToItemPointer(aborted[*group].rg_first_row + *row,
								   &items->items[items->num_items++]);
		}
	}
	return false;
}

static void VacuumIndexesPass(Relation rel, Relation *indrels, int nindexes,
							  IndexBulkDeleteResult **stats,
							  const RowGroupDirEntry *groups, uint32 ngroups,
							  DeltaVacuumState *vs, bool index_cleanup, int elevel,
							  BufferAccessStrategy bstrategy);

/*
 * Set the deleted-rows bits of the rows in pending (listed by group, rows
 * ascending), deleted through the delete log, whose index entries the
 * index pass just removed.  Unlike SetDeletedBits, a group all of whose rows
 * are then deleted gets its bits too: its runs go once the bits are set,
 * and the bits are what its retirement counts.
 */
static void
SetLoggedDeleteBits(Relation rel, const RowGroupDirEntry *groups, PrunedRows *pending,
					TransactionId *newest)
{
	int			i = 0;

	/*
	 * standby queries whose snapshots may still see those deletes go first,
	 * as for the prune records of copies
	 */
	if (TransactionIdIsValid(*newest) && RelationNeedsWAL(rel))
		LogStandbyConflict(rel, *newest);
	*newest = InvalidTransactionId;

	while (i < pending->n)
	{
		int			start = i;

		VacuumDelayPoint();
		while (i < pending->n && pending->groups[i] == pending->groups[start])
			i++;
		DeletedRowsSet(rel, &groups[pending->groups[start]], &pending->rows[start],
					   i - start, false);
	}
	pending->n = 0;
}

/*
 * The deletes the groups' delete logs hold (storage/delete_log.c), after the
 * heap pages' index passes: the rows of runs that committed before
 * OldestXmin (and have neither a copy nor a bit) lose their index entries
 * and then get their deleted-rows bits, as the rows of pruned copies do;
 * then those runs, and the runs of aborted transactions, are dropped.
 * Without an index pass (INDEX_CLEANUP off) committed runs stay, and
 * relfrozenxid stays behind them.  Returns the rows made deleted for
 * everyone.
 */
static double
VacuumDeleteLogs(Relation rel, Relation *indrels, int nindexes, IndexBulkDeleteResult **stats,
				 const RowGroupDirEntry *groups, uint32 ngroups, DeltaVacuumState *vs,
				 bool index_cleanup, int elevel, BufferAccessStrategy bstrategy)
{
	bool		bits = vs->may_prune && (index_cleanup || nindexes == 0);
	TransactionId newest = InvalidTransactionId;
	PrunedRows	pending = {0};
	double		removed = 0;
	uint32		g;

	for (g = 0; g < ngroups; g++)
	{
		const RowGroupDirEntry *e = &groups[g];
		ItemPointerData *copies;
		bool	   *deleted;
		DeleteRun  *runs;
		uint32		i;

		if (e->rg_state_root == 0 || (e->rg_flags & RG_FLAG_INVALID))
			continue;
		VacuumDelayPoint();
		copies = palloc(sizeof(ItemPointerData) * e->rg_nrows);
		deleted = palloc(sizeof(bool) * e->rg_nrows);
		runs = palloc(sizeof(DeleteRun) * e->rg_nrows);
		(void) PromotionMapGetRange(rel, e, 0, e->rg_nrows, copies, deleted, runs);
		for (i = 0; i < e->rg_nrows; i++)
		{
			DeadTids   *items = vs->dead_items;
			TransactionId xid = runs[i].xid;

			if (!TransactionIdIsValid(xid) || TransactionIdIsInProgress(xid) ||
				!TransactionIdDidCommit(xid))
				continue;		/* none, running, or aborted (dropped below) */
			if (!bits || !TransactionIdPrecedes(xid, vs->oldest_xmin))
			{
				if (TransactionIdPrecedes(xid, vs->new_frozen_xid))
					vs->new_frozen_xid = xid;
				continue;
			}
			if (items->num_items >= items->max_items)
			{
				VacuumIndexesPass(rel, indrels, nindexes, stats, groups, ngroups, vs,
								  index_cleanup, elevel, bstrategy);
				SetLoggedDeleteBits(rel, groups, &pending, &newest);
			}
			RowNumberToItemPointer(e->rg_first_row + i, &items->items[items->num_items++]);
			if (pending.n == pending.capacity)
			{
				pending.capacity = Max(pending.capacity * 2, 1024);
				pending.groups = pending.groups ?
					repalloc_huge(pending.groups, sizeof(uint32) * pending.capacity) :
					palloc_extended(sizeof(uint32) * pending.capacity, MCXT_ALLOC_HUGE);
				pending.rows = pending.rows ?
					repalloc_huge(pending.rows, sizeof(uint32) * pending.capacity) :
					palloc_extended(sizeof(uint32) * pending.capacity, MCXT_ALLOC_HUGE);
			}
			pending.groups[pending.n] = g;
			pending.rows[pending.n++] = i;
			if (!TransactionIdIsValid(newest) || TransactionIdFollows(xid, newest))
				newest = xid;
			removed++;
		}
		pfree(copies);
		pfree(deleted);
		pfree(runs);
	}
	if (pending.n > 0)
	{
		VacuumIndexesPass(rel, indrels, nindexes, stats, groups, ngroups, vs,
						  index_cleanup, elevel, bstrategy);
		SetLoggedDeleteBits(rel, groups, &pending, &newest);
	}
	/* every bit is set: the runs can go, the aborted ones in any case */
	for (g = 0; g < ngroups; g++)
		if (groups[g].rg_state_root != 0 && !(groups[g].rg_flags & RG_FLAG_INVALID))
		{
			bool		emptied;
			TransactionId kept = DeleteLogPrune(rel, &groups[g], vs->oldest_xmin, bits,
												&emptied);

			if (TransactionIdIsNormal(kept) && TransactionIdPrecedes(kept, vs->new_frozen_xid))
				vs->new_frozen_xid = kept;
			/* emptied segment pages go to a later VACUUM's freeing */
			if (emptied)
				(void) DeletedRowsDetachLog(rel, &groups[g]);
		}
	if (pending.groups)
	{
		pfree(pending.groups);
		pfree(pending.rows);
	}
	return removed;
}

/* What an index AM's bulk delete and cleanup get to know about the table. */
static IndexVacuumInfo
IndexVacuumInfoFor(Relation table, Relation index, double heap_tuples, bool estimated, int elevel,
				   BufferAccessStrategy bstrategy)
{
	IndexVacuumInfo ivinfo;

	memset(&ivinfo, 0, sizeof(ivinfo));
	ivinfo.index = index;
#if PG_VACUUM_INFO_HAS_HEAPREL
	ivinfo.heaprel = table;
#endif
	ivinfo.message_level = elevel;
	ivinfo.strategy = bstrategy;
	ivinfo.estimated_count = estimated;
	ivinfo.num_heap_tuples = heap_tuples;
	return ivinfo;
}

/*
 * One index pass: the row TIDs of the pruned copies join the dead items,
 * every index loses its entries for them (stats[i] accumulates index i's
 * results), the pruned ordinary versions' items become reusable, and the
 * arrays are empty again.  With index cleanup off nothing was pruned and
 * the items are dropped (their entries stay; btree marks them dead on
 * access).
 */
static void
VacuumIndexesPass(Relation rel, Relation *indrels, int nindexes, IndexBulkDeleteResult **stats,
				  const RowGroupDirEntry *groups, uint32 ngroups, DeltaVacuumState *vs,
				  bool index_cleanup, int elevel, BufferAccessStrategy bstrategy)
{
	PrunedRows	pruned = {0};
	int			i;

	AddRowsOfPrunedCopies(rel, groups, ngroups, vs, &pruned);
	vs->ndead_copies = 0;
	if (vs->dead_items->num_items == 0)
		return;
	qsort(vs->dead_items->items, vs->dead_items->num_items, sizeof(ItemPointerData),
		  (int (*) (const void *, const void *)) ItemPointerCompare);
	for (i = 0; i < nindexes && index_cleanup; i++)
	{
		IndexVacuumInfo ivinfo = IndexVacuumInfoFor(rel, indrels[i], RelationGetForm(rel)->reltuples,
													true, elevel, bstrategy);

		stats[i] = DeadTidsBulkDelete(&ivinfo, stats[i], vs->dead_items);
	}
	if (vs->may_prune)
		DeltaVacuumReuseItems(rel, vs);

	/*
	 * the pruned copies' rows have lost their index entries (or the table has
	 * no index): now they are deleted for everyone in every way
	 */
	if (vs->may_prune && (index_cleanup || nindexes == 0))
		SetDeletedBits(rel, groups, &pruned);
	if (pruned.groups)
	{
		pfree(pruned.groups);
		pfree(pruned.rows);
	}
	vs->dead_items->num_items = 0;
}

/*
 * Let every index clean up (which also summarizes BRIN ranges and flushes
 * GIN pending lists) and record its statistics.
 */
static void
CleanUpIndexes(Relation rel, Relation *indrels, int nindexes, IndexBulkDeleteResult **stats,
			   double live_rows, int elevel, BufferAccessStrategy bstrategy)
{
	int			i;

	for (i = 0; i < nindexes; i++)
	{
		IndexVacuumInfo ivinfo = IndexVacuumInfoFor(rel, indrels[i], live_rows, false, elevel,
													bstrategy);

		stats[i] = vac_cleanup_one_index(&ivinfo, stats[i]);
		if (stats[i] != NULL && !stats[i]->estimated_count)
			VacUpdateRelstats(indrels[i], stats[i]->num_pages, stats[i]->num_index_tuples,
							  0, false, InvalidTransactionId, InvalidMultiXactId,
							  NULL, NULL);
	}
}

/*
 * colstore_relation_vacuum
 *		The table AM's relation_vacuum (lazy VACUUM, autovacuum): the steps
 *		of the file header, under the ShareUpdateExclusiveLock VACUUM
 *		holds, with the statistics heap's VACUUM reports.
 */
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
	RowGroupDirEntry *aborted;
	RowGroupDirEntry *deltas;
	RowGroupDirEntry *groups;
	IndexBulkDeleteResult **stats;
	bool		index_cleanup;
	int			aborted_group = 0;
	uint32		aborted_row = 0;
	uint32		ndeltas;
	uint32		ngroups;
	int			naborted = 0;
	double		aborted_rows = 0;
	DeltaVacuumState vs;
	TimestampTz starttime = GetCurrentTimestamp();
#if PG_HAS_VACUUM_CUTOFFS
	struct VacuumCutoffs cutoffs;
#endif
	Relation   *indrels;
	int			nindexes;
	int			elevel = (params->options & VACOPT_VERBOSE) ? INFO : DEBUG2;
	uint32		count;
	uint32		i;
	double		live_rows = 0;
	double		dead_rows = 0;
	bool		frozenxid_updated;
	bool		minmulti_updated;
	bool		aggressive;
	uint32		retired;
	uint32		freed_heap_pages;
	uint32		retired_heap_pages;
	BlockNumber freed_pages;
	double		sparse_rows;
	double		quiet_rows;
	double		freed_rows;
	uint32		freed_items;
	uint32		freed_leaves;
	double		logged_rows = 0;
	BlockNumber all_visible;
	bool		left_reclaim;

#if PG_HAS_VACUUM_CUTOFFS
	aggressive = vacuum_get_cutoffs(rel, params, &cutoffs);
	oldest_xmin = cutoffs.OldestXmin;
	oldest_mxact = cutoffs.OldestMxact;
	freeze_limit = cutoffs.FreezeLimit;
	multi_cutoff = cutoffs.MultiXactCutoff;
#else
	aggressive = vacuum_set_xid_limits(rel, params->freeze_min_age,
									   params->freeze_table_age,
									   params->multixact_freeze_min_age,
									   params->multixact_freeze_table_age,
									   &oldest_xmin, &oldest_mxact, &freeze_limit,
									   &multi_cutoff);
#endif
	new_frozen_xid = oldest_xmin;

	ColstoreLockWriter(rel);
	dir = DirectoryGet(rel);
	count = dir->count;
	entries = palloc(sizeof(RowGroupDirEntry) * (count + 1));
	aborted = palloc(sizeof(RowGroupDirEntry) * (count + 1));
	memcpy(entries, dir->entries, sizeof(RowGroupDirEntry) * count);
	for (i = 0; i < count; i++)
	{
		RowGroupDirEntry *e = &entries[i];
		bool		keeps_xid;

		VacuumDelayPoint();
		if (VacuumEntry(e, freeze_limit, &keeps_xid))
		{
			DirectoryUpdateEntry(rel, i, e);
			if (e->rg_kind == RG_KIND_ROWGROUP && (e->rg_flags & RG_FLAG_INVALID))
			{
				aborted[naborted++] = *e;
				aborted_rows += e->rg_nrows;
			}
		}
		if (keeps_xid && TransactionIdIsNormal(e->rg_xmin) &&
			TransactionIdPrecedes(e->rg_xmin, new_frozen_xid))
			new_frozen_xid = e->rg_xmin;
		if (e->rg_kind == RG_KIND_ROWGROUP)
		{
			if (!(e->rg_flags & RG_FLAG_INVALID))
				live_rows += e->rg_nrows;
			else if (!(e->rg_flags & RG_FLAG_FREED))
			{
				/* an emptied group's copies count as deleted rows below */
				dead_rows += e->rg_nrows;
				if (e->rg_flags & RG_FLAG_EMPTIED)
					live_rows += e->rg_nrows;
			}
		}
	}
	ColstoreUnlockWriter(rel);

	/*
	 * rows deleted for everyone by earlier VACUUMs: the copy items and map
	 * leaves nobody can follow any more are freed first (the bits this VACUUM
	 * sets would move their pages' stamps on); the rows whose items are gone
	 * count as deleted (step 2 counts those with an LP_DEAD item)
	 */
	freed_items = DeletedRowsFree(rel, oldest_xmin, bstrategy, &freed_leaves);
	live_rows -= DeletedRowsGone(rel);

	/* the heap pages: prune, freeze, and collect the TIDs to unindex */
	vac_open_indexes(rel, RowExclusiveLock, &nindexes, &indrels);
	memset(&vs, 0, sizeof(vs));
#if PG_HAS_VACUUM_CUTOFFS
	vs.cutoffs = cutoffs;
#endif
	vs.oldest_xmin = oldest_xmin;
	vs.freeze_limit = freeze_limit;
	vs.multi_cutoff = multi_cutoff;
	vs.may_prune = nindexes == 0 || params->index_cleanup != VACOPTVALUE_DISABLED;
	vs.wait_for_pins = aggressive;
	vs.strategy = bstrategy;
	vs.new_frozen_xid = new_frozen_xid;
	vs.new_min_mxid = oldest_mxact;

	/*
	 * Copies of the entries: the cached directory is rebuilt when a
	 * concurrent writer changes an entry, so pointers into it do not last.
	 * Heap pages registered after this point hold only versions too young to
	 * prune.
	 */
	dir = DirectoryGet(rel);
	ndeltas = dir->ndeltas;
	deltas = palloc(sizeof(RowGroupDirEntry) * Max(ndeltas, 1));
	for (i = 0; i < ndeltas; i++)
		deltas[i] = dir->entries[dir->deltas_by_block[i]];
	ngroups = dir->ngroups;
	groups = palloc(sizeof(RowGroupDirEntry) * Max(ngroups, 1));
	for (i = 0; i < ngroups; i++)
		groups[i] = dir->entries[dir->groups[i]];
	/* room for the rows of delete logs too (VacuumDeleteLogs) */
	for (i = 0; i < ngroups; i++)
		if (groups[i].rg_state_root != 0 && !(groups[i].rg_flags & RG_FLAG_INVALID) &&
			DeleteLogRootFind(rel, &groups[i], NULL) != InvalidBlockNumber)
			logged_rows += groups[i].rg_nrows;
	DeltaVacuumBegin(&vs, ndeltas, aborted_rows + logged_rows);
	stats = palloc0(sizeof(IndexBulkDeleteResult *) * Max(nindexes, 1));
	index_cleanup = nindexes > 0 && params->index_cleanup != VACOPTVALUE_DISABLED;
	DeltaVacuumReadAhead(rel, &vs, deltas, ndeltas);
	for (i = 0; i < ndeltas; i++)
	{
		VacuumDelayPoint();
		if (!DeltaVacuumPage(rel, &deltas[i], &vs))
		{
			/* the dead items are full: an index pass, then this page again */
			VacuumIndexesPass(rel, indrels, nindexes, stats, groups, ngroups, &vs,
							  index_cleanup, elevel, bstrategy);
			if (!DeltaVacuumPage(rel, &deltas[i], &vs))
				elog(ERROR, "dead row versions of one page do not fit in VACUUM's memory");
		}
	}
	DeltaVacuumEnd(&vs);
	while (AddRowsOfAbortedGroups(aborted, naborted, &aborted_group, &aborted_row, &vs))
		VacuumIndexesPass(rel, indrels, nindexes, stats, groups, ngroups, &vs,
						  index_cleanup, elevel, bstrategy);
	VacuumIndexesPass(rel, indrels, nindexes, stats, groups, ngroups, &vs,
					  index_cleanup, elevel, bstrategy);
	logged_rows = VacuumDeleteLogs(rel, indrels, nindexes, stats, groups, ngroups, &vs,
								   index_cleanup, elevel, bstrategy);

	live_rows += vs.live_versions - vs.deleted_rows - logged_rows;
	dead_rows += vs.dead_versions;
	if (index_cleanup)
		CleanUpIndexes(rel, indrels, nindexes, stats, Max(live_rows, 0), elevel, bstrategy);

	/*
	 * row groups: space of groups retired by earlier VACUUMs, then new
	 * retirements
	 */
	freed_pages = GroupReclaimFree(rel, oldest_xmin, bstrategy, &freed_rows);
	dead_rows -= freed_rows;	/* counted dead in step 1 */
	retired = GroupReclaimRetire(rel, oldest_xmin, bstrategy, &sparse_rows, &quiet_rows);

	/* heap pages left empty: those retired earlier freed, then new ones */
	freed_heap_pages = DeltaPagesFree(rel, oldest_xmin, bstrategy);
	retired_heap_pages = DeltaPagesRetire(rel, bstrategy);

	/* the empty end of the file, as heap's VACUUM gives it back */
	if (params->truncate != VACOPTVALUE_DISABLED)
	{
		BlockNumber old_blocks;
		BlockNumber removed;
		int			moved_groups;
		int			moved_dir_pages;
		int			moved_state_pages;
		int			dropped_dir_pages;

		/* freed heap pages' entries go, then what holds the end moves */
		dropped_dir_pages = SpaceRewriteDirectory(rel);
		if (dropped_dir_pages > 0)
			ereport(elevel,
					(errmsg("colstore table \"%s\": rewrote the directory without the entries of freed heap pages, %d pages fewer",
							RelationGetRelationName(rel), dropped_dir_pages)));
		(void) SpaceRelocateEnd(rel, bstrategy, &moved_groups, &moved_dir_pages,
								&moved_state_pages);
		if (moved_groups > 0 || moved_dir_pages > 0)
			ereport(elevel,
					(errmsg("colstore table \"%s\": moved %d row groups and %d directory pages from the end of the file into freed pages",
							RelationGetRelationName(rel), moved_groups, moved_dir_pages)));
		if (moved_state_pages > 0)
			ereport(elevel,
					(errmsg("colstore table \"%s\": moved %d row state pages (promotion map roots, deleted-rows and delete log pages) from the end of the file into freed pages",
							RelationGetRelationName(rel), moved_state_pages)));
		removed = SpaceTruncateEnd(rel, bstrategy, &old_blocks);

		if (removed > 0)
			ereport(elevel,
					(errmsg("colstore table \"%s\": truncated %u to %u pages",
							RelationGetRelationName(rel), old_blocks,
							old_blocks - removed)));
	}
	FreeSpaceMapVacuum(rel);
	vac_close_indexes(nindexes, indrels, NoLock);

	/* last, on the state left: the pseudo-blocks index-only scans may trust */
	all_visible = VisibleBlocksMark(rel, oldest_xmin);

	ereport(elevel,
			(errmsg("colstore table \"%s\": removed %.0f dead row versions (%.0f of them rows of row groups), %.0f remain dead but not yet removable",
					RelationGetRelationName(rel),
					vs.removed_versions + vs.pruned_copies + logged_rows,
					vs.pruned_copies + logged_rows, dead_rows),
			 errdetail("%u row groups with every row deleted were retired; %u pages of retired row groups were given to new row versions; %u empty heap pages were retired and %u freed; %u line pointers and %u promotion map pages of rows deleted for everyone were freed.",
					   retired, freed_pages, retired_heap_pages, freed_heap_pages,
					   freed_items, freed_leaves)));

	VacUpdateRelstats(rel, ColstorePhysicalBlocks(rel), Max(live_rows, 0), all_visible,
					  nindexes > 0, vs.new_frozen_xid, vs.new_min_mxid,
					  &frozenxid_updated, &minmulti_updated);
	PgstatReportVacuum(rel, Max(live_rows, 0), dead_rows, starttime);

	/*
	 * What a later VACUUM frees once its oldest xmin passes the stamps this
	 * one gave: row groups and heap pages retired, rows whose copies were
	 * pruned or whose logged deletes became bits (their items, leaves and log
	 * pages go later), items and leaves freed (their pages are retired next).
	 */
	left_reclaim = retired > 0 || retired_heap_pages > 0 || vs.pruned_copies > 0 ||
		logged_rows > 0 || freed_items > 0 || freed_leaves > 0;
	CompactionWorkerNoteVacuum(left_reclaim);

	/*
	 * enough row versions in heap format, rows left in row groups whose
	 * rewrite pays (to the worker, or once the table is quiet: then the
	 * worker looks for that first), or small row groups worth merging:
	 * compact in the background.  Whether a merge fits reads the free space
	 * map, so it is asked only when a worker could start and nothing else
	 * calls for one.  Reclaim left waits for a later VACUUM whose oldest xmin
	 * has passed its stamps, which nothing may start (autovacuum counts dead
	 * tuples, and a table nobody writes gets none; an idle database assigns
	 * no transaction id): a worker takes an id and VACUUMs again
	 * (compaction_worker.c).
	 */
	if (sparse_rows <= 0 && colstore_auto_compaction && !RelationUsesLocalBuffers(rel))
		sparse_rows = CompactionMergeableRows(rel);
	CompactionWorkerMaybeLaunch(rel, ndeltas, vs.live_versions, sparse_rows,
								quiet_rows > 0, left_reclaim);
}
