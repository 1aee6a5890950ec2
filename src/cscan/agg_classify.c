/*-------------------------------------------------------------------------
 *
 * agg_classify.c
 *	  Which aggregates and grouping keys ColstoreAgg computes itself.
 *
 * The planner (agg_path.c) offers a ColstoreAgg path only when every
 * aggregate of the query is one ColstoreAggClassify accepts and every
 * plain grouping column has a type ColstoreAggGroupKeyType accepts (or is
 * grouped through its hash and equality functions); the executor
 * (agg_exec.c) classifies the plan's aggregates and keys again with the
 * same functions to know how to fold them.  Both sides call this file,
 * and neither calls the other for it.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_classify.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_aggregate.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/primnodes.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "cscan/agg_classify.h"
#include "cscan/chunk_pruning.h"
#include "cscan/numeric_expr.h"
#include "storage/integer_order.h"

/*
 * Whether an aggregate's FILTER (NULL: none) consists of conditions the
 * node decides exactly per row, as for WHERE (PruningClauseIsExact).
 */
static bool
FilterIsExact(Expr *filter, Index relid)
{
	ListCell   *lc;

	if (filter == NULL)
		return true;
	foreach(lc, make_ands_implicit(filter))
	{
		if (!PruningClauseIsExact(lfirst(lc), relid))
			return false;
	}
	return true;
}

/*
 * ColstoreAggClassify
 *		What ColstoreAgg computes for aggref over relation relid, or
 *		COLSTORE_AGG_NONE if it cannot; *attno receives the argument's
 *		attribute number (1-based; 0 for count(*) and for sum or avg of an
 *		arithmetic expression, NumericExprIsSupported).
 */
ColstoreAggKind
ColstoreAggClassify(Aggref *aggref, Index relid, AttrNumber *attno)
{
	TargetEntry *te;
	Var		   *var;
	int			ncolumns = 0;

	*attno = 0;
	if (aggref->aggdistinct != NIL || aggref->aggorder != NIL ||
		!FilterIsExact(aggref->aggfilter, relid) || aggref->agglevelsup != 0 ||
		aggref->aggkind != AGGKIND_NORMAL || aggref->aggsplit != AGGSPLIT_SIMPLE ||
		aggref->aggvariadic)
		return COLSTORE_AGG_NONE;
	if (aggref->aggfnoid == F_COUNT_)
		return aggref->aggstar ? COLSTORE_AGG_COUNT_STAR : COLSTORE_AGG_NONE;
	if (list_length(aggref->args) != 1)
		return COLSTORE_AGG_NONE;
	te = linitial_node(TargetEntry, aggref->args);
	/* sum and avg of numeric arithmetic over columns: numeric_expr.c */
	if ((aggref->aggfnoid == F_SUM_NUMERIC || aggref->aggfnoid == F_AVG_NUMERIC) &&
		NumericExprIsSupported((Node *) te->expr, relid, &ncolumns))
		return aggref->aggfnoid == F_SUM_NUMERIC ? COLSTORE_AGG_SUM : COLSTORE_AGG_AVG;
	/* min and max of a varchar column take it relabeled as text */
	if ((aggref->aggfnoid == F_MIN_TEXT || aggref->aggfnoid == F_MAX_TEXT) &&
		IsA(te->expr, RelabelType) && IsA(((RelabelType *) te->expr)->arg, Var) &&
		((Var *) ((RelabelType *) te->expr)->arg)->vartype == VARCHAROID)
		var = (Var *) ((RelabelType *) te->expr)->arg;
	/* a domain-typed argument arrives relabeled, and is not taken */
	else if (!IsA(te->expr, Var))
		return COLSTORE_AGG_NONE;
	else
		var = (Var *) te->expr;
	if (var->varno != relid || var->varattno <= 0 || var->varlevelsup != 0)
		return COLSTORE_AGG_NONE;
	*attno = var->varattno;
	switch (aggref->aggfnoid)
	{
		case F_COUNT_ANY:
			return COLSTORE_AGG_COUNT;
		case F_SUM_INT8:
			return var->vartype == INT8OID ? COLSTORE_AGG_SUM : COLSTORE_AGG_NONE;
		case F_SUM_INT4:
			return var->vartype == INT4OID ? COLSTORE_AGG_SUM : COLSTORE_AGG_NONE;
		case F_SUM_INT2:
			return var->vartype == INT2OID ? COLSTORE_AGG_SUM : COLSTORE_AGG_NONE;
		case F_SUM_NUMERIC:
			return var->vartype == NUMERICOID ? COLSTORE_AGG_SUM : COLSTORE_AGG_NONE;
		case F_AVG_INT8:
			return var->vartype == INT8OID ? COLSTORE_AGG_AVG : COLSTORE_AGG_NONE;
		case F_AVG_INT4:
			return var->vartype == INT4OID ? COLSTORE_AGG_AVG : COLSTORE_AGG_NONE;
		case F_AVG_INT2:
			return var->vartype == INT2OID ? COLSTORE_AGG_AVG : COLSTORE_AGG_NONE;
		case F_AVG_NUMERIC:
			return var->vartype == NUMERICOID ? COLSTORE_AGG_AVG : COLSTORE_AGG_NONE;
		case F_SUM_FLOAT8:
		case F_SUM_FLOAT4:
			return var->vartype == aggref->aggtype ? COLSTORE_AGG_SUM : COLSTORE_AGG_NONE;
		case F_AVG_FLOAT8:
			return var->vartype == FLOAT8OID ? COLSTORE_AGG_AVG : COLSTORE_AGG_NONE;
		case F_AVG_FLOAT4:
			return var->vartype == FLOAT4OID ? COLSTORE_AGG_AVG : COLSTORE_AGG_NONE;
		case F_MIN_FLOAT8:
		case F_MIN_FLOAT4:
			return var->vartype == aggref->aggtype ? COLSTORE_AGG_MIN : COLSTORE_AGG_NONE;
		case F_MAX_FLOAT8:
		case F_MAX_FLOAT4:
			return var->vartype == aggref->aggtype ? COLSTORE_AGG_MAX : COLSTORE_AGG_NONE;
		case F_MIN_NUMERIC:
		case F_MIN_BPCHAR:
			/* by the type's comparison function (agg_compare.c) */
			return var->vartype == aggref->aggtype ? COLSTORE_AGG_MIN : COLSTORE_AGG_NONE;
		case F_MAX_NUMERIC:
		case F_MAX_BPCHAR:
			return var->vartype == aggref->aggtype ? COLSTORE_AGG_MAX : COLSTORE_AGG_NONE;
		case F_MIN_TEXT:
			return var->vartype == TEXTOID || var->vartype == VARCHAROID ?
				COLSTORE_AGG_MIN : COLSTORE_AGG_NONE;
		case F_MAX_TEXT:
			return var->vartype == TEXTOID || var->vartype == VARCHAROID ?
				COLSTORE_AGG_MAX : COLSTORE_AGG_NONE;
		case F_MIN_INT8:
		case F_MIN_INT4:
		case F_MIN_INT2:
		case F_MIN_DATE:
		case F_MIN_TIME:
		case F_MIN_TIMESTAMP:
		case F_MIN_TIMESTAMPTZ:
			/* the column's own type: signed integer order (integer_order.h) */
			return var->vartype == aggref->aggtype &&
				TypeHasSignedIntegerOrder(var->vartype) ?
				COLSTORE_AGG_MIN : COLSTORE_AGG_NONE;
		case F_MAX_INT8:
		case F_MAX_INT4:
		case F_MAX_INT2:
		case F_MAX_DATE:
		case F_MAX_TIME:
		case F_MAX_TIMESTAMP:
		case F_MAX_TIMESTAMPTZ:
			return var->vartype == aggref->aggtype &&
				TypeHasSignedIntegerOrder(var->vartype) ?
				COLSTORE_AGG_MAX : COLSTORE_AGG_NONE;
	}
	return COLSTORE_AGG_NONE;
}

/*
 * ColstoreAggGroupKeyType
 *		Whether ColstoreAgg can group by a column of this type and collation
 *		with the type's default equality: pass-by-value types whose equality
 *		is identity of the datum (so not float4/float8, where -0 = 0), and
 *		text, varchar and bpchar under a deterministic collation, compared
 *		by bytes (bpchar without trailing blanks, as bpchareq does).
 */
bool
ColstoreAggGroupKeyType(Oid type, Oid collation, bool *byval, bool *blank_padded)
{
	*byval = true;
	*blank_padded = false;
	switch (type)
	{
		case BOOLOID:
		case CHAROID:
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case OIDOID:
		case DATEOID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			return true;
		case BPCHAROID:
			*blank_padded = true;
			/* FALLTHROUGH */
		case TEXTOID:
		case VARCHAROID:
			*byval = false;
			return OidIsValid(collation) && get_collation_isdeterministic(collation);
	}
	return false;
}
