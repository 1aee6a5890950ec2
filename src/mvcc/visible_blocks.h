/*-------------------------------------------------------------------------
 *
 * visible_blocks.h
 *	  Which pseudo-blocks of a colstore table VACUUM marks all-visible for
 *	  index-only scans.
 *
 * IDENTIFICATION
 *	  src/mvcc/visible_blocks.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef VISIBLE_BLOCKS_H
#define VISIBLE_BLOCKS_H

#include "utils/rel.h"

extern BlockNumber VisibleBlocksMark(Relation rel, TransactionId oldest_xmin);

#endif							/* VISIBLE_BLOCKS_H */
