/*-------------------------------------------------------------------------
 *
 * chunk_pruning.c
 *	  Skipping chunks whose min/max or NULL count refute a scan's quals,
 *	  and deciding the same quals row by row over decoded batches.
 *
 * Every row group header keeps, per column and chunk, the number of NULLs
 * and (for types with a default btree ordering) the minimum and maximum
 * value, computed by the writer with the type's default btree comparison
 * function (rowgroup_writer.c).  A qual "column op value" whose operator
 * belongs to that same btree operator family, "column = ANY (array)" (an
 * IN list, refuted when every non-NULL element is), or "column IS [NOT]
 * NULL", can then prove that no row of a chunk passes, and the chunk is
 * skipped without being read.  For ColstoreScan pruning is only a shortcut:
 * the executor still evaluates every qual on the rows of the chunks read.
 *
 * ColstoreAgg has no executor quals: ChunkPrunerFilterRows decides the
 * quals PruningClauseIsExact accepts (strict operators) for every row of a
 * batch, exactly as the executor would.  Integer-like comparisons and IN
 * lists compare int64s (a date column against a timestamp through the
 * equivalent date bound, DateBoundOfTimestamp), numeric comparisons on
 * chunks in the scaled-integer encoding compare scaled integers, and the
 * rest call the btree comparison function.
 *
 * The planner side (PruningClauseColumn, PruningClauseIsExact) picks the
 * usable clauses; the executor side builds keys from them
 * (ChunkPrunerCreate), evaluates their value expressions once per scan
 * (ChunkPrunerEvaluate: the value side may be a parameter or a stable
 * function call), tests chunks (ChunkPrunerRefutes) and filters rows
 * (ChunkPrunerFilterRows).
 *
 * Stats are used only if they were written for the column's current type
 * and collation (RowGroupChunkStatsMatch): ALTER COLUMN ... TYPE between
 * binary-compatible types and ALTER COLUMN ... COLLATE keep old row groups
 * as they are.  Collatable columns are not pruned yet (that needs the
 * clause's collation to be the column's, and text comparisons pass it).
 *
 * IDENTIFICATION
 *	  src/cscan/chunk_pruning.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "access/stratnum.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/array.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "cscan/chunk_pruning.h"
#include "encoding/numeric_view.h"
#include "storage/integer_order.h"

/* What a key tests. */
typedef enum PruneKeyKind
{
	PRUNE_COMPARE,				/* column <strategy> value */
	PRUNE_IN,					/* column = ANY (array value) */
	PRUNE_IS_NULL,
	PRUNE_IS_NOT_NULL
} PruneKeyKind;


typedef struct PruneKey
{
	int			attno;			/* 0-based attribute */
	PruneKeyKind kind;
	int			strategy;		/* BT*StrategyNumber, for PRUNE_COMPARE */
	FmgrInfo	cmp;			/* BTORDER_PROC(column type, value type) */
	bool		strict;			/* NULL value: no row passes */
	ExprState  *value_expr;
	int16		value_typlen;
	bool		value_typbyval;
	/* both sides int2/int4/int8 (or both date): compare as int64 */
	Oid			int_column_type;	/* InvalidOid: use cmp */
	Oid			int_value_type;
	int64		int_value;
	bool		int_ok;			/* int_value holds the evaluated value */
	bool		date_bound;		/* date column, timestamp value: int_value is
								 * DateBoundOfTimestamp's bound */
	/* both sides numeric: compare scaled-integer chunks as int128s */
	bool		numeric_key;
	bool		scaled_ok;		/* the value fits: */
	int128		scaled_value;	/* value * 10^scaled_scale */
	int			scaled_scale;
	Datum		value;			/* evaluated by ChunkPrunerEvaluate */
	bool		value_isnull;
	/* PRUNE_IN: the array's element type and its non-NULL elements */
	Oid			elem_type;
	int			nelems;
	Datum	   *elems;
	int64	   *int_elems;		/* as int64s, if int_column_type is set */
} PruneKey;

struct ChunkPruner
{
	TupleDesc	desc;
	int			nkeys;
	PruneKey   *keys;
	MemoryContext value_cxt;	/* evaluated values */
	MemoryContext tmp_cxt;		/* min/max of the chunk being tested */
};

/* The column of a pruning argument: a Var of relid, maybe relabeled. */
static Var *
ArgColumn(Node *arg, Index relid)
{
	while (IsA(arg, RelabelType))
		arg = (Node *) ((RelabelType *) arg)->arg;
	if (IsA(arg, Var) &&
		((Var *) arg)->varno == relid &&
		((Var *) arg)->varattno > 0 &&
		((Var *) arg)->varlevelsup == 0 &&
		!OidIsValid(((Var *) arg)->varcollid))
		return (Var *) arg;
	return NULL;
}

/* Can arg be computed once per scan (no Vars, nothing volatile)? */
static bool
IsScanConstant(Node *arg)
{
	return !contain_var_clause(arg) &&
		!contain_volatile_functions(arg) &&
		!contain_subplans(arg);
}

/*
 * Btree strategy and comparison function of "column op value" for a column
 * of type coltype, looked up in the type's default btree operator family
 * (the ordering its min/max were computed with).  Returns 0 if op is not
 * usable.
 */
static int
OperatorStrategy(Oid opno, Oid coltype, Oid *cmp_proc)
{
	TypeCacheEntry *tce;
	Oid			lefttype;
	Oid			righttype;
	int			strategy;

	coltype = getBaseType(coltype);
	tce = lookup_type_cache(coltype, TYPECACHE_BTREE_OPFAMILY);
	if (!OidIsValid(tce->btree_opf))
		return 0;
	strategy = get_op_opfamily_strategy(opno, tce->btree_opf);
	if (strategy < BTLessStrategyNumber || strategy > BTGreaterStrategyNumber)
		return 0;
	op_input_types(opno, &lefttype, &righttype);
	if (lefttype != coltype)
		return 0;
	*cmp_proc = get_opfamily_proc(tce->btree_opf, lefttype, righttype, BTORDER_PROC);
	return OidIsValid(*cmp_proc) ? strategy : 0;
}

/*
 * Split clause into column, operator (as "column op value") and value, or
 * return NULL if it is not "column op value", "value op column",
 * "column op ANY (array value)" (IN lists) or "column IS [NOT] NULL".
 */
static Var *
SplitClause(Expr *clause, Index relid, Oid *opno, Expr **value,
			PruneKeyKind *kind)
{
	*kind = PRUNE_COMPARE;
	if (IsA(clause, OpExpr) && list_length(((OpExpr *) clause)->args) == 2)
	{
		OpExpr	   *op = (OpExpr *) clause;
		Node	   *left = linitial(op->args);
		Node	   *right = lsecond(op->args);
		Var		   *var;

		if ((var = ArgColumn(left, relid)) != NULL && IsScanConstant(right))
		{
			*opno = op->opno;
			*value = (Expr *) right;
			return var;
		}
		if ((var = ArgColumn(right, relid)) != NULL && IsScanConstant(left))
		{
			*opno = get_commutator(op->opno);
			*value = (Expr *) left;
			return OidIsValid(*opno) ? var : NULL;
		}
		return NULL;
	}
	if (IsA(clause, ScalarArrayOpExpr) && ((ScalarArrayOpExpr *) clause)->useOr &&
		list_length(((ScalarArrayOpExpr *) clause)->args) == 2)
	{
		ScalarArrayOpExpr *saop = (ScalarArrayOpExpr *) clause;
		Var		   *var = ArgColumn(linitial(saop->args), relid);

		*kind = PRUNE_IN;
		*opno = saop->opno;
		*value = lsecond(saop->args);
		return var != NULL && IsScanConstant((Node *) *value) ? var : NULL;
	}
	if (IsA(clause, NullTest) && !((NullTest *) clause)->argisrow)
	{
		NullTest   *nt = (NullTest *) clause;

		*kind = (nt->nulltesttype == IS_NULL) ? PRUNE_IS_NULL : PRUNE_IS_NOT_NULL;
		*value = NULL;
		return ArgColumn((Node *) nt->arg, relid);
	}
	return NULL;
}

/*
 * PruningClauseColumn
 *		The column a restriction clause on relation relid lets chunks be
 *		pruned by, or NULL if the clause cannot prune.
 */
Var *
PruningClauseColumn(Expr *clause, Index relid)
{
	Oid			opno = InvalidOid;
	Oid			cmp_proc;
	Expr	   *value;
	PruneKeyKind kind;
	Var		   *var = SplitClause(clause, relid, &opno, &value, &kind);

	if (var == NULL)
		return NULL;
	if (kind == PRUNE_IN)
		return OperatorStrategy(opno, var->vartype, &cmp_proc) == BTEqualStrategyNumber ?
			var : NULL;
	if (kind != PRUNE_COMPARE)
		return var;
	return OperatorStrategy(opno, var->vartype, &cmp_proc) != 0 ? var : NULL;
}

/*
 * Can "column op value" with these types be decided by comparing int64s?
 * True for a type with signed integer order against itself, and for the
 * integer types among themselves (btree family integer_ops), and for a
 * date column against a timestamp without time zone, whose value becomes a
 * date bound (DateBoundOfTimestamp).
 */
static bool
IntegerLike(Oid column_type, Oid value_type)
{
	if (column_type == value_type)
		return TypeHasSignedIntegerOrder(column_type);
	if (column_type == DATEOID && value_type == TIMESTAMPOID)
		return true;
	return (column_type == INT2OID || column_type == INT4OID || column_type == INT8OID) &&
		(value_type == INT2OID || value_type == INT4OID || value_type == INT8OID);
}

/*
 * DateBoundOfTimestamp
 *		For "date_column <strategy> t" with a finite timestamp t, the date
 *		*bound such that "date_column <strategy> *bound" selects the same
 *		dates: a date is midnight of its day, so d < t iff d < ceil(t / day),
 *		d <= t iff d <= floor(t / day), and so on; d = t only if t is a
 *		midnight (otherwise *bound is no date at all).  The infinite dates
 *		and those beyond the timestamp range compare below or above every
 *		finite bound, as date_cmp_timestamp orders them.  False for an
 *		infinite t (the caller compares with the support function then).
 */
static bool
DateBoundOfTimestamp(int strategy, Timestamp t, int64 *bound)
{
	int64		floor_days;
	bool		midnight;

	if (TIMESTAMP_NOT_FINITE(t))
		return false;
	floor_days = t / USECS_PER_DAY;
	if (t % USECS_PER_DAY < 0)
		floor_days--;
	midnight = t % USECS_PER_DAY == 0;
	switch (strategy)
	{
		case BTLessStrategyNumber:
		case BTGreaterEqualStrategyNumber:
			*bound = midnight ? floor_days : floor_days + 1;
			break;
		case BTEqualStrategyNumber:
			*bound = midnight ? floor_days : PG_INT64_MAX;
			break;
		default:
			*bound = floor_days;
			break;
	}
	return true;
}

/*
 * ChunkPrunerCreate
 *		Build pruning keys from clauses (the executor's copies of clauses
 *		PruningClauseColumn accepted, whose Vars of the scanned relation
 *		have varno relid), their value expressions initialized in parent.
 *		desc is the relation's descriptor.  Clauses that cannot prune are ignored.
 *		The pruner and its two memory contexts (evaluated values, per-test
 *		scratch) are created in CurrentMemoryContext, which must live as
 *		long as the scan (the executor's per-query context); it errors only
 *		on catalog lookup failures.
 */
ChunkPruner *
ChunkPrunerCreate(List *clauses, Index relid, TupleDesc desc, PlanState *parent)
{
	ChunkPruner *pruner = palloc0(sizeof(ChunkPruner));
	ListCell   *lc;

	pruner->desc = desc;
	pruner->keys = palloc0(sizeof(PruneKey) * Max(list_length(clauses), 1));
	pruner->value_cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "colstore pruning values",
											  ALLOCSET_SMALL_SIZES);
	pruner->tmp_cxt = AllocSetContextCreate(CurrentMemoryContext,
											"colstore pruning chunk stats",
											ALLOCSET_SMALL_SIZES);
	foreach(lc, clauses)
	{
		Expr	   *clause = (Expr *) lfirst(lc);
		PruneKey   *key = &pruner->keys[pruner->nkeys];
		Oid			opno = InvalidOid;
		Oid			cmp_proc = InvalidOid;
		Expr	   *value;
		Var		   *var;

		/* a slot a skipped clause began to fill is used again */
		memset(key, 0, sizeof(PruneKey));

		var = SplitClause(clause, relid, &opno, &value, &key->kind);
		if (var == NULL || var->varattno > desc->natts)
			continue;
		key->attno = var->varattno - 1;
		if (key->kind == PRUNE_IN)
		{
			key->strategy = OperatorStrategy(opno, var->vartype, &cmp_proc);
			if (key->strategy != BTEqualStrategyNumber)
				continue;
			fmgr_info(cmp_proc, &key->cmp);
			key->strict = op_strict(opno);
			key->value_expr = ExecInitExpr(value, parent);
			key->elem_type = get_element_type(exprType((Node *) value));
			if (!OidIsValid(key->elem_type))
				continue;
			/* no date bounds for lists: a date column against timestamps calls cmp */
			if (IntegerLike(getBaseType(var->vartype), key->elem_type) &&
				!(getBaseType(var->vartype) == DATEOID && key->elem_type == TIMESTAMPOID))
			{
				key->int_column_type = getBaseType(var->vartype);
				key->int_value_type = key->elem_type;
			}
			key->value_typlen = -1;
			key->value_typbyval = false;
			key->value_isnull = true;
		}
		else if (key->kind == PRUNE_COMPARE)
		{
			key->strategy = OperatorStrategy(opno, var->vartype, &cmp_proc);
			if (key->strategy == 0)
				continue;
			fmgr_info(cmp_proc, &key->cmp);
			key->strict = op_strict(opno);
			key->value_expr = ExecInitExpr(value, parent);
			key->numeric_key = var->vartype == NUMERICOID &&
				exprType((Node *) value) == NUMERICOID;
			if (IntegerLike(getBaseType(var->vartype), exprType((Node *) value)))
			{
				key->int_column_type = getBaseType(var->vartype);
				key->int_value_type = exprType((Node *) value);
				key->date_bound = key->int_column_type == DATEOID &&
					key->int_value_type == TIMESTAMPOID;
			}
			get_typlenbyval(exprType((Node *) value), &key->value_typlen,
							&key->value_typbyval);
			key->value_isnull = true;
		}
		pruner->nkeys++;
	}
	return pruner;
}

/*
 * PruningClauseIsExact
 *		True if the clause is one PruningClauseColumn accepts and its
 *		operator is strict, so ChunkPrunerFilterRows decides it for every
 *		row exactly as the executor would (NULL input: the row fails).
 */
bool
PruningClauseIsExact(Expr *clause, Index relid)
{
	Oid			opno = InvalidOid;
	Expr	   *value;
	PruneKeyKind kind;

	if (PruningClauseColumn(clause, relid) == NULL)
		return false;
	(void) SplitClause(clause, relid, &opno, &value, &kind);
	return kind == PRUNE_IS_NULL || kind == PRUNE_IS_NOT_NULL || op_strict(opno);
}

/*
 * The non-NULL elements of an IN key's evaluated array (NULL elements
 * cannot make a row pass a strict "=", and such rows fail the filter either
 * way), into the current memory context.
 */
static void
ReadArrayElements(PruneKey *key)
{
	ArrayType  *array = DatumGetArrayTypeP(key->value);
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	int			i;

	get_typlenbyvalalign(key->elem_type, &typlen, &typbyval, &typalign);
	deconstruct_array(array, key->elem_type, typlen, typbyval, typalign,
					  &elems, &nulls, &n);
	key->elems = palloc(sizeof(Datum) * Max(n, 1));
	key->int_elems = palloc(sizeof(int64) * Max(n, 1));
	key->nelems = 0;
	for (i = 0; i < n; i++)
	{
		if (nulls[i])
			continue;
		key->elems[key->nelems] = elems[i];
		if (OidIsValid(key->int_column_type))
			key->int_elems[key->nelems] = SignedIntegerDatum(key->elem_type, elems[i]);
		key->nelems++;
	}
	key->int_ok = OidIsValid(key->int_column_type);
}

/*
 * ChunkPrunerEvaluate
 *		Compute the value side of every key into the pruner's own memory;
 *		called before a scan reads its first row, and again after a rescan
 *		(parameters may have changed).  Not at plan initialization: the
 *		values may depend on initplans that run only when needed.
 */
void
ChunkPrunerEvaluate(ChunkPruner *pruner, ExprContext *econtext)
{
	int			i;

	MemoryContextReset(pruner->value_cxt);
	for (i = 0; i < pruner->nkeys; i++)
	{
		PruneKey   *key = &pruner->keys[i];
		Datum		value;
		MemoryContext oldcxt;

		if (key->value_expr == NULL)
			continue;
		value = ExecEvalExprSwitchContext(key->value_expr, econtext,
										  &key->value_isnull);
		oldcxt = MemoryContextSwitchTo(pruner->value_cxt);
		key->value = key->value_isnull ? (Datum) 0 :
			datumCopy(value, key->value_typbyval, key->value_typlen);
		key->int_ok = false;
		if (key->kind == PRUNE_IN)
		{
			if (!key->value_isnull)
				ReadArrayElements(key);
			MemoryContextSwitchTo(oldcxt);
			continue;
		}
		if (!key->value_isnull && OidIsValid(key->int_column_type))
		{
			if (key->date_bound)
				key->int_ok = DateBoundOfTimestamp(key->strategy,
												   DatumGetTimestamp(key->value),
												   &key->int_value);
			else
			{
				key->int_value = SignedIntegerDatum(key->int_value_type, key->value);
				key->int_ok = true;
			}
		}
		key->scaled_ok = false;
		if (!key->value_isnull && key->numeric_key)
		{
			NumericView view;

			key->scaled_ok = NumericViewOf(key->value, &view) &&
				view.kind == NUMERIC_VIEW_FINITE &&
				NumericViewScaled(&view, NUMERIC_INT128_MAX_SCALE,
								  &key->scaled_value, &key->scaled_scale);
		}
		MemoryContextSwitchTo(oldcxt);
	}
}

/* Does [min, max] rule out "column <strategy> value"? */
static bool
RangeRefutes(PruneKey *key, Datum min, Datum max, Datum value)
{
	int32		cmp_min = 0;
	int32		cmp_max = 0;

	if (key->strategy != BTGreaterStrategyNumber &&
		key->strategy != BTGreaterEqualStrategyNumber)
		cmp_min = DatumGetInt32(FunctionCall2(&key->cmp, min, value));
	if (key->strategy != BTLessStrategyNumber &&
		key->strategy != BTLessEqualStrategyNumber)
		cmp_max = DatumGetInt32(FunctionCall2(&key->cmp, max, value));
	switch (key->strategy)
	{
		case BTLessStrategyNumber:
			return cmp_min >= 0;
		case BTLessEqualStrategyNumber:
			return cmp_min > 0;
		case BTEqualStrategyNumber:
			return cmp_min > 0 || cmp_max < 0;
		case BTGreaterEqualStrategyNumber:
			return cmp_max < 0;
		case BTGreaterStrategyNumber:
			return cmp_max <= 0;
	}
	return false;
}

/* Does one key rule out every row of chunk chunkno of the group? */
static bool
KeyRefutes(ChunkPruner *pruner, PruneKey *key, const RowGroupHeader *h,
		   uint32 chunkno)
{
	const ChunkDesc *cd;
	Form_pg_attribute att;
	uint32		rows;
	Datum		min;
	Datum		max;

	if (key->attno >= h->natts)
		return false;			/* column added later: its missing value */
	cd = RowGroupChunk(h, key->attno, chunkno);
	rows = (uint32) RowGroupChunkRows(h, chunkno);
	if (key->kind == PRUNE_IS_NULL)
		return cd->cd_nnulls == 0;
	if (key->kind == PRUNE_IS_NOT_NULL)
		return cd->cd_nnulls >= rows;
	if (!key->strict)
		return false;
	if (key->value_isnull || cd->cd_nnulls >= rows ||
		(key->kind == PRUNE_IN && key->nelems == 0))
		return true;			/* a strict operator yields NULL for every row */
	att = TupleDescAttr(pruner->desc, key->attno);
	if (!RowGroupChunkStatsMatch(h, att, key->attno, chunkno) ||
		!RowGroupChunkMinMax(h, att, key->attno, chunkno, &min, &max))
		return false;
	if (key->kind == PRUNE_IN)
	{
		int			i;

		for (i = 0; i < key->nelems; i++)
		{
			if (!RangeRefutes(key, min, max, key->elems[i]))
				return false;
		}
		return true;
	}
	return RangeRefutes(key, min, max, key->value);
}

/*
 * ChunkPrunerRefutes
 *		True if the keys prove that no row of chunk chunkno of the row group
 *		h passes the scan's quals.  The signature is ColstoreChunkFilter's.
 */
bool
ChunkPrunerRefutes(void *arg, const RowGroupHeader *h, uint32 chunkno)
{
	ChunkPruner *pruner = (ChunkPruner *) arg;
	MemoryContext oldcxt = MemoryContextSwitchTo(pruner->tmp_cxt);
	bool		refuted = false;
	int			i;

	for (i = 0; i < pruner->nkeys && !refuted; i++)
		refuted = KeyRefutes(pruner, &pruner->keys[i], h, chunkno);
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(pruner->tmp_cxt);
	return refuted;
}

/* Does value pass "column <strategy> key value"? */
static inline bool
ComparePasses(PruneKey *key, Datum value)
{
	int32		cmp = DatumGetInt32(FunctionCall2(&key->cmp, value, key->value));

	switch (key->strategy)
	{
		case BTLessStrategyNumber:
			return cmp < 0;
		case BTLessEqualStrategyNumber:
			return cmp <= 0;
		case BTEqualStrategyNumber:
			return cmp == 0;
		case BTGreaterEqualStrategyNumber:
			return cmp >= 0;
		case BTGreaterStrategyNumber:
			return cmp > 0;
	}
	return false;
}

/*
 * selected[i] &= row i is not NULL and GET(values[i]) OP c, for all rows:
 * branch-free, so rows that were already dropped cost as little as others.
 */
#define FILTER_LOOP(GET, OP, C) \
	for (i = 0; i < nrows; i++) \
		selected[i] &= !isnull[i] & ((GET(values[i])) OP (C))

/* One loop per comparison strategy for a value reader GET. */
#define FILTER_BY_STRATEGY(GET, C) \
	switch (strategy) \
	{ \
		case BTLessStrategyNumber: FILTER_LOOP(GET, <, C); break; \
		case BTLessEqualStrategyNumber: FILTER_LOOP(GET, <=, C); break; \
		case BTEqualStrategyNumber: FILTER_LOOP(GET, ==, C); break; \
		case BTGreaterEqualStrategyNumber: FILTER_LOOP(GET, >=, C); break; \
		case BTGreaterStrategyNumber: FILTER_LOOP(GET, >, C); break; \
		default: memset(selected, 0, nrows); break; \
	}

#define GET_INT16(v)	((int64) DatumGetInt16(v))
#define GET_INT32(v)	((int64) DatumGetInt32(v))
#define GET_INT64(v)	DatumGetInt64(v)
#define GET_INT64_VALUE(v)	(v)
#define GET_SCALED(v)	((int128) (v))
#define GET_RESCALED(v)	((int128) (v) * factor)

/* ChunkPrunerFilterRows for a comparison of integers: no function calls. */
static void
FilterIntegerKey(const PruneKey *key, int nrows, const Datum *values,
				 const bool *isnull, bool *selected)
{
	int			strategy = key->strategy;
	int64		c = key->int_value;
	int			i;

	switch (key->int_column_type)
	{
		case INT2OID:
			FILTER_BY_STRATEGY(GET_INT16, c);
			break;
		case INT4OID:
		case DATEOID:
			FILTER_BY_STRATEGY(GET_INT32, c);
			break;
		default:
			FILTER_BY_STRATEGY(GET_INT64, c);
			break;
	}
}

/* Does value equal an element of an IN key's list? */
static bool
InListPasses(PruneKey *key, Datum value)
{
	int			j;

	for (j = 0; j < key->nelems; j++)
	{
		if (DatumGetInt32(FunctionCall2(&key->cmp, value, key->elems[j])) == 0)
			return true;
	}
	return false;
}

/*
 * selected[i] &= row i is not NULL and GET(values[i]) is in the list; the
 * column type's switch is outside the loop.
 */
#define IN_LIST_LOOP(GET) \
	for (i = 0; i < nrows; i++) \
	{ \
		bool		found = false; \
		if (!selected[i] || isnull[i]) \
		{ \
			selected[i] = false; \
			continue; \
		} \
		for (j = 0; j < key->nelems && !found; j++) \
			found = GET(values[i]) == key->int_elems[j]; \
		selected[i] = found; \
	}

/* ChunkPrunerFilterRows for an IN list of integers: no function calls. */
static void
FilterIntegerInList(const PruneKey *key, int nrows, const Datum *values,
					const bool *isnull, bool *selected)
{
	int			i;
	int			j;

	switch (key->int_column_type)
	{
		case INT2OID:
			IN_LIST_LOOP(GET_INT16);
			break;
		case INT4OID:
		case DATEOID:
			IN_LIST_LOOP(GET_INT32);
			break;
		default:
			IN_LIST_LOOP(GET_INT64);
			break;
	}
}

/*
 * ChunkPrunerFilterRows for a comparison of a numeric column with a numeric
 * value, when the batch's chunk stores the column as scaled integers: both
 * sides as int128s at the larger scale, no numerics built.  Returns false
 * (and changes nothing) if the batch is in another form or a side would
 * not fit.
 */
static bool
FilterScaledKey(const PruneKey *key, int nrows, ChunkPrunerFetchScaled fetch_scaled,
				void *arg, bool *selected)
{
	int64	   *values;
	int64	   *dscales;
	bool	   *isnull;
	int			scale;
	int			common;
	int128		factor = 1;
	int128		c;
	int			strategy = key->strategy;
	int			i;

	if (fetch_scaled == NULL || !key->scaled_ok ||
		!fetch_scaled(arg, key->attno, &values, &dscales, &isnull, &scale))
		return false;
	common = Max(scale, key->scaled_scale);
	c = key->scaled_value;
	/* an int64 times 10^18 always fits an int128 */
	if (common - scale > 18 || !Int128MulPow10(&factor, common - scale) ||
		!Int128MulPow10(&c, common - key->scaled_scale))
		return false;
	if (factor == 1 && c == (int64) c)
	{
		/* the chunk's scale is the larger and c fits: int64 compares */
		int64		c64 = (int64) c;

		FILTER_BY_STRATEGY(GET_INT64_VALUE, c64);
	}
	else if (factor == 1)
	{
		FILTER_BY_STRATEGY(GET_SCALED, c);
	}
	else
	{
		FILTER_BY_STRATEGY(GET_RESCALED, c);
	}
	return true;
}

/*
 * ChunkPrunerFilterRows
 *		Clear selected[i] for each of the nrows rows of a batch that fails a
 *		key; fetch(arg, attno, &values, &isnull) gives a column of the batch,
 *		fetch_scaled (or NULL) a numeric column as scaled integers if the
 *		batch stores it so.
 *		Exact only for keys built from clauses PruningClauseIsExact accepts
 *		(the caller checks that at plan time); values must have been
 *		evaluated (ChunkPrunerEvaluate).
 */
void
ChunkPrunerFilterRows(ChunkPruner *pruner, int nrows, ChunkPrunerFetch fetch,
					  ChunkPrunerFetchScaled fetch_scaled, void *arg,
					  bool *selected)
{
	MemoryContext oldcxt;
	int			k;

	for (k = 0; k < pruner->nkeys; k++)
	{
		PruneKey   *key = &pruner->keys[k];
		Datum	   *values;
		bool	   *isnull;
		int			i;

		if (key->kind == PRUNE_COMPARE && key->numeric_key &&
			FilterScaledKey(key, nrows, fetch_scaled, arg, selected))
			continue;
		fetch(arg, key->attno, &values, &isnull);
		if (key->kind == PRUNE_IN && !key->value_isnull && key->int_ok)
		{
			FilterIntegerInList(key, nrows, values, isnull, selected);
			continue;
		}
		if (key->kind == PRUNE_COMPARE && !key->value_isnull && key->int_ok)
		{
			FilterIntegerKey(key, nrows, values, isnull, selected);
			continue;
		}
		/* comparison functions may allocate (detoasting): per batch memory */
		oldcxt = MemoryContextSwitchTo(pruner->tmp_cxt);
		for (i = 0; i < nrows; i++)
		{
			if (!selected[i])
				continue;
			switch (key->kind)
			{
				case PRUNE_IS_NULL:
					selected[i] = isnull[i];
					break;
				case PRUNE_IS_NOT_NULL:
					selected[i] = !isnull[i];
					break;
				case PRUNE_COMPARE:
					selected[i] = !isnull[i] && !key->value_isnull &&
						ComparePasses(key, values[i]);
					break;
				case PRUNE_IN:
					selected[i] = !isnull[i] && !key->value_isnull &&
						InListPasses(key, values[i]);
					break;
			}
		}
		MemoryContextSwitchTo(oldcxt);
		MemoryContextReset(pruner->tmp_cxt);
	}
}

/* The number of keys built (clauses that could not prune were dropped). */
int
ChunkPrunerNumKeys(const ChunkPruner *pruner)
{
	return pruner->nkeys;
}
