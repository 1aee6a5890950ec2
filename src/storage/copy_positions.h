/*-------------------------------------------------------------------------
 *
 * copy_positions.h
 *	  Which heap positions hold promoted copies, and of which rows
 *	  (copy_positions.c).
 *
 * IDENTIFICATION
 *	  src/storage/copy_positions.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COPY_POSITIONS_H
#define COPY_POSITIONS_H

#include "storage/itemptr.h"
#include "utils/rel.h"

typedef struct CopyPosition
{
	ItemPointerData copy;		/* heap position of the copy */
	ItemPointerData row;		/* its row's TID */
} CopyPosition;

typedef struct CopyPositions
{
	CopyPosition *items;		/* sorted by copy */
	uint32		n;
} CopyPositions;

extern CopyPositions *CopyPositionsBuild(Relation rel);
extern bool CopyPositionsLookup(const CopyPositions *cp, ItemPointer copy,
								ItemPointer row);
extern void CopyPositionsFree(CopyPositions *cp);

#endif							/* COPY_POSITIONS_H */
