/*-------------------------------------------------------------------------
 *
 * decorrelate.c
 *	  Correlated scalar subqueries with aggregates, rewritten into joins
 *	  with grouped aggregates (TPC-H Q2, Q17 and Q20 shapes) when that is
 *	  cheaper, for subqueries that read colstore tables.
 *
 * PostgreSQL runs a correlated scalar subquery once per outer row.  For
 *
 *	 ... WHERE l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem
 *							WHERE l_partkey = p_partkey)
 *
 * that is one aggregation over lineitem per part: minutes on TPC-H.  The
 * rewrite computes every group's aggregates once, in a subquery in FROM,
 *
 *	 ... FROM ..., (SELECT l_partkey, avg(l_quantity) FROM lineitem
 *					GROUP BY l_partkey) d
 *	 WHERE p_partkey = d.k1 AND l_quantity < 0.2 * d.a1
 *
 * which the planner joins like any relation.  It gives exactly the rows
 * the original gives, under these conditions, each checked:
 *	- The subquery is a plain aggregate query (no GROUP BY, HAVING, DISTINCT,
 *	  ORDER BY, LIMIT, window functions, SRFs, sublinks, CTEs, row marks or
 *	  row security) over plain relations joined in its WHERE, one of them a
 *	  colstore table, so it returns exactly one row per outer row.
 *	- Its WHERE is an AND of local conditions and at least one correlation
 *	  "inner column = outer column" with the type's default equality (the
 *	  one GROUP BY groups by, so an outer value meets exactly the rows of
 *	  its group; a NULL outer value meets none, as the join does).
 *	- Its aggregates are sum/avg of integers or numeric (exact, so grouping
 *	  does not change the result as float rounding would) or min/max, with
 *	  no DISTINCT, ORDER BY or FILTER: over no rows they are all NULL.
 *	- The subquery's result is used only as an argument of a strict
 *	  operator forming a top-level AND condition of the outer WHERE, and the
 *	  expression above its aggregates has no non-strict construct: for an
 *	  outer row without a group, the condition is NULL, so the row is
 *	  dropped, as the join drops it.
 *	- Nothing volatile anywhere in the subquery; every expression on its
 *	  rows' columns (local conditions, aggregate arguments) uses only
 *	  leakproof functions or btree comparisons, which cannot raise errors
 *	  the original would not have raised for rows it never visited.  The expression above the
 *	  aggregates stays in the outer condition, evaluated only for joined
 *	  rows, as the original evaluated it.
 *
 * The planner hook (query_alternatives.c) plans the query as written and
 * as rewritten and keeps the cheaper plan (the correlated SubPlan's cost
 * is its per-row cost times the outer rows), so a subquery that an index
 * makes cheap per row keeps its plan.  What the rewrite may evaluate that
 * the original did not is checked by rewrite_safety.c.
 * colstore.enable_decorrelation turns the rewrite off.
 *
 * IDENTIFICATION
 *	  src/cscan/decorrelate.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/relation.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/planner.h"
#include "parser/parsetree.h"
#include "parser/parse_oper.h"
#include "rewrite/rewriteManip.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "cscan/decorrelate.h"
#include "cscan/rewrite_safety.h"
#include "tableam/am_handler.h"

bool		colstore_enable_decorrelation = true;

/* One correlation: inner column = outer column. */
typedef struct Correlation
{
	Var		   *inner;			/* a column of the subquery (level 0 there) */
	Var		   *outer;			/* a column of the outer query (level 1 there) */
	Oid			eqop;
} Correlation;

/* What a rewritable subquery is made of. */
typedef struct SubqueryShape
{
	List	   *correlations;	/* Correlation * */
	List	   *local_quals;	/* the other conditions */
	List	   *aggrefs;		/* distinct Aggrefs of its target */
} SubqueryShape;

/* ---- checks ---- */

/* Collect the Aggrefs of the target; false if one is not allowed. */
static bool
CollectAggregates(Node *node, void *context)
{
	List	  **aggrefs = (List **) context;

	if (node == NULL)
		return false;
	if (IsA(node, Aggref))
	{
		Aggref	   *agg = (Aggref *) node;

		if (!RewriteAggregateExact(agg) ||
			RewriteUnsafeOnAnyRow((Node *) agg->args))
			return true;
		if (!list_member(*aggrefs, agg))
			*aggrefs = lappend(*aggrefs, agg);
		return false;			/* arguments checked above */
	}
	return expression_tree_walker(node, CollectAggregates, context);
}

/* An expression with each Aggref of aggrefs replaced by Var(rti, base + i). */
static Node *ReplaceAggregates(Node *node, List *aggrefs, Index rti, int base);

typedef struct ReplaceContext
{
	List	   *aggrefs;
	Index		rti;
	int			base;
} ReplaceContext;

static Node *
ReplaceAggregatesMutator(Node *node, ReplaceContext *cxt)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Aggref))
	{
		int			i = 0;
		ListCell   *lc;

		foreach(lc, cxt->aggrefs)
		{
			if (equal(node, lfirst(lc)))
				return (Node *) makeVar(cxt->rti, cxt->base + i + 1,
										exprType(node), exprTypmod(node),
										exprCollation(node), 0);
			i++;
		}
		elog(ERROR, "colstore decorrelation: unknown aggregate");
	}
	return expression_tree_mutator(node, ReplaceAggregatesMutator, cxt);
}

static Node *
ReplaceAggregates(Node *node, List *aggrefs, Index rti, int base)
{
	ReplaceContext cxt = {aggrefs, rti, base};

	return ReplaceAggregatesMutator(node, &cxt);
}

/* Is clause "inner column = outer column" with the type's own equality? */
static bool
AsCorrelation(Node *clause, Correlation *corr)
{
	OpExpr	   *op;
	Var		   *a;
	Var		   *b;

	if (!IsA(clause, OpExpr) || list_length(((OpExpr *) clause)->args) != 2)
		return false;
	op = (OpExpr *) clause;
	a = linitial(op->args);
	b = lsecond(op->args);
	if (!IsA(a, Var) || !IsA(b, Var))
		return false;
	if (a->varlevelsup == 1 && b->varlevelsup == 0)
	{
		Var		   *t = a;

		a = b;
		b = t;
	}
	if (a->varlevelsup != 0 || b->varlevelsup != 1 || a->varattno <= 0 ||
		!RewriteGroupingEquality(op, a, b))
		return false;
	corr->inner = a;
	corr->outer = b;
	corr->eqop = op->opno;
	return true;
}

/*
 * Does s read plain relations only, at least one of them colstore, joined
 * in its WHERE (no explicit JOINs, no sampling)?
 */
static bool
FromPlainRelations(Query *s)
{
	ListCell   *lc;
	bool		colstore = false;

	if (list_length(s->rtable) != list_length(s->jointree->fromlist))
		return false;
	foreach(lc, s->jointree->fromlist)
	{
		RangeTblRef *rtr = lfirst(lc);
		RangeTblEntry *rte;
		Relation	rel;

		if (!IsA(rtr, RangeTblRef))
			return false;
		rte = rt_fetch(rtr->rtindex, s->rtable);
		if (rte->rtekind != RTE_RELATION || rte->tablesample != NULL ||
			rte->securityQuals != NIL ||
			(rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_PARTITIONED_TABLE))
			return false;
		if (rte->relkind == RELKIND_RELATION)
		{
			rel = relation_open(rte->relid, NoLock);
			colstore |= RelationIsColstore(rel);
			relation_close(rel, NoLock);
		}
	}
	return colstore;
}

/* Fill *shape if s is a subquery the rewrite may replace (file header). */
static bool
SubqueryRewritable(Query *s, SubqueryShape *shape)
{
	TargetEntry *te;
	ListCell   *lc;

	memset(shape, 0, sizeof(*shape));
	if (s->commandType != CMD_SELECT || !s->hasAggs || s->hasWindowFuncs ||
		s->hasTargetSRFs || s->hasSubLinks || s->hasDistinctOn ||
		s->hasRecursive || s->hasModifyingCTE || s->hasForUpdate ||
		s->hasRowSecurity || s->groupClause != NIL || s->groupingSets != NIL ||
		s->havingQual != NULL || s->distinctClause != NIL ||
		s->sortClause != NIL || s->limitCount != NULL ||
		s->limitOffset != NULL || s->setOperations != NULL ||
		s->cteList != NIL || s->rowMarks != NIL ||
		list_length(s->targetList) != 1 || s->jointree == NULL ||
		contain_volatile_functions((Node *) s) ||
		contain_vars_of_level((Node *) s, 2) || !FromPlainRelations(s))
		return false;
	te = linitial(s->targetList);
	if (te->resjunk || contain_vars_of_level((Node *) te->expr, 1) ||
		CollectAggregates((Node *) te->expr, (void *) &shape->aggrefs) ||
		shape->aggrefs == NIL)
		return false;
	foreach(lc, make_ands_implicit((Expr *) s->jointree->quals))
	{
		Node	   *clause = lfirst(lc);
		Correlation corr;

		if (AsCorrelation(clause, &corr))
		{
			Correlation *c = palloc(sizeof(Correlation));

			*c = corr;
			shape->correlations = lappend(shape->correlations, c);
		}
		else if (contain_vars_of_level(clause, 1) || RewriteUnsafeOnAnyRow(clause))
			return false;
		else
			shape->local_quals = lappend(shape->local_quals, clause);
	}
	return shape->correlations != NIL;
}

/* The expression above the aggregates is strict in them. */
static bool
StrictAboveAggregates(Expr *expr, List *aggrefs)
{
	Node	   *probe = ReplaceAggregates((Node *) expr, aggrefs, 1, 0);

	return !contain_nonstrict_functions(probe);
}

/* ---- the rewrite ---- */

/*
 * The grouped subquery: the correlations' inner columns as GROUP BY keys
 * k1..kn, then the aggregates a1..am, over s's relations and local quals.
 */
static Query *
GroupedSubquery(Query *s, SubqueryShape *shape, List **colnames)
{
	Query	   *d = copyObject(s);
	List	   *tlist = NIL;
	List	   *groups = NIL;
	int			resno = 0;
	ListCell   *lc;

	/* d's Vars are s's, copied; shape's nodes point into s, so copy them */
	d->jointree->quals = (Node *) make_ands_explicit(copyObject(shape->local_quals));
	foreach(lc, shape->correlations)
	{
		Correlation *c = lfirst(lc);
		TypeCacheEntry *tce = lookup_type_cache(c->inner->vartype, TYPECACHE_LT_OPR);
		SortGroupClause *sgc = makeNode(SortGroupClause);
		char	   *name = psprintf("k%d", resno + 1);

		resno++;
		tlist = lappend(tlist, makeTargetEntry((Expr *) copyObject(c->inner),
											   resno, name, false));
		((TargetEntry *) llast(tlist))->ressortgroupref = resno;
		sgc->tleSortGroupRef = resno;
		sgc->eqop = c->eqop;
		sgc->sortop = tce->lt_opr;
		sgc->nulls_first = false;
		sgc->hashable = op_hashjoinable(c->eqop, c->inner->vartype);
		groups = lappend(groups, sgc);
		*colnames = lappend(*colnames, makeString(name));
	}
	foreach(lc, shape->aggrefs)
	{
		char	   *name = psprintf("a%d", resno + 1);

		resno++;
		tlist = lappend(tlist, makeTargetEntry((Expr *) copyObject(lfirst(lc)),
											   resno, name, false));
		*colnames = lappend(*colnames, makeString(name));
	}
	d->targetList = tlist;
	d->groupClause = groups;
	return d;
}

/*
 * Replace sublink, an argument of a top-level condition of q, by a join to
 * its grouped form: returns the expression that replaces it and appends the
 * join conditions to *quals, or returns NULL (nothing changed).
 */
static Node *
RewriteSubLink(Query *q, SubLink *sublink, List **quals)
{
	Query	   *s = (Query *) sublink->subselect;
	SubqueryShape shape;
	TargetEntry *te;
	RangeTblEntry *rte;
	RangeTblRef *rtr;
	List	   *colnames = NIL;
	Index		rti;
	int			key = 0;
	ListCell   *lc;

	if (sublink->subLinkType != EXPR_SUBLINK || !SubqueryRewritable(s, &shape))
		return NULL;
	te = linitial(s->targetList);
	if (!StrictAboveAggregates(te->expr, shape.aggrefs))
		return NULL;

	rte = makeNode(RangeTblEntry);
	rte->rtekind = RTE_SUBQUERY;
	rte->subquery = GroupedSubquery(s, &shape, &colnames);
	rte->eref = makeAlias("colstore_decorrelated", colnames);
	rte->inFromCl = true;
	q->rtable = lappend(q->rtable, rte);
	rti = list_length(q->rtable);
	rtr = makeNode(RangeTblRef);
	rtr->rtindex = rti;
	q->jointree->fromlist = lappend(q->jointree->fromlist, rtr);

	foreach(lc, shape.correlations)
	{
		Correlation *c = lfirst(lc);
		Var		   *outer = copyObject(c->outer);
		Var		   *group = makeVar(rti, ++key, c->inner->vartype,
									c->inner->vartypmod, c->inner->varcollid, 0);

		outer->varlevelsup = 0;
		*quals = lappend(*quals, make_opclause(c->eqop, BOOLOID, false,
											   (Expr *) outer, (Expr *) group,
											   InvalidOid, c->inner->varcollid));
	}
	return ReplaceAggregates((Node *) copyObject(te->expr), shape.aggrefs,
							 rti, list_length(shape.correlations));
}

/*
 * DecorrelateLevel
 *		Rewrite the sublinks of q's top-level conditions that qualify (file
 *		header); inner query levels are the caller's.  True if q changed.
 */
bool
DecorrelateLevel(Query *q)
{
	List	   *conds;
	List	   *extra = NIL;
	bool		changed = false;
	ListCell   *lc;

	if (!colstore_enable_decorrelation ||
		q->commandType != CMD_SELECT || q->setOperations != NULL ||
		q->jointree == NULL || q->jointree->quals == NULL || !q->hasSubLinks)
		return false;
	conds = make_ands_implicit((Expr *) q->jointree->quals);
	foreach(lc, conds)
	{
		OpExpr	   *op = lfirst(lc);
		int			i;

		if (!IsA(op, OpExpr) || list_length(op->args) != 2)
			continue;
		set_opfuncid(op);
		if (!func_strict(op->opfuncid))
			continue;
		for (i = 0; i < 2; i++)
		{
			Node	   *arg = list_nth(op->args, i);
			Node	   *other = list_nth(op->args, 1 - i);
			Node	   *replacement;

			if (!IsA(arg, SubLink) || checkExprHasSubLink(other) ||
				contain_volatile_functions(other))
				continue;
			replacement = RewriteSubLink(q, (SubLink *) arg, &extra);
			if (replacement != NULL)
			{
				list_nth_cell(op->args, i)->ptr_value = replacement;
				changed = true;
				break;
			}
		}
	}
	if (changed)
		q->jointree->quals = (Node *) make_ands_explicit(list_concat(conds, extra));
	return changed;
}

/* Define colstore.enable_decorrelation (from _PG_init). */
void
DecorrelateDefineSettings(void)
{
	DefineCustomBoolVariable("colstore.enable_decorrelation",
							 "Enables the planner's rewrite of correlated aggregate subqueries over colstore tables into joins with grouped aggregates, when cheaper.",
							 NULL,
							 &colstore_enable_decorrelation,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
}
