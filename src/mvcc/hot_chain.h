/*-------------------------------------------------------------------------
 *
 * hot_chain.h
 *	  Following HOT chains of colstore's heap pages from an index entry
 *	  (hot_chain.c).
 *
 * IDENTIFICATION
 *	  src/mvcc/hot_chain.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef HOT_CHAIN_H
#define HOT_CHAIN_H

#include "access/htup.h"
#include "mvcc/row_state.h"
#include "storage/itemptr.h"
#include "utils/rel.h"
#include "utils/snapshot.h"

extern bool HotChainSearch(Relation rel, ItemPointer phys, Snapshot snapshot,
						   bool first_call, HeapTuple *copy, bool *all_dead);
extern bool HotChainSearchFromCopy(Relation rel, ItemPointer phys,
								   Snapshot snapshot, HeapTuple *copy);

extern RowLiveness HotChainMemberForScan(Relation rel, ItemPointer copy,
										 Snapshot snapshot,
										 TransactionId oldest_xmin,
										 HeapTuple *member, bool *broken);
extern bool HotChainRootRow(Relation rel, ItemPointer phys, ItemPointer row);

#endif							/* HOT_CHAIN_H */
