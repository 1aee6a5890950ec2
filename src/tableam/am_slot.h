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

extern PGDLLIMPORT TupleTableSlotOps TTSOpsColstore;

/* Writes attributes [from, to) of row pos of a lazy source into slot. */
typedef void (*ColstoreSlotFill) (void *arg, int pos, TupleTableSlot *slot,
								  int from, int to);

extern void ColstoreSlotOpsInit(void);
extern void ColstoreSlotSetInsertInfo(TupleTableSlot *slot, TransactionId xmin,
									  CommandId cmin);

extern void ColstoreSlotStoreLazy(TupleTableSlot *slot, ColstoreSlotFill fill,
								  void *arg, int pos);

#define TTS_IS_COLSTORE(slot) ((slot)->tts_ops == &TTSOpsColstore)

#endif							/* AM_SLOT_H */
