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

extern void ColstoreSlotOpsInit(void);
extern void ColstoreSlotSetInsertInfo(TupleTableSlot *slot, TransactionId xmin,
									  CommandId cmin);

#define TTS_IS_COLSTORE(slot) ((slot)->tts_ops == &TTSOpsColstore)

#endif							/* AM_SLOT_H */
