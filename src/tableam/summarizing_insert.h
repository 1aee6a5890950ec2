/*-------------------------------------------------------------------------
 *
 * summarizing_insert.h
 *	  Summarizing index entries of a HOT chain member under its root row's
 *	  TID (summarizing_insert.c).
 *
 * IDENTIFICATION
 *	  src/tableam/summarizing_insert.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SUMMARIZING_INSERT_H
#define SUMMARIZING_INSERT_H

#include "executor/tuptable.h"
#include "storage/itemptr.h"
#include "utils/rel.h"

extern void SummarizingIndexesInsert(Relation rel, TupleTableSlot *slot,
									 ItemPointer tid);

#endif							/* SUMMARIZING_INSERT_H */
