/*-------------------------------------------------------------------------
 *
 * key_range_path.c
 *	  Planner side of the key-range join (ColstoreKeyRangeJoin).
 *
 * PostgreSQL's parallel joins share out one input only: a parallel hash
 * join builds one hash table of the whole inner side (in batches written
 * to temporary files once it outgrows work_mem), and in a parallel merge
 * join every participant reads the whole inner side.  When both tables of
 * an inner equi-join hold the join column in ascending order (so each has
 * an ordered ColstoreScan path, ordered_path.c), the work can be split by
 * key instead: the key's domain is cut into ranges at values of the outer
 * column's histogram, participants take ranges one at a time, and for each
 * one run a serial merge join of the two ordered scans, each returning only
 * the rows in the range (pruning skips the row groups whose min/max lie
 * outside it).  A pair of rows the join returns has equal keys, so it
 * falls in exactly one range, and the ranges together cover every non-NULL
 * key: the union of the ranges' joins is the join.  Rows with NULL keys
 * match nothing in an inner join.
 *
 * The path is a partial path of the join relation (a Gather or Gather
 * Merge goes above it; each participant's rows come out in key order, as
 * it takes ranges in ascending order), offered from set_join_pathlist_hook
 * when:
 *	- the join is an inner join in a query that may run in parallel (so no
 *	  row marks and no EvalPlanQual rechecks: DML plans are never parallel);
 *	- both sides are colstore tables with a serial ordered ColstoreScan
 *	  path, on columns a merge clause equates, of the same type whose datums
 *	  order as signed integers (integer_order.h: integers, date, time,
 *	  timestamps), with the merge clause in the type's default btree
 *	  operator family (the one the scans' order and the ranges use);
 *	- the outer column has a histogram with enough values to cut ranges;
 *	- an inner join is expected to keep at least half the rows of its
 *	  larger side (otherwise the hash join filter makes the parallel hash
 *	  join the better plan; semi joins, whose hash side is the large
 *	  table, cannot be filtered so).
 * Its child is the merge join PostgreSQL would build of the two ordered
 * paths (all the join's clauses; the first merge clause keys the merge);
 * the scans under it are copies of the ordered paths that take the range
 * from two executor parameters (ColstoreScanPathInKeyRange).  Cost: the
 * serial merge join's run cost spread over the participants, plus, per
 * range, rereading both tables' heap pages and testing every chunk.
 *
 * The number of ranges is four per participant, so that a participant that
 * falls behind is caught up by the others.
 *
 * IDENTIFICATION
 *	  src/cscan/key_range_path.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include <math.h>

#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/paramassign.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/typcache.h"

#include "cscan/cscan_path.h"
#include "cscan/join_filter.h"
#include "cscan/key_range_join.h"
#include "storage/integer_order.h"

bool		colstore_enable_key_range_join = true;

/* Inner joins keeping less of their larger side are left to hash joins. */
#define KEY_RANGE_MIN_KEPT_SHARE	0.5

/* Ranges per participant. */
#define RANGES_PER_PARTICIPANT	4

/* Passing a child's row on costs this share of cpu_tuple_cost (as Append). */
#define PASS_ON_COST_FACTOR		0.5

static set_join_pathlist_hook_type prev_set_join_pathlist_hook = NULL;

static Plan *KeyRangeJoin_PlanCustomPath(PlannerInfo *root, RelOptInfo *rel,
										 CustomPath *best_path, List *tlist,
										 List *clauses, List *custom_plans);

static const CustomPathMethods KeyRangeJoinPathMethods = {
	.CustomName = "ColstoreKeyRangeJoin",
	.PlanCustomPath = KeyRangeJoin_PlanCustomPath,
};

/* The serial ordered ColstoreScan path of rel on column attno, or NULL. */
static Path *
OrderedScanPath(RelOptInfo *rel, AttrNumber attno)
{
	ListCell   *lc;

	foreach(lc, rel->pathlist)
	{
		Path	   *path = (Path *) lfirst(lc);

		if (IsColstoreScanPath(path) && !path->parallel_aware &&
			path->param_info == NULL && path->pathkeys != NIL &&
			ColstoreScanPathOrderColumn(path) == attno)
			return path;
	}
	return NULL;
}

/* The Var of relation relid that expr is, or NULL. */
static Var *
PlainColumn(Node *expr, Index relid)
{
	Var		   *var = (Var *) expr;

	if (IsA(var, Var) && var->varno == relid && var->varattno > 0 &&
		var->varlevelsup == 0)
		return var;
	return NULL;
}

/*
 * The split points of a key-range join on the outer column var: up to
 * nranges - 1 distinct values of its histogram, evenly spaced along it,
 * above the type's least value (int8 Consts, ascending).  NIL without a
 * histogram of at least three values.
 */
static List *
KeySplitPoints(PlannerInfo *root, Var *var, int nranges)
{
	VariableStatData vardata;
	AttStatsSlot sslot;
	List	   *splits = NIL;
	int64		least;
	int64		greatest;

	SignedIntegerBounds(var->vartype, &least, &greatest);
	examine_variable(root, (Node *) var, 0, &vardata);
	if (HeapTupleIsValid(vardata.statsTuple) &&
		get_attstatsslot(&sslot, vardata.statsTuple, STATISTIC_KIND_HISTOGRAM,
						 InvalidOid, ATTSTATSSLOT_VALUES))
	{
		if (sslot.nvalues >= 3)
		{
			int64		last = least;
			int			k;

			for (k = 1; k < nranges; k++)
			{
				int			i = (int) ((int64) k * (sslot.nvalues - 1) / nranges);
				int64		split = SignedIntegerDatum(var->vartype, sslot.values[i]);

				if (split <= last)
					continue;
				splits = lappend(splits, makeConst(INT8OID, -1, InvalidOid, sizeof(int64),
												   Int64GetDatum(split), false,
												   FLOAT8PASSBYVAL));
				last = split;
			}
		}
		free_attstatsslot(&sslot);
	}
	ReleaseVariableStats(vardata);
	return splits;
}

/* "alias.column" of var, for EXPLAIN. */
static char *
KeyLabel(PlannerInfo *root, Var *var)
{
	RangeTblEntry *rte = planner_rt_fetch(var->varno, root);

	return psprintf("%s.%s", rte->eref->aliasname,
					get_attname(rte->relid, var->varattno, false));
}

/*
 * What one range costs beyond its rows: both scans begin again, reading
 * the table's heap pages (which pruning never skips) and testing every
 * chunk against the range.
 */
static Cost
PerRangeCost(PlannerInfo *root, RelOptInfo *rel)
{
	Oid			relid = planner_rt_fetch(rel->relid, root)->relid;
	BlockNumber heap_pages;
	ColstoreOptions opts;

	if (!ColstoreTableOptions(relid, &opts))
		return 0;
	return ColstoreHeapPagesCost(relid, &heap_pages) +
		cpu_operator_cost * ceil(rel->tuples / opts.chunk_size);
}

/*
 * The merge clause of the join that a key-range join can key on, given the
 * outer path's order: the first merge clause for that order, if it equates
 * the outer path's order column with a column of the inner relation of the
 * same type, one ranges can be cut on, in the type's default btree
 * operator family.  Sets *outer_var and *inner_var.
 */
static RestrictInfo *
KeyMergeClause(PlannerInfo *root, Path *outer_path, RelOptInfo *innerrel,
			   JoinPathExtraData *extra, Var **outer_var, Var **inner_var)
{
	List	   *mergeclauses;
	RestrictInfo *rinfo;
	Node	   *outer_arg;
	Node	   *inner_arg;
	TypeCacheEntry *tce;
	Oid			ge_opno;
	Oid			le_opno;

	mergeclauses = find_mergeclauses_for_outer_pathkeys(root, outer_path->pathkeys,
														extra->mergeclause_list);
	if (mergeclauses == NIL)
		return NULL;
	rinfo = linitial_node(RestrictInfo, mergeclauses);
	outer_arg = rinfo->outer_is_left ? get_leftop(rinfo->clause) : get_rightop(rinfo->clause);
	inner_arg = rinfo->outer_is_left ? get_rightop(rinfo->clause) : get_leftop(rinfo->clause);
	*outer_var = PlainColumn(outer_arg, outer_path->parent->relid);
	*inner_var = PlainColumn(inner_arg, innerrel->relid);
	if (*outer_var == NULL || *inner_var == NULL ||
		(*outer_var)->varattno != ColstoreScanPathOrderColumn(outer_path) ||
		(*outer_var)->vartype != (*inner_var)->vartype ||
		!KeyRangeComparisons((*outer_var)->vartype, &ge_opno, &le_opno))
		return NULL;
	tce = lookup_type_cache((*outer_var)->vartype, TYPECACHE_BTREE_OPFAMILY);
	if (!list_member_oid(rinfo->mergeopfamilies, tce->btree_opf))
		return NULL;
	return rinfo;
}

/*
 * The partial path: child is the serial merge join of the range-restricted
 * scans, splits the ranges' split points; costs as the file header says.
 */
static CustomPath *
MakeKeyRangeJoinPath(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
					 RelOptInfo *innerrel, MergePath *child, int workers,
					 List *private)
{
	CustomPath *cpath = makeNode(CustomPath);
	double		divisor = ColstoreParallelDivisor(workers);
	int			nranges = list_length((List *) list_nth(private, KEY_RANGE_SPLITS)) + 1;
	Path	   *cp = &child->jpath.path;

	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = joinrel;
	cpath->path.pathtarget = joinrel->reltarget;
	cpath->path.param_info = NULL;
	cpath->path.parallel_aware = true;
	cpath->path.parallel_safe = joinrel->consider_parallel && cp->parallel_safe;
	cpath->path.parallel_workers = workers;

	/*
	 * ranges are taken in ascending order: each participant's rows are
	 * ordered
	 */
	cpath->path.pathkeys = cp->pathkeys;
	cpath->path.rows = clamp_row_est(cp->rows / divisor);
	InheritDisabledNodes(&cpath->path, cp);
	cpath->path.startup_cost = cp->startup_cost;
	cpath->path.total_cost = cp->startup_cost +
		(cp->total_cost - cp->startup_cost +
		 nranges * (PerRangeCost(root, outerrel) + PerRangeCost(root, innerrel))) / divisor +
		cpu_tuple_cost * PASS_ON_COST_FACTOR * cpath->path.rows;
	cpath->flags = CUSTOMPATH_SUPPORT_PROJECTION;
	cpath->custom_paths = list_make1(child);
	cpath->custom_private = private;
	cpath->methods = &KeyRangeJoinPathMethods;
	return cpath;
}

/*
 * Try the key-range join of outerrel and innerrel on the order of
 * outer_path; add it as a partial path of joinrel if it applies.
 */
static void
TryKeyRangeJoin(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
				RelOptInfo *innerrel, Path *outer_path, JoinType jointype,
				JoinPathExtraData *extra)
{
	Var		   *outer_var;
	Var		   *inner_var;
	RestrictInfo *rinfo;
	Path	   *inner_path;
	List	   *mergeclauses;
	List	   *splits;
	int			workers;
	Param	   *lo;
	Param	   *hi;
	JoinCostWorkspace workspace;
	MergePath  *child;
	List	   *private;

	rinfo = KeyMergeClause(root, outer_path, innerrel, extra, &outer_var, &inner_var);
	if (rinfo == NULL)
		return;
	inner_path = OrderedScanPath(innerrel, inner_var->varattno);
	mergeclauses = list_make1(rinfo);
	if (inner_path == NULL ||
		!pathkeys_contained_in(make_inner_pathkeys_for_merge(root, mergeclauses,
															 outer_path->pathkeys),
							   inner_path->pathkeys))
		return;
	workers = compute_parallel_worker(outerrel, outerrel->pages, -1,
									  max_parallel_workers_per_gather);
	if (workers <= 0)
		return;
	splits = KeySplitPoints(root, outer_var, RANGES_PER_PARTICIPANT * (workers + 1));
	if (splits == NIL)
		return;

	/* the parameters the join sets and the scans under it read */
	lo = generate_new_exec_param(root, outer_var->vartype, -1, InvalidOid);
	hi = generate_new_exec_param(root, outer_var->vartype, -1, InvalidOid);
	outer_path = ColstoreScanPathInKeyRange(outer_path, outer_var->varattno,
											lo->paramid, hi->paramid);
	inner_path = ColstoreScanPathInKeyRange(inner_path, inner_var->varattno,
											lo->paramid, hi->paramid);
	InitialCostMergejoin(root, &workspace, jointype, mergeclauses,
						 outer_path, inner_path, NIL, NIL, extra);
	child = CreateMergejoinPath(root, joinrel, jointype, &workspace, extra,
								outer_path, inner_path, extra->restrictlist,
								outer_path->pathkeys, NULL, mergeclauses, NIL, NIL);
	private = list_make5(makeInteger(lo->paramid), makeInteger(hi->paramid),
						 makeInteger((int) outer_var->vartype), splits,
						 makeString(KeyLabel(root, outer_var)));
	add_partial_path(joinrel, (Path *) MakeKeyRangeJoinPath(root, joinrel, outerrel,
															innerrel, child, workers,
															private));
}

/*
 * ColstoreSetJoinPathlist
 *		set_join_pathlist_hook: offer the key-range join where it applies
 *		(the file header lists when), keyed on the first ordered ColstoreScan
 *		path of the outer relation that one can be built on.
 */
static void
ColstoreSetJoinPathlist(PlannerInfo *root, RelOptInfo *joinrel,
						RelOptInfo *outerrel, RelOptInfo *innerrel,
						JoinType jointype, JoinPathExtraData *extra)
{
	ListCell   *lc;
	int			before;

	if (prev_set_join_pathlist_hook)
		prev_set_join_pathlist_hook(root, joinrel, outerrel, innerrel, jointype, extra);
	if (!colstore_enable_custom_scan || !colstore_enable_key_range_join ||
		(jointype != JOIN_INNER && jointype != JOIN_SEMI) || !joinrel->consider_parallel ||
		max_parallel_workers_per_gather <= 0 || extra->mergeclause_list == NIL ||
		outerrel->reloptkind != RELOPT_BASEREL ||
		innerrel->reloptkind != RELOPT_BASEREL ||
		root->parse->commandType != CMD_SELECT || root->rowMarks != NIL)
		return;

	/*
	 * An inner join that keeps under half of its larger side: the parallel
	 * hash join, its probe side thinned out by the hash join filter
	 * (join_filter.c), does better (TPC-H Q3, Q5, Q10, Q12: 1.1 to 1.7 times
	 * faster than the key-range join).
	 */
	if (jointype == JOIN_INNER && colstore_enable_join_filter && enable_hashjoin &&
		joinrel->rows < KEY_RANGE_MIN_KEPT_SHARE * Max(outerrel->rows, innerrel->rows))
		return;
	before = list_length(joinrel->partial_pathlist);
	foreach(lc, outerrel->pathlist)
	{
		Path	   *path = (Path *) lfirst(lc);

		if (!IsColstoreScanPath(path) || path->parallel_aware ||
			path->param_info != NULL || path->pathkeys == NIL)
			continue;
		TryKeyRangeJoin(root, joinrel, outerrel, innerrel, path, jointype, extra);
		if (list_length(joinrel->partial_pathlist) != before)
			break;
	}
}

/*
 * KeyRangeJoin_PlanCustomPath
 *		The CustomScan node: no relation of its own (scanrelid 0), the merge
 *		join as its one child, whose output is the node's scan tuple
 *		(custom_scan_tlist); setrefs points the target list at it.
 */
static Plan *
KeyRangeJoin_PlanCustomPath(PlannerInfo *root, RelOptInfo *rel,
							CustomPath *best_path, List *tlist, List *clauses,
							List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	Plan	   *child = linitial(custom_plans);

	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = extract_actual_clauses(clauses, false);
	cscan->scan.scanrelid = 0;
	cscan->flags = best_path->flags;
	cscan->custom_plans = custom_plans;
	cscan->custom_exprs = NIL;
	cscan->custom_private = best_path->custom_private;
	cscan->custom_scan_tlist = copyObject(child->targetlist);
	cscan->methods = KeyRangeJoinPlanMethods();
	return &cscan->scan.plan;
}

/* Install the planner hook; called from _PG_init. */
void
KeyRangeJoinPathInit(void)
{
	prev_set_join_pathlist_hook = set_join_pathlist_hook;
	set_join_pathlist_hook = ColstoreSetJoinPathlist;
}

/* Define colstore.enable_key_range_join (from _PG_init). */
void
KeyRangeJoinPathDefineSettings(void)
{
	DefineCustomBoolVariable("colstore.enable_key_range_join",
							 "Enables the planner's use of the colstore key-range join (a parallel merge join of two colstore tables split into ranges of a key both hold in order).",
							 NULL,
							 &colstore_enable_key_range_join,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
}
