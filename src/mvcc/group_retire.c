/*-------------------------------------------------------------------------
 *
 * group_retire.c
 *	  Which row groups have lost their rows: counting a group's deleted
 *	  rows, and retiring the groups all of whose rows VACUUM has pruned.
 *
 * Step 1 of reclaiming a row group (storage/group_reclaim.c describes both
 * steps; step 2 frees the space of the groups retired here once no backend
 * can read them): a row group every row of which has a promoted copy that
 * VACUUM pruned (LP_DEAD: deleted for every snapshot, its index entries
 * removed) is marked INVALID | EMPTIED, and its rg_xmin becomes the next
 * transaction id, its stamp.  From then on no scan, fetch or verify reads
 * it.  (A copy VACUUM made a redirect to its HOT chain's live member,
 * storage/delta_vacuum.c, counts as a deleted row but not a pruned one: its
 * row's index entries lead to the chain, so its group stays.)  Deciding
 * that takes the visibility of the group's insert (mvcc/visibility.c) and
 * of its rows' deletes (their promoted copies, as HeapTupleSatisfiesVacuum
 * sees them), which is why it is mvcc's.
 * Compaction asks the same count of deleted rows, and GroupRewritePays, to
 * choose the groups it rewrites (tableam/compaction.c).
 *
 * IDENTIFICATION
 *	  src/mvcc/group_retire.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/heapam.h"
#include "access/transam.h"
#include "commands/vacuum.h"
#include "storage/bufmgr.h"
#include "storage/procarray.h"
#include "utils/rel.h"

#include "mvcc/group_retire.h"
#include "mvcc/visibility.h"
#include "storage/delta_chain.h"
#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/group_reclaim.h"
#include "storage/metapage.h"
#include "storage/promotion_map.h"

/*
 * GroupRewritePays
 *		Whether compaction should rewrite a settled row group of nrows rows,
 *		deleted of which are deleted by committed transactions: some but not
 *		all are deleted, and at least half of them (a rewrite writes at most
 *		one live row per row it frees); or, for colstore.compact() (not
 *		automatic), at least GROUP_REWRITE_MIN_SHARE of them and at least
 *		GROUP_REWRITE_MIN_ROWS (at most four live rows rewritten per row
 *		freed, and not a group of a few hundred rows for a few of them).
 *		The background worker (automatic) keeps to half: with a fifth it
 *		kept rewriting the groups of rows that single-row upserts were
 *		updating, and doubled such a table (src/README.md, "Rewriting partly
 *		deleted row groups").
 */
bool
GroupRewritePays(uint32 nrows, uint32 deleted, bool automatic)
{
	if (deleted == 0 || deleted >= nrows)
		return false;
	if ((uint64) deleted * 2 >= nrows)
		return true;
	return !automatic &&
		(double) deleted >= GROUP_REWRITE_MIN_SHARE * nrows &&
		deleted >= GROUP_REWRITE_MIN_ROWS;
}

/*
 * Rows of group that have no copy and no deleted-rows bit and whose delete
 * the delete log holds by a committed transaction (storage/delete_log.c).
 */
static uint32
CountLoggedDeletes(Relation rel, const RowGroupDirEntry *group)
{
	ItemPointerData *copies = palloc(sizeof(ItemPointerData) * group->rg_nrows);
	bool	   *deleted = palloc(sizeof(bool) * group->rg_nrows);
	DeleteRun  *runs = palloc(sizeof(DeleteRun) * group->rg_nrows);
	uint32		count = 0;
	uint32		i;

	(void) PromotionMapGetRange(rel, group, 0, group->rg_nrows, copies, deleted, runs);
	for (i = 0; i < group->rg_nrows; i++)
		if (TransactionIdIsValid(runs[i].xid) && !TransactionIdIsInProgress(runs[i].xid) &&
			TransactionIdDidCommit(runs[i].xid))
			count++;
	pfree(copies);
	pfree(deleted);
	pfree(runs);
	return count;
}

/*
 * GroupCountDeleted
 *		How many rows of group are deleted by committed transactions (their
 *		promoted copies are dead or recently dead as of oldest_xmin, or
 *		pruned, or their delete log's run committed, storage/delete_log.c);
 *		*pruned says how many of those VACUUM has pruned (LP_DEAD,
 *		or deleted for everyone by their deleted-rows bit,
 *		storage/deleted_rows.c).
 */
uint32
GroupCountDeleted(Relation rel, const RowGroupDirEntry *group, TransactionId oldest_xmin,
				  BufferAccessStrategy strategy, uint32 *pruned)
{
	ItemPointerData *copies;
	Buffer		buf = InvalidBuffer;
	uint32		deleted = 0;
	uint32		i;

	*pruned = 0;
	if (group->rg_state_root == 0)
		return 0;
	/* rows deleted for everyone: their copies were pruned, nothing to read */
	copies = GroupSortedCopies(rel, group, &deleted);
	*pruned = deleted;
	for (i = 0; i < group->rg_nrows; i++)
	{
		BlockNumber blkno = ItemPointerGetBlockNumberNoCheck(&copies[i]);
		OffsetNumber off = ItemPointerGetOffsetNumberNoCheck(&copies[i]);
		HeapTupleData tuple;

		if (!ItemPointerIsValid(&copies[i]))
			continue;			/* never promoted: not deleted */
		if (!BufferIsValid(buf) || BufferGetBlockNumber(buf) != blkno)
		{
			if (BufferIsValid(buf))
				UnlockReleaseBuffer(buf);
			buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
		}
		if (HeapItemIsDead(buf, off))
		{
			(*pruned)++;
			deleted++;
		}
		else if (DeltaRedirectTarget(rel, buf, off) != InvalidOffsetNumber)
		{
			/*
			 * a dead copy whose HOT chain lives on: the row is deleted, but
			 * its index entries stay (they lead to the chain), so it is not
			 * pruned and the group is not retired
			 */
			deleted++;
		}
		else if (HeapVersionRead(rel, buf, off, &tuple))
		{
			HTSV_Result r = HeapTupleSatisfiesVacuum(&tuple, oldest_xmin, buf);

			if (r == HEAPTUPLE_DEAD || r == HEAPTUPLE_RECENTLY_DEAD)
				deleted++;
		}
	}
	if (BufferIsValid(buf))
		UnlockReleaseBuffer(buf);
	pfree(copies);
	deleted += CountLoggedDeletes(rel, group);
	return deleted;
}

/*
 * GroupReclaimRetire
 *		Step 1 of the file header.  Call after VACUUM's index passes, so the
 *		copies it pruned have lost their rows' index entries.  Returns the
 *		number of row groups retired; *sparse_rows is set to the number of
 *		rows left in groups whose rewrite pays to the worker
 *		(GroupRewritePays), which
 *		compaction rewrites (tableam/compaction.c), and *quiet_rows to the
 *		number left in groups whose rewrite pays only by colstore.compact()'s
 *		rule, which the worker rewrites once the table is quiet
 *		(tableam/compaction_choice.c).
 */
uint32
GroupReclaimRetire(Relation rel, TransactionId oldest_xmin, BufferAccessStrategy strategy,
				   double *sparse_rows, double *quiet_rows)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			ncandidates = 0;
	int		   *candidates = palloc(sizeof(int) * Max(dir->ngroups, 1));
	uint32		retired = 0;
	int			i;

	*sparse_rows = 0;
	*quiet_rows = 0;
	for (i = 0; i < dir->ngroups; i++)
	{
		const RowGroupDirEntry *e = &dir->entries[dir->groups[i]];

		if (e->rg_state_root != 0 && !(e->rg_flags & RG_FLAG_INVALID))
			candidates[ncandidates++] = dir->groups[i];
	}
	for (i = 0; i < ncandidates; i++)
	{
		RowGroupDirEntry e = DirectoryGet(rel)->entries[candidates[i]];
		uint32		deleted;
		uint32		pruned;

		VacuumDelayPoint();
		if (!RowGroupInsertCommitted(&e))
			continue;
		deleted = GroupCountDeleted(rel, &e, oldest_xmin, strategy, &pruned);
		if (pruned < e.rg_nrows)
		{
			if (GroupRewritePays(e.rg_nrows, deleted, true))
				*sparse_rows += e.rg_nrows - deleted;
			else if (GroupRewritePays(e.rg_nrows, deleted, false))
				*quiet_rows += e.rg_nrows - deleted;
			continue;
		}
		/* a row's copy, once pruned, stays so: the entry cannot have changed */
		ColstoreLockWriter(rel);
		e = DirectoryGet(rel)->entries[candidates[i]];
		if (!(e.rg_flags & RG_FLAG_INVALID))
		{
			e.rg_flags |= RG_FLAG_INVALID | RG_FLAG_EMPTIED;
			e.rg_xmin = ReadNextTransactionId();
			DirectoryUpdateEntry(rel, candidates[i], &e);
			retired++;
		}
		ColstoreUnlockWriter(rel);
	}
	pfree(candidates);
	return retired;
}
