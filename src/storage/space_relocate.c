/*-------------------------------------------------------------------------
 *
 * space_relocate.c
 *	  VACUUM's moving of the row groups and directory pages that hold up the
 *	  end of a colstore relation into freed pages lower in the file, so that
 *	  truncation (space_truncate.c) can give the end back.
 *
 * Why.  Compaction writes its row groups while the heap pages it empties
 * still hold their tuples, so the groups land after those pages, at the end
 * of the file; directory pages are taken wherever the file ended when an
 * entry needed one.  Once VACUUM has freed the heap pages, the file is mostly
 * free pages with a few colstore pages at its end, and truncation, which
 * only cuts unreferenced pages from the end, gives nothing back (an UPDATE of
 * a tenth of a 2,000,000-row table left a file 50 times its size before).
 *
 * What moves.  The end of the file is looked at from its last page down: a
 * page that truncation would cut (new, a heap page with no line pointer in
 * use, a page moved before) is skipped; a directory page, and a stream page
 * of a committed row group, can be moved; a stream page no row group's run
 * holds (left by a write or a move that a crash interrupted) but the
 * stream's tail page is nobody's and is flagged; anything else (the
 * metapage, a promotion map leaf, a delete log segment page, a heap page
 * with an item in use, a stream page of a group not yet freed) ends the
 * look.  A committed group's row state pages also move: its promotion map
 * root page if it is the only one (promotion_map.c, PromotionMapMoveRoot),
 * its DELETED_ROOT and bitmap pages and its delete log's root page
 * (deleted_rows_move.c); its leaves and delete log segment pages do not.  The cut C is the lowest block such that every page from C
 * on is skipped or can be moved, every row group with a page from C on has
 * all its pages from C on (it moves whole: its old pages are then nobody's),
 * and the freed pages below C can take what moves, with room to spare: the
 * free space map's, but only those no directory entry names as a heap page
 * (ColstoreFreedPageListed: VACUUM records the room of the heap pages it
 * empties before it retires and frees them).  Nothing is done unless truncation at C would pay
 * (space_truncate.c's rule).
 *
 * How, holding the writer lock throughout (row group writers, directory
 * appends and new promotion map pages wait; readers and heap tuples do
 * not):
 * 1. The free pages from C on leave the free space map, so that neither
 *	  heap nor colstore takes them meanwhile (heap may still fill its
 *	  target page; truncation then stops above it, which costs space only).
 * 2. Each row group to move is copied, in its stream order (chunk images,
 *	  moved-row sources, header), into freed pages below C
 *	  (StreamWriterBeginBelow; a group right after another that moves, in
 *	  the directory, which is stream order, continues where that one ended,
 *	  as when they were written; any other starts a page of its own, since
 *	  group_reclaim.c judges who shares a page by directory neighbours), its
 *	  header's chunk locations and checksum
 *	  rewritten; then its directory entry is pointed at the new header and
 *	  sources in one WAL record with the metapage's change count
 *	  (DirectoryMoveGroup), so every backend reloads the directory.  A
 *	  header cache image for the new place is dropped first (it could only
 *	  be an older copy's).  Rows, row numbers, flags, xmin and promotion map
 *	  do not change: every snapshot, index entry and TID reads the same rows.
 * 2b. Each committed group's row state pages at or after C move, one WAL
 *	  record each (its promotion map root: PromotionMapMoveRoot; then its
 *	  bitmap, delete log root and DELETED_ROOT pages: DeletedRowsRelocate).
 * 3. If the stream's tail page is at or after C, the metapage's tail is
 *	  cleared: the next row group starts on a new page.
 * 4. Each directory page from C on is copied to a freed page below C and
 *	  linked in its place (DirectoryMovePage, one WAL record).
 * 5. The old pages of the groups moved, the old tail page and the stream
 *	  pages nobody's from C on are flagged COLSTORE_PAGE_F_MOVED (one
 *	  generic WAL record each).
 * Then space_truncate.c cuts the end, counting flagged pages as
 * unreferenced.
 *
 * Readers.  A backend that read the directory before a move reads the old
 * pages: they keep their bytes (nothing writes a flagged page, no writer
 * takes one: it is a colstore page, never in the free space map) until
 * truncation removes them, which needs an AccessExclusiveLock, so no reader
 * is left.  A row group's bytes are the same at both places, so a scan
 * reading some groups before and some after sees the same rows.
 *
 * Crashes.  Before an entry's record, the new copy's pages are unreferenced
 * colstore pages (leaked, as a row group write that fails leaks them);
 * after it and before the old pages' flags, the old pages are.  A later
 * VACUUM flags such stream pages when they lie from its cut on (a page no
 * run of the directory holds, read under the writer lock, so that no write
 * is under way, is nobody's: the groups freed since gave theirs to heap);
 * not if some group's run could not be read.  Never a page referenced
 * twice or a referenced page flagged: a page is flagged only after the
 * record that unlinks it.
 *
 * IDENTIFICATION
 *	  src/storage/space_relocate.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/generic_xlog.h"
#include "miscadmin.h"
#include "port/pg_crc32c.h"
#include "storage/bufmgr.h"
#include "storage/freespace.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "storage/deleted_rows.h"
#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/header_cache.h"
#include "storage/metapage.h"
#include "storage/page_reuse.h"
#include "storage/page_stream.h"
#include "storage/promotion_map.h"
#include "storage/rowgroup_reader.h"
#include "storage/space_relocate.h"
#include "storage/space_truncate.h"

/* freed pages below the cut kept beyond what moves, for heap meanwhile */
#define RELOCATE_SPARE_PAGES	8

/* What a page at the end of the file is, for the cut. */
#define END_SKIP		0		/* truncation cuts it as it is */
#define END_DIRECTORY	1		/* a directory page: it moves */
#define END_GROUP		2		/* a stream page of a group that moves */
#define END_TAIL		3		/* the stream's tail page, no group's: the
								 * tail moves off it */
#define END_STOP		4		/* stays: the cut is above it */
#define END_ORPHAN		5		/* a stream page no row group's run holds, not
								 * the tail: left by a write or a move a crash
								 * interrupted; it is flagged */
#define END_STATE		6		/* a committed row group's promotion map root,
								 * DELETED_ROOT, bitmap or delete log root
								 * page: it moves (promotion_map.c,
								 * deleted_rows_move.c) */

/* owner[] of such a page of a group that stays (see EndPageKind) */
#define OWNER_STATE		(-3)

/* One row group's run of stream pages. */
typedef struct GroupRun
{
	int			index;			/* directory index */
	bool		movable;		/* a committed group: may move */
	bool		first_own;		/* its first page holds no earlier bytes */
	BlockNumber lo;				/* its lowest page but the first (see
								 * ReadGroupRun) */
	BlockNumber hi;				/* its highest page */
	int			npages;
	BlockNumber *pages;
} GroupRun;

/*
 * The pages of row group e's run, from its first chunk for its length (chunk
 * images, sources and header are written back to back), into run; false if
 * the run does not read as one (then the group never moves).  run->lo leaves
 * the first page out (unless it is the only one): a group usually begins on
 * the page where the one before it ended, which stays that group's when
 * this one moves; but if nothing came before it there (first_own), it is
 * flagged moved with the rest.
 */
static bool
ReadGroupRun(Relation rel, int index, const RowGroupDirEntry *e, BlockNumber nblocks,
			 BufferAccessStrategy strategy, GroupRun *run)
{
	RowGroupHeader *h = RowGroupReadHeader(rel, index, e);
	StreamPointer start = h->chunks[0].cd_location;
	uint64		remaining = e->rg_header_len;
	BlockNumber blkno = start.sp_block;
	uint32		offset = start.sp_offset;
	int			capacity = 8;
	bool		header_seen = false;
	uint32		c;

	for (c = 0; c < (uint32) h->natts * h->nchunks; c++)
		remaining += ChunkDescLength(&h->chunks[c]);
	if (e->rg_flags & RG_FLAG_MOVED_ROWS)
		remaining += e->rg_sources_len;
	pfree(h);

	run->index = index;
	run->npages = 0;
	run->lo = InvalidBlockNumber;
	run->hi = InvalidBlockNumber;
	run->pages = palloc(sizeof(BlockNumber) * capacity);
	run->first_own = offset == COLSTORE_DATA_START;
	while (remaining > 0)
	{
		Buffer		buf;
		Page		page;
		uint32		lower;

		if (blkno == InvalidBlockNumber || blkno == COLSTORE_METAPAGE_BLKNO ||
			blkno >= nblocks || run->npages >= (int) nblocks)
			return false;
		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (PageIsNew(page) ||
			PageGetSpecialSize(page) != MAXALIGN(sizeof(ColstorePageOpaqueData)) ||
			ColstorePageGetOpaque(page)->cp_page_type != COLSTORE_PAGE_DATA ||
			offset > ((PageHeader) page)->pd_lower)
		{
			UnlockReleaseBuffer(buf);
			return false;
		}
		lower = ((PageHeader) page)->pd_lower;
		remaining -= Min((uint64) (lower - offset), remaining);
		if (run->npages == capacity)
		{
			capacity *= 2;
			run->pages = repalloc(run->pages, sizeof(BlockNumber) * capacity);
		}
		run->pages[run->npages++] = blkno;
		if (blkno == e->rg_header.sp_block)
			header_seen = true;
		if ((run->npages > 1 || remaining == 0) &&
			(run->lo == InvalidBlockNumber || blkno < run->lo))
			run->lo = blkno;
		if (run->hi == InvalidBlockNumber || blkno > run->hi)
			run->hi = blkno;
		blkno = ColstorePageGetOpaque(page)->cp_next;
		offset = COLSTORE_DATA_START;
		UnlockReleaseBuffer(buf);
	}
	return header_seen;
}

/* Sorts runs by directory index. */
static int
CompareIndex(const void *a, const void *b)
{
	int			ia = ((const GroupRun *) a)->index;
	int			ib = ((const GroupRun *) b)->index;

	return ia < ib ? -1 : ia > ib ? 1 : 0;
}

/*
 * Is the row group at directory index next the one right after the one at
 * prev in the stream: no row group entry (freed ones included) between
 * them?  group_reclaim.c judges who else has bytes on a page by the
 * neighbours in the directory, so only such groups may share a page.
 */
static bool
NextInStream(Relation rel, int prev, int next)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	int			i;

	if (prev < 0 || next <= prev)
		return false;
	for (i = prev + 1; i < next; i++)
		if (dir->entries[i].rg_kind == RG_KIND_ROWGROUP)
			return false;
	return true;
}

/* Sorts runs by their highest page, descending. */
static int
CompareHighestPage(const void *a, const void *b)
{
	BlockNumber ha = (*(GroupRun *const *) a)->hi;
	BlockNumber hb = (*(GroupRun *const *) b)->hi;

	return ha > hb ? -1 : ha < hb ? 1 : 0;
}

/*
 * Classify page blkno for the cut (see END_*).  owner[blkno] is -1 for a
 * page no row group's run holds, -2 for one a group that cannot move holds,
 * OWNER_STATE for a committed group's movable row state page, else
 * the index in runs of a group that holds it, all of which can move.
 * orphans_known: every group's run was read, so a stream page none holds
 * (but the tail) is nobody's.
 */
static int
EndPageKind(Relation rel, BlockNumber blkno, BlockNumber tail, const int *owner,
			bool orphans_known, BufferAccessStrategy strategy)
{
	Buffer		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
	Page		page;
	int			kind = END_STOP;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (PageIsUnreferenced(page))
		kind = END_SKIP;
	else if (PageGetSpecialSize(page) == MAXALIGN(sizeof(ColstorePageOpaqueData)))
	{
		uint16		type = ColstorePageGetOpaque(page)->cp_page_type;

		if (type == COLSTORE_PAGE_DIRECTORY)
			kind = END_DIRECTORY;
		else if ((type == COLSTORE_PAGE_DELETED_ROOT ||
				  type == COLSTORE_PAGE_DELETED_BITS ||
				  type == COLSTORE_PAGE_DELETE_LOG_ROOT ||
				  type == COLSTORE_PAGE_STATE_ROOT) &&
				 owner[blkno] == OWNER_STATE)
			kind = END_STATE;
		else if (type == COLSTORE_PAGE_DATA)
		{
			if (owner[blkno] >= 0)
				kind = END_GROUP;
			else if (owner[blkno] == -1 && blkno == tail)
				kind = END_TAIL;
			else if (owner[blkno] == -1 && orphans_known)
				kind = END_ORPHAN;
		}
	}
	UnlockReleaseBuffer(buf);
	return kind;
}

/*
 * Copy row group run->index to pages below cut and point its entry there
 * (step 2 of the file header), continuing at *at (where the group before it
 * in the directory ended, if it moved too; else a new page) and setting *at
 * to where it ends.  identity is the metapage's cm_identity.
 */
static void
MoveGroup(Relation rel, const GroupRun *run, BlockNumber cut, BlockNumber *cursor,
		  uint64 identity, StreamPointer *at)
{
	RowGroupDirEntry e = DirectoryGet(rel)->entries[run->index];
	RowGroupHeader *h = RowGroupReadHeader(rel, run->index, &e);
	char	   *raw = (char *) h->chunk_first_row - sizeof(RowGroupHeaderData);
	RowGroupHeaderData *hdr = (RowGroupHeaderData *) raw;
	StreamWriter sw;
	StreamPointer sources = e.rg_sources;
	StreamPointer header;
	pg_crc32c	crc;
	uint32		c;

	StreamWriterBeginBelow(&sw, rel, *at, cut, cursor);
	for (c = 0; c < (uint32) h->natts * h->nchunks; c++)
	{
		ChunkDesc  *cd = &h->chunks[c];
		uint64		len = ChunkDescLength(cd);
		char	   *bytes = MemoryContextAllocHuge(CurrentMemoryContext, Max(len, 1));

		StreamRead(rel, NULL, cd->cd_location, len, bytes);
		cd->cd_location = StreamWrite(&sw, bytes, len);
		pfree(bytes);
		CHECK_FOR_INTERRUPTS();
	}
	if (e.rg_flags & RG_FLAG_MOVED_ROWS)
	{
		char	   *bytes = MemoryContextAllocHuge(CurrentMemoryContext,
												   Max(e.rg_sources_len, 1));

		StreamRead(rel, NULL, e.rg_sources, e.rg_sources_len, bytes);
		sources = StreamWrite(&sw, bytes, e.rg_sources_len);
		pfree(bytes);
	}
	hdr->rh_crc = 0;
	INIT_CRC32C(crc);
	COMP_CRC32C(crc, raw, e.rg_header_len);
	FIN_CRC32C(crc);
	hdr->rh_crc = crc;
	header = StreamWrite(&sw, raw, e.rg_header_len);
	*at = StreamWriterEnd(&sw);
	pfree(h);

	e.rg_header = header;
	HeaderCacheForget(rel, identity, &e);
	DirectoryMoveGroup(rel, run->index, header, sources);
}

/* Flag page blkno moved (step 5), if it is a colstore page not flagged yet. */
static void
FlagMoved(Relation rel, BlockNumber blkno, BufferAccessStrategy strategy)
{
	Buffer		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
	GenericXLogState *state;
	Page		page;

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	if (PageGetSpecialSize(BufferGetPage(buf)) != MAXALIGN(sizeof(ColstorePageOpaqueData)) ||
		(ColstorePageGetOpaque(BufferGetPage(buf))->cp_flags & COLSTORE_PAGE_F_MOVED))
	{
		UnlockReleaseBuffer(buf);
		return;
	}
	state = GenericXLogStart(rel);
	page = GenericXLogRegisterBuffer(state, buf, 0);
	ColstorePageGetOpaque(page)->cp_flags |= COLSTORE_PAGE_F_MOVED;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
}

/* Clear the metapage's stream tail: the next row group starts a new page. */
static void
ClearStreamTail(Relation rel)
{
	Buffer		metabuf = ColstoreLockMetaForUpdate(rel);
	GenericXLogState *state = GenericXLogStart(rel);
	ColstoreMetaPage meta;

	meta = ColstorePageGetMeta(GenericXLogRegisterBuffer(state, metabuf, 0));
	meta->cm_stream_tail = InvalidBlockNumber;
	meta->cm_stream_offset = 0;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(metabuf);
}

/*
 * SpaceRelocateEnd
 *		Move what holds up the end of rel's file into freed pages lower down
 *		(see the file header), if truncation would then pay.  Returns the
 *		block the file could then be truncated to (its size if nothing
 *		moved); *moved_groups, *moved_dir_pages and *moved_state_pages
 *		(promotion map roots, deleted-rows and delete log root pages)
 *		count what moved.  Called
 *		by VACUUM holding its ShareUpdateExclusiveLock and no writer lock,
 *		before SpaceTruncateEnd.
 */
BlockNumber
SpaceRelocateEnd(Relation rel, BufferAccessStrategy strategy, int *moved_groups,
				 int *moved_dir_pages, int *moved_state_pages)
{
	MemoryContext cxt;
	MemoryContext oldcxt;
	ColstoreDirectory *dir;
	ColstoreMetaPageData meta;
	BlockNumber nblocks;
	BlockNumber low;
	BlockNumber blkno;
	BlockNumber cut;
	BlockNumber cursor;
	StreamPointer at;
	int			prev_moved;
	BlockNumber *free_below;
	int		   *owner;
	int		   *kind;
	GroupRun   *runs;
	GroupRun  **by_hi;
	int		   *del_groups;
	int			ndel_groups = 0;
	int			nruns = 0;
	int			nby_hi = 0;
	bool		orphans_known = true;
	int			k;
	int			i;
	int			npages;
	BlockNumber minlo;
	int64		cost;

	*moved_groups = 0;
	*moved_dir_pages = 0;
	*moved_state_pages = 0;
	nblocks = ColstorePhysicalBlocks(rel);
	if (nblocks <= 1)
		return nblocks;

	/*
	 * A first look without the lock, by page type alone: the lowest block the
	 * cut could reach.  Not worth the rest unless truncation there pays.
	 */
	for (low = nblocks; low > 1; low--)
	{
		Buffer		buf = ReadBufferExtended(rel, MAIN_FORKNUM, low - 1, RBM_NORMAL, strategy);
		Page		page;
		bool		may_go;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		may_go = PageIsUnreferenced(page) ||
			(PageGetSpecialSize(page) == MAXALIGN(sizeof(ColstorePageOpaqueData)) &&
			 (ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_DIRECTORY ||
			  ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_DATA ||
			  ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_DELETED_ROOT ||
			  ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_DELETED_BITS ||
			  ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_DELETE_LOG_ROOT ||
			  ColstorePageGetOpaque(page)->cp_page_type == COLSTORE_PAGE_STATE_ROOT));
		UnlockReleaseBuffer(buf);
		if (!may_go)
			break;
		if ((low & 63) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	if (!SpaceTruncatePays(nblocks, low) || low == nblocks)
		return nblocks;

	cxt = AllocSetContextCreate(CurrentMemoryContext, "colstore relocation",
								ALLOCSET_DEFAULT_SIZES);
	oldcxt = MemoryContextSwitchTo(cxt);
	ColstoreLockWriter(rel);
	nblocks = ColstorePhysicalBlocks(rel);
	ColstoreReadMeta(rel, &meta);
	dir = DirectoryGet(rel);

	/* every row group's run, and which group owns each page from low on */
	owner = palloc(sizeof(int) * nblocks);
	for (blkno = 0; blkno < nblocks; blkno++)
		owner[blkno] = -1;
	runs = palloc0(sizeof(GroupRun) * Max(dir->ngroups, 1));
	del_groups = palloc(sizeof(int) * Max(dir->ngroups, 1));
	for (i = 0; i < dir->ngroups; i++)
	{
		int			index = dir->groups[i];
		RowGroupDirEntry e = DirectoryGet(rel)->entries[index];
		GroupRun   *run = &runs[nruns];
		int			p;

		if (e.rg_kind != RG_KIND_ROWGROUP || (e.rg_flags & RG_FLAG_FREED))
			continue;
		if (!ReadGroupRun(rel, index, &e, nblocks, strategy, run))
		{
			/* unreadable as a run: its pages, whatever they are, stay */
			run->movable = false;
			orphans_known = false;
		}
		else
			run->movable = !(e.rg_flags & RG_FLAG_INVALID);
		for (p = 0; p < run->npages; p++)
			if (run->pages[p] >= low)
				owner[run->pages[p]] = run->movable && owner[run->pages[p]] != -2 ?
					nruns : -2;
		if (run->movable && run->npages == 0)
			run->movable = false;	/* not reached: a group has a header */
		nruns++;

		/*
		 * a committed group's promotion map root (if it is its only one) and
		 * deleted-rows pages from low on can move
		 */
		if (!(e.rg_flags & RG_FLAG_INVALID) && e.rg_state_root != 0)
		{
			BlockNumber *dpages = palloc(sizeof(BlockNumber) * (DeletedRowsMovableMax(&e) + 1));
			int			ndpages = DeletedRowsMovable(rel, &e, dpages);
			bool		any = false;

			if (PromotionMapRootMovable(&e))
				dpages[ndpages++] = e.rg_state_root;
			for (p = 0; p < ndpages; p++)
				if (dpages[p] >= low && dpages[p] < nblocks && owner[dpages[p]] == -1)
				{
					owner[dpages[p]] = OWNER_STATE;
					any = true;
				}
			if (any)
				del_groups[ndel_groups++] = index;
			pfree(dpages);
		}
		dir = DirectoryGet(rel);
	}

	/*
	 * free pages below each block, by the free space map: only those a writer
	 * may take (ColstoreFreedPageListed).  VACUUM records the room of heap
	 * pages it emptied before it retires and frees them; counted, they let
	 * the cut fall lower than the pages below it could take, and the last
	 * groups moved then continued on pages added at the end of the file
	 * (StreamWriterBeginBelow's fallback): partly low and partly at the end,
	 * where no later VACUUM could move them (100,000 single-row upserts
	 * settled at 4.8 MB so, their merged group on blocks 1 to 40 and 569 to
	 * 576).
	 */
	free_below = palloc(sizeof(BlockNumber) * (nblocks + 1));
	free_below[0] = free_below[1] = 0;
	dir = DirectoryGet(rel);
	for (blkno = 1; blkno < nblocks; blkno++)
		free_below[blkno + 1] = free_below[blkno] +
			(ColstoreFreedPageListed(rel, dir, blkno) ? 1 : 0);

	/* the groups with a page from low on, highest page first */
	by_hi = palloc(sizeof(GroupRun *) * Max(nruns, 1));
	for (i = 0; i < nruns; i++)
		if (runs[i].npages > 0 && runs[i].hi >= low)
			by_hi[nby_hi++] = &runs[i];
	qsort(by_hi, nby_hi, sizeof(GroupRun *), CompareHighestPage);

	/*
	 * The look from the end, under the lock: the lowest cut that fits.  At
	 * block b, every group whose highest page is from b on moves (a group
	 * that cannot has its pages classified END_STOP, so the look ends at its
	 * highest page).
	 */
	kind = palloc(sizeof(int) * nblocks);
	cut = nblocks;
	cost = 0;
	minlo = InvalidBlockNumber;
	k = 0;
	for (blkno = nblocks; blkno > low; blkno--)
	{
		BlockNumber b = blkno - 1;

		kind[b] = EndPageKind(rel, b, meta.cm_stream_tail, owner, orphans_known, strategy);
		if (kind[b] == END_STOP)
			break;
		if (kind[b] == END_DIRECTORY || kind[b] == END_STATE)
			cost++;
		for (; k < nby_hi && by_hi[k]->hi >= b; k++)
		{
			Assert(by_hi[k]->movable);
			cost += by_hi[k]->npages + 1;
			if (minlo == InvalidBlockNumber || by_hi[k]->lo < minlo)
				minlo = by_hi[k]->lo;
		}
		/* every group met lies wholly from b on, and what moves fits below b */
		if ((minlo == InvalidBlockNumber || minlo >= b) &&
			(int64) free_below[b] >= cost + RELOCATE_SPARE_PAGES)
			cut = b;
		if ((b & 63) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	elog(DEBUG2, "colstore relocation of \"%s\": %u blocks, low %u, stopped at %u, cut %u, cost %lld",
		 RelationGetRelationName(rel), nblocks, low, blkno, cut, (long long) cost);
	if (cut == nblocks || !SpaceTruncatePays(nblocks, cut))
	{
		ColstoreUnlockWriter(rel);
		MemoryContextSwitchTo(oldcxt);
		MemoryContextDelete(cxt);
		return nblocks;
	}

	/* 1: the free pages from the cut on leave the free space map */
	for (blkno = cut; blkno < nblocks; blkno++)
		if (kind[blkno] == END_SKIP && GetRecordedFreeSpace(rel, blkno) > 0)
			RecordPageWithFreeSpace(rel, blkno, 0);

	/*
	 * 2: the groups with pages from the cut on, in directory order; those
	 * next to each other in the stream are written one after the other, as
	 * they were, the others each from a page of its own
	 */
	qsort(runs, nruns, sizeof(GroupRun), CompareIndex);
	cursor = 1;
	prev_moved = -1;
	at.sp_block = InvalidBlockNumber;
	at.sp_offset = 0;
	for (i = 0; i < nruns; i++)
	{
		GroupRun   *run = &runs[i];
		int			p;
		bool		from_cut = false;

		for (p = 0; p < run->npages; p++)
			from_cut |= run->pages[p] >= cut;
		if (!from_cut)
		{
			run->npages = 0;	/* stays: step 5 leaves its pages */
			continue;
		}
		Assert(run->movable && run->lo >= cut);
		if (!run->movable || run->lo < cut)
			elog(ERROR, "row group %d of colstore table \"%s\" cannot move", run->index,
				 RelationGetRelationName(rel));
		if (!NextInStream(rel, prev_moved, run->index))
			at.sp_block = InvalidBlockNumber;
		MoveGroup(rel, run, cut, &cursor, meta.cm_identity, &at);
		prev_moved = run->index;
		(*moved_groups)++;
	}

	/*
	 * 2b: the row state pages from the cut on: the promotion map root first,
	 * then (found from the entry as it now is) the deleted-rows pages
	 */
	for (i = 0; i < ndel_groups; i++)
	{
		RowGroupDirEntry e;

		if (PromotionMapMoveRoot(rel, del_groups[i], cut, &cursor))
			(*moved_state_pages)++;
		e = DirectoryGet(rel)->entries[del_groups[i]];
		*moved_state_pages += DeletedRowsRelocate(rel, &e, cut, &cursor);
	}

	/* 3: the stream's tail */
	if (meta.cm_stream_tail != InvalidBlockNumber && meta.cm_stream_tail >= cut)
		ClearStreamTail(rel);

	/* 4: the directory pages from the cut on, in chain order */
	npages = DirectoryPageCount(rel);
	for (i = 0; i < npages; i++)
	{
		Buffer		newbuf;

		if (DirectoryPageBlock(rel, i) < cut)
			continue;
		newbuf = ColstoreNewPageBelow(rel, &cursor, cut);
		if (!BufferIsValid(newbuf))
			break;				/* no room left below: it stays, and the cut */
		DirectoryMovePage(rel, i, newbuf);
		(*moved_dir_pages)++;
	}

	/* 5: the old pages, now nobody's */
	for (i = 0; i < nruns; i++)
	{
		GroupRun   *run = &runs[i];
		int			p;

		for (p = 0; p < run->npages; p++)
			if (run->pages[p] >= cut || (p == 0 && run->first_own))
				FlagMoved(rel, run->pages[p], strategy);
	}
	for (blkno = cut; blkno < nblocks; blkno++)
		if (kind[blkno] == END_TAIL || kind[blkno] == END_ORPHAN)
			FlagMoved(rel, blkno, strategy);
	ColstoreUnlockWriter(rel);

	MemoryContextSwitchTo(oldcxt);
	MemoryContextDelete(cxt);
	return cut;
}
