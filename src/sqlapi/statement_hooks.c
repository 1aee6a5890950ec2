/*-------------------------------------------------------------------------
 *
 * statement_hooks.c
 *	  Hooks colstore needs around statements: writing buffered rows before
 *	  each statement, table options in CREATE/ALTER TABLE, and dropping
 *	  cached state on relcache invalidation.
 *
 * Buffered rows (storage/write_buffer.c) are written before every
 * statement starts, from ExecutorStart and ProcessUtility.  That keeps
 * parallel plans and parallel index builds, which may not write, from ever
 * meeting rows that still have to be written, and makes a statement's
 * rows reach disk when the next statement begins.  A statement nested in a
 * running one (a row trigger's, a function's: ExecutorRun and
 * ExecutorFinish count how many run) writes them only if its plan may be
 * parallel: the outer statement's rows would otherwise become a row group
 * per row, and each read of a table writes that table's rows anyway.
 *
 * The ProcessUtility hook also takes colstore's storage options out of
 * CREATE TABLE ... WITH (...) and ALTER TABLE ... SET/RESET (...) before
 * core validates the heap options (table AMs cannot declare reloptions in
 * PostgreSQL 15); see options.c.
 *
 * After ExecutorStart, storage/delta_insert.c decides whether the
 * statement's inserts go to heap pages.
 *
 * Bitmap heap scans prefetch the blocks named by TIDs; for colstore those
 * are row numbers, not pages, so prefetching is switched off for bitmap
 * scans of colstore tables after ExecutorStart.
 *
 * IDENTIFICATION
 *	  src/sqlapi/statement_hooks.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "tcop/utility.h"
#include "utils/inval.h"
#include "utils/rel.h"

#include "mvcc/row_state.h"
#include "sqlapi/options.h"
#include "sqlapi/options_mirror.h"
#include "sqlapi/statement_hooks.h"
#include "storage/chunk_cache.h"
#include "mvcc/table_order.h"
#include "storage/delta_insert.h"
#include "storage/directory.h"
#include "storage/table_options.h"
#include "storage/write_buffer.h"
#include "tableam/am_handler.h"

static ExecutorStart_hook_type prev_ExecutorStart = NULL;
static ExecutorRun_hook_type prev_ExecutorRun = NULL;
static ExecutorFinish_hook_type prev_ExecutorFinish = NULL;

/* Statements running (in ExecutorRun or ExecutorFinish) in this backend. */
static int	ExecutorDepth = 0;
static ProcessUtility_hook_type prev_ProcessUtility = NULL;

/*
 * Before 18 the bitmap heap scan node prefetches the blocks its TIDs name;
 * from 18 the table AM reads its own pages (colstore does not prefetch).
 */
static inline void
DisableBitmapPrefetch(BitmapHeapScanState *bhs)
{
#if !PG_BITMAP_SCAN_IN_AM
	bhs->prefetch_maximum = 0;
#endif
}

static bool
DisablePrefetchWalker(PlanState *ps, void *context)
{
	if (ps == NULL)
		return false;
	if (IsA(ps, BitmapHeapScanState))
	{
		BitmapHeapScanState *bhs = (BitmapHeapScanState *) ps;
		Relation	rel = bhs->ss.ss_currentRelation;

		if (rel != NULL && RelationIsColstore(rel))
			DisableBitmapPrefetch(bhs);
	}
	return planstate_tree_walker(ps, DisablePrefetchWalker, context);
}

static void
ColstoreExecutorStart(QueryDesc *queryDesc, int eflags)
{
	if (ExecutorDepth == 0 || queryDesc->plannedstmt->parallelModeNeeded)
		WriteBufferFlushAll();
	if (prev_ExecutorStart)
		prev_ExecutorStart(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
	if (queryDesc->planstate != NULL)
		DisablePrefetchWalker(queryDesc->planstate, NULL);
	DeltaInsertNoteStatement(queryDesc);
}

static void
ColstoreExecutorRun(EXECUTOR_RUN_PARAMS)
{
	ExecutorDepth++;
	PG_TRY();
	{
		if (prev_ExecutorRun)
			prev_ExecutorRun(EXECUTOR_RUN_ARGS);
		else
			standard_ExecutorRun(EXECUTOR_RUN_ARGS);
	}
	PG_FINALLY();
	{
		ExecutorDepth--;
	}
	PG_END_TRY();
}

static void
ColstoreExecutorFinish(QueryDesc *queryDesc)
{
	ExecutorDepth++;
	PG_TRY();
	{
		if (prev_ExecutorFinish)
			prev_ExecutorFinish(queryDesc);
		else
			standard_ExecutorFinish(queryDesc);
	}
	PG_FINALLY();
	{
		ExecutorDepth--;
	}
	PG_END_TRY();
}

/*
 * Run the statement through the next utility hook, with the CREATE whose
 * options extracted holds noted as running (OptionsEnterStatement) for as
 * long as it runs, however it ends.
 */
static void
RunStatement(ColstoreUtilityOptions *extracted, PlannedStmt *pstmt,
			 const char *queryString, bool readOnlyTree,
			 ProcessUtilityContext context, ParamListInfo params,
			 QueryEnvironment *queryEnv, DestReceiver *dest, QueryCompletion *qc)
{
	ColstoreUtilityOptions *outer = OptionsEnterStatement(extracted);

	PG_TRY();
	{
		if (prev_ProcessUtility)
			prev_ProcessUtility(pstmt, queryString, readOnlyTree, context, params,
								queryEnv, dest, qc);
		else
			standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
									params, queryEnv, dest, qc);
	}
	PG_FINALLY();
	{
		OptionsLeaveStatement(outer);
	}
	PG_END_TRY();
}

static void
ColstoreProcessUtility(PlannedStmt *pstmt, const char *queryString,
					   bool readOnlyTree, ProcessUtilityContext context,
					   ParamListInfo params, QueryEnvironment *queryEnv,
					   DestReceiver *dest, QueryCompletion *qc)
{
	ColstoreUtilityOptions *extracted;
	Oid			mirrored;

	/*
	 * Transaction control needs no flush: COMMIT and PREPARE flush in the
	 * transaction callback, ROLLBACK discards, and subtransactions are told
	 * apart by subtransaction id.  Flushing before ROLLBACK would only write
	 * rows that are about to die.
	 */
	if (!IsA(pstmt->utilityStmt, TransactionStmt))
		WriteBufferFlushAll();
	if (readOnlyTree && OptionsStatementNeedsCopy(pstmt->utilityStmt))
	{
		pstmt = copyObject(pstmt);
		readOnlyTree = false;
	}
	/* before extraction, which drops SET (...) commands left empty */
	mirrored = OptionsMirrorHide(pstmt->utilityStmt);
	extracted = OptionsExtractFromStatement(pstmt->utilityStmt);
	if (extracted != NULL)
		OptionsApplyBeforeStatement(extracted);

	RunStatement(extracted, pstmt, queryString, readOnlyTree, context, params,
				 queryEnv, dest, qc);

	if (extracted != NULL)
		OptionsApplyAfterStatement(extracted);
	if (OidIsValid(mirrored))
		OptionsMirrorWrite(mirrored);
}

static void
ColstoreRelcacheCallback(Datum arg, Oid relid)
{
	DirectoryInvalidate(relid);
	RowStateForget(relid);
	ChunkCacheInvalidate(relid);
	ColumnOrderForget(relid);
	TableOptionsInvalidate(relid);
}

void
StatementHooksInstall(void)
{
	prev_ExecutorStart = ExecutorStart_hook;
	ExecutorStart_hook = ColstoreExecutorStart;
	prev_ExecutorRun = ExecutorRun_hook;
	ExecutorRun_hook = ColstoreExecutorRun;
	prev_ExecutorFinish = ExecutorFinish_hook;
	ExecutorFinish_hook = ColstoreExecutorFinish;
	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = ColstoreProcessUtility;
	CacheRegisterRelcacheCallback(ColstoreRelcacheCallback, (Datum) 0);
}
