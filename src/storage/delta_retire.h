/*-------------------------------------------------------------------------
 *
 * delta_retire.h
 *	  VACUUM's retiring and freeing of emptied heap pages (delta pages).
 *
 * IDENTIFICATION
 *	  src/storage/delta_retire.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTA_RETIRE_H
#define DELTA_RETIRE_H

#include "storage/buf.h"
#include "utils/rel.h"

extern uint32 DeltaPagesFree(Relation rel, TransactionId oldest_xmin,
							 BufferAccessStrategy strategy);
extern uint32 DeltaPagesRetire(Relation rel, BufferAccessStrategy strategy);

#endif							/* DELTA_RETIRE_H */
