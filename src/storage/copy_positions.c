/*-------------------------------------------------------------------------
 *
 * copy_positions.c
 *	  The heap positions of the promoted copies of a colstore relation's
 *	  row groups, with their rows' TIDs, read from the promotion maps
 *	  (promotion_map.c) once, for callers that meet many heap items and
 *	  must tell which are copies.
 *
 * A HOT chain may start at a promoted copy (storage/delta_chain.c): its
 * members have no index entries of their own, they are reached through
 * the copy's row, whose entries name the row-group TID.  Index builds
 * index such members under the row's TID, and lossy bitmap pages of heap
 * pages skip them (they are returned through the row).  Once VACUUM has
 * made a dead copy a redirect to its chain's first live member, nothing on
 * the page says the redirect was a copy: only the promotion maps do.
 *
 * A copy's position never names anything else while its row group lives
 * (a pruned copy stays LP_DEAD, a redirected one a redirect, until the
 * group is retired and freed), so a set read after a snapshot was taken
 * holds every copy a version that snapshot sees can descend from.  Row
 * groups flagged INVALID (retired or aborted) are left out: their copies
 * hold no chain.
 *
 * IDENTIFICATION
 *	  src/storage/copy_positions.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/memutils.h"

#include "storage/copy_positions.h"
#include "storage/directory.h"
#include "storage/promotion_map.h"
#include "storage/rowgroup_format.h"

static int
CompareCopy(const void *a, const void *b)
{
	return ItemPointerCompare((ItemPointer) &((const CopyPosition *) a)->copy,
							  (ItemPointer) &((const CopyPosition *) b)->copy);
}

/*
 * CopyPositionsBuild
 *		Read the promotion maps of every valid row group of rel into a
 *		sorted set, palloc'd in the current memory context.
 */
CopyPositions *
CopyPositionsBuild(Relation rel)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			ngroups = dir->ngroups;
	RowGroupDirEntry *groups = palloc(sizeof(RowGroupDirEntry) * Max(ngroups, 1));
	CopyPositions *cp = palloc0(sizeof(CopyPositions));
	ItemPointerData *copies = NULL;
	bool	   *deleted = NULL;
	uint32		capacity = 0;
	uint32		allocated = 0;
	int			g;

	/* the directory cache may be replaced while the maps are read */
	for (g = 0; g < ngroups; g++)
		groups[g] = dir->entries[dir->groups[g]];
	for (g = 0; g < ngroups; g++)
	{
		const RowGroupDirEntry *e = &groups[g];
		uint32		i;

		if (e->rg_state_root == 0 || (e->rg_flags & RG_FLAG_INVALID))
			continue;
		CHECK_FOR_INTERRUPTS();
		if (e->rg_nrows > capacity)
		{
			capacity = e->rg_nrows;
			copies = copies ? repalloc(copies, sizeof(ItemPointerData) * capacity) :
				palloc(sizeof(ItemPointerData) * capacity);
			deleted = deleted ? repalloc(deleted, sizeof(bool) * capacity) :
				palloc(sizeof(bool) * capacity);
		}

		/*
		 * a row deleted for everyone roots no chain; its copy reads invalid
		 * (its item may be freed and taken by another tuple)
		 */
		(void) PromotionMapGetRange(rel, e, 0, e->rg_nrows, copies, deleted, NULL);
		for (i = 0; i < e->rg_nrows; i++)
		{
			if (!ItemPointerIsValid(&copies[i]))
				continue;
			if (cp->n == allocated)
			{
				allocated = Max(allocated * 2, 64);
				cp->items = cp->items ?
					repalloc_huge(cp->items, sizeof(CopyPosition) * allocated) :
					palloc_extended(sizeof(CopyPosition) * allocated, MCXT_ALLOC_HUGE);
			}
			cp->items[cp->n].copy = copies[i];
			RowNumberToItemPointer(e->rg_first_row + i, &cp->items[cp->n].row);
			cp->n++;
		}
	}
	if (cp->n > 1)
		qsort(cp->items, cp->n, sizeof(CopyPosition), CompareCopy);
	if (copies)
	{
		pfree(copies);
		pfree(deleted);
	}
	pfree(groups);
	return cp;
}

/*
 * CopyPositionsLookup
 *		Is heap position copy a promoted copy in cp?  If so, *row (may be
 *		NULL) is set to its row's TID.
 */
bool
CopyPositionsLookup(const CopyPositions *cp, ItemPointer copy, ItemPointer row)
{
	CopyPosition key;
	CopyPosition *hit;

	if (cp == NULL || cp->n == 0)
		return false;
	key.copy = *copy;
	hit = bsearch(&key, cp->items, cp->n, sizeof(CopyPosition), CompareCopy);
	if (hit == NULL)
		return false;
	if (row != NULL)
		*row = hit->row;
	return true;
}

/* CopyPositionsFree: release cp (may be NULL). */
void
CopyPositionsFree(CopyPositions *cp)
{
	if (cp == NULL)
		return;
	if (cp->items)
		pfree(cp->items);
	pfree(cp);
}
