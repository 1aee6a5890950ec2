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
 * A plain delete of a row with no copy is logged in the group's delete log
 * (storage/delete_log.c) instead, holding the row's root page and leaf
 * shared (PromotionMapLogDelete); a promoter checks the row's run under the
 * leaf's exclusive lock before it records a copy (PromotionMapSet), so a
 * copy always carries the delete the log held for its row.  Readers get the
 * run with the slot (PromotionMapGetRange, PromotionMapLookup).
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
#include "storage/proc.h"
#include "utils/rel.h"

#include "storage/delete_log.h"
#include "storage/deleted_rows.h"
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
		Buffer		buf = ColstoreReadCached(rel, blkno);

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
	buf = ColstoreReadCached(rel, rootblk);
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
 * PromotionMapGetSlots
 *		copies[i] = the slot of row first + i for i < n, invalid where the
 *		row has none, whatever the row's deleted-rows bit says: only for
 *		VACUUM's freeing of copy items (storage/deleted_rows_free.c,
 *		storage/group_reclaim.c), which knows a slot still names the row's
 *		copy item.  Every other reader uses PromotionMapGetRange.
 */
void
PromotionMapGetSlots(Relation rel, const RowGroupDirEntry *group,
					 uint32 first, uint32 n, ItemPointerData *copies)
{
	uint32		i = 0;

	Assert(group->rg_kind == RG_KIND_ROWGROUP && first + n <= group->rg_nrows);
	while (i < n)
	{
		uint32		row = first + i;
		uint32		run = Min(n - i, STATE_LEAF_SLOTS - row % STATE_LEAF_SLOTS);
		BlockNumber leaf = FindLeaf(rel, group, row);
		bool		retired = true;

		if (leaf != InvalidBlockNumber)
		{
			Buffer		buf = ColstoreReadCached(rel, leaf);
			Page		page = BufferGetPage(buf);

			LockBuffer(buf, BUFFER_LOCK_SHARE);
			ColstoreCheckPage(rel, leaf, page, COLSTORE_PAGE_STATE_LEAF);
			retired = (ColstorePageGetOpaque(page)->cp_flags & COLSTORE_PAGE_F_RETIRED) != 0;
			if (!retired)
				memcpy(&copies[i], &LeafSlots(page)[row % STATE_LEAF_SLOTS],
					   sizeof(ItemPointerData) * run);
			UnlockReleaseBuffer(buf);
			if (!retired)
				CheckCopies(rel, group, &copies[i], run);
		}
		if (retired)
		{
			uint32		j;

			for (j = 0; j < run; j++)
				ItemPointerSetInvalid(&copies[i + j]);
		}
		i += run;
	}
}

/*
 * PromotionMapGetRange
 *		For i < n: copies[i] = the copy of row first + i, invalid where the
 *		row is not promoted or is deleted for everyone; deleted[i] = whether
 *		it is (storage/deleted_rows.c: its slot is not read, and must never
 *		be followed); if runs is not NULL, runs[i] = the row's last run in
 *		the group's delete log (storage/delete_log.c), xid Invalid where it
 *		has none or has a copy or its bit (a copy, once recorded, holds the
 *		row's whole delete state; whether the run's transaction aborted is
 *		the caller's to judge).  Callers that pass no runs read copies only:
 *		a row with a run and no copy reads as unchanged.  Returns whether any
 *		row is deleted for everyone.  The runs are read before the bits and
 *		the bits before the slots: VACUUM drops a run only after setting its
 *		row's bit, and a slot read after its bit was seen unset still names
 *		the row's copy item, or that item's LP_DEAD line pointer, for as long
 *		as the reader's snapshot lives.
 */
bool
PromotionMapGetRange(Relation rel, const RowGroupDirEntry *group,
					 uint32 first, uint32 n, ItemPointerData *copies, bool *deleted,
					 DeleteRun *runs)
{
	bool		logged = runs != NULL && DeleteLogRead(rel, group, first, n, runs);
	bool		any = DeletedRowsRead(rel, group, first, n, deleted);
	uint32		i;

	PromotionMapGetSlots(rel, group, first, n, copies);
	if (any)
		for (i = 0; i < n; i++)
			if (deleted[i])
				ItemPointerSetInvalid(&copies[i]);
	if (logged)
		for (i = 0; i < n; i++)
			if (deleted[i] || ItemPointerIsValid(&copies[i]))
				runs[i].xid = InvalidTransactionId;
	return any;
}

/*
 * PromotionMapLookup
 *		What row (0-based within group) has: no copy, a copy (at *copy), its
 *		deleted-rows bit (*copy invalid), or a run in the delete log and no
 *		copy (in *run).  See PromotionMapGetRange.
 */
PromotionSlot
PromotionMapLookup(Relation rel, const RowGroupDirEntry *group, uint32 row,
				   ItemPointer copy, DeleteRun *run)
{
	bool		deleted;

	Assert(group->rg_kind == RG_KIND_ROWGROUP && row < group->rg_nrows);
	ItemPointerSetInvalid(copy);
	run->xid = InvalidTransactionId;
	if (group->rg_state_root == 0)
		return PROMOTION_NONE;
	(void) PromotionMapGetRange(rel, group, row, 1, copy, &deleted, run);
	if (deleted)
		return PROMOTION_DELETED;
	if (ItemPointerIsValid(copy))
		return PROMOTION_COPY;
	return TransactionIdIsValid(run->xid) ? PROMOTION_LOGGED : PROMOTION_NONE;
}

/*
 * PromotionMapLastRoot
 *		The last root page of group's promotion map (which must exist), whose
 *		cp_next names the group's deleted-rows bitmap
 *		(storage/deleted_rows.c).
 */
BlockNumber
PromotionMapLastRoot(Relation rel, const RowGroupDirEntry *group)
{
	Assert(group->rg_state_root != 0 && group->rg_nrows > 0);
	return FindRootPage(rel, group, group->rg_nrows - 1);
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
 *		root pages and then its leaves, then the pages of its deleted-rows
 *		bitmap (storage/deleted_rows.c), and return how many there are (0 if
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
	{
		BlockNumber *more;
		int			nmore = DeletedRowsPages(rel, group, &more);

		if (nmore > 0)
		{
			*blocks = repalloc(*blocks, sizeof(BlockNumber) * (n + nmore));
			memcpy(*blocks + n, more, sizeof(BlockNumber) * nmore);
			n += nmore;
		}
		pfree(more);
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
 *		none yet, copies[i] is valid and the row's last run in the delete log
 *		(storage/delete_log.c) is still expect[i] (the xid the copy's header
 *		was made from, Invalid for none); rows must lie in one leaf
 *		(PromotionMapLeafRemaining).  On return copies[] holds the recorded
 *		copies, which for rows another backend promoted meanwhile are
 *		theirs, and is invalid where a run was added since (the caller makes
 *		a new copy from it).
 *
 *		The run is checked under the leaf's exclusive lock, which a deleter
 *		holds shared while it adds a run (PromotionMapLogDelete).  Reading the
 *		run there must not read the DELETED_ROOT page (VACUUM's leaf detaching
 *		locks it before the leaf), so the DELETE_LOG_ROOT page is found
 *		first; if the group has none, the writer lock is held throughout,
 *		under which alone a deleter makes one.
 */
void
PromotionMapSet(Relation rel, uint32 dir_index, uint32 first, uint32 n,
				ItemPointerData *copies, const TransactionId *expect)
{
	RowGroupDirEntry group = DirectoryGet(rel)->entries[dir_index];
	BlockNumber leaf;
	BlockNumber logroot = InvalidBlockNumber;
	GenericXLogState *state = NULL;
	DeleteRun  *runs = palloc(sizeof(DeleteRun) * n);
	bool		writer = false;
	Buffer		buf;
	Page		page;
	uint32		i;

	Assert(n >= 1 && n <= PromotionMapLeafRemaining(first));
	Assert(group.rg_kind == RG_KIND_ROWGROUP && first + n <= group.rg_nrows);

	if (group.rg_state_root != 0)
		logroot = DeleteLogRootFind(rel, &group, NULL);
	if (logroot == InvalidBlockNumber)
	{
		ColstoreLockWriter(rel);
		writer = true;
		group = DirectoryGet(rel)->entries[dir_index];
		if (group.rg_state_root != 0)
			logroot = DeleteLogRootFind(rel, &group, NULL);
	}
	leaf = FindLeaf(rel, &group, first);
	for (;;)
	{
		if (leaf == InvalidBlockNumber)
		{
			/*
			 * made (or found) under the writer lock, kept until the slots are
			 * set: VACUUM detaches a leaf with no valid slot only under it
			 * (storage/deleted_rows.c)
			 */
			if (!writer)
				ColstoreLockWriter(rel);
			writer = true;
			AddRootPages(rel, dir_index);
			group = DirectoryGet(rel)->entries[dir_index];
			if (FindLeaf(rel, &group, first) == InvalidBlockNumber)
				AddLeafPage(rel, &group, first);
			leaf = FindLeaf(rel, &group, first);
			Assert(group.rg_state_root != 0 && leaf != InvalidBlockNumber);
		}
		buf = ReadBuffer(rel, leaf);
		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		ColstoreCheckPage(rel, leaf, BufferGetPage(buf), COLSTORE_PAGE_STATE_LEAF);
		page = BufferGetPage(buf);
		if (!(ColstorePageGetOpaque(page)->cp_flags & COLSTORE_PAGE_F_RETIRED))
			break;
		/* VACUUM detached it since it was found: look again */
		Assert(!writer);
		UnlockReleaseBuffer(buf);
		leaf = InvalidBlockNumber;
	}
	if (logroot != InvalidBlockNumber)
		DeleteLogReadLeaf(rel, &group, logroot, first, n, runs);
	else
		for (i = 0; i < n; i++)
			runs[i].xid = InvalidTransactionId;
	for (i = 0; i < n; i++)
	{
		ItemPointer slot = &LeafSlots(page)[(first + i) % STATE_LEAF_SLOTS];

		if (ItemPointerIsValid(slot))
			copies[i] = *slot;
		else if (!TransactionIdEquals(runs[i].xid, expect[i]))
			ItemPointerSetInvalid(&copies[i]);	/* deleted meanwhile */
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
	if (writer)
		ColstoreUnlockWriter(rel);
	pfree(runs);
}

/*
 * The segment page PromotionMapLogDelete found last, for the statement's
 * next deletes in the same segment: a group cannot be freed while a
 * transaction that deleted from it runs, and a segment page VACUUM detaches
 * meanwhile (emptied, DeleteLogDetachEmpty) is flagged, so DeleteLogAppend
 * adds nothing to it (the row promotes), and is not freed before this
 * transaction (which has an xid) ends.  Only used within the transaction
 * that found it; forgotten when the relation's storage changes
 * (PromotionMapForget).
 */
static struct
{
	Oid			relid;
	RelFileLocator node;
	LocalTransactionId lxid;
	uint32		dir_index;
	uint64		first_row;
	uint32		segment_no;
	BlockNumber segment;
}			LastLogSegment;

/*
 * PromotionMapForget
 *		Forget what this backend remembers of relid's delete logs
 *		(InvalidOid: of every relation).
 */
void
PromotionMapForget(Oid relid)
{
	if (!OidIsValid(relid) || LastLogSegment.relid == relid)
		LastLogSegment.relid = InvalidOid;
}

/*
 * row's segment page of group at dir_index, made if needed (see above);
 * InvalidBlockNumber, making nothing, if the group has no log page for it
 * yet and the row has a copy.
 */
static BlockNumber
LogSegmentFor(Relation rel, uint32 dir_index, RowGroupDirEntry *group, uint32 row)
{
	uint32		segment_no = DeleteLogSegmentOf(row);
	BlockNumber segment;

	if (LastLogSegment.relid == RelationGetRelid(rel) &&
		RelFileLocatorEquals(LastLogSegment.node, rel->rd_locator) &&
		LastLogSegment.lxid == MyLocalTransactionId() &&
		LastLogSegment.dir_index == dir_index &&
		LastLogSegment.first_row == group->rg_first_row &&
		LastLogSegment.segment_no == segment_no && group->rg_state_root != 0)
		return LastLogSegment.segment;
	segment = DeleteLogSegment(rel, group, row);
	if (segment == 0)
	{
		/* a promoted row is deleted through its copy: no log pages for it */
		if (group->rg_state_root != 0)
		{
			ItemPointerData copy;

			PromotionMapGetSlots(rel, group, row, 1, &copy);
			if (ItemPointerIsValid(&copy))
				return InvalidBlockNumber;
		}
		ColstoreLockWriter(rel);
		AddRootPages(rel, dir_index);
		*group = DirectoryGet(rel)->entries[dir_index];
		DeletedRowsAddRoot(rel, group);
		DeleteLogAddPages(rel, group, row);

		/*
		 * read under the writer lock: VACUUM detaches empty segment pages
		 * under it, and may do so the moment it is released
		 */
		segment = DeleteLogSegment(rel, group, row);
		ColstoreUnlockWriter(rel);
	}
	if (segment == 0 || segment == InvalidBlockNumber)
		elog(ERROR, "could not find the delete log page of row %u of row group %u of colstore table \"%s\"",
			 row, dir_index, RelationGetRelationName(rel));
	LastLogSegment.relid = RelationGetRelid(rel);
	LastLogSegment.node = rel->rd_locator;
	LastLogSegment.lxid = MyLocalTransactionId();
	LastLogSegment.dir_index = dir_index;
	LastLogSegment.first_row = group->rg_first_row;
	LastLogSegment.segment_no = segment_no;
	LastLogSegment.segment = segment;
	return segment;
}

/* the buffer PromotionMapLogDelete found a root page in last */
static Buffer RecentRootBuffer = InvalidBuffer;

/*
 * PromotionMapLogDelete
 *		Log the delete of row (0-based) of the row group at dir_index by xid
 *		in command cid in the group's delete log (storage/delete_log.c),
 *		instead of promoting it, if the row has no copy and no live run
 *		(moved: a compaction's move of the row, tableam/compaction.c);
 *		makes the log's pages first if needed (under the writer lock).
 *		Returns DELETE_LOG_DONE if logged; otherwise the row is to be
 *		promoted as before.  The run is added holding the lock of the row's
 *		root page (shared) and leaf (shared, if any): a promoter makes the
 *		leaf under the root's exclusive lock and sets the slot under the
 *		leaf's, and checks the run there (PromotionMapSet).  entry is the
 *		group's directory entry as the caller read it, saving a directory
 *		read per row: a promotion map root made since is found under the
 *		writer lock, and one VACUUM moved since is flagged moved, which is
 *		checked under the root's lock (the entry is then read again).
 */
DeleteLogResult
PromotionMapLogDelete(Relation rel, uint32 dir_index, const RowGroupDirEntry *entry,
					  uint32 row, TransactionId xid, CommandId cid, bool moved)
{
	RowGroupDirEntry group = *entry;
	DeleteLogResult result = DELETE_LOG_CONTENDED;
	BlockNumber segment;
	BlockNumber rootblk;
	BlockNumber leaf;
	Buffer		rootbuf;
	Buffer		leafbuf = InvalidBuffer;

	Assert(group.rg_kind == RG_KIND_ROWGROUP && row < group.rg_nrows);
	Assert(DirectoryGet(rel)->entries[dir_index].rg_first_row == group.rg_first_row);

	/*
	 * found before any lock is held: it stays while the group lives, unless
	 * VACUUM detaches it, which DeleteLogAppend sees
	 */
	segment = LogSegmentFor(rel, dir_index, &group, row);
	if (segment == InvalidBlockNumber)
		return DELETE_LOG_CONTENDED;

	for (;;)
	{
		rootblk = FindRootPage(rel, &group, row);
		rootbuf = ColstoreReadRecent(rel, rootblk, &RecentRootBuffer);
		LockBuffer(rootbuf, BUFFER_LOCK_SHARE);
		ColstoreCheckPage(rel, rootblk, BufferGetPage(rootbuf), COLSTORE_PAGE_STATE_ROOT);
		if (!(ColstorePageGetOpaque(BufferGetPage(rootbuf))->cp_flags & COLSTORE_PAGE_F_MOVED))
			break;

		/*
		 * VACUUM moved the root page since the caller read the entry
		 * (PromotionMapMoveRoot): a promoter makes leaves in the new one, so
		 * look there
		 */
		UnlockReleaseBuffer(rootbuf);
		group = DirectoryGet(rel)->entries[dir_index];
		if (group.rg_first_row != entry->rg_first_row || group.rg_state_root == 0)
			elog(ERROR, "row group entry %u of colstore table \"%s\" changed under a delete",
				 dir_index, RelationGetRelationName(rel));
	}
	leaf = RootSlots(BufferGetPage(rootbuf))[(row % ROWS_PER_ROOT) / STATE_LEAF_SLOTS];
	if (leaf != 0)
	{
		if (!ColstoreBlockIsValid(rel, leaf))
			ReportBadPointer(rel, &group, "root page slot", leaf);
		leafbuf = ReadBuffer(rel, leaf);
		LockBuffer(leafbuf, BUFFER_LOCK_SHARE);
		ColstoreCheckPage(rel, leaf, BufferGetPage(leafbuf), COLSTORE_PAGE_STATE_LEAF);
	}
	if (leaf == 0 ||
		!ItemPointerIsValid(&LeafSlots(BufferGetPage(leafbuf))[row % STATE_LEAF_SLOTS]))
		result = DeleteLogAppend(rel, &group, segment, row, xid, cid, moved);
	if (BufferIsValid(leafbuf))
		UnlockReleaseBuffer(leafbuf);
	UnlockReleaseBuffer(rootbuf);
	return result;
}

/*
 * PromotionMapMoveRoot
 *		For VACUUM's moving of the file's end (storage/space_relocate.c):
 *		if the row group at dir_index has a promotion map of one root page
 *		at or after block cut, put a copy of it on a freed page below cut
 *		(ColstoreNewPageBelow from *cursor) and point the directory entry
 *		there, flagging the old page COLSTORE_PAGE_F_MOVED, in one WAL
 *		record (DirectoryMoveStateRoot).  Returns whether it moved.  Caller
 *		holds the writer lock.
 *
 * Why that is safe.  Leaves are made, and root slots set or cleared, only
 * under the writer lock, by callers that read the entry under it
 * (PromotionMapSet; VACUUM's leaf detaching, which the moving VACUUM does
 * before it moves): they use the new page.  The
 * old page is held exclusively during the move, so a deleter holding it
 * shared (PromotionMapLogDelete: the root lock is what orders its "no leaf
 * yet" with a promoter making the leaf) finishes first, and one that locks
 * it after sees the flag and reads the entry again.  Readers that read the
 * old block number read the old page, whose contents are those of the new
 * one at the move (it is never written again, nor taken by a writer, until
 * truncation removes it under an AccessExclusiveLock): the state a lookup
 * a moment earlier would have read.  A crash before the record leaks the
 * new page; after it the old one is flagged and unreferenced.
 */
bool
PromotionMapMoveRoot(Relation rel, uint32 dir_index, BlockNumber cut, BlockNumber *cursor)
{
	RowGroupDirEntry group = DirectoryGet(rel)->entries[dir_index];
	Buffer		newbuf;
	Buffer		oldbuf;

	Assert(ColstoreWriterLockHeld(rel));
	if (group.rg_kind != RG_KIND_ROWGROUP || group.rg_state_root == 0 ||
		group.rg_state_root < cut || !PromotionMapRootMovable(&group))
		return false;
	newbuf = ColstoreNewPageBelow(rel, cursor, cut);
	if (!BufferIsValid(newbuf))
		return false;
	oldbuf = ReadBuffer(rel, group.rg_state_root);
	LockBuffer(oldbuf, BUFFER_LOCK_EXCLUSIVE);
	ColstoreCheckPage(rel, group.rg_state_root, BufferGetPage(oldbuf), COLSTORE_PAGE_STATE_ROOT);
	DirectoryMoveStateRoot(rel, dir_index, oldbuf, newbuf);
	UnlockReleaseBuffer(oldbuf);
	UnlockReleaseBuffer(newbuf);
	return true;
}

/*
 * PromotionMapRootMovable
 *		Has group a promotion map whose root page PromotionMapMoveRoot may
 *		move: one root page (a chain's later pages are named by the page
 *		before, and are not moved)?
 */
bool
PromotionMapRootMovable(const RowGroupDirEntry *group)
{
	return group->rg_state_root != 0 && group->rg_nrows <= ROWS_PER_ROOT;
}

/*
 * PromotionMapClearSlots
 *		For VACUUM's freeing of the copy items of rows deleted for everyone
 *		(storage/deleted_rows.c): for i < n where clear[i], make the slot of
 *		row first + i invalid, storing the position it named in
 *		freed[returned count++]; rows must lie in one leaf.  One generic WAL
 *		record, under the leaf's exclusive lock.  *leaf_empty is set if the
 *		leaf (if any) then holds no valid slot.
 */
int
PromotionMapClearSlots(Relation rel, const RowGroupDirEntry *group, uint32 first,
					   uint32 n, const bool *clear, ItemPointerData *freed,
					   bool *leaf_empty)
{
	BlockNumber leaf = FindLeaf(rel, group, first);
	GenericXLogState *state = NULL;
	Buffer		buf;
	Page		page;
	int			nfreed = 0;
	uint32		i;

	Assert(n >= 1 && n <= PromotionMapLeafRemaining(first));
	*leaf_empty = false;
	if (leaf == InvalidBlockNumber)
		return 0;
	buf = ReadBuffer(rel, leaf);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	page = BufferGetPage(buf);
	ColstoreCheckPage(rel, leaf, page, COLSTORE_PAGE_STATE_LEAF);
	CheckCopies(rel, group, &LeafSlots(page)[first % STATE_LEAF_SLOTS], n);
	for (i = 0; i < n; i++)
	{
		ItemPointer slot = &LeafSlots(page)[(first + i) % STATE_LEAF_SLOTS];

		if (!clear[i] || !ItemPointerIsValid(slot))
			continue;
		if (state == NULL)
		{
			state = GenericXLogStart(rel);
			page = GenericXLogRegisterBuffer(state, buf, 0);
			slot = &LeafSlots(page)[(first + i) % STATE_LEAF_SLOTS];
		}
		freed[nfreed++] = *slot;
		ItemPointerSetInvalid(slot);
	}
	*leaf_empty = true;
	for (i = 0; i < STATE_LEAF_SLOTS && *leaf_empty; i++)
		if (ItemPointerIsValid(&LeafSlots(page)[i]))
			*leaf_empty = false;
	if (state != NULL)
		GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
	return nfreed;
}

/*
 * PromotionMapDetachLeaf
 *		If the leaf of row's range holds no valid slot, flag it
 *		COLSTORE_PAGE_F_RETIRED and clear its root page's slot, and let note
 *		record it on the page of extra (exclusively locked by the caller), all
 *		in one generic WAL record; returns the leaf's block, or
 *		InvalidBlockNumber if nothing was done.  The caller holds the writer
 *		lock, so no promoter makes or finds the leaf meanwhile (PromotionMapSet
 *		finds a leaf without it only through the root slot, and takes a
 *		retired one for none).
 */
BlockNumber
PromotionMapDetachLeaf(Relation rel, const RowGroupDirEntry *group, uint32 row,
					   Buffer extra, void (*note) (Page extra, BlockNumber leaf))
{
	BlockNumber rootblk;
	BlockNumber leaf;
	uint32		slot = (row % ROWS_PER_ROOT) / STATE_LEAF_SLOTS;
	GenericXLogState *state;
	Buffer		rootbuf;
	Buffer		leafbuf;
	Page		rootpage;
	Page		leafpage;
	uint32		i;

	Assert(ColstoreWriterLockHeld(rel));
	leaf = FindLeaf(rel, group, row);
	if (leaf == InvalidBlockNumber)
		return InvalidBlockNumber;
	rootblk = FindRootPage(rel, group, row);
	rootbuf = ReadBuffer(rel, rootblk);
	LockBuffer(rootbuf, BUFFER_LOCK_EXCLUSIVE);
	leafbuf = ReadBuffer(rel, leaf);
	LockBuffer(leafbuf, BUFFER_LOCK_EXCLUSIVE);
	ColstoreCheckPage(rel, leaf, BufferGetPage(leafbuf), COLSTORE_PAGE_STATE_LEAF);
	ColstoreCheckPage(rel, rootblk, BufferGetPage(rootbuf), COLSTORE_PAGE_STATE_ROOT);
	for (i = 0; i < STATE_LEAF_SLOTS; i++)
		if (ItemPointerIsValid(&LeafSlots(BufferGetPage(leafbuf))[i]))
			break;
	if (i < STATE_LEAF_SLOTS || RootSlots(BufferGetPage(rootbuf))[slot] != leaf)
	{
		UnlockReleaseBuffer(leafbuf);
		UnlockReleaseBuffer(rootbuf);
		return InvalidBlockNumber;
	}
	state = GenericXLogStart(rel);
	rootpage = GenericXLogRegisterBuffer(state, rootbuf, 0);
	leafpage = GenericXLogRegisterBuffer(state, leafbuf, 0);
	RootSlots(rootpage)[slot] = 0;
	ColstorePageGetOpaque(leafpage)->cp_flags |= COLSTORE_PAGE_F_RETIRED;
	note(GenericXLogRegisterBuffer(state, extra, 0), leaf);
	GenericXLogFinish(state);
	UnlockReleaseBuffer(leafbuf);
	UnlockReleaseBuffer(rootbuf);
	return leaf;
}
