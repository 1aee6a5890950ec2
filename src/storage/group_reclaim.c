/*-------------------------------------------------------------------------
 *
 * group_reclaim.c
 *	  VACUUM's freeing of whole row groups: giving the space of the groups
 *	  no backend can read any more to new heap tuples and new row groups.
 *
 * A row group's space can be reused only when no backend can read it any
 * more, and a scan reads the groups of the directory it copied when it
 * began.  So reclaiming takes two VACUUMs, as btree's page recycling does:
 *
 * 1. GroupReclaimRetire (mvcc/group_retire.c, which decides whether the
 *	  rows are gone): a row group every row of which has a promoted copy
 *	  that VACUUM pruned (LP_DEAD: deleted for every snapshot, its index
 *	  entries removed) is marked INVALID | EMPTIED, and its rg_xmin becomes
 *	  the next transaction id: its stamp.  From then on no scan, fetch or
 *	  verify reads it.  A scan that copied the directory earlier holds a
 *	  snapshot whose xmin is at most the stamp.
 * 2. GroupReclaimFree, in a later VACUUM: an INVALID row group (retired as
 *	  above, or one whose inserter aborted, whose rg_xmin is then that
 *	  transaction) whose stamp precedes OldestXmin can no longer be read by
 *	  anyone.  It is marked FREED first (a crash after that leaks its pages,
 *	  never reuses pages still referenced), then:
 *	  - its copies' LP_DEAD items become LP_UNUSED (XLOG_COLSTORE_PRUNE);
 *	  - the stream pages only it used and its promotion map pages become
 *	    empty heap pages (a full-page generic WAL record each) and go to the
 *	    free space map, where heap_insert and heap_update (UPDATE versions,
 *	    promotions, small INSERTs) find them; delta_heap.c registers such a
 *	    page when a tuple lands on it.  A stream page the group shares with
 *	    its neighbours in the stream (its first and last, unless they begin
 *	    and end with it) is given with the last of them to be freed, and
 *	    the stream's tail page never.  Writers of row groups, directory and
 *	    promotion map pages take such pages back from the free space map
 *	    before extending the relation (page_reuse.c), and VACUUM gives
 *	    the empty end of the file back (space_truncate.c).
 *	  Standby queries get the conflict first: a record whose redo only
 *	  cancels the queries with xmin at or before the newest stamp.  Stock
 *	  PostgreSQL has one such record, btree's "reuse page"
 *	  (XLOG_BTREE_REUSE_PAGE); it names this relation and touches no page
 *	  (LogStandbyConflict, delta_wal.c).
 *
 * Step 2 is this file's: it judges a group only by its directory flags and
 * stamp against the horizon VACUUM passes in.
 *
 * Row numbers are never reused, so index entries that still name a retired
 * group's rows (left by a VACUUM that failed before its index pass) read as
 * dead rows, never as other rows.
 *
 * IDENTIFICATION
 *	  src/storage/group_reclaim.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/heapam.h"
#include "access/transam.h"
#include "access/xlog.h"
#include "access/xloginsert.h"
#include "commands/vacuum.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "storage/delta_vacuum.h"
#include "storage/delta_wal.h"
#include "storage/directory.h"
#include "storage/group_reclaim.h"
#include "storage/metapage.h"
#include "storage/page_reuse.h"
#include "storage/promotion_map.h"
#include "storage/rowgroup_reader.h"

/* Sorts heap positions by block, then offset. */
static int
ComparePositions(const void *a, const void *b)
{
	return ItemPointerCompare((ItemPointer) a, (ItemPointer) b);
}

/*
 * GroupSortedCopies
 *		The promoted copies of group's rows, sorted by position (invalid
 *		ones last: rows never promoted, and the *ndeleted rows deleted for
 *		everyone, storage/deleted_rows.c, whose copies are not to be read),
 *		palloc'd.
 */
ItemPointerData *
GroupSortedCopies(Relation rel, const RowGroupDirEntry *group, uint32 *ndeleted)
{
	ItemPointerData *copies = palloc(sizeof(ItemPointerData) * Max(group->rg_nrows, 1));
	bool	   *deleted = palloc(sizeof(bool) * Max(group->rg_nrows, 1));
	uint32		i;

	*ndeleted = 0;
	if (PromotionMapGetRange(rel, group, 0, group->rg_nrows, copies, deleted, NULL))
		for (i = 0; i < group->rg_nrows; i++)
			*ndeleted += deleted[i];
	pfree(deleted);
	qsort(copies, group->rg_nrows, sizeof(ItemPointerData), ComparePositions);
	return copies;
}

/* True if no backend can still read invalid row group e (see the file header). */
static bool
StampPassed(const RowGroupDirEntry *e, TransactionId oldest_xmin)
{
	return !TransactionIdIsNormal(e->rg_xmin) ||
		TransactionIdPrecedes(e->rg_xmin, oldest_xmin);
}

/* Next block of the page stream after blkno, or an error if it has none. */
static BlockNumber
NextStreamPage(Relation rel, BlockNumber blkno, BufferAccessStrategy strategy)
{
	Buffer		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
	BlockNumber next;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	ColstoreCheckPage(rel, blkno, BufferGetPage(buf), COLSTORE_PAGE_DATA);
	next = ColstorePageGetOpaque(BufferGetPage(buf))->cp_next;
	UnlockReleaseBuffer(buf);
	if (next == InvalidBlockNumber)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("colstore table \"%s\": page stream ends at block %u inside a row group",
						RelationGetRelationName(rel), blkno)));
	return next;
}

/* The pages one row group's freeing gives to heap tuples. */
typedef struct PageList
{
	BlockNumber *pages;
	int			n;
	int			capacity;
} PageList;

static void
AppendPage(PageList *list, BlockNumber blkno)
{
	if (list->n >= list->capacity)
	{
		list->capacity *= 2;
		list->pages = repalloc(list->pages, sizeof(BlockNumber) * list->capacity);
	}
	list->pages[list->n++] = blkno;
}

/*
 * Stream order.  Row groups are written one after another under the writer
 * lock, each starting where the previous one ended (the metapage's stream
 * tail; bytes of a write that never published its entry are overwritten by
 * the next one), so the groups' runs follow each other in the order of
 * their directory entries.  A page where one group ends and the next begins
 * holds bytes of both (and of any group wholly inside it); it is freed with
 * the last of them.
 */

/* Directory index of the row group before (step -1) or after (+1) index, or -1. */
static int
NeighbourGroup(const ColstoreDirectory *dir, int index, int step)
{
	for (index += step; index >= 0 && index < (int) dir->count; index += step)
		if (dir->entries[index].rg_kind == RG_KIND_ROWGROUP)
			return index;
	return -1;
}

/* Is group e's whole header on page blkno, ending before the page's end? */
static bool
HeaderEndsInside(const RowGroupDirEntry *e, BlockNumber blkno)
{
	return e->rg_header.sp_block == blkno &&
		(uint64) e->rg_header.sp_offset + e->rg_header_len < COLSTORE_DATA_END;
}

/*
 * Are the row groups before index that have bytes on page blkno, where the
 * group at index begins after the page's start, all freed?  The one right
 * before ends there; it began there too if its header is on blkno and its
 * first chunk is (its header, all on the page the caller has not given
 * away yet, can still be read).
 */
static bool
EarlierSharersFreed(Relation rel, int index, BlockNumber blkno)
{
	for (;;)
	{
		ColstoreDirectory *dir = DirectoryGet(rel);
		int			prev = NeighbourGroup(dir, index, -1);
		RowGroupDirEntry e;
		RowGroupHeader *h;
		StreamPointer start;

		if (prev < 0)
			return true;		/* bytes before the first group: nobody's */
		e = dir->entries[prev];
		if (!(e.rg_flags & RG_FLAG_FREED))
			return false;
		if (e.rg_header.sp_block != blkno)
			return true;		/* it began on an earlier page */
		h = RowGroupReadHeader(rel, prev, &e);
		start = h->chunks[0].cd_location;
		pfree(h);
		if (start.sp_block != blkno || start.sp_offset == COLSTORE_DATA_START)
			return true;
		index = prev;
	}
}

/*
 * Are the row groups after index that have bytes on page blkno, where the
 * group at index ends before the page's end, all freed?  The one right after
 * begins there; it ends there too if its header ends inside the page.  The
 * stream's tail page gets new bytes: never.
 */
static bool
LaterSharersFreed(Relation rel, int index, BlockNumber blkno, BlockNumber tail)
{
	ColstoreDirectory *dir = DirectoryGet(rel);

	if (blkno == tail)
		return false;
	for (;;)
	{
		int			next = NeighbourGroup(dir, index, 1);

		if (next < 0)
			return false;		/* not reached: the tail moved on past blkno */
		if (!(dir->entries[next].rg_flags & RG_FLAG_FREED))
			return false;
		if (!HeaderEndsInside(&dir->entries[next], blkno))
			return true;
		index = next;
	}
}

/*
 * Add to list the stream pages that hold only bytes of freed row groups
 * among those of the row group at dir index e_index: a group's chunk
 * images, moved-row sources and header are one contiguous run of the
 * stream, from its first chunk to the end of its header.  Its first and
 * last pages are added only when every other group with bytes on them is
 * freed (see "Stream order" above), and the stream's tail page never.
 */
static void
CollectStreamPages(Relation rel, uint32 e_index, const RowGroupDirEntry *e,
				   BlockNumber tail, BufferAccessStrategy strategy, PageList *list)
{
	RowGroupHeader *h = RowGroupReadHeader(rel, e_index, e);
	StreamPointer start = h->chunks[0].cd_location;
	StreamPointer hdr = e->rg_header;
	BlockNumber nblocks = ColstorePhysicalBlocks(rel);
	BlockNumber blkno = start.sp_block;
	uint64		spill;			/* header bytes past its first page */
	uint32		end_offset;
	int			first = list->n;
	BlockNumber steps = 0;
	bool		keep_first;
	bool		keep_last;

	pfree(h);
	for (;;)
	{
		AppendPage(list, blkno);
		if (blkno == hdr.sp_block)
			break;
		if (++steps > nblocks)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("colstore table \"%s\": page stream of the row group at row %llu does not reach its header",
							RelationGetRelationName(rel),
							(unsigned long long) e->rg_first_row)));
		blkno = NextStreamPage(rel, blkno, strategy);
	}
	spill = (uint64) hdr.sp_offset + e->rg_header_len > COLSTORE_DATA_END ?
		(uint64) hdr.sp_offset + e->rg_header_len - COLSTORE_DATA_END : 0;
	end_offset = spill == 0 ? hdr.sp_offset + e->rg_header_len :
		COLSTORE_DATA_START + (uint32) ((spill - 1) % COLSTORE_DATA_PER_PAGE) + 1;
	for (; spill > 0; spill -= Min(spill, (uint64) COLSTORE_DATA_PER_PAGE))
	{
		blkno = NextStreamPage(rel, blkno, strategy);
		AppendPage(list, blkno);
	}

	keep_last = list->pages[list->n - 1] == tail ||
		(end_offset < COLSTORE_DATA_END &&
		 !LaterSharersFreed(rel, e_index, list->pages[list->n - 1], tail));
	keep_first = start.sp_offset != COLSTORE_DATA_START &&
		!EarlierSharersFreed(rel, e_index, list->pages[first]);
	if (list->n - first == 1)
	{
		if (keep_first || keep_last)
			list->n--;
		return;
	}
	if (keep_last)
		list->n--;
	if (keep_first)
	{
		memmove(&list->pages[first], &list->pages[first + 1],
				sizeof(BlockNumber) * (list->n - first - 1));
		list->n--;
	}
}

/*
 * Make the LP_DEAD items among group's copies reusable.  The slots are read
 * whatever the rows' deleted-rows bits say: a slot names its row's copy item
 * until VACUUM frees that item, which clears the slot first
 * (storage/deleted_rows_free.c), and the group is freed, so nobody reads it.
 */
static void
FreeCopyItems(Relation rel, const RowGroupDirEntry *group, BufferAccessStrategy strategy)
{
	ItemPointerData *copies = palloc(sizeof(ItemPointerData) * Max(group->rg_nrows, 1));
	OffsetNumber offsets[MaxHeapTuplesPerPage];
	uint32		i = 0;

	PromotionMapGetSlots(rel, group, 0, group->rg_nrows, copies);
	qsort(copies, group->rg_nrows, sizeof(ItemPointerData), ComparePositions);

	while (i < group->rg_nrows)
	{
		BlockNumber blkno = ItemPointerGetBlockNumberNoCheck(&copies[i]);
		int			n = 0;

		for (; i < group->rg_nrows &&
			 ItemPointerGetBlockNumberNoCheck(&copies[i]) == blkno; i++)
			if (ItemPointerIsValid(&copies[i]) && n < MaxHeapTuplesPerPage)
				offsets[n++] = ItemPointerGetOffsetNumber(&copies[i]);
		if (n > 0)
			DeltaVacuumReusePageItems(rel, blkno, offsets, n, strategy);
		VacuumDelayPoint();
	}
	pfree(copies);
}

/* Turn colstore page blkno into an empty heap page in the free space map. */
static void
GivePageToHeap(Relation rel, BlockNumber blkno, BufferAccessStrategy strategy)
{
	Buffer		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	if (PageGetSpecialSize(BufferGetPage(buf)) != MAXALIGN(sizeof(ColstorePageOpaqueData)))
	{
		UnlockReleaseBuffer(buf);	/* not a colstore page: given already */
		return;
	}
	PageGiveToHeap(rel, buf);
}

/*
 * GroupReclaimFree
 *		Step 2 of the file header, for every invalid row group whose stamp
 *		precedes oldest_xmin.  Returns the number of pages given to heap
 *		tuples; *freed_rows is set to the number of rows of the groups
 *		freed.
 */
BlockNumber
GroupReclaimFree(Relation rel, TransactionId oldest_xmin, BufferAccessStrategy strategy,
				 double *freed_rows)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	ColstoreMetaPageData meta;
	PageList	list;
	BlockNumber freed_pages = 0;
	int		   *groups = palloc(sizeof(int) * Max(dir->ngroups, 1));
	int			ngroups = 0;
	TransactionId newest_stamp = InvalidTransactionId;
	int			i;

	*freed_rows = 0;
	ColstoreReadMeta(rel, &meta);
	for (i = 0; i < dir->ngroups; i++)
	{
		const RowGroupDirEntry *e = &dir->entries[dir->groups[i]];

		if ((e->rg_flags & (RG_FLAG_INVALID | RG_FLAG_FREED)) == RG_FLAG_INVALID &&
			StampPassed(e, oldest_xmin))
		{
			groups[ngroups++] = dir->groups[i];
			if (TransactionIdIsNormal(e->rg_xmin) &&
				(!TransactionIdIsValid(newest_stamp) ||
				 TransactionIdFollows(e->rg_xmin, newest_stamp)))
				newest_stamp = e->rg_xmin;
		}
	}
	if (ngroups == 0)
		return 0;
	LogStandbyConflict(rel, newest_stamp);
	list.capacity = 64;
	list.pages = palloc(sizeof(BlockNumber) * list.capacity);

	for (i = 0; i < ngroups; i++)
	{
		RowGroupDirEntry e = DirectoryGet(rel)->entries[groups[i]];
		BlockNumber *map_pages;
		int			nmap;
		int			j;

		VacuumDelayPoint();
		list.n = 0;
		if (e.rg_header.sp_block != InvalidBlockNumber)
			CollectStreamPages(rel, groups[i], &e, meta.cm_stream_tail, strategy, &list);
		nmap = PromotionMapPages(rel, &e, &map_pages);
		for (j = 0; j < nmap; j++)
			AppendPage(&list, map_pages[j]);
		pfree(map_pages);

		/*
		 * marked first: a crash from here on leaks the pages, never reuses
		 * them twice
		 */
		ColstoreLockWriter(rel);
		e = DirectoryGet(rel)->entries[groups[i]];
		e.rg_flags |= RG_FLAG_FREED;
		DirectoryUpdateEntry(rel, groups[i], &e);
		ColstoreUnlockWriter(rel);
		*freed_rows += e.rg_nrows;

		if (e.rg_state_root != 0)
			FreeCopyItems(rel, &e, strategy);
		for (j = 0; j < list.n; j++)
		{
			VacuumDelayPoint();
			GivePageToHeap(rel, list.pages[j], strategy);
		}
		freed_pages += list.n;
	}
	pfree(groups);
	pfree(list.pages);
	return freed_pages;
}
