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

#include "storage/itemptr.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"

extern bool PromotionMapGet(Relation rel, const RowGroupDirEntry *group,
							uint32 row, ItemPointer copy);
extern void PromotionMapGetRange(Relation rel, const RowGroupDirEntry *group,
								 uint32 first, uint32 n, ItemPointerData *copies);
extern int	PromotionMapPages(Relation rel, const RowGroupDirEntry *group,
							  BlockNumber **blocks);
extern uint32 PromotionMapLeafRemaining(uint32 row);
extern void PromotionMapSet(Relation rel, uint32 dir_index, uint32 first,
							uint32 n, ItemPointerData *copies);

#endif							/* PROMOTION_MAP_H */
