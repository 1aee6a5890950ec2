/*-------------------------------------------------------------------------
 *
 * am_modify.c
 *	  Inserting rows into colstore tables (UPDATE, DELETE and row locks are
 *	  in am_dml.c).
 *
 * Inserts go to the backend's write buffer (storage/write_buffer.c), which
 * assigns TIDs at once and writes row groups later, except the rows of
 * small INSERT statements, which become heap tuples on the table's heap
 * pages (storage/delta_insert.c).  A speculative
 * insertion (INSERT ... ON CONFLICT) is written at once as a one-row row
 * group; if the executor then finds a conflict, the row group is marked
 * invalid, which makes the row dead to everybody, like heap's super-delete.
 *
 * IDENTIFICATION
 *	  src/tableam/am_modify.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tableam.h"
#include "access/xact.h"
#include "pgstat.h"
#include "storage/predicate.h"
#include "utils/rel.h"

#include "storage/delta_insert.h"
#include "storage/directory.h"
#include "storage/logical_log.h"
#include "storage/metapage.h"
#include "storage/write_buffer.h"
#include "tableam/am_modify.h"

void
colstore_tuple_insert(Relation rel, TupleTableSlot *slot, CommandId cid,
					  int options, struct BulkInsertStateData *bistate)
{
	/* heap_insert does the conflict check and the counting itself */
	if (DeltaInsertWanted(cid))
	{
		DeltaInsertRow(rel, slot, cid);
		return;
	}
	CheckForSerializableConflictIn(rel, NULL, InvalidBlockNumber);
	WriteBufferInsert(rel, slot, cid, false);
	pgstat_count_heap_insert(rel, 1);
}

void
colstore_tuple_insert_speculative(Relation rel, TupleTableSlot *slot,
								  CommandId cid, int options,
								  struct BulkInsertStateData *bistate,
								  uint32 specToken)
{
	CheckForSerializableConflictIn(rel, NULL, InvalidBlockNumber);
	WriteBufferInsert(rel, slot, cid, true);
	pgstat_count_heap_insert(rel, 1);
}

/*
 * On failure, kill the one-row row group written for the speculative
 * insertion; waiters on our transaction then find the row gone.  Either
 * way, logical decoding learns the outcome, as from heap's confirmation
 * record or super-delete.
 */
void
colstore_tuple_complete_speculative(Relation rel, TupleTableSlot *slot,
									uint32 specToken, bool succeeded)
{
	ColstoreDirectory *dir;
	RowGroupDirEntry entry;
	uint64		rownum;
	int			index;

	LogicalLogSpeculativeOutcome(rel, GetCurrentTransactionId(), succeeded);
	if (succeeded)
		return;
	if (!ItemPointerToRowNumber(&slot->tts_tid, &rownum))
		elog(ERROR, "unexpected TID (%u,%u) of a speculative insertion",
			 ItemPointerGetBlockNumberNoCheck(&slot->tts_tid),
			 ItemPointerGetOffsetNumberNoCheck(&slot->tts_tid));
	ColstoreLockWriter(rel);
	dir = DirectoryGet(rel);
	index = DirectoryFindRowGroup(dir, rownum);
	if (index < 0 || dir->entries[index].rg_nrows != 1 ||
		!TransactionIdIsCurrentTransactionId(dir->entries[index].rg_xmin))
		elog(ERROR, "could not find the row group of speculative insertion at row %llu of \"%s\"",
			 (unsigned long long) rownum, RelationGetRelationName(rel));
	entry = dir->entries[index];
	entry.rg_flags |= RG_FLAG_INVALID;
	DirectoryUpdateEntry(rel, index, &entry);
	ColstoreUnlockWriter(rel);
}

void
colstore_multi_insert(Relation rel, TupleTableSlot **slots, int nslots,
					  CommandId cid, int options,
					  struct BulkInsertStateData *bistate)
{
	int			i;

	CheckForSerializableConflictIn(rel, NULL, InvalidBlockNumber);
	for (i = 0; i < nslots; i++)
		WriteBufferInsert(rel, slots[i], cid, false);
	pgstat_count_heap_insert(rel, nslots);
}

/*
 * Write the buffered rows now.  Rewrites (ALTER TABLE, REFRESH MATERIALIZED
 * VIEW) fill a transient table and then swap its storage into the real
 * one, so its rows must be on disk before this returns.
 */
void
colstore_finish_bulk_insert(Relation rel, int options)
{
	WriteBufferFlush(rel);
}
