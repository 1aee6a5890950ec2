/*-------------------------------------------------------------------------
 *
 * compaction.h
 *	  Moving the heap tuples of a colstore table's delta pages into row
 *	  groups.
 *
 * IDENTIFICATION
 *	  src/tableam/compaction.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COMPACTION_H
#define COMPACTION_H

#include "utils/rel.h"

extern uint64 ColstoreCompact(Relation rel, uint64 min_rows, int update_age);

#endif							/* COMPACTION_H */
