/*-------------------------------------------------------------------------
 *
 * moved_rows.h
 *	  Where a heap tuple that compaction moved into a row group went.
 *
 * IDENTIFICATION
 *	  src/storage/moved_rows.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MOVED_ROWS_H
#define MOVED_ROWS_H

#include "storage/itemptr.h"
#include "utils/rel.h"
#include "utils/snapshot.h"

extern bool MovedRowFind(Relation rel, TransactionId mover, ItemPointer phys,
						 ItemPointer tid);
extern bool MovedVersionOf(Relation rel, ItemPointer phys, ItemPointer row,
						   ItemPointer tid);
extern void MovedRowSourceOfRow(ItemPointer row, ItemPointer source);
extern bool MovedRowFindRow(Relation rel, TransactionId mover, ItemPointer row,
							ItemPointer tid);

#endif							/* MOVED_ROWS_H */
