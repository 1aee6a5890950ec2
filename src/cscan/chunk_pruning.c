/*-------------------------------------------------------------------------
 *
 * chunk_pruning.c
 *	  Skipping chunks whose min/max or NULL count refute a scan's quals;
 *	  the keys built here also decide those quals row by row
 *	  (chunk_filter.c).
 *
 * Every row group header keeps, per column and chunk, the number of NULLs
 * and (for types with a default btree ordering) the minimum and maximum
 * value, computed by the writer with the type's default btree comparison
 * function (rowgroup_writer.c).  A qual "column op value" whose operator
 * belongs to that same btree operator family, "column = ANY (array)" (an
 * IN list, refuted when every non-NULL element is), or "column IS [NOT]
 * NULL", can then prove that no row of a chunk passes, and the chunk is
 * skipped without being read.  Pruning only skips chunks in which no row
 * can pass.
 *
 * ColstoreAgg has no executor quals, and ColstoreScan's batch filter
 * replaces some: ChunkPrunerFilterRows (chunk_filter.c) decides the quals
 * PruningClauseIsExact accepts (strict operators, and ANDs and ORs of them)
 * for every row of a batch, exactly as the executor would;
 * an OR prunes a chunk when every argument does.  Keys note what lets rows
 * be decided without function calls: integer-like comparisons and IN lists
 * on int64s (a date column against a timestamp through the equivalent date
 * bound, DateBoundOfTimestamp), numeric values as scaled integers, text,
 * varchar and bpchar equality as bytes, LIKE patterns compiled for byte search (like_match.c).
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
 * one min/max were computed under; comparison functions get it.  Text,
 * varchar and bpchar "=", "<>" and IN lists compare bytes (equality under a
 * deterministic collation; bpchar's without trailing spaces, as bpchareq).  "column LIKE pattern" and NOT LIKE on text, varchar and
 * bpchar (padding included, as LIKE sees it) compile the pattern once per
 * evaluation (like_match.c): rows are decided by byte search, or by LIKE's
 * function on the rows that start with the pattern's literal prefix; and
 * where a text or varchar column's collation orders bytes ("C"), chunks
 * whose min/max leave no room for a LIKE's prefix are skipped.
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

#include "pg_compat.h"

#include "access/nbtree.h"
#include "access/stratnum.h"
#include "catalog/pg_operator_d.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "nodes/makefuncs.h"
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
#include "cscan/integer_division.h"
#include "cscan/prune_key.h"
#include "encoding/numeric_view.h"
#include "storage/integer_order.h"

static bool IntegerLike(Oid column_type, Oid value_type);

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
		strategy = NOT_EQUAL_STRATEGY;	/* "<>": the negator of the family's
										 * "=" */
	else if (strategy < BTLessStrategyNumber || strategy > BTGreaterStrategyNumber)
		return 0;
	op_input_types(opno, &lefttype, &righttype);

	/*
	 * the column's type, or the operator class's for a binary-compatible one
	 * (varchar)
	 */
	if (lefttype != coltype && lefttype != tce->btree_opintype)
		return 0;
	*cmp_proc = get_opfamily_proc(tce->btree_opf, lefttype, righttype, BTORDER_PROC);
	return OidIsValid(*cmp_proc) ? strategy : 0;
}

/*
 * Is opno LIKE or NOT LIKE (*negated, if given) of a text, varchar or bpchar
 * column?
 */
static bool
IsLikeOperator(Oid opno, bool *negated)
{
	bool		is_like = opno == OID_TEXT_LIKE_OP || opno == OID_BPCHAR_LIKE_OP;
	bool		is_not_like = !is_like &&
		(opno == get_negator(OID_TEXT_LIKE_OP) || opno == get_negator(OID_BPCHAR_LIKE_OP));

	if (negated != NULL)
		*negated = is_not_like;
	return is_like || is_not_like;
}

/*
 * Split clause into column, operator (as "column op value") and value, or
 * return NULL if it is not "column op value", "value op column",
 * "column op ANY (array value)" (IN lists), "column IS [NOT] NULL", or a
 * boolean column or its NOT (as "column = true" or "= false": NULL fails
 * either way, as the executor's qual does).
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
			if (IsLikeOperator(op->opno, NULL))
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
	/* a boolean column, or NOT of one: "column = true" or "= false" */
	{
		bool		negated = is_notclause(clause);
		Var		   *var = ArgColumn(negated ? (Node *) get_notclausearg(clause) :
									(Node *) clause, relid);

		if (var != NULL && var->vartype == BOOLOID)
		{
			*opno = BooleanEqualOperator;
			*value = (Expr *) makeBoolConst(!negated, false);
			return var;
		}
	}
	return NULL;
}

/*
 * Is clause "column % d <op> value" or "column / d <op> value" (or "value
 * <op> column % d"), the column one of relid, the division one
 * IntegerDivisionOf accepts (so it never raises an error), op a strict
 * comparison of the division's type's default btree operator family with
 * an integer value that can be computed once per scan?  Returns the column
 * and sets *division, *opno (as "column % d op value") and *value, or
 * returns NULL.  Such a clause cannot prune (min/max of the column say
 * nothing of its remainders); the batch filter decides it on int64s.
 */
static Var *
DivisionClause(Expr *clause, Index relid, IntegerDivision *division, Oid *opno,
			   Expr **value)
{
	OpExpr	   *op;
	Node	   *other;
	Node	   *dividend;
	Var		   *var;
	Oid			cmp_proc;

	if (!IsA(clause, OpExpr) || list_length(((OpExpr *) clause)->args) != 2)
		return NULL;
	op = (OpExpr *) clause;
	if (IntegerDivisionOf(linitial(op->args), &dividend, division))
	{
		*opno = op->opno;
		other = lsecond(op->args);
	}
	else if (IntegerDivisionOf(lsecond(op->args), &dividend, division))
	{
		*opno = get_commutator(op->opno);
		other = linitial(op->args);
	}
	else
		return NULL;
	var = ArgColumn(dividend, relid);
	if (var == NULL || getBaseType(var->vartype) != division->type ||
		!OidIsValid(*opno) || !op_strict(*opno) || !IsScanConstant(other) ||
		!IntegerLike(division->type, exprType(other)) ||
		OperatorStrategy(*opno, division->type, &cmp_proc) == 0)
		return NULL;
	*value = (Expr *) other;
	return var;
}

/*
 * Is clause "column op column2", two different columns of relation relid
 * of one type without a collation, op a comparison of the type's default
 * btree operator family (or its "<>")?  Sets *left, *right, *strategy and
 * *cmp_proc.  Such a clause cannot prune (each chunk's min/max are of one
 * column); the batch filter decides it row by row.
 */
static bool
ColumnPairClause(Expr *clause, Index relid, Var **left, Var **right,
				 int *strategy, Oid *cmp_proc)
{
	OpExpr	   *op;
	Oid			lefttype;
	Oid			righttype;

	if (!IsA(clause, OpExpr) || list_length(((OpExpr *) clause)->args) != 2)
		return false;
	op = (OpExpr *) clause;
	*left = ArgColumn(linitial(op->args), relid);
	*right = ArgColumn(lsecond(op->args), relid);
	if (*left == NULL || *right == NULL ||
		(*left)->varattno == (*right)->varattno ||
		getBaseType((*left)->vartype) != getBaseType((*right)->vartype) ||
		OidIsValid((*left)->varcollid) || OidIsValid((*right)->varcollid))
		return false;
	op_input_types(op->opno, &lefttype, &righttype);
	if (lefttype != righttype)
		return false;
	*strategy = OperatorStrategy(op->opno, (*left)->vartype, cmp_proc);
	return *strategy != 0;
}

/* Is var a text or varchar column (byte equality's types)? */
static bool
IsTextColumn(Var *var)
{
	Oid			type = getBaseType(var->vartype);

	return type == TEXTOID || type == VARCHAROID;
}

/* Is var a text, varchar or bpchar column (LIKE's types, bpchar padded)? */
static bool
IsLikeColumn(Var *var)
{
	return IsTextColumn(var) || getBaseType(var->vartype) == BPCHAROID;
}

/*
 * Can "var = value" (or "<>", or an IN list's elements) of value type
 * value_type be decided by comparing bytes?  The caller has checked that
 * the clause's collation is deterministic (CollationUsable): equality then
 * is byte equality, for text and varchar (texteq) of the whole value, for
 * bpchar (bpchareq) of the values without their trailing spaces, which
 * sets *padded.  (A bpchar column against a text value is a cast column,
 * never a key.)
 */
static bool
BytesEqualityApplies(Var *var, Oid value_type, bool *padded)
{
	*padded = false;
	if (IsTextColumn(var))
		return value_type == TEXTOID;
	if (getBaseType(var->vartype) == BPCHAROID && value_type == BPCHAROID)
	{
		*padded = true;
		return true;
	}
	return false;
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
		return IsLikeColumn(var) ? var : NULL;
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

	{
		Var		   *right;

		if (ColumnPairClause(clause, relid, &var, &right, &key->strategy, &cmp_proc))
		{
			if (var->varattno > desc->natts || right->varattno > desc->natts)
				return false;
			key->kind = PRUNE_COLUMNS;
			key->attno = var->varattno - 1;
			key->attno2 = right->varattno - 1;
			fmgr_info(cmp_proc, &key->cmp);
			key->strict = op_strict(((OpExpr *) clause)->opno);
			if (TypeHasSignedIntegerOrder(getBaseType(var->vartype)))
				key->int_column_type = getBaseType(var->vartype);
			return true;
		}
	}

	var = DivisionClause(clause, relid, &key->division, &opno, &value);
	if (var != NULL)
	{
		if (var->varattno > desc->natts)
			return false;
		key->kind = PRUNE_DIVISION;
		key->attno = var->varattno - 1;
		key->strategy = OperatorStrategy(opno, key->division.type, &cmp_proc);
		fmgr_info(cmp_proc, &key->cmp);
		key->strict = true;
		key->value_expr = ExecInitExpr(value, parent);
		key->int_column_type = key->division.type;
		key->int_value_type = exprType((Node *) value);
		get_typlenbyval(key->int_value_type, &key->value_typlen, &key->value_typbyval);
		key->value_isnull = true;
		return true;
	}

	var = SplitClause(clause, relid, &opno, &value, &key->kind, &key->collation);
	if (var == NULL || var->varattno > desc->natts ||
		!CollationUsable(var, key->kind, key->collation))
		return false;
	key->attno = var->varattno - 1;
	if (key->kind == PRUNE_LIKE)
	{
		if (!IsLikeColumn(var))
			return false;
		/* LIKE's function, also for NOT LIKE (the key negates its result) */
		(void) IsLikeOperator(opno, &key->like_negated);
		fmgr_info(get_opcode(key->like_negated ? get_negator(opno) : opno), &key->like);
		key->strict = op_strict(opno);
		/* min/max of bpchar ignore its padding, which LIKE sees */
		key->prefix_orders = IsTextColumn(var) && CollationIsC(var->varcollid) &&
			!key->like_negated;
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
		/* the array may be of a domain over an array type */
		key->elem_type = get_base_element_type(exprType((Node *) value));
		if (!OidIsValid(key->elem_type))
			return false;
		key->bytes_equal = BytesEqualityApplies(var, key->elem_type, &key->bytes_padded);

		/*
		 * no date bounds for lists: a date column against timestamps calls
		 * cmp
		 */
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
			BytesEqualityApplies(var, exprType((Node *) value), &key->bytes_padded);
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
 *		operator is strict, or a strict comparison of two columns of the
 *		relation (ColumnPairClause: no pruning, but the batch filter decides
 *		it), or a comparison of an integer column's remainder or quotient by
 *		a constant (DivisionClause: likewise), or an AND or OR of such
 *		clauses, so
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
	{
		Var		   *left;
		Var		   *right;
		int			strategy;
		Oid			cmp_proc;
		IntegerDivision division;

		if (ColumnPairClause(clause, relid, &left, &right, &strategy, &cmp_proc))
			return op_strict(((OpExpr *) clause)->opno);
		if (DivisionClause(clause, relid, &division, &opno, &value) != NULL)
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

/* Compile a LIKE key's evaluated pattern into the current memory context. */
static void
CompileLikePattern(PruneKey *key)
{
	text	   *pattern = DatumGetTextPP(key->value);

	LikePatternCompile(VARDATA_ANY(pattern), VARSIZE_ANY_EXHDR(pattern),
					   &key->like_pattern);
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
		CompileLikePattern(key);
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

	const char *prefix = key->like_pattern.prefix;
	int			prefix_len = key->like_pattern.prefix_len;

	if (memcmp(VARDATA_ANY(tmin), prefix, Min(lmin, prefix_len)) > 0)
		return true;
	cmp = memcmp(VARDATA_ANY(tmax), prefix, Min(lmax, prefix_len));
	return cmp < 0 || (cmp == 0 && lmax < prefix_len);
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
	if (key->kind == PRUNE_COLUMNS || key->attno >= h->natts)
		return false;			/* two columns; or a column added later */
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
	if (key->kind == PRUNE_DIVISION)
		return false;			/* min/max tell nothing of remainders */
	att = TupleDescAttr(pruner->desc, key->attno);
	if (!RowGroupChunkStatsMatch(h, att, key->attno, chunkno) ||
		!RowGroupChunkMinMax(h, att, key->attno, chunkno, &min, &max))
		return false;
	if (key->kind == PRUNE_LIKE)
		return key->prefix_orders && key->like_pattern.prefix_len > 0 &&
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

/* The number of keys built (clauses that could not prune were dropped). */
int
ChunkPrunerNumKeys(const ChunkPruner *pruner)
{
	return pruner->nkeys;
}
