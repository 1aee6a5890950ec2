/*-------------------------------------------------------------------------
 *
 * agg_exec.c
 *	  Executor side of ColstoreAgg: aggregates folded from decoded chunks.
 *
 * On its first call the node runs a colstore scan in batches
 * (ColstoreScanNextBatch: one chunk at a time, chunks the conditions refute
 * skipped), marks the rows of each batch that pass the conditions
 * (ChunkPrunerFilterRows, exact for the conditions agg_path.c accepts),
 * gives each selected row its group (agg_groups.c; one group without GROUP
 * BY) and folds the selected values into each aggregate's per-group states
 * (agg_fold.c).  Then it returns one row per group: without GROUP BY
 * exactly one, with GROUP BY none for empty input, as Agg does.  The scan
 * sees exactly the rows a sequential scan with the same snapshot sees.
 * Under a Gather each participant folds its share of a parallel scan and
 * the last to finish returns everybody's merged groups (agg_parallel.c).
 *
 * The scan tuple is the node's custom_scan_tlist: the aggregates' results,
 * the grouping keys' values, then NULL for the other columns the
 * conditions read (they are there only so setrefs can resolve the
 * conditions); the target list is projected from it.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_exec.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/tableam.h"
#include "catalog/pg_type.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

#include "cscan/agg_classify.h"
#include "cscan/agg_exec.h"
#include "cscan/agg_fold.h"
#include "cscan/agg_groups.h"
#include "cscan/agg_key_expr.h"
#include "cscan/agg_parallel.h"
#include "cscan/agg_sorted.h"
#include "cscan/chunk_pruning.h"
#include "cscan/cscan_exec.h"
#include "storage/integer_order.h"
#include "tableam/scan_engine.h"

/* groups up to which a batch's rows are sorted by group (SortRowsByGroup) */
#define AGG_SORT_GROUPS_MAX 256

typedef struct ColstoreAggState
{
	CustomScanState css;
	Relation	rel;
	Index		relid;			/* the table's range table index */
	int			naggs;
	AggFold    *aggs;
	int			nkeys;			/* grouping keys (0: no GROUP BY), in the scan
								 * tuple right after the naggs aggregates */
	GroupKeySpec *keys;
	GroupKeyExpr **key_exprs;	/* [nkeys]: a grouping expression's, or NULL
								 * for a plain column */
	ChunkPruner *pruner;
	MemoryContext fold_cxt;		/* groups and states of one execution */
	MemoryContext batch_cxt;	/* scratch memory of one batch */
	GroupTable *groups;			/* NULL without GROUP BY */
	bool	   *selected;		/* [batch_size] */
	int		   *rows;			/* [batch_size]: the row list of selected */
	int		   *by_group;		/* [batch_size]: the selected rows by group */
	int			group_start[AGG_SORT_GROUPS_MAX + 1];
	bool		sort_by_group;	/* an aggregate folds rows by group */
	uint64		batchno;		/* batches read, in all executions (the
								 * numeric expressions' results are kept by
								 * batch number) */
	uint32	   *row_groups;		/* [batch_size] */
	int			batch_size;
	bool		computed;		/* the groups are complete */
	uint32		next_group;		/* the next group to return */
	uint32		ngroups;
	AggShared  *shared;			/* parallel: in the DSM segment, or NULL */
	ColstoreScanCounters counters;
	bool		sorted;			/* sorted grouping (agg_sorted.c) */
	SortedAgg  *sorted_agg;		/* its execution, or NULL */
	bool		sorted_fell_back;	/* some execution fell back (EXPLAIN) */
} ColstoreAggState;

static Node *ColstoreAgg_CreateCustomScanState(CustomScan *cscan);
static void ColstoreAgg_BeginCustomScan(CustomScanState *node, EState *estate,
										int eflags);
static TupleTableSlot *ColstoreAgg_ExecCustomScan(CustomScanState *node);
static void ColstoreAgg_EndCustomScan(CustomScanState *node);
static void ColstoreAgg_ReScanCustomScan(CustomScanState *node);
static void ColstoreAgg_ExplainCustomScan(CustomScanState *node, List *ancestors,
										  ExplainState *es);
static Size ColstoreAgg_EstimateDSMCustomScan(CustomScanState *node,
											  ParallelContext *pcxt);
static void ColstoreAgg_InitializeDSMCustomScan(CustomScanState *node,
												ParallelContext *pcxt,
												void *coordinate);
static void ColstoreAgg_ReInitializeDSMCustomScan(CustomScanState *node,
												  ParallelContext *pcxt,
												  void *coordinate);
static void ColstoreAgg_InitializeWorkerCustomScan(CustomScanState *node,
												   shm_toc *toc,
												   void *coordinate);
static void ColstoreAgg_ShutdownCustomScan(CustomScanState *node);

static const CustomScanMethods ColstoreAggMethods = {
	.CustomName = "ColstoreAgg",
	.CreateCustomScanState = ColstoreAgg_CreateCustomScanState,
};

static const CustomExecMethods ColstoreAggExecMethods = {
	.CustomName = "ColstoreAgg",
	.BeginCustomScan = ColstoreAgg_BeginCustomScan,
	.ExecCustomScan = ColstoreAgg_ExecCustomScan,
	.EndCustomScan = ColstoreAgg_EndCustomScan,
	.ReScanCustomScan = ColstoreAgg_ReScanCustomScan,
	.ExplainCustomScan = ColstoreAgg_ExplainCustomScan,
	.EstimateDSMCustomScan = ColstoreAgg_EstimateDSMCustomScan,
	.InitializeDSMCustomScan = ColstoreAgg_InitializeDSMCustomScan,
	.ReInitializeDSMCustomScan = ColstoreAgg_ReInitializeDSMCustomScan,
	.InitializeWorkerCustomScan = ColstoreAgg_InitializeWorkerCustomScan,
	.ShutdownCustomScan = ColstoreAgg_ShutdownCustomScan,
};

/* The methods a ColstoreAgg plan node carries (for agg_path.c). */
const CustomScanMethods *
ColstoreAggPlanMethods(void)
{
	return &ColstoreAggMethods;
}

/* Register the node type, so plans can be copied. */
void
ColstoreAggExecInit(void)
{
	RegisterCustomScanMethods(&ColstoreAggMethods);
}

static Node *
ColstoreAgg_CreateCustomScanState(CustomScan *cscan)
{
	ColstoreAggState *state = palloc0(sizeof(ColstoreAggState));

	NodeSetTag(state, T_CustomScanState);
	state->css.methods = &ColstoreAggExecMethods;
	return (Node *) state;
}

/* Replace INDEX_VAR references (setrefs' work) by the scan tuple's Vars. */
static Node *
ResolveIndexVars(Node *node, List *scan_tlist)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varno == INDEX_VAR)
	{
		TargetEntry *te = list_nth_node(TargetEntry, scan_tlist,
										((Var *) node)->varattno - 1);

		return copyObject((Node *) te->expr);
	}
	return expression_tree_mutator(node, ResolveIndexVars, scan_tlist);
}

/*
 * Read the grouping keys: the nkeys scan tuple entries after the aggregates
 * (agg_path.c puts them there), plain columns of the table or expressions
 * over them.
 */
static void
ReadGroupKeys(ColstoreAggState *state, List *scan_tlist, int nkeys, List *eqops)
{
	TupleDesc	desc = RelationGetDescr(state->rel);
	int			k;

	state->nkeys = nkeys;
	state->keys = palloc0(sizeof(GroupKeySpec) * Max(nkeys, 1));
	state->key_exprs = palloc0(sizeof(GroupKeyExpr *) * Max(nkeys, 1));
	if (nkeys > INDEX_MAX_KEYS)
		elog(ERROR, "too many grouping columns in a ColstoreAgg plan");
	for (k = 0; k < nkeys; k++)
	{
		TargetEntry *te = list_nth_node(TargetEntry, scan_tlist, state->naggs + k);
		Node	   *expr = (Node *) te->expr;
		Var		   *var = (Var *) expr;
		Oid			type = exprType(expr);
		Oid			collation = exprCollation(expr);
		Oid			eqop = list_length(eqops) == nkeys ? list_nth_oid(eqops, k) : InvalidOid;

		if (!IsA(expr, Var))
			state->key_exprs[k] = GroupKeyExprCreate((Expr *) expr, state->relid, desc,
													 state->css.ss.ps.state);
		else if (var->varno != state->relid || var->varattno <= 0 ||
				 var->varattno > desc->natts)
			elog(ERROR, "unexpected grouping column in a ColstoreAgg plan");
		if (OidIsValid(eqop))
		{
			GroupKeySpec *spec = &state->keys[k];
			RegProcedure hash_proc;
			int16		typlen;

			/* grouped by the operator's functions (agg_path.c) */
			if (!get_op_hash_functions(eqop, &hash_proc, NULL))
				elog(ERROR, "could not find hash function for hash operator %u", eqop);
			fmgr_info(hash_proc, &spec->hash_fn);
			fmgr_info(get_opcode(eqop), &spec->eq_fn);
			spec->collation = collation;
			spec->by_function = true;
			get_typlenbyval(type, &typlen, &spec->byval);
		}
		else if (!ColstoreAggGroupKeyType(type, collation, &state->keys[k].byval,
										  &state->keys[k].blank_padded))
			elog(ERROR, "unexpected grouping key in a ColstoreAgg plan");
		state->keys[k].attno = IsA(expr, Var) ? var->varattno - 1 : -1;
	}
}

/* The conditions of an aggregate's FILTER, evaluated like the WHERE's. */
static ChunkPruner *
CreateFilter(ColstoreAggState *state, Expr *filter, PlanState *parent)
{
	List	   *clauses = make_ands_implicit((Expr *) copyObject(filter));
	ChunkPruner *pruner = ChunkPrunerCreate(clauses, state->relid,
											RelationGetDescr(state->rel), parent);

	if (ChunkPrunerNumKeys(pruner) != list_length(clauses))
		elog(ERROR, "ColstoreAgg plan has a FILTER it cannot evaluate");
	return pruner;
}

/*
 * ColstoreAgg_BeginCustomScan
 *		Open the table, classify the scan tuple's aggregates again (with
 *		their FILTERs and numeric expressions), read the grouping keys
 *		(columns, or expressions to evaluate) and build the condition
 *		evaluator; nothing is read before the first call.
 */
static void
ColstoreAgg_BeginCustomScan(CustomScanState *node, EState *estate, int eflags)
{
	ColstoreAggState *state = (ColstoreAggState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	TargetEntry *table_entry = llast_node(TargetEntry, cscan->custom_scan_tlist);
	List	   *quals;
	List	   *expr_pool = NIL;
	ListCell   *lc;

	if (!IsA(table_entry->expr, Var) || table_entry->resname == NULL ||
		strcmp(table_entry->resname, COLSTORE_AGG_TABLE_ENTRY) != 0 ||
		list_length(cscan->custom_private) != 3)
		elog(ERROR, "ColstoreAgg plan does not name its table");
	state->relid = ((Var *) table_entry->expr)->varno;
	state->rel = ExecOpenScanRelation(estate, state->relid, eflags);
	state->aggs = palloc0(sizeof(AggFold) * Max(list_length(cscan->custom_scan_tlist), 1));
	foreach(lc, cscan->custom_scan_tlist)
	{
		TargetEntry *te = lfirst_node(TargetEntry, lc);
		AggFold    *agg = &state->aggs[state->naggs];
		AttrNumber	attno;

		if (!IsA(te->expr, Aggref))
			break;				/* the aggregates come first */
		agg->kind = ColstoreAggClassify((Aggref *) te->expr, state->relid, &attno);
		if (agg->kind == COLSTORE_AGG_NONE)
			elog(ERROR, "unexpected aggregate in a ColstoreAgg plan");
		agg->resno = te->resno - 1;
		agg->attno = attno - 1;
		if (attno > 0)
			agg->type = TupleDescAttr(RelationGetDescr(state->rel),
									  attno - 1)->atttypid;
		else if (agg->kind != COLSTORE_AGG_COUNT_STAR)
		{
			/* sum or avg of numeric arithmetic */
			agg->type = NUMERICOID;
			agg->expr = NumericExprCompile((Node *) linitial_node(TargetEntry,
																  ((Aggref *) te->expr)->args)->expr,
										   &expr_pool);
		}
		if ((agg->kind == COLSTORE_AGG_MIN || agg->kind == COLSTORE_AGG_MAX) &&
			!TypeHasSignedIntegerOrder(agg->type) &&
			agg->type != FLOAT4OID && agg->type != FLOAT8OID)
		{
			agg->compare = palloc(sizeof(AggCompare));
			AggCompareInit(agg->compare, agg->kind, agg->type,
						   ((Aggref *) te->expr)->inputcollid);
		}
		if (((Aggref *) te->expr)->aggfilter != NULL)
			agg->filter = CreateFilter(state, ((Aggref *) te->expr)->aggfilter,
									   &node->ss.ps);
		state->naggs++;
	}
	ReadGroupKeys(state, cscan->custom_scan_tlist,
				  intVal(linitial(cscan->custom_private)),
				  lsecond(cscan->custom_private));
	state->sorted = boolVal(lthird(cscan->custom_private));
	if (state->sorted)
	{
		int			k;

		/* agg_sorted_path.c: plain columns only */
		if (state->nkeys == 0)
			elog(ERROR, "ColstoreAgg plan groups sorted by no column");
		for (k = 0; k < state->nkeys; k++)
		{
			if (state->key_exprs[k] != NULL)
				elog(ERROR, "ColstoreAgg plan groups sorted by an expression");
		}
	}
	state->fold_cxt = AllocSetContextCreate(estate->es_query_cxt, "ColstoreAgg",
											ALLOCSET_DEFAULT_SIZES);
	state->batch_cxt = AllocSetContextCreate(estate->es_query_cxt, "ColstoreAgg batch",
											 ALLOCSET_DEFAULT_SIZES);
	quals = (List *) ResolveIndexVars((Node *) cscan->custom_exprs,
									  cscan->custom_scan_tlist);
	state->pruner = ChunkPrunerCreate(quals, state->relid,
									  RelationGetDescr(state->rel), &node->ss.ps);
	if (ChunkPrunerNumKeys(state->pruner) != list_length(quals))
		elog(ERROR, "ColstoreAgg plan has a condition it cannot evaluate");
}

/* Room for a batch of nrows rows in the per-row arrays. */
static void
EnsureBatchArrays(ColstoreAggState *state, int nrows)
{
	MemoryContext cxt = state->css.ss.ps.state->es_query_cxt;

	if (nrows <= state->batch_size)
		return;
	if (state->selected != NULL)
	{
		pfree(state->selected);
		pfree(state->rows);
		pfree(state->by_group);
		pfree(state->row_groups);
	}
	state->selected = MemoryContextAlloc(cxt, nrows);
	state->rows = MemoryContextAlloc(cxt, sizeof(int) * nrows);
	state->by_group = MemoryContextAlloc(cxt, sizeof(int) * nrows);
	state->row_groups = MemoryContextAlloc(cxt, sizeof(uint32) * nrows);
	state->batch_size = nrows;
}

/* Give the selected rows of the batch their groups; returns their array. */
static const uint32 *
AssignGroups(ColstoreAggState *state, TableScanDesc scan, int nrows,
			 const bool *selected)
{
	Datum	   *values[INDEX_MAX_KEYS];
	bool	   *isnull[INDEX_MAX_KEYS];
	int			k;

	if (state->groups == NULL)
		return NULL;
	for (k = 0; k < state->nkeys; k++)
	{
		if (state->key_exprs[k] != NULL)
			GroupKeyExprEvaluate(state->key_exprs[k], scan,
								 state->css.ss.ps.ps_ExprContext, nrows, selected,
								 &values[k], &isnull[k]);
		else
			ColstoreScanBatchColumn(scan, state->keys[k].attno, &values[k], &isnull[k]);
	}
	GroupTableAssign(state->groups, nrows, values, isnull, selected,
					 state->row_groups);
	return state->row_groups;
}

/*
 * Sort the batch's rows (fr's row list) by group into state->by_group and
 * state->group_start, a counting sort that keeps row order within a group,
 * once for all the aggregates, which then fold a group's rows in one run
 * (NumericSumFoldInt64) instead of updating a state in memory per row.
 * Only for some groups (AGG_SORT_GROUPS_MAX at most) and aggregates that
 * use it; otherwise fr->by_group stays NULL.
 */
static void
SortRowsByGroup(ColstoreAggState *state, NumericFoldRows *fr)
{
	int		   *start = state->group_start;
	uint32		g;
	int			j;

	fr->by_group = NULL;
	fr->group_start = NULL;
	if (fr->groups == NULL || fr->ngroups == 0 ||
		fr->ngroups > AGG_SORT_GROUPS_MAX || !state->sort_by_group)
		return;
	memset(start, 0, sizeof(int) * (fr->ngroups + 1));
	for (j = 0; j < fr->nsel; j++)
		start[fr->groups[fr->rows != NULL ? fr->rows[j] : j] + 1]++;
	for (g = 0; g < fr->ngroups; g++)
		start[g + 1] += start[g];
	for (j = 0; j < fr->nsel; j++)
	{
		int			i = fr->rows != NULL ? fr->rows[j] : j;

		state->by_group[start[fr->groups[i]]++] = i;
	}
	/* start[g] is now group g's end: shift back */
	for (g = fr->ngroups; g > 0; g--)
		start[g] = start[g - 1];
	start[0] = 0;
	fr->by_group = state->by_group;
	fr->group_start = start;
}

/*
 * Scan the table (serial, or this participant's share of a parallel scan)
 * and fold every batch into the aggregates; then the groups to return are
 * all of them, or, in parallel, everybody's for the last participant to
 * finish and none for the others (agg_parallel.c).
 */
static void
ComputeAggregates(ColstoreAggState *state)
{
	EState	   *estate = state->css.ss.ps.state;
	TupleDesc	desc = RelationGetDescr(state->rel);
	bool		filtered = ChunkPrunerNumKeys(state->pruner) > 0;
	ColstoreScanCounters mine = {0};
	MemoryContext old;
	TableScanDesc scan;
	bool		returns_groups = true;
	int			nrows;
	int			i;

	MemoryContextReset(state->fold_cxt);
	old = MemoryContextSwitchTo(state->fold_cxt);
	state->groups = state->nkeys > 0 ? GroupTableCreate(state->nkeys, state->keys) : NULL;
	MemoryContextSwitchTo(old);
	state->sort_by_group = false;
	for (i = 0; i < state->naggs; i++)
	{
		AggFoldReset(&state->aggs[i], state->fold_cxt);
		if (state->aggs[i].states == AGG_STATES_NUMERIC)
			state->sort_by_group = true;
	}
	state->computed = true;
	state->next_group = 0;
	state->ngroups = 0;
	if (state->shared != NULL && !AggParallelAttach(state->shared))
		return;					/* the results were taken already */
	ChunkPrunerEvaluate(state->pruner, state->css.ss.ps.ps_ExprContext);
	for (i = 0; i < state->naggs; i++)
	{
		if (state->aggs[i].filter != NULL)
			ChunkPrunerEvaluate(state->aggs[i].filter, state->css.ss.ps.ps_ExprContext);
	}
	scan = state->shared != NULL ?
		table_beginscan_parallel(state->rel, AggParallelScan(state->shared)) :
		table_beginscan(state->rel, estate->es_snapshot, 0, NULL);
	ColstoreScanConfigure(scan, NULL, 0, filtered ? ChunkPrunerRefutes : NULL,
						  state->pruner);
	while ((nrows = ColstoreScanNextBatch(scan, desc)) >= 0)
	{
		const uint32 *groups;
		bool		select;
		const int  *rows;
		int			nsel;
		NumericFoldRows fr;

		CHECK_FOR_INTERRUPTS();
		/* what folding allocates on the way (detoasting, numerics) */
		MemoryContextReset(state->batch_cxt);
		old = MemoryContextSwitchTo(state->batch_cxt);
		EnsureBatchArrays(state, nrows);
		/* deleted rows are in the batch but not returned by the scan */
		select = ColstoreScanBatchSelect(scan, state->selected);
		rows = NULL;
		nsel = nrows;
		if (filtered)
		{
			if (!select)
				memset(state->selected, true, nrows);
			rows = ChunkPrunerFilterRowList(state->pruner, scan, nrows,
											state->selected, &nsel);
			select = true;
		}
		else if (select)
		{
			int			r;

			/* the row list of the selection, for the aggregates */
			nsel = 0;
			for (r = 0; r < nrows; r++)
			{
				state->rows[nsel] = r;
				nsel += state->selected[r];
			}
			rows = state->rows;
		}
		groups = AssignGroups(state, scan, nrows, select ? state->selected : NULL);
		memset(&fr, 0, sizeof(fr));
		fr.rows = rows;
		fr.nsel = nsel;
		fr.groups = groups;
		fr.ngroups = state->groups ? GroupTableSize(state->groups) : 1;
		fr.batchno = ++state->batchno;
		SortRowsByGroup(state, &fr);
		AggFoldBatchAll(state->aggs, state->naggs, scan, nrows,
						select ? state->selected : NULL, &fr);
		MemoryContextSwitchTo(old);
	}
	MemoryContextReset(state->batch_cxt);
	ColstoreScanAddCounters(scan, &mine);
	table_endscan(scan);
	if (state->shared != NULL)
	{
		old = MemoryContextSwitchTo(state->fold_cxt);
		returns_groups = AggParallelFinish(state->shared, estate->es_query_dsa,
										   state->groups, state->aggs, state->naggs,
										   &mine);
		MemoryContextSwitchTo(old);
	}
	else
	{
		state->counters.groups_read += mine.groups_read;
		state->counters.groups_skipped += mine.groups_skipped;
		state->counters.chunks_read += mine.chunks_read;
		state->counters.chunks_skipped += mine.chunks_skipped;
	}
	if (returns_groups)
		state->ngroups = state->groups ? GroupTableSize(state->groups) : 1;
}

/* ExecScan access method: one row per group. */
static TupleTableSlot *
ColstoreAggNext(ScanState *ss)
{
	ColstoreAggState *state = (ColstoreAggState *) ss;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;
	MemoryContext old;
	uint32		group;
	Datum		sorted_keys[INDEX_MAX_KEYS];
	bool		sorted_nulls[INDEX_MAX_KEYS];
	int			i;

	if (state->sorted)
	{
		/* sorted grouping: the groups come one by one (agg_sorted.c) */
		if (state->sorted_agg == NULL)
			state->sorted_agg = SortedAggBegin(state->rel, ss->ps.state->es_snapshot,
											   state->pruner, ss->ps.ps_ExprContext,
											   state->aggs, state->naggs, state->keys,
											   state->nkeys, ss->ps.state->es_query_cxt);
		if (!SortedAggNext(state->sorted_agg, &group, sorted_keys, sorted_nulls))
			return NULL;
	}
	else
	{
		if (!state->computed)
			ComputeAggregates(state);
		if (state->next_group >= state->ngroups)
			return NULL;
		group = state->next_group++;
	}
	/* the results live until the next row (ExecScan resets this memory) */
	old = MemoryContextSwitchTo(ss->ps.ps_ExprContext->ecxt_per_tuple_memory);
	ExecClearTuple(slot);
	for (i = 0; i < slot->tts_tupleDescriptor->natts; i++)
	{
		slot->tts_values[i] = (Datum) 0;
		slot->tts_isnull[i] = true;
	}
	for (i = 0; i < state->naggs; i++)
	{
		AggFold    *agg = &state->aggs[i];

		slot->tts_values[agg->resno] = AggFoldResult(agg, group,
													 &slot->tts_isnull[agg->resno]);
	}
	for (i = 0; i < state->nkeys; i++)
	{
		if (state->sorted)
		{
			slot->tts_values[state->naggs + i] = sorted_keys[i];
			slot->tts_isnull[state->naggs + i] = sorted_nulls[i];
		}
		else
			slot->tts_values[state->naggs + i] =
				GroupTableKey(state->groups, group, i,
							  &slot->tts_isnull[state->naggs + i]);
	}
	MemoryContextSwitchTo(old);
	return ExecStoreVirtualTuple(slot);
}

static bool
ColstoreAggRecheck(ScanState *ss, TupleTableSlot *slot)
{
	return true;
}

static TupleTableSlot *
ColstoreAgg_ExecCustomScan(CustomScanState *node)
{
	return ExecScan(&node->ss, (ExecScanAccessMtd) ColstoreAggNext,
					(ExecScanRecheckMtd) ColstoreAggRecheck);
}

/* End a sorted grouping's execution, if one runs (its scan may be open). */
static void
EndSorted(ColstoreAggState *state)
{
	if (state->sorted_agg == NULL)
		return;
	state->sorted_fell_back |= SortedAggFellBack(state->sorted_agg);
	SortedAggEnd(state->sorted_agg, &state->counters);
	state->sorted_agg = NULL;
}

static void
ColstoreAgg_EndCustomScan(CustomScanState *node)
{
	/*
	 * the table scan ends within ComputeAggregates (a sorted grouping's
	 * here); the relation with the executor
	 */
	EndSorted((ColstoreAggState *) node);
}

static void
ColstoreAgg_ReScanCustomScan(CustomScanState *node)
{
	((ColstoreAggState *) node)->computed = false;
	EndSorted((ColstoreAggState *) node);
	ExecScanReScan(&node->ss);
}

static Size
ColstoreAgg_EstimateDSMCustomScan(CustomScanState *node, ParallelContext *pcxt)
{
	ColstoreAggState *state = (ColstoreAggState *) node;

	return AggParallelEstimate(state->rel, node->ss.ps.state->es_snapshot);
}

static void
ColstoreAgg_InitializeDSMCustomScan(CustomScanState *node, ParallelContext *pcxt,
									void *coordinate)
{
	ColstoreAggState *state = (ColstoreAggState *) node;

	state->shared = (AggShared *) coordinate;
	AggParallelInitialize(state->shared, state->rel, node->ss.ps.state->es_snapshot);
}

static void
ColstoreAgg_ReInitializeDSMCustomScan(CustomScanState *node, ParallelContext *pcxt,
									  void *coordinate)
{
	ColstoreAggState *state = (ColstoreAggState *) node;

	/* Shutdown forgot it if the plan ran to its end before */
	state->shared = (AggShared *) coordinate;
	/* keep the last run's counts for EXPLAIN ANALYZE, which adds up runs */
	AggParallelAddCounters(state->shared, &state->counters);
	AggParallelReinitialize(state->shared, state->rel,
							node->ss.ps.state->es_query_dsa);
}

static void
ColstoreAgg_InitializeWorkerCustomScan(CustomScanState *node, shm_toc *toc,
									   void *coordinate)
{
	((ColstoreAggState *) node)->shared = (AggShared *) coordinate;
}

/*
 * The leader adds all participants' scan counters (its own among them) for
 * EXPLAIN ANALYZE before the DSM segment goes away.
 */
static void
ColstoreAgg_ShutdownCustomScan(CustomScanState *node)
{
	ColstoreAggState *state = (ColstoreAggState *) node;

	if (state->shared == NULL)
		return;
	if (!IsParallelWorker())
		AggParallelAddCounters(state->shared, &state->counters);
	state->shared = NULL;
}

/*
 * EXPLAIN: the table, the aggregates computed, the conditions, and under
 * ANALYZE the row groups and chunks read and skipped.
 */
static void
ColstoreAgg_ExplainCustomScan(CustomScanState *node, List *ancestors,
							  ExplainState *es)
{
	ColstoreAggState *state = (ColstoreAggState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *context;
	List	   *aggs = NIL;
	ListCell   *lc;

	{
		RangeTblEntry *rte = rt_fetch(state->relid, es->rtable);
		const char *relname = RelationGetRelationName(state->rel);

		/* "table alias", as scan nodes show it */
		ExplainPropertyText("Table",
							strcmp(rte->eref->aliasname, relname) == 0 ?
							quote_identifier(relname) :
							psprintf("%s %s", quote_identifier(relname),
									 quote_identifier(rte->eref->aliasname)),
							es);
	}
	context = set_deparse_context_plan(es->deparse_cxt, &cscan->scan.plan, ancestors);
	foreach(lc, cscan->custom_scan_tlist)
	{
		TargetEntry *te = lfirst_node(TargetEntry, lc);

		if (IsA(te->expr, Aggref))
			aggs = lappend(aggs, deparse_expression((Node *) te->expr, context,
													es->verbose, false));
	}
	ExplainPropertyList("Aggregates", aggs, es);
	if (state->nkeys > 0)
	{
		List	   *keys = NIL;
		int			k;

		for (k = 0; k < state->nkeys; k++)
		{
			TargetEntry *te = list_nth_node(TargetEntry, cscan->custom_scan_tlist,
											state->naggs + k);

			keys = lappend(keys, deparse_expression((Node *) te->expr, context,
													es->verbose, false));
		}
		ExplainPropertyList("Group Key", keys, es);
	}
	if (state->sorted)
		ExplainPropertyText("Grouping", "sorted", es);
	if (state->sorted && es->analyze)
		ExplainPropertyBool("Sorted Fallback",
							state->sorted_fell_back ||
							(state->sorted_agg != NULL &&
							 SortedAggFellBack(state->sorted_agg)), es);
	if (cscan->custom_exprs != NIL)
		ExplainPropertyText("Conditions",
							deparse_expression((Node *) make_ands_explicit(cscan->custom_exprs),
											   context, es->verbose, false), es);
	if (es->analyze)
	{
		ColstoreScanCounters counters = state->counters;

		/* a sorted grouping's scan ends with the node, after EXPLAIN */
		if (state->sorted_agg != NULL)
			SortedAggAddCounters(state->sorted_agg, &counters);
		ColstoreScanExplainCounters(&counters, es);
	}
}
