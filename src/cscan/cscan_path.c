/*-------------------------------------------------------------------------
 *
 * cscan_path.c
 *	  Planner side of the colstore custom scan: when to offer it, what it
 *	  costs, and the plan node it becomes.
 *
 * A ColstoreScan is a sequential scan of a colstore table that decodes
 * only the columns the plan reads, skips chunks whose min/max or NULL
 * count refute the quals (chunk_pruning.c), and decides the quals
 * chunk_filter.c evaluates exactly a chunk at a time (the batch filter), so
 * rows they reject never become tuples.  It is offered, beside the plain
 * and parallel sequential scans, for a colstore table with more rows than
 * one chunk holds and restriction clauses that either let pruning skip a
 * good share of the table or can be decided in batches, or that is joined
 * with other relations (a hash join above it may then filter its rows by
 * the keys of its hash table, join_filter.c).  The expected
 * share read is estimated per column as
 *
 *		read = 1 - (1 - selectivity) * correlation^2
 *
 * (pruning skips what the quals reject only to the degree the column's
 * values are ordered on disk; correlation is ANALYZE's, as btree costing
 * uses it), and the best column counts; without statistics no pruning is
 * assumed.  Its cost is the sequential scan's cost times that share (at
 * least one chunk), plus reading every row group header and testing every
 * chunk, where the batch filter's clauses cost a tenth of an operator per
 * row read (measured like ColstoreAgg's folding), the other columns the
 * same per row of the chunks expected to hold a row the filter passes, and
 * only the rows it passes pay the tuple cost and the other quals' (plus
 * disable_cost under enable_seqscan = off, as for any sequential scan); a
 * parallel-aware partial path is offered too, with the worker count
 * PostgreSQL's own rule gives a sequential scan of the table, costing each
 * worker's start-up (ColstoreWorkerStartupCost).
 *
 * For each column the table holds in ascending order whose order the query
 * can use (ordered_path.c), ordered paths are offered too, with that
 * column's pathkeys, whatever the clauses; the serial one supports mark
 * and restore.  Costs count the file's real pages, not the pseudo-blocks of
 * the TID space that rel->pages holds.
 *
 * Plans that read system columns other than ctid and tableoid are left to
 * the sequential scan (the custom scan's slot is a virtual one), and plans
 * that read ctid get no ordered path.  The GUC colstore.enable_custom_scan
 * turns the paths off.
 *
 * IDENTIFICATION
 *	  src/cscan/cscan_path.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include <math.h>

#include "access/sysattr.h"
#include "access/table.h"
#include "catalog/pg_class.h"
#include "catalog/pg_statistic.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/plancat.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "storage/smgr.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/spccache.h"

#include "cscan/chunk_pruning.h"
#include "cscan/cscan_exec.h"
#include "cscan/cscan_path.h"
#include "cscan/ordered_path.h"
#include "storage/directory.h"
#include "storage/table_options.h"
#include "tableam/am_handler.h"

bool		colstore_enable_custom_scan = true;

/* Without a batch filter, offer the path only if pruning skips this share. */
#define MIN_EXPECTED_SKIP	0.1

/* What the costs of a table's ColstoreScan paths depend on. */
typedef struct ScanInputs
{
	ColstoreOptions opts;		/* chunk and row group sizes */
	BlockNumber pages;			/* the file's pages (rel->pages counts the
								 * pseudo-blocks of the TID space) */
	BlockNumber heap_pages;		/* ... of which heap pages */
	Cost		heap_cost;		/* reading those (ColstoreHeapPagesCost) */
	double		share_read;		/* expected after pruning */
	int			npruning;		/* clauses that can prune */
	List	   *filter;			/* clauses the batch filter decides */
	double		filter_selectivity;
} ScanInputs;

static set_rel_pathlist_hook_type prev_set_rel_pathlist_hook = NULL;

static Plan *ColstoreScan_PlanCustomPath(PlannerInfo *root, RelOptInfo *rel,
										 CustomPath *best_path, List *tlist,
										 List *clauses, List *custom_plans);

static const CustomPathMethods ColstoreScanPathMethods = {
	.CustomName = "ColstoreScan",
	.PlanCustomPath = ColstoreScan_PlanCustomPath,
};

/* May the clause run ahead of the other quals (pruning, batch filter)? */
static bool
ClauseMayRunEarly(RestrictInfo *rinfo)
{
	if (rinfo->pseudoconstant)
		return false;
	/* not ahead of a security qual unless leakproof */
	return rinfo->security_level == 0 || rinfo->leakproof;
}

/* May clause prune chunks of relation relid, and may it run early? */
static Var *
UsableClauseColumn(RestrictInfo *rinfo, Index relid)
{
	if (!ClauseMayRunEarly(rinfo))
		return NULL;
	return PruningClauseColumn(rinfo->clause, relid);
}

/* Does the batch filter decide the clause, and may it run early? */
static bool
BatchFilterClause(RestrictInfo *rinfo, Index relid)
{
	return ClauseMayRunEarly(rinfo) && PruningClauseIsExact(rinfo->clause, relid);
}

/* ANALYZE's correlation of column var with the physical order, or 0. */
static double
ColumnCorrelation(PlannerInfo *root, Var *var)
{
	VariableStatData vardata;
	AttStatsSlot sslot;
	double		correlation = 0;

	examine_variable(root, (Node *) var, 0, &vardata);
	if (HeapTupleIsValid(vardata.statsTuple) &&
		get_attstatsslot(&sslot, vardata.statsTuple, STATISTIC_KIND_CORRELATION,
						 InvalidOid, ATTSTATSSLOT_NUMBERS))
	{
		if (sslot.nnumbers > 0)
			correlation = sslot.numbers[0];
		free_attstatsslot(&sslot);
	}
	ReleaseVariableStats(vardata);
	return correlation;
}

/*
 * ColstoreParallelDivisor
 *		The share of a parallel path's per-row work each participant does,
 *		as PostgreSQL's costsize.c counts it: every worker a whole one, the
 *		leader less the more workers there are.
 */
double
ColstoreParallelDivisor(int workers)
{
	double		divisor = workers;
	double		leader = 1.0 - 0.3 * workers;

	if (parallel_leader_participation && leader > 0)
		divisor += leader;
	return divisor;
}

/*
 * ColstoreWorkerStartupCost
 *		What starting a parallel path's workers costs beyond
 *		parallel_setup_cost, which PostgreSQL charges once per Gather for
 *		the shared memory segment and launching them.  Each worker is a new
 *		process: it starts a backend, builds its catalog and relation
 *		caches, reads the plan, takes page faults on the shared buffers and
 *		the memory it touches first, and exits (colstore's own part, the
 *		directory and the cached headers, is small):
 *		COLSTORE_WORKER_STARTUP_SHARE of parallel_setup_cost per worker
 *		(measured, see cscan_path.h).  Heap's per-row costs dwarf it; a
 *		colstore scan of a few columns costs a tenth of heap's per row, so
 *		on tables of a few million rows the workers' start-up can cost more
 *		than sharing the rows saves.  Scaled by parallel_setup_cost, so
 *		setting that to 0 (as tests do to force parallel plans) removes it.
 */
Cost
ColstoreWorkerStartupCost(int workers)
{
	return workers * parallel_setup_cost * COLSTORE_WORKER_STARTUP_SHARE;
}

/*
 * ColstoreScanShareRead
 *		Expected share of the table a pruning scan reads: the best over columns
 * of 1 - (1 - selectivity of the column's pruning clauses) * correlation^2.
 * *npruning is set to the number of clauses that can prune.
 */
double
ColstoreScanShareRead(PlannerInfo *root, RelOptInfo *rel, int *npruning)
{
	Bitmapset  *done = NULL;
	double		best_skip = 0;
	ListCell   *lc;

	*npruning = 0;
	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		Var		   *var = UsableClauseColumn(rinfo, rel->relid);
		List	   *column_clauses = NIL;
		ListCell   *lc2;
		double		selectivity;
		double		correlation;

		if (var == NULL)
			continue;
		(*npruning)++;
		if (bms_is_member(var->varattno, done))
			continue;
		done = bms_add_member(done, var->varattno);
		/* all pruning clauses of this column together (ranges combine) */
		foreach(lc2, rel->baserestrictinfo)
		{
			RestrictInfo *other = lfirst_node(RestrictInfo, lc2);
			Var		   *ovar = UsableClauseColumn(other, rel->relid);

			if (ovar != NULL && ovar->varattno == var->varattno &&
				!IsA(other->clause, NullTest))
				column_clauses = lappend(column_clauses, other);
		}
		if (column_clauses == NIL)
			continue;
		selectivity = clauselist_selectivity(root, column_clauses, 0,
											 JOIN_INNER, NULL);
		correlation = ColumnCorrelation(root, var);
		best_skip = Max(best_skip, (1.0 - selectivity) * correlation * correlation);
	}
	return 1.0 - best_skip;
}

/* The restriction clauses the batch filter decides (BatchFilterClause). */
static List *
BatchFilterClauses(RelOptInfo *rel)
{
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);

		if (BatchFilterClause(rinfo, rel->relid))
			result = lappend(result, rinfo);
	}
	return result;
}

/*
 * ColstoreChunksWithPassingRows
 *		The share of the chunks read expected to hold at least one of the
 *		rows_passing rows that pass a scan's conditions, out of rows_read,
 *		when those rows are spread evenly: the chunks whose other columns
 *		are decoded.
 */
double
ColstoreChunksWithPassingRows(double rows_passing, double rows_read, int chunk_size)
{
	if (rows_read <= 0)
		return 1.0;
	return Min(1.0, rows_passing / rows_read * chunk_size);
}

/*
 * Does the scan have to produce system columns other than tableoid, and
 * ctid if allow_ctid (in its output or its quals)?
 */
bool
ColstoreRelReadsSystemColumns(RelOptInfo *rel, bool allow_ctid)
{
	Bitmapset  *attrs = NULL;
	ListCell   *lc;
	int			attno;

	pull_varattnos((Node *) rel->reltarget->exprs, rel->relid, &attrs);
	foreach(lc, rel->baserestrictinfo)
		pull_varattnos((Node *) lfirst_node(RestrictInfo, lc)->clause,
					   rel->relid, &attrs);
	attno = -1;
	while ((attno = bms_next_member(attrs, attno)) >= 0)
	{
		AttrNumber	real = attno + FirstLowInvalidHeapAttributeNumber;

		if (real < 0 && (real != SelfItemPointerAttributeNumber || !allow_ctid) &&
			real != TableOidAttributeNumber)
			return true;
	}
	return false;
}

/*
 * ColstoreTableOptions
 *		Is relid a colstore table?  If so, *opts receives its options (chunk
 *		and row group sizes shape the costs).
 */
bool
ColstoreTableOptions(Oid relid, ColstoreOptions *opts)
{
	Relation	rel = table_open(relid, NoLock);
	bool		result = RelationIsColstore(rel);

	table_close(rel, NoLock);
	if (result)
		ColstoreGetOptions(relid, opts);
	return result;
}

/*
 * ColstorePhysicalPages
 *		The pages of a colstore table's main fork as they are on disk, which
 *		is what a scan reads (rel->pages counts the pseudo-blocks of the TID
 *		space, as relation_size reports them).
 */
BlockNumber
ColstorePhysicalPages(Oid relid)
{
	Relation	rel = table_open(relid, NoLock);
	BlockNumber pages = smgrnblocks(RelationGetSmgr(rel), MAIN_FORKNUM);

	table_close(rel, NoLock);
	return pages;
}

/*
 * ColstoreHeapPagesCost
 *		What a scan of the table pays for its heap pages (UPDATE's versions,
 *		promoted copies, the rows of small INSERTs: storage/delta_heap.c),
 *		which pruning never skips: every page is read, every tuple on it
 *		checked for visibility and deformed.  *heap_pages is set to their
 *		number.  delta_heap.c invalidates the table's cached plans each time
 *		that number doubles, so plans made while it was small do not stay.
 */
Cost
ColstoreHeapPagesCost(Oid relid, BlockNumber *heap_pages)
{
	Relation	rel = table_open(relid, NoLock);
	int32		width = get_relation_data_width(relid, NULL);
	double		per_page = Min((double) MaxHeapTuplesPerPage,
							   BLCKSZ / (double) (MAXALIGN(SizeofHeapTupleHeader) + width +
												  sizeof(ItemIdData)));

	*heap_pages = DirectoryGet(rel)->ndeltas;
	table_close(rel, NoLock);
	return *heap_pages * (seq_page_cost + (cpu_tuple_cost + cpu_operator_cost) * per_page);
}

/*
 * The sequential scan's cost model, over the file's real pages, scaled by
 * the share of the table read, spread over workers (each worker's start-up
 * added, ColstoreWorkerStartupCost).  The share is at least
 * one chunk's worth (a chunk is decoded whole), and every row group header
 * is read and every chunk tested against the pruning clauses, so a pruning
 * scan never looks cheaper than an index scan that reads a few rows.  The
 * batch filter's clauses (filter) are evaluated on every row read, and the
 * other columns the scan returns decoded in the chunks where a row passes;
 * tuples are formed and the other quals evaluated only for the share
 * filter_selectivity the filter passes.
 */
static void
CostColstoreScan(PlannerInfo *root, RelOptInfo *rel, Path *path,
				 const ScanInputs *in, int workers)
{
	const ColstoreOptions *opts = &in->opts;
	double		share_read = in->share_read;
	double		filter_selectivity = in->filter_selectivity;
	int			nfilter = list_length(in->filter);
	double		spc_seq_page_cost;
	QualCost	qual_cost;
	double		nchunks = ceil(rel->tuples / opts->chunk_size);
	double		ngroups = ceil(rel->tuples / opts->row_group_size);
	double		rows_read;
	double		chunks_used = 1.0;
	Cost		cpu_run_cost;
	Cost		disk_run_cost;

	share_read = Max(share_read, Min(1.0, 1.0 / Max(nchunks, 1.0)));
	rows_read = rel->tuples * share_read;
	if (nfilter > 0)
		chunks_used = ColstoreChunksWithPassingRows(rel->tuples * filter_selectivity,
													rows_read, opts->chunk_size);
	get_tablespace_page_costs(rel->reltablespace, NULL, &spc_seq_page_cost);
	/* the quals ExecScan evaluates: those the batch filter does not decide */
	cost_qual_eval(&qual_cost, list_difference_ptr(rel->baserestrictinfo, in->filter), root);
	/* heap pages are read whole, whatever the pruning */
	disk_run_cost = spc_seq_page_cost *
		((in->pages - Min(in->pages, in->heap_pages)) * share_read + ngroups) + in->heap_cost;
	cpu_run_cost = (cpu_tuple_cost + qual_cost.per_tuple) * rel->tuples *
		Min(share_read, filter_selectivity) +
		cpu_operator_cost * COLSTORE_PER_VALUE_COST_FACTOR * rows_read *
		(nfilter + chunks_used * list_length(rel->reltarget->exprs)) +
		cpu_operator_cost * nchunks * in->npruning;
	path->rows = rel->rows;
	if (workers > 0)
	{
		double		divisor = ColstoreParallelDivisor(workers);

		cpu_run_cost /= divisor;
		path->rows = clamp_row_est(rel->rows / divisor);
	}
	/* a sequential read of the table: SET enable_seqscan = off applies */
	path->startup_cost = 0;
	DisableUnlessSeqScansEnabled(path);
	path->startup_cost += qual_cost.startup + path->pathtarget->cost.startup +
		ColstoreWorkerStartupCost(workers);
	path->total_cost = path->startup_cost + cpu_run_cost + disk_run_cost +
		path->pathtarget->cost.per_tuple * path->rows;
}

/*
 * A ColstoreScan path; with pathkeys, an ordered one whose rows come out in
 * ascending order of column order_attno (ordered_path.c), which supports
 * mark and restore unless it is partial.
 */
static CustomPath *
MakeColstoreScanPath(PlannerInfo *root, RelOptInfo *rel, const ScanInputs *in,
					 int workers, List *pathkeys, AttrNumber order_attno)
{
	CustomPath *cpath = makeNode(CustomPath);

	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = rel;
	cpath->path.pathtarget = rel->reltarget;
	cpath->path.param_info = NULL;
	cpath->path.parallel_aware = (workers > 0);
	cpath->path.parallel_safe = rel->consider_parallel;
	cpath->path.parallel_workers = workers;
	cpath->path.pathkeys = pathkeys;
	/* the node computes any target list (ExecScan projects) */
	cpath->flags = CUSTOMPATH_SUPPORT_PROJECTION;
	if (pathkeys != NIL && workers == 0)
		cpath->flags |= CUSTOMPATH_SUPPORT_MARK_RESTORE;
	cpath->custom_private = list_make2(makeInteger(order_attno), NIL);
	cpath->methods = &ColstoreScanPathMethods;
	CostColstoreScan(root, rel, &cpath->path, in, workers);
	/* the run-time check compares every chunk's min with the last max */
	if (pathkeys != NIL)
		cpath->path.total_cost += cpu_operator_cost *
			ceil(rel->tuples / in->opts.chunk_size);
	return cpath;
}

/* Add a serial ColstoreScan path and, where parallel plans may be, a partial one. */
static void
AddColstoreScanPaths(PlannerInfo *root, RelOptInfo *rel, const ScanInputs *in,
					 List *pathkeys, AttrNumber order_attno)
{
	add_path(rel, (Path *) MakeColstoreScanPath(root, rel, in, 0, pathkeys,
												order_attno));
	if (rel->consider_parallel)
	{
		int			workers = compute_parallel_worker(rel, rel->pages, -1,
													  max_parallel_workers_per_gather);

		if (workers > 0)
			add_partial_path(rel, (Path *) MakeColstoreScanPath(root, rel, in, workers,
																pathkeys, order_attno));
	}
}

/*
 * ColstoreSetRelPathlist
 *		set_rel_pathlist_hook: add ColstoreScan paths (serial, and partial
 *		for parallel plans) to a plain colstore table or partition whose
 *		restriction clauses are expected to let pruning skip at least
 *		MIN_EXPECTED_SKIP of it, or include clauses the batch filter
 *		decides; and ordered ones for each column the table holds in
 *		ascending order whose order the query can use (ordered_path.c; not
 *		when the plan reads ctid: UPDATE/DELETE targets and row marks),
 *		with the unordered one beside them for plans that need no order.  A partial ordered path's rows are in order
 *		per participant, which Gather Merge or a parallel merge join needs.
 *		add_path keeps each only where it is cheaper or better ordered.
 *		Inheritance parents (their scan would miss the children), relations
 *		with lateral references (their paths must be parameterized) and
 *		sampled scans are left alone.
 */
static void
ColstoreSetRelPathlist(PlannerInfo *root, RelOptInfo *rel, Index rti,
					   RangeTblEntry *rte)
{
	ScanInputs	in;
	List	   *ordered = NIL;
	List	   *order_attnos = NIL;
	ListCell   *lc1;
	ListCell   *lc2;

	if (prev_set_rel_pathlist_hook)
		prev_set_rel_pathlist_hook(root, rel, rti, rte);
	if (!colstore_enable_custom_scan ||
		!IS_SIMPLE_REL(rel) ||
		IS_DUMMY_REL(rel) ||
		rte->rtekind != RTE_RELATION ||
		rte->relkind != RELKIND_RELATION ||
		rte->inh ||
		rte->tablesample != NULL ||
		rel->lateral_relids != NULL)
		return;
	if (!ColstoreTableOptions(rte->relid, &in.opts) ||
		rel->tuples <= in.opts.chunk_size ||
		ColstoreRelReadsSystemColumns(rel, true))
		return;
	if (!ColstoreRelReadsSystemColumns(rel, false))
		ordered = ColstoreOrderedScanKeys(root, rel, rte->relid, &order_attnos);
	in.share_read = ColstoreScanShareRead(root, rel, &in.npruning);
	in.filter = BatchFilterClauses(rel);
	/* in a join, a hash join above may filter the scan (join_filter.c) */
	if (ordered == NIL && in.filter == NIL &&
		(in.npruning == 0 || in.share_read > 1.0 - MIN_EXPECTED_SKIP) &&
		bms_membership(root->all_baserels) == BMS_SINGLETON)
		return;
	in.pages = ColstorePhysicalPages(rte->relid);
	in.heap_cost = ColstoreHeapPagesCost(rte->relid, &in.heap_pages);
	in.filter_selectivity = 1.0;
	if (in.filter != NIL)
		in.filter_selectivity =
			clauselist_selectivity(root, extract_actual_clauses(in.filter, false),
								   rel->relid, JOIN_INNER, NULL);
	/* the unordered scan too: cheaper for plans that need no order */
	AddColstoreScanPaths(root, rel, &in, NIL, InvalidAttrNumber);
	forboth(lc1, ordered, lc2, order_attnos)
		AddColstoreScanPaths(root, rel, &in, (List *) lfirst(lc1),
							 (AttrNumber) lfirst_int(lc2));
}

/*
 * ColstoreScan_PlanCustomPath
 *		The CustomScan node: copies of the clauses that can prune go to
 *		custom_exprs, where setrefs gives their Vars the scan's final range
 *		table index; custom_private (ColstoreScanPlanPrivate) lists the
 *		positions there of those the batch filter decides and names the
 *		column an ordered path promises order of; the other clauses stay
 *		quals, checked on each row the filter passes.  A path made by
 *		ColstoreScanPathInKeyRange passes its key range on to the executor
 *		(cscan_exec.h).
 */
static Plan *
ColstoreScan_PlanCustomPath(PlannerInfo *root, RelOptInfo *rel,
							CustomPath *best_path, List *tlist, List *clauses,
							List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	AttrNumber	order_attno = (AttrNumber) intVal(linitial(best_path->custom_private));
	List	   *key_range = (List *) lsecond(best_path->custom_private);
	List	   *pruning = NIL;
	List	   *filter_positions = NIL;
	List	   *quals = NIL;
	ListCell   *lc;

	foreach(lc, clauses)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		bool		filters = BatchFilterClause(rinfo, rel->relid);

		if (filters)
			filter_positions = lappend_int(filter_positions, list_length(pruning));
		else
			quals = lappend(quals, rinfo);
		/* an exact AND or OR prunes too (ChunkPrunerRefutes) */
		if (filters || UsableClauseColumn(rinfo, rel->relid) != NULL)
			pruning = lappend(pruning, copyObject(rinfo->clause));
	}
	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = extract_actual_clauses(quals, false);
	cscan->scan.scanrelid = rel->relid;
	cscan->flags = best_path->flags;
	cscan->custom_exprs = pruning;
	cscan->custom_private = ColstoreScanPlanPrivate(filter_positions, order_attno,
													key_range);
	cscan->custom_scan_tlist = NIL;
	cscan->methods = ColstoreScanPlanMethods();
	return &cscan->scan.plan;
}

/* Is path a ColstoreScan path? */
bool
IsColstoreScanPath(Path *path)
{
	return IsA(path, CustomPath) &&
		((CustomPath *) path)->methods == &ColstoreScanPathMethods;
}

/* The column an ordered ColstoreScan path's rows ascend in, or 0. */
AttrNumber
ColstoreScanPathOrderColumn(Path *path)
{
	Assert(IsColstoreScanPath(path));
	return (AttrNumber) intVal(linitial(((CustomPath *) path)->custom_private));
}

/*
 * ColstoreScanPathInKeyRange
 *		A copy of a serial ColstoreScan path whose scan returns only the
 *		rows whose column attno lies between the values of the executor
 *		parameters lo_param and hi_param, inclusive, which a key-range join
 *		sets (key_range_exec.c): the plan names them, and the executor adds
 *		the two comparisons to the scan's pruning and batch filter
 *		(cscan_exec.h).  The copy's costs are the original's, the whole
 *		table's; the caller divides them.
 */
Path *
ColstoreScanPathInKeyRange(Path *path, AttrNumber attno, int lo_param, int hi_param)
{
	CustomPath *copy = palloc(sizeof(CustomPath));

	Assert(IsColstoreScanPath(path) && !path->parallel_aware);
	memcpy(copy, path, sizeof(CustomPath));
	copy->custom_private = list_make2(linitial(((CustomPath *) path)->custom_private),
									  list_make3(makeInteger(attno), makeInteger(lo_param),
												 makeInteger(hi_param)));
	return &copy->path;
}

/* Install the planner hook; called from _PG_init. */
void
ColstoreScanPathInit(void)
{
	prev_set_rel_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = ColstoreSetRelPathlist;
}

/* Define colstore.enable_custom_scan (from _PG_init). */
void
ColstoreScanPathDefineSettings(void)
{
	DefineCustomBoolVariable("colstore.enable_custom_scan",
							 "Enables the planner's use of the colstore custom scan (column projection, chunk pruning).",
							 NULL,
							 &colstore_enable_custom_scan,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
}
