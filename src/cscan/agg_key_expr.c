/*-------------------------------------------------------------------------
 *
 * agg_key_expr.c
 *	  ColstoreAgg's grouping expressions, evaluated over a batch's columns.
 *
 * A GROUP BY item that is an expression over columns of the table (no
 * volatile functions, parameters or subqueries; agg_path.c checks) is
 * evaluated by PostgreSQL's expression evaluator, row by row, for the rows
 * of a batch that pass the conditions, exactly where Agg would evaluate it:
 * a virtual slot with the table's descriptor holds the row's input columns
 * (the others read as NULL; the expression does not read them), and the
 * results become a grouping column of the batch for agg_groups.c.
 *
 * An expression of one column is evaluated once per distinct input value
 * where it can: a direct-mapped cache keyed by the input datum (its value
 * for pass-by-value types; for others its pointer, which the dictionary
 * encoding shares among equal values of a chunk) holds the result.  It
 * lives for the whole scan when input and result are passed by value, else
 * for one batch (pointers into a batch's memory mean nothing after it).
 * This is correct because the expression is immutable or stable, so equal
 * inputs give equal results within the query.
 *
 * Results are allocated in the caller's memory context, which must live as
 * long as the batch (ColstoreAgg's per-batch context).
 *
 * IDENTIFICATION
 *	  src/cscan/agg_key_expr.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "nodes/bitmapset.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"

#include "cscan/agg_key_expr.h"
#include "tableam/scan_engine.h"

/*
 * Entries of the result cache: 2^12, so a column's few thousand distinct
 * values (dates, small codes) rarely share an entry.
 */
#define KEY_EXPR_CACHE_BITS	12
#define KEY_EXPR_CACHE_SIZE	(1 << KEY_EXPR_CACHE_BITS)

typedef struct KeyExprCacheEntry
{
	uint32		batch;			/* valid while it equals the key's batch */
	bool		input_isnull;
	Datum		input;
	bool		result_isnull;
	Datum		result;
} KeyExprCacheEntry;

struct GroupKeyExpr
{
	ExprState  *state;
	TupleTableSlot *slot;		/* virtual, the table's descriptor */
	int			ninputs;
	int		   *inputs;			/* columns the expression reads, 0-based */
	KeyExprCacheEntry *cache;	/* one input column only, else NULL */
	bool		cache_per_batch;	/* holds pointers: emptied for each batch */
	uint32		batch;			/* cache entries of other batches are empty */
	Datum	  **input_values;	/* [ninputs]: the batch's columns */
	bool	  **input_isnull;
};

/*
 * GroupKeyExprCreate
 *		Prepare expr, whose Vars are columns of the table with range table
 *		index relid and descriptor desc, for evaluation; estate's tuple
 *		table keeps its slot.  Memory lives in CurrentMemoryContext (the
 *		executor's per-query context).  Errors if expr reads anything but
 *		user columns of that table (a plan bug).
 */
GroupKeyExpr *
GroupKeyExprCreate(Expr *expr, Index relid, TupleDesc desc, EState *estate)
{
	GroupKeyExpr *key = palloc0(sizeof(GroupKeyExpr));
	Bitmapset  *attrs = NULL;
	ListCell   *lc;
	int			attno = -1;
	int			i;

	foreach(lc, pull_var_clause((Node *) expr, 0))
	{
		Var		   *var = lfirst_node(Var, lc);

		if (var->varno != relid || var->varlevelsup != 0 ||
			var->varattno <= 0 || var->varattno > desc->natts)
			elog(ERROR, "unexpected column in a ColstoreAgg grouping expression");
		attrs = bms_add_member(attrs, var->varattno);
	}
	key->inputs = palloc(sizeof(int) * Max(bms_num_members(attrs), 1));
	while ((attno = bms_next_member(attrs, attno)) >= 0)
		key->inputs[key->ninputs++] = attno - 1;
	key->input_values = palloc(sizeof(Datum *) * Max(key->ninputs, 1));
	key->input_isnull = palloc(sizeof(bool *) * Max(key->ninputs, 1));

	/*
	 * No parent: the expression reads our slot, not the node's scan tuple
	 * (whose descriptor is the custom scan list's), so nothing may assume the
	 * node's slot type; it has no Params or subplans to need one.
	 */
	key->state = ExecInitExpr(expr, NULL);
	/* the executor's tuple table releases it (and its descriptor) at the end */
	key->slot = ExecInitExtraTupleSlot(estate, desc, &TTSOpsVirtual);
	/* columns other than the inputs stay NULL */
	for (i = 0; i < desc->natts; i++)
	{
		key->slot->tts_values[i] = (Datum) 0;
		key->slot->tts_isnull[i] = true;
	}
	ExecStoreVirtualTuple(key->slot);
	if (key->ninputs == 1)
	{
		key->cache = palloc0(sizeof(KeyExprCacheEntry) * KEY_EXPR_CACHE_SIZE);
		key->batch = 1;
		key->cache_per_batch = !TupleDescAttr(desc, key->inputs[0])->attbyval ||
			!get_typbyval(exprType((Node *) expr));
	}
	return key;
}

/* Evaluate the expression over the row whose inputs are in key->slot. */
static inline Datum
EvaluateRow(GroupKeyExpr *key, ExprContext *econtext, bool *isnull)
{
	econtext->ecxt_scantuple = key->slot;
	return ExecEvalExpr(key->state, econtext, isnull);
}

/*
 * Entry of a raw input datum in the cache: Fibonacci hashing, whose top
 * bits spread runs of consecutive values (dates, integer codes) evenly over
 * the entries, so such a column's values do not evict one another.
 */
static inline uint32
CacheSlot(Datum value)
{
	return (uint32) (((uint64) value * UINT64CONST(0x9E3779B97F4A7C15)) >>
					 (64 - KEY_EXPR_CACHE_BITS));
}

/*
 * GroupKeyExprEvaluate
 *		The expression's value for each of the nrows rows of scan's current
 *		batch that are selected (all if selected is NULL), into *values and
 *		*isnull (arrays of nrows allocated in CurrentMemoryContext, which
 *		also holds pass-by-reference results); unselected rows read as
 *		NULL and are never evaluated, so they raise no error.  May raise
 *		whatever the expression raises.  Sets econtext's scan tuple to the
 *		key's own slot (ExecScan sets it again for its own use).
 */
void
GroupKeyExprEvaluate(GroupKeyExpr *key, TableScanDesc scan, ExprContext *econtext,
					 int nrows, const bool *selected, Datum **values, bool **isnull)
{
	Datum	   *result = palloc(sizeof(Datum) * Max(nrows, 1));
	bool	   *result_isnull = palloc(sizeof(bool) * Max(nrows, 1));
	int			i;
	int			j;

	for (j = 0; j < key->ninputs; j++)
		ColstoreScanBatchColumn(scan, key->inputs[j], &key->input_values[j],
								&key->input_isnull[j]);
	if (key->cache != NULL && key->cache_per_batch && ++key->batch == 0)
	{
		/* the counter wrapped: empty the entries it could confuse */
		memset(key->cache, 0, sizeof(KeyExprCacheEntry) * KEY_EXPR_CACHE_SIZE);
		key->batch = 1;
	}
	for (i = 0; i < nrows; i++)
	{
		if (selected != NULL && !selected[i])
		{
			result[i] = (Datum) 0;
			result_isnull[i] = true;
			continue;
		}
		if (key->cache != NULL)
		{
			int			att = key->inputs[0];
			Datum		input = key->input_values[0][i];
			bool		input_isnull = key->input_isnull[0][i];
			KeyExprCacheEntry *entry = &key->cache[input_isnull ? 0 : CacheSlot(input)];

			if (entry->batch != key->batch || entry->input_isnull != input_isnull ||
				(!input_isnull && entry->input != input))
			{
				key->slot->tts_values[att] = input;
				key->slot->tts_isnull[att] = input_isnull;
				entry->batch = key->batch;
				entry->input = input;
				entry->input_isnull = input_isnull;
				entry->result = EvaluateRow(key, econtext, &entry->result_isnull);
			}
			result[i] = entry->result;
			result_isnull[i] = entry->result_isnull;
			continue;
		}
		for (j = 0; j < key->ninputs; j++)
		{
			key->slot->tts_values[key->inputs[j]] = key->input_values[j][i];
			key->slot->tts_isnull[key->inputs[j]] = key->input_isnull[j][i];
		}
		result[i] = EvaluateRow(key, econtext, &result_isnull[i]);
	}
	*values = result;
	*isnull = result_isnull;
}
