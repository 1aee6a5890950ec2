/*-------------------------------------------------------------------------
 *
 * delta_heap.c
 *	  Heap pages inside a colstore relation: where heapam keeps the state of
 *	  changed rows, the new versions UPDATE writes and the rows of small
 *	  INSERTs (storage/delta_insert.c).
 *
 * colstore does not re-implement row-level MVCC.  heap_update, heap_delete
 * and heap_lock_tuple run on the colstore relation itself and keep their
 * tuples on ordinary heap pages of its main fork, between colstore's own
 * pages (metapage, directory, page stream, promotion maps).  So TRUNCATE,
 * rewrites, DROP, TEMP and UNLOGGED, WAL, crash recovery and standbys treat
 * them exactly like the rest of the table, and the tuple locks, multixacts,
 * EvalPlanQual chains and SERIALIZABLE checks are heap's own.
 *
 * Heap code looks for room through the relation's target block, then the
 * free space map, then "the last page of the relation", then extends the
 * relation.  colstore pages never have room in the free space map (a freed
 * page colstore takes back gets 0 there, and every colstore page has
 * pd_upper == pd_lower, so heap finds no room on it either), and
 * DeltaHeapInsert and DeltaHeapUpdate point the target block at a heap
 * page before calling heap_insert or heap_update.  The target block can
 * still be lost inside the call (TOASTing a value opens the TOAST table,
 * which processes invalidations, which may close the relation's smgr), so
 * during the call colstore_relation_size reports the relation as empty:
 * heap code then finds no "last page" and extends the relation instead of
 * picking a colstore page or a pseudo-block.  Nothing in colstore calls heapam's scan or index fetch
 * functions, the only callers of opportunistic pruning, so heap tuples stay
 * until colstore's own VACUUM handles them.
 *
 * Every heap page that receives a tuple is registered in the directory
 * (RG_KIND_DELTA_PAGE) with a pseudo-block of the row-number space, before
 * the inserting transaction can commit.  Its item i is then the row with
 * logical TID (pseudo-block, i): inside the TID space that scans, TID
 * bitmaps, BRIN and TABLESAMPLE cover, with the same offsets as on the page.
 *
 * Reading an item of a heap page (HeapVersionRead) checks what a damaged
 * page or pointer could get wrong: that the page is a heap page and the
 * item lies inside it.  Whether a version is visible is mvcc/'s business.
 *
 * IDENTIFICATION
 *	  src/storage/delta_heap.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/generic_xlog.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/transam.h"
#include "catalog/catalog.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "utils/inval.h"
#include "utils/rel.h"

#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/metapage.h"
#include "storage/rowgroup_writer.h"

/* relation inside heap_insert/heap_update (see DeltaHeapHidesSize) */
static Oid	InsertingRelid = InvalidOid;

/* Append the directory entry of heap page blkno.  Caller holds the writer lock. */
static void
AppendDeltaPageEntry(Relation rel, BlockNumber blkno)
{
	RowGroupDirEntry entry;
	int			ndeltas;

	memset(&entry, 0, sizeof(entry));
	entry.rg_kind = RG_KIND_DELTA_PAGE;
	entry.rg_flags = RG_FLAG_FROZEN;
	entry.rg_xmin = FrozenTransactionId;
	entry.rg_cmin = FirstCommandId;
	entry.rg_header.sp_block = blkno;
	/* a pseudo-block of its own, so item numbers are offsets in it */
	(void) AppendRowRange(rel, &entry, ROWS_PER_TID_BLOCK, ROWS_PER_TID_BLOCK);

	/*
	 * A scan reads every heap page, which the planner's costs count
	 * (cscan/cscan_path.c): when their number doubles, plans cached while it
	 * was smaller (a prepared point lookup planned as a pruning ColstoreScan)
	 * are made again.
	 */
	ndeltas = DirectoryGet(rel)->ndeltas;
	if ((ndeltas & (ndeltas - 1)) == 0)
		CacheInvalidateRelcache(rel);
}

/*
 * Make sure heap page blkno has its pseudo-block, and return the entry.
 * Called after every heap call that placed a tuple, before the transaction
 * can commit.
 */
static RowGroupDirEntry
RegisterPage(Relation rel, BlockNumber blkno)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			index = DirectoryFindDeltaBlock(dir, blkno);

	if (index < 0)
	{
		ColstoreLockWriter(rel);
		dir = DirectoryGet(rel);
		if (DirectoryFindDeltaBlock(dir, blkno) < 0)
			AppendDeltaPageEntry(rel, blkno);
		ColstoreUnlockWriter(rel);
		dir = DirectoryGet(rel);
		index = DirectoryFindDeltaBlock(dir, blkno);
	}
	return dir->entries[index];
}

/* Add an empty, registered heap page.  Caller holds the writer lock. */
static void
AddFirstHeapPage(Relation rel)
{
	GenericXLogState *state;
	Buffer		buf;
	BlockNumber blkno;
	Page		page;

	/* make sure the metapage exists before block 1 is taken */
	UnlockReleaseBuffer(ColstoreLockMetaForUpdate(rel));
	buf = ColstoreExtend(rel);
	blkno = BufferGetBlockNumber(buf);
	state = GenericXLogStart(rel);
	page = GenericXLogRegisterBuffer(state, buf, GENERIC_XLOG_FULL_IMAGE);
	PageInit(page, BLCKSZ, 0);
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
	AppendDeltaPageEntry(rel, blkno);
}

/*
 * Point the relation's target block at a registered heap page: the one the
 * last heap call used, if it is still registered, else the newest one
 * (creating the first one if there is none), so that the heap call that
 * follows places its tuple on a heap page or extends the relation.  Going
 * on with the last page keeps heap filling one page at a time when it
 * takes freed pages from the free space map, which lie anywhere in the
 * file (the newest page is the highest block, not the last one used).
 */
static void
PrepareInsert(Relation rel)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	BlockNumber blkno = RelationGetTargetBlock(rel);

	if (blkno != InvalidBlockNumber && DirectoryFindDeltaBlock(dir, blkno) >= 0)
		return;

	if (dir->ndeltas == 0)
	{
		ColstoreLockWriter(rel);
		dir = DirectoryGet(rel);
		if (dir->ndeltas == 0)
			AddFirstHeapPage(rel);
		ColstoreUnlockWriter(rel);
		dir = DirectoryGet(rel);
	}
	blkno = dir->entries[dir->deltas_by_block[dir->ndeltas - 1]].rg_header.sp_block;
	RelationSetTargetBlock(rel, blkno);
}

/*
 * DeltaHeapToLogical
 *		The logical TID of the heap tuple at phys (a registered page), or
 *		phys unchanged if it is not a tuple position (the "moved to another
 *		partition" marker).
 */
void
DeltaHeapToLogical(Relation rel, ItemPointer phys, ItemPointer logical)
{
	BlockNumber blkno = ItemPointerGetBlockNumberNoCheck(phys);
	ColstoreDirectory *dir;
	int			index;

	if (blkno == InvalidBlockNumber)
	{
		*logical = *phys;
		return;
	}
	dir = DirectoryGet(rel);
	index = DirectoryFindDeltaBlock(dir, blkno);
	if (index < 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("colstore table \"%s\": heap block %u has no pseudo-block",
								 RelationGetRelationName(rel), blkno)));

	/*
	 * a heap page's items are its pseudo-block's: item 292 would be another's
	 * row
	 */
	if (ItemPointerGetOffsetNumberNoCheck(phys) < FirstOffsetNumber ||
		ItemPointerGetOffsetNumberNoCheck(phys) > MaxHeapTuplesPerPage)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("colstore table \"%s\": heap position (%u,%u) is not an item of a heap page",
								 RelationGetRelationName(rel), blkno,
								 ItemPointerGetOffsetNumberNoCheck(phys))));
	DeltaPageRowOfItem(&dir->entries[index], ItemPointerGetOffsetNumberNoCheck(phys),
					   logical);
}

/*
 * DeltaHeapUncountInserts
 *		heap_insert counted n promoted copies as inserted rows; they are not
 *		rows, so take them back (the counts feed autovacuum's thresholds).
 */
void
DeltaHeapUncountInserts(Relation rel, int n)
{
	if (pgstat_should_count_relation(rel) && rel->pgstat_info->trans != NULL)
		rel->pgstat_info->trans->tuples_inserted -= n;
}

/*
 * DeltaHeapHidesSize
 *		True while heap_insert or heap_update runs on relid for colstore:
 *		its size must then read as zero (see the file header).
 */
bool
DeltaHeapHidesSize(Oid relid)
{
	return OidIsValid(InsertingRelid) && InsertingRelid == relid;
}

/*
 * DeltaHeapInsert
 *		heap_insert of tuple into rel's heap pages, registering the page it
 *		lands on.
 */
/* heap_insert of tuple, hiding the relation's size (see the file header) */
static void
HeapInsertHidingSize(Relation rel, HeapTuple tuple, CommandId cid, int options)
{
	InsertingRelid = RelationGetRelid(rel);
	PG_TRY();
	{
		heap_insert(rel, tuple, cid, options, NULL);
	}
	PG_FINALLY();
	{
		InsertingRelid = InvalidOid;
	}
	PG_END_TRY();
}

void
DeltaHeapInsert(Relation rel, HeapTuple tuple, CommandId cid, int options)
{
	PrepareInsert(rel);
	HeapInsertHidingSize(rel, tuple, cid, options);
	(void) RegisterPage(rel, ItemPointerGetBlockNumber(&tuple->t_self));
}

/*
 * DeltaHeapInsertCopies
 *		heap_insert of each of the n tuples (their t_self set to where they
 *		land) into rel's heap pages, registering the pages they land on:
 *		the target block is pointed at a heap page once, and a page is
 *		registered once per run of tuples on it.  Promoted copies come this
 *		way (HEAP_INSERT_FROZEN | HEAP_INSERT_NO_LOGICAL): heap_multi_insert
 *		would mark a page it fills with frozen tuples all-visible in the
 *		visibility map at the page's block number, which in a colstore
 *		table's map is a pseudo-block (storage/all_visible.c), and it cannot
 *		leave logical decoding information out; heap_insert does neither.
 */
void
DeltaHeapInsertCopies(Relation rel, HeapTuple *tuples, int n, CommandId cid,
					  int options)
{
	BlockNumber last = InvalidBlockNumber;
	int			i;

	if (n <= 0)
		return;
	PrepareInsert(rel);
	for (i = 0; i < n; i++)
	{
		BlockNumber blkno;

		HeapInsertHidingSize(rel, tuples[i], cid, options);

		/*
		 * the page must have its pseudo-block before the transaction can
		 * commit; heap_insert kept the target block on it or on the page it
		 * extended the relation by, so the next one needs no PrepareInsert
		 */
		blkno = ItemPointerGetBlockNumber(&tuples[i]->t_self);
		if (blkno != last)
			(void) RegisterPage(rel, blkno);
		last = blkno;
	}
}

/*
 * heap_update with heap's answer on index entries: 16 returns it through
 * its last parameter; on 15 heapam_tuple_update derives it from the new
 * tuple, which heap_update marked heap-only if it made a HOT update.
 */
static inline TM_Result
HeapUpdateCompat(Relation rel, ItemPointer otid, HeapTuple newtup, CommandId cid,
				 Snapshot crosscheck, bool wait, TM_FailureData *tmfd,
				 LockTupleMode *lockmode, TU_UpdateIndexes *update_indexes)
{
#if PG_HAS_TU_UPDATE_INDEXES
	return heap_update(rel, otid, newtup, cid, crosscheck, wait, tmfd,
					   lockmode, update_indexes);
#else
	TM_Result	result = heap_update(rel, otid, newtup, cid, crosscheck, wait,
									 tmfd, lockmode);

	*update_indexes = result == TM_Ok && !HeapTupleIsHeapOnly(newtup);
	return result;
#endif
}

/*
 * DeltaHeapUpdate
 *		heap_update of the heap tuple at otid to newtup, registering the page
 *		the new version lands on if it succeeds and setting *newtid to the
 *		new version's colstore TID and *update_indexes to heap's answer:
 *		TU_None or TU_Summarizing for a HOT update (the new version is
 *		heap-only, on the old one's page, and no index-relevant column
 *		changed), else TU_All.
 */
TM_Result
DeltaHeapUpdate(Relation rel, ItemPointer otid, HeapTuple newtup,
				CommandId cid, Snapshot crosscheck, bool wait,
				TM_FailureData *tmfd, LockTupleMode *lockmode,
				ItemPointer newtid, TU_UpdateIndexes *update_indexes)
{
	TM_Result	result;

	PrepareInsert(rel);
	InsertingRelid = RelationGetRelid(rel);
	*update_indexes = TU_None;
	PG_TRY();
	{
		result = HeapUpdateCompat(rel, otid, newtup, cid, crosscheck, wait,
								  tmfd, lockmode, update_indexes);
	}
	PG_FINALLY();
	{
		InsertingRelid = InvalidOid;
	}
	PG_END_TRY();
	if (result == TM_Ok)
	{
		RowGroupDirEntry page = RegisterPage(rel,
											 ItemPointerGetBlockNumber(&newtup->t_self));

		DeltaPageRowOfItem(&page, ItemPointerGetOffsetNumber(&newtup->t_self), newtid);
	}
	else
		*update_indexes = TU_None;
	return result;
}

/*
 * DeltaPageHoldsTuples
 *		Does heap page blkno of rel hold a tuple: an item that is neither
 *		unused nor dead (visible to anybody or not)?  A page without one adds
 *		no row to any scan.
 */
bool
DeltaPageHoldsTuples(Relation rel, BlockNumber blkno)
{
	Buffer		buf = ReadBuffer(rel, blkno);
	Page		page;
	OffsetNumber off;
	OffsetNumber maxoff;
	bool		holds = false;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	maxoff = PageGetMaxOffsetNumber(page);
	for (off = FirstOffsetNumber; off <= maxoff && !holds; off = OffsetNumberNext(off))
	{
		ItemId		id = PageGetItemId(page, off);

		holds = ItemIdIsNormal(id) || ItemIdIsRedirected(id);
	}
	UnlockReleaseBuffer(buf);
	return holds;
}

/*
 * DeltaPagesHoldTuples
 *		Does any heap page of rel hold a tuple (DeltaPageHoldsTuples)?
 *		Assumed so, without reading them, when there are more than
 *		max_pages of them.
 */
bool
DeltaPagesHoldTuples(Relation rel, int max_pages)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			ndeltas = dir->ndeltas;
	BlockNumber *blocks;
	bool		holds = false;
	int			i;

	if (ndeltas == 0)
		return false;
	if (ndeltas > max_pages)
		return true;
	/* the directory may be reread while pages are read: copy the blocks */
	blocks = palloc(sizeof(BlockNumber) * ndeltas);
	for (i = 0; i < ndeltas; i++)
		blocks[i] = dir->entries[dir->deltas_by_block[i]].rg_header.sp_block;
	for (i = 0; i < ndeltas && !holds; i++)
		holds = DeltaPageHoldsTuples(rel, blocks[i]);
	pfree(blocks);
	return holds;
}

/*
 * HeapPageHoldsNoItem
 *		Is the locked page new, or a heap page none of whose line pointers is
 *		in use (LP_DEAD and LP_REDIRECT are: index entries and promotion map
 *		slots may name them)?  False for colstore's own pages.  Freed-page
 *		reuse, truncation and the retiring of emptied heap pages all ask it.
 */
bool
HeapPageHoldsNoItem(Page page)
{
	OffsetNumber off;
	OffsetNumber maxoff;

	if (PageIsNew(page))
		return true;
	if (((PageHeader) page)->pd_special != BLCKSZ)
		return false;			/* a colstore page */
	maxoff = PageGetMaxOffsetNumber(page);
	for (off = FirstOffsetNumber; off <= maxoff; off = OffsetNumberNext(off))
		if (ItemIdIsUsed(PageGetItemId(page, off)))
			return false;
	return true;
}

/*
 * HeapPageCheck
 *		Raise ERRCODE_DATA_CORRUPTED unless the locked page in buf, which a
 *		directory entry or a promoted copy's TID names, is a heap page (or a
 *		new one): a damaged pointer can name one of colstore's own pages.
 */
void
HeapPageCheck(Relation rel, Buffer buf)
{
	Page		page = BufferGetPage(buf);

	if (!PageIsNew(page) && ((PageHeader) page)->pd_special != BLCKSZ)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("colstore table \"%s\": block %u, named as a heap page, is not one",
								 RelationGetRelationName(rel), BufferGetBlockNumber(buf))));
}

/*
 * HeapVersionRead
 *		Point tuple at item off of the locked heap page in buf, or return
 *		false if that item holds no tuple.  Raises ERRCODE_DATA_CORRUPTED if
 *		the page is not a heap page or the item lies outside it.
 */
bool
HeapVersionRead(Relation rel, Buffer buf, OffsetNumber off, HeapTuple tuple)
{
	Page		page = BufferGetPage(buf);
	ItemId		lp;

	HeapPageCheck(rel, buf);
	if (off < FirstOffsetNumber || off > PageGetMaxOffsetNumber(page))
		return false;
	lp = PageGetItemId(page, off);
	if (!ItemIdIsNormal(lp))
		return false;
	if (ItemIdGetLength(lp) < SizeofHeapTupleHeader ||
		ItemIdGetOffset(lp) < SizeOfPageHeaderData ||
		ItemIdGetOffset(lp) + ItemIdGetLength(lp) > BLCKSZ)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("colstore table \"%s\": heap item (%u,%u) lies outside its page",
								 RelationGetRelationName(rel), BufferGetBlockNumber(buf), off)));
	tuple->t_data = (HeapTupleHeader) PageGetItem(page, lp);
	tuple->t_len = ItemIdGetLength(lp);
	ItemPointerSet(&tuple->t_self, BufferGetBlockNumber(buf), off);
	tuple->t_tableOid = RelationGetRelid(rel);
	return true;
}

/*
 * HeapItemIsDead
 *		Is item off of the locked heap page in buf LP_DEAD?  For a promoted
 *		copy that means VACUUM pruned it: the row is deleted for everyone.
 */
bool
HeapItemIsDead(Buffer buf, OffsetNumber off)
{
	Page		page = BufferGetPage(buf);

	return off >= FirstOffsetNumber && off <= PageGetMaxOffsetNumber(page) &&
		ItemIdIsDead(PageGetItemId(page, off));
}
