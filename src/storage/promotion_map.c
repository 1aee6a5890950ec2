/*-------------------------------------------------------------------------
 *
 * promotion_map.c
 *	  Per row group map from a row to its promoted copy.
 *
 * A row-group row that is deleted, updated or locked for the first time is
 * promoted (mvcc/row_state.c): a frozen heap copy of it is made, and from
 * then on heapam keeps the row's delete and lock state in that copy's
 * header.  This map says, for every row of a row group, where its copy is.
 *
 * The directory entry's rg_state_root names the first of the group's root
 * pages (0: nothing promoted yet).  Root pages hold block numbers of leaf
 * pages, STATE_ROOT_SLOTS each, chained through cp_next; a leaf holds one
 * ItemPointerData per row, STATE_LEAF_SLOTS rows each (an invalid TID: not
 * promoted).  All root pages of a group are made at once; leaves are made
 * when a row of their range is first promoted.  Both are made under the
 * writer lock; a leaf slot is set under the leaf's exclusive buffer lock,
 * once: a copy, once recorded, is the row's for good.  Every change is one
 * generic WAL record.
 *
 * IDENTIFICATION
 *	  src/storage/promotion_map.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/generic_xlog.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "storage/directory.h"
#include "storage/metapage.h"
#include "storage/page_reuse.h"
#include "storage/promotion_map.h"

#define STATE_ROOT_SLOTS	((uint32) (COLSTORE_DATA_PER_PAGE / sizeof(BlockNumber)))
#define STATE_LEAF_SLOTS	((uint32) (COLSTORE_DATA_PER_PAGE / sizeof(ItemPointerData)))
#define ROWS_PER_ROOT		(STATE_ROOT_SLOTS * STATE_LEAF_SLOTS)

/* generic WAL records take at most this many pages */
#define MAX_ROOT_PAGES		(MAX_GENERIC_XLOG_PAGES)

#define RootSlots(page)	((BlockNumber *) ((char *) (page) + COLSTORE_DATA_START))
#define LeafSlots(page)	((ItemPointerData *) ((char *) (page) + COLSTORE_DATA_START))

/* Raise the error for a root page chain that ends too early. */
pg_noreturn static void
ReportShortMap(Relation rel, const RowGroupDirEntry *group)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg_internal("colstore table \"%s\": promotion map of the row group at row %llu is too short",
							 RelationGetRelationName(rel),
							 (unsigned long long) group->rg_first_row)));
}

/* Raise the error for a map page pointer or copy outside the table. */
pg_noreturn static void
ReportBadPointer(Relation rel, const RowGroupDirEntry *group, const char *what,
				 BlockNumber blkno)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg_internal("colstore table \"%s\": promotion map of the row group at row %llu is corrupted",
							 RelationGetRelationName(rel),
							 (unsigned long long) group->rg_first_row),
			 errdetail_internal("A %s points to block %u.", what, blkno)));
}

/*
 * Check the copies read from a leaf: each valid one must name a heap item
 * of a page of the table, so that callers can read its block.
 */
static void
CheckCopies(Relation rel, const RowGroupDirEntry *group,
			const ItemPointerData *copies, uint32 n)
{
	uint32		i;

	for (i = 0; i < n; i++)
	{
		BlockNumber blkno = ItemPointerGetBlockNumberNoCheck(&copies[i]);

		if (ItemPointerIsValid(&copies[i]) &&
			(ItemPointerGetOffsetNumberNoCheck(&copies[i]) > MaxHeapTuplesPerPage ||
			 !ColstoreBlockIsValid(rel, blkno)))
			ReportBadPointer(rel, group, "leaf slot", blkno);
	}
}

/* Root page holding row's leaf pointer, found by walking the chain. */
static BlockNumber
FindRootPage(Relation rel, const RowGroupDirEntry *group, uint32 row)
{
	BlockNumber blkno = group->rg_state_root;
	uint32		steps = row / ROWS_PER_ROOT;

	while (steps-- > 0)
	{
		Buffer		buf = ReadBuffer(rel, blkno);

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		ColstoreCheckPage(rel, blkno, BufferGetPage(buf), COLSTORE_PAGE_STATE_ROOT);
		blkno = ColstorePageGetOpaque(BufferGetPage(buf))->cp_next;
		UnlockReleaseBuffer(buf);
		if (blkno == InvalidBlockNumber)
			ReportShortMap(rel, group);
		if (!ColstoreBlockIsValid(rel, blkno))
			ReportBadPointer(rel, group, "root page's next page", blkno);
	}
	return blkno;
}

/* Leaf block of row, or InvalidBlockNumber if its leaf does not exist. */
static BlockNumber
FindLeaf(Relation rel, const RowGroupDirEntry *group, uint32 row)
{
	BlockNumber rootblk;
	BlockNumber leaf;
	Buffer		buf;

	if (group->rg_state_root == 0)
		return InvalidBlockNumber;
	rootblk = FindRootPage(rel, group, row);
	buf = ReadBuffer(rel, rootblk);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	ColstoreCheckPage(rel, rootblk, BufferGetPage(buf), COLSTORE_PAGE_STATE_ROOT);
	leaf = RootSlots(BufferGetPage(buf))[(row % ROWS_PER_ROOT) / STATE_LEAF_SLOTS];
	UnlockReleaseBuffer(buf);
	if (leaf == 0)
		return InvalidBlockNumber;
	if (!ColstoreBlockIsValid(rel, leaf))
		ReportBadPointer(rel, group, "root page slot", leaf);
	return leaf;
}

/*
 * PromotionMapGet
 *		If row (0-based within group) has a promoted copy, set *copy to its
 *		heap TID and return true.
 */
bool
PromotionMapGet(Relation rel, const RowGroupDirEntry *group, uint32 row,
				ItemPointer copy)
{
	BlockNumber leaf;
	Buffer		buf;

	Assert(group->rg_kind == RG_KIND_ROWGROUP && row < group->rg_nrows);
	leaf = FindLeaf(rel, group, row);
	if (leaf == InvalidBlockNumber)
		return false;
	buf = ReadBuffer(rel, leaf);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	ColstoreCheckPage(rel, leaf, BufferGetPage(buf), COLSTORE_PAGE_STATE_LEAF);
	*copy = LeafSlots(BufferGetPage(buf))[row % STATE_LEAF_SLOTS];
	UnlockReleaseBuffer(buf);
	CheckCopies(rel, group, copy, 1);
	return ItemPointerIsValid(copy);
}

/*
 * PromotionMapGetRange
 *		copies[i] = the copy of row first + i for i < n, invalid where the
 *		row is not promoted.
 */
void
PromotionMapGetRange(Relation rel, const RowGroupDirEntry *group,
					 uint32 first, uint32 n, ItemPointerData *copies)
{
	uint32		i = 0;

	Assert(group->rg_kind == RG_KIND_ROWGROUP && first + n <= group->rg_nrows);
	while (i < n)
	{
		uint32		row = first + i;
		uint32		run = Min(n - i, STATE_LEAF_SLOTS - row % STATE_LEAF_SLOTS);
		BlockNumber leaf = FindLeaf(rel, group, row);

		if (leaf == InvalidBlockNumber)
		{
			uint32		j;

			for (j = 0; j < run; j++)
				ItemPointerSetInvalid(&copies[i + j]);
		}
		else
		{
			Buffer		buf = ReadBuffer(rel, leaf);

			LockBuffer(buf, BUFFER_LOCK_SHARE);
			ColstoreCheckPage(rel, leaf, BufferGetPage(buf), COLSTORE_PAGE_STATE_LEAF);
			memcpy(&copies[i], &LeafSlots(BufferGetPage(buf))[row % STATE_LEAF_SLOTS],
				   sizeof(ItemPointerData) * run);
			UnlockReleaseBuffer(buf);
			CheckCopies(rel, group, &copies[i], run);
		}
		i += run;
	}
}

/*
 * Raise ERRCODE_DATA_CORRUPTED unless every block of blocks[0..n-1] is a
 * leaf page of a promotion map: VACUUM gives these pages to the heap, so a
 * corrupt root slot must not hand it any other page.
 */
static void
CheckLeafPages(Relation rel, const BlockNumber *blocks, int n)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		Buffer		buf = ReadBuffer(rel, blocks[i]);

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		ColstoreCheckPage(rel, blocks[i], BufferGetPage(buf), COLSTORE_PAGE_STATE_LEAF);
		UnlockReleaseBuffer(buf);
	}
}

/*
 * PromotionMapPages
 *		Set *blocks (palloc'd) to the blocks of group's promotion map, its
 *		root pages and then its leaves, and return how many there are (0 if
 *		no row was ever promoted).  Every page is checked to be of its kind
 *		(ERRCODE_DATA_CORRUPTED if not).
 */
int
PromotionMapPages(Relation rel, const RowGroupDirEntry *group, BlockNumber **blocks)
{
	uint32		nroots = (group->rg_nrows + ROWS_PER_ROOT - 1) / ROWS_PER_ROOT;
	uint32		nleaves = (group->rg_nrows + STATE_LEAF_SLOTS - 1) / STATE_LEAF_SLOTS;
	BlockNumber root = group->rg_state_root;
	uint32		leaf = 0;
	int			n = 0;
	int			first;
	uint32		r;

	*blocks = palloc(sizeof(BlockNumber) * (nroots + nleaves));
	if (root == 0)
		return 0;
	for (r = 0; r < nroots; r++)
	{
		Buffer		buf = ReadBuffer(rel, root);
		Page		page = BufferGetPage(buf);

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		ColstoreCheckPage(rel, root, page, COLSTORE_PAGE_STATE_ROOT);
		(*blocks)[n++] = root;
		first = n;
		for (; leaf < nleaves && leaf < (r + 1) * STATE_ROOT_SLOTS; leaf++)
		{
			BlockNumber blkno = RootSlots(page)[leaf % STATE_ROOT_SLOTS];

			if (blkno != 0 && !ColstoreBlockIsValid(rel, blkno))
				ReportBadPointer(rel, group, "root page slot", blkno);
			if (blkno != 0)
				(*blocks)[n++] = blkno;
		}
		root = ColstorePageGetOpaque(page)->cp_next;
		UnlockReleaseBuffer(buf);
		CheckLeafPages(rel, *blocks + first, n - first);
		Assert((uint32) n <= r + 1 + leaf);
		if (r + 1 < nroots && root == InvalidBlockNumber)
			ReportShortMap(rel, group);
		if (r + 1 < nroots && !ColstoreBlockIsValid(rel, root))
			ReportBadPointer(rel, group, "root page's next page", root);
	}
	return n;
}

/* Give the group at dir_index its root pages.  Caller holds the writer lock. */
static void
AddRootPages(Relation rel, uint32 dir_index)
{
	RowGroupDirEntry entry = DirectoryGet(rel)->entries[dir_index];
	uint32		nroots = (entry.rg_nrows + ROWS_PER_ROOT - 1) / ROWS_PER_ROOT;
	Buffer		bufs[MAX_ROOT_PAGES] = {InvalidBuffer};
	GenericXLogState *state;
	uint32		i;

	Assert(ColstoreWriterLockHeld(rel));
	Assert(entry.rg_kind == RG_KIND_ROWGROUP && nroots >= 1);
	if (entry.rg_state_root != 0)
		return;
	if (nroots > MAX_ROOT_PAGES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("row group of %u rows in colstore table \"%s\" is too large to change rows in",
						entry.rg_nrows, RelationGetRelationName(rel))));
	for (i = 0; i < nroots; i++)
		bufs[i] = ColstoreNewPage(rel);
	state = GenericXLogStart(rel);
	for (i = 0; i < nroots; i++)
	{
		Page		page = GenericXLogRegisterBuffer(state, bufs[i], GENERIC_XLOG_FULL_IMAGE);

		ColstoreInitPage(page, COLSTORE_PAGE_STATE_ROOT);
		memset(RootSlots(page), 0, COLSTORE_DATA_PER_PAGE);
		ColstorePageSetLower(page, COLSTORE_DATA_END);
		if (i + 1 < nroots)
			ColstorePageGetOpaque(page)->cp_next = BufferGetBlockNumber(bufs[i + 1]);
	}
	GenericXLogFinish(state);
	entry.rg_state_root = BufferGetBlockNumber(bufs[0]);
	for (i = 0; i < nroots; i++)
		UnlockReleaseBuffer(bufs[i]);
	DirectoryUpdateEntry(rel, dir_index, &entry);
}

/* Give row's range a leaf page.  Caller holds the writer lock. */
static void
AddLeafPage(Relation rel, const RowGroupDirEntry *group, uint32 row)
{
	BlockNumber rootblk = FindRootPage(rel, group, row);
	uint32		slot = (row % ROWS_PER_ROOT) / STATE_LEAF_SLOTS;
	GenericXLogState *state;
	Buffer		rootbuf;
	Buffer		leafbuf;
	Page		rootpage;
	Page		leafpage;

	Assert(ColstoreWriterLockHeld(rel));
	Assert(group->rg_state_root != 0 && row < group->rg_nrows && slot < STATE_ROOT_SLOTS);
	leafbuf = ColstoreNewPage(rel);
	rootbuf = ReadBuffer(rel, rootblk);
	LockBuffer(rootbuf, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(rel);
	rootpage = GenericXLogRegisterBuffer(state, rootbuf, 0);
	ColstoreCheckPage(rel, rootblk, rootpage, COLSTORE_PAGE_STATE_ROOT);
	if (RootSlots(rootpage)[slot] != 0)
	{
		/* not reached: leaves are only added under the writer lock */
		GenericXLogAbort(state);
		elog(ERROR, "leaf of the promotion map of colstore table \"%s\" exists already",
			 RelationGetRelationName(rel));
	}
	leafpage = GenericXLogRegisterBuffer(state, leafbuf, GENERIC_XLOG_FULL_IMAGE);
	ColstoreInitPage(leafpage, COLSTORE_PAGE_STATE_LEAF);
	memset(LeafSlots(leafpage), 0, COLSTORE_DATA_PER_PAGE);
	ColstorePageSetLower(leafpage, COLSTORE_DATA_END);
	RootSlots(rootpage)[slot] = BufferGetBlockNumber(leafbuf);
	GenericXLogFinish(state);
	UnlockReleaseBuffer(leafbuf);
	UnlockReleaseBuffer(rootbuf);
}

/* Rows from row (0-based) to the end of its leaf. */
uint32
PromotionMapLeafRemaining(uint32 row)
{
	return STATE_LEAF_SLOTS - row % STATE_LEAF_SLOTS;
}

/*
 * PromotionMapSet
 *		Record copies[i] as the copy of row first + i (0-based) of the row
 *		group at directory index dir_index, for i < n, where the row has
 *		none yet and copies[i] is valid; rows must lie in one leaf
 *		(PromotionMapLeafRemaining).  On return copies[] holds the recorded
 *		copies, which for rows another backend promoted meanwhile are
 *		theirs.
 */
void
PromotionMapSet(Relation rel, uint32 dir_index, uint32 first, uint32 n,
				ItemPointerData *copies)
{
	RowGroupDirEntry group = DirectoryGet(rel)->entries[dir_index];
	BlockNumber leaf = FindLeaf(rel, &group, first);
	GenericXLogState *state = NULL;
	Buffer		buf;
	Page		page;
	uint32		i;

	Assert(n >= 1 && n <= PromotionMapLeafRemaining(first));
	Assert(group.rg_kind == RG_KIND_ROWGROUP && first + n <= group.rg_nrows);

	if (leaf == InvalidBlockNumber)
	{
		ColstoreLockWriter(rel);
		AddRootPages(rel, dir_index);
		group = DirectoryGet(rel)->entries[dir_index];
		if (FindLeaf(rel, &group, first) == InvalidBlockNumber)
			AddLeafPage(rel, &group, first);
		ColstoreUnlockWriter(rel);
		leaf = FindLeaf(rel, &group, first);

		/*
		 * made just now: a map's pages are never taken away while its group
		 * lives
		 */
		Assert(group.rg_state_root != 0 && leaf != InvalidBlockNumber);
	}

	buf = ReadBuffer(rel, leaf);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	ColstoreCheckPage(rel, leaf, BufferGetPage(buf), COLSTORE_PAGE_STATE_LEAF);
	page = BufferGetPage(buf);
	for (i = 0; i < n; i++)
	{
		ItemPointer slot = &LeafSlots(page)[(first + i) % STATE_LEAF_SLOTS];

		if (ItemPointerIsValid(slot))
			copies[i] = *slot;
		else if (ItemPointerIsValid(&copies[i]))
		{
			if (state == NULL)
			{
				state = GenericXLogStart(rel);
				page = GenericXLogRegisterBuffer(state, buf, 0);
			}
			LeafSlots(page)[(first + i) % STATE_LEAF_SLOTS] = copies[i];
		}
	}
	if (state != NULL)
		GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
}
