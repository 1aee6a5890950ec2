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

#include "pg_compat.h"

#include "storage/itemptr.h"
#include "utils/rel.h"

/*
 * The recent UPDATE versions of transactions that wrote in bulk
 * (tableam/compaction_bulk.c), as ColstoreCompact lists them for the
 * compaction worker, which moves them in later transactions of their own
 * (ColstoreCompactBulk); or, when the table is quiet, every recent UPDATE
 * version.
 */
typedef struct CompactBulk
{
	MemoryContext cxt;			/* the lists' context: outlives transactions */
	RelFileLocator locator;		/* the storage the positions are in */
	ItemPointerData *items;		/* their positions, ascending */
	TransactionId *xmins;		/* each one's inserter */
	Size		n;
	Size		capacity;
	Size		next;			/* the first one no batch has tried */
	TransactionId waiting_for;	/* the newest transaction that wrote in bulk
								 * and some snapshot does not see yet, or
								 * InvalidTransactionId */
	bool		quiet;			/* set by the caller: the table is quiet
								 * (CompactionTableQuiet), so every recent
								 * UPDATE version is listed, and row groups
								 * are chosen by the quiet rules
								 * (compaction_choice.c) */
	uint64		held_back;		/* recent UPDATE versions every snapshot sees
								 * that were not listed (not quiet, not bulk) */
} CompactBulk;

extern uint64 ColstoreCompact(Relation rel, uint64 min_rows, int update_age,
							  CompactBulk *bulk);
extern uint64 ColstoreCompactBulk(Relation rel, CompactBulk *bulk,
								  bool *gate_open);

#endif							/* COMPACTION_H */
