/*-------------------------------------------------------------------------
 *
 * promotion_map.h
 *	  Per row group map from a row to the heap copy that holds its state.
 *
 * IDENTIFICATION
 *	  src/storage/promotion_map.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PROMOTION_MAP_H
#define PROMOTION_MAP_H

#include "storage/buf.h"
#include "storage/bufpage.h"
#include "storage/delete_log.h"
#include "storage/itemptr.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"

/* What a row's promotion map slot says (PromotionMapLookup). */
typedef enum PromotionSlot
{
	PROMOTION_NONE = 0,			/* never promoted: the row group says it all */
	PROMOTION_COPY,				/* its copy is at *copy */
	PROMOTION_DELETED,			/* deleted for everyone
								 * (storage/deleted_rows.c): no copy to read */
	PROMOTION_LOGGED			/* no copy, a run in the delete log
								 * (storage/delete_log.c) */
} PromotionSlot;

extern PromotionSlot PromotionMapLookup(Relation rel, const RowGroupDirEntry *group,
										uint32 row, ItemPointer copy, DeleteRun *run);
extern bool PromotionMapGetRange(Relation rel, const RowGroupDirEntry *group,
								 uint32 first, uint32 n, ItemPointerData *copies,
								 bool *deleted, DeleteRun *runs);
extern void PromotionMapGetSlots(Relation rel, const RowGroupDirEntry *group,
								 uint32 first, uint32 n, ItemPointerData *copies);
extern BlockNumber PromotionMapLastRoot(Relation rel, const RowGroupDirEntry *group);
extern int	PromotionMapClearSlots(Relation rel, const RowGroupDirEntry *group,
								   uint32 first, uint32 n, const bool *clear,
								   ItemPointerData *freed, bool *leaf_empty);
extern BlockNumber PromotionMapDetachLeaf(Relation rel, const RowGroupDirEntry *group,
										  uint32 row, Buffer extra,
										  void (*note) (Page extra, BlockNumber leaf));
extern int	PromotionMapPages(Relation rel, const RowGroupDirEntry *group,
							  BlockNumber **blocks);
extern uint32 PromotionMapLeafRemaining(uint32 row);
extern void PromotionMapForget(Oid relid);
extern void PromotionMapSet(Relation rel, uint32 dir_index, uint32 first,
							uint32 n, ItemPointerData *copies,
							const TransactionId *expect);
extern DeleteLogResult PromotionMapLogDelete(Relation rel, uint32 dir_index,
											 const RowGroupDirEntry *entry,
											 uint32 row, TransactionId xid,
											 CommandId cid, bool moved);

extern bool PromotionMapMoveRoot(Relation rel, uint32 dir_index, BlockNumber cut,
								 BlockNumber *cursor);
extern bool PromotionMapRootMovable(const RowGroupDirEntry *group);

#endif							/* PROMOTION_MAP_H */
