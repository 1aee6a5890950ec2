/*-------------------------------------------------------------------------
 *
 * query_alternatives.c
 *	  The planner hook that plans a query as written and as rewritten by
 *	  colstore's query rewrites, and keeps the cheaper plan.
 *
 * Two rewrites produce the alternative, each on every query level, inner
 * levels first (a subquery in FROM or in a sublink is rewritten before the
 * level that reads it):
 *	- decorrelate.c: correlated aggregate subqueries into joins with grouped
 *	  aggregates;
 *	- eager_aggregate.c: an aggregate over a join to a colstore table
 *	  computed on that table, grouped by the join key, before the join.
 * Each returns exactly the rows of the original (their files say under
 * which conditions).  Neither is always cheaper (an index can make the
 * original cheap), so the query is planned both ways, as one alternative
 * with every rewrite applied, and the cheaper plan by total cost is kept.
 *
 * IDENTIFICATION
 *	  src/cscan/query_alternatives.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "nodes/nodeFuncs.h"
#include "optimizer/planner.h"

#include "cscan/decorrelate.h"
#include "cscan/eager_aggregate.h"
#include "cscan/query_alternatives.h"

static planner_hook_type prev_planner_hook = NULL;

static bool RewriteWalker(Node *node, void *context);

/* Rewrite every level of the query tree, inner levels first. */
static bool
RewriteQueryTree(Query *query)
{
	bool		changed = false;

	query_tree_walker(query, RewriteWalker, (void *) &changed, 0);
	changed |= DecorrelateLevel(query);
	changed |= EagerAggregateLevel(query);
	return changed;
}

static bool
RewriteWalker(Node *node, void *context)
{
	bool	   *changed = (bool *) context;

	if (node == NULL)
		return false;
	if (IsA(node, Query))
	{
		*changed |= RewriteQueryTree((Query *) node);
		return false;
	}
	return expression_tree_walker(node, RewriteWalker, context);
}

/*
 * Could a rewrite apply anywhere in query?  Both need aggregates (in a
 * sublink or at some level); a query without sublinks, aggregates or
 * subqueries in FROM (a point lookup) is planned once, without a copy.
 */
static bool
MayRewrite(Query *query)
{
	ListCell   *lc;

	if (query->hasSubLinks || query->hasAggs)
		return true;
	foreach(lc, query->rtable)
	{
		RangeTblEntry *rte = lfirst(lc);

		if (rte->rtekind == RTE_SUBQUERY || rte->rtekind == RTE_CTE)
			return true;
	}
	return query->cteList != NIL;
}

static PlannedStmt *
NextPlanner(Query *parse, const char *query_string, int cursorOptions,
			ParamListInfo boundParams)
{
	if (prev_planner_hook)
		return prev_planner_hook(parse, query_string, cursorOptions, boundParams);
	return standard_planner(parse, query_string, cursorOptions, boundParams);
}

/*
 * planner_hook: plan the query as written and, if a rewrite applies, as
 * rewritten, and keep the cheaper plan.
 */
static PlannedStmt *
QueryAlternativesPlanner(Query *parse, const char *query_string,
						 int cursorOptions, ParamListInfo boundParams)
{
	Query	   *rewritten = NULL;
	PlannedStmt *plain;
	PlannedStmt *alternative;

	if (parse->commandType == CMD_SELECT && MayRewrite(parse) &&
		(colstore_enable_decorrelation || colstore_enable_eager_aggregation))
	{
		rewritten = copyObject(parse);
		if (!RewriteQueryTree(rewritten))
			rewritten = NULL;
	}
	plain = NextPlanner(parse, query_string, cursorOptions, boundParams);
	if (rewritten == NULL)
		return plain;
	alternative = NextPlanner(rewritten, query_string, cursorOptions, boundParams);
	return alternative->planTree->total_cost < plain->planTree->total_cost ?
		alternative : plain;
}

/* Install the planner hook; called from _PG_init. */
void
QueryAlternativesInit(void)
{
	prev_planner_hook = planner_hook;
	planner_hook = QueryAlternativesPlanner;
}
