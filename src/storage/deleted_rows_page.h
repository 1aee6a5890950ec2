/*-------------------------------------------------------------------------
 *
 * deleted_rows_page.h
 *	  Page layout of the deleted-rows bitmap (storage/deleted_rows.c), shared
 *	  by its readers and by VACUUM's writes and freeing
 *	  (storage/deleted_rows_vacuum.c).  Not for other files.
 *
 * IDENTIFICATION
 *	  src/storage/deleted_rows_page.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELETED_ROWS_PAGE_H
#define DELETED_ROWS_PAGE_H

#include "pg_compat.h"
#include "storage/buf.h"
#include "storage/metapage.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"

/* Contents of a DELETED_ROOT page. */
typedef struct DeletedRootData
{
	uint32		dr_nbitmaps;	/* bitmap pages the group has room for */
	uint32		dr_nretired;	/* detached promotion map leaves and delete
								 * log segment pages not yet freed
								 * (storage/deleted_rows_vacuum.c) */
	BlockNumber dr_bitmaps[FLEXIBLE_ARRAY_MEMBER];	/* 0: none yet */
} DeletedRootData;

/* Contents of a DELETED_BITS page. */
typedef struct DeletedBitsData
{
	TransactionId db_stamp;		/* next xid when bits were last set */
	uint32		db_pending;		/* set bits whose slot still names an item */
	uint8		db_bits[FLEXIBLE_ARRAY_MEMBER];
} DeletedBitsData;

/* A promotion map leaf or delete log page VACUUM detached, waiting to be freed. */
typedef struct RetiredLeaf
{
	BlockNumber rl_leaf;
	TransactionId rl_stamp;		/* next xid when it was detached */
} RetiredLeaf;

/* The retired leaves (and log pages) follow the bitmap page pointers. */
#define RetiredLeaves(root) \
	((RetiredLeaf *) &(root)->dr_bitmaps[(root)->dr_nbitmaps])
#define RetiredCapacity(root) \
	((uint32) ((COLSTORE_DATA_PER_PAGE - offsetof(DeletedRootData, dr_bitmaps) - \
				sizeof(BlockNumber) * (root)->dr_nbitmaps) / sizeof(RetiredLeaf)))

#define ROWS_PER_BITS_PAGE \
	((uint32) ((COLSTORE_DATA_PER_PAGE - offsetof(DeletedBitsData, db_bits)) * 8))
#define RootData(page)	((DeletedRootData *) ((char *) (page) + COLSTORE_DATA_START))
#define BitsData(page)	((DeletedBitsData *) ((char *) (page) + COLSTORE_DATA_START))

/* Bitmap pages a group of nrows rows needs. */
static inline uint32
BitmapPagesFor(uint32 nrows)
{
	return (nrows + ROWS_PER_BITS_PAGE - 1) / ROWS_PER_BITS_PAGE;
}

extern pg_noreturn void DeletedRowsReportBad(Relation rel, const RowGroupDirEntry *group,
											 BlockNumber blkno);
extern BlockNumber DeletedRootFind(Relation rel, const RowGroupDirEntry *group,
								   BlockNumber *last_root);
extern DeletedRootData *DeletedRootCheck(Relation rel, const RowGroupDirEntry *group,
										 Buffer buf);
extern BlockNumber DeletedBitmapPage(Relation rel, const RowGroupDirEntry *group,
									 BlockNumber root, uint32 i);

#endif							/* DELETED_ROWS_PAGE_H */
