/*-------------------------------------------------------------------------
 *
 * am_modify.c
 *	  Inserting rows into colstore tables (UPDATE, DELETE and row locks are
 *	  in am_dml.c).
 *
 * Inserts go to the backend's write buffer (storage/write_buffer.c), which
 * assigns TIDs at once and writes row groups later, except the rows of
 * small INSERT statements and of tables with exclusion constraints, which
 * become heap tuples on the table's heap pages (storage/delta_insert.c).  A speculative insertion (INSERT ... ON
 * CONFLICT) is a heap tuple there too, inserted, confirmed and
 * super-deleted by heapam's own speculative insertion protocol.
 *
 * IDENTIFICATION
 *	  src/tableam/am_modify.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/tableam.h"
#include "pgstat.h"
#include "storage/predicate.h"
#include "utils/rel.h"

#include "mvcc/row_state.h"
#include "storage/delta_insert.h"
#include "storage/write_buffer.h"
#include "tableam/am_modify.h"
#include "tableam/compaction_worker.h"

/*
 * Insert the row in slot as a heap tuple (storage/delta_insert.c).  One
 * that had to register a new heap page may start a compaction worker.
 */
static void
InsertHeapTuple(Relation rel, TupleTableSlot *slot, CommandId cid, uint32 specToken)
{
	int			heap_pages = DeltaInsertRow(rel, slot, cid, specToken);

	if (heap_pages > 0)
		CompactionWorkerMaybeLaunch(rel, heap_pages, -1, 0, false, false);
}

void
colstore_tuple_insert(Relation rel, TupleTableSlot *slot, CommandId cid,
					  int options, struct BulkInsertStateData *bistate)
{
	/* heap_insert does the conflict check and the counting itself */
	if (WriteBufferRefusesTable(rel) || DeltaInsertWanted(cid))
	{
		InsertHeapTuple(rel, slot, cid, 0);
		return;
	}
	CheckForSerializableConflictIn(rel, NULL, InvalidBlockNumber);
	WriteBufferInsert(rel, slot, cid);
	pgstat_count_heap_insert(rel, 1);
}

void
colstore_tuple_insert_speculative(Relation rel, TupleTableSlot *slot,
								  CommandId cid, int options,
								  struct BulkInsertStateData *bistate,
								  uint32 specToken)
{
	/* heap_insert does the conflict check and the counting itself */
	InsertHeapTuple(rel, slot, cid, specToken);
}

/*
 * Confirm the speculative insertion or, on a conflict, super-delete it, as
 * heap does: its heap tuple is at the position slot's TID names.  A
 * speculative insertion an older colstore wrote as a one-row row group
 * cannot still be open here (it belongs to the current transaction).
 */
void
colstore_tuple_complete_speculative(Relation rel, TupleTableSlot *slot,
									uint32 specToken, bool succeeded)
{
	RowState	state;

	RowStateLocate(rel, &slot->tts_tid, &state);
	if (state.kind != ROWSTATE_DELTA)
		elog(ERROR, "speculative insertion at (%u,%u) of \"%s\" is not a heap tuple",
			 ItemPointerGetBlockNumberNoCheck(&slot->tts_tid),
			 ItemPointerGetOffsetNumberNoCheck(&slot->tts_tid),
			 RelationGetRelationName(rel));
	if (succeeded)
		heap_finish_speculative(rel, &state.phys);
	else
		heap_abort_speculative(rel, &state.phys);
}

void
colstore_multi_insert(Relation rel, TupleTableSlot **slots, int nslots,
					  CommandId cid, int options,
					  struct BulkInsertStateData *bistate)
{
	int			i;

	if (WriteBufferRefusesTable(rel))
	{
		for (i = 0; i < nslots; i++)
			InsertHeapTuple(rel, slots[i], cid, 0);
		return;
	}
	CheckForSerializableConflictIn(rel, NULL, InvalidBlockNumber);
	WriteBufferInsertMulti(rel, slots, nslots, cid);
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
