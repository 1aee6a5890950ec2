/*-------------------------------------------------------------------------
 *
 * merge_skip.c
 *	  Merge joins whose inner ColstoreScan skips the rows below the outer
 *	  row's key.
 *
 * A merge join matches each outer row against the inner rows of its key,
 * and its outer keys only grow, so an inner, left, semi or anti join
 * discards every inner row whose key is below the current outer row's: it
 * reads them only to step past them, each one a tuple formed, returned
 * through the executor and compared.  When both sides are ColstoreScans
 * ordered by the columns the join's first merge clause equates, in
 * ascending order, with integer-ordered keys (integer_order.h) of one type
 * compared by that type's default btree family, the inner scan skips those
 * rows before they become tuples (ColstoreScanSkipBelowOuter), testing the
 * decoded key column only.  The outer side may also be anything else (a
 * Sort, a hash join: TPC-H Q5's serial plan merges the sorted orders of
 * Asia's customers with all of lineitem): the bound is then the key of the
 * join's current outer row (ColstoreScanSkipBelowJoinOuter), which the
 * merge join needs in ascending order anyway.  A sparse outer side is where that pays: TPC-H
 * Q4 joins three months of orders to all of lineitem, so more than nine in
 * ten of lineitem's rows find no order in their range of keys.
 *
 * Right and full joins return unmatched inner rows and are left alone; so
 * are joins with anything between the join and the inner scan (a
 * Materialize, a Sort), which keep or reorder rows.  The link is made after
 * ExecutorStart by join_filter.c's walk of the plan state tree, in
 * parallel workers too: a participant's merge join sees an ascending run of
 * outer rows whether its outer scan is partial or not.
 *
 * IDENTIFICATION
 *	  src/cscan/merge_skip.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/stratnum.h"
#include "nodes/execnodes.h"
#include "nodes/extensible.h"
#include "nodes/plannodes.h"
#include "utils/guc.h"
#include "utils/typcache.h"

#include "cscan/cscan_exec.h"
#include "cscan/merge_skip.h"
#include "storage/integer_order.h"

/* colstore.enable_merge_skip */
bool		colstore_enable_merge_skip = true;

/*
 * The column (1-based) of the ColstoreScan ps that var, an expression of
 * its parent naming an entry of the scan's target list (OUTER_VAR or
 * INNER_VAR), stands for, or InvalidAttrNumber if it is no plain column.
 */
static AttrNumber
ScanColumnOf(PlanState *ps, Var *var)
{
	CustomScan *scan = (CustomScan *) ps->plan;
	TargetEntry *tle;
	Var		   *column;

	if (var->varattno < 1 || var->varattno > list_length(ps->plan->targetlist))
		return InvalidAttrNumber;
	tle = list_nth_node(TargetEntry, ps->plan->targetlist, var->varattno - 1);
	if (!IsA(tle->expr, Var))
		return InvalidAttrNumber;
	column = (Var *) tle->expr;
	if (column->varno == INDEX_VAR && column->varattno >= 1 &&
		column->varattno <= list_length(scan->custom_scan_tlist))
	{
		tle = list_nth_node(TargetEntry, scan->custom_scan_tlist, column->varattno - 1);
		if (!IsA(tle->expr, Var))
			return InvalidAttrNumber;
		column = (Var *) tle->expr;
	}
	if (column->varno != scan->scan.scanrelid || column->varattno < 1 ||
		column->vartype != var->vartype)
		return InvalidAttrNumber;
	return column->varattno;
}

/*
 * MergeSkipLink
 *		If ps is a merge join that allows it (see the file header), make its
 *		inner ColstoreScan skip the rows below the outer row's key.
 */
void
MergeSkipLink(PlanState *ps)
{
	MergeJoin  *plan;
	PlanState  *outer;
	PlanState  *inner;
	OpExpr	   *clause;
	Var		   *outer_key;
	Var		   *inner_key;
	TypeCacheEntry *tce;

	if (!colstore_enable_merge_skip || !IsA(ps, MergeJoinState))
		return;
	plan = (MergeJoin *) ps->plan;
	if (plan->join.jointype != JOIN_INNER && plan->join.jointype != JOIN_LEFT &&
		plan->join.jointype != JOIN_SEMI && plan->join.jointype != JOIN_ANTI)
		return;
	outer = outerPlanState(ps);
	inner = innerPlanState(ps);
	if (outer == NULL || inner == NULL || !IsColstoreScanState(inner) ||
		plan->mergeclauses == NIL || MergeClauseDescending(plan, 0))
		return;
	clause = linitial_node(OpExpr, plan->mergeclauses);
	if (list_length(clause->args) != 2 ||
		!IsA(linitial(clause->args), Var) || !IsA(lsecond(clause->args), Var))
		return;
	outer_key = linitial_node(Var, clause->args);
	inner_key = lsecond_node(Var, clause->args);
	if (outer_key->varno != OUTER_VAR || inner_key->varno != INNER_VAR ||
		outer_key->vartype != inner_key->vartype ||
		!TypeHasSignedIntegerOrder(outer_key->vartype))
		return;
	/* "=" and the order of the type's own btree family: the datums' order */
	tce = lookup_type_cache(outer_key->vartype, TYPECACHE_BTREE_OPFAMILY);
	if (plan->mergeFamilies[0] != tce->btree_opf)
		return;
	if (ColstoreScanOrderAttno(inner) == InvalidAttrNumber ||
		ColstoreScanOrderAttno(inner) != ScanColumnOf(inner, inner_key))
		return;
	if (IsColstoreScanState(outer) &&
		ColstoreScanOrderAttno(outer) != InvalidAttrNumber &&
		ColstoreScanOrderAttno(outer) == ScanColumnOf(outer, outer_key))
		ColstoreScanSkipBelowOuter(inner, outer, outer_key->vartype);
	else
	{
		/*
		 * Any other outer side (a Sort, a join): the merge join itself
		 * requires its outer rows in ascending order of the key, and holds
		 * the one it is matching in mj_OuterTupleSlot.
		 */
		ColstoreScanSkipBelowJoinOuter(inner, ps, outer_key->varattno,
									   outer_key->vartype);
	}
}

/* Define colstore.enable_merge_skip (from _PG_init). */
void
MergeSkipDefineSettings(void)
{
	DefineCustomBoolVariable("colstore.enable_merge_skip",
							 "Enables merge joins' inner colstore scans to skip rows below the outer row's key.",
							 NULL,
							 &colstore_enable_merge_skip,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
}
