/*-------------------------------------------------------------------------
 *
 * compaction_choice.c
 *	  Which row groups compaction rewrites: the partly deleted ones whose
 *	  rewrite pays, and small ones merged into full-sized groups.
 *
 * Compaction (compaction.c) moves the live rows of the row groups chosen
 * here out of them, as it moves heap tuples; once VACUUM has pruned the
 * moved copies the old groups are retired and freed.  A group is a
 * candidate once every snapshot sees its insert (GroupSettled):
 *
 * - A group with some but not all of its rows deleted, when the rewrite
 *	 pays (GroupRewritePays, mvcc/group_retire.c: half deleted; for
 *	 colstore.compact() also a fifth and at least 64 rows).
 * - Groups of fewer rows than SMALL_GROUP_SHARE of row_group_size with no
 *	 changed row, at least two of them: statements estimated larger than
 *	 they were, CLUSTER among older snapshots, earlier compaction rounds.
 *
 * The worker rewrites a partly deleted group only when its live rows
 * rewritten would take less space than the group and its row state pages
 * (GroupRewriteShrinks, compaction_estimate.c): rows whose columns followed
 * a rule the deletes broke can take several times the group rewritten.
 *
 * colstore.compact() takes every candidate.  The compaction worker bounds
 * what one round takes, because a rewrite's old and new copies of the rows
 * coexist until the second VACUUM after it and so raise the file's
 * high-water mark: partly deleted groups until their live rows fill
 * REWRITE_ROUND_GROUPS groups where they move through promoted copies, or
 * RUN_REWRITE_ROUND_GROUPS where they move through the groups' delete logs
 * (a bit a row, no copy: compaction.c), and small groups a quarter group
 * at a time,
 * only when the merge fits in free pages and keeps the file within
 * MERGE_HEAP_SHARE of what its rows would take as heap tuples
 * (MergeFitsFreeSpace).  A worker that merged whenever small groups held a
 * quarter group ended 009_auto_compaction's table of small inserts near or
 * above heap's size (src/README.md, "Merging small row groups").
 *
 * The quiet rules (QuietGroups).  When nobody writes the table (the worker
 * found it quiet: tableam/compaction_bulk.c), the reason for the worker's
 * stricter rules, rows being rewritten while writers keep changing them,
 * is gone: a round takes the groups of fewer than SMALL_GROUP_SHARE live
 * rows, deleted rows or not, up to a row group's worth of live rows and
 * as many as fit in MergeRoom (at least two), and the larger groups whose
 * rewrite pays by colstore.compact()'s rule (a fifth deleted), within the
 * same bounds.  Single-row upserts leave many small groups (each worker
 * round's moves) about half of whose rows they later updated: 146 such
 * groups held 140,703 rows for 99,981 live ones.  A random 30% DELETE
 * leaves every group of the table 30% deleted: the VACUUM after it starts
 * a worker that looks for a quiet table first (tableam/am_vacuum.c,
 * compaction_worker.c), and the quiet rounds rewrite the groups.
 *
 * IDENTIFICATION
 *	  src/tableam/compaction_choice.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/htup_details.h"
#include "miscadmin.h"
#include "storage/freespace.h"
#include "storage/itemid.h"
#include "storage/procarray.h"
#include "utils/rel.h"

#include "mvcc/group_retire.h"
#include "mvcc/row_state.h"
#include "mvcc/visibility.h"
#include "storage/directory.h"
#include "storage/metapage.h"
#include "storage/table_options.h"
#include "tableam/compaction_choice.h"
#include "tableam/compaction_estimate.h"

/*
 * Row groups of fewer rows than this share of row_group_size are merged
 * (SmallGroups); the worker merges them once they hold this share
 * together, that many rows at a time (WorkerMergeMinimum).
 */
#define SMALL_GROUP_SHARE	0.25

/*
 * A worker round (min_rows > 1) stops taking partly deleted row groups once
 * their live rows fill this many full groups: the promoted copies and new
 * groups of one round then land in the pages the VACUUMs after the round
 * before freed, instead of the whole table's live rows being copied at once
 * (src/README.md, "Rewriting partly deleted row groups").
 */
#define REWRITE_ROUND_GROUPS	1

/*
 * ... but a group whose rows move through its delete log
 * (RowStateMayMoveByRun: no promoted copy, a run bit a row and the new
 * group) costs a fraction of that: a round takes such groups until their
 * live rows fill this many full groups (about 2,000,000 rows by default).
 * The bound keeps a round's transaction, its index entries and the next
 * VACUUM's work moderate, and lets the next round's log pages and new
 * groups take the pages this one's freed.
 */
#define RUN_REWRITE_ROUND_GROUPS	16

/*
 * The worker's merges grow the file only while it stays at most this share
 * of the size of its rows as heap tuples (MergeFitsFreeSpace).
 */
#define MERGE_HEAP_SHARE		0.5

/*
 * Free space the worker's merges count on: pages at least this free (freed
 * row groups' pages, emptied heap pages), which a merged group's pages can
 * take as well as promoted copies; scattered room on busy heap pages does
 * not count.
 */
#define MERGE_EMPTY_PAGE_FREE	(BLCKSZ * 3 / 4)


/*
 * What a worker round may still take of partly deleted row groups: live
 * rows moved through promoted copies, and live rows moved through delete
 * logs, each against its bound (REWRITE_ROUND_GROUPS,
 * RUN_REWRITE_ROUND_GROUPS); unbounded for colstore.compact().
 */
typedef struct RewriteBudget
{
	uint64		copies_left;
	uint64		runs_left;
} RewriteBudget;

static void
RewriteBudgetInit(RewriteBudget *budget, int row_group_size, bool worker)
{
	budget->copies_left = worker ?
		(uint64) row_group_size * REWRITE_ROUND_GROUPS : PG_UINT64_MAX;
	budget->runs_left = worker ?
		(uint64) row_group_size * RUN_REWRITE_ROUND_GROUPS : PG_UINT64_MAX;
}

/*
 * Take row group e, with live rows, out of budget if it has room left
 * for it (a round takes a group as long as its bound is not used up, so
 * the last group may overshoot it); returns whether it did.
 */
static bool
RewriteBudgetTake(RewriteBudget *budget, Relation rel, const RowGroupDirEntry *e,
				  uint64 live)
{
	uint64	   *left = RowStateMayMoveByRun(rel, e) ?
		&budget->runs_left : &budget->copies_left;

	if (*left == 0)
		return false;
	*left -= Min(*left, live);
	return true;
}

/* Whether every snapshot sees the insert of row group e. */
static bool
GroupSettled(const RowGroupDirEntry *e, TransactionId oldest_xmin)
{
	return (e->rg_flags & RG_FLAG_FROZEN) ||
		(RowGroupInsertCommitted(e) && TransactionIdPrecedes(e->rg_xmin, oldest_xmin));
}

/*
 * The row groups of rel that compaction merges: settled ones (every
 * snapshot sees their rows, oldest_xmin) without deleted or changed rows,
 * of fewer than SMALL_GROUP_SHARE of row_group_size rows, in directory
 * order until they hold max_total rows together, when there are at least
 * two of them holding at least min_total rows.  Returns their directory
 * indexes (palloc'd), their count in *ngroups and their rows in *nrows
 * (0 and 0 if none qualify).
 */
static int *
SmallGroups(Relation rel, TransactionId oldest_xmin, int row_group_size,
			uint64 min_total, uint64 max_total, int *ngroups, uint64 *nrows)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int		   *groups = palloc(sizeof(int) * Max(dir->ngroups, 1));
	uint32		limit = (uint32) (row_group_size * SMALL_GROUP_SHARE);
	int			g;

	*ngroups = 0;
	*nrows = 0;
	for (g = 0; g < dir->ngroups && *nrows < max_total; g++)
	{
		const RowGroupDirEntry *e = &dir->entries[dir->groups[g]];

		if (e->rg_state_root == 0 && !(e->rg_flags & RG_FLAG_INVALID) &&
			e->rg_nrows > 0 && e->rg_nrows < limit && GroupSettled(e, oldest_xmin))
		{
			groups[(*ngroups)++] = dir->groups[g];
			*nrows += e->rg_nrows;
		}
	}
	if (*ngroups < 2 || *nrows < min_total)
	{
		*ngroups = 0;
		*nrows = 0;
	}
	return groups;
}

/* The rows small groups must hold together for the worker to merge them. */
static uint64
WorkerMergeMinimum(int row_group_size)
{
	return (uint64) (row_group_size * SMALL_GROUP_SHARE);
}

/* About the bytes row group e's rows take as heap tuples. */
static uint64
GroupHeapBytes(const RowGroupDirEntry *e)
{
	return e->rg_raw_bytes +
		(uint64) e->rg_nrows * (MAXALIGN(SizeofHeapTupleHeader) + sizeof(ItemIdData));
}

static uint64 MergeRoom(Relation rel, uint64 need);

/*
 * The room merging row group e needs until the second VACUUM after it: its
 * rows' promoted copies (about their heap size) and its rows in the merged
 * group (about its stored size).
 */
static uint64
MergeNeed(const RowGroupDirEntry *e)
{
	return GroupHeapBytes(e) + e->rg_stored_bytes;
}

/*
 * Whether the worker may merge the nsmall row groups at directory indexes
 * small now.  A merge's old and new copies of the rows coexist until the
 * second VACUUM after it: it needs room for the rows' promoted copies (heap
 * tuples, GroupHeapBytes) and for the merged group (about their stored
 * size).  It may take pages the free space map records as free, and grow
 * the file only as long as the file stays at most MERGE_HEAP_SHARE of the
 * size its rows would take as heap tuples: so merging never raises the
 * high-water mark of a compact table above that share of heap's.
 */
static bool
MergeFitsFreeSpace(Relation rel, const int *small, int nsmall)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	uint64		need = 0;
	int			g;

	for (g = 0; g < nsmall; g++)
		need += MergeNeed(&dir->entries[small[g]]);
	return MergeRoom(rel, need) >= need;
}

/*
 * The room a merge may take now (MergeFitsFreeSpace), counted until it
 * reaches need: the growth the file has left under MERGE_HEAP_SHARE of its
 * rows' heap size, and the pages the free space map records as at least
 * MERGE_EMPTY_PAGE_FREE free.
 */
static uint64
MergeRoom(Relation rel, uint64 need)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	BlockNumber nblocks = ColstorePhysicalBlocks(rel);
	uint64		heap_bytes = 0;
	uint64		file_bytes = (uint64) nblocks * BLCKSZ;
	uint64		room;
	Size		avail;
	BlockNumber blkno;
	int			g;

	for (g = 0; g < dir->ngroups; g++)
	{
		const RowGroupDirEntry *e = &dir->entries[dir->groups[g]];

		if (!(e->rg_flags & RG_FLAG_INVALID))
			heap_bytes += GroupHeapBytes(e);
	}
	room = file_bytes < MERGE_HEAP_SHARE * heap_bytes ?
		(uint64) (MERGE_HEAP_SHARE * heap_bytes) - file_bytes : 0;
	for (blkno = 0; blkno < nblocks && room < need; blkno++)
	{
		if ((blkno & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
		avail = GetRecordedFreeSpace(rel, blkno);
		if (avail >= MERGE_EMPTY_PAGE_FREE)
			room += avail;
	}
	return room;
}

/*
 * CompactionRetiredPending
 *		Whether a row group of rel was retired and not freed yet (the old
 *		groups of a rewrite or merge): a later VACUUM frees it once its stamp
 *		precedes the oldest xmin, and the worker rewrites no row group until
 *		then (see the file header).
 */
bool
CompactionRetiredPending(Relation rel)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			i;

	for (i = 0; i < dir->ngroups; i++)
	{
		uint16		flags = dir->entries[dir->groups[i]].rg_flags;

		if ((flags & RG_FLAG_EMPTIED) && !(flags & RG_FLAG_FREED))
			return true;
	}
	return false;
}

/*
 * CompactionMergeableRows
 *		The rows of rel's small row groups that a compaction worker would
 *		merge now (0 if none, or if the merge does not fit:
 *		MergeFitsFreeSpace), for VACUUM's decision to start one.
 */
uint64
CompactionMergeableRows(Relation rel)
{
	ColstoreOptions opts;
	int			ngroups;
	uint64		nrows;
	int		   *small;

	ColstoreGetOptions(RelationGetRelid(rel), &opts);
	small = SmallGroups(rel, GetOldestNonRemovableTransactionId(rel), opts.row_group_size,
						WorkerMergeMinimum(opts.row_group_size),
						WorkerMergeMinimum(opts.row_group_size), &ngroups, &nrows);
	if (ngroups > 0 && !MergeFitsFreeSpace(rel, small, ngroups))
		nrows = 0;
	pfree(small);
	return nrows;
}

/*
 * The row groups a worker round rewrites in a quiet table (the quiet rules,
 * see the file header): among the settled groups with live rows, those of
 * fewer than SMALL_GROUP_SHARE of row_group_size live rows, deleted rows or
 * not, in directory order while their live rows fit in one row group and
 * their merge in MergeRoom, when at least two are taken; then the larger
 * ones whose rewrite pays by colstore.compact()'s rule, within the round's
 * bounds (RewriteBudget).  result has room for every group.
 */
static int
QuietGroups(Relation rel, TransactionId oldest_xmin, int row_group_size,
			int *result, int *nrewritten, int *nmerged)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			ngroups = dir->ngroups;
	int		   *order = palloc(sizeof(int) * Max(ngroups, 1));
	uint32	   *live = palloc(sizeof(uint32) * Max(ngroups, 1));
	bool	   *small = palloc(sizeof(bool) * Max(ngroups, 1));
	uint32		limit = (uint32) (row_group_size * SMALL_GROUP_SHARE);
	uint64		need = 0;
	uint64		room;
	uint64		small_rows = 0;
	RewriteBudget budget;
	int			ncand = 0;
	int			nsmall = 0;
	int			n = 0;
	int			g;

	for (g = 0; g < ngroups; g++)
		order[g] = dir->groups[g];
	for (g = 0; g < ngroups; g++)
	{
		/* the directory may be reread by GroupCountDeleted: copy the entry */
		RowGroupDirEntry e = DirectoryGet(rel)->entries[order[g]];
		uint32		deleted = 0;
		uint32		pruned;

		if ((e.rg_flags & RG_FLAG_INVALID) || e.rg_nrows == 0 ||
			!GroupSettled(&e, oldest_xmin))
			continue;
		if (e.rg_state_root != 0)
			deleted = GroupCountDeleted(rel, &e, oldest_xmin, NULL, &pruned);
		if (deleted >= e.rg_nrows)
			continue;			/* VACUUM retires it */
		order[ncand] = order[g];
		live[ncand] = e.rg_nrows - deleted;
		small[ncand] = live[ncand] < limit;
		if (!small[ncand] && (!GroupRewritePays(e.rg_nrows, deleted, false) ||
							  !GroupRewriteShrinks(rel, order[ncand], &e)))
			continue;
		if (small[ncand])
		{
			nsmall++;
			need += MergeNeed(&e);
		}
		ncand++;
	}

	/* small groups: as many as fit, in order, if at least two */
	if (nsmall >= 2)
	{
		room = MergeRoom(rel, need);
		need = 0;
		for (g = 0; g < ncand; g++)
		{
			const RowGroupDirEntry *e = &DirectoryGet(rel)->entries[order[g]];

			if (!small[g])
				continue;
			if (small_rows + live[g] > (uint64) row_group_size ||
				need + MergeNeed(e) > room)
				break;
			need += MergeNeed(e);
			small_rows += live[g];
			result[n++] = order[g];
		}
		if (n < 2)
			n = 0;
	}
	*nmerged = n;

	/* larger groups whose rewrite pays */
	RewriteBudgetInit(&budget, row_group_size, true);
	for (g = 0; g < ncand; g++)
	{
		if (small[g] ||
			!RewriteBudgetTake(&budget, rel, &DirectoryGet(rel)->entries[order[g]], live[g]))
			continue;
		result[n++] = order[g];
	}
	*nrewritten = n - *nmerged;
	pfree(order);
	pfree(live);
	pfree(small);
	return n;
}

/*
 * CompactionGroupsToRewrite
 *		The directory indexes (palloc'd; their count in *ngroups) of rel's row
 *		groups whose live rows compaction moves now, oldest_xmin deciding
 *		which are settled: the partly deleted ones whose rewrite pays, then
 *		the small ones merged.  For the worker (worker), the partly deleted
 *		groups stop at the round's bounds (RewriteBudget), and
 *		small groups count only a quarter group at a time that fits in free
 *		space.  *nrewritten and *nmerged say how many of each.
 */
int *
CompactionGroupsToRewrite(Relation rel, TransactionId oldest_xmin,
						  int row_group_size, bool worker, bool quiet,
						  int *ngroups, int *nrewritten, int *nmerged)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			ncandidates = 0;
	int		   *candidates = palloc(sizeof(int) * Max(dir->ngroups, 1));
	int		   *result;
	int		   *small;
	int			nsmall;
	uint64		small_rows;
	uint64		merge_min = worker ? WorkerMergeMinimum(row_group_size) : 0;
	RewriteBudget budget;
	int			g;

	if (worker && quiet)
	{
		result = palloc(sizeof(int) * Max(dir->ngroups, 1));
		*ngroups = QuietGroups(rel, oldest_xmin, row_group_size, result,
							   nrewritten, nmerged);
		pfree(candidates);
		return result;
	}
	for (g = 0; g < dir->ngroups; g++)
	{
		const RowGroupDirEntry *e = &dir->entries[dir->groups[g]];

		if (e->rg_state_root != 0 && !(e->rg_flags & RG_FLAG_INVALID) &&
			GroupSettled(e, oldest_xmin))
			candidates[ncandidates++] = dir->groups[g];
	}
	small = SmallGroups(rel, oldest_xmin, row_group_size, merge_min,
						worker ? merge_min : PG_UINT64_MAX, &nsmall, &small_rows);
	if (worker && nsmall > 0 && !MergeFitsFreeSpace(rel, small, nsmall))
		nsmall = 0;

	result = palloc(sizeof(int) * (ncandidates + nsmall + 1));
	*ngroups = 0;
	RewriteBudgetInit(&budget, row_group_size, worker);
	for (g = 0; g < ncandidates && (budget.copies_left > 0 || budget.runs_left > 0); g++)
	{
		/* the directory may be reread by GroupCountDeleted: copy the entry */
		RowGroupDirEntry e = DirectoryGet(rel)->entries[candidates[g]];
		uint32		pruned;
		uint32		deleted = GroupCountDeleted(rel, &e, oldest_xmin, NULL, &pruned);

		if (!GroupRewritePays(e.rg_nrows, deleted, worker) ||
			(worker && !GroupRewriteShrinks(rel, candidates[g], &e)) ||
			!RewriteBudgetTake(&budget, rel, &e, e.rg_nrows - deleted))
			continue;
		result[(*ngroups)++] = candidates[g];
	}
	*nrewritten = *ngroups;
	for (g = 0; g < nsmall; g++)
		result[(*ngroups)++] = small[g];
	*nmerged = nsmall;
	pfree(candidates);
	pfree(small);
	return result;
}
