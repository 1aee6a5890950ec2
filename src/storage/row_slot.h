/*-------------------------------------------------------------------------
 *
 * row_slot.h
 *	  The part of colstore's tuple slot that storage fills: a virtual
 *	  slot with the inserter and xmax of its row.
 *
 * The slot type's behaviour (its system columns, lazy attributes, copies)
 * is tableam/am_slot.c's, which fills TTSOpsColstore at _PG_init; storing
 * a row's values and recording its inserter is all that storage and mvcc
 * do with a slot.
 *
 * IDENTIFICATION
 *	  src/storage/row_slot.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ROW_SLOT_H
#define ROW_SLOT_H

#include "executor/tuptable.h"

/* The start of every colstore slot (tableam/am_slot.c adds the rest). */
typedef struct ColstoreRowSlot
{
	VirtualTupleTableSlot base;
	TransactionId xmin;			/* inserter, or Invalid if unknown */
	CommandId	cmin;
	TransactionId xmax;			/* raw xmax of a changed row's heap tuple, or
								 * Invalid */
} ColstoreRowSlot;

extern PGDLLIMPORT TupleTableSlotOps TTSOpsColstore;

#define TTS_IS_COLSTORE(slot) ((slot)->tts_ops == &TTSOpsColstore)

extern void ColstoreSlotSetXmax(TupleTableSlot *slot, TransactionId xmax);
extern void ColstoreSlotSetInsertInfo(TupleTableSlot *slot, TransactionId xmin,
									  CommandId cmin);

#endif							/* ROW_SLOT_H */
