/*-------------------------------------------------------------------------
 *
 * am_modify.h
 *	  Table AM callbacks of colstore that insert rows.
 *
 * IDENTIFICATION
 *	  src/tableam/am_modify.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AM_MODIFY_H
#define AM_MODIFY_H

#include "access/tableam.h"

extern void colstore_tuple_insert(Relation rel, TupleTableSlot *slot,
								  CommandId cid, int options,
								  struct BulkInsertStateData *bistate);
extern void colstore_tuple_insert_speculative(Relation rel,
											  TupleTableSlot *slot,
											  CommandId cid, int options,
											  struct BulkInsertStateData *bistate,
											  uint32 specToken);
extern void colstore_tuple_complete_speculative(Relation rel,
												TupleTableSlot *slot,
												uint32 specToken,
												bool succeeded);
extern void colstore_multi_insert(Relation rel, TupleTableSlot **slots,
								  int nslots, CommandId cid, int options,
								  struct BulkInsertStateData *bistate);
extern void colstore_finish_bulk_insert(Relation rel, int options);

#endif							/* AM_MODIFY_H */
