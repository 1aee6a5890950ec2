/*-------------------------------------------------------------------------
 *
 * delta_insert.c
 *	  Which inserted rows go to the heap pages (the delta store) instead of
 *	  the column buffer, and inserting them there.
 *
 * A row group pays for itself only with many rows: one per INSERT of a few
 * rows costs a header, chunk descriptors, min/max values and directory
 * entries for every statement, and compresses nothing.  So the rows of an
 * INSERT or MERGE statement the planner expects to be small (every INSERT
 * or MERGE in the plan estimated at no more than colstore.delta_insert_rows
 * rows: a MERGE's join rows bound what it inserts) become
 * heap tuples on the table's heap pages, as UPDATE's new versions do, and
 * compaction later moves them into row groups (tableam/compaction.c).
 * Estimates can be wrong: at most colstore.delta_insert_rows rows of one
 * statement go to heap pages (of all the tables it inserts into); the rest
 * go to the column buffer.  The logical replication worker's inserts (which
 * do not pass through the executor's start) always go to heap pages: it
 * applies each row as a command of its own, and the column buffer writes a
 * row group per command, so each row would become a row group.
 * COPY (multi_insert, also the initial table sync), CREATE TABLE AS and
 * rewrites use the column buffer, except into tables with exclusion
 * constraints, whose rows all go to heap pages (storage/write_buffer.c,
 * WriteBufferRefusesTable).  Speculative insertions (INSERT ... ON CONFLICT) always
 * become heap tuples: each must be a row that other inserters find and wait
 * for at once, and heap's speculative insertion protocol then applies as it
 * is (a row group per row would cost a header, chunks and a directory entry
 * each, as upserts once did).
 *
 * Registering a new heap page is reported to the caller, which may start a
 * compaction worker (tableam/compaction_worker.c), which moves the rows
 * into row groups and vacuums the table, so the heap pages get reused.
 *
 * The decision is per statement, keyed by the backend's local transaction
 * id and the statement's command id, which no other statement of the
 * transaction shares.  Statements nested in one (a row trigger's INSERT, a
 * function's) are decided each on its own and keep the outer statement's
 * decision: up to SMALL_COMMANDS of them are remembered, the outermost
 * always (a trigger that inserts once per row would otherwise send the
 * outer statement's later rows to the column buffer, a row group of a
 * few rows).
 *
 * IDENTIFICATION
 *	  src/storage/delta_insert.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/heapam.h"
#include "access/xact.h"
#include "executor/executor.h"
#include "nodes/execnodes.h"
#include "nodes/nodeFuncs.h"
#include "replication/logicalworker.h"
#include "storage/proc.h"
#include "utils/guc.h"
#include "utils/rel.h"

#include "storage/delta_heap.h"
#include "storage/delta_insert.h"
#include "storage/directory.h"
#include "storage/row_slot.h"

int			colstore_delta_insert_rows = 100;

/*
 * The statements of local transaction SmallLxid whose inserts go to heap
 * pages, outermost first, each with the rows it sent there (of all tables).
 */
#define SMALL_COMMANDS	8

typedef struct SmallCommand
{
	CommandId	cid;
	uint64		counted;
} SmallCommand;

static LocalTransactionId SmallLxid = InvalidLocalTransactionId;
static SmallCommand SmallCommands[SMALL_COMMANDS];
static int	NumSmallCommands = 0;

/* Is an INSERT or MERGE under ps estimated at more than *context rows? */
static bool
SomeInsertLarge(PlanState *ps, void *context)
{
	double		limit = *(double *) context;

	if (ps == NULL)
		return false;
	if (IsA(ps, ModifyTableState))
	{
		ModifyTableState *mt = (ModifyTableState *) ps;

		/* a MERGE may insert as many rows as its join yields */
		if ((mt->operation == CMD_INSERT || mt->operation == CMD_MERGE) &&
			outerPlanState(mt)->plan->plan_rows > limit)
			return true;
	}
	return planstate_tree_walker(ps, SomeInsertLarge, context);
}

/*
 * DeltaInsertNoteStatement
 *		Called after ExecutorStart: if the statement inserts and every
 *		INSERT in it is estimated small, its inserts go to heap pages.
 */
void
DeltaInsertNoteStatement(QueryDesc *queryDesc)
{
	double		limit = colstore_delta_insert_rows;
	EState	   *estate = queryDesc->estate;

	if (colstore_delta_insert_rows <= 0 || queryDesc->planstate == NULL ||
		(queryDesc->operation != CMD_INSERT && queryDesc->operation != CMD_MERGE &&
		 !queryDesc->plannedstmt->hasModifyingCTE))
		return;
	if (SomeInsertLarge(queryDesc->planstate, &limit))
		return;
	if (SmallLxid != MyLocalTransactionId())
	{
		SmallLxid = MyLocalTransactionId();
		NumSmallCommands = 0;
	}
	/* full: the latest nested statement gives way, the outer ones stay */
	if (NumSmallCommands == SMALL_COMMANDS)
		NumSmallCommands--;
	SmallCommands[NumSmallCommands].cid = estate->es_output_cid;
	SmallCommands[NumSmallCommands].counted = 0;
	NumSmallCommands++;
}

/*
 * DeltaInsertWanted
 *		Whether the row command cid is inserting goes to heap pages,
 *		counting it if so.
 */
bool
DeltaInsertWanted(CommandId cid)
{
	int			i;

	/* the logical replication worker applies each row as a command of its own */
	if (IsLogicalWorker())
		return colstore_delta_insert_rows > 0;
	if (MyLocalTransactionId() != SmallLxid)
		return false;
	for (i = NumSmallCommands - 1; i >= 0; i--)
	{
		SmallCommand *small = &SmallCommands[i];

		if (small->cid != cid)
			continue;
		if (small->counted >= (uint64) colstore_delta_insert_rows)
			return false;
		small->counted++;
		return true;
	}
	return false;
}

/*
 * DeltaInsertRow
 *		Insert the row in slot as a heap tuple of rel's heap pages, setting
 *		slot->tts_tid to its colstore TID.  A non-zero spec_token makes it a
 *		speculative insertion (INSERT ... ON CONFLICT), which the caller
 *		completes with heap_finish_speculative or heap_abort_speculative.
 *		Returns rel's number of heap pages if the row had to register a new
 *		one (the existing ones are full: time to compact?), else 0.
 */
int
DeltaInsertRow(Relation rel, TupleTableSlot *slot, CommandId cid, uint32 spec_token)
{
	bool		shouldFree = true;
	HeapTuple	tuple = ExecFetchSlotHeapTuple(slot, true, &shouldFree);
	int			heap_pages;
	int			after;

	if (tuple->t_data->t_infomask2 & HEAP_COLSTORE_PROMOTED)
	{
		/* the marker bit is ours to clear: work on a copy */
		HeapTuple	copy = heap_copytuple(tuple);

		if (shouldFree)
			heap_freetuple(tuple);
		tuple = copy;
		shouldFree = true;
		tuple->t_data->t_infomask2 &= ~HEAP_COLSTORE_PROMOTED;
	}
	slot->tts_tableOid = RelationGetRelid(rel);
	tuple->t_tableOid = slot->tts_tableOid;
	heap_pages = DirectoryGet(rel)->ndeltas;
	if (spec_token != 0)
		HeapTupleHeaderSetSpeculativeToken(tuple->t_data, spec_token);
	DeltaHeapInsert(rel, tuple, cid, spec_token != 0 ? HEAP_INSERT_SPECULATIVE : 0);
	after = DirectoryGet(rel)->ndeltas;
	DeltaHeapToLogical(rel, &tuple->t_self, &slot->tts_tid);
	ColstoreSlotSetInsertInfo(slot, GetCurrentTransactionId(), cid);
	if (shouldFree)
		heap_freetuple(tuple);
	return after > heap_pages ? after : 0;
}

/* Define colstore.delta_insert_rows (from _PG_init). */
void
DeltaInsertDefineSettings(void)
{
	DefineCustomIntVariable("colstore.delta_insert_rows",
							"Sets the estimated size up to which an INSERT statement's rows become heap tuples, compacted into row groups later.",
							"Also the most rows of one statement that go to one table's heap pages. 0 sends every row to row groups.",
							&colstore_delta_insert_rows,
							100, 0, 1000000,
							PGC_USERSET, 0, NULL, NULL, NULL);
}
