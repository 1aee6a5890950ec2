/*-------------------------------------------------------------------------
 *
 * agg_sorted_path.c
 *	  Planner side of ColstoreAgg's sorted grouping: when a table holds
 *	  every grouping column in order.
 *
 * agg_path.c offers the sorted ColstoreAgg path (agg_sorted.c runs it) next
 * to the hashed one, and alone when the groups are not expected to fit in
 * hash_mem, if SortedAggPathkeys returns pathkeys: every GROUP BY key is a
 * plain column of the table (no expression, no COLLATE other than the
 * column's) that the table holds in ascending order without NULLs and
 * without heap tuples (ColstoreColumnStoredInOrder, the ordered
 * ColstoreScan's rule, ordered_path.c), of a type with a default btree
 * operator family whose equality is the equality the node groups by.  The
 * path's rows come out in ascending order of each key (NULLs last, though
 * such a table holds none), which a merge join, ORDER BY or an outer
 * GROUP BY above it can use.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_sorted_path.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/stratnum.h"
#include "access/table.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/paths.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "cscan/agg_sorted.h"
#include "mvcc/table_order.h"

/*
 * The pathkey of one grouping key, if the table holds it in order and the
 * node's equality for it (eqop, InvalidOid: the type's default) is its
 * default btree family's; NIL otherwise.
 */
static List *
KeyPathkey(PlannerInfo *root, RelOptInfo *input_rel, Relation relation,
		   Node *key, Oid eqop)
{
	Var		   *var = (Var *) key;
	Form_pg_attribute att;
	TypeCacheEntry *tce;

	if (!IsA(key, Var) || var->varno != input_rel->relid || var->varattno <= 0 ||
		var->varlevelsup != 0 || var->varattno > RelationGetDescr(relation)->natts)
		return NIL;
	att = TupleDescAttr(RelationGetDescr(relation), var->varattno - 1);
	if (att->attisdropped || att->atttypid != var->vartype ||
		var->varcollid != att->attcollation)
		return NIL;
	tce = lookup_type_cache(att->atttypid, TYPECACHE_LT_OPR | TYPECACHE_EQ_OPR |
							TYPECACHE_BTREE_OPFAMILY);
	if (!OidIsValid(tce->lt_opr) || !OidIsValid(tce->btree_opf))
		return NIL;
	if (!OidIsValid(eqop))
		eqop = tce->eq_opr;
	if (eqop != get_opfamily_member(tce->btree_opf, att->atttypid, att->atttypid,
									BTEqualStrategyNumber))
		return NIL;
	if (!ColstoreColumnStoredInOrder(relation, var->varattno - 1))
		return NIL;
	return BuildExpressionPathkey(root, (Expr *) var, tce->lt_opr,
								  input_rel->relids, false);
}

/*
 * SortedAggPathkeys
 *		The pathkeys of the sorted ColstoreAgg's output over table relid
 *		(scanned as input_rel) grouped by group_keys (with agg_path.c's
 *		group_eqops), or NIL if some key does not qualify.
 */
List *
SortedAggPathkeys(PlannerInfo *root, RelOptInfo *input_rel, Oid relid,
				  List *group_keys, List *group_eqops)
{
	List	   *result = NIL;
	Relation	relation;
	ListCell   *lc1;
	ListCell   *lc2;

	if (group_keys == NIL || list_length(group_eqops) != list_length(group_keys))
		return NIL;
	relation = table_open(relid, NoLock);
	forboth(lc1, group_keys, lc2, group_eqops)
	{
		List	   *pathkeys = KeyPathkey(root, input_rel, relation, lfirst(lc1),
										  lfirst_oid(lc2));

		if (pathkeys == NIL)
		{
			result = NIL;
			break;
		}
		result = list_concat_unique_ptr(result, pathkeys);
	}
	table_close(relation, NoLock);
	return result;
}
