/*-------------------------------------------------------------------------
 *
 * am_slot.h
 *	  The tuple slot type of colstore tables.
 *
 * IDENTIFICATION
 *	  src/tableam/am_slot.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AM_SLOT_H
#define AM_SLOT_H

#include "executor/tuptable.h"
#include "storage/row_slot.h"	/* TTSOpsColstore, the row's inserter */

/*
 * Writes attributes [from, to) of row pos of a lazy source into slot;
 * generation is the source's value at the time the row was stored, so the
 * source can tell a row whose data it has since discarded.
 */
typedef void (*ColstoreSlotFill) (void *arg, int pos, uint32 generation,
								  TupleTableSlot *slot, int from, int to);

extern void ColstoreSlotOpsInit(void);

extern void ColstoreSlotStoreLazy(TupleTableSlot *slot, ColstoreSlotFill fill,
								  void *arg, int pos, uint32 generation);

#endif							/* AM_SLOT_H */
