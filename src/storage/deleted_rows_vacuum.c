/*-------------------------------------------------------------------------
 *
 * deleted_rows_vacuum.c
 *	  VACUUM's side of the deleted-rows bitmap (storage/deleted_rows.c):
 *	  setting the bits of rows deleted for everyone, and freeing, once no
 *	  snapshot from before the bits is left, the copies' items and the
 *	  promotion map leaves they made useless.
 *
 * Only VACUUM calls this file (one VACUUM runs on a table at a time): pages
 * are made under the writer lock, bits set under the bitmap page's
 * exclusive lock, each change one generic WAL record.
 *
 * IDENTIFICATION
 *	  src/storage/deleted_rows_vacuum.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/generic_xlog.h"
#include "access/transam.h"
#include "commands/vacuum.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "storage/delete_log.h"
#include "storage/deleted_rows.h"
#include "storage/deleted_rows_page.h"
#include "storage/delta_vacuum.h"
#include "storage/delta_wal.h"
#include "storage/directory.h"
#include "storage/metapage.h"
#include "storage/page_reuse.h"
#include "storage/promotion_map.h"

/*
 * Give group a DELETED_ROOT page, linked from its promotion map's last root
 * page.  Caller holds the writer lock.
 */
static void
AddRoot(Relation rel, const RowGroupDirEntry *group)
{
	BlockNumber last;
	Buffer		rootbuf;
	Buffer		newbuf;
	GenericXLogState *state;
	Page		page;
	Page		lastpage;

	Assert(ColstoreWriterLockHeld(rel));
	if (DeletedRootFind(rel, group, &last) != InvalidBlockNumber)
		return;
	newbuf = ColstoreNewPage(rel);
	rootbuf = ReadBuffer(rel, last);
	LockBuffer(rootbuf, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(rel);
	lastpage = GenericXLogRegisterBuffer(state, rootbuf, 0);
	ColstoreCheckPage(rel, last, lastpage, COLSTORE_PAGE_STATE_ROOT);
	page = GenericXLogRegisterBuffer(state, newbuf, GENERIC_XLOG_FULL_IMAGE);
	ColstoreInitPage(page, COLSTORE_PAGE_DELETED_ROOT);
	memset(RootData(page), 0, COLSTORE_DATA_PER_PAGE);
	RootData(page)->dr_nbitmaps = BitmapPagesFor(group->rg_nrows);
	ColstorePageSetLower(page, COLSTORE_DATA_END);
	ColstorePageGetOpaque(lastpage)->cp_next = BufferGetBlockNumber(newbuf);
	GenericXLogFinish(state);
	UnlockReleaseBuffer(newbuf);
	UnlockReleaseBuffer(rootbuf);
}

/*
 * DeletedRowsAddRoot
 *		Give group its DELETED_ROOT page if it has none (for its delete log,
 *		storage/delete_log.c).  Caller holds the writer lock.
 */
void
DeletedRowsAddRoot(Relation rel, const RowGroupDirEntry *group)
{
	AddRoot(rel, group);
}

/*
 * Give group bitmap page pageno, named by its DELETED_ROOT page root.
 * Caller holds the writer lock.
 */
static void
AddDeletedBitmapPage(Relation rel, const RowGroupDirEntry *group, BlockNumber root,
					 uint32 pageno)
{
	Buffer		rootbuf;
	Buffer		newbuf;
	GenericXLogState *state;
	Page		page;
	Page		rootpage;

	Assert(ColstoreWriterLockHeld(rel));
	if (DeletedBitmapPage(rel, group, root, pageno) != 0)
		return;
	newbuf = ColstoreNewPage(rel);
	rootbuf = ReadBuffer(rel, root);
	LockBuffer(rootbuf, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(rel);
	rootpage = GenericXLogRegisterBuffer(state, rootbuf, 0);
	(void) DeletedRootCheck(rel, group, rootbuf);
	page = GenericXLogRegisterBuffer(state, newbuf, GENERIC_XLOG_FULL_IMAGE);
	ColstoreInitPage(page, COLSTORE_PAGE_DELETED_BITS);
	memset(BitsData(page), 0, COLSTORE_DATA_PER_PAGE);
	ColstorePageSetLower(page, COLSTORE_DATA_END);
	RootData(rootpage)->dr_bitmaps[pageno] = BufferGetBlockNumber(newbuf);
	GenericXLogFinish(state);
	UnlockReleaseBuffer(newbuf);
	UnlockReleaseBuffer(rootbuf);
}

/*
 * DeletedRowsSet
 *		Set the bits of rows[0..n) (0-based in group, ascending), rows whose
 *		promoted copies VACUUM pruned (with_items) or whose logged deletes
 *		(or moves) committed before every snapshot, and whose index entries
 *		are gone.  Only VACUUM calls this.  The bitmap pages' stamps become
 *		the next transaction id, read under their exclusive lock: a reader
 *		that read a bit unset before holds a snapshot whose xmin is at most
 *		the stamp.  Only bits of rows with items count as pending (their
 *		slots still name the items a later VACUUM frees): a logged delete's
 *		row has no copy, so nothing to free, and counting it kept VACUUM's
 *		statistics counting the rows of a group retired before a later
 *		VACUUM freed it as live.
 */
void
DeletedRowsSet(Relation rel, const RowGroupDirEntry *group, const uint32 *rows, int n,
			   bool with_items)
{
	BlockNumber root;
	int			i = 0;

	Assert(group->rg_kind == RG_KIND_ROWGROUP && group->rg_state_root != 0);
	if (n == 0)
		return;
	root = DeletedRootFind(rel, group, NULL);
	if (root == InvalidBlockNumber)
	{
		ColstoreLockWriter(rel);
		AddRoot(rel, group);
		ColstoreUnlockWriter(rel);
		root = DeletedRootFind(rel, group, NULL);
		Assert(root != InvalidBlockNumber);
	}
	while (i < n)
	{
		uint32		pageno = rows[i] / ROWS_PER_BITS_PAGE;
		BlockNumber blkno = DeletedBitmapPage(rel, group, root, pageno);
		GenericXLogState *state;
		DeletedBitsData *bits;
		Buffer		buf;
		uint32		newly = 0;

		if (blkno == 0)
		{
			ColstoreLockWriter(rel);
			AddDeletedBitmapPage(rel, group, root, pageno);
			ColstoreUnlockWriter(rel);
			blkno = DeletedBitmapPage(rel, group, root, pageno);
			Assert(blkno != 0);
		}
		buf = ReadBuffer(rel, blkno);
		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		state = GenericXLogStart(rel);
		bits = BitsData(GenericXLogRegisterBuffer(state, buf, 0));
		ColstoreCheckPage(rel, blkno, BufferGetPage(buf), COLSTORE_PAGE_DELETED_BITS);
		for (; i < n && rows[i] / ROWS_PER_BITS_PAGE == pageno; i++)
		{
			uint32		bit = rows[i] % ROWS_PER_BITS_PAGE;

			Assert(rows[i] < group->rg_nrows);
			if (bits->db_bits[bit / 8] & (1 << (bit % 8)))
				continue;
			bits->db_bits[bit / 8] |= (uint8) (1 << (bit % 8));
			newly++;
		}
		if (newly > 0)
		{
			bits->db_stamp = ReadNextTransactionId();
			if (with_items)
				bits->db_pending += newly;
			GenericXLogFinish(state);
		}
		else
			GenericXLogAbort(state);
		UnlockReleaseBuffer(buf);
	}
}

/*
 * Freeing.  A set bit makes the row's slot and its copy's LP_DEAD item
 * useless, but a reader that read the bit unset before it was set may still
 * read the slot and follow it: such a reader holds a snapshot whose xmin is
 * at most the bitmap page's stamp.  So, as delta_retire.c does for emptied
 * heap pages, a later VACUUM whose OldestXmin follows the stamp (standby
 * queries cancelled first, LogStandbyConflict) clears the slots (their
 * bits are set, so no reader from after the stamp reads them) and only then
 * makes the items LP_UNUSED, for heap to reuse; a crash between the two
 * leaks the items (LP_DEAD, named by no slot), never frees one a slot still
 * names.  A leaf left without a valid slot is detached from its root page
 * and listed in the DELETED_ROOT page with a stamp of its own (a reader may
 * have read the root slot before); a VACUUM after that stamp removes it
 * from the list and then gives its page to the free space map (a crash
 * between the two leaks the page).  Delete log segment pages left without
 * a run once VACUUM folded their runs into bits are detached and listed the
 * same way (DeletedRowsDetachLog, storage/delete_log.c) and freed with the
 * leaves.
 */

/* PromotionMapDetachLeaf's note: list leaf in the DELETED_ROOT page. */
static void
NoteRetiredLeaf(Page page, BlockNumber leaf)
{
	DeletedRootData *root = RootData(page);

	Assert(root->dr_nretired < RetiredCapacity(root));
	RetiredLeaves(root)[root->dr_nretired].rl_leaf = leaf;
	RetiredLeaves(root)[root->dr_nretired].rl_stamp = ReadNextTransactionId();
	root->dr_nretired++;
}

/* Does no snapshot from before stamp remain (oldest_xmin follows it)? */
static inline bool
StampPassed(TransactionId stamp, TransactionId oldest_xmin)
{
	return !TransactionIdIsNormal(stamp) || TransactionIdPrecedes(stamp, oldest_xmin);
}

/* Raise *newest to stamp if it is newer. */
static inline void
NoteStamp(TransactionId stamp, TransactionId *newest)
{
	if (TransactionIdIsNormal(stamp) &&
		(!TransactionIdIsValid(*newest) || TransactionIdFollows(stamp, *newest)))
		*newest = stamp;
}

/*
 * The work a freeing pass found for one group: whether some retired leaves
 * and which bitmap pages (pending bits, stamp passed) are ready.
 */
typedef struct FreeWork
{
	RowGroupDirEntry group;
	BlockNumber root;
	bool		leaves;
	uint32		npages;
	uint32	   *pages;			/* bitmap page numbers */
} FreeWork;

/* Find group's ready work; false if there is none. */
static bool
FindWork(Relation rel, const RowGroupDirEntry *group, TransactionId oldest_xmin,
		 FreeWork *w, TransactionId *newest)
{
	uint32		nbitmaps = BitmapPagesFor(group->rg_nrows);
	Buffer		buf;
	DeletedRootData *root;
	uint32		i;

	memset(w, 0, sizeof(*w));
	w->group = *group;
	w->root = DeletedRootFind(rel, group, NULL);
	if (w->root == InvalidBlockNumber)
		return false;
	w->pages = palloc(sizeof(uint32) * nbitmaps);
	buf = ReadBuffer(rel, w->root);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	root = DeletedRootCheck(rel, group, buf);
	for (i = 0; i < root->dr_nretired; i++)
		if (StampPassed(RetiredLeaves(root)[i].rl_stamp, oldest_xmin))
		{
			w->leaves = true;
			NoteStamp(RetiredLeaves(root)[i].rl_stamp, newest);
		}
	UnlockReleaseBuffer(buf);
	for (i = 0; i < nbitmaps; i++)
	{
		BlockNumber blkno = DeletedBitmapPage(rel, group, w->root, i);
		DeletedBitsData *bits;

		if (blkno == 0)
			continue;
		buf = ReadBuffer(rel, blkno);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		ColstoreCheckPage(rel, blkno, BufferGetPage(buf), COLSTORE_PAGE_DELETED_BITS);
		bits = BitsData(BufferGetPage(buf));
		if (bits->db_pending > 0 && StampPassed(bits->db_stamp, oldest_xmin))
		{
			w->pages[w->npages++] = i;
			NoteStamp(bits->db_stamp, newest);
		}
		UnlockReleaseBuffer(buf);
	}
	return w->leaves || w->npages > 0;
}

/*
 * Turn listed page blkno (a detached promotion map leaf or delete log
 * segment page) into an empty heap page in the free space map.
 */
static void
GiveLeafToHeap(Relation rel, BlockNumber blkno, BufferAccessStrategy strategy)
{
	Buffer		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
	ColstorePageOpaque opaque;

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	opaque = ColstorePageGetOpaque(BufferGetPage(buf));
	if (PageGetSpecialSize(BufferGetPage(buf)) != MAXALIGN(sizeof(ColstorePageOpaqueData)) ||
		(opaque->cp_page_type != COLSTORE_PAGE_STATE_LEAF &&
		 opaque->cp_page_type != COLSTORE_PAGE_DELETE_LOG) ||
		!(opaque->cp_flags & COLSTORE_PAGE_F_RETIRED))
	{
		UnlockReleaseBuffer(buf);	/* not reached: listed pages are detached */
		return;
	}
	PageGiveToHeap(rel, buf);
}

/* Free w's retired leaves whose stamp passed; returns how many. */
static uint32
FreeLeaves(Relation rel, const FreeWork *w, TransactionId oldest_xmin,
		   BufferAccessStrategy strategy)
{
	BlockNumber freed[BLCKSZ / sizeof(RetiredLeaf)];
	uint32		nfreed = 0;
	GenericXLogState *state;
	DeletedRootData *root;
	Buffer		buf;
	uint32		i;
	uint32		kept = 0;

	/* listed off first: a crash from here on leaks a page, never reuses one */
	ColstoreLockWriter(rel);
	buf = ReadBuffer(rel, w->root);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	(void) DeletedRootCheck(rel, &w->group, buf);
	state = GenericXLogStart(rel);
	root = RootData(GenericXLogRegisterBuffer(state, buf, 0));
	for (i = 0; i < root->dr_nretired; i++)
	{
		RetiredLeaf r = RetiredLeaves(root)[i];

		if (StampPassed(r.rl_stamp, oldest_xmin))
			freed[nfreed++] = r.rl_leaf;
		else
			RetiredLeaves(root)[kept++] = r;
	}
	root->dr_nretired = kept;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
	ColstoreUnlockWriter(rel);
	for (i = 0; i < nfreed; i++)
		GiveLeafToHeap(rel, freed[i], strategy);
	return nfreed;
}

/* Sorts heap positions by block, then offset. */
static int
ComparePositions(const void *a, const void *b)
{
	return ItemPointerCompare((ItemPointer) a, (ItemPointer) b);
}

/* Make the LP_DEAD items at positions[0..n) reusable. */
static void
FreeItems(Relation rel, ItemPointerData *positions, int n, BufferAccessStrategy strategy)
{
	OffsetNumber offsets[MaxHeapTuplesPerPage];
	int			i = 0;

	qsort(positions, n, sizeof(ItemPointerData), ComparePositions);
	while (i < n)
	{
		BlockNumber blkno = ItemPointerGetBlockNumber(&positions[i]);
		int			k = 0;

		for (; i < n && ItemPointerGetBlockNumber(&positions[i]) == blkno; i++)
			if (k < MaxHeapTuplesPerPage)
				offsets[k++] = ItemPointerGetOffsetNumber(&positions[i]);
		DeltaVacuumReusePageItems(rel, blkno, offsets, k, strategy);
		VacuumDelayPoint();
	}
}

/* Detach the leaf of row's range if it has no valid slot (and there is room to list it). */
static bool
DetachLeaf(Relation rel, const FreeWork *w, uint32 row)
{
	Buffer		buf;
	bool		detached = false;

	ColstoreLockWriter(rel);
	buf = ReadBuffer(rel, w->root);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	if (DeletedRootCheck(rel, &w->group, buf)->dr_nretired <
		RetiredCapacity(RootData(BufferGetPage(buf))))
		detached = PromotionMapDetachLeaf(rel, &w->group, row, buf, NoteRetiredLeaf) !=
			InvalidBlockNumber;
	UnlockReleaseBuffer(buf);
	ColstoreUnlockWriter(rel);
	return detached;
}

/*
 * DeletedRowsDetachLog
 *		For VACUUM, after it pruned group's delete log (DeleteLogPrune): detach
 *		the log's segment pages left without a run and list them for freeing
 *		(see "Freeing" above and DeleteLogDetachEmpty), as many as the
 *		DELETED_ROOT page has room to list.  Takes the writer lock.  Returns
 *		how many were detached.
 */
uint32
DeletedRowsDetachLog(Relation rel, const RowGroupDirEntry *group)
{
	BlockNumber root = DeletedRootFind(rel, group, NULL);
	DeletedRootData *data;
	uint32		detached;
	Buffer		buf;

	if (root == InvalidBlockNumber)
		return 0;
	ColstoreLockWriter(rel);
	buf = ReadBuffer(rel, root);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	data = DeletedRootCheck(rel, group, buf);
	detached = DeleteLogDetachEmpty(rel, group, buf,
									RetiredCapacity(data) - data->dr_nretired,
									NoteRetiredLeaf);
	UnlockReleaseBuffer(buf);
	ColstoreUnlockWriter(rel);
	return detached;
}

/*
 * Clear the slots of the rows whose bits bitmap page pageno of w sets,
 * free their copies' items, detach the leaves left without a valid slot,
 * and mark the page's bits as having no item left.  Returns the items freed.
 */
static uint32
FreeDeletedBitmapPage(Relation rel, const FreeWork *w, uint32 pageno, BufferAccessStrategy strategy)
{
	uint32		first = pageno * ROWS_PER_BITS_PAGE;
	uint32		n = Min(w->group.rg_nrows - first, ROWS_PER_BITS_PAGE);
	BlockNumber blkno = DeletedBitmapPage(rel, &w->group, w->root, pageno);
	bool	   *deleted = palloc(sizeof(bool) * n);
	ItemPointerData *positions = palloc(sizeof(ItemPointerData) * n);
	int			npositions = 0;
	GenericXLogState *state;
	Buffer		buf;
	uint32		i = 0;

	buf = ReadBuffer(rel, blkno);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	ColstoreCheckPage(rel, blkno, BufferGetPage(buf), COLSTORE_PAGE_DELETED_BITS);
	for (i = 0; i < n; i++)
		deleted[i] = (BitsData(BufferGetPage(buf))->db_bits[i / 8] & (1 << (i % 8))) != 0;
	UnlockReleaseBuffer(buf);

	/* the slots first, leaf by leaf */
	for (i = 0; i < n;)
	{
		uint32		run = Min(n - i, PromotionMapLeafRemaining(first + i));
		bool		leaf_empty;
		int			got;

		VacuumDelayPoint();
		got = PromotionMapClearSlots(rel, &w->group, first + i, run, &deleted[i],
									 &positions[npositions], &leaf_empty);
		npositions += got;
		if (leaf_empty)
			(void) DetachLeaf(rel, w, first + i);
		i += run;
	}

	/* then the items, named by no slot any more */
	FreeItems(rel, positions, npositions, strategy);

	buf = ReadBuffer(rel, blkno);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(rel);
	BitsData(GenericXLogRegisterBuffer(state, buf, 0))->db_pending = 0;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
	pfree(deleted);
	pfree(positions);
	return (uint32) npositions;
}

/*
 * DeletedRowsFree
 *		The freeing described above, for every valid row group of rel, as far
 *		as oldest_xmin allows.  Returns the copy items made reusable;
 *		*freed_leaves gets the promotion map leaves given to the free space
 *		map.  Only VACUUM calls this, holding no writer lock, after its index
 *		passes and before it retires emptied heap pages (delta_retire.c),
 *		which the freed items may leave empty.
 */
uint32
DeletedRowsFree(Relation rel, TransactionId oldest_xmin, BufferAccessStrategy strategy,
				uint32 *freed_leaves)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			ngroups = dir->ngroups;
	FreeWork   *work = palloc(sizeof(FreeWork) * Max(ngroups, 1));
	RowGroupDirEntry *groups = palloc(sizeof(RowGroupDirEntry) * Max(ngroups, 1));
	TransactionId newest = InvalidTransactionId;
	uint32		freed_items = 0;
	int			nwork = 0;
	int			g;
	uint32		i;

	*freed_leaves = 0;
	/* copied first: the directory may be reread while pages are read */
	for (g = 0; g < ngroups; g++)
		groups[g] = dir->entries[dir->groups[g]];
	for (g = 0; g < ngroups; g++)
	{
		VacuumDelayPoint();
		if (groups[g].rg_state_root == 0 || (groups[g].rg_flags & RG_FLAG_INVALID))
			continue;
		if (FindWork(rel, &groups[g], oldest_xmin, &work[nwork], &newest))
			nwork++;
	}
	if (nwork == 0)
		return 0;
	LogStandbyConflict(rel, newest);
	for (g = 0; g < nwork; g++)
	{
		if (work[g].leaves)
			*freed_leaves += FreeLeaves(rel, &work[g], oldest_xmin, strategy);
		for (i = 0; i < work[g].npages; i++)
			freed_items += FreeDeletedBitmapPage(rel, &work[g], work[g].pages[i], strategy);
	}
	return freed_items;
}

/*
 * DeletedRowsGone
 *		How many rows of rel's valid or emptied (not freed) row groups are
 *		deleted for everyone with their copies' items freed (VACUUM's
 *		statistics: the others still have an LP_DEAD item, which VACUUM
 *		counts as it finds it).
 */
double
DeletedRowsGone(Relation rel)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			ngroups = dir->ngroups;
	RowGroupDirEntry *groups = palloc(sizeof(RowGroupDirEntry) * Max(ngroups, 1));
	double		gone = 0;
	int			g;

	for (g = 0; g < ngroups; g++)
		groups[g] = dir->entries[dir->groups[g]];
	for (g = 0; g < ngroups; g++)
	{
		uint32		pending;
		uint32		count;

		/* live groups, and emptied ones (VACUUM counts their rows deleted) */
		if (groups[g].rg_state_root == 0 ||
			((groups[g].rg_flags & RG_FLAG_INVALID) &&
			 (groups[g].rg_flags & (RG_FLAG_EMPTIED | RG_FLAG_FREED)) != RG_FLAG_EMPTIED))
			continue;
		count = DeletedRowsCount(rel, &groups[g], &pending);
		gone += count - Min(count, pending);
	}
	pfree(groups);
	return gone;
}
