/*-------------------------------------------------------------------------
 *
 * index_scan_path.c
 *	  Planner side of ColstoreIndexScan: the index scan of a colstore table
 *	  that fetches only the columns its plan reads.
 *
 * PostgreSQL's index scan fetches whole rows through the table AM
 * (index_fetch_tuple), which cannot know which columns the plan needs: for
 * a colstore table that is a chunk reader per column, and a join probing a
 * wide table (TPC-H's lineitem, 16 columns) for a few of them pays for all
 * sixteen, the text columns included, and overflows the backend's chunk
 * cache so that no probe finds its chunks there.  ColstoreIndexScan runs
 * the same index scan and asks RowFetchColumns for the columns its target
 * list, quals and index recheck read.
 *
 * In a SELECT without row marks, each plain IndexScan path of a colstore
 * table that reads fewer than all of its columns (rel->pathlist:
 * parameterized paths, the inner sides of nested loops, included) is
 * replaced in place by a CustomPath with the same rows, costs,
 * parameterization and pathkeys, holding the IndexPath as its one custom
 * path.  Tables of one chunk too, for parameterized paths (the inner side
 * of a nested loop): their chunks stay cached, but a whole row still costs
 * a value per column, the text ones copied (TPC-H Q9's 319,404 probes of
 * the 7-column supplier table for two of them took 60% longer than heap's,
 * and as long as heap's with the columns it reads); a single index scan of
 * such a table keeps PostgreSQL's node (and the plans PostgreSQL's own
 * tests expect).  So plan shapes stay what PostgreSQL chose; only the
 * node that runs the scan changes.  PostgreSQL plans the IndexPath
 * (create_customscan_plan plans custom paths), which gives index quals
 * already fixed to the index's columns and nestloop parameters, the
 * original quals for rechecks, and the residual quals; the CustomScan
 * takes them over (index_scan.h) and drops the IndexScan.  Partial
 * (parallel) index paths, index paths with ORDER BY operators, and indexes
 * that need executor-side array keys are left alone, as are UPDATE,
 * DELETE, MERGE and row-locking plans, whose EvalPlanQual rechecks the
 * plain index scan serves, and scans that read system columns other than
 * ctid and tableoid (the node's scan slot is a virtual one).  The path supports mark/restore and backward
 * scans where the index does.  colstore.enable_custom_index_scan turns it
 * off.
 *
 * IDENTIFICATION
 *	  src/cscan/index_scan_path.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amapi.h"
#include "access/sysattr.h"
#include "access/table.h"
#include "catalog/pg_class.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "utils/guc.h"
#include "utils/rel.h"

#include "cscan/cscan_path.h"
#include "cscan/index_scan.h"
#include "tableam/am_handler.h"

bool		colstore_enable_custom_index_scan = true;

static set_rel_pathlist_hook_type prev_set_rel_pathlist_hook = NULL;

static Plan *ColstoreIndexScan_PlanCustomPath(PlannerInfo *root, RelOptInfo *rel,
											  CustomPath *best_path, List *tlist,
											  List *clauses, List *custom_plans);

static const CustomPathMethods ColstoreIndexScanPathMethods = {
	.CustomName = "ColstoreIndexScan",
	.PlanCustomPath = ColstoreIndexScan_PlanCustomPath,
};

/* Does any of the path's index clauses compare with an array (x = ANY)? */
static bool
HasArrayClause(IndexPath *ipath)
{
	ListCell   *lc;

	foreach(lc, ipath->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);
		ListCell   *lc2;

		foreach(lc2, iclause->indexquals)
			if (IsA(lfirst_node(RestrictInfo, lc2)->clause, ScalarArrayOpExpr))
			return true;
	}
	return false;
}

/*
 * May ipath become a ColstoreIndexScan?  A plain forward or backward index
 * scan whose array comparisons, if any, the index AM handles itself
 * (ExecIndexBuildScanKeys gets no array keys), with no ORDER BY operators,
 * not parallel.
 */
static bool
ConvertibleIndexPath(Path *path)
{
	IndexPath  *ipath;

	if (!IsA(path, IndexPath) || path->pathtype != T_IndexScan || path->parallel_aware)
		return false;
	ipath = (IndexPath *) path;
	if (ipath->indexorderbys != NIL)
		return false;
	return ipath->indexinfo->amsearcharray || !HasArrayClause(ipath);
}

/* The CustomPath that runs ipath as a ColstoreIndexScan. */
static Path *
MakeColstoreIndexScanPath(IndexPath *ipath)
{
	CustomPath *cpath = makeNode(CustomPath);

	cpath->path = ipath->path;
	cpath->path.type = T_CustomPath;
	cpath->path.pathtype = T_CustomScan;
	cpath->flags = CUSTOMPATH_SUPPORT_PROJECTION;
	if (ipath->indexinfo->amcanmarkpos)
		cpath->flags |= CUSTOMPATH_SUPPORT_MARK_RESTORE;
	if (GetIndexAmRoutineByAmId(ipath->indexinfo->relam, false)->amcanbackward)
		cpath->flags |= CUSTOMPATH_SUPPORT_BACKWARD_SCAN;
	cpath->custom_paths = list_make1(ipath);
	cpath->custom_private = NIL;
	cpath->methods = &ColstoreIndexScanPathMethods;
	return &cpath->path;
}

/*
 * Does the scan read fewer than all of the table's columns (its output,
 * the clauses on it, join clauses included, as rel->reltarget lists what
 * joins above need; a whole-row reference reads them all)?
 */
static bool
ReadsSomeColumns(RelOptInfo *rel, Oid relid)
{
	Bitmapset  *attrs = NULL;
	Relation	relation;
	TupleDesc	desc;
	bool		some = false;
	int			i;
	ListCell   *lc;

	pull_varattnos((Node *) rel->reltarget->exprs, rel->relid, &attrs);
	foreach(lc, rel->baserestrictinfo)
		pull_varattnos((Node *) lfirst_node(RestrictInfo, lc)->clause, rel->relid, &attrs);
	if (bms_is_member(InvalidAttrNumber - FirstLowInvalidHeapAttributeNumber, attrs))
		return false;
	relation = table_open(relid, NoLock);
	desc = RelationGetDescr(relation);
	for (i = 0; i < desc->natts && !some; i++)
		some = !TupleDescAttr(desc, i)->attisdropped &&
			!bms_is_member(i + 1 - FirstLowInvalidHeapAttributeNumber, attrs);
	table_close(relation, NoLock);
	return some;
}

/*
 * ColstoreIndexScanSetRelPathlist
 *		set_rel_pathlist_hook: in a plain SELECT, replace the index scan
 *		paths of a colstore table or partition by ColstoreIndexScan paths.
 *		Runs before set_cheapest, so the join search sees only the new
 *		paths.
 */
static void
ColstoreIndexScanSetRelPathlist(PlannerInfo *root, RelOptInfo *rel, Index rti,
								RangeTblEntry *rte)
{
	ColstoreOptions opts;
	ListCell   *lc;

	if (prev_set_rel_pathlist_hook)
		prev_set_rel_pathlist_hook(root, rel, rti, rte);
	if (!colstore_enable_custom_index_scan ||
		rel->indexlist == NIL ||
		root->parse->commandType != CMD_SELECT ||
		root->rowMarks != NIL ||
		!IS_SIMPLE_REL(rel) ||
		rte->rtekind != RTE_RELATION ||
		rte->relkind != RELKIND_RELATION ||
		rte->inh)
		return;
	/* the scan slot is virtual: no xmin, xmax, cmin or cmax */
	if (!ColstoreTableOptions(rte->relid, &opts) ||
		ColstoreRelReadsSystemColumns(rel, true) ||
		!ReadsSomeColumns(rel, rte->relid))
		return;
	foreach(lc, rel->pathlist)
	{
		Path	   *path = (Path *) lfirst(lc);

		/*
		 * a table of one chunk: only the repeated probes of a nested loop's
		 * inner side, where the columns not read cost most (a single scan of
		 * such a table keeps PostgreSQL's IndexScan, and its plan)
		 */
		if (rel->tuples <= opts.chunk_size && path->param_info == NULL)
			continue;
		if (ConvertibleIndexPath(path))
			lfirst(lc) = MakeColstoreIndexScanPath((IndexPath *) path);
	}
}

/*
 * ColstoreIndexScan_PlanCustomPath
 *		The CustomScan node, made of the IndexScan PostgreSQL planned from
 *		the path's IndexPath (custom_plans; under a gating Result when the
 *		rel has pseudoconstant quals, which create_scan_plan adds above this
 *		node too): its index quals, original index quals and residual
 *		quals, already with nestloop parameters, become the node's
 *		(index_scan.h), and the IndexScan itself is dropped.  clauses are
 *		not needed: the IndexScan's quals are those of them the index does
 *		not enforce.
 */
static Plan *
ColstoreIndexScan_PlanCustomPath(PlannerInfo *root, RelOptInfo *rel,
								 CustomPath *best_path, List *tlist,
								 List *clauses, List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	Plan	   *child = (Plan *) linitial(custom_plans);
	IndexScan  *iscan;

	if (IsA(child, Result) && outerPlan(child) != NULL)
		child = outerPlan(child);
	iscan = castNode(IndexScan, child);
	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = iscan->scan.plan.qual;
	cscan->scan.scanrelid = rel->relid;
	cscan->flags = best_path->flags;
	cscan->custom_plans = NIL;
	cscan->custom_exprs = list_make2(iscan->indexqual, iscan->indexqualorig);
	cscan->custom_private = list_make2(makeInteger((int) iscan->indexid),
									   makeInteger((int) iscan->indexorderdir));
	cscan->custom_scan_tlist = NIL;
	cscan->methods = ColstoreIndexScanPlanMethods();
	return &cscan->scan.plan;
}

/* Install the planner hook; called from _PG_init. */
void
ColstoreIndexScanPathInit(void)
{
	prev_set_rel_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = ColstoreIndexScanSetRelPathlist;
}

/* Define colstore.enable_custom_index_scan (from _PG_init). */
void
ColstoreIndexScanPathDefineSettings(void)
{
	DefineCustomBoolVariable("colstore.enable_custom_index_scan",
							 "Enables the planner's use of the colstore index scan (fetching only the columns a plan reads).",
							 NULL,
							 &colstore_enable_custom_index_scan,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
}
