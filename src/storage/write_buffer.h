/*-------------------------------------------------------------------------
 *
 * write_buffer.h
 *	  Rows inserted by this backend and not yet written as a row group.
 *
 * IDENTIFICATION
 *	  src/storage/write_buffer.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WRITE_BUFFER_H
#define WRITE_BUFFER_H

#include "access/xact.h"
#include "executor/tuptable.h"
#include "utils/rel.h"
#include "utils/snapshot.h"

extern void WriteBufferInsert(Relation rel, TupleTableSlot *slot,
							  CommandId cid);
extern void WriteBufferInsertMulti(Relation rel, TupleTableSlot **slots,
								   int nslots, CommandId cid);
extern bool WriteBufferRefusesTable(Relation rel);
extern void WriteBufferFlush(Relation rel);
extern void WriteBufferFlushAll(void);
extern void WriteBufferDiscard(Oid relid);
extern bool WriteBufferFetch(Relation rel, uint64 rownum, Snapshot snapshot,
							 TupleTableSlot *slot, bool *found);

extern void WriteBufferXactCallback(XactEvent event, void *arg);
extern void WriteBufferSubXactCallback(SubXactEvent event,
									   SubTransactionId mySubid,
									   SubTransactionId parentSubid,
									   void *arg);

#endif							/* WRITE_BUFFER_H */
