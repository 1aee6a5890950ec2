/*-------------------------------------------------------------------------
 *
 * cscan_exec.c
 *	  Executor side of the colstore custom scan (ColstoreScan).
 *
 * The node runs a colstore sequential scan (am_scan.c) narrowed by
 * ColstoreScanConfigure: only the columns its plan's target list and quals
 * reference are decoded, and chunks the pruning keys refute are skipped.
 * Every row read is still checked against all quals by ExecScan, so
 * pruning can only save work, never change a result.
 *
 * Parallel query: the node is parallel aware.  The shared state is the
 * table AM's own parallel scan descriptor (row groups handed out through
 * an atomic counter) preceded by counters the workers add their row group
 * and chunk counts to when they shut down, so EXPLAIN ANALYZE shows the
 * totals of all participants (exact when the scan ran to its end; a scan
 * stopped early, e.g. by LIMIT, may show the leader's part only).
 *
 * IDENTIFICATION
 *	  src/cscan/cscan_exec.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/relscan.h"
#include "access/sysattr.h"
#include "access/tableam.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "port/atomics.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

#include "cscan/chunk_pruning.h"
#include "cscan/cscan_exec.h"
#include "tableam/am_scan.h"

/* Shared by the participants of a parallel scan; the AM's part follows. */
typedef struct SharedScanCounters
{
	pg_atomic_uint64 groups_read;
	pg_atomic_uint64 groups_skipped;
	pg_atomic_uint64 chunks_read;
	pg_atomic_uint64 chunks_skipped;
} SharedScanCounters;

#define SHARED_COUNTERS_SIZE	MAXALIGN(sizeof(SharedScanCounters))

typedef struct ColstoreScanState
{
	CustomScanState css;
	bool	   *needed;			/* [natts]: columns the plan reads */
	int			natts;
	ChunkPruner *pruner;
	SharedScanCounters *shared; /* parallel: in the DSM segment */
	bool		keys_ready;		/* pruning values evaluated for this scan */
	ColstoreScanCounters workers;	/* leader: the workers' totals */
} ColstoreScanState;

static Node *ColstoreScan_CreateCustomScanState(CustomScan *cscan);
static void ColstoreScan_BeginCustomScan(CustomScanState *node, EState *estate,
										 int eflags);
static TupleTableSlot *ColstoreScan_ExecCustomScan(CustomScanState *node);
static void ColstoreScan_EndCustomScan(CustomScanState *node);
static void ColstoreScan_ReScanCustomScan(CustomScanState *node);
static Size ColstoreScan_EstimateDSMCustomScan(CustomScanState *node,
											   ParallelContext *pcxt);
static void ColstoreScan_InitializeDSMCustomScan(CustomScanState *node,
												 ParallelContext *pcxt,
												 void *coordinate);
static void ColstoreScan_ReInitializeDSMCustomScan(CustomScanState *node,
												   ParallelContext *pcxt,
												   void *coordinate);
static void ColstoreScan_InitializeWorkerCustomScan(CustomScanState *node,
													shm_toc *toc,
													void *coordinate);
static void ColstoreScan_ShutdownCustomScan(CustomScanState *node);
static void ColstoreScan_ExplainCustomScan(CustomScanState *node,
										   List *ancestors, ExplainState *es);

static const CustomScanMethods ColstoreScanMethods = {
	.CustomName = "ColstoreScan",
	.CreateCustomScanState = ColstoreScan_CreateCustomScanState,
};

static const CustomExecMethods ColstoreScanExecMethods = {
	.CustomName = "ColstoreScan",
	.BeginCustomScan = ColstoreScan_BeginCustomScan,
	.ExecCustomScan = ColstoreScan_ExecCustomScan,
	.EndCustomScan = ColstoreScan_EndCustomScan,
	.ReScanCustomScan = ColstoreScan_ReScanCustomScan,
	.EstimateDSMCustomScan = ColstoreScan_EstimateDSMCustomScan,
	.InitializeDSMCustomScan = ColstoreScan_InitializeDSMCustomScan,
	.ReInitializeDSMCustomScan = ColstoreScan_ReInitializeDSMCustomScan,
	.InitializeWorkerCustomScan = ColstoreScan_InitializeWorkerCustomScan,
	.ShutdownCustomScan = ColstoreScan_ShutdownCustomScan,
	.ExplainCustomScan = ColstoreScan_ExplainCustomScan,
};

/* The methods a ColstoreScan plan node carries (for cscan_path.c). */
const CustomScanMethods *
ColstoreScanPlanMethods(void)
{
	return &ColstoreScanMethods;
}

/* Register the node type, so plans can be copied and sent to workers. */
void
ColstoreScanExecInit(void)
{
	RegisterCustomScanMethods(&ColstoreScanMethods);
}

static Node *
ColstoreScan_CreateCustomScanState(CustomScan *cscan)
{
	ColstoreScanState *state = palloc0(sizeof(ColstoreScanState));

	NodeSetTag(state, T_CustomScanState);
	state->css.methods = &ColstoreScanExecMethods;
	return (Node *) state;
}

/*
 * Mark the columns the plan's target list and quals reference; a whole-row
 * reference needs them all.
 */
static void
ComputeNeededColumns(ColstoreScanState *state)
{
	Plan	   *plan = state->css.ss.ps.plan;
	Index		scanrelid = ((Scan *) plan)->scanrelid;
	Bitmapset  *attrs = NULL;
	bool		whole_row;
	int			i;

	pull_varattnos((Node *) plan->targetlist, scanrelid, &attrs);
	pull_varattnos((Node *) plan->qual, scanrelid, &attrs);
	whole_row = bms_is_member(InvalidAttrNumber - FirstLowInvalidHeapAttributeNumber,
							  attrs);
	for (i = 0; i < state->natts; i++)
		state->needed[i] = whole_row ||
			bms_is_member(i + 1 - FirstLowInvalidHeapAttributeNumber, attrs);
}

static void
ColstoreScan_BeginCustomScan(CustomScanState *node, EState *estate, int eflags)
{
	ColstoreScanState *state = (ColstoreScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	TupleDesc	desc = RelationGetDescr(node->ss.ss_currentRelation);

	state->natts = desc->natts;
	state->needed = palloc0(sizeof(bool) * Max(desc->natts, 1));
	ComputeNeededColumns(state);
	/* after setrefs the clauses' Vars carry the scan's range table index */
	state->pruner = ChunkPrunerCreate(cscan->custom_exprs, cscan->scan.scanrelid,
									  desc, &node->ss.ps);
}

/* Narrow a freshly begun table scan to the plan's columns and keys. */
static void
ConfigureScan(ColstoreScanState *state)
{
	ColstoreScanConfigure(state->css.ss.ss_currentScanDesc, state->needed,
						  state->natts, ChunkPrunerRefutes, state->pruner);
}

static TupleTableSlot *
ColstoreScanNext(ScanState *ss)
{
	ColstoreScanState *state = (ColstoreScanState *) ss;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;

	if (ss->ss_currentScanDesc == NULL)
	{
		/* serial scan (a parallel one was begun with its DSM) */
		ss->ss_currentScanDesc = table_beginscan(ss->ss_currentRelation,
												 ss->ps.state->es_snapshot,
												 0, NULL);
		ConfigureScan(state);
	}
	if (!state->keys_ready)
	{
		ChunkPrunerEvaluate(state->pruner, ss->ps.ps_ExprContext);
		state->keys_ready = true;
	}
	if (table_scan_getnextslot(ss->ss_currentScanDesc, ForwardScanDirection, slot))
		return slot;
	return NULL;
}

/* Every qual is in plan.qual, which ExecScan checks for EPQ rows too. */
static bool
ColstoreScanRecheck(ScanState *ss, TupleTableSlot *slot)
{
	return true;
}

static TupleTableSlot *
ColstoreScan_ExecCustomScan(CustomScanState *node)
{
	return ExecScan(&node->ss, (ExecScanAccessMtd) ColstoreScanNext,
					(ExecScanRecheckMtd) ColstoreScanRecheck);
}

static void
ColstoreScan_EndCustomScan(CustomScanState *node)
{
	if (node->ss.ss_currentScanDesc != NULL)
		table_endscan(node->ss.ss_currentScanDesc);
}

static void
ColstoreScan_ReScanCustomScan(CustomScanState *node)
{
	ColstoreScanState *state = (ColstoreScanState *) node;

	/* parameters of the pruning values may have changed */
	state->keys_ready = false;
	if (node->ss.ss_currentScanDesc != NULL)
		table_rescan(node->ss.ss_currentScanDesc, NULL);
	ExecScanReScan(&node->ss);
}

static Size
ColstoreScan_EstimateDSMCustomScan(CustomScanState *node, ParallelContext *pcxt)
{
	return add_size(SHARED_COUNTERS_SIZE,
					table_parallelscan_estimate(node->ss.ss_currentRelation,
												node->ss.ps.state->es_snapshot));
}

/* The table AM's parallel scan descriptor, after the counters. */
static inline ParallelTableScanDesc
SharedTableScan(void *coordinate)
{
	return (ParallelTableScanDesc) ((char *) coordinate + SHARED_COUNTERS_SIZE);
}

/* Join the parallel scan in the DSM segment (leader and workers alike). */
static void
BeginParallelScan(ColstoreScanState *state, void *coordinate)
{
	state->shared = (SharedScanCounters *) coordinate;
	state->css.ss.ss_currentScanDesc =
		table_beginscan_parallel(state->css.ss.ss_currentRelation,
								 SharedTableScan(coordinate));
	ConfigureScan(state);
}

static void
ColstoreScan_InitializeDSMCustomScan(CustomScanState *node,
									 ParallelContext *pcxt, void *coordinate)
{
	ColstoreScanState *state = (ColstoreScanState *) node;
	SharedScanCounters *shared = (SharedScanCounters *) coordinate;

	pg_atomic_init_u64(&shared->groups_read, 0);
	pg_atomic_init_u64(&shared->groups_skipped, 0);
	pg_atomic_init_u64(&shared->chunks_read, 0);
	pg_atomic_init_u64(&shared->chunks_skipped, 0);
	table_parallelscan_initialize(node->ss.ss_currentRelation,
								  SharedTableScan(coordinate),
								  node->ss.ps.state->es_snapshot);
	BeginParallelScan(state, coordinate);
}

static void
ColstoreScan_ReInitializeDSMCustomScan(CustomScanState *node,
									   ParallelContext *pcxt, void *coordinate)
{
	table_parallelscan_reinitialize(node->ss.ss_currentRelation,
									SharedTableScan(coordinate));
}

static void
ColstoreScan_InitializeWorkerCustomScan(CustomScanState *node, shm_toc *toc,
										void *coordinate)
{
	BeginParallelScan((ColstoreScanState *) node, coordinate);
}

/*
 * Workers add their counts to the shared counters; the leader, whose
 * workers have finished by now when the scan ran to its end, copies the
 * totals before the DSM segment goes away.
 */
static void
ColstoreScan_ShutdownCustomScan(CustomScanState *node)
{
	ColstoreScanState *state = (ColstoreScanState *) node;
	ColstoreScanCounters mine = {0};

	/* shared is forgotten once counted, so each participant counts once */
	if (state->shared == NULL)
		return;
	if (IsParallelWorker())
	{
		if (node->ss.ss_currentScanDesc != NULL)
		{
			ColstoreScanAddCounters(node->ss.ss_currentScanDesc, &mine);
			pg_atomic_fetch_add_u64(&state->shared->groups_read, mine.groups_read);
			pg_atomic_fetch_add_u64(&state->shared->groups_skipped, mine.groups_skipped);
			pg_atomic_fetch_add_u64(&state->shared->chunks_read, mine.chunks_read);
			pg_atomic_fetch_add_u64(&state->shared->chunks_skipped, mine.chunks_skipped);
		}
		state->shared = NULL;
		return;
	}
	state->workers.groups_read += pg_atomic_read_u64(&state->shared->groups_read);
	state->workers.groups_skipped += pg_atomic_read_u64(&state->shared->groups_skipped);
	state->workers.chunks_read += pg_atomic_read_u64(&state->shared->chunks_read);
	state->workers.chunks_skipped += pg_atomic_read_u64(&state->shared->chunks_skipped);
	state->shared = NULL;
}

/*
 * EXPLAIN: the columns decoded ("Columns"), the clauses used for pruning
 * ("Pruning Quals", qualified like Filter: under VERBOSE), and under
 * ANALYZE the row groups and chunks read and skipped by all participants
 * (text format: two lines; other formats: four integer properties).
 */
static void
ColstoreScan_ExplainCustomScan(CustomScanState *node, List *ancestors,
							   ExplainState *es)
{
	ColstoreScanState *state = (ColstoreScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	TupleDesc	desc = RelationGetDescr(node->ss.ss_currentRelation);
	List	   *columns = NIL;
	int			i;

	for (i = 0; i < state->natts; i++)
		if (state->needed[i] && !TupleDescAttr(desc, i)->attisdropped)
			columns = lappend(columns,
							  pstrdup(quote_identifier(NameStr(TupleDescAttr(desc, i)->attname))));
	if (columns == NIL)
		ExplainPropertyText("Columns", "none", es);
	else
		ExplainPropertyList("Columns", columns, es);

	if (cscan->custom_exprs != NIL)
	{
		List	   *context;
		char	   *text;

		context = set_deparse_context_plan(es->deparse_cxt, &cscan->scan.plan,
										   ancestors);
		/* prefix columns with the table name when Filter: does (VERBOSE) */
		text = deparse_expression((Node *) make_ands_explicit(cscan->custom_exprs),
								  context, es->verbose, false);
		ExplainPropertyText("Pruning Quals", text, es);
	}

	if (es->analyze)
	{
		ColstoreScanCounters total = state->workers;

		if (node->ss.ss_currentScanDesc != NULL)
			ColstoreScanAddCounters(node->ss.ss_currentScanDesc, &total);
		ColstoreScanExplainCounters(&total, es);
	}
}

/*
 * ColstoreScanExplainCounters
 *		EXPLAIN ANALYZE's report of row groups and chunks read and skipped:
 *		two lines in text format, four integer properties otherwise.
 */
void
ColstoreScanExplainCounters(const ColstoreScanCounters *c, ExplainState *es)
{
	if (es->format == EXPLAIN_FORMAT_TEXT)
	{
		ExplainPropertyText("Row Groups",
							psprintf(UINT64_FORMAT " read, " UINT64_FORMAT " skipped",
									 c->groups_read, c->groups_skipped), es);
		ExplainPropertyText("Chunks",
							psprintf(UINT64_FORMAT " read, " UINT64_FORMAT " skipped",
									 c->chunks_read, c->chunks_skipped), es);
		return;
	}
	ExplainPropertyUInteger("Row Groups Read", NULL, c->groups_read, es);
	ExplainPropertyUInteger("Row Groups Skipped", NULL, c->groups_skipped, es);
	ExplainPropertyUInteger("Chunks Read", NULL, c->chunks_read, es);
	ExplainPropertyUInteger("Chunks Skipped", NULL, c->chunks_skipped, es);
}
