/*-------------------------------------------------------------------------
 *
 * delta_chain.h
 *	  HOT chains on the heap pages inside a colstore relation: which items
 *	  link to which, and which item starts each chain (delta_chain.c).
 *
 * IDENTIFICATION
 *	  src/storage/delta_chain.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTA_CHAIN_H
#define DELTA_CHAIN_H

#include "access/htup.h"
#include "storage/buf.h"
#include "storage/off.h"
#include "utils/rel.h"

extern OffsetNumber DeltaChainNext(Relation rel, Buffer buf, HeapTuple tuple);
extern OffsetNumber DeltaRedirectTarget(Relation rel, Buffer buf, OffsetNumber off);
extern bool DeltaItemIsChainStart(Relation rel, Buffer buf, OffsetNumber off);
extern void DeltaChainStarts(Relation rel, Buffer buf, OffsetNumber *starts);

#endif							/* DELTA_CHAIN_H */
