/*-------------------------------------------------------------------------
 *
 * agg_path.c
 *	  Planner side of ColstoreAgg: aggregates computed by the scan itself.
 *
 * For "SELECT <aggregates> FROM t [WHERE <conditions>] [GROUP BY <columns>]
 * [HAVING <conditions>]" on one colstore table, without grouping sets, or
 * DISTINCT or ORDER BY inside the aggregates, a ColstoreAgg node replaces Agg over a
 * scan: it walks the table chunk by chunk and folds decoded column arrays
 * into per-group results, so no row ever becomes a tuple (agg_exec.c,
 * agg_groups.c, agg_fold.c).  It computes count(*), count(column), sum and
 * avg of int2/int4/int8/numeric columns and of numeric arithmetic (+, -, *)
 * over numeric columns and constants, and min/max of int2/int4/int8, date,
 * time, timestamp and timestamptz columns, each with an optional FILTER of
 * conditions it decides exactly.
 * It groups by plain columns of types whose equality is the identity of
 * their datums or bytes (ColstoreAggGroupKeyType), with the type's default
 * equality, or of other types through their grouping operator's hash and
 * equality functions, and by expressions over the table's columns without
 * volatile functions, parameters or subqueries (agg_key_expr.c evaluates
 * them), when the estimated groups fit in hash_mem (it does not spill), or
 * when every key is a column the table holds in order: then a sorted
 * ColstoreAgg, which needs no hash table, is offered too, with the keys'
 * pathkeys (agg_sorted_path.c, agg_sorted.c).
 * The output target may combine those aggregates and grouping keys in any
 * expression (sum(a) / count(*), upper(g)); the node projects it.
 *
 * HAVING clauses are the plan's qual, evaluated by ExecScan on each group
 * row the node returns; their aggregates are computed with the target's.
 *
 * The WHERE clause must consist only of conditions the node decides
 * exactly per row from the decoded arrays (PruningClauseIsExact: strict
 * btree comparisons with a value, IN lists, IS [NOT] NULL), which also
 * prune chunks.  Anything else (other conditions, pseudo-constant gating
 * quals, security barrier quals that are not leakproof, partitioned or
 * inheritance tables, lateral references) leaves the query to PostgreSQL's
 * Agg.
 *
 * As with the ColstoreScan path, the table must hold more rows than one
 * chunk; colstore.enable_custom_agg turns it off, and like any sequential
 * read it is costed out under enable_seqscan = off.  Besides the serial
 * path, Gather over a parallel-aware one is offered (agg_parallel.c); the
 * cost is per decoded value rather than per tuple, which is what it saves.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_path.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/sysattr.h"
#include "access/table.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planner.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/typcache.h"

#include "cscan/agg_classify.h"
#include "cscan/agg_exec.h"
#include "cscan/agg_path.h"
#include "cscan/agg_sorted.h"
#include "cscan/chunk_pruning.h"
#include "cscan/cscan_path.h"
#include "cscan/numeric_expr.h"
#include "cscan/numeric_sum.h"
#include "storage/table_options.h"
#include "tableam/am_handler.h"

bool		colstore_enable_custom_agg = true;
bool		colstore_enable_sorted_agg = true;

static create_upper_paths_hook_type prev_create_upper_paths_hook = NULL;

static Plan *ColstoreAgg_PlanCustomPath(PlannerInfo *root, RelOptInfo *rel,
										CustomPath *best_path, List *tlist,
										List *clauses, List *custom_plans);

static const CustomPathMethods ColstoreAggPathMethods = {
	.CustomName = "ColstoreAgg",
	.PlanCustomPath = ColstoreAgg_PlanCustomPath,
};

/*
 * Can a grouping column of this type be grouped through its grouping
 * operator's hash and equality functions, as HashAggregate groups it?  The
 * executor keeps keys of pass-by-value and varlena types only.
 */
static bool
GroupableByFunctions(Oid type, SortGroupClause *sgc)
{
	int16		typlen;
	bool		typbyval;
	RegProcedure hash_proc;

	get_typlenbyval(type, &typlen, &typbyval);
	return (typbyval || typlen == -1) && sgc->hashable &&
		get_op_hash_functions(sgc->eqop, &hash_proc, NULL) &&
		OidIsValid(get_opcode(sgc->eqop));
}

/* Is node a Var of a user column of relid at this query level? */
static bool
IsUserColumn(Node *node, Index relid)
{
	Var		   *var = (Var *) node;

	return IsA(node, Var) && var->varno == relid && var->varattno > 0 &&
		var->varlevelsup == 0;
}

/* Does the expression contain a Param? */
static bool
ContainsParam(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Param))
		return true;
	return expression_tree_walker(node, ContainsParam, context);
}

/*
 * Can ColstoreAgg evaluate a grouping expression (agg_key_expr.c)?  It must
 * read user columns of relid and nothing else of the row, and give the same
 * result for the same input within the query: no volatile functions, no
 * parameters (their values may change between rescans) and no subqueries,
 * aggregates or set-returning functions.
 */
static bool
GroupingExpressionUsable(Node *expr, Index relid)
{
	List	   *vars;
	ListCell   *lc;

	if (contain_volatile_functions(expr) || contain_subplans(expr) ||
		contain_agg_clause(expr) || contain_window_function(expr) ||
		expression_returns_set(expr) || ContainsParam(expr, NULL))
		return false;
	/* a PlaceHolderVar (an outer join's) is no plain column: not handled */
	vars = pull_var_clause(expr, PVC_INCLUDE_PLACEHOLDERS);
	if (vars == NIL)
		return false;
	foreach(lc, vars)
	{
		if (!IsUserColumn(lfirst(lc), relid))
			return false;
	}
	return true;
}

/*
 * The GROUP BY items (plain columns of relid, or expressions over them), if
 * ColstoreAgg can group by every one of them: a key of a type
 * ColstoreAggGroupKeyType accepts, grouped with the type's default equality
 * (*eqops gets InvalidOid for it), or one GroupableByFunctions accepts (its
 * grouping operator); *ok is false otherwise.
 */
static List *
GroupingKeys(Query *parse, Index relid, List **eqops, bool *ok)
{
	List	   *keys = NIL;
	ListCell   *lc;

	*ok = false;
	*eqops = NIL;
	foreach(lc, parse->groupClause)
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		Node	   *expr = get_sortgroupclause_expr(sgc, parse->targetList);
		Oid			type = exprType(expr);
		bool		byval;
		bool		blank_padded;

		if (!IsUserColumn(expr, relid) && !GroupingExpressionUsable(expr, relid))
			return NIL;
		if (list_member(keys, expr))
			continue;
		if (ColstoreAggGroupKeyType(type, exprCollation(expr), &byval, &blank_padded) &&
			sgc->eqop == lookup_type_cache(type, TYPECACHE_EQ_OPR)->eq_opr)
			*eqops = lappend_oid(*eqops, InvalidOid);
		else if (GroupableByFunctions(type, sgc))
			*eqops = lappend_oid(*eqops, sgc->eqop);
		else
			return NIL;
		keys = lappend(keys, expr);
	}
	/* the executor keeps a row's keys in arrays of INDEX_MAX_KEYS */
	*ok = list_length(keys) <= INDEX_MAX_KEYS;
	return keys;
}

/* What CollectAggregates gathers while walking the target and HAVING. */
typedef struct AggregateCollection
{
	List	   *keys;			/* grouping keys: taken whole */
	Index		relid;
	List	   *aggs;			/* the Aggrefs found */
	bool		unsupported;	/* something ColstoreAgg cannot compute */
} AggregateCollection;

/*
 * Walk an expression of the grouping target: grouping keys are taken whole
 * (setrefs finds them in the scan tuple), Aggrefs ColstoreAgg computes are
 * collected, and anything else that needs the rows (a Var outside a key, a
 * PlaceHolderVar, a window function, GROUPING()) makes it unsupported.
 */
static bool
CollectAggregates(Node *node, AggregateCollection *c)
{
	AttrNumber	attno;

	if (node == NULL)
		return false;
	if (list_member(c->keys, node))
		return false;
	if (IsA(node, Aggref))
	{
		if (ColstoreAggClassify((Aggref *) node, c->relid, &attno) == COLSTORE_AGG_NONE)
			c->unsupported = true;
		else
			c->aggs = list_append_unique(c->aggs, node);
		return false;
	}
	if (IsA(node, Var) || IsA(node, PlaceHolderVar) || IsA(node, WindowFunc) ||
		IsA(node, GroupingFunc))
	{
		c->unsupported = true;
		return false;
	}
	return expression_tree_walker(node, CollectAggregates, c);
}

/*
 * The Aggrefs of the grouping target and of the HAVING clauses (exprs), if
 * ColstoreAgg computes all of them and they need nothing else from the rows
 * but the grouping keys (group_keys: columns, or expressions setrefs will
 * find whole in the scan tuple); *ok is false otherwise.
 */
static List *
SupportedAggregates(List *exprs, Index relid, List *group_keys, bool *ok)
{
	AggregateCollection c = {group_keys, relid, NIL, false};

	*ok = false;
	if (contain_subplans((Node *) exprs))
		return NIL;
	(void) CollectAggregates((Node *) exprs, &c);
	if (c.unsupported)
		return NIL;
	*ok = true;
	return c.aggs;
}

/*
 * The restriction clauses of rel as plain expressions, if ColstoreAgg can
 * decide every one of them exactly; *ok is false otherwise.
 */
static List *
ExactConditions(RelOptInfo *rel, bool *ok)
{
	List	   *quals = NIL;
	ListCell   *lc;

	*ok = true;
	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);

		if (rinfo->pseudoconstant ||
			(rinfo->security_level > 0 && !rinfo->leakproof) ||
			!PruningClauseIsExact(rinfo->clause, rel->relid))
		{
			*ok = false;
			return NIL;
		}
		quals = lappend(quals, rinfo->clause);
	}
	return quals;
}

/*
 * Cost: per decoded value rather than per tuple, times the share of the
 * table pruning leaves, plus a tuple per group and grouping expressions'
 * own cost per row that passes (evaluated row by row, as Agg would).  Condition columns are
 * decoded for every row read; argument and grouping columns only in the
 * chunks where some row passes the conditions (the share of chunks
 * expected to hold one, when the passing rows are spread evenly), and
 * each grouping column costs a hash probe per row that passes.  Decoding and folding
 * one value of a batch costs about a tenth of what evaluating one operator
 * on a tuple does (bench/: GROUP BY and TPC-H Q1/Q6 run 5 to 10 times
 * faster than a serial HashAggregate over a scan), so each counts a tenth
 * of cpu_operator_cost; with less, the planner would prefer parallel plans
 * that are several times slower.  So a selective condition makes the node
 * cheaper, as it does ColstoreScan's batch filter (cscan_path.c), which
 * does the same filtering and then hands rows to an Agg.
 *
 * Returns the per-row part of the startup cost (decoding, folding, the
 * grouping expressions), the part parallel participants share; the rest,
 * reading the pages, is not (as for PostgreSQL's parallel sequential scan,
 * which divides only its CPU cost among the participants).
 */
static Cost
CostColstoreAgg(PlannerInfo *root, RelOptInfo *rel, Path *path, List *aggs,
				List *group_keys, double ngroups, List *quals,
				const ColstoreOptions *opts, BlockNumber pages)
{
	int			npruning;
	double		share = quals != NIL ? ColstoreScanShareRead(root, rel, &npruning) : 1.0;
	double		rows_read = rel->tuples * share;
	double		rows_passing = Min(rel->rows, rows_read);
	double		chunks_used = 1.0;
	double		columns = 0;
	double		per_value = cpu_operator_cost * COLSTORE_PER_VALUE_COST_FACTOR;
	QualCost	key_cost = {0, 0};
	Cost		per_row_cost;
	ListCell   *lc;

	/* grouping keys: their columns decoded, expressions evaluated per row */
	foreach(lc, group_keys)
	{
		if (IsA(lfirst(lc), Var))
			columns += 1;
		else
		{
			QualCost	one;

			columns += list_length(pull_var_clause(lfirst(lc), 0));
			cost_qual_eval_node(&one, lfirst(lc), root);
			key_cost.startup += one.startup;
			key_cost.per_tuple += one.per_tuple;
		}
	}

	if (quals != NIL)
		chunks_used = ColstoreChunksWithPassingRows(rows_passing, rows_read,
													opts->chunk_size);

	foreach(lc, aggs)
	{
		AttrNumber	attno;
		ColstoreAggKind kind = ColstoreAggClassify(lfirst(lc), rel->relid, &attno);

		int			ncolumns = 0;

		/* count(col) of whole chunks reads the header's NULL count */
		if (kind == COLSTORE_AGG_COUNT_STAR ||
			(kind == COLSTORE_AGG_COUNT && quals == NIL && group_keys == NIL &&
			 ((Aggref *) lfirst(lc))->aggfilter == NULL))
			continue;
		/* an arithmetic argument reads each of its columns */
		if (attno == 0 &&
			NumericExprIsSupported((Node *) linitial_node(TargetEntry,
														  ((Aggref *) lfirst(lc))->args)->expr,
								   rel->relid, &ncolumns))
			columns += ncolumns;
		else
			columns += 1;
	}
	path->rows = ngroups;
	/* a sequential read of the table: SET enable_seqscan = off applies */
	path->startup_cost = 0;
	DisableUnlessSeqScansEnabled(path);
	per_row_cost = per_value * rows_read * Max(list_length(quals) + chunks_used * columns, 0.1) +
		per_value * rows_passing * list_length(group_keys) +
		key_cost.per_tuple * rows_passing;
	path->startup_cost += seq_page_cost * pages * share *
		Min(1.0, (columns + list_length(quals)) / 4) +
		per_row_cost + key_cost.startup;
	path->total_cost = path->startup_cost +
		(cpu_tuple_cost + path->pathtarget->cost.per_tuple) * ngroups +
		path->pathtarget->cost.startup;
	return per_row_cost;
}

/*
 * Whether the groups' states are expected to fit in hash_mem, as HashAgg
 * would keep them (ColstoreAgg does not spill): per group, its slot and
 * keys, every aggregate's state, and the average width of the values kept
 * by reference (variable-length keys, min/max of numeric and text).
 */
static bool
GroupsFitInMemory(double ngroups, Oid relid, List *group_keys, List *aggs)
{
	double		per_group = 64 + list_length(group_keys) * 48.0 +
		list_length(aggs) * (double) sizeof(NumericSum);
	ListCell   *lc;

	/* the copies of variable-length keys and of min/max values kept by value */
	foreach(lc, group_keys)
	{
		Node	   *key = lfirst(lc);
		int32		width = 0;

		if (get_typbyval(exprType(key)))
			continue;
		/* ANALYZE's average width of a column, else the type's guess */
		if (IsA(key, Var))
			width = get_attavgwidth(relid, ((Var *) key)->varattno);
		per_group += width > 0 ? width : get_typavgwidth(exprType(key), exprTypmod(key));
	}
	foreach(lc, aggs)
	{
		Aggref	   *aggref = lfirst_node(Aggref, lc);

		if (!get_typbyval(aggref->aggtype))
			per_group += get_typavgwidth(aggref->aggtype, -1);
	}
	return ngroups * per_group <= (double) get_hash_memory_limit();
}

/*
 * Offer Gather over a parallel-aware copy of the ColstoreAgg path (see
 * agg_parallel.c), with PostgreSQL's worker count for the table, when the
 * query may run in parallel and the target and conditions are parallel
 * safe.  The per-row part of the cost (per_row_cost, CostColstoreAgg's) is
 * divided among the participants as a parallel sequential scan's CPU cost
 * is; reading the pages is not.  Each worker's start-up is added
 * (ColstoreWorkerStartupCost): a scan that decodes a few columns of a
 * table costs so little per row that, on tables of a few million rows,
 * starting workers costs more than sharing the rows saves.
 */
static void
AddParallelPath(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *output_rel,
				CustomPath *serial, List *quals, Cost per_row_cost)
{
	CustomPath *cpath;
	double		divisor;
	int			workers;

	if (!input_rel->consider_parallel || max_parallel_workers_per_gather <= 0 ||
		!is_parallel_safe(root, (Node *) output_rel->reltarget->exprs) ||
		!is_parallel_safe(root, (Node *) quals))
		return;
	workers = compute_parallel_worker(input_rel, input_rel->pages, -1,
									  max_parallel_workers_per_gather);
	if (workers <= 0)
		return;
	divisor = ColstoreParallelDivisor(workers);
	cpath = makeNode(CustomPath);
	memcpy(cpath, serial, sizeof(CustomPath));
	cpath->path.parallel_aware = true;
	cpath->path.parallel_safe = true;
	cpath->path.parallel_workers = workers;
	cpath->path.startup_cost = serial->path.startup_cost - per_row_cost +
		per_row_cost / divisor + ColstoreWorkerStartupCost(workers);
	cpath->path.total_cost = cpath->path.startup_cost +
		(serial->path.total_cost - serial->path.startup_cost);
	/* an upper rel has no row count of its own: give the groups' */
	add_path(output_rel, (Path *) create_gather_path(root, output_rel, &cpath->path,
													 output_rel->reltarget, NULL,
													 &serial->path.rows));
}

/*
 * Offer the sorted copy of the (hashed) ColstoreAgg path, with the keys'
 * pathkeys (agg_sorted.c).  It compares each row's keys with the previous
 * row's instead of probing a hash table (counted as half the probe), checks
 * the order of the scan's row groups at run time (an operator per chunk,
 * as the ordered ColstoreScan), and returns its first group after the
 * first chunk rather than after the whole table.
 */
static void
AddSortedPath(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *output_rel,
			  CustomPath *hashed, List *pathkeys, const ColstoreOptions *opts)
{
	CustomPath *cpath = makeNode(CustomPath);
	double		rows_passing = Min(input_rel->rows, input_rel->tuples);
	double		probe = cpu_operator_cost * COLSTORE_PER_VALUE_COST_FACTOR *
		rows_passing * list_length(lsecond(hashed->custom_private));
	double		work;

	memcpy(cpath, hashed, sizeof(CustomPath));
	cpath->custom_private = list_copy(hashed->custom_private);
	llast(cpath->custom_private) = makeBoolean(true);
	cpath->path.pathkeys = pathkeys;
	/* the hashed path computes everything before its first row */
	work = hashed->path.startup_cost - probe / 2 +
		cpu_operator_cost * (input_rel->tuples / Max(opts->chunk_size, 1));
	cpath->path.total_cost = work +
		(hashed->path.total_cost - hashed->path.startup_cost);
#if PG_VERSION_NUM < 180000
	if (!enable_seqscan)
		work -= disable_cost;	/* added back below */
#endif
	/* the first group: after one chunk's share of the reading */
	cpath->path.startup_cost = work * Min(1.0, opts->chunk_size / Max(input_rel->tuples, 1.0));
	DisableUnlessSeqScansEnabled(&cpath->path);
	add_path(output_rel, (Path *) cpath);
}

/* create_upper_paths_hook: offer ColstoreAgg for aggregation. */
static void
ColstoreCreateUpperPaths(PlannerInfo *root, UpperRelationKind stage,
						 RelOptInfo *input_rel, RelOptInfo *output_rel,
						 void *extra)
{
	GroupPathExtraData *gextra = (GroupPathExtraData *) extra;
	Query	   *parse = root->parse;
	RangeTblEntry *rte;
	ColstoreOptions opts;
	CustomPath *cpath;
	List	   *group_keys;
	List	   *aggs;
	List	   *quals;
	List	   *having;
	List	   *group_eqops;
	double		ngroups = 1;
	bool		ok;
	bool		hashed = true;
	List	   *sorted_pathkeys;
	Cost		per_row_cost;

	if (prev_create_upper_paths_hook)
		prev_create_upper_paths_hook(root, stage, input_rel, output_rel, extra);
	if (stage != UPPERREL_GROUP_AGG || !colstore_enable_custom_agg ||
		gextra->patype != PARTITIONWISE_AGGREGATE_NONE ||
		parse->groupingSets != NIL ||
		parse->hasTargetSRFs || (!parse->hasAggs && parse->groupClause == NIL) ||
		input_rel->reloptkind != RELOPT_BASEREL ||
		IS_DUMMY_REL(input_rel) || input_rel->lateral_relids != NULL)
		return;
	rte = planner_rt_fetch(input_rel->relid, root);
	if (rte->rtekind != RTE_RELATION || rte->relkind != RELKIND_RELATION ||
		rte->inh || rte->tablesample != NULL)
		return;
	quals = ExactConditions(input_rel, &ok);
	if (!ok)
		return;
	group_keys = GroupingKeys(parse, input_rel->relid, &group_eqops, &ok);
	if (!ok)
		return;
	having = (List *) gextra->havingQual;
	aggs = SupportedAggregates(list_concat_copy(output_rel->reltarget->exprs, having),
							   input_rel->relid, group_keys, &ok);
	if (!ok)
		return;
	if (group_keys != NIL)
	{
		ngroups = estimate_num_groups(root, group_keys, input_rel->rows, NULL, NULL);
		hashed = GroupsFitInMemory(ngroups, rte->relid, group_keys, aggs);
	}
	/* last: reading the options and the column order are catalog lookups */
	if (!ColstoreTableOptions(rte->relid, &opts) || input_rel->tuples <= opts.chunk_size)
		return;
	/* sorted grouping (agg_sorted_path.c): no hash table, no memory limit */
	sorted_pathkeys = !colstore_enable_sorted_agg ? NIL :
		SortedAggPathkeys(root, input_rel, rte->relid, group_keys, group_eqops);
	if (!hashed && sorted_pathkeys == NIL)
		return;

	cpath = makeNode(CustomPath);
	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = output_rel;
	cpath->path.pathtarget = output_rel->reltarget;
	cpath->path.param_info = NULL;
	cpath->path.parallel_aware = false;
	cpath->path.parallel_safe = false;
	cpath->path.parallel_workers = 0;
	cpath->path.pathkeys = NIL;
	cpath->flags = CUSTOMPATH_SUPPORT_PROJECTION;
	cpath->custom_private = list_make5(aggs, group_keys, quals,
									   makeInteger(input_rel->relid), having);
	cpath->custom_private = lappend(cpath->custom_private, group_eqops);
	cpath->custom_private = lappend(cpath->custom_private, makeBoolean(false));
	cpath->methods = &ColstoreAggPathMethods;
	per_row_cost = CostColstoreAgg(root, input_rel, &cpath->path, aggs, group_keys,
								   ngroups, quals, &opts,
								   ColstorePhysicalPages(rte->relid));
	if (having != NIL)
	{
		QualCost	having_cost;

		/* evaluated once per group, as Agg's HAVING */
		cost_qual_eval(&having_cost, having, root);
		cpath->path.startup_cost += having_cost.startup;
		cpath->path.total_cost += having_cost.startup + ngroups * having_cost.per_tuple;
	}
	if (sorted_pathkeys != NIL)
		AddSortedPath(root, input_rel, output_rel, cpath, sorted_pathkeys, &opts);
	if (!hashed)
		return;
	/* before add_path, which may free the serial path */
	AddParallelPath(root, input_rel, output_rel, cpath,
					list_concat(list_concat_copy(quals, having), group_keys),
					per_row_cost);
	add_path(output_rel, (Path *) cpath);
}

/* Append expr to a scan target list unless it is there already. */
static List *
AddScanEntry(List *scan_tlist, Node *expr)
{
	if (tlist_member((Expr *) expr, scan_tlist) != NULL)
		return scan_tlist;
	return lappend(scan_tlist,
				   makeTargetEntry((Expr *) copyObject(expr),
								   list_length(scan_tlist) + 1, NULL, false));
}

/*
 * ColstoreAgg_PlanCustomPath
 *		A CustomScan with no scan relation of its own (scanrelid 0).  Its
 *		scan tuple (custom_scan_tlist) holds the aggregates, then the
 *		grouping keys (custom_private: their count), both of which
 *		setrefs matches in the target list; then the other columns the
 *		conditions read, so setrefs can point the conditions in
 *		custom_exprs at them; and last a ctid Var of the table, which tells
 *		the executor the table's final range table index
 *		(create_customscan_plan overwrites custom_relids with the upper
 *		relation's, which are empty).
 */
static Plan *
ColstoreAgg_PlanCustomPath(PlannerInfo *root, RelOptInfo *rel,
						   CustomPath *best_path, List *tlist, List *clauses,
						   List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	List	   *aggs = linitial(best_path->custom_private);
	List	   *group_keys = lsecond(best_path->custom_private);
	List	   *quals = lthird(best_path->custom_private);
	Index		relid = intVal(lfourth(best_path->custom_private));
	List	   *having = list_nth(best_path->custom_private, 4);
	List	   *group_eqops = list_nth(best_path->custom_private, 5);
	List	   *scan_tlist = NIL;
	ListCell   *lc;

	foreach(lc, aggs)
		scan_tlist = AddScanEntry(scan_tlist, lfirst(lc));
	foreach(lc, group_keys)
		scan_tlist = AddScanEntry(scan_tlist, lfirst(lc));
	foreach(lc, pull_var_clause((Node *) quals, 0))
		scan_tlist = AddScanEntry(scan_tlist, lfirst(lc));
	/* names the table; setrefs keeps its varno right in any query level */
	scan_tlist = lappend(scan_tlist,
						 makeTargetEntry((Expr *) makeVar(relid, SelfItemPointerAttributeNumber,
														  TIDOID, -1, InvalidOid, 0),
										 list_length(scan_tlist) + 1,
										 pstrdup(COLSTORE_AGG_TABLE_ENTRY), true));
	cscan->scan.plan.targetlist = tlist;
	/* HAVING: setrefs points its Aggrefs and keys at the scan tuple */
	cscan->scan.plan.qual = copyObject(having);
	cscan->scan.scanrelid = 0;
	cscan->flags = best_path->flags;
	cscan->custom_scan_tlist = scan_tlist;
	cscan->custom_exprs = copyObject(quals);
	/* the grouping operators of keys grouped by function (else InvalidOid) */
	cscan->custom_private = list_make2(makeInteger(list_length(group_keys)), group_eqops);
	/* grouping: sorted (agg_sorted.c) or hashed */
	cscan->custom_private = lappend(cscan->custom_private,
									list_nth(best_path->custom_private, 6));
	cscan->methods = ColstoreAggPlanMethods();
	return &cscan->scan.plan;
}

/* Install the planner hook; called from _PG_init. */
void
ColstoreAggPathInit(void)
{
	prev_create_upper_paths_hook = create_upper_paths_hook;
	create_upper_paths_hook = ColstoreCreateUpperPaths;
}

/* Define colstore.enable_custom_agg (from _PG_init). */
void
ColstoreAggPathDefineSettings(void)
{
	DefineCustomBoolVariable("colstore.enable_custom_agg",
							 "Enables the planner's use of the colstore aggregate scan (aggregates folded from decoded chunks).",
							 NULL,
							 &colstore_enable_custom_agg,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("colstore.enable_sorted_agg",
							 "Enables the colstore aggregate scan's sorted grouping (groups closed as the keys change, over a table held in key order).",
							 NULL,
							 &colstore_enable_sorted_agg,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
}
