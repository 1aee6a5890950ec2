/*-------------------------------------------------------------------------
 *
 * delta_insert.h
 *	  Which inserted rows go to the heap pages (the delta store), and
 *	  inserting them there.
 *
 * IDENTIFICATION
 *	  src/storage/delta_insert.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTA_INSERT_H
#define DELTA_INSERT_H

#include "executor/execdesc.h"
#include "executor/tuptable.h"
#include "utils/rel.h"

/* colstore.delta_insert_rows */
extern int	colstore_delta_insert_rows;

extern void DeltaInsertNoteStatement(QueryDesc *queryDesc);
extern bool DeltaInsertWanted(CommandId cid);
extern int	DeltaInsertRow(Relation rel, TupleTableSlot *slot, CommandId cid,
						   uint32 spec_token);
extern void DeltaInsertDefineSettings(void);

#endif							/* DELTA_INSERT_H */
