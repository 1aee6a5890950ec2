/*-------------------------------------------------------------------------
 *
 * cscan_exec.c
 *	  Executor side of the colstore custom scan (ColstoreScan).
 *
 * The node runs a colstore sequential scan (scan_engine.h) narrowed by
 * ColstoreScanConfigure: only the columns its plan's target list and quals
 * reference are decoded, and chunks the pruning keys refute are skipped.
 * The quals chunk_filter.c decides exactly (PruningClauseIsExact; the
 * plan lists them in custom_private) are not executor quals: they filter
 * each chunk's rows in one pass over the decoded key columns
 * (ColstoreScanSetRowFilter), so rows they reject never become tuples, the
 * other columns of a chunk none of whose rows pass are never decoded, and
 * a numeric column they compare as scaled integers is never turned into
 * numerics.  Should a clause the planner chose yield no filter key here,
 * the clauses become ordinary quals again.  Rows EvalPlanQual
 * substitutes are checked against them by the recheck method.  The
 * remaining quals are ExecScan's, checked on every row returned.  Pruning
 * only skips chunks in which no row can pass.
 *
 * Under a key-range join (key_range_exec.c) the plan also names a column
 * and two executor parameters (cscan_exec.h): the node adds "column >= $lo
 * AND column <= $hi" to its pruning keys and batch filter, and the join
 * sets the parameters and rescans the node for each range.
 *
 * Parallel query: the node is parallel aware.  The shared state is the
 * table AM's own parallel scan descriptor (row groups handed out through
 * an atomic counter) preceded by counters the workers add their row group,
 * chunk and filtered row counts to when they shut down, so EXPLAIN ANALYZE
 * shows the totals of all participants (exact when the scan ran to its end;
 * a scan stopped early, e.g. by LIMIT, may show the leader's part only).
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
#include "catalog/pg_type.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "port/atomics.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

#include "cscan/chunk_pruning.h"
#include "cscan/cscan_exec.h"
#include "cscan/join_filter.h"
#include "cscan/semi_join_distinct.h"
#include "cscan/key_range_join.h"
#include "cscan/scan_order.h"
#include "storage/integer_order.h"
#include "tableam/scan_engine.h"

/* Shared by the participants of a parallel scan; the AM's part follows. */
typedef struct SharedScanCounters
{
	pg_atomic_uint64 groups_read;
	pg_atomic_uint64 groups_skipped;
	pg_atomic_uint64 chunks_read;
	pg_atomic_uint64 chunks_skipped;
	pg_atomic_uint64 rows_filtered;
	pg_atomic_uint64 rows_skipped;
	pg_atomic_uint64 rows_join_filtered;
	pg_atomic_uint64 rows_distinct_removed;
} SharedScanCounters;

#define SHARED_COUNTERS_SIZE	MAXALIGN(sizeof(SharedScanCounters))

typedef struct ColstoreScanState
{
	CustomScanState css;
	bool	   *needed;			/* [natts]: columns the plan reads */
	bool		reads_system_columns;	/* ctid, tableoid, ... */
	int			natts;
	ChunkPruner *pruner;
	List	   *range_clauses;	/* under a key-range join: its comparisons */
	List	   *filter_clauses; /* quals decided in batches, or NIL */
	ChunkPruner *row_filter;	/* their keys, or NULL */
	ExprState  *filter_qual;	/* the same, for EvalPlanQual's rows */
	SharedScanCounters *shared; /* parallel: in the DSM segment */
	bool		keys_ready;		/* pruning values evaluated for this scan */
	ScanOrder  *order;			/* ordered plan: how the order is kept */
	ColstoreScanCounters workers;	/* leader: the workers' totals */
	List	   *join_filters;	/* from hash joins above (JoinFilter *) */
	uint64		workers_join_filtered;	/* leader: the workers' total */
	DistinctFilter *distinct;	/* under a semi or anti join's hash, or NULL */
	uint64		workers_distinct_removed;	/* leader: the workers' total */
	/* a merge join's inner side: skip rows below the outer side's key */
	struct ColstoreScanState *skip_outer;	/* the outer side, or NULL */
	/* ... or the merge join, whose current outer row's column skip_attno */
	MergeJoinState *skip_join;
	AttrNumber	skip_attno;
	Oid			skip_type;		/* the key's type */
} ColstoreScanState;

static Node *ColstoreScan_CreateCustomScanState(CustomScan *cscan);
static void ColstoreScan_BeginCustomScan(CustomScanState *node, EState *estate,
										 int eflags);
static TupleTableSlot *ColstoreScan_ExecCustomScan(CustomScanState *node);
static void ColstoreScan_EndCustomScan(CustomScanState *node);
static void ColstoreScan_ReScanCustomScan(CustomScanState *node);
static void ColstoreScan_MarkPosCustomScan(CustomScanState *node);
static void ColstoreScan_RestrPosCustomScan(CustomScanState *node);
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
	.MarkPosCustomScan = ColstoreScan_MarkPosCustomScan,
	.RestrPosCustomScan = ColstoreScan_RestrPosCustomScan,
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
 * Mark the columns the plan's target list and quals reference (a whole-row
 * reference needs them all), and note whether they read system columns.  Columns only the batch filter reads are not
 * among them: the filter reads its columns a chunk at a time, and rows
 * never need them.
 */
static void
ComputeNeededColumns(ColstoreScanState *state)
{
	Plan	   *plan = state->css.ss.ps.plan;
	Index		scanrelid = ((Scan *) plan)->scanrelid;
	Bitmapset  *attrs = NULL;
	bool		whole_row;
	int			first;
	int			i;

	pull_varattnos((Node *) plan->targetlist, scanrelid, &attrs);
	pull_varattnos((Node *) plan->qual, scanrelid, &attrs);
	whole_row = bms_is_member(InvalidAttrNumber - FirstLowInvalidHeapAttributeNumber,
							  attrs);
	first = bms_next_member(attrs, -1);
	state->reads_system_columns = first >= 0 &&
		first + FirstLowInvalidHeapAttributeNumber < InvalidAttrNumber;
	for (i = 0; i < state->natts; i++)
		state->needed[i] = whole_row ||
			bms_is_member(i + 1 - FirstLowInvalidHeapAttributeNumber, attrs);
}

/*
 * KeyRangeClauses
 *		The comparisons "column >= $lo" and "column <= $hi" of a scan under a
 *		key-range join (key_range, from ColstoreScanPlanKeyRange), with the
 *		operators of the column type's default btree operator family; the
 *		join sets the two parameters before each rescan.
 */
static List *
KeyRangeClauses(List *key_range, Index scanrelid, TupleDesc desc)
{
	AttrNumber	attno = (AttrNumber) intVal(linitial(key_range));
	Form_pg_attribute att = TupleDescAttr(desc, attno - 1);
	Oid			opnos[2];
	List	   *result = NIL;
	int			i;

	if (!KeyRangeComparisons(att->atttypid, &opnos[0], &opnos[1]))
		elog(ERROR, "no btree comparisons for key range column \"%s\"",
			 NameStr(att->attname));
	for (i = 0; i < 2; i++)
	{
		Param	   *param = makeNode(Param);
		OpExpr	   *op;

		param->paramkind = PARAM_EXEC;
		param->paramid = intVal(list_nth(key_range, i + 1));
		param->paramtype = att->atttypid;
		param->paramtypmod = -1;
		param->paramcollid = InvalidOid;
		param->location = -1;
		op = (OpExpr *) make_opclause(opnos[i], BOOLOID, false,
									  (Expr *) makeVar(scanrelid, attno, att->atttypid,
													   att->atttypmod, att->attcollation, 0),
									  (Expr *) param, InvalidOid, att->attcollation);
		set_opfuncid(op);
		result = lappend(result, op);
	}
	return result;
}

static void
ColstoreScan_BeginCustomScan(CustomScanState *node, EState *estate, int eflags)
{
	ColstoreScanState *state = (ColstoreScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	TupleDesc	desc = RelationGetDescr(node->ss.ss_currentRelation);
	List	   *filter_positions = ColstoreScanPlanFilterPositions(cscan);
	AttrNumber	order_attno = ColstoreScanPlanOrderColumn(cscan);
	List	   *key_range = ColstoreScanPlanKeyRange(cscan);
	ListCell   *lc;

	if (order_attno != InvalidAttrNumber)
		state->order = ScanOrderCreate(order_attno,
									   (eflags & (EXEC_FLAG_MARK | EXEC_FLAG_BACKWARD)) != 0);
	state->natts = desc->natts;
	state->needed = palloc0(sizeof(bool) * Max(desc->natts, 1));
	ComputeNeededColumns(state);
	/* after setrefs the clauses' Vars carry the scan's range table index */
	if (key_range != NIL)
		state->range_clauses = KeyRangeClauses(key_range, cscan->scan.scanrelid, desc);
	state->pruner = ChunkPrunerCreate(list_concat_copy(cscan->custom_exprs,
													   state->range_clauses),
									  cscan->scan.scanrelid, desc, &node->ss.ps);
	foreach(lc, filter_positions)
		state->filter_clauses = lappend(state->filter_clauses,
										list_nth(cscan->custom_exprs, lfirst_int(lc)));
	state->filter_clauses = list_concat(state->filter_clauses, state->range_clauses);
	if (state->filter_clauses == NIL)
		return;
	state->row_filter = ChunkPrunerCreate(state->filter_clauses,
										  cscan->scan.scanrelid, desc,
										  &node->ss.ps);
	if (ChunkPrunerNumKeys(state->row_filter) != list_length(state->filter_clauses))
	{
		/*
		 * A clause without a key would pass rows it must reject: let ExecScan
		 * evaluate them all as quals instead (PruningClauseIsExact and the
		 * key builder are meant to agree; this is the safety net).
		 */
		node->ss.ps.qual = ExecInitQual(list_concat_copy(cscan->scan.plan.qual,
														 state->filter_clauses),
										&node->ss.ps);
		state->row_filter = NULL;
		state->filter_clauses = NIL;
		return;
	}
	state->filter_qual = ExecInitQual(state->filter_clauses, &node->ss.ps);
}

/* ColstoreRowFilter of the node: its exact quals over the chunk's rows. */
static void
FilterByBatchQuals(void *arg, TableScanDesc scan, int nrows, bool *selected)
{
	ColstoreScanState *state = (ColstoreScanState *) arg;
	ListCell   *lc;

	if (state->row_filter != NULL)
		ChunkPrunerFilterRows(state->row_filter, scan, nrows, selected);
	foreach(lc, state->join_filters)
		JoinFilterApply((JoinFilter *) lfirst(lc), scan, nrows, selected);
	/* last: only rows every filter kept count as returned */
	if (state->distinct != NULL)
		DistinctFilterApply(state->distinct, scan, nrows, selected);
}

/*
 * ColstoreKeyBound of a merge join's inner side: the key of the row its
 * outer side returned last, which is the outer row the join is matching
 * (ExecScan returns the row it stored in its scan slot), unless that side
 * has none (before its first row, after its last, a NULL key) or an
 * EvalPlanQual recheck runs (its rows come from elsewhere).
 */
static bool
OuterKeyBound(void *arg, int64 *bound)
{
	ColstoreScanState *state = (ColstoreScanState *) arg;
	TupleTableSlot *outer;
	AttrNumber	attno;
	Datum		key;
	bool		isnull;

	if (state->skip_outer != NULL)
	{
		outer = state->skip_outer->css.ss.ss_ScanTupleSlot;
		attno = state->skip_outer->order->attno;
	}
	else
	{
		/* NULL before the join's first outer row and after each rescan */
		outer = state->skip_join->mj_OuterTupleSlot;
		attno = state->skip_attno;
	}
	/* an EvalPlanQual recheck hands the join substituted rows instead */
	if (TupIsNull(outer) || state->css.ss.ps.state->es_epq_active != NULL)
		return false;
	key = slot_getattr(outer, attno, &isnull);
	if (isnull)
		return false;
	*bound = SignedIntegerDatum(state->skip_type, key);
	return true;
}

/* Narrow a freshly begun table scan to the plan's columns, keys and filter. */
static void
ConfigureScan(ColstoreScanState *state)
{
	TableScanDesc scan = state->css.ss.ss_currentScanDesc;

	ColstoreScanConfigure(scan, state->needed, state->natts,
						  ChunkPrunerRefutes, state->pruner);
	if (state->row_filter != NULL || state->join_filters != NIL || state->distinct != NULL)
		ColstoreScanSetRowFilter(scan, FilterByBatchQuals, state);
	if (state->skip_outer != NULL || state->skip_join != NULL)
		ColstoreScanSetSkipBelow(scan, state->order->attno - 1, state->skip_type,
								 OuterKeyBound, state);
}

/*
 * ColstoreScanSkipBelowOuter
 *		Make inner, the inner side of a merge join whose outer side is outer,
 *		skip the rows whose key is below the key of the outer row the join is
 *		matching; both are ColstoreScans ordered by their key, of type type
 *		(one TypeHasSignedIntegerOrder accepts), which the join's first merge
 *		clause equates in ascending order.  Only for joins that discard
 *		such inner rows: inner, left, semi and anti joins, which return no
 *		inner row without its outer match (key_range_exec.c checks all
 *		this).  Called after ExecutorStart, before the scans began.
 */
void
ColstoreScanSkipBelowOuter(PlanState *inner, PlanState *outer, Oid type)
{
	ColstoreScanState *state = (ColstoreScanState *) inner;

	Assert(IsColstoreScanState(inner) && IsColstoreScanState(outer));
	Assert(ColstoreScanOrderAttno(inner) != InvalidAttrNumber &&
		   ColstoreScanOrderAttno(outer) != InvalidAttrNumber);
	state->skip_outer = (ColstoreScanState *) outer;
	state->skip_type = type;
	if (state->css.ss.ss_currentScanDesc != NULL)
		ConfigureScan(state);
}

/*
 * ColstoreScanSkipBelowJoinOuter
 *		As ColstoreScanSkipBelowOuter, for a merge join whose outer side is
 *		not such a scan (a Sort, a hash join, ...): inner, an ordered
 *		ColstoreScan, skips the rows whose key is below column outer_attno
 *		of the join's current outer row (mj_OuterTupleSlot: the row the
 *		join is matching, whose keys only grow).  merge_skip.c checks the
 *		join.  Called after ExecutorStart, before the scans began.
 */
void
ColstoreScanSkipBelowJoinOuter(PlanState *inner, PlanState *join,
							   AttrNumber outer_attno, Oid type)
{
	ColstoreScanState *state = (ColstoreScanState *) inner;

	Assert(IsColstoreScanState(inner) && IsA(join, MergeJoinState));
	Assert(ColstoreScanOrderAttno(inner) != InvalidAttrNumber);
	state->skip_join = (MergeJoinState *) join;
	state->skip_attno = outer_attno;
	state->skip_type = type;
	if (state->css.ss.ss_currentScanDesc != NULL)
		ConfigureScan(state);
}

/*
 * ColstoreScanOrderAttno
 *		The column (1-based) an ordered ColstoreScan returns its rows in
 *		ascending order of, or InvalidAttrNumber.
 */
AttrNumber
ColstoreScanOrderAttno(PlanState *ps)
{
	ColstoreScanState *state = (ColstoreScanState *) ps;

	Assert(IsColstoreScanState(ps));
	return state->order != NULL ? state->order->attno : InvalidAttrNumber;
}

/* Is ps a ColstoreScan's state (join_filter.c links hash joins to them)? */
bool
IsColstoreScanState(PlanState *ps)
{
	return IsA(ps, CustomScanState) &&
		((CustomScanState *) ps)->methods == &ColstoreScanExecMethods;
}

/*
 * ColstoreScanSetJoinFilter
 *		Have the scan drop, a batch at a time, the rows filter says its hash
 *		join cannot match; called after ExecutorStart, before the scan began.
 */
void
ColstoreScanSetJoinFilter(PlanState *ps, JoinFilter *filter)
{
	ColstoreScanState *state = (ColstoreScanState *) ps;

	Assert(IsColstoreScanState(ps));
	state->join_filters = lappend(state->join_filters, filter);
	if (state->css.ss.ss_currentScanDesc != NULL)
		ConfigureScan(state);
}

/*
 * ColstoreScanSetDistinct
 *		Have the scan, which fills a semi or anti hash join's hash table,
 *		drop rows equal to one it returned since its last rescan
 *		(semi_join_distinct.c), if the columns it reads allow; called after
 *		ExecutorStart, before the scan began.
 */
void
ColstoreScanSetDistinct(PlanState *ps)
{
	ColstoreScanState *state = (ColstoreScanState *) ps;

	Assert(IsColstoreScanState(ps));
	/* rows equal in their columns differ in ctid */
	if (state->distinct != NULL || state->reads_system_columns)
		return;
	state->distinct = DistinctFilterCreate(RelationGetDescr(state->css.ss.ss_currentRelation),
										   state->needed);
	if (state->distinct != NULL && state->css.ss.ss_currentScanDesc != NULL)
		ConfigureScan(state);
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
		if (state->row_filter != NULL)
			ChunkPrunerEvaluate(state->row_filter, ss->ps.ps_ExprContext);
		state->keys_ready = true;
	}
	if (state->order != NULL
		? ScanOrderNext(state->order, ss->ss_currentScanDesc, slot)
		: table_scan_getnextslot(ss->ss_currentScanDesc, ForwardScanDirection, slot))
		return slot;
	return NULL;
}

/*
 * A row EvalPlanQual substitutes for the scan's must pass the batch
 * filter's clauses (ExecScan then checks plan.qual, as for every row).
 */
static bool
ColstoreScanRecheck(ScanState *ss, TupleTableSlot *slot)
{
	ColstoreScanState *state = (ColstoreScanState *) ss;
	ExprContext *econtext = ss->ps.ps_ExprContext;

	if (state->filter_qual == NULL)
		return true;
	econtext->ecxt_scantuple = slot;
	return ExecQualAndReset(state->filter_qual, econtext);
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
	ColstoreScanState *state = (ColstoreScanState *) node;

	if (state->order != NULL)
		ScanOrderEnd(state->order);
	if (node->ss.ss_currentScanDesc != NULL)
		table_endscan(node->ss.ss_currentScanDesc);
}

static void
ColstoreScan_ReScanCustomScan(CustomScanState *node)
{
	ColstoreScanState *state = (ColstoreScanState *) node;
	ListCell   *lc;

	/* parameters of the pruning values may have changed */
	state->keys_ready = false;
	foreach(lc, state->join_filters)
		JoinFilterReset((JoinFilter *) lfirst(lc));
	if (state->distinct != NULL)
		DistinctFilterReset(state->distinct);
	if (state->order != NULL)
		ScanOrderReset(state->order);
	if (node->ss.ss_currentScanDesc != NULL)
		table_rescan(node->ss.ss_currentScanDesc, NULL);
	ExecScanReScan(&node->ss);
}

/*
 * In an EvalPlanQual recheck that substitutes this relation's row, the
 * scan is not run and mark/restore have nothing to do (as for index scans).
 */
static bool
SubstitutedByEPQ(CustomScanState *node)
{
	EState	   *estate = node->ss.ps.state;
	Index		scanrelid = ((Scan *) node->ss.ps.plan)->scanrelid;
	EPQState   *epqstate = estate->es_epq_active;

	return epqstate != NULL &&
		(epqstate->relsubs_slot[scanrelid - 1] != NULL ||
		 epqstate->relsubs_rowmark[scanrelid - 1] != NULL);
}

/*
 * Mark and restore (merge join's inner side): offered only for serial
 * ordered plans (cscan_path.c), whose rows have been fetched by now.
 */
static void
ColstoreScan_MarkPosCustomScan(CustomScanState *node)
{
	ColstoreScanState *state = (ColstoreScanState *) node;

	if (SubstitutedByEPQ(node))
		return;
	if (state->order == NULL || node->ss.ss_currentScanDesc == NULL)
		elog(ERROR, "unexpected mark of an unordered or unstarted ColstoreScan");
	ScanOrderMark(state->order, node->ss.ss_currentScanDesc);
}

static void
ColstoreScan_RestrPosCustomScan(CustomScanState *node)
{
	ColstoreScanState *state = (ColstoreScanState *) node;

	if (SubstitutedByEPQ(node))
		return;
	if (state->order == NULL || node->ss.ss_currentScanDesc == NULL)
		elog(ERROR, "unexpected restore of an unordered or unstarted ColstoreScan");
	ScanOrderRestore(state->order, node->ss.ss_currentScanDesc,
					 node->ss.ss_ScanTupleSlot->tts_tupleDescriptor);
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
	pg_atomic_init_u64(&shared->rows_filtered, 0);
	pg_atomic_init_u64(&shared->rows_skipped, 0);
	pg_atomic_init_u64(&shared->rows_join_filtered, 0);
	pg_atomic_init_u64(&shared->rows_distinct_removed, 0);
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
	ListCell   *lc;

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
			pg_atomic_fetch_add_u64(&state->shared->rows_filtered, mine.rows_filtered);
			pg_atomic_fetch_add_u64(&state->shared->rows_skipped, mine.rows_skipped);
		}
		foreach(lc, state->join_filters)
			pg_atomic_fetch_add_u64(&state->shared->rows_join_filtered,
									JoinFilterRowsRemoved((JoinFilter *) lfirst(lc)));
		if (state->distinct != NULL)
			pg_atomic_fetch_add_u64(&state->shared->rows_distinct_removed,
									DistinctFilterRowsRemoved(state->distinct));
		state->shared = NULL;
		return;
	}
	state->workers.groups_read += pg_atomic_read_u64(&state->shared->groups_read);
	state->workers.groups_skipped += pg_atomic_read_u64(&state->shared->groups_skipped);
	state->workers.chunks_read += pg_atomic_read_u64(&state->shared->chunks_read);
	state->workers.chunks_skipped += pg_atomic_read_u64(&state->shared->chunks_skipped);
	state->workers.rows_filtered += pg_atomic_read_u64(&state->shared->rows_filtered);
	state->workers.rows_skipped += pg_atomic_read_u64(&state->shared->rows_skipped);
	state->workers_join_filtered += pg_atomic_read_u64(&state->shared->rows_join_filtered);
	state->workers_distinct_removed += pg_atomic_read_u64(&state->shared->rows_distinct_removed);
	state->shared = NULL;
}

/*
 * clauses as EXPLAIN shows them: the key-range comparisons' parameters,
 * which no plan node above sets (the key-range join sets them directly),
 * become external ones, which ruleutils prints as $n without looking for
 * the node that sets them (an assertion-checked server insists on that).
 */
static List *
ShownRangeClauses(ColstoreScanState *state, List *clauses)
{
	List	   *shown = NIL;
	ListCell   *lc;

	foreach(lc, clauses)
	{
		Node	   *clause = lfirst(lc);

		if (list_member_ptr(state->range_clauses, clause))
		{
			OpExpr	   *op = (OpExpr *) copyObject(clause);

			castNode(Param, lsecond(op->args))->paramkind = PARAM_EXTERN;
			clause = (Node *) op;
		}
		shown = lappend(shown, clause);
	}
	return shown;
}

/* EXPLAIN property label: clauses deparsed as Filter: shows them. */
void
ColstoreExplainClauses(const char *label, List *clauses, CustomScanState *node,
					   List *ancestors, ExplainState *es)
{
	List	   *context;
	char	   *text;

	context = set_deparse_context_plan(es->deparse_cxt, node->ss.ps.plan,
									   ancestors);
	/* prefix columns with the table name when Filter: does (VERBOSE) */
	text = deparse_expression((Node *) make_ands_explicit(clauses),
							  context, es->verbose, false);

	ExplainPropertyText(label, text, es);
}

/*
 * "Rows Removed by <label>", as core shows "Rows Removed by Filter": per
 * loop, and in text format only when not zero.
 */
static void
ExplainRowsRemoved(ColstoreScanState *state, const char *label, double removed,
				   ExplainState *es)
{
	Instrumentation *instr = state->css.ss.ps.instrument;
	double		nloops = instr != NULL ? instr->nloops : 0;

	if (nloops > 0)
		removed /= nloops;
	if (removed > 0 || es->format != EXPLAIN_FORMAT_TEXT)
		ExplainPropertyFloat(psprintf("Rows Removed by %s", label), NULL, removed, 0, es);
}

/*
 * EXPLAIN: the columns decoded ("Columns"), the clauses used for pruning
 * ("Pruning Quals") and those that filter rows a chunk at a time ("Batch
 * Filter"), qualified like Filter: under VERBOSE, and under ANALYZE the row
 * groups and chunks read and skipped by all participants (text format: two
 * lines; other formats: four integer properties) and the rows the batch
 * filter removed.
 */
static void
ColstoreScan_ExplainCustomScan(CustomScanState *node, List *ancestors,
							   ExplainState *es)
{
	ColstoreScanState *state = (ColstoreScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	TupleDesc	desc = RelationGetDescr(node->ss.ss_currentRelation);
	List	   *columns = NIL;
	Bitmapset  *filter_attrs = NULL;
	ListCell   *lc;
	int			i;

	/* the columns rows need, and those the batch filter reads */
	pull_varattnos((Node *) state->filter_clauses, cscan->scan.scanrelid,
				   &filter_attrs);
	for (i = 0; i < state->natts; i++)
		if ((state->needed[i] ||
			 bms_is_member(i + 1 - FirstLowInvalidHeapAttributeNumber, filter_attrs)) &&
			!TupleDescAttr(desc, i)->attisdropped)
			columns = lappend(columns,
							  pstrdup(quote_identifier(NameStr(TupleDescAttr(desc, i)->attname))));
	if (columns == NIL)
		ExplainPropertyText("Columns", "none", es);
	else
		ExplainPropertyList("Columns", columns, es);

	if (state->order != NULL)
		ExplainPropertyText("Ordered By",
							quote_identifier(NameStr(TupleDescAttr(desc, state->order->attno - 1)->attname)),
							es);
	if (cscan->custom_exprs != NIL || state->range_clauses != NIL)
		ColstoreExplainClauses("Pruning Quals",
							   ShownRangeClauses(state, list_concat_copy(cscan->custom_exprs,
																		 state->range_clauses)),
							   node, ancestors, es);
	if (state->filter_clauses != NIL)
		ColstoreExplainClauses("Batch Filter", ShownRangeClauses(state, state->filter_clauses),
							   node, ancestors, es);
	foreach(lc, state->join_filters)
		ExplainPropertyList("Hash Join Filter", JoinFilterColumns((JoinFilter *) lfirst(lc)), es);
	if (state->distinct != NULL)
		ExplainPropertyBool("Semi Join Distinct", true, es);

	if (es->analyze)
	{
		ColstoreScanCounters total = state->workers;

		if (node->ss.ss_currentScanDesc != NULL)
			ColstoreScanAddCounters(node->ss.ss_currentScanDesc, &total);
		ColstoreScanExplainCounters(&total, es);
		if (state->filter_clauses != NIL)
			ExplainRowsRemoved(state, "Batch Filter", (double) total.rows_filtered, es);
		if (state->skip_outer != NULL || state->skip_join != NULL)
			ExplainRowsRemoved(state, "Merge Skip", (double) total.rows_skipped, es);
		if (state->join_filters != NIL)
		{
			double		removed = (double) state->workers_join_filtered;

			foreach(lc, state->join_filters)
				removed += (double) JoinFilterRowsRemoved((JoinFilter *) lfirst(lc));
			ExplainRowsRemoved(state, "Hash Join Filter", removed, es);
		}
		if (state->distinct != NULL)
			ExplainRowsRemoved(state, "Semi Join Distinct",
							   (double) (state->workers_distinct_removed +
										 DistinctFilterRowsRemoved(state->distinct)), es);
		/* whether this process had to sort because rows came out of order */
		if (state->order != NULL)
			ExplainPropertyBool("Run-Time Sort", state->order->ever_sorted, es);
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
