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
 * quals PruningClauseIsExact accepts (strict operators, and ANDs and ORs of
 * them) for every row of a batch, exactly as the executor would; an OR
 * prunes a chunk when every argument does.  Integer-like comparisons and IN
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
 * Collatable columns (text, varchar, bpchar, name) take clauses whose
 * collation is deterministic and, for comparisons, the column's own, the
 * one min/max were computed under; comparison functions get it.  Text and
 * varchar "=" and IN lists compare bytes (equality under a deterministic
 * collation).  "column LIKE pattern" on text and varchar keeps the
 * pattern's literal prefix: a row must start with it (a pattern that is
 * just prefix% needs nothing else, any other calls LIKE's function on the
 * rows that do), and where the column's collation orders bytes ("C"),
 * chunks whose min/max leave no room for the prefix are skipped.
 *
 * Stats are used only if they were written for the column's current type
 * and collation (RowGroupChunkStatsMatch): ALTER COLUMN ... TYPE between
 * binary-compatible types and ALTER COLUMN ... COLLATE keep old row groups
 * as they are.
 *
 * IDENTIFICATION
 *	  src/cscan/chunk_pruning.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "access/stratnum.h"
#include "catalog/pg_operator_d.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/array.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "cscan/chunk_pruning.h"
#include "encoding/numeric_view.h"
#include "storage/integer_order.h"

/*
 * The strategy of "<>", which no btree operator family has: a row passes
 * when the comparison function says its value differs.
 */
#define NOT_EQUAL_STRATEGY	(BTMaxStrategyNumber + 1)

/* What a key tests. */
typedef enum PruneKeyKind
{
	PRUNE_COMPARE,				/* column <strategy> value */
	PRUNE_IN,					/* column = ANY (array value) */
	PRUNE_IS_NULL,
	PRUNE_IS_NOT_NULL,
	PRUNE_LIKE,					/* text column LIKE pattern value */
	PRUNE_AND,					/* every one of subkeys */
	PRUNE_OR					/* any one of subkeys */
} PruneKeyKind;


typedef struct PruneKey
{
	int			attno;			/* 0-based attribute */
	PruneKeyKind kind;
	int			strategy;		/* BT*StrategyNumber, for PRUNE_COMPARE */
	FmgrInfo	cmp;			/* BTORDER_PROC(column type, value type) */
	Oid			collation;		/* the clause's, for cmp (InvalidOid if none) */
	bool		strict;			/* NULL value: no row passes */
	/* text or varchar "=" and IN under a deterministic collation: bytes */
	bool		bytes_equal;
	/* PRUNE_LIKE: the operator, and the pattern's literal prefix */
	FmgrInfo	like;
	bool		prefix_orders;	/* the column's stats are in byte order ("C") */
	char	   *prefix;
	int			prefix_len;
	bool		prefix_only;	/* the pattern is prefix%: no call needed */
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
	/* PRUNE_AND, PRUNE_OR: the arguments, and PRUNE_OR's scratch rows */
	int			nsubkeys;
	struct PruneKey *subkeys;
	bool	   *arm_rows;
	bool	   *any_rows;
	int			rows_capacity;
} PruneKey;

struct ChunkPruner
{
	TupleDesc	desc;
	int			nkeys;
	PruneKey   *keys;
	MemoryContext cxt;			/* the keys and their scratch rows */
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
		((Var *) arg)->varlevelsup == 0)
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
	if (strategy == 0 && OidIsValid(get_negator(opno)) &&
		get_op_opfamily_strategy(get_negator(opno), tce->btree_opf) == BTEqualStrategyNumber)
		strategy = NOT_EQUAL_STRATEGY;	/* "<>": the negator of the family's "=" */
	else if (strategy < BTLessStrategyNumber || strategy > BTGreaterStrategyNumber)
		return 0;
	op_input_types(opno, &lefttype, &righttype);
	/* the column's type, or the operator class's for a binary-compatible one (varchar) */
	if (lefttype != coltype && lefttype != tce->btree_opintype)
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
			PruneKeyKind *kind, Oid *collation)
{
	*kind = PRUNE_COMPARE;
	*collation = InvalidOid;
	if (IsA(clause, OpExpr) && list_length(((OpExpr *) clause)->args) == 2)
	{
		OpExpr	   *op = (OpExpr *) clause;
		Node	   *left = linitial(op->args);
		Node	   *right = lsecond(op->args);
		Var		   *var;

		*collation = op->inputcollid;
		if ((var = ArgColumn(left, relid)) != NULL && IsScanConstant(right))
		{
			*opno = op->opno;
			*value = (Expr *) right;
			if (op->opno == OID_TEXT_LIKE_OP)
				*kind = PRUNE_LIKE;
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
		*collation = saop->inputcollid;
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

/* Is var a text or varchar column (LIKE's and byte equality's types)? */
static bool
IsTextColumn(Var *var)
{
	Oid			type = getBaseType(var->vartype);

	return type == TEXTOID || type == VARCHAROID;
}

/*
 * Can a clause on var under collation be decided here?  Columns without a
 * collation always.  For a collatable column the clause's collation must be
 * deterministic (equality is then byte equality, and LIKE works) and, for
 * comparisons, the column's own: min/max are ordered by it.
 */
static bool
CollationUsable(Var *var, PruneKeyKind kind, Oid collation)
{
	if (!OidIsValid(var->varcollid) || kind == PRUNE_IS_NULL || kind == PRUNE_IS_NOT_NULL)
		return true;
	if (!OidIsValid(collation) || !get_collation_isdeterministic(collation))
		return false;
	return kind == PRUNE_LIKE || collation == var->varcollid;
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
	Oid			collation;
	Var		   *var = SplitClause(clause, relid, &opno, &value, &kind, &collation);

	if (var == NULL || !CollationUsable(var, kind, collation))
		return NULL;
	if (kind == PRUNE_LIKE)
		return IsTextColumn(var) ? var : NULL;
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
		case NOT_EQUAL_STRATEGY:
			*bound = midnight ? floor_days : PG_INT64_MAX;
			break;
		default:
			*bound = floor_days;
			break;
	}
	return true;
}

/*
 * Build key from clause: a leaf (see SplitClause) or an AND or OR of
 * clauses that are keys themselves; false if any part cannot be one.
 */
static bool
BuildKey(PruneKey *key, Expr *clause, Index relid, TupleDesc desc, PlanState *parent)
{
	Oid			opno = InvalidOid;
	Oid			cmp_proc = InvalidOid;
	Expr	   *value;
	Var		   *var;

	if (is_andclause(clause) || is_orclause(clause))
	{
		List	   *args = ((BoolExpr *) clause)->args;
		ListCell   *lc;

		key->kind = is_andclause(clause) ? PRUNE_AND : PRUNE_OR;
		key->subkeys = palloc0(sizeof(PruneKey) * list_length(args));
		foreach(lc, args)
		{
			if (!BuildKey(&key->subkeys[key->nsubkeys], lfirst(lc), relid, desc, parent))
				return false;
			key->nsubkeys++;
		}
		key->strict = true;
		return true;
	}

	var = SplitClause(clause, relid, &opno, &value, &key->kind, &key->collation);
	if (var == NULL || var->varattno > desc->natts ||
		!CollationUsable(var, key->kind, key->collation))
		return false;
	key->attno = var->varattno - 1;
	if (key->kind == PRUNE_LIKE)
	{
		if (!IsTextColumn(var))
			return false;
		fmgr_info(get_opcode(opno), &key->like);
		key->strict = op_strict(opno);
		key->prefix_orders = lc_collate_is_c(var->varcollid);
		key->value_expr = ExecInitExpr(value, parent);
		key->value_typlen = -1;
		key->value_typbyval = false;
		key->value_isnull = true;
	}
	else if (key->kind == PRUNE_IN)
	{
		key->strategy = OperatorStrategy(opno, var->vartype, &cmp_proc);
		if (key->strategy != BTEqualStrategyNumber)
			return false;
		fmgr_info(cmp_proc, &key->cmp);
		key->strict = op_strict(opno);
		key->value_expr = ExecInitExpr(value, parent);
		key->elem_type = get_element_type(exprType((Node *) value));
		if (!OidIsValid(key->elem_type))
			return false;
		key->bytes_equal = IsTextColumn(var) && key->elem_type == TEXTOID;
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
			return false;
		fmgr_info(cmp_proc, &key->cmp);
		key->strict = op_strict(opno);
		key->value_expr = ExecInitExpr(value, parent);
		key->numeric_key = var->vartype == NUMERICOID &&
			exprType((Node *) value) == NUMERICOID;
		key->bytes_equal = (key->strategy == BTEqualStrategyNumber ||
							key->strategy == NOT_EQUAL_STRATEGY) &&
			IsTextColumn(var) && exprType((Node *) value) == TEXTOID;
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
	return true;
}

/*
 * ChunkPrunerCreate
 *		Build pruning keys from clauses (the executor's copies of clauses
 *		PruningClauseColumn or PruningClauseIsExact accepted, whose Vars of
 *		the scanned relation have varno relid), their value expressions
 *		initialized in parent.  desc is the relation's descriptor.  Clauses
 *		that cannot prune are ignored.  The pruner and its two memory
 *		contexts (evaluated values, per-test scratch) are created in
 *		CurrentMemoryContext, which must live as long as the scan (the
 *		executor's per-query context); it errors only on catalog lookup
 *		failures.
 */
ChunkPruner *
ChunkPrunerCreate(List *clauses, Index relid, TupleDesc desc, PlanState *parent)
{
	ChunkPruner *pruner = palloc0(sizeof(ChunkPruner));
	ListCell   *lc;

	pruner->desc = desc;
	pruner->cxt = CurrentMemoryContext;
	pruner->keys = palloc0(sizeof(PruneKey) * Max(list_length(clauses), 1));
	pruner->value_cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "colstore pruning values",
											  ALLOCSET_SMALL_SIZES);
	pruner->tmp_cxt = AllocSetContextCreate(CurrentMemoryContext,
											"colstore pruning chunk stats",
											ALLOCSET_SMALL_SIZES);
	foreach(lc, clauses)
	{
		PruneKey   *key = &pruner->keys[pruner->nkeys];

		/* a slot a skipped clause began to fill is used again */
		memset(key, 0, sizeof(PruneKey));
		if (BuildKey(key, (Expr *) lfirst(lc), relid, desc, parent))
			pruner->nkeys++;
	}
	return pruner;
}

/*
 * PruningClauseIsExact
 *		True if the clause is one PruningClauseColumn accepts and its
 *		operator is strict, or an AND or OR of such clauses, so
 *		ChunkPrunerFilterRows decides for every row exactly as the executor
 *		would whether it is true (NULL input: the row fails; an OR is true
 *		if one argument is, an AND if all are, whatever the others yield).
 *		NOT is not accepted: it would have to tell false from NULL.
 */
bool
PruningClauseIsExact(Expr *clause, Index relid)
{
	Oid			opno = InvalidOid;
	Expr	   *value;
	PruneKeyKind kind;
	Oid			collation;

	if (is_andclause(clause) || is_orclause(clause))
	{
		ListCell   *lc;

		foreach(lc, ((BoolExpr *) clause)->args)
		{
			if (!PruningClauseIsExact(lfirst(lc), relid))
				return false;
		}
		return true;
	}
	if (PruningClauseColumn(clause, relid) == NULL)
		return false;
	(void) SplitClause(clause, relid, &opno, &value, &kind, &collation);
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
 * The literal prefix of a LIKE key's evaluated pattern (up to its first
 * unescaped wildcard, with the default escape character '\'), and whether
 * the rest of the pattern is only '%'s, into the current memory context.
 * The wildcard and escape bytes are ASCII, which no byte of a multibyte
 * character in a server encoding is.
 */
static void
ReadLikePrefix(PruneKey *key)
{
	text	   *pattern = DatumGetTextPP(key->value);
	const char *p = VARDATA_ANY(pattern);
	int			len = VARSIZE_ANY_EXHDR(pattern);
	int			i = 0;

	key->prefix = palloc(len + 1);
	key->prefix_len = 0;
	while (i < len && p[i] != '%' && p[i] != '_')
	{
		if (p[i] == '\\' && i + 1 < len)
			i++;
		else if (p[i] == '\\')
			break;				/* a trailing escape: LIKE itself rejects it */
		key->prefix[key->prefix_len++] = p[i++];
	}
	key->prefix_only = i < len;
	for (; i < len && key->prefix_only; i++)
		key->prefix_only = p[i] == '%';
}

/* Compute key's value side (and its subkeys') into the pruner's memory. */
static void
EvaluateKey(ChunkPruner *pruner, PruneKey *key, ExprContext *econtext)
{
	Datum		value;
	MemoryContext oldcxt;
	int			i;

	for (i = 0; i < key->nsubkeys; i++)
		EvaluateKey(pruner, &key->subkeys[i], econtext);
	if (key->value_expr == NULL)
		return;
	value = ExecEvalExprSwitchContext(key->value_expr, econtext, &key->value_isnull);
	oldcxt = MemoryContextSwitchTo(pruner->value_cxt);
	if (!key->value_isnull && (key->bytes_equal || key->kind == PRUNE_LIKE))
		value = PointerGetDatum(PG_DETOAST_DATUM_PACKED(value));
	key->value = key->value_isnull ? (Datum) 0 :
		datumCopy(value, key->value_typbyval, key->value_typlen);
	key->int_ok = false;
	key->scaled_ok = false;
	if (key->value_isnull)
		;
	else if (key->kind == PRUNE_IN)
		ReadArrayElements(key);
	else if (key->kind == PRUNE_LIKE)
		ReadLikePrefix(key);
	else if (OidIsValid(key->int_column_type))
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
	else if (key->numeric_key)
	{
		NumericView view;

		key->scaled_ok = NumericViewOf(key->value, &view) &&
			view.kind == NUMERIC_VIEW_FINITE &&
			NumericViewScaled(&view, NUMERIC_INT128_MAX_SCALE,
							  &key->scaled_value, &key->scaled_scale);
	}
	MemoryContextSwitchTo(oldcxt);
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
		EvaluateKey(pruner, &pruner->keys[i], econtext);
}

/* Does [min, max] rule out "column <strategy> value"? */
static bool
RangeRefutes(PruneKey *key, Datum min, Datum max, Datum value)
{
	int32		cmp_min = 0;
	int32		cmp_max = 0;

	if (key->strategy != BTGreaterStrategyNumber &&
		key->strategy != BTGreaterEqualStrategyNumber)
		cmp_min = DatumGetInt32(FunctionCall2Coll(&key->cmp, key->collation, min, value));
	if (key->strategy != BTLessStrategyNumber &&
		key->strategy != BTLessEqualStrategyNumber)
		cmp_max = DatumGetInt32(FunctionCall2Coll(&key->cmp, key->collation, max, value));
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
		case NOT_EQUAL_STRATEGY:
			return cmp_min == 0 && cmp_max == 0;
	}
	return false;
}

/*
 * Does [min, max], in byte order, rule out every string that starts with a
 * LIKE key's prefix?  It does if min is above all of them (its first bytes
 * are above the prefix) or max below all of them.
 */
static bool
PrefixRefutes(PruneKey *key, Datum min, Datum max)
{
	text	   *tmin = DatumGetTextPP(min);
	text	   *tmax = DatumGetTextPP(max);
	int			lmin = VARSIZE_ANY_EXHDR(tmin);
	int			lmax = VARSIZE_ANY_EXHDR(tmax);
	int			cmp;

	if (memcmp(VARDATA_ANY(tmin), key->prefix, Min(lmin, key->prefix_len)) > 0)
		return true;
	cmp = memcmp(VARDATA_ANY(tmax), key->prefix, Min(lmax, key->prefix_len));
	return cmp < 0 || (cmp == 0 && lmax < key->prefix_len);
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

	if (key->kind == PRUNE_AND || key->kind == PRUNE_OR)
	{
		int			i;

		/* AND: refuted if one argument is; OR: only if every one is */
		for (i = 0; i < key->nsubkeys; i++)
		{
			if (KeyRefutes(pruner, &key->subkeys[i], h, chunkno) != (key->kind == PRUNE_OR))
				return key->kind == PRUNE_AND;
		}
		return key->kind == PRUNE_OR;
	}
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
	if (key->kind == PRUNE_LIKE)
		return key->prefix_orders && key->prefix_len > 0 &&
			PrefixRefutes(key, min, max);
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
	int32		cmp = DatumGetInt32(FunctionCall2Coll(&key->cmp, key->collation,
												  value, key->value));

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
		case NOT_EQUAL_STRATEGY:
			return cmp != 0;
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
		case NOT_EQUAL_STRATEGY: FILTER_LOOP(GET, !=, C); break; \
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

/* Are two text values the same bytes (equality under a deterministic collation)? */
static inline bool
TextBytesEqual(Datum a, Datum b)
{
	text	   *ta = DatumGetTextPP(a);
	text	   *tb = DatumGetTextPP(b);

	return VARSIZE_ANY_EXHDR(ta) == VARSIZE_ANY_EXHDR(tb) &&
		memcmp(VARDATA_ANY(ta), VARDATA_ANY(tb), VARSIZE_ANY_EXHDR(ta)) == 0;
}

/* Does text value match a LIKE key's pattern? */
static bool
LikePasses(PruneKey *key, Datum value)
{
	text	   *t = DatumGetTextPP(value);

	if (VARSIZE_ANY_EXHDR(t) < key->prefix_len ||
		memcmp(VARDATA_ANY(t), key->prefix, key->prefix_len) != 0)
		return false;
	if (key->prefix_only)
		return true;
	return DatumGetBool(FunctionCall2Coll(&key->like, key->collation,
										  PointerGetDatum(t), key->value));
}

/* Does value equal an element of an IN key's list? */
static bool
InListPasses(PruneKey *key, Datum value)
{
	int			j;

	if (key->bytes_equal)
	{
		for (j = 0; j < key->nelems; j++)
		{
			if (TextBytesEqual(value, key->elems[j]))
				return true;
		}
		return false;
	}
	for (j = 0; j < key->nelems; j++)
	{
		if (DatumGetInt32(FunctionCall2Coll(&key->cmp, key->collation,
											value, key->elems[j])) == 0)
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
 * selected[i] &= row i passes key, for the nrows rows of a batch; see
 * ChunkPrunerFilterRows.  An OR passes the rows any argument passes: each
 * argument filters its own copy of the selection.
 */
static void
FilterKey(ChunkPruner *pruner, PruneKey *key, int nrows, ChunkPrunerFetch fetch,
		  ChunkPrunerFetchScaled fetch_scaled, void *arg, bool *selected)
{
	MemoryContext oldcxt;
	Datum	   *values;
	bool	   *isnull;
	int			i;

	if (key->kind == PRUNE_AND)
	{
		for (i = 0; i < key->nsubkeys; i++)
			FilterKey(pruner, &key->subkeys[i], nrows, fetch, fetch_scaled, arg, selected);
		return;
	}
	if (key->kind == PRUNE_OR)
	{
		int			j;

		if (nrows > key->rows_capacity)
		{
			key->arm_rows = MemoryContextAlloc(pruner->cxt, nrows);
			key->any_rows = MemoryContextAlloc(pruner->cxt, nrows);
			key->rows_capacity = nrows;
		}
		memset(key->any_rows, 0, nrows);
		for (j = 0; j < key->nsubkeys; j++)
		{
			memcpy(key->arm_rows, selected, nrows);
			FilterKey(pruner, &key->subkeys[j], nrows, fetch, fetch_scaled, arg,
					  key->arm_rows);
			for (i = 0; i < nrows; i++)
				key->any_rows[i] |= key->arm_rows[i];
		}
		memcpy(selected, key->any_rows, nrows);
		return;
	}
	if (key->kind == PRUNE_COMPARE && key->numeric_key &&
		FilterScaledKey(key, nrows, fetch_scaled, arg, selected))
		return;
	fetch(arg, key->attno, &values, &isnull);
	if (key->kind == PRUNE_IN && !key->value_isnull && key->int_ok)
	{
		FilterIntegerInList(key, nrows, values, isnull, selected);
		return;
	}
	if (key->kind == PRUNE_COMPARE && !key->value_isnull && key->int_ok)
	{
		FilterIntegerKey(key, nrows, values, isnull, selected);
		return;
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
					(key->bytes_equal ?
					 TextBytesEqual(values[i], key->value) ==
					 (key->strategy == BTEqualStrategyNumber) :
					 ComparePasses(key, values[i]));
				break;
			case PRUNE_LIKE:
				selected[i] = !isnull[i] && !key->value_isnull &&
					LikePasses(key, values[i]);
				break;
			case PRUNE_IN:
				selected[i] = !isnull[i] && !key->value_isnull &&
					InListPasses(key, values[i]);
				break;
			case PRUNE_AND:
			case PRUNE_OR:
				break;			/* handled above */
		}
	}
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(pruner->tmp_cxt);
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
	int			k;

	for (k = 0; k < pruner->nkeys; k++)
		FilterKey(pruner, &pruner->keys[k], nrows, fetch, fetch_scaled, arg, selected);
}

/* The number of keys built (clauses that could not prune were dropped). */
int
ChunkPrunerNumKeys(const ChunkPruner *pruner)
{
	return pruner->nkeys;
}
