/*-------------------------------------------------------------------------
 *
 * all_visible.h
 *	  All-visible bits of a colstore table's pseudo-blocks, in its
 *	  visibility map fork, for index-only scans.
 *
 * IDENTIFICATION
 *	  src/storage/all_visible.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ALL_VISIBLE_H
#define ALL_VISIBLE_H

#include "storage/block.h"
#include "storage/itemptr.h"
#include "utils/rel.h"

/*
 * Judge pseudo-blocks [first, first + n): eligible[i] = whether block
 * first + i may be marked all-visible; *horizon = the newest inserting xid
 * a standby query must see as committed to trust the marks (or Invalid).
 * Called with the visibility map page locked exclusively.
 */
typedef void (*AllVisibleJudge) (void *arg, BlockNumber first, uint32 n,
								 bool *eligible, TransactionId *horizon);

extern void AllVisibleInit(void);
extern void AllVisibleClear(Relation rel, ItemPointer tid);
extern void AllVisibleClearRows(Relation rel, uint64 first_row, uint64 nrows);
extern bool AllVisibleTrusted(Relation rel);
extern BlockNumber AllVisibleUpdate(Relation rel, BlockNumber nblocks,
									AllVisibleJudge judge, void *arg);

#endif							/* ALL_VISIBLE_H */
