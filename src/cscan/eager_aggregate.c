/*-------------------------------------------------------------------------
 *
 * eager_aggregate.c
 *	  Aggregates over a join to a colstore table, computed on that table,
 *	  grouped by the join key, before the join (TPC-H Q13's shape).
 *
 * For
 *
 *	 SELECT c_custkey, count(o_orderkey)
 *	 FROM customer LEFT JOIN orders
 *		  ON c_custkey = o_custkey AND o_comment NOT LIKE '%special%'
 *	 GROUP BY c_custkey
 *
 * PostgreSQL joins every order to its customer and then groups the joined
 * rows: 1.5 million rows through a hash join and a hash aggregate.  Each
 * group is one customer (c_custkey is customer's primary key), and the
 * orders in it are exactly those whose o_custkey equals it, so the
 * aggregate can be computed per o_custkey first, where ColstoreAgg folds
 * it from the chunks, and joined to the customers afterwards:
 *
 *	 SELECT c_custkey, COALESCE(a2, 0)
 *	 FROM customer LEFT JOIN
 *		  (SELECT o_custkey AS k1, count(o_orderkey) AS a2 FROM orders
 *		   WHERE o_comment NOT LIKE '%special%' GROUP BY o_custkey) e
 *		  ON c_custkey = k1
 *
 * The rewrite gives exactly the original's rows under these conditions,
 * each checked:
 *	- The query level reads one explicit join, A LEFT JOIN B or A JOIN B,
 *	  of two plain relations (no sampling, row security, row marks), B a
 *	  colstore table; no alias or USING on the join, and nothing refers to
 *	  the join's own columns.
 *	- Its ON condition is one "A column = B column" of one type with the
 *	  type's default equality under the B column's collation (the equality
 *	  GROUP BY groups by, so a key meets exactly its group's rows; a NULL
 *	  key meets none, as the join's equality does), and conditions on B
 *	  alone.  Those are restrictions of B that PostgreSQL evaluates in B's
 *	  scan, on rows no A row joins, in the original plan too.
 *	- The WHERE clause reads A only.
 *	- GROUP BY is plain columns of A that include A's (non-deferrable)
 *	  primary key, and A has no inheritance children: each group is one A
 *	  row.  No grouping sets, window functions, set-returning functions,
 *	  sublinks or volatile functions at this level.
 *	- Every aggregate reads B's columns only, and is count(*), count(x), or
 *	  exact (rewrite_safety.c: min, max, sum and avg of integers and
 *	  numeric), without DISTINCT, ORDER BY or FILTER; every function applied
 *	  to its arguments cannot fail on any value (they are now evaluated on
 *	  B rows that join no A row).  Outside aggregates nothing reads B.
 *	- Nothing at this level reads a column of an outer query (a LATERAL
 *	  subquery's level stays as written).
 * For an A row no B row joins (LEFT JOIN), the original aggregates one row
 * of NULLs: count(*) is 1, count(x) is 0, the others NULL; the rewrite
 * gives COALESCE(n, 1), COALESCE(c, 0) and the NULL of the missing group.
 * HAVING becomes a WHERE condition over the joined row, the GROUP BY goes
 * (each row is its own group).
 *
 * The planner hook (query_alternatives.c) plans the query as written and
 * as rewritten and keeps the cheaper plan: an index on B's key with few A
 * rows keeps the original.  colstore.enable_eager_aggregation turns the
 * rewrite off.
 *
 * IDENTIFICATION
 *	  src/cscan/eager_aggregate.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/relation.h"
#include "access/sysattr.h"
#include "catalog/pg_class.h"
#include "catalog/pg_constraint.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/tlist.h"
#include "parser/parse_oper.h"
#include "parser/parsetree.h"
#include "rewrite/rewriteManip.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "cscan/eager_aggregate.h"
#include "cscan/rewrite_safety.h"
#include "tableam/am_handler.h"

bool		colstore_enable_eager_aggregation = true;

/* What a rewritable query level is made of (file header). */
typedef struct EagerShape
{
	JoinExpr   *join;
	Index		a_rti;			/* the relation whose rows are the groups */
	Index		b_rti;			/* the colstore relation aggregated */
	Var		   *a_key;			/* the ON equality's columns */
	Var		   *b_key;
	Oid			eqop;
	List	   *b_quals;		/* the other ON conditions, on B only */
	List	   *aggrefs;		/* distinct Aggrefs of the target and HAVING */
} EagerShape;

/* ---- checks ---- */

typedef struct VarnoContext
{
	Bitmapset  *varnos;
	bool		enter_aggregates;
} VarnoContext;

static bool
VarnoWalker(Node *node, VarnoContext *cxt)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
	{
		Var		   *var = (Var *) node;

		if (var->varlevelsup == 0)
			cxt->varnos = bms_add_member(cxt->varnos, var->varno);
		return false;
	}
	if (IsA(node, Aggref) && !cxt->enter_aggregates)
		return false;
	return expression_tree_walker(node, VarnoWalker, (void *) cxt);
}

/*
 * The range table indexes of node's Vars of this level (inside aggregates
 * too, if enter_aggregates).  The level has no sublinks (checked first).
 */
static Bitmapset *
Varnos(Node *node, bool enter_aggregates)
{
	VarnoContext cxt = {NULL, enter_aggregates};

	(void) VarnoWalker(node, &cxt);
	return cxt.varnos;
}

/* Does node read no relation but rti (Vars of this level)? */
static bool
ReadsOnly(Node *node, bool enter_aggregates, Index rti)
{
	Bitmapset  *varnos = Varnos(node, enter_aggregates);

	return bms_is_empty(varnos) ||
		(bms_num_members(varnos) == 1 && bms_is_member(rti, varnos));
}

static bool
JoinVarWalker(Node *node, Index *rti)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
		return ((Var *) node)->varlevelsup == 0 && ((Var *) node)->varno == *rti;
	if (IsA(node, Query))
		return false;			/* another level */
	return expression_tree_walker(node, JoinVarWalker, (void *) rti);
}

/* Does anything at level q read a column of the join rti itself? */
static bool
ReadsJoinColumns(Query *q, Index rti)
{
	return query_tree_walker(q, JoinVarWalker, (void *) &rti,
							 QTW_IGNORE_JOINALIASES);
}

/* A plain relation of the query level, or NULL. */
static RangeTblEntry *
PlainRelation(Query *q, Node *item)
{
	RangeTblEntry *rte;

	if (!IsA(item, RangeTblRef))
		return NULL;
	rte = rt_fetch(((RangeTblRef *) item)->rtindex, q->rtable);
	if (rte->rtekind != RTE_RELATION || rte->tablesample != NULL ||
		rte->securityQuals != NIL)
		return NULL;
	return rte;
}

static bool
IsColstoreTable(RangeTblEntry *rte)
{
	Relation	rel;
	bool		colstore;

	if (rte->relkind != RELKIND_RELATION)
		return false;
	rel = relation_open(rte->relid, NoLock);
	colstore = RelationIsColstore(rel);
	relation_close(rel, NoLock);
	return colstore;
}

/* Is clause "A column = B column" with the type's own equality? */
static bool
AsKeyEquality(Node *clause, EagerShape *shape)
{
	OpExpr	   *op;
	Var		   *x;
	Var		   *y;

	if (!IsA(clause, OpExpr) || list_length(((OpExpr *) clause)->args) != 2)
		return false;
	op = (OpExpr *) clause;
	x = linitial(op->args);
	y = lsecond(op->args);
	if (!IsA(x, Var) || !IsA(y, Var) || x->varlevelsup != 0 ||
		y->varlevelsup != 0 || x->varattno <= 0 || y->varattno <= 0 ||
		x->vartype != y->vartype)
		return false;
	if (x->varno == shape->b_rti && y->varno == shape->a_rti)
	{
		Var		   *t = x;

		x = y;
		y = t;
	}
	if (x->varno != shape->a_rti || y->varno != shape->b_rti ||
		!RewriteGroupingEquality(op, y, x))
		return false;
	shape->a_key = x;
	shape->b_key = y;
	shape->eqop = op->opno;
	return true;
}

/* Split the ON condition into the key equality and conditions on B. */
static bool
JoinConditionRewritable(EagerShape *shape)
{
	ListCell   *lc;

	foreach(lc, make_ands_implicit((Expr *) shape->join->quals))
	{
		Node	   *clause = lfirst(lc);

		if (shape->a_key == NULL && AsKeyEquality(clause, shape))
			continue;
		if (!ReadsOnly(clause, true, shape->b_rti))
			return false;
		shape->b_quals = lappend(shape->b_quals, clause);
	}
	return shape->a_key != NULL;
}

/* Do the GROUP BY columns, all plain columns of A, include its primary key? */
static bool
GroupsByPrimaryKey(Query *q, List *tlist, RangeTblEntry *a, Index a_rti)
{
	Bitmapset  *grouped = NULL;
	Bitmapset  *pkey;
	Oid			constraint;
	ListCell   *lc;

	foreach(lc, q->groupClause)
	{
		SortGroupClause *sgc = lfirst(lc);
		Node	   *expr = (Node *) get_sortgroupclause_expr(sgc, tlist);
		Var		   *var = (Var *) expr;

		if (!IsA(expr, Var) || var->varno != a_rti || var->varlevelsup != 0 ||
			var->varattno <= 0)
			return false;
		grouped = bms_add_member(grouped,
								 var->varattno - FirstLowInvalidHeapAttributeNumber);
	}
	pkey = get_primary_key_attnos(a->relid, false, &constraint);
	return pkey != NULL && bms_is_subset(pkey, grouped);
}

/* Collect the Aggrefs; true (stop) if one cannot be computed before the join. */
static bool
CollectAggregates(Node *node, EagerShape *shape)
{
	if (node == NULL)
		return false;
	if (IsA(node, Aggref))
	{
		Aggref	   *agg = (Aggref *) node;

		if (!(RewriteAggregateIsCount(agg) || RewriteAggregateExact(agg)) ||
			!ReadsOnly((Node *) agg->args, true, shape->b_rti) ||
			RewriteUnsafeOnAnyRow((Node *) agg->args))
			return true;
		if (!list_member(shape->aggrefs, agg))
			shape->aggrefs = lappend(shape->aggrefs, agg);
		return false;			/* arguments checked above */
	}
	return expression_tree_walker(node, CollectAggregates, (void *) shape);
}

/* Fill *shape if query level q may be rewritten (file header). */
static bool
LevelRewritable(Query *q, EagerShape *shape)
{
	JoinExpr   *join;
	RangeTblEntry *a;
	RangeTblEntry *b;
	List	   *tlist;
	Node	   *having;

	memset(shape, 0, sizeof(*shape));
	if (q->commandType != CMD_SELECT || !q->hasAggs || q->groupClause == NIL ||
		q->groupingSets != NIL || q->hasWindowFuncs || q->hasTargetSRFs ||
		q->hasSubLinks || q->hasForUpdate || q->hasRowSecurity ||
		q->rowMarks != NIL || q->setOperations != NULL || q->jointree == NULL ||
		list_length(q->jointree->fromlist) != 1)
		return false;
	join = linitial(q->jointree->fromlist);
	if (!IsA(join, JoinExpr) ||
		(join->jointype != JOIN_LEFT && join->jointype != JOIN_INNER) ||
		join->alias != NULL || join->usingClause != NIL)
		return false;
	a = PlainRelation(q, join->larg);
	b = PlainRelation(q, join->rarg);
	if (a == NULL || b == NULL || !IsColstoreTable(b) ||
		(a->relkind != RELKIND_RELATION && a->relkind != RELKIND_PARTITIONED_TABLE) ||
		(a->relkind == RELKIND_RELATION && a->inh && has_subclass(a->relid)) ||
		contain_volatile_functions((Node *) q) ||
		contain_vars_of_level((Node *) q, 1))
		return false;
	shape->join = join;
	shape->a_rti = ((RangeTblRef *) join->larg)->rtindex;
	shape->b_rti = ((RangeTblRef *) join->rarg)->rtindex;

	/* grouped expressions as the columns they are (18's GROUP entries) */
	tlist = (List *) FlattenGroupVars(q, (Node *) q->targetList);
	having = FlattenGroupVars(q, q->havingQual);
	if (ReadsJoinColumns(q, join->rtindex) ||
		!JoinConditionRewritable(shape) ||
		!ReadsOnly(q->jointree->quals, true, shape->a_rti) ||
		!GroupsByPrimaryKey(q, tlist, a, shape->a_rti) ||
		!ReadsOnly((Node *) tlist, false, shape->a_rti) ||
		!ReadsOnly(having, false, shape->a_rti) ||
		CollectAggregates((Node *) tlist, shape) ||
		CollectAggregates(having, shape))
		return false;
	return shape->aggrefs != NIL;
}

/* ---- the rewrite ---- */

/* A copy of node moved from the query level into the grouped subquery. */
static Node *
IntoSubquery(Node *node, EagerShape *shape)
{
	node = copyObject(node);
	ChangeVarNodes(node, shape->b_rti, 1, 0);
	return RemoveNulledBy(node, shape->join->rtindex);
}

/*
 * The grouped subquery over B: its key column k1 as the GROUP BY key, then
 * the aggregates, under B's conditions of the ON clause.
 */
static Query *
GroupedSubquery(Query *q, EagerShape *shape, List **colnames)
{
	Query	   *sub = makeNode(Query);
	RangeTblEntry *b = copyObject(rt_fetch(shape->b_rti, q->rtable));
	RangeTblRef *rtr = makeNode(RangeTblRef);
	TypeCacheEntry *tce = lookup_type_cache(shape->b_key->vartype, TYPECACHE_LT_OPR);
	SortGroupClause *sgc = makeNode(SortGroupClause);
	List	   *quals = (List *) IntoSubquery((Node *) shape->b_quals, shape);
	TargetEntry *te;
	int			resno = 1;
	ListCell   *lc;

	sub->commandType = CMD_SELECT;
	sub->querySource = QSRC_ORIGINAL;
	sub->canSetTag = true;
	sub->rtable = list_make1(b);
#if PG_HAS_RTEPERMINFOS
	if (b->perminfoindex != 0)
	{
		sub->rteperminfos =
			list_make1(copyObject(list_nth(q->rteperminfos, b->perminfoindex - 1)));
		b->perminfoindex = 1;
	}
#endif
	rtr->rtindex = 1;
	sub->jointree = makeFromExpr(list_make1(rtr),
								 quals == NIL ? NULL : (Node *) make_ands_explicit(quals));

	te = makeTargetEntry((Expr *) IntoSubquery((Node *) shape->b_key, shape),
						 resno, pstrdup("k1"), false);
	te->ressortgroupref = 1;
	sgc->tleSortGroupRef = 1;
	sgc->eqop = shape->eqop;
	sgc->sortop = tce->lt_opr;
	sgc->nulls_first = false;
	sgc->hashable = op_hashjoinable(shape->eqop, shape->b_key->vartype);
	sub->targetList = list_make1(te);
	*colnames = list_make1(makeString(pstrdup("k1")));
	foreach(lc, shape->aggrefs)
	{
		char	   *name = psprintf("a%d", ++resno);

		sub->targetList = lappend(sub->targetList,
								  makeTargetEntry((Expr *) IntoSubquery(lfirst(lc), shape),
												  resno, name, false));
		*colnames = lappend(*colnames, makeString(name));
	}
	sub->groupClause = list_make1(sgc);
	sub->hasAggs = true;
	return sub;
}

/* Column attno of the grouped subquery. */
static Var *
SubqueryColumn(EagerShape *shape, Query *sub, int attno)
{
	TargetEntry *te = list_nth(sub->targetList, attno - 1);

	return makeVar(shape->b_rti, attno, exprType((Node *) te->expr),
				   exprTypmod((Node *) te->expr),
				   exprCollation((Node *) te->expr), 0);
}

/* Column attno of the grouped subquery, read above the join. */
static Var *
GroupedColumn(EagerShape *shape, Query *sub, int attno)
{
	Var		   *var = SubqueryColumn(shape, sub, attno);

	if (shape->join->jointype == JOIN_LEFT)
		SetVarNulledBy(var, shape->join->rtindex);
	return var;
}

/* The position in list of the member equal() to node (it is there). */
static int
AggregatePosition(List *list, void *node)
{
	ListCell   *lc;

	foreach(lc, list)
	{
		if (equal(lfirst(lc), node))
			return foreach_current_index(lc);
	}
	elog(ERROR, "colstore eager aggregation: unknown aggregate");
	return -1;					/* keep the compiler quiet */
}

typedef struct ReplaceContext
{
	EagerShape *shape;
	Query	   *sub;
} ReplaceContext;

/*
 * Each Aggref replaced by its group's value: the subquery's column, and
 * for count over an A row no B row joins (LEFT JOIN), what the original
 * counted over its one row of NULLs.
 */
static Node *
ReplaceAggregatesMutator(Node *node, ReplaceContext *cxt)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Aggref))
	{
		Aggref	   *agg = (Aggref *) node;
		int			attno = AggregatePosition(cxt->shape->aggrefs, agg) + 2;
		Var		   *var = GroupedColumn(cxt->shape, cxt->sub, attno);
		CoalesceExpr *coalesce;

		if (cxt->shape->join->jointype != JOIN_LEFT || !RewriteAggregateIsCount(agg))
			return (Node *) var;
		coalesce = makeNode(CoalesceExpr);
		coalesce->coalescetype = INT8OID;
		coalesce->coalescecollid = InvalidOid;
		coalesce->args = list_make2(var,
									makeConst(INT8OID, -1, InvalidOid, sizeof(int64),
											  Int64GetDatum(agg->aggstar ? 1 : 0),
											  false, FLOAT8PASSBYVAL));
		coalesce->location = -1;
		return (Node *) coalesce;
	}
	return expression_tree_mutator(node, ReplaceAggregatesMutator, (void *) cxt);
}

/* The join's columns from B become the subquery's. */
static void
RebuildJoinColumns(Query *q, EagerShape *shape, Query *sub, List *colnames)
{
	RangeTblEntry *jrte = rt_fetch(shape->join->rtindex, q->rtable);
	int			nleft = list_length(jrte->joinleftcols);
	int			i;

	jrte->joinaliasvars = list_truncate(list_copy(jrte->joinaliasvars), nleft);
	jrte->eref->colnames = list_truncate(list_copy(jrte->eref->colnames), nleft);
	jrte->joinrightcols = NIL;
	for (i = 1; i <= list_length(sub->targetList); i++)
	{
		jrte->joinaliasvars = lappend(jrte->joinaliasvars,
									  SubqueryColumn(shape, sub, i));
		jrte->joinrightcols = lappend_int(jrte->joinrightcols, i);
	}
	jrte->eref->colnames = list_concat(jrte->eref->colnames, colnames);
}

/* B's permissions move with it into the subquery (16 keeps them apart). */
static void
DropPermissionsOf(Query *q, RangeTblEntry *b)
{
#if PG_HAS_RTEPERMINFOS
	int			removed = b->perminfoindex;
	ListCell   *lc;

	if (removed == 0)
		return;
	q->rteperminfos = list_delete_nth_cell(q->rteperminfos, removed - 1);
	foreach(lc, q->rtable)
	{
		RangeTblEntry *rte = lfirst(lc);

		if (rte->perminfoindex > removed)
			rte->perminfoindex--;
	}
	b->perminfoindex = 0;
#endif
}

/*
 * 18: q no longer groups, so its RTE_GROUP entry becomes an RTE_RESULT in
 * place (keeping the other entries' indexes), as PostgreSQL's own
 * simplify_EXISTS_query does.
 */
static void
ClearGroupRTE(Query *q)
{
#if PG_HAS_GROUP_RTE
	ListCell   *lc;

	foreach(lc, q->rtable)
	{
		RangeTblEntry *rte = lfirst(lc);

		if (rte->rtekind == RTE_GROUP)
		{
			rte->rtekind = RTE_RESULT;
			rte->groupexprs = NIL;
			break;
		}
	}
	q->hasGroupRTE = false;
#endif
}

/* Rewrite query level q, which LevelRewritable accepted, as the header says. */
static void
RewriteLevel(Query *q, EagerShape *shape)
{
	RangeTblEntry *b = rt_fetch(shape->b_rti, q->rtable);
	RangeTblEntry *rte = makeNode(RangeTblEntry);
	List	   *colnames = NIL;
	Query	   *sub = GroupedSubquery(q, shape, &colnames);
	ReplaceContext cxt = {shape, sub};
	Node	   *having;

	DropPermissionsOf(q, b);
	rte->rtekind = RTE_SUBQUERY;
	rte->subquery = sub;
	rte->eref = makeAlias("colstore_eager", colnames);
	rte->inFromCl = true;
	list_nth_cell(q->rtable, shape->b_rti - 1)->ptr_value = rte;
	RebuildJoinColumns(q, shape, sub, list_copy(colnames));

	shape->join->quals = (Node *)
		make_opclause(shape->eqop, BOOLOID, false,
					  (Expr *) copyObject(shape->a_key),
					  (Expr *) SubqueryColumn(shape, sub, 1),
					  InvalidOid, shape->b_key->varcollid);

	q->targetList = (List *)
		ReplaceAggregatesMutator(FlattenGroupVars(q, (Node *) q->targetList), &cxt);
	having = ReplaceAggregatesMutator(FlattenGroupVars(q, q->havingQual), &cxt);
	if (having != NULL)
		q->jointree->quals = (Node *)
			make_ands_explicit(list_concat(make_ands_implicit((Expr *) q->jointree->quals),
										   make_ands_implicit((Expr *) having)));
	q->havingQual = NULL;
	q->groupClause = NIL;
	q->groupDistinct = false;
	q->hasAggs = false;
	ClearGroupRTE(q);
}

/*
 * EagerAggregateLevel
 *		Rewrite query level q as the file header says if it qualifies;
 *		inner levels are the caller's.  True if q changed.
 */
bool
EagerAggregateLevel(Query *q)
{
	EagerShape	shape;

	if (!colstore_enable_eager_aggregation || !LevelRewritable(q, &shape))
		return false;
	RewriteLevel(q, &shape);
	return true;
}

/* Define colstore.enable_eager_aggregation (from _PG_init). */
void
EagerAggregateDefineSettings(void)
{
	DefineCustomBoolVariable("colstore.enable_eager_aggregation",
							 "Enables the planner's rewrite of aggregates over a join to a colstore table into aggregates computed on that table before the join, when cheaper.",
							 NULL,
							 &colstore_enable_eager_aggregation,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
}
