/*-------------------------------------------------------------------------
 *
 * ordered_path.c
 *	  Which orders a ColstoreScan can promise a query.
 *
 * A table loaded in the order of a column (an id, a timestamp) keeps that
 * order in its row groups, and the row group writer records it per chunk.
 * When the query can use the order of such a column (a merge join on it,
 * ORDER BY, GROUP BY, DISTINCT; PostgreSQL's pathkeys say which), the
 * planner gets an ordered ColstoreScan path: the same scan, whose rows come
 * out in ascending order of the column, so no Sort is needed above it, and
 * which supports mark and restore for a merge join's inner side
 * (cscan_path.c builds it; scan_order.c keeps the promise at run time).
 *
 * Only columns that appear in an equivalence class of the relation are
 * candidates (those are the only ones a pathkey can name), as a Var or a
 * binary-compatible relabeling of one (varchar, domains), and as a child
 * member when the relation is a partition (so MergeAppend can merge
 * ordered partitions); in ascending order of the type's default btree
 * operator class with the column's own collation, NULLs last; the table
 * must hold no NULLs in the column.
 *
 * IDENTIFICATION
 *	  src/cscan/ordered_path.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/table.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pg_list.h"
#include "optimizer/paths.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "cscan/ordered_path.h"
#include "mvcc/table_order.h"

/*
 * The columns of rel (1-based attnos) that some equivalence class names as
 * a Var or a relabeled Var, each once, with that member expression.
 */
static List *
EquivalenceColumns(PlannerInfo *root, RelOptInfo *rel, List **exprs)
{
	List	   *attnos = NIL;
	int			i = -1;

	*exprs = NIL;
	while ((i = bms_next_member(rel->eclass_indexes, i)) >= 0)
	{
		EquivalenceClass *ec = list_nth_node(EquivalenceClass, root->eq_classes, i);
		EquivalenceMember *em;
#if PG_EC_CHILD_MEMBERS_APART
		EquivalenceMemberIterator it;
#else
		ListCell   *lc = list_head(ec->ec_members);
#endif

		if (ec->ec_has_volatile)
			continue;
		/* from 18 a partition's (child's) members are kept apart */
#if PG_EC_CHILD_MEMBERS_APART
		setup_eclass_member_iterator(&it, ec, rel->relids);
		while ((em = eclass_member_iterator_next(&it)) != NULL)
#else
		for (; lc != NULL && (em = lfirst_node(EquivalenceMember, lc)) != NULL;
			 lc = lnext(ec->ec_members, lc))
#endif
		{
			Var		   *var = (Var *) em->em_expr;

			while (IsA(var, RelabelType))
				var = (Var *) ((RelabelType *) var)->arg;
			if (!bms_equal(em->em_relids, rel->relids) || !IsA(var, Var) ||
				var->varno != rel->relid || var->varlevelsup != 0 ||
				var->varattno <= 0 || list_member_int(attnos, var->varattno))
				continue;
			attnos = lappend_int(attnos, var->varattno);
			*exprs = lappend(*exprs, em->em_expr);
		}
	}
	return attnos;
}

/*
 * ColstoreOrderedScanKeys
 *		For a colstore table (relid) scanned as rel: the columns it holds in
 *		ascending order whose order the query can use.  Returns their
 *		pathkeys (a list of pathkey lists) and appends their attnos to
 *		*attnos, in the same order; NIL if none.
 */
List *
ColstoreOrderedScanKeys(PlannerInfo *root, RelOptInfo *rel, Oid relid,
						List **attnos)
{
	List	   *result = NIL;
	List	   *exprs;
	List	   *candidates;
	Relation	relation;
	ListCell   *lc1;
	ListCell   *lc2;

	*attnos = NIL;
	if (!has_useful_pathkeys(root, rel))
		return NIL;
	candidates = EquivalenceColumns(root, rel, &exprs);
	if (candidates == NIL)
		return NIL;
	relation = table_open(relid, NoLock);
	forboth(lc1, candidates, lc2, exprs)
	{
		AttrNumber	attno = (AttrNumber) lfirst_int(lc1);
		Expr	   *expr = (Expr *) lfirst(lc2);
		Form_pg_attribute att;
		TypeCacheEntry *tce;
		List	   *pathkeys;

		if (attno > RelationGetDescr(relation)->natts)
			continue;
		att = TupleDescAttr(RelationGetDescr(relation), attno - 1);
		if (att->attisdropped || exprCollation((Node *) expr) != att->attcollation)
			continue;
		tce = lookup_type_cache(att->atttypid, TYPECACHE_LT_OPR);
		if (!OidIsValid(tce->lt_opr))
			continue;
		pathkeys = BuildExpressionPathkey(root, expr, tce->lt_opr,
										  rel->relids, false);
		pathkeys = truncate_useless_pathkeys(root, rel, pathkeys);
		if (pathkeys == NIL || !ColstoreColumnStoredInOrder(relation, attno - 1))
			continue;
		result = lappend(result, pathkeys);
		*attnos = lappend_int(*attnos, attno);
	}
	table_close(relation, NoLock);
	return result;
}
