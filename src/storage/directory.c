/*-------------------------------------------------------------------------
 *
 * directory.c
 *	  The row group directory and its backend-local cache.
 *
 * The directory is a chain of directory pages, starting at the metapage's
 * cm_dir_head, each holding DIR_ENTRIES_PER_PAGE fixed-size
 * RowGroupDirEntry slots filled in order.  Entry i lives in slot
 * i % DIR_ENTRIES_PER_PAGE of the (i / DIR_ENTRIES_PER_PAGE)-th page.
 * Entries are appended (row groups and reservations) and changed in place
 * (flags, by VACUUM and by killed speculative insertions; a row group's
 * header, sources and promotion map root, by VACUUM's moving of the file's
 * end, storage/space_relocate.c); never removed.
 *
 * Every append and every change updates the metapage in the same WAL record
 * (cm_dir_count, cm_dir_changes), so a backend can keep a copy of the
 * directory and check it is current by reading only the metapage: after
 * appends it reads just the new entries, after in-place changes it reloads.
 *
 * Writers (appends and changes) hold the writer lock; the metapage is
 * locked before any directory page.
 *
 * IDENTIFICATION
 *	  src/storage/directory.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/generic_xlog.h"
#include "access/transam.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "storage/directory.h"
#include "storage/metapage.h"
#include "storage/page_reuse.h"

typedef struct DirectoryCacheEntry
{
	Oid			relid;			/* hash key */
	ColstoreDirectory *dir;
} DirectoryCacheEntry;

static HTAB *DirectoryCache = NULL;
static MemoryContext DirectoryCacheContext = NULL;

static void
FreeDirectory(ColstoreDirectory *dir)
{
	if (dir != NULL)
		MemoryContextDelete(dir->cxt);
}

/*
 * DirectoryInvalidate
 *		Forget the cached directory of relid (InvalidOid: of every relation).
 *		Called from the relcache invalidation callback.
 */
void
DirectoryInvalidate(Oid relid)
{
	HASH_SEQ_STATUS status;
	DirectoryCacheEntry *entry;

	if (DirectoryCache == NULL)
		return;
	if (OidIsValid(relid))
	{
		entry = hash_search(DirectoryCache, &relid, HASH_FIND, NULL);
		if (entry != NULL)
		{
			FreeDirectory(entry->dir);
			hash_search(DirectoryCache, &relid, HASH_REMOVE, NULL);
		}
		return;
	}
	hash_seq_init(&status, DirectoryCache);
	while ((entry = hash_seq_search(&status)) != NULL)
	{
		FreeDirectory(entry->dir);
		hash_search(DirectoryCache, &entry->relid, HASH_REMOVE, NULL);
	}
}

static ColstoreDirectory *
NewDirectory(Relation rel)
{
	MemoryContext cxt;
	ColstoreDirectory *dir;

	cxt = AllocSetContextCreate(DirectoryCacheContext, "colstore directory",
								ALLOCSET_SMALL_SIZES);
	dir = MemoryContextAllocZero(cxt, sizeof(ColstoreDirectory));
	dir->cxt = cxt;
	dir->relid = RelationGetRelid(rel);
	dir->node = rel->rd_locator;
	dir->capacity = 16;
	dir->entries = MemoryContextAlloc(cxt, sizeof(RowGroupDirEntry) * dir->capacity);
	dir->pages_capacity = 4;
	dir->pages = MemoryContextAlloc(cxt, sizeof(BlockNumber) * dir->pages_capacity);
	dir->pages_sorted = MemoryContextAlloc(cxt, sizeof(BlockNumber) * dir->pages_capacity);
	return dir;
}

/* Raise the error for directory entry index, found corrupted. */
pg_noreturn static void
ReportBadEntry(Relation rel, uint32 index, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg_internal("colstore table \"%s\" has a corrupted directory entry for row group %u",
							 RelationGetRelationName(rel), index),
			 errdetail_internal("%s", detail)));
}

/*
 * Is blkno inside rel's file?  *nblocks is the file's size as last read; a
 * block past it is checked against the size read again, since the file may
 * have grown since: a first promotion adds a promotion map root page and
 * then records it in its row group's directory entry, in place, while a
 * reader holding an older size reads the entry.  The file shrinks only
 * under VACUUM's AccessExclusiveLock (space_truncate.c), never under a
 * reader, so a block below *nblocks needs no second look.
 */
static bool
InsideFile(Relation rel, BlockNumber blkno, BlockNumber *nblocks)
{
	if (blkno < *nblocks)
		return true;
	*nblocks = ColstorePhysicalBlocks(rel);
	return blkno < *nblocks;
}

/*
 * Do e's flags make one of the states an entry can be in?  Retired
 * (EMPTIED) and freed (FREED) entries are invalid ones; row groups and
 * delta pages are retired and freed, and only row groups hold moved rows.
 * The code makes no other combination (AssertEntryState,
 * AssertEntryTransition); CheckEntry refuses them on disk.
 */
static bool
EntryFlagsConsistent(const RowGroupDirEntry *e)
{
	if ((e->rg_flags & (RG_FLAG_EMPTIED | RG_FLAG_FREED)) != 0 &&
		(e->rg_flags & RG_FLAG_INVALID) == 0)
		return false;
	if ((e->rg_flags & RG_FLAG_MOVED_ROWS) != 0 && e->rg_kind != RG_KIND_ROWGROUP)
		return false;
	/* a delta page is retired when VACUUM finds it empty (delta_retire.c) */
	if ((e->rg_flags & RG_FLAG_EMPTIED) != 0 && e->rg_kind == RG_KIND_RESERVATION)
		return false;
	/* a delta page is invalid only once retired or truncated away */
	if (e->rg_kind == RG_KIND_DELTA_PAGE && (e->rg_flags & RG_FLAG_INVALID) != 0 &&
		(e->rg_flags & (RG_FLAG_EMPTIED | RG_FLAG_FREED)) == 0)
		return false;
	/* a delta page is freed when VACUUM truncates its block away */
	if ((e->rg_flags & RG_FLAG_FREED) != 0 && e->rg_kind == RG_KIND_RESERVATION)
		return false;
	return true;
}

#ifdef USE_ASSERT_CHECKING
/*
 * The invariants of an entry the code is about to write (src/README.md,
 * "On-disk format" and "TIDs"): a known kind with known flags in a
 * consistent combination, rows inside the TID space, and a delta page entry
 * names a whole pseudo-block.  An entry read from disk has passed
 * CheckEntry, which checks the same, and the transitions keep them.
 */
static void
AssertEntryState(const RowGroupDirEntry *e)
{
	Assert(e->rg_kind == RG_KIND_ROWGROUP || e->rg_kind == RG_KIND_RESERVATION ||
		   e->rg_kind == RG_KIND_DELTA_PAGE);
	Assert((e->rg_flags & ~(RG_FLAG_FROZEN | RG_FLAG_INVALID | RG_FLAG_MOVED_ROWS |
							RG_FLAG_EMPTIED | RG_FLAG_FREED)) == 0);
	Assert(EntryFlagsConsistent(e));
	Assert(e->rg_first_row + e->rg_nrows <= COLSTORE_MAX_ROW_NUMBER);
	Assert(e->rg_kind != RG_KIND_DELTA_PAGE ||
		   (e->rg_first_row % ROWS_PER_TID_BLOCK == 0 &&
			e->rg_nrows == ROWS_PER_TID_BLOCK));
}

/*
 * A new entry, besides: a delta page is frozen from the start, a row group
 * has rows and chunks, and reservations carry no flags.
 */
static void
AssertNewEntryState(const RowGroupDirEntry *e)
{
	AssertEntryState(e);
	Assert(e->rg_kind != RG_KIND_DELTA_PAGE || e->rg_flags == RG_FLAG_FROZEN);
	Assert(e->rg_kind != RG_KIND_ROWGROUP || (e->rg_nrows > 0 && e->rg_nchunks > 0));
	Assert(e->rg_kind != RG_KIND_RESERVATION || e->rg_flags == 0);
	Assert(e->rg_state_root == 0);
}

/*
 * The state transitions DirectoryUpdateEntry may make (src/README.md,
 * "Vacuum" and "Promotion map"): kind, rows and where the group lives never
 * change; flags are only ever added: FROZEN or INVALID to an entry that has
 * neither (VACUUM's step 1; a frozen entry's xmin becomes FrozenXid),
 * INVALID | EMPTIED to a committed row group or a delta page (retiring: its
 * xmin becomes VACUUM's stamp), FREED to an invalid one (freeing),
 * INVALID | FREED to a delta page (its block truncated away); MOVED_ROWS
 * never; and
 * the promotion map's first root page is set once.
 */
static void
AssertEntryTransition(const RowGroupDirEntry *old, const RowGroupDirEntry *new)
{
	uint16		added = new->rg_flags & ~old->rg_flags;

	AssertEntryState(new);
	Assert(new->rg_kind == old->rg_kind && new->rg_first_row == old->rg_first_row &&
		   new->rg_nrows == old->rg_nrows && new->rg_nchunks == old->rg_nchunks &&
		   new->rg_header.sp_block == old->rg_header.sp_block &&
		   new->rg_header.sp_offset == old->rg_header.sp_offset);
	Assert((old->rg_flags & ~new->rg_flags) == 0);
	Assert((added & RG_FLAG_MOVED_ROWS) == 0);
	Assert((added & (RG_FLAG_FROZEN | RG_FLAG_INVALID)) == 0 ||
		   (added & RG_FLAG_EMPTIED) != 0 ||
		   (old->rg_flags & (RG_FLAG_FROZEN | RG_FLAG_INVALID)) == 0 ||
		   (new->rg_kind == RG_KIND_DELTA_PAGE &&
			added == (RG_FLAG_INVALID | RG_FLAG_FREED)));
	Assert((added & RG_FLAG_EMPTIED) == 0 ||
		   ((added & RG_FLAG_INVALID) != 0 && new->rg_kind != RG_KIND_RESERVATION));
	Assert((added & RG_FLAG_FREED) == 0 || (old->rg_flags & RG_FLAG_INVALID) != 0 ||
		   (new->rg_kind == RG_KIND_DELTA_PAGE &&
			added == (RG_FLAG_INVALID | RG_FLAG_FREED)));
	Assert(new->rg_xmin == old->rg_xmin || (added & RG_FLAG_EMPTIED) != 0 ||
		   ((added & RG_FLAG_FROZEN) != 0 && new->rg_xmin == FrozenTransactionId));
	Assert(old->rg_state_root == 0 || new->rg_state_root == old->rg_state_root);
}

/*
 * The index arrays IndexNewEntries built: every entry in exactly one of the
 * first-row arrays, each ascending, and the delta pages by block ascending.
 */
static void
AssertIndexArrays(const ColstoreDirectory *dir)
{
	int			i;

	Assert(dir->ngroups + dir->nreservations + dir->ndeltas + dir->ndead_deltas ==
		   dir->nindexed);
	for (i = 1; i < dir->ngroups; i++)
		Assert(dir->entries[dir->groups[i - 1]].rg_first_row <=
			   dir->entries[dir->groups[i]].rg_first_row);
	for (i = 1; i < dir->nreservations; i++)
		Assert(dir->entries[dir->reservations[i - 1]].rg_first_row <=
			   dir->entries[dir->reservations[i]].rg_first_row);
	for (i = 1; i < dir->ndeltas; i++)
	{
		Assert(dir->entries[dir->deltas[i - 1]].rg_first_row <=
			   dir->entries[dir->deltas[i]].rg_first_row);
		Assert(dir->entries[dir->deltas_by_block[i - 1]].rg_header.sp_block <=
			   dir->entries[dir->deltas_by_block[i]].rg_header.sp_block);
	}
	for (i = 1; i < dir->ndead_deltas; i++)
		Assert(dir->entries[dir->dead_deltas[i - 1]].rg_first_row <=
			   dir->entries[dir->dead_deltas[i]].rg_first_row);
	for (i = 1; i < dir->nretired_deltas; i++)
		Assert(dir->entries[dir->retired_by_block[i - 1]].rg_header.sp_block <=
			   dir->entries[dir->retired_by_block[i]].rg_header.sp_block);
}
#endif							/* USE_ASSERT_CHECKING */

/*
 * Check directory entry index as far as it can be checked alone: its kind
 * and flags are known ones in a consistent combination, its rows lie below the metapage's next row
 * number, a delta page's rows are a pseudo-block, and the blocks it names
 * lie inside the file (InsideFile: *nblocks, read after the metapage, since
 * an entry is published after the pages it names were added, or read again
 * for a promotion map root recorded later).  Directory
 * entries carry no checksum of their own (data checksums cover them), so a
 * damaged entry that passes these checks goes unnoticed here.
 */
static void
CheckEntry(Relation rel, uint32 index, const RowGroupDirEntry *e,
		   uint64 next_row, BlockNumber *nblocks)
{
	const uint16 known_flags = RG_FLAG_FROZEN | RG_FLAG_INVALID |
		RG_FLAG_MOVED_ROWS | RG_FLAG_EMPTIED | RG_FLAG_FREED;

	if (e->rg_kind != RG_KIND_ROWGROUP && e->rg_kind != RG_KIND_RESERVATION &&
		e->rg_kind != RG_KIND_DELTA_PAGE)
		ReportBadEntry(rel, index, psprintf("Unknown entry kind %u.", e->rg_kind));
	if ((e->rg_flags & ~known_flags) != 0)
		ReportBadEntry(rel, index, psprintf("Unknown flags 0x%04X.", e->rg_flags));
	if (!EntryFlagsConsistent(e))
		ReportBadEntry(rel, index, psprintf("Flags 0x%04X do not fit an entry of kind %u.",
											e->rg_flags, e->rg_kind));
	if (e->rg_first_row > next_row || e->rg_nrows > next_row - e->rg_first_row)
		ReportBadEntry(rel, index,
					   psprintf("Rows %llu to %llu lie beyond the reserved row numbers (%llu).",
								(unsigned long long) e->rg_first_row,
								(unsigned long long) (e->rg_first_row + e->rg_nrows),
								(unsigned long long) next_row));

	/*
	 * an invalid (retired or freed) entry's page is nobody's: VACUUM may have
	 * truncated it
	 */
	if (e->rg_kind == RG_KIND_DELTA_PAGE &&
		(e->rg_first_row % ROWS_PER_TID_BLOCK != 0 || e->rg_nrows != ROWS_PER_TID_BLOCK ||
		 e->rg_header.sp_block == COLSTORE_METAPAGE_BLKNO ||
		 (!(e->rg_flags & RG_FLAG_INVALID) &&
		  !InsideFile(rel, e->rg_header.sp_block, nblocks))))
		ReportBadEntry(rel, index,
					   psprintf("Heap page %u of pseudo-block rows %llu to %llu.",
								e->rg_header.sp_block,
								(unsigned long long) e->rg_first_row,
								(unsigned long long) (e->rg_first_row + e->rg_nrows)));
	if (e->rg_kind == RG_KIND_ROWGROUP && !(e->rg_flags & RG_FLAG_FREED) &&
		(e->rg_header.sp_block == COLSTORE_METAPAGE_BLKNO ||
		 !InsideFile(rel, e->rg_header.sp_block, nblocks) ||
		 !InsideFile(rel, e->rg_state_root, nblocks) ||
		 ((e->rg_flags & RG_FLAG_MOVED_ROWS) &&
		  (e->rg_sources.sp_block == COLSTORE_METAPAGE_BLKNO ||
		   !InsideFile(rel, e->rg_sources.sp_block, nblocks)))))
		ReportBadEntry(rel, index,
					   psprintf("Header at block %u, promotion map at block %u, sources at block %u, of %u blocks.",
								e->rg_header.sp_block, e->rg_state_root,
								e->rg_sources.sp_block, *nblocks));
}

/*
 * The position of blkno in dir's sorted directory pages, or where it would
 * go; *found says whether it is there.
 */
static int
ChainSearch(const ColstoreDirectory *dir, BlockNumber blkno, bool *found)
{
	int			lo = 0,
				hi = dir->npages;

	*found = false;
	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;

		if (dir->pages_sorted[mid] == blkno)
		{
			*found = true;
			return mid;
		}
		if (dir->pages_sorted[mid] < blkno)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Is blkno in dir's directory page chain already?  If not, it is added to
 * pages_sorted (the caller appends it to pages).  Pages taken from the end
 * of the file come in ascending order, so the insertion rarely moves any.
 */
static bool
ChainHasPage(ColstoreDirectory *dir, BlockNumber blkno)
{
	bool		found;
	int			pos = ChainSearch(dir, blkno, &found);

	if (found)
		return true;
	memmove(&dir->pages_sorted[pos + 1], &dir->pages_sorted[pos],
			sizeof(BlockNumber) * (dir->npages - pos));
	dir->pages_sorted[pos] = blkno;
	return false;
}

/* Read entries [dir->count, meta->cm_dir_count) from the page chain. */
static void
ReadNewEntries(Relation rel, ColstoreDirectory *dir,
			   const ColstoreMetaPageData *meta)
{
	uint32		target = meta->cm_dir_count;
	BlockNumber nblocks;

	if (dir->count >= target)
		return;
	nblocks = ColstorePhysicalBlocks(rel);

	while (dir->count < target)
	{
		int			pageno = dir->count / DIR_ENTRIES_PER_PAGE;
		BlockNumber blkno;
		Buffer		buf;
		Page		page;
		int			slot;

		if (pageno < dir->npages)
			blkno = dir->pages[pageno];
		else
		{
			if (dir->npages == 0)
				blkno = meta->cm_dir_head;
			else
			{
				/* follow the chain from the last known page */
				BlockNumber last = dir->pages[dir->npages - 1];

				buf = ReadBuffer(rel, last);
				LockBuffer(buf, BUFFER_LOCK_SHARE);
				ColstoreCheckPage(rel, last, BufferGetPage(buf), COLSTORE_PAGE_DIRECTORY);
				blkno = ColstorePageGetOpaque(BufferGetPage(buf))->cp_next;
				UnlockReleaseBuffer(buf);
			}
			if (blkno == InvalidBlockNumber || blkno == COLSTORE_METAPAGE_BLKNO ||
				!InsideFile(rel, blkno, &nblocks))
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg_internal("colstore table \"%s\": directory chain ends before entry %u of %u",
										 RelationGetRelationName(rel), dir->count, target),
						 errdetail_internal("The next directory page is block %u of %u.",
											blkno, nblocks)));

			/*
			 * A directory page may be a freed page taken again
			 * (page_reuse.c), so the chain need not ascend; but a link to a
			 * page already in it would make a cycle that rereads the same
			 * entries up to cm_dir_count (4 billion) times.
			 */
			if (dir->npages == dir->pages_capacity)
			{
				dir->pages_capacity *= 2;
				dir->pages = repalloc(dir->pages, sizeof(BlockNumber) * dir->pages_capacity);
				dir->pages_sorted = repalloc(dir->pages_sorted,
											 sizeof(BlockNumber) * dir->pages_capacity);
			}
			if (ChainHasPage(dir, blkno))
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg_internal("colstore table \"%s\": directory block %u links back to block %u",
										 RelationGetRelationName(rel),
										 dir->pages[dir->npages - 1], blkno)));

			dir->pages[dir->npages++] = blkno;
		}

		buf = ReadBuffer(rel, blkno);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		ColstoreCheckPage(rel, blkno, page, COLSTORE_PAGE_DIRECTORY);
		for (slot = dir->count % DIR_ENTRIES_PER_PAGE;
			 slot < DIR_ENTRIES_PER_PAGE && dir->count < target; slot++)
		{
			char	   *src = (char *) page + COLSTORE_DATA_START +
				slot * sizeof(RowGroupDirEntry);

			if (src + sizeof(RowGroupDirEntry) > (char *) page + ((PageHeader) page)->pd_lower)
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg_internal("colstore table \"%s\": directory block %u is missing entry %u",
										 RelationGetRelationName(rel), blkno, dir->count)));
			CheckEntry(rel, dir->count, (const RowGroupDirEntry *) src,
					   meta->cm_next_row, &nblocks);
			if (dir->count == dir->capacity)
			{
				dir->capacity *= 2;
				dir->entries = repalloc_huge(dir->entries,
											 sizeof(RowGroupDirEntry) * dir->capacity);
			}
			memcpy(&dir->entries[dir->count++], src, sizeof(RowGroupDirEntry));
		}
		UnlockReleaseBuffer(buf);
	}
}

static ColstoreDirectory *SortTarget;

static int
CompareByFirstRow(const void *a, const void *b)
{
	uint64		ra = SortTarget->entries[*(const int *) a].rg_first_row;
	uint64		rb = SortTarget->entries[*(const int *) b].rg_first_row;

	return (ra > rb) - (ra < rb);
}

static int
CompareByBlock(const void *a, const void *b)
{
	BlockNumber ba = SortTarget->entries[*(const int *) a].rg_header.sp_block;
	BlockNumber bb = SortTarget->entries[*(const int *) b].rg_header.sp_block;

	return (ba > bb) - (ba < bb);
}

/* Append entry index i to an index array; false if that breaks its order. */
static bool
AppendIndex(ColstoreDirectory *dir, int *array, int *n, int i, bool by_block)
{
	bool		ordered = true;

	if (*n > 0)
	{
		const RowGroupDirEntry *last = &dir->entries[array[*n - 1]];
		const RowGroupDirEntry *e = &dir->entries[i];

		ordered = by_block ? last->rg_header.sp_block <= e->rg_header.sp_block
			: last->rg_first_row <= e->rg_first_row;
	}
	array[(*n)++] = i;
	return ordered;
}

/*
 * Add entries [dir->nindexed, dir->count) to the index arrays (row groups,
 * reservations and delta pages by first row; delta pages by heap block;
 * invalid delta pages by first row, and the retired ones not yet freed by
 * heap block).  New entries mostly come in order, so an array is sorted
 * again only when one does not.
 */
static void
IndexNewEntries(ColstoreDirectory *dir, int *groups_from, int *deltas_from)
{
	bool		sort_groups = false;
	bool		sort_reservations = false;
	bool		sort_deltas = false;
	bool		sort_blocks = false;
	bool		sort_dead = false;
	bool		sort_retired = false;
	int			i;

	if (dir->index_capacity < (int) dir->count + 1)
	{
		int			cap = Max(dir->capacity, (int) dir->count) + 1;

		if (dir->groups == NULL)
		{
			dir->groups = MemoryContextAlloc(dir->cxt, sizeof(int) * cap);
			dir->reservations = MemoryContextAlloc(dir->cxt, sizeof(int) * cap);
			dir->deltas = MemoryContextAlloc(dir->cxt, sizeof(int) * cap);
			dir->deltas_by_block = MemoryContextAlloc(dir->cxt, sizeof(int) * cap);
			dir->dead_deltas = MemoryContextAlloc(dir->cxt, sizeof(int) * cap);
			dir->retired_by_block = MemoryContextAlloc(dir->cxt, sizeof(int) * cap);
		}
		else
		{
			dir->groups = repalloc(dir->groups, sizeof(int) * cap);
			dir->reservations = repalloc(dir->reservations, sizeof(int) * cap);
			dir->deltas = repalloc(dir->deltas, sizeof(int) * cap);
			dir->deltas_by_block = repalloc(dir->deltas_by_block, sizeof(int) * cap);
			dir->dead_deltas = repalloc(dir->dead_deltas, sizeof(int) * cap);
			dir->retired_by_block = repalloc(dir->retired_by_block, sizeof(int) * cap);
		}
		dir->index_capacity = cap;
	}
	*groups_from = dir->ngroups;
	*deltas_from = dir->ndeltas;
	for (i = dir->nindexed; i < (int) dir->count; i++)
	{
		switch (dir->entries[i].rg_kind)
		{
			case RG_KIND_ROWGROUP:
				sort_groups |= !AppendIndex(dir, dir->groups, &dir->ngroups, i, false);
				break;
			case RG_KIND_DELTA_PAGE:
				if (dir->entries[i].rg_flags & RG_FLAG_INVALID)
				{
					/*
					 * retired or freed: no rows; a retired one's page stays
					 * out of colstore's hands until it is freed
					 */
					sort_dead |= !AppendIndex(dir, dir->dead_deltas, &dir->ndead_deltas,
											  i, false);
					if (!(dir->entries[i].rg_flags & RG_FLAG_FREED))
						sort_retired |= !AppendIndex(dir, dir->retired_by_block,
													 &dir->nretired_deltas, i, true);
					break;
				}
				{
					int			n = dir->ndeltas;

					sort_deltas |= !AppendIndex(dir, dir->deltas, &n, i, false);
					n = dir->ndeltas;
					sort_blocks |= !AppendIndex(dir, dir->deltas_by_block, &n, i, true);
					dir->ndeltas = n;
				}
				break;
			default:
				sort_reservations |= !AppendIndex(dir, dir->reservations,
												  &dir->nreservations, i, false);
				break;
		}
	}
	SortTarget = dir;
	if (sort_groups)
	{
		qsort(dir->groups, dir->ngroups, sizeof(int), CompareByFirstRow);
		*groups_from = 0;
	}
	if (sort_reservations)
		qsort(dir->reservations, dir->nreservations, sizeof(int), CompareByFirstRow);
	if (sort_deltas)
	{
		qsort(dir->deltas, dir->ndeltas, sizeof(int), CompareByFirstRow);
		*deltas_from = 0;
	}
	if (sort_blocks)
		qsort(dir->deltas_by_block, dir->ndeltas, sizeof(int), CompareByBlock);
	if (sort_dead)
		qsort(dir->dead_deltas, dir->ndead_deltas, sizeof(int), CompareByFirstRow);
	if (sort_retired)
		qsort(dir->retired_by_block, dir->nretired_deltas, sizeof(int), CompareByBlock);
	dir->nindexed = dir->count;
#ifdef USE_ASSERT_CHECKING
	if (sort_groups || sort_reservations || sort_deltas || sort_blocks || sort_dead ||
		sort_retired)
		AssertIndexArrays(dir);
	else
		Assert(dir->ngroups + dir->nreservations + dir->ndeltas + dir->ndead_deltas ==
			   dir->nindexed);
#endif
}

/*
 * Index of the first of two entries of the index array (n entries in
 * first-row order) whose rows overlap, or -1.  Row numbers are handed out
 * once, so no two row groups, nor two delta pages, share one.  Positions
 * before from were checked already (entries appended in order leave them
 * as they were): only pairs from position from - 1 on are compared.
 */
static int
FindOverlap(ColstoreDirectory *dir, const int *index, int n, int from)
{
	int			i;

	for (i = Max(from, 1); i < n; i++)
	{
		const RowGroupDirEntry *prev = &dir->entries[index[i - 1]];

		if (prev->rg_first_row + prev->rg_nrows > dir->entries[index[i]].rg_first_row)
			return index[i - 1];
	}
	return -1;
}

/*
 * This backend's current copy of rel's entries (DirectoryGet), read as
 * needed, whose index arrays may lag: DirectoryUpdateEntry changes only
 * entries, and a series of its calls (VACUUM retiring many delta pages)
 * should not index the whole directory again for each.
 */
static ColstoreDirectory *
DirectoryGetEntries(Relation rel)
{
	Oid			relid = RelationGetRelid(rel);
	DirectoryCacheEntry *entry;
	ColstoreMetaPageData meta;
	bool		found;
	ColstoreDirectory *dir;

	if (DirectoryCache == NULL)
	{
		HASHCTL		ctl;

		DirectoryCacheContext = AllocSetContextCreate(TopMemoryContext,
													  "colstore directory cache",
													  ALLOCSET_DEFAULT_SIZES);
		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(DirectoryCacheEntry);
		ctl.hcxt = DirectoryCacheContext;
		DirectoryCache = hash_create("colstore directory cache", 64, &ctl,
									 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}

	entry = hash_search(DirectoryCache, &relid, HASH_ENTER, &found);
	if (!found)
		entry->dir = NULL;
	dir = entry->dir;

	/* a cached directory of this file means its metapage exists */
	if (dir != NULL && dir->count > 0 && RelFileLocatorEquals(dir->node, rel->rd_locator))
		ColstoreReadExistingMeta(rel, &meta);
	else
		ColstoreReadMeta(rel, &meta);
	if (dir != NULL &&
		(!RelFileLocatorEquals(dir->node, rel->rd_locator) ||
		 dir->changes != meta.cm_dir_changes ||
		 dir->count > meta.cm_dir_count))
	{
		FreeDirectory(dir);
		dir = entry->dir = NULL;
	}
	if (dir == NULL)
	{
		/* Make sure a failed read leaves no half-built entry behind. */
		hash_search(DirectoryCache, &relid, HASH_REMOVE, NULL);
		dir = NewDirectory(rel);
		PG_TRY();
		{
			ReadNewEntries(rel, dir, &meta);
		}
		PG_CATCH();
		{
			FreeDirectory(dir);
			PG_RE_THROW();
		}
		PG_END_TRY();
		entry = hash_search(DirectoryCache, &relid, HASH_ENTER, NULL);
		entry->dir = dir;
	}
	else if (dir->count < meta.cm_dir_count)
		ReadNewEntries(rel, dir, &meta);

	dir->changes = meta.cm_dir_changes;
	dir->next_row = meta.cm_next_row;
	dir->live_rows = meta.cm_live_rows;
	dir->identity = meta.cm_identity;
	return dir;
}

/*
 * DirectoryGet
 *		Return this backend's current copy of rel's directory, reading the
 *		metapage to validate it and the directory pages as needed.  Row
 *		groups are available in first-row order through dir->groups.
 *		The result lives in cache memory and stays valid until the next
 *		DirectoryGet for rel or an invalidation.
 */
ColstoreDirectory *
DirectoryGet(Relation rel)
{
	Oid			relid = RelationGetRelid(rel);
	ColstoreDirectory *dir = DirectoryGetEntries(rel);

	if (dir->reindex)
	{
		/* a delta page moved between arrays: index everything again */
		dir->ngroups = dir->nreservations = dir->ndeltas = 0;
		dir->ndead_deltas = dir->nretired_deltas = 0;
		dir->nindexed = 0;
		dir->reindex = false;
	}
	if (dir->nindexed < (int) dir->count)
	{
		int			bad;
		int			groups_from;
		int			deltas_from;

		IndexNewEntries(dir, &groups_from, &deltas_from);
		bad = FindOverlap(dir, dir->groups, dir->ngroups, groups_from);
		if (bad < 0)
			bad = FindOverlap(dir, dir->deltas, dir->ndeltas, deltas_from);
		if (bad >= 0)
		{
			/* read it again next time, to fail again */
			hash_search(DirectoryCache, &relid, HASH_REMOVE, NULL);
			FreeDirectory(dir);
			ReportBadEntry(rel, bad, "Its rows overlap those of another entry.");
		}
	}
	return dir;
}

/*
 * DirectoryCachedIdentity
 *		The cm_identity of rel's relation file as this backend's copy of
 *		the directory last read it, or 0 if there is no copy of the current
 *		file.  No I/O and no lock: for callers that hold an entry a
 *		DirectoryGet gave them and want the identity it came with (the
 *		shared header cache's key), which a held metapage lock would not
 *		let them read again.
 */
uint64
DirectoryCachedIdentity(Relation rel)
{
	Oid			relid = RelationGetRelid(rel);
	DirectoryCacheEntry *entry;

	if (DirectoryCache == NULL)
		return 0;
	entry = hash_search(DirectoryCache, &relid, HASH_FIND, NULL);
	if (entry == NULL || entry->dir == NULL ||
		!RelFileLocatorEquals(entry->dir->node, rel->rd_locator))
		return 0;
	return entry->dir->identity;
}

static int
FindContaining(ColstoreDirectory *dir, int *index, int n, uint64 rownum)
{
	int			lo = 0,
				hi = n - 1;

	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;
		RowGroupDirEntry *e = &dir->entries[index[mid]];

		if (rownum < e->rg_first_row)
			hi = mid - 1;
		else if (rownum >= e->rg_first_row + e->rg_nrows)
			lo = mid + 1;
		else
			return index[mid];
	}
	return -1;
}

/* Index of the row group holding rownum, or -1. */
int
DirectoryFindRowGroup(ColstoreDirectory *dir, uint64 rownum)
{
	return FindContaining(dir, dir->groups, dir->ngroups, rownum);
}

/* Index of the reservation covering rownum, or -1. */
int
DirectoryFindReservation(ColstoreDirectory *dir, uint64 rownum)
{
	return FindContaining(dir, dir->reservations, dir->nreservations, rownum);
}

/* Index of the delta page whose pseudo-block holds rownum, or -1. */
int
DirectoryFindDeltaPage(ColstoreDirectory *dir, uint64 rownum)
{
	return FindContaining(dir, dir->deltas, dir->ndeltas, rownum);
}

/*
 * The entry index among by_block's n (entry indexes sorted by heap block)
 * whose block is blkno, or -1.
 */
static int
FindByBlock(ColstoreDirectory *dir, const int *by_block, int n, BlockNumber blkno)
{
	int			lo = 0,
				hi = n - 1;

	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;
		BlockNumber b = dir->entries[by_block[mid]].rg_header.sp_block;

		if (blkno < b)
			hi = mid - 1;
		else if (blkno > b)
			lo = mid + 1;
		else
			return by_block[mid];
	}
	return -1;
}

/* Index of the delta page entry of heap block blkno, or -1. */
int
DirectoryFindDeltaBlock(ColstoreDirectory *dir, BlockNumber blkno)
{
	return FindByBlock(dir, dir->deltas_by_block, dir->ndeltas, blkno);
}

/*
 * Is heap block blkno the page of a retired delta page entry not yet freed
 * (delta_retire.c)?  Such a page is left to heap until the freeing.
 */
bool
DirectoryBlockRetired(ColstoreDirectory *dir, BlockNumber blkno)
{
	return FindByBlock(dir, dir->retired_by_block, dir->nretired_deltas, blkno) >= 0;
}

/*
 * DirectoryAppend
 *		Append *entry and install *newmeta's non-directory fields (next row,
 *		live rows, stream tail) into the metapage, in one WAL record.
 *		Caller holds the writer lock.  Returns the new entry's index.
 */
uint32
DirectoryAppend(Relation rel, const RowGroupDirEntry *entry,
				const ColstoreMetaPageData *newmeta)
{
	GenericXLogState *state;
	Buffer		metabuf;
	Buffer		tailbuf = InvalidBuffer;
	Buffer		dirbuf;
	Buffer		newbuf = InvalidBuffer;
	Page		metapage;
	Page		dirpage;
	ColstoreMetaPage meta;
	uint32		index;
	int			slot;

	Assert(ColstoreWriterLockHeld(rel));
#ifdef USE_ASSERT_CHECKING
	AssertNewEntryState(entry);
#endif
	/* an entry's rows are reserved, by it or before it */
	Assert(entry->rg_first_row + entry->rg_nrows <= newmeta->cm_next_row);

	/*
	 * A new directory page is taken before the metapage is locked: taking a
	 * freed page reads the directory (page_reuse.c).  The writer lock keeps
	 * the entry count from changing meanwhile.
	 */
	if (DirectoryGet(rel)->count % DIR_ENTRIES_PER_PAGE == 0)
		newbuf = ColstoreNewPage(rel);
	metabuf = ColstoreLockMetaForUpdate(rel);
	state = GenericXLogStart(rel);
	metapage = GenericXLogRegisterBuffer(state, metabuf, 0);
	meta = ColstorePageGetMeta(metapage);
	/* row numbers are handed out once: the next one never goes back */
	Assert(newmeta->cm_next_row >= meta->cm_next_row);
	index = meta->cm_dir_count;
	slot = index % DIR_ENTRIES_PER_PAGE;

	if ((meta->cm_dir_tail == InvalidBlockNumber || slot == 0) != BufferIsValid(newbuf))
		elog(ERROR, "unexpected directory entry count %u of colstore table \"%s\"",
			 index, RelationGetRelationName(rel));
	if (BufferIsValid(newbuf))
	{
		/* start a new directory page and link it in */
		dirbuf = newbuf;
		dirpage = GenericXLogRegisterBuffer(state, dirbuf, GENERIC_XLOG_FULL_IMAGE);
		ColstoreInitPage(dirpage, COLSTORE_PAGE_DIRECTORY);
		if (meta->cm_dir_tail != InvalidBlockNumber)
		{
			Page		tailpage;

			tailbuf = ReadBuffer(rel, meta->cm_dir_tail);
			LockBuffer(tailbuf, BUFFER_LOCK_EXCLUSIVE);
			tailpage = GenericXLogRegisterBuffer(state, tailbuf, 0);
			ColstoreCheckPage(rel, meta->cm_dir_tail, tailpage, COLSTORE_PAGE_DIRECTORY);
			ColstorePageGetOpaque(tailpage)->cp_next = BufferGetBlockNumber(dirbuf);
		}
		else
			meta->cm_dir_head = BufferGetBlockNumber(dirbuf);
		meta->cm_dir_tail = BufferGetBlockNumber(dirbuf);
	}
	else
	{
		dirbuf = ReadBuffer(rel, meta->cm_dir_tail);
		LockBuffer(dirbuf, BUFFER_LOCK_EXCLUSIVE);
		dirpage = GenericXLogRegisterBuffer(state, dirbuf, 0);
		ColstoreCheckPage(rel, meta->cm_dir_tail, dirpage, COLSTORE_PAGE_DIRECTORY);
	}

	memcpy((char *) dirpage + COLSTORE_DATA_START + slot * sizeof(RowGroupDirEntry),
		   entry, sizeof(RowGroupDirEntry));
	ColstorePageSetLower(dirpage, COLSTORE_DATA_START + (slot + 1) * sizeof(RowGroupDirEntry));

	meta->cm_next_row = newmeta->cm_next_row;
	meta->cm_live_rows = newmeta->cm_live_rows;
	meta->cm_stream_tail = newmeta->cm_stream_tail;
	meta->cm_stream_offset = newmeta->cm_stream_offset;
	meta->cm_dir_count = index + 1;

	GenericXLogFinish(state);
	UnlockReleaseBuffer(dirbuf);
	if (BufferIsValid(tailbuf))
		UnlockReleaseBuffer(tailbuf);
	UnlockReleaseBuffer(metabuf);
	return index;
}

static void WriteEntryMoving(Relation rel, uint32 index, const RowGroupDirEntry *newentry,
							 Buffer oldbuf, Buffer newbuf);

/*
 * WriteEntry
 *		Overwrite entry index with *newentry and count the change in the
 *		metapage, in one WAL record, keeping our copy current.  Caller holds
 *		the writer lock and has checked the change.
 */
static void
WriteEntry(Relation rel, uint32 index, const RowGroupDirEntry *newentry)
{
	WriteEntryMoving(rel, index, newentry, InvalidBuffer, InvalidBuffer);
}

/*
 * WriteEntryMoving
 *		WriteEntry, and if oldbuf is valid, in the same WAL record: a full
 *		image of the exclusively locked page oldbuf put on newbuf (a new
 *		page, exclusively locked), and the old page flagged
 *		COLSTORE_PAGE_F_MOVED (for DirectoryMoveStateRoot).
 */
static void
WriteEntryMoving(Relation rel, uint32 index, const RowGroupDirEntry *newentry,
				 Buffer oldbuf, Buffer newbuf)
{
	ColstoreDirectory *dir = DirectoryGetEntries(rel);
	GenericXLogState *state;
	Buffer		metabuf;
	Buffer		dirbuf;
	Page		metapage;
	Page		dirpage;
	BlockNumber blkno;
	int			pageno = index / DIR_ENTRIES_PER_PAGE;

	Assert(ColstoreWriterLockHeld(rel));
	if (index >= dir->count || pageno >= dir->npages)
		elog(ERROR, "could not find directory entry %u of colstore table \"%s\"",
			 index, RelationGetRelationName(rel));
	blkno = dir->pages[pageno];

	metabuf = ColstoreLockMetaForUpdate(rel);
	dirbuf = ReadBuffer(rel, blkno);
	LockBuffer(dirbuf, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(rel);
	metapage = GenericXLogRegisterBuffer(state, metabuf, 0);
	dirpage = GenericXLogRegisterBuffer(state, dirbuf, 0);
	ColstoreCheckPage(rel, blkno, dirpage, COLSTORE_PAGE_DIRECTORY);
	memcpy((char *) dirpage + COLSTORE_DATA_START +
		   (index % DIR_ENTRIES_PER_PAGE) * sizeof(RowGroupDirEntry),
		   newentry, sizeof(RowGroupDirEntry));
	ColstorePageGetMeta(metapage)->cm_dir_changes++;
	if (BufferIsValid(oldbuf))
	{
		Page		oldpage = GenericXLogRegisterBuffer(state, oldbuf, 0);
		Page		newpage = GenericXLogRegisterBuffer(state, newbuf,
														GENERIC_XLOG_FULL_IMAGE);

		memcpy(newpage, oldpage, BLCKSZ);
		ColstorePageGetOpaque(oldpage)->cp_flags |= COLSTORE_PAGE_F_MOVED;
	}
	GenericXLogFinish(state);

	/* keep our copy current, so a series of updates does not reload it */
	if (dir->changes + 1 == ColstorePageGetMeta(BufferGetPage(metabuf))->cm_dir_changes)
	{
		/*
		 * a delta page's flags decide its index array; an entry's kind and
		 * rows decide its array and place (and FindOverlap checks only what
		 * was appended since)
		 */
		if ((newentry->rg_kind == RG_KIND_DELTA_PAGE &&
			 newentry->rg_flags != dir->entries[index].rg_flags) ||
			newentry->rg_kind != dir->entries[index].rg_kind ||
			newentry->rg_first_row != dir->entries[index].rg_first_row ||
			newentry->rg_nrows != dir->entries[index].rg_nrows)
			dir->reindex = true;
		dir->entries[index] = *newentry;
		dir->changes++;
	}
	UnlockReleaseBuffer(dirbuf);
	UnlockReleaseBuffer(metabuf);
}

/*
 * DirectoryUpdateEntry
 *		Overwrite entry index with *newentry (same kind, rows and place;
 *		flags, xmin may differ) and count the change in the metapage, in one
 *		WAL record.  Caller holds the writer lock.
 */
void
DirectoryUpdateEntry(Relation rel, uint32 index, const RowGroupDirEntry *newentry)
{
#ifdef USE_ASSERT_CHECKING
	ColstoreDirectory *dir = DirectoryGetEntries(rel);

	/* under the writer lock our copy is current: it is the old state */
	if (index < dir->count)
		AssertEntryTransition(&dir->entries[index], newentry);
#endif
	WriteEntry(rel, index, newentry);
}

/*
 * DirectoryMoveGroup
 *		Point row group entry index at its header and moved-row sources
 *		written at a new place (storage/space_relocate.c: the same bytes,
 *		but the chunk locations inside the header), and count the change in
 *		the metapage, in one WAL record, so every backend reloads its copy.
 *		Only the places change: rows, flags, xmin and promotion map stay.
 *		Caller holds the writer lock.
 */
void
DirectoryMoveGroup(Relation rel, uint32 index, StreamPointer header, StreamPointer sources)
{
	ColstoreDirectory *dir = DirectoryGetEntries(rel);
	RowGroupDirEntry moved;

	Assert(ColstoreWriterLockHeld(rel));
	if (index >= dir->count || dir->entries[index].rg_kind != RG_KIND_ROWGROUP)
		elog(ERROR, "could not find row group entry %u of colstore table \"%s\"",
			 index, RelationGetRelationName(rel));
	/* under the writer lock our copy is current */
	moved = dir->entries[index];
	moved.rg_header = header;
	if (moved.rg_flags & RG_FLAG_MOVED_ROWS)
		moved.rg_sources = sources;
	WriteEntry(rel, index, &moved);
}

/*
 * DirectoryMoveStateRoot
 *		Put a copy of row group entry index's promotion map root page (the
 *		exclusively locked oldbuf, the group's only root page) on newbuf (a
 *		new page, exclusively locked), point the entry's rg_state_root at it,
 *		flag the old page COLSTORE_PAGE_F_MOVED and count the change in the
 *		metapage, in one WAL record (storage/promotion_map.c,
 *		PromotionMapMoveRoot, says why that is safe).  Caller holds the
 *		writer lock and releases both buffers.
 */
void
DirectoryMoveStateRoot(Relation rel, uint32 index, Buffer oldbuf, Buffer newbuf)
{
	ColstoreDirectory *dir = DirectoryGetEntries(rel);
	RowGroupDirEntry moved;

	Assert(ColstoreWriterLockHeld(rel));
	if (index >= dir->count || dir->entries[index].rg_kind != RG_KIND_ROWGROUP ||
		dir->entries[index].rg_state_root != BufferGetBlockNumber(oldbuf))
		elog(ERROR, "could not find the promotion map root of row group entry %u of colstore table \"%s\"",
			 index, RelationGetRelationName(rel));
	/* under the writer lock our copy is current */
	moved = dir->entries[index];
	moved.rg_state_root = BufferGetBlockNumber(newbuf);
	WriteEntryMoving(rel, index, &moved, oldbuf, newbuf);
}

/* DirectoryPageCount: the number of pages in rel's directory chain. */
int
DirectoryPageCount(Relation rel)
{
	return DirectoryGetEntries(rel)->npages;
}

/* DirectoryPageBlock: the block of the pageno-th page of the chain. */
BlockNumber
DirectoryPageBlock(Relation rel, int pageno)
{
	ColstoreDirectory *dir = DirectoryGetEntries(rel);

	Assert(pageno >= 0 && pageno < dir->npages);
	return dir->pages[pageno];
}

/*
 * DirectoryMovePage
 *		Put a copy of the pageno-th directory page on newbuf (a new page,
 *		exclusively locked, as ColstoreNewPage returns it), link the copy in
 *		its place (from the page before it, or as the metapage's head; as
 *		the tail if it was), flag the old page COLSTORE_PAGE_F_MOVED and
 *		count an in-place change, in one WAL record: every backend reloads
 *		its copy of the directory, and one that follows the old link before
 *		that reads the old page, whose entries stay as they were (it is
 *		never written again; truncation removes it, under an
 *		AccessExclusiveLock).  Caller holds the writer lock; newbuf is
 *		released.
 */
void
DirectoryMovePage(Relation rel, int pageno, Buffer newbuf)
{
	ColstoreDirectory *dir = DirectoryGetEntries(rel);
	GenericXLogState *state;
	Buffer		metabuf;
	Buffer		prevbuf = InvalidBuffer;
	Buffer		oldbuf;
	Page		metapage;
	Page		newpage;
	Page		oldpage;
	ColstoreMetaPage meta;
	BlockNumber oldblk;
	BlockNumber newblk = BufferGetBlockNumber(newbuf);

	Assert(ColstoreWriterLockHeld(rel));
	if (pageno < 0 || pageno >= dir->npages)
		elog(ERROR, "could not find directory page %d of colstore table \"%s\"",
			 pageno, RelationGetRelationName(rel));
	oldblk = dir->pages[pageno];
	metabuf = ColstoreLockMetaForUpdate(rel);
	if (pageno > 0)
	{
		prevbuf = ReadBuffer(rel, dir->pages[pageno - 1]);
		LockBuffer(prevbuf, BUFFER_LOCK_EXCLUSIVE);
	}
	oldbuf = ReadBuffer(rel, oldblk);
	LockBuffer(oldbuf, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(rel);
	metapage = GenericXLogRegisterBuffer(state, metabuf, 0);
	meta = ColstorePageGetMeta(metapage);
	oldpage = GenericXLogRegisterBuffer(state, oldbuf, 0);
	ColstoreCheckPage(rel, oldblk, oldpage, COLSTORE_PAGE_DIRECTORY);
	newpage = GenericXLogRegisterBuffer(state, newbuf, GENERIC_XLOG_FULL_IMAGE);
	memcpy(newpage, oldpage, BLCKSZ);
	ColstorePageGetOpaque(oldpage)->cp_flags |= COLSTORE_PAGE_F_MOVED;
	if (BufferIsValid(prevbuf))
	{
		Page		prevpage = GenericXLogRegisterBuffer(state, prevbuf, 0);

		ColstoreCheckPage(rel, dir->pages[pageno - 1], prevpage, COLSTORE_PAGE_DIRECTORY);
		ColstorePageGetOpaque(prevpage)->cp_next = newblk;
	}
	else
		meta->cm_dir_head = newblk;
	if (meta->cm_dir_tail == oldblk)
		meta->cm_dir_tail = newblk;
	meta->cm_dir_changes++;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(oldbuf);
	if (BufferIsValid(prevbuf))
		UnlockReleaseBuffer(prevbuf);
	UnlockReleaseBuffer(newbuf);
	UnlockReleaseBuffer(metabuf);
}

/* Is blkno a page of the directory chain of dir? */
static bool
ChainContains(const ColstoreDirectory *dir, BlockNumber blkno)
{
	bool		found;

	(void) ChainSearch(dir, blkno, &found);
	return found;
}

/*
 * DirectoryPageInChain
 *		Is blkno a page of rel's directory chain as the metapage now links
 *		it?  A directory page outside it is nobody's: a crash interrupted
 *		DirectoryDropFreedDeltas before its switch (the new pages) or after
 *		it (the old ones).  A page is made a directory page and linked in
 *		one record otherwise, so a caller that read the page as a directory
 *		page before calling this finds it linked unless it is nobody's.
 */
bool
DirectoryPageInChain(Relation rel, BlockNumber blkno)
{
	return ChainContains(DirectoryGetEntries(rel), blkno);
}

/* The entries DirectoryDropFreedDeltas keeps, of the n in entries. */
static uint32
KeptEntries(const RowGroupDirEntry *entries, uint32 n, RowGroupDirEntry *kept)
{
	uint32		nkept = 0;
	uint32		i;

	for (i = 0; i < n; i++)
	{
		const RowGroupDirEntry *e = &entries[i];

		if (e->rg_kind == RG_KIND_DELTA_PAGE && (e->rg_flags & RG_FLAG_FREED) != 0)
			continue;
		if (kept != NULL)
			kept[nkept] = *e;
		nkept++;
	}
	return nkept;
}

/*
 * DirectoryRewriteGain
 *		How many directory pages DirectoryDropFreedDeltas would give back
 *		now (this backend's copy of the directory, read without a lock).
 */
int
DirectoryRewriteGain(Relation rel)
{
	ColstoreDirectory *dir = DirectoryGetEntries(rel);
	uint32		nkept = KeptEntries(dir->entries, dir->count, NULL);

	if (nkept == 0)
		return 0;
	return dir->npages - (int) ((nkept + DIR_ENTRIES_PER_PAGE - 1) / DIR_ENTRIES_PER_PAGE);
}

/*
 * DirectoryDropFreedDeltas
 *		Rewrite rel's directory without the entries of freed heap pages
 *		(DELTA_PAGE, INVALID | FREED: space_truncate.c, delta_retire.c),
 *		if that gives back at least one directory page, on new pages taken
 *		below block limit (ColstoreNewPageBelow, lowest first); the old
 *		chain's pages become empty heap pages in the free space map.
 *		Returns the number of directory pages given back (0: nothing done,
 *		also when too few freed pages lie below limit).
 *
 *		Caller holds an AccessExclusiveLock on rel (VACUUM,
 *		space_truncate.c's SpaceRewriteDirectory: no other backend reads the directory or holds an index into it; on a
 *		standby the lock's replay has cancelled the queries that did) and
 *		the writer lock.  Entry indexes change: every backend's copy of the
 *		directory reloads, as the metapage's entry count went down and its
 *		change count up (DirectoryGetEntries).  Nothing names a freed heap
 *		page's entry by index, nor reads its rows (its pseudo-block holds
 *		none, and the index arrays leave it out already), and row groups,
 *		reservations and live heap pages keep their order, so stream order
 *		stays directory order among row groups.
 *
 *		WAL: each new page is written whole in its own record and is
 *		unreferenced until one record on the metapage switches the chain
 *		(head, tail, entry count, change count); then each old page becomes
 *		a heap page in its own record.  A crash leaves directory pages
 *		outside the chain, new or old, which DirectoryPageInChain tells and
 *		truncation cuts when they end the file (elsewhere they are leaked).
 */
int
DirectoryDropFreedDeltas(Relation rel, BlockNumber limit)
{
	ColstoreDirectory *dir = DirectoryGetEntries(rel);
	RowGroupDirEntry *kept;
	BlockNumber *oldblks;
	Buffer	   *bufs;
	BlockNumber cursor = 1;
	uint32		nkept;
	int			oldpages = dir->npages;
	int			newpages;
	int			p;
	Buffer		metabuf;
	GenericXLogState *state;
	ColstoreMetaPage meta;

	Assert(ColstoreWriterLockHeld(rel));
	Assert(CheckRelationLockedByMe(rel, AccessExclusiveLock, false));
	kept = palloc(sizeof(RowGroupDirEntry) * Max(dir->count, 1));
	nkept = KeptEntries(dir->entries, dir->count, kept);
	newpages = (int) ((nkept + DIR_ENTRIES_PER_PAGE - 1) / DIR_ENTRIES_PER_PAGE);
	/* an empty directory is left alone: a table of freed heap pages only */
	if (nkept == 0 || newpages >= oldpages)
	{
		pfree(kept);
		return 0;
	}
	oldblks = palloc(sizeof(BlockNumber) * oldpages);
	memcpy(oldblks, dir->pages, sizeof(BlockNumber) * oldpages);

	/* the new pages first: all of them, or none is used */
	bufs = palloc(sizeof(Buffer) * newpages);
	for (p = 0; p < newpages; p++)
	{
		bufs[p] = ColstoreNewPageBelow(rel, &cursor, limit);
		if (!BufferIsValid(bufs[p]))
		{
			while (--p >= 0)
				PageGiveToHeap(rel, bufs[p]);
			pfree(bufs);
			pfree(oldblks);
			pfree(kept);
			return 0;
		}
	}
	for (p = 0; p < newpages; p++)
	{
		uint32		first = (uint32) p * DIR_ENTRIES_PER_PAGE;
		uint32		n = Min(nkept - first, (uint32) DIR_ENTRIES_PER_PAGE);
		Page		page;

		state = GenericXLogStart(rel);
		page = GenericXLogRegisterBuffer(state, bufs[p], GENERIC_XLOG_FULL_IMAGE);
		ColstoreInitPage(page, COLSTORE_PAGE_DIRECTORY);
		memcpy((char *) page + COLSTORE_DATA_START, &kept[first],
			   n * sizeof(RowGroupDirEntry));
		ColstorePageSetLower(page, COLSTORE_DATA_START + n * sizeof(RowGroupDirEntry));
		if (p + 1 < newpages)
			ColstorePageGetOpaque(page)->cp_next = BufferGetBlockNumber(bufs[p + 1]);
		GenericXLogFinish(state);
	}

	/* the switch */
	metabuf = ColstoreLockMetaForUpdate(rel);
	state = GenericXLogStart(rel);
	meta = ColstorePageGetMeta(GenericXLogRegisterBuffer(state, metabuf, 0));
	Assert(meta->cm_dir_count == dir->count);
	meta->cm_dir_head = BufferGetBlockNumber(bufs[0]);
	meta->cm_dir_tail = BufferGetBlockNumber(bufs[newpages - 1]);
	meta->cm_dir_count = nkept;
	meta->cm_dir_changes++;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(metabuf);
	for (p = 0; p < newpages; p++)
		UnlockReleaseBuffer(bufs[p]);
	/* our copy too (dir is gone from here on) */
	DirectoryInvalidate(RelationGetRelid(rel));

	/* the old chain's pages, now nobody's */
	for (p = 0; p < oldpages; p++)
	{
		Buffer		buf = ReadBuffer(rel, oldblks[p]);

		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		ColstoreCheckPage(rel, oldblks[p], BufferGetPage(buf), COLSTORE_PAGE_DIRECTORY);
		PageGiveToHeap(rel, buf);
	}
	pfree(bufs);
	pfree(oldblks);
	pfree(kept);
	return oldpages - newpages;
}
