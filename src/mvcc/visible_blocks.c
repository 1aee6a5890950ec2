/*-------------------------------------------------------------------------
 *
 * visible_blocks.c
 *	  Which pseudo-blocks of a colstore table VACUUM marks all-visible in
 *	  the visibility map (storage/all_visible.c keeps the bits and their
 *	  interlock with writers; this file judges).
 *
 * A pseudo-block b holds the TIDs of rows [291 b, 291 b + 291).  It is
 * marked all-visible when every one of those row numbers belongs to a row
 * group that
 *	- is valid (not INVALID: not aborted, retired or freed) and was
 *	  inserted by a transaction that committed before OldestXmin (or is
 *	  FROZEN), so every snapshot, now and later, sees its rows, and no
 *	  writer still buffers rows under those numbers (a reservation's numbers,
 *	  whose rows may have index entries before they reach a row group, are
 *	  covered by no row group);
 * or has not been handed out yet, in the pseudo-block that holds the next
 * row number (the partly used last block, where the planner's probes for
 * a key column's largest value land: get_actual_variable_range).  A
 * writer taking numbers that start inside a pseudo-block clears its bit
 * after the metapage shows them taken and before any has an index entry
 * (AppendRowRange); this judgment reads the next row number under the
 * map page's lock, so either it sees them taken or the writer sees the
 * bit.  Pseudo-blocks wholly beyond the next row number are never
 * marked.
 * and every one of those rows either is untouched (no promotion map slot:
 * no copy, so no newer version and no lock state; no run in the delete
 * log, committed, running or aborted) or is deleted for everyone with its
 * deleted-rows bit set (VACUUM sets the bit only after the row's index
 * entries are gone, so no entry leads there).  So an index entry in such a
 * block names a row every snapshot sees with the entry's values: rows of
 * row groups are never changed in place, and an entry's values are its
 * row's.  Heap pages' pseudo-blocks are never marked (their tuples have
 * their own versions and visibility), nor are blocks of row groups that
 * compaction is rewriting (their rows have copies).
 *
 * The standby conflict horizon of a marked range is the newest inserting
 * xid of the row groups it overlaps: a standby snapshot that might still
 * see one of them as running must not trust the bits.
 *
 * IDENTIFICATION
 *	  src/mvcc/visible_blocks.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/transam.h"
#include "utils/rel.h"

#include "mvcc/visibility.h"
#include "mvcc/visible_blocks.h"
#include "storage/all_visible.h"
#include "storage/directory.h"
#include "storage/promotion_map.h"

typedef struct JudgeState
{
	Relation	rel;
	TransactionId oldest_xmin;
} JudgeState;

/* Does every snapshot, now and later, see group g's rows as inserted? */
static bool
GroupSettled(const RowGroupDirEntry *g, TransactionId oldest_xmin)
{
	if (g->rg_kind != RG_KIND_ROWGROUP || (g->rg_flags & RG_FLAG_INVALID))
		return false;
	if (g->rg_flags & RG_FLAG_FROZEN)
		return true;
	return TransactionIdIsNormal(g->rg_xmin) &&
		TransactionIdPrecedes(g->rg_xmin, oldest_xmin) &&
		RowGroupInsertCommitted(g);
}

/*
 * The AllVisibleJudge: count, per pseudo-block of [first, first + n), the
 * clean rows of settled row groups (see the file header); a block is
 * eligible when all of its row numbers are.  Reads the directory and the
 * promotion maps afresh: the caller holds the map page lock that orders
 * this judgment against writers' clearing.
 */
static void
Judge(void *arg, BlockNumber first, uint32 n, bool *eligible,
	  TransactionId *horizon)
{
	JudgeState *js = (JudgeState *) arg;
	ColstoreDirectory *dir = DirectoryGet(js->rel);
	uint64		next_row = dir->next_row;
	uint64		lo = (uint64) first * ROWS_PER_TID_BLOCK;
	uint64		hi = (uint64) (first + n) * ROWS_PER_TID_BLOCK;
	uint32	   *clean = palloc0(sizeof(uint32) * n);
	RowGroupDirEntry *groups;
	int			ngroups = 0;
	int			a = 0,
				b = dir->ngroups;
	int			g;
	uint32		i;

	*horizon = InvalidTransactionId;

	/* the first row group ending after lo, then those starting before hi */
	while (a < b)
	{
		int			m = (a + b) / 2;
		const RowGroupDirEntry *e = &dir->entries[dir->groups[m]];

		if (e->rg_first_row + e->rg_nrows <= lo)
			a = m + 1;
		else
			b = m;
	}
	groups = palloc(sizeof(RowGroupDirEntry) * Max(dir->ngroups - a, 1));
	for (g = a; g < dir->ngroups; g++)
	{
		const RowGroupDirEntry *e = &dir->entries[dir->groups[g]];

		if (e->rg_first_row >= hi)
			break;
		groups[ngroups++] = *e;
	}

	for (g = 0; g < ngroups; g++)
	{
		const RowGroupDirEntry *e = &groups[g];
		uint64		s;
		uint64		end;

		if (!GroupSettled(e, js->oldest_xmin))
			continue;
		s = Max(lo, e->rg_first_row);
		end = Min(hi, e->rg_first_row + e->rg_nrows);
		if (e->rg_state_root == 0)
		{
			/* nothing promoted or deleted in the group */
			uint64		r = s;

			while (r < end)
			{
				uint64		blk = r / ROWS_PER_TID_BLOCK;
				uint64		next = Min(end, (blk + 1) * ROWS_PER_TID_BLOCK);

				clean[blk - first] += (uint32) (next - r);
				r = next;
			}
		}
		else
		{
			uint32		cnt = (uint32) (end - s);
			ItemPointerData *copies = palloc(sizeof(ItemPointerData) * cnt);
			bool	   *deleted = palloc(sizeof(bool) * cnt);
			DeleteRun  *runs = palloc(sizeof(DeleteRun) * cnt);

			(void) PromotionMapGetRange(js->rel, e, (uint32) (s - e->rg_first_row),
										cnt, copies, deleted, runs);
			for (i = 0; i < cnt; i++)
				if (deleted[i] ||
					(!ItemPointerIsValid(&copies[i]) && !TransactionIdIsValid(runs[i].xid)))
					clean[(s + i) / ROWS_PER_TID_BLOCK - first]++;
			pfree(copies);
			pfree(deleted);
			pfree(runs);
		}
		if (!(e->rg_flags & RG_FLAG_FROZEN) &&
			(!TransactionIdIsValid(*horizon) ||
			 TransactionIdFollows(e->rg_xmin, *horizon)))
			*horizon = e->rg_xmin;
	}
	/* the numbers of the next row's pseudo-block not handed out yet */
	if (next_row % ROWS_PER_TID_BLOCK != 0 &&
		next_row / ROWS_PER_TID_BLOCK >= first &&
		next_row / ROWS_PER_TID_BLOCK < (uint64) first + n)
		clean[next_row / ROWS_PER_TID_BLOCK - first] +=
			(uint32) (ROWS_PER_TID_BLOCK - next_row % ROWS_PER_TID_BLOCK);
	for (i = 0; i < n; i++)
		eligible[i] = clean[i] == ROWS_PER_TID_BLOCK;
	pfree(clean);
	pfree(groups);
}

/*
 * VisibleBlocksMark
 *		VACUUM's last step: give every pseudo-block of rel its all-visible
 *		bit (set where the file header's rule allows, cleared elsewhere),
 *		with oldest_xmin VACUUM's horizon.  Returns the number of
 *		pseudo-blocks marked, for pg_class.relallvisible.
 */
BlockNumber
VisibleBlocksMark(Relation rel, TransactionId oldest_xmin)
{
	JudgeState	js;
	ColstoreDirectory *dir = DirectoryGet(rel);
	uint64		nblocks = (dir->next_row + ROWS_PER_TID_BLOCK - 1) / ROWS_PER_TID_BLOCK;

	js.rel = rel;
	js.oldest_xmin = oldest_xmin;
	return AllVisibleUpdate(rel, (BlockNumber) Min(nblocks, (uint64) COLSTORE_TID_BLOCK_LIMIT),
							Judge, &js);
}
