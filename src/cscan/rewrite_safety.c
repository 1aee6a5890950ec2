/*-------------------------------------------------------------------------
 *
 * rewrite_safety.c
 *	  What colstore's query rewrites (decorrelate.c, eager_aggregate.c) may
 *	  compute that the original query did not.
 *
 * Both rewrites aggregate the rows of a relation per group before a join
 * instead of after it.  That computes aggregates over groups that no row of
 * the other side asks for, and evaluates aggregate arguments on rows the
 * original never joined.  The result rows are the same; what can differ is
 * an error the original would not have raised, and the rounding of
 * aggregates whose value depends on the order of their input.  So a rewrite
 * accepts only:
 *	- aggregates whose value does not depend on the order of the rows
 *	  (RewriteAggregateExact, RewriteAggregateIsCount), and
 *	- expressions over the rows' columns that cannot fail on any value
 *	  (RewriteUnsafeOnAnyRow false);
 *	- keys compared with the equality GROUP BY groups by
 *	  (RewriteGroupingEquality), so that a key meets exactly its group's
 *	  rows, and a NULL key none.
 *
 * IDENTIFICATION
 *	  src/cscan/rewrite_safety.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "catalog/pg_aggregate.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "utils/typcache.h"
#include "optimizer/optimizer.h"
#include "rewrite/rewriteManip.h"
#include "utils/lsyscache.h"

#include "cscan/rewrite_safety.h"

/* A plain call of an aggregate of pg_catalog: no DISTINCT, ORDER BY, FILTER. */
static bool
PlainCatalogAggregate(Aggref *agg)
{
	return agg->agglevelsup == 0 && agg->aggdistinct == NIL &&
		agg->aggorder == NIL && agg->aggfilter == NULL &&
		agg->aggkind == AGGKIND_NORMAL &&
		get_func_namespace(agg->aggfnoid) == PG_CATALOG_NAMESPACE;
}

/*
 * RewriteAggregateExact
 *		Is agg min or max of anything, or sum or avg of integers or numeric:
 *		exact, so the order of its rows does not change its value (float
 *		sums would round differently), and NULL over no rows?
 */
bool
RewriteAggregateExact(Aggref *agg)
{
	char	   *name;
	Oid			argtype;

	if (!PlainCatalogAggregate(agg) || agg->aggstar || list_length(agg->args) != 1)
		return false;
	name = get_func_name(agg->aggfnoid);
	argtype = exprType((Node *) ((TargetEntry *) linitial(agg->args))->expr);
	if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0)
		return true;
	if (strcmp(name, "sum") == 0 || strcmp(name, "avg") == 0)
		return argtype == INT2OID || argtype == INT4OID || argtype == INT8OID ||
			argtype == NUMERICOID;
	return false;
}

/* Is agg count(*) or count(expression) (0 over no rows, not NULL)? */
bool
RewriteAggregateIsCount(Aggref *agg)
{
	return PlainCatalogAggregate(agg) &&
		strcmp(get_func_name(agg->aggfnoid), "count") == 0 &&
		list_length(agg->args) == (agg->aggstar ? 0 : 1);
}

/* Does node contain a Var of any level (or an Aggref)? */
static bool
ContainsColumns(Node *node)
{
	return contain_var_clause(node) || checkExprHasSubLink(node) ||
		contain_vars_of_level(node, 1) || contain_aggs_of_level(node, 0);
}

static bool
UnsafeWalker(Node *node, void *context)
{
	Oid			funcid = InvalidOid;
	Oid			opno = InvalidOid;

	if (node == NULL || !ContainsColumns(node))
		return false;
	switch (nodeTag(node))
	{
		case T_Var:
		case T_TargetEntry:
		case T_RelabelType:
		case T_BoolExpr:
		case T_NullTest:
		case T_BooleanTest:
		case T_List:
			return expression_tree_walker(node, UnsafeWalker, context);
		case T_OpExpr:
		case T_DistinctExpr:
		case T_NullIfExpr:
			set_opfuncid((OpExpr *) node);
			funcid = ((OpExpr *) node)->opfuncid;
			opno = ((OpExpr *) node)->opno;
			break;
		case T_ScalarArrayOpExpr:
			set_sa_opfuncid((ScalarArrayOpExpr *) node);
			funcid = ((ScalarArrayOpExpr *) node)->opfuncid;
			opno = ((ScalarArrayOpExpr *) node)->opno;
			break;
		case T_FuncExpr:
			funcid = ((FuncExpr *) node)->funcid;
			break;
		default:
			return true;
	}

	/*
	 * A btree comparison cannot fail on any value of its types (indexes
	 * compare every value with it), even where it is not marked leakproof
	 * (numeric_lt, date_lt_timestamp).
	 */
	if (!get_func_leakproof(funcid) &&
		!(OidIsValid(opno) && OperatorIsBtreeComparison(opno)))
		return true;
	return expression_tree_walker(node, UnsafeWalker, context);
}

/*
 * RewriteUnsafeOnAnyRow
 *		Can evaluating node on rows the original never visited raise an
 *		error the original would not have?  Every function applied to
 *		columns must be leakproof or a btree comparison; subexpressions
 *		without columns are constants of the query.
 */
bool
RewriteUnsafeOnAnyRow(Node *node)
{
	return UnsafeWalker(node, NULL);
}

/*
 * RewriteGroupingEquality
 *		Is op "grouped = other" for two columns of one type, with that
 *		type's default equality under the grouped column's collation: the
 *		equality (and collation) a GROUP BY on the grouped column groups by?
 *		The type must also be sortable (a GROUP BY clause names both).
 */
bool
RewriteGroupingEquality(OpExpr *op, Var *grouped, Var *other)
{
	TypeCacheEntry *tce;

	if (grouped->vartype != other->vartype)
		return false;
	tce = lookup_type_cache(grouped->vartype, TYPECACHE_EQ_OPR | TYPECACHE_LT_OPR);
	return op->opno == tce->eq_opr && OidIsValid(tce->lt_opr) &&
		op->inputcollid == grouped->varcollid;
}
