/*-------------------------------------------------------------------------
 *
 * agg_exec.c
 *	  Executor side of ColstoreAgg: aggregates folded from decoded chunks.
 *
 * The node returns one row.  On its first call it runs a colstore scan in
 * batches (ColstoreScanNextBatch: one chunk at a time, chunks the
 * conditions refute skipped), marks the rows of each batch that pass the
 * conditions (ChunkPrunerFilterRows, exact for the conditions agg_path.c
 * accepts), and folds the selected values into each aggregate:
 *
 *	count(*)		rows selected
 *	count(col)		rows selected and not NULL; without conditions, the
 *					chunk's row count minus the header's NULL count
 *	sum(int2/int4)	int128 accumulator, result bigint; "bigint out of
 *					range" if it does not fit, where PostgreSQL's serial
 *					int4_sum would wrap around silently (it takes over four
 *					billion rows of large values to get there)
 *	sum(int8)		int128 accumulator, result numeric
 *	min/max			int2, int4, int8, date as signed integers
 *
 * Empty input gives 0 for counts and NULL for the others, as Agg does.
 * The scan sees exactly the rows a sequential scan with the same snapshot
 * sees (visibility is per row group).  The scan tuple is the node's
 * custom_scan_tlist: the aggregates' results, then NULL for the columns
 * the conditions read (they are there only so setrefs can resolve the
 * conditions); the target list is projected from it.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_exec.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

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
#include "utils/numeric.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

#ifndef HAVE_INT128
#error "ColstoreAgg needs a 128-bit integer type for its sums"
#endif

#include "cscan/agg_exec.h"
#include "cscan/agg_path.h"
#include "cscan/chunk_pruning.h"
#include "cscan/cscan_exec.h"
#include "storage/integer_order.h"
#include "tableam/am_scan.h"

/* One aggregate of the scan tuple and its running state. */
typedef struct AggFold
{
	ColstoreAggKind kind;
	int			resno;			/* position in the scan tuple, 0-based */
	int			attno;			/* argument column, 0-based; -1: count(*) */
	Oid			type;			/* argument's type */
	int64		count;			/* values folded */
	int128		sum;
	int64		minmax;
} AggFold;

typedef struct ColstoreAggState
{
	CustomScanState css;
	Relation	rel;
	Index		relid;			/* the table's range table index */
	int			naggs;
	AggFold   *aggs;
	ChunkPruner *pruner;
	bool	   *selected;		/* [selected_size] */
	int			selected_size;
	bool		done;			/* the row was returned */
	ColstoreScanCounters counters;
} ColstoreAggState;

static Node *ColstoreAgg_CreateCustomScanState(CustomScan *cscan);
static void ColstoreAgg_BeginCustomScan(CustomScanState *node, EState *estate,
										int eflags);
static TupleTableSlot *ColstoreAgg_ExecCustomScan(CustomScanState *node);
static void ColstoreAgg_EndCustomScan(CustomScanState *node);
static void ColstoreAgg_ReScanCustomScan(CustomScanState *node);
static void ColstoreAgg_ExplainCustomScan(CustomScanState *node, List *ancestors,
										  ExplainState *es);

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

static void
ColstoreAgg_BeginCustomScan(CustomScanState *node, EState *estate, int eflags)
{
	ColstoreAggState *state = (ColstoreAggState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	TargetEntry *table_entry = llast_node(TargetEntry, cscan->custom_scan_tlist);
	List	   *quals;
	ListCell   *lc;

	if (!IsA(table_entry->expr, Var) || table_entry->resname == NULL ||
		strcmp(table_entry->resname, COLSTORE_AGG_TABLE_ENTRY) != 0)
		elog(ERROR, "ColstoreAgg plan does not name its table");
	state->relid = ((Var *) table_entry->expr)->varno;
	state->rel = ExecOpenScanRelation(estate, state->relid, eflags);
	state->aggs = palloc0(sizeof(AggFold) * Max(list_length(cscan->custom_scan_tlist), 1));
	foreach(lc, cscan->custom_scan_tlist)
	{
		TargetEntry *te = lfirst_node(TargetEntry, lc);
		AggFold   *agg = &state->aggs[state->naggs];
		AttrNumber	attno;

		if (!IsA(te->expr, Aggref))
			continue;			/* a column of the conditions, or the table */
		agg->kind = ColstoreAggClassify((Aggref *) te->expr, state->relid, &attno);
		if (agg->kind == COLSTORE_AGG_NONE)
			elog(ERROR, "unexpected aggregate in a ColstoreAgg plan");
		agg->resno = te->resno - 1;
		agg->attno = attno - 1;
		if (attno > 0)
			agg->type = TupleDescAttr(RelationGetDescr(state->rel),
									  attno - 1)->atttypid;
		state->naggs++;
	}
	quals = (List *) ResolveIndexVars((Node *) cscan->custom_exprs,
									  cscan->custom_scan_tlist);
	state->pruner = ChunkPrunerCreate(quals, state->relid,
									  RelationGetDescr(state->rel), &node->ss.ps);
	if (ChunkPrunerNumKeys(state->pruner) != list_length(quals))
		elog(ERROR, "ColstoreAgg plan has a condition it cannot evaluate");
}

/* ChunkPrunerFetch over the scan's current batch. */
static void
FetchBatchColumn(void *arg, int attno, Datum **values, bool **isnull)
{
	ColstoreScanBatchColumn((TableScanDesc) arg, attno, values, isnull);
}

/*
 * Sum, minimum and maximum of all nrows values of a batch without NULLs:
 * the common case, in a loop per type that the compiler can unroll.
 */
#define FOLD_ALL(GET) \
	do { \
		int64		lo = GET(values[0]); \
		int64		hi = lo; \
		for (i = 0; i < nrows; i++) \
		{ \
			int64		v = GET(values[i]); \
			sum += v; \
			lo = Min(lo, v); \
			hi = Max(hi, v); \
		} \
		min = lo; \
		max = hi; \
	} while (0)

static void
FoldAllValues(AggFold *agg, const Datum *values, int nrows)
{
	int128		sum = 0;
	int64		min;
	int64		max;
	int			i;

	switch (agg->type)
	{
		case INT2OID:
			FOLD_ALL(DatumGetInt16);
			break;
		case INT4OID:
			FOLD_ALL(DatumGetInt32);
			break;
		case DATEOID:
			FOLD_ALL(DatumGetDateADT);
			break;
		default:
			FOLD_ALL(DatumGetInt64);
			break;
	}
	if (agg->kind == COLSTORE_AGG_SUM)
		agg->sum += sum;
	else if (agg->kind == COLSTORE_AGG_MIN)
		agg->minmax = agg->count == 0 ? min : Min(agg->minmax, min);
	else
		agg->minmax = agg->count == 0 ? max : Max(agg->minmax, max);
	agg->count += nrows;
}

/* Fold the selected rows (all if selected is NULL) of a batch into agg. */
static void
FoldBatch(AggFold *agg, TableScanDesc scan, int nrows, const bool *selected)
{
	Datum	   *values;
	bool	   *isnull;
	int			i;

	if (agg->kind == COLSTORE_AGG_COUNT_STAR)
	{
		for (i = 0; i < nrows; i++)
			agg->count += (selected == NULL || selected[i]);
		return;
	}
	if (agg->kind == COLSTORE_AGG_COUNT && selected == NULL)
	{
		int			nulls = ColstoreScanBatchNulls(scan, agg->attno);

		if (nulls >= 0)
		{
			agg->count += nrows - nulls;
			return;
		}
	}
	ColstoreScanBatchColumn(scan, agg->attno, &values, &isnull);
	if (selected == NULL && nrows > 0 && agg->kind != COLSTORE_AGG_COUNT &&
		ColstoreScanBatchNulls(scan, agg->attno) == 0)
	{
		FoldAllValues(agg, values, nrows);
		return;
	}
	for (i = 0; i < nrows; i++)
	{
		int64		v;

		if (isnull[i] || (selected != NULL && !selected[i]))
			continue;
		agg->count++;
		if (agg->kind == COLSTORE_AGG_COUNT)
			continue;
		v = SignedIntegerDatum(agg->type, values[i]);
		if (agg->kind == COLSTORE_AGG_SUM)
			agg->sum += v;
		else if (agg->count == 1 ||
				 (agg->kind == COLSTORE_AGG_MIN ? v < agg->minmax : v > agg->minmax))
			agg->minmax = v;
	}
}

/* numeric from an int128 (sum of bigints). */
static Datum
Int128GetNumeric(int128 value)
{
	char		buf[48];
	char	   *p = buf + sizeof(buf) - 1;
	bool		negative = value < 0;
	uint128		u = negative ? -(uint128) value : (uint128) value;

	*p = '\0';
	do
	{
		*--p = '0' + (int) (u % 10);
		u /= 10;
	} while (u > 0);
	if (negative)
		*--p = '-';
	return DirectFunctionCall3(numeric_in, CStringGetDatum(p),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/* The aggregate's result, as Agg would return it. */
static Datum
AggResult(AggFold *agg, bool *isnull)
{
	*isnull = false;
	switch (agg->kind)
	{
		case COLSTORE_AGG_COUNT_STAR:
		case COLSTORE_AGG_COUNT:
			return Int64GetDatum(agg->count);
		case COLSTORE_AGG_SUM:
			if (agg->count == 0)
				break;
			if (agg->type == INT8OID)
				return Int128GetNumeric(agg->sum);
			if (agg->sum < PG_INT64_MIN || agg->sum > PG_INT64_MAX)
				ereport(ERROR,
						(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						 errmsg("bigint out of range")));
			return Int64GetDatum((int64) agg->sum);
		case COLSTORE_AGG_MIN:
		case COLSTORE_AGG_MAX:
			if (agg->count == 0)
				break;
			switch (agg->type)
			{
				case INT2OID:
					return Int16GetDatum((int16) agg->minmax);
				case INT4OID:
					return Int32GetDatum((int32) agg->minmax);
				case DATEOID:
					return DateADTGetDatum((DateADT) agg->minmax);
				default:
					return Int64GetDatum(agg->minmax);
			}
		case COLSTORE_AGG_NONE:
			break;
	}
	*isnull = true;
	return (Datum) 0;
}

/* Scan the table once and fold every batch into the aggregates. */
static void
ComputeAggregates(ColstoreAggState *state)
{
	EState	   *estate = state->css.ss.ps.state;
	TupleDesc	desc = RelationGetDescr(state->rel);
	bool		filtered = ChunkPrunerNumKeys(state->pruner) > 0;
	TableScanDesc scan;
	int			nrows;
	int			i;

	for (i = 0; i < state->naggs; i++)
	{
		state->aggs[i].count = 0;
		state->aggs[i].sum = 0;
	}
	ChunkPrunerEvaluate(state->pruner, state->css.ss.ps.ps_ExprContext);
	scan = table_beginscan(state->rel, estate->es_snapshot, 0, NULL);
	ColstoreScanConfigure(scan, NULL, 0, filtered ? ChunkPrunerRefutes : NULL,
						  state->pruner);
	while ((nrows = ColstoreScanNextBatch(scan, desc)) >= 0)
	{
		bool		select;

		if (nrows > state->selected_size)
		{
			state->selected_size = nrows;
			state->selected = state->selected == NULL ?
				MemoryContextAlloc(estate->es_query_cxt, nrows) :
				repalloc(state->selected, nrows);
		}
		/* deleted rows are in the batch but not returned by the scan */
		select = ColstoreScanBatchSelect(scan, state->selected);
		if (filtered)
		{
			if (!select)
				memset(state->selected, true, nrows);
			ChunkPrunerFilterRows(state->pruner, nrows, FetchBatchColumn, scan,
								  state->selected);
			select = true;
		}
		for (i = 0; i < state->naggs; i++)
			FoldBatch(&state->aggs[i], scan, nrows, select ? state->selected : NULL);
	}
	ColstoreScanAddCounters(scan, &state->counters);
	table_endscan(scan);
}

/* ExecScan access method: the one result row, then nothing. */
static TupleTableSlot *
ColstoreAggNext(ScanState *ss)
{
	ColstoreAggState *state = (ColstoreAggState *) ss;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;
	int			i;

	if (state->done)
		return NULL;
	state->done = true;
	ComputeAggregates(state);
	ExecClearTuple(slot);
	for (i = 0; i < slot->tts_tupleDescriptor->natts; i++)
	{
		slot->tts_values[i] = (Datum) 0;
		slot->tts_isnull[i] = true;
	}
	for (i = 0; i < state->naggs; i++)
	{
		AggFold   *agg = &state->aggs[i];

		slot->tts_values[agg->resno] = AggResult(agg, &slot->tts_isnull[agg->resno]);
	}
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

static void
ColstoreAgg_EndCustomScan(CustomScanState *node)
{
	/* the table scan ends within ComputeAggregates; the relation with the executor */
}

static void
ColstoreAgg_ReScanCustomScan(CustomScanState *node)
{
	((ColstoreAggState *) node)->done = false;
	ExecScanReScan(&node->ss);
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
	if (cscan->custom_exprs != NIL)
		ExplainPropertyText("Conditions",
							deparse_expression((Node *) make_ands_explicit(cscan->custom_exprs),
											   context, es->verbose, false), es);
	if (es->analyze)
		ColstoreScanExplainCounters(&state->counters, es);
}
