/*-------------------------------------------------------------------------
 *
 * deleted_rows.h
 *	  Per row group bitmap of the rows deleted for everyone.
 *
 * IDENTIFICATION
 *	  src/storage/deleted_rows.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELETED_ROWS_H
#define DELETED_ROWS_H

#include "storage/buf.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"

extern bool DeletedRowsRead(Relation rel, const RowGroupDirEntry *group,
							uint32 first, uint32 n, bool *deleted);
extern void DeletedRowsAddRoot(Relation rel, const RowGroupDirEntry *group);
extern void DeletedRowsSet(Relation rel, const RowGroupDirEntry *group,
						   const uint32 *rows, int n, bool with_items);
extern uint32 DeletedRowsCount(Relation rel, const RowGroupDirEntry *group,
							   uint32 *pending);
extern double DeletedRowsGone(Relation rel);
extern uint32 DeletedRowsDetachLog(Relation rel, const RowGroupDirEntry *group);
extern uint32 DeletedRowsFree(Relation rel, TransactionId oldest_xmin,
							  BufferAccessStrategy strategy, uint32 *freed_leaves);
extern int	DeletedRowsPages(Relation rel, const RowGroupDirEntry *group,
							 BlockNumber **blocks);

/* storage/deleted_rows_move.c: VACUUM's moving of the pages down the file */
extern int	DeletedRowsMovable(Relation rel, const RowGroupDirEntry *group,
							   BlockNumber *blocks);
extern int	DeletedRowsMovableMax(const RowGroupDirEntry *group);
extern int	DeletedRowsRelocate(Relation rel, const RowGroupDirEntry *group,
								BlockNumber cut, BlockNumber *cursor);

#endif							/* DELETED_ROWS_H */
