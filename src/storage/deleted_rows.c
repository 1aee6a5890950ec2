/*-------------------------------------------------------------------------
 *
 * deleted_rows.c
 *	  Per row group bitmap of the rows deleted for everyone.
 *
 * A row-group row that is deleted keeps its delete state in its promoted
 * heap copy (mvcc/row_state.c).  Once VACUUM has pruned that copy (its item
 * is LP_DEAD: the delete is seen by every snapshot) and removed the row's
 * index entries, the copy has nothing left to say but "deleted for
 * everyone".  VACUUM then sets the row's bit here, and from then on the bit
 * says it: a set bit means the row is deleted for everyone, and the row's
 * promotion map slot must not be followed (readers check the bit first,
 * storage/promotion_map.c; a slot stays valid only until VACUUM frees the
 * copy's item, see "Deletes without a copy" in src/README.md).  Scans then
 * learn a row is gone without visiting its copy's page.
 *
 * The bitmap is found from the group's promotion map: the cp_next of its
 * last root page (never used otherwise; InvalidBlockNumber in every map
 * written before, so old tables and groups without a bitmap read as "no row
 * bitmapped") names a DELETED_ROOT page, which lists the group's bitmap
 * pages (0: no bit set in that range yet).  A bitmap page holds
 * ROWS_PER_BITS_PAGE bits after a small header: db_stamp, the next
 * transaction id when its bits were last set, and db_pending, how many of
 * its set bits still have a slot that names a copy item, which VACUUM frees
 * once no snapshot from before the stamp is left.
 *
 * This file reads the bitmap (and says where its pages are); VACUUM's
 * writes and its freeing are in storage/deleted_rows_vacuum.c, the page
 * layout in storage/deleted_rows_page.h.
 *
 * Only VACUUM writes these pages (one VACUUM runs on a table at a time):
 * pages are made under the writer lock, bits set under the bitmap page's
 * exclusive lock, each change one generic WAL record.  Bits are never
 * cleared while the group lives; the pages go with the group when it is
 * freed (storage/group_reclaim.c, through PromotionMapPages).
 *
 * IDENTIFICATION
 *	  src/storage/deleted_rows.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "port/pg_bitutils.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "storage/delete_log.h"
#include "storage/deleted_rows.h"
#include "storage/deleted_rows_page.h"
#include "storage/directory.h"
#include "storage/metapage.h"
#include "storage/promotion_map.h"

/* Raise the error for a deleted-rows page that does not fit its group. */
void
DeletedRowsReportBad(Relation rel, const RowGroupDirEntry *group, BlockNumber blkno)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg_internal("colstore table \"%s\": deleted-rows bitmap of the row group at row %llu is corrupted",
							 RelationGetRelationName(rel),
							 (unsigned long long) group->rg_first_row),
			 errdetail_internal("Block %u does not fit the row group.", blkno)));
}

/*
 * The group's DELETED_ROOT page, or InvalidBlockNumber if it has none; with
 * *last_root (may be NULL) set to its promotion map's last root page.
 */
BlockNumber
DeletedRootFind(Relation rel, const RowGroupDirEntry *group, BlockNumber *last_root)
{
	BlockNumber last;
	BlockNumber next;
	Buffer		buf;

	if (last_root != NULL)
		*last_root = InvalidBlockNumber;
	if (group->rg_state_root == 0)
		return InvalidBlockNumber;
	last = PromotionMapLastRoot(rel, group);
	if (last_root != NULL)
		*last_root = last;
	buf = ColstoreReadCached(rel, last);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	ColstoreCheckPage(rel, last, BufferGetPage(buf), COLSTORE_PAGE_STATE_ROOT);
	next = ColstorePageGetOpaque(BufferGetPage(buf))->cp_next;
	UnlockReleaseBuffer(buf);
	if (next != InvalidBlockNumber && !ColstoreBlockIsValid(rel, next))
		DeletedRowsReportBad(rel, group, next);
	return next;
}

/*
 * Check the locked DELETED_ROOT page of group and return its contents.
 */
DeletedRootData *
DeletedRootCheck(Relation rel, const RowGroupDirEntry *group, Buffer buf)
{
	Page		page = BufferGetPage(buf);
	DeletedRootData *root;

	ColstoreCheckPage(rel, BufferGetBlockNumber(buf), page, COLSTORE_PAGE_DELETED_ROOT);
	root = RootData(page);
	if (root->dr_nbitmaps != BitmapPagesFor(group->rg_nrows) ||
		root->dr_nretired > RetiredCapacity(root))
		DeletedRowsReportBad(rel, group, BufferGetBlockNumber(buf));
	return root;
}

/* Bitmap page i of the group's DELETED_ROOT page root (0: none yet). */
BlockNumber
DeletedBitmapPage(Relation rel, const RowGroupDirEntry *group, BlockNumber root, uint32 i)
{
	Buffer		buf = ColstoreReadCached(rel, root);
	BlockNumber blkno;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	blkno = DeletedRootCheck(rel, group, buf)->dr_bitmaps[i];
	UnlockReleaseBuffer(buf);
	if (blkno != 0 && !ColstoreBlockIsValid(rel, blkno))
		DeletedRowsReportBad(rel, group, blkno);
	return blkno;
}

/* Bitmap page blkno, share-locked and checked to be one. */
static Buffer
ReadBitsPage(Relation rel, BlockNumber blkno)
{
	Buffer		buf = ReadBuffer(rel, blkno);

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	ColstoreCheckPage(rel, blkno, BufferGetPage(buf), COLSTORE_PAGE_DELETED_BITS);
	return buf;
}

/*
 * DeletedRowsRead
 *		deleted[i] = whether row first + i (0-based in group) is deleted for
 *		everyone, for i < n.  Returns whether any is.
 */
bool
DeletedRowsRead(Relation rel, const RowGroupDirEntry *group, uint32 first,
				uint32 n, bool *deleted)
{
	BlockNumber root;
	uint32		row = first;
	bool		any = false;

	Assert(first + n <= group->rg_nrows);
	memset(deleted, 0, sizeof(bool) * n);
	root = DeletedRootFind(rel, group, NULL);
	if (root == InvalidBlockNumber || n == 0)
		return false;
	while (row < first + n)
	{
		uint32		pageno = row / ROWS_PER_BITS_PAGE;
		uint32		end = Min(first + n, (pageno + 1) * ROWS_PER_BITS_PAGE);
		BlockNumber blkno = DeletedBitmapPage(rel, group, root, pageno);

		if (blkno != 0)
		{
			Buffer		buf = ColstoreReadCached(rel, blkno);
			const uint8 *bits;

			LockBuffer(buf, BUFFER_LOCK_SHARE);
			ColstoreCheckPage(rel, blkno, BufferGetPage(buf), COLSTORE_PAGE_DELETED_BITS);
			bits = BitsData(BufferGetPage(buf))->db_bits;
			for (; row < end; row++)
			{
				uint32		bit = row % ROWS_PER_BITS_PAGE;

				if (bits[bit / 8] & (1 << (bit % 8)))
					any = deleted[row - first] = true;
			}
			UnlockReleaseBuffer(buf);
		}
		row = end;
	}
	return any;
}

/*
 * DeletedRowsCount
 *		How many rows of group are deleted for everyone; *pending (may be
 *		NULL) gets how many of those still have their copy's item.
 */
uint32
DeletedRowsCount(Relation rel, const RowGroupDirEntry *group, uint32 *pending)
{
	BlockNumber root = DeletedRootFind(rel, group, NULL);
	uint32		nbitmaps = BitmapPagesFor(group->rg_nrows);
	uint32		count = 0;
	uint32		i;

	if (pending != NULL)
		*pending = 0;
	if (root == InvalidBlockNumber)
		return 0;
	for (i = 0; i < nbitmaps; i++)
	{
		BlockNumber blkno = DeletedBitmapPage(rel, group, root, i);
		Buffer		buf;

		if (blkno == 0)
			continue;
		buf = ReadBitsPage(rel, blkno);
		count += (uint32) pg_popcount((const char *) BitsData(BufferGetPage(buf))->db_bits,
									  ROWS_PER_BITS_PAGE / 8);
		if (pending != NULL)
			*pending += BitsData(BufferGetPage(buf))->db_pending;
		UnlockReleaseBuffer(buf);
	}
	return count;
}

/*
 * DeletedRowsPages
 *		Set *blocks (palloc'd) to the pages of group's bitmap (its
 *		DELETED_ROOT page and bitmap pages), the promotion map leaves it
 *		lists as detached but not yet freed, and the pages of the group's
 *		delete log (storage/delete_log.c), each checked to be of its kind,
 *		and return how many there are.
 */
int
DeletedRowsPages(Relation rel, const RowGroupDirEntry *group, BlockNumber **blocks)
{
	BlockNumber root = DeletedRootFind(rel, group, NULL);
	uint32		nbitmaps = BitmapPagesFor(group->rg_nrows);
	int			n = 0;
	uint32		i;
	Buffer		rootbuf;
	DeletedRootData *data;

	*blocks = palloc(sizeof(BlockNumber) * (nbitmaps + 1));
	if (root == InvalidBlockNumber)
		return 0;
	(*blocks)[n++] = root;
	rootbuf = ReadBuffer(rel, root);
	LockBuffer(rootbuf, BUFFER_LOCK_SHARE);
	data = DeletedRootCheck(rel, group, rootbuf);
	*blocks = repalloc(*blocks, sizeof(BlockNumber) * (nbitmaps + 1 + data->dr_nretired));
	for (i = 0; i < data->dr_nretired; i++)
	{
		BlockNumber leaf = RetiredLeaves(data)[i].rl_leaf;

		if (!ColstoreBlockIsValid(rel, leaf))
			DeletedRowsReportBad(rel, group, leaf);
		(*blocks)[n++] = leaf;
	}
	UnlockReleaseBuffer(rootbuf);
	for (i = 0; i < nbitmaps; i++)
	{
		BlockNumber blkno = DeletedBitmapPage(rel, group, root, i);
		Buffer		buf;

		if (blkno == 0)
			continue;
		buf = ReadBitsPage(rel, blkno);
		UnlockReleaseBuffer(buf);
		(*blocks)[n++] = blkno;
	}
	{
		BlockNumber *log;
		int			nlog = DeleteLogPages(rel, group, root, &log);

		if (nlog > 0)
		{
			*blocks = repalloc(*blocks, sizeof(BlockNumber) * (n + nlog));
			memcpy(*blocks + n, log, sizeof(BlockNumber) * nlog);
			n += nlog;
		}
		pfree(log);
	}
	return n;
}
