/*-------------------------------------------------------------------------
 *
 * join_filter.c
 *	  Run-time join filters from hash joins into the ColstoreScans that
 *	  feed their probe side.
 *
 * A hash join whose outer (probe) side is a ColstoreScan turns every row of
 * that scan into a tuple and hashes it, though in a selective join most
 * find nothing in the hash table (TPC-H Q9: 5% of lineitem's rows join the
 * parts it keeps).  When the join returns no outer row without a match
 * (inner, semi and right joins, and right semi and right anti joins, which
 * return hash table rows only: NOT EXISTS in TPC-H Q22) and its outer hash
 * keys are columns a ColstoreScan under it passes on unchanged (the scan
 * itself, or one below joins and key-range joins that do not keep rows:
 * TraceKey), the scan asks this file, a batch at a time, to drop the rows
 * whose keys hash to a value no tuple of the hash table has: those rows
 * could not match, so the join's result is unchanged.  Rows the filter
 * drops never become tuples, and when no row of a chunk is left its other
 * columns are never decoded.
 *
 * The link is made after ExecutorStart (an ExecutorStart_hook walks the
 * plan state tree, in parallel workers too): for each such HashJoinState
 * whose outer child is a ColstoreScan, a JoinFilter naming the join and
 * the scan columns of its hash keys is given to the scan.  (The same walk
 * links semi and anti joins to the scans that fill their hash tables:
 * semi_join_distinct.c, and merge joins' inner scans to their outer ones:
 * merge_skip.c.)  A join that runs
 * once in the execution (every node above it rescans its children only when
 * rescanned itself, and nothing rescans the plan: no cursor, no initPlan or
 * SubPlan, no nested loop inner side, ...; ChildRunsOnce) builds its table
 * once, so its filter never changes: its keys are then traced also through
 * hash tables, sorts and nested loops' inner sides (TraceKey), and rescans
 * keep the filter.  TPC-H Q5 filters orders, which another hash join below
 * keeps in its table, by the customers of Asia.  The filter is
 * built lazily, on the first batch the scan reads after the join has built
 * its hash table, and only when the table holds all of the inner side in
 * memory (one batch; a multi-batch join keeps the other batches on disk,
 * and PostgreSQL's first outer row, fetched to see whether the outer side
 * is empty, comes before the table exists) and no more tuples than the
 * scan is expected to test rows, or has passed on since (else reading the
 * table costs more than the filter can save): a Bloom filter of the hash
 * values of the table's tuples (two bits per value, sixteen bits per
 * bucket), read from the table as nodeHash.c stores it, serial or shared
 * (parallel hash).  Rows are hashed exactly as ExecHashGetHashValue hashes
 * outer tuples (the table's outer hash functions and collations, keys
 * rotated and combined; a NULL key of a strict operator cannot match).  A
 * rescan of the scan drops the filter, unless the join runs once (the join
 * may have built another table; under a key-range join that is a rebuild
 * per range).  Hash tables of more than JOIN_FILTER_MAX_BUCKETS buckets get no
 * filter, and a filter that has removed under a tenth of the first
 * JOIN_FILTER_TRIAL_ROWS rows it tested stops testing, also after rescans
 * (a key-range join rescans its scans for every range): it costs a hash per
 * row and saves little.
 *
 * IDENTIFICATION
 *	  src/cscan/join_filter.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "executor/executor.h"
#include "executor/hashjoin.h"
#include "nodes/nodeFuncs.h"
#include "port/pg_bitutils.h"
#include "utils/dsa.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "cscan/cscan_exec.h"
#include "cscan/join_filter.h"
#include "cscan/key_range_join.h"
#include "cscan/merge_skip.h"
#include "cscan/semi_join_distinct.h"
#include "pg_compat.h"
#include "tableam/scan_engine.h"

bool		colstore_enable_join_filter = true;

/* Larger hash tables get no filter (it would take 16 bits per bucket). */
#define JOIN_FILTER_MAX_BUCKETS		(1 << 23)
/* Rows tested before deciding whether the filter is worth its hashing. */
#define JOIN_FILTER_TRIAL_ROWS		65536

/*
 * Hash functions the filter computes itself, as PostgreSQL's do, instead of
 * calling them per row (hashint4 also hashes date; hashint8 bigint keys).
 */
typedef enum KeyHashKind
{
	KEY_HASH_CALL,				/* call hashfns[k] */
	KEY_HASH_INT4,				/* hashint4 */
	KEY_HASH_INT8				/* hashint8 */
} KeyHashKind;

struct JoinFilter
{
	HashJoinState *join;
	int			nkeys;
	int		   *attnos;			/* 0-based scan columns, one per hash key */
	FmgrInfo   *hashfns;		/* the outer side's hash function per key */
	KeyHashKind *kinds;			/* ... computed here without a call? */
	Oid		   *collations;		/* ... and its collation */
	bool	   *strict;			/* a NULL key matches nothing */
	List	   *names;			/* their names, for EXPLAIN */
	bool		built;			/* bits describe the join's current table */
	bool		off;			/* no filter for this scan (until a rescan) */
	bool		useless;		/* removed too few rows: off for good */
	bool		stable;			/* the join runs once: its table never changes */
	double		expected_rows;	/* rows the scan is expected to test */
	double		rows_unfiltered;	/* rows passed on before it was built */
	uint64	   *bits;
	uint32		mask;			/* bit positions: hash & mask */
	uint64		rows_tested;
	uint64		rows_removed;	/* since the executor started */
	uint64		rows_removed_now;	/* since the filter was built */
};

static ExecutorStart_hook_type prev_ExecutorStart_hook = NULL;

/* The two bit positions of a hash value. */
static inline void
BitPositions(uint32 hash, uint32 mask, uint32 *p1, uint32 *p2)
{
	uint32		h2 = hash * 0x9E3779B1U;

	*p1 = hash & mask;
	*p2 = (h2 ^ (h2 >> 15)) & mask;
}

static inline void
AddHash(JoinFilter *filter, uint32 hash)
{
	uint32		p1;
	uint32		p2;

	BitPositions(hash, filter->mask, &p1, &p2);
	filter->bits[p1 / 64] |= UINT64CONST(1) << (p1 % 64);
	filter->bits[p2 / 64] |= UINT64CONST(1) << (p2 % 64);
}

static inline bool
MayHold(const JoinFilter *filter, uint32 hash)
{
	uint32		p1;
	uint32		p2;

	BitPositions(hash, filter->mask, &p1, &p2);
	return (filter->bits[p1 / 64] & (UINT64CONST(1) << (p1 % 64))) != 0 &&
		(filter->bits[p2 / 64] & (UINT64CONST(1) << (p2 % 64))) != 0;
}

/*
 * Build the Bloom filter of the join's hash table, or turn the filter off
 * for now if the table is not there yet (false: try again on the next
 * batch) or holds only part of the inner side.
 */
static bool
BuildFilter(JoinFilter *filter)
{
	HashJoinTable table = filter->join->hj_HashTable;
	uint64		nbits;
	int			i;

	if (table == NULL)
		return false;			/* the join has not built its table yet */
	if (table->nbatch != 1 || table->curbatch != 0 || table->skewEnabled ||
		table->nbuckets > JOIN_FILTER_MAX_BUCKETS)
	{
		filter->off = true;
		return false;
	}

	nbits = Max((uint64) table->nbuckets * 16, 4096);
	nbits = pg_nextpower2_64(nbits);
	if (filter->bits != NULL)
		pfree(filter->bits);
	filter->bits = palloc0(nbits / 8);
	filter->mask = (uint32) (nbits - 1);
	for (i = 0; i < table->nbuckets; i++)
	{
		if (table->parallel_state == NULL)
		{
			HashJoinTuple tuple;

			for (tuple = table->buckets.unshared[i]; tuple != NULL;
				 tuple = tuple->next.unshared)
				AddHash(filter, tuple->hashvalue);
		}
		else
		{
			dsa_pointer p = dsa_pointer_atomic_read(&table->buckets.shared[i]);

			while (DsaPointerIsValid(p))
			{
				HashJoinTuple tuple = (HashJoinTuple) dsa_get_address(table->area, p);

				AddHash(filter, tuple->hashvalue);
				p = tuple->next.shared;
			}
		}
	}
	filter->built = true;
	filter->rows_tested = 0;
	filter->rows_removed_now = 0;
	return true;
}

/*
 * The hash value of one key, as the hash join's hash function for key k
 * computes it (hashint4 and hashint8 written out: for bigint order keys the
 * call was most of the filter's cost per row).
 */
static inline uint32
KeyHash(const JoinFilter *filter, int k, Datum value)
{
	switch (filter->kinds[k])
	{
		case KEY_HASH_INT4:
			return hash_uint32((uint32) DatumGetInt32(value));
		case KEY_HASH_INT8:
			{
				int64		val = DatumGetInt64(value);
				uint32		lohalf = (uint32) val;
				uint32		hihalf = (uint32) (val >> 32);

				lohalf ^= (val >= 0) ? hihalf : ~hihalf;
				return hash_uint32(lohalf);
			}
		case KEY_HASH_CALL:
			break;
	}
	return DatumGetUInt32(FunctionCall1Coll(&filter->hashfns[k], filter->collations[k],
											value));
}

/*
 * JoinFilterApply
 *		Clear selected[i] for each of the nrows rows of scan's current batch
 *		whose hash keys no tuple of the join's hash table can match.  Returns
 *		false when the filter did nothing (not built yet, or off).
 */
bool
JoinFilterApply(JoinFilter *filter, TableScanDesc scan, int nrows, bool *selected)
{
	Datum	   *values[INDEX_MAX_KEYS];
	bool	   *isnull[INDEX_MAX_KEYS];
	int			i;
	int			k;

	if (filter->off)
		return false;
	if (!filter->built && filter->join->hj_HashTable != NULL &&
		filter->join->hj_HashTable->totalTuples >
		Max(filter->expected_rows, filter->rows_unfiltered))
	{
		/*
		 * A table of more tuples than the scan is expected to test rows (the
		 * planner's estimate for this process) and has passed on so far:
		 * reading every tuple of it into the filter would cost more than the
		 * filter can save (TPC-H Q14: 200,000 parts for some 25,000 lineitem
		 * rows per participant, all of which match).  The rows go on
		 * untested, counted, until they outnumber the table's tuples (the
		 * estimate was too low): then the filter is built.
		 */
		for (i = 0; i < nrows; i++)
			filter->rows_unfiltered += selected[i];
		return false;
	}
	if (!filter->built && !BuildFilter(filter))
		return false;
	for (k = 0; k < filter->nkeys; k++)
		ColstoreScanBatchColumn(scan, filter->attnos[k], &values[k], &isnull[k]);
	for (i = 0; i < nrows; i++)
	{
		uint32		hash = 0;
		bool		keep = true;

		if (!selected[i])
			continue;
		for (k = 0; k < filter->nkeys && keep; k++)
		{
			hash = pg_rotate_left32(hash, 1);
			if (isnull[k][i])
				keep = !filter->strict[k];	/* else hashed as 0 */
			else
				hash ^= KeyHash(filter, k, values[k][i]);
		}
		filter->rows_tested++;
		if (!keep || !MayHold(filter, hash))
		{
			selected[i] = false;
			filter->rows_removed++;
			filter->rows_removed_now++;
		}
	}
	if (filter->rows_tested >= JOIN_FILTER_TRIAL_ROWS &&
		filter->rows_removed_now * 10 < filter->rows_tested)
		filter->useless = filter->off = true;
	return true;
}

/* The scan was rescanned: the join may build another table. */
void
JoinFilterReset(JoinFilter *filter)
{
	if (filter->stable)
		return;
	filter->built = false;
	filter->off = filter->useless;
	filter->rows_unfiltered = 0;
}

/* The names of the filtered columns, for EXPLAIN. */
List *
JoinFilterColumns(const JoinFilter *filter)
{
	return filter->names;
}

/* Rows this process's filter removed since the executor started. */
uint64
JoinFilterRowsRemoved(const JoinFilter *filter)
{
	return filter->rows_removed;
}

/* expr without RelabelTypes, if it is then a Var; else NULL. */
static Var *
PlainVar(Expr *expr)
{
	while (IsA(expr, RelabelType))
		expr = ((RelabelType *) expr)->arg;
	return IsA(expr, Var) && ((Var *) expr)->varlevelsup == 0 ? (Var *) expr : NULL;
}

/*
 * Does a node that keeps one row or one result per group of its input rows
 * (an aggregate, Unique) form its groups by input column resno with the
 * join key's equality (the same operator and collation)?  Then every row of
 * a group is equal, by the join's operator, to the key the group returns,
 * and hashes as it does: a row whose hash no inner tuple has belongs to a
 * group the join drops, and dropping it below the node changes no group the
 * join returns.  When the groups are formed otherwise (another column only,
 * as DISTINCT ON does; another collation), a dropped row could be the one
 * the group returned, and another, which the join matches, returned
 * instead.  Not for grouping sets (a row is in several groups, some without
 * the key) nor a plain aggregate.
 */
static bool
GroupsByKey(PlanState *ps, AttrNumber resno, Oid eqop, Oid collation)
{
	int			ncols;
	AttrNumber *cols;
	Oid		   *ops;
	Oid		   *collations;
	int			i;

	if (IsA(ps, AggState))
	{
		Agg		   *agg = (Agg *) ps->plan;

		if (agg->aggstrategy == AGG_PLAIN || agg->groupingSets != NIL)
			return false;
		ncols = agg->numCols;
		cols = agg->grpColIdx;
		ops = agg->grpOperators;
		collations = agg->grpCollations;
	}
	else if (IsA(ps, UniqueState))
	{
		Unique	   *unique = (Unique *) ps->plan;

		ncols = unique->numCols;
		cols = unique->uniqColIdx;
		ops = unique->uniqOperators;
		collations = unique->uniqCollations;
	}
	else
		return false;
	for (i = 0; i < ncols; i++)
		if (cols[i] == resno)
			return ops[i] == eqop && collations[i] == collation;
	return false;
}

/*
 * TraceKey
 *		The ColstoreScan whose column (0-based, *attno) output column resno
 *		of ps passes on unchanged, or NULL.  Followed through the nodes
 *		that pass rows on as they read them and rescan what they read only
 *		when they are rescanned themselves: a merge join (either side), the
 *		outer side of a nested loop or hash join, and the key-range join.
 *		Not through nodes that keep rows (Sort, Material, Memoize, a hash
 *		join's hash table: rows kept while one filter was in force would be
 *		replayed after the hash join above had built another table), nor
 *		into a nested loop's inner side (rescanned for every outer row, and
 *		a rescan rebuilds the filter).  Rows read again after a merge join
 *		restored a mark may be filtered where they were not the first time
 *		(the filter was built in between): every row a dropped row would
 *		have contributed to fails the hash join above anyway.  Dropping a
 *		row there is safe whatever the join type: every row it contributes
 *		to carries its key, and a row that lost its match and is
 *		null-extended instead has a NULL key, which the strict hash clause
 *		above rejects too.
 *
 *		deep: the hash join runs once (JoinRunsOnce), so its table, and the
 *		filter, never change: then also through the nodes that keep rows
 *		(hash tables, Sort, Incremental Sort, Material) and into a nested
 *		loop's inner side, and through Unique and aggregates that group by
 *		the key with the join's own equality (GroupsByKey; a hash aggregate
 *		keeps its groups like a hash table).  eqop and collation are the
 *		join clause's.  Never through Limit (dropping rows would change
 *		which rows it lets through), other aggregates, Gather (the scan
 *		below runs in other processes) or anything else.
 */
static PlanState *
TraceKey(PlanState *ps, AttrNumber resno, bool deep, Oid eqop, Oid collation,
		 int *attno)
{
	TargetEntry *tle;
	Var		   *var;

	if (ps == NULL || resno <= 0 || resno > list_length(ps->plan->targetlist))
		return NULL;
	tle = list_nth_node(TargetEntry, ps->plan->targetlist, resno - 1);
	if ((var = PlainVar(tle->expr)) == NULL)
		return NULL;
	if (IsColstoreScanState(ps))
	{
		if (var->varno != ((Scan *) ps->plan)->scanrelid || var->varattno <= 0)
			return NULL;
		*attno = var->varattno - 1;
		return ps;
	}
	if (IsKeyRangeJoinState(ps) && var->varno == INDEX_VAR)
		return TraceKey((PlanState *) linitial(((CustomScanState *) ps)->custom_ps),
						var->varattno, deep, eqop, collation,
						attno);
	if ((IsA(ps, NestLoopState) || IsA(ps, MergeJoinState) || IsA(ps, HashJoinState)) &&
		var->varno == OUTER_VAR)
		return TraceKey(outerPlanState(ps), var->varattno, deep, eqop, collation,
						attno);
	if (IsA(ps, MergeJoinState) && var->varno == INNER_VAR)
		return TraceKey(innerPlanState(ps), var->varattno, deep, eqop, collation,
						attno);
	if (!deep)
		return NULL;
	/* a join that runs once: also through the nodes that keep rows */
	if ((IsA(ps, NestLoopState) || IsA(ps, HashJoinState)) && var->varno == INNER_VAR)
		return TraceKey(innerPlanState(ps), var->varattno, deep, eqop, collation,
						attno);
	if ((IsA(ps, HashState) || IsA(ps, SortState) || IsA(ps, IncrementalSortState) ||
		 IsA(ps, MaterialState)) && var->varno == OUTER_VAR)
		return TraceKey(outerPlanState(ps), var->varattno, deep, eqop, collation,
						attno);
	if ((IsA(ps, AggState) || IsA(ps, UniqueState)) && var->varno == OUTER_VAR &&
		GroupsByKey(ps, var->varattno, eqop, collation))
		return TraceKey(outerPlanState(ps), var->varattno, deep, eqop, collation,
						attno);
	return NULL;
}

/*
 * The hash function, collation and strictness of the join's key k, as the
 * hash join hashes its outer rows: the hash operator's left-hand hash
 * function, values combined by rotating and xoring (same in every version;
 * from 18 the join itself evaluates them as an expression).
 */
static void
HashFunctionOfKey(HashJoin *plan, int k, JoinFilter *filter)
{
	Oid			hashop = list_nth_oid(plan->hashoperators, k);
	RegProcedure left_hashfn;
	RegProcedure right_hashfn;

	if (!get_op_hash_functions(hashop, &left_hashfn, &right_hashfn))
		elog(ERROR, "could not find hash function for hash operator %u", hashop);
	fmgr_info(left_hashfn, &filter->hashfns[k]);
	filter->kinds[k] = left_hashfn == F_HASHINT4 ? KEY_HASH_INT4 :
		left_hashfn == F_HASHINT8 ? KEY_HASH_INT8 : KEY_HASH_CALL;
	filter->collations[k] = list_nth_oid(plan->hashcollations, k);
	filter->strict[k] = op_strict(hashop);
}

/*
 * Give a filter to the ColstoreScan that all of the hash join's outer keys
 * trace to (TraceKey), if the join allows one.
 */
static void
LinkJoin(HashJoinState *join, bool runs_once)
{
	HashJoin   *plan = (HashJoin *) join->js.ps.plan;
	PlanState  *scan = NULL;
	JoinFilter *filter;
	Relation	rel = NULL;
	ListCell   *lc;

	if ((plan->join.jointype != JOIN_INNER && plan->join.jointype != JOIN_SEMI &&
		 plan->join.jointype != JOIN_RIGHT &&
		 !JoinTypeIsRightSemiOrAnti(plan->join.jointype)) ||
		list_length(plan->hashkeys) > INDEX_MAX_KEYS)
		return;
	filter = palloc0(sizeof(JoinFilter));
	filter->join = join;
	filter->stable = runs_once;
	filter->attnos = palloc(sizeof(int) * Max(list_length(plan->hashkeys), 1));
	filter->hashfns = palloc(sizeof(FmgrInfo) * Max(list_length(plan->hashkeys), 1));
	filter->kinds = palloc(sizeof(KeyHashKind) * Max(list_length(plan->hashkeys), 1));
	filter->collations = palloc(sizeof(Oid) * Max(list_length(plan->hashkeys), 1));
	filter->strict = palloc(sizeof(bool) * Max(list_length(plan->hashkeys), 1));
	foreach(lc, plan->hashkeys)
	{
		Var		   *key = PlainVar(lfirst(lc));
		PlanState  *key_scan;
		int			attno;

		if (key == NULL || key->varno != OUTER_VAR ||
			(key_scan = TraceKey(outerPlanState(join), key->varattno, runs_once,
								 list_nth_oid(plan->hashoperators, filter->nkeys),
								 list_nth_oid(plan->hashcollations, filter->nkeys),
								 &attno)) == NULL ||
			(scan != NULL && key_scan != scan))
			return;
		scan = key_scan;
		rel = ((ScanState *) scan)->ss_currentRelation;
		HashFunctionOfKey(plan, filter->nkeys, filter);
		filter->attnos[filter->nkeys++] = attno;
		filter->names = lappend(filter->names,
								pstrdup(NameStr(TupleDescAttr(RelationGetDescr(rel),
															  attno)->attname)));
	}
	if (filter->nkeys == 0)
		return;
	filter->expected_rows = Max(scan->plan->plan_rows, 1.0);
	ColstoreScanSetJoinFilter(scan, filter);
}

/* LinkJoinsWalker's context: the node whose children are being visited. */
typedef struct LinkContext
{
	PlanState  *parent;
	bool		parent_runs_once;
} LinkContext;

/* Is child one of parent's plan children (not an initPlan or SubPlan)? */
static bool
IsPlanChild(PlanState *parent, PlanState *child)
{
	int			i;

	if (child == outerPlanState(parent) || child == innerPlanState(parent))
		return true;
	if (IsA(parent, AppendState))
	{
		for (i = 0; i < ((AppendState *) parent)->as_nplans; i++)
			if (((AppendState *) parent)->appendplans[i] == child)
				return true;
	}
	if (IsA(parent, MergeAppendState))
	{
		for (i = 0; i < ((MergeAppendState *) parent)->ms_nplans; i++)
			if (((MergeAppendState *) parent)->mergeplans[i] == child)
				return true;
	}
	return IsA(parent, SubqueryScanState) && ((SubqueryScanState *) parent)->subplan == child;
}

/*
 * Does child run once whenever parent runs once?  Only for the nodes known
 * to rescan a child only when they are rescanned themselves (and not for
 * initPlans and SubPlans, run again as their parameters change); a nested
 * loop's inner side, Memoize, a recursive union, the key-range join and
 * every other node are taken to run their children more than once.
 */
static bool
ChildRunsOnce(PlanState *parent, PlanState *child)
{
	if (!IsPlanChild(parent, child))
		return false;
	switch (nodeTag(parent))
	{
		case T_NestLoopState:
			return child == outerPlanState(parent);
		case T_HashJoinState:
		case T_MergeJoinState:
		case T_HashState:
		case T_SortState:
		case T_IncrementalSortState:
		case T_MaterialState:
		case T_AggState:
		case T_WindowAggState:
		case T_UniqueState:
		case T_LimitState:
		case T_ResultState:
		case T_ProjectSetState:
		case T_SetOpState:
		case T_GatherState:
		case T_GatherMergeState:
		case T_AppendState:
		case T_MergeAppendState:
		case T_SubqueryScanState:
		case T_LockRowsState:
			return true;
		default:
			return false;
	}
}

static bool LinkJoinsWalker(PlanState *ps, void *context);

/*
 * Link the hash joins at and below ps to their scans; runs_once says
 * whether ps runs once in this execution (JoinRunsOnce of the file header).
 */
static void
LinkJoins(PlanState *ps, bool runs_once)
{
	LinkContext ctx;

	if (IsA(ps, HashJoinState) && colstore_enable_join_filter)
	{
		LinkJoin((HashJoinState *) ps, runs_once);
		SemiJoinDistinctLink((HashJoinState *) ps);
	}
	MergeSkipLink(ps);
	ctx.parent = ps;
	ctx.parent_runs_once = runs_once;
	(void) planstate_tree_walker(ps, LinkJoinsWalker, &ctx);
}

static bool
LinkJoinsWalker(PlanState *ps, void *context)
{
	LinkContext *ctx = (LinkContext *) context;

	if (ps != NULL)
		LinkJoins(ps, ctx->parent_runs_once && ChildRunsOnce(ctx->parent, ps));
	return false;
}

/* ExecutorStart_hook: start the executor, then link the hash joins' filters. */
static void
JoinFilterExecutorStart(QueryDesc *queryDesc, int eflags)
{
	if (prev_ExecutorStart_hook)
		prev_ExecutorStart_hook(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
	if ((colstore_enable_join_filter || colstore_enable_merge_skip) &&
		queryDesc->planstate != NULL)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(queryDesc->estate->es_query_cxt);

		/* a cursor may rewind the whole plan */
		LinkJoins(queryDesc->planstate,
				  (eflags & (EXEC_FLAG_REWIND | EXEC_FLAG_BACKWARD)) == 0);
		MemoryContextSwitchTo(oldcxt);
	}
}

/* Install the executor hook; called from _PG_init. */
void
JoinFilterInit(void)
{
	prev_ExecutorStart_hook = ExecutorStart_hook;
	ExecutorStart_hook = JoinFilterExecutorStart;
}

/* Define colstore.enable_join_filter (from _PG_init). */
void
JoinFilterDefineSettings(void)
{
	DefineCustomBoolVariable("colstore.enable_join_filter",
							 "Enables filtering a hash join's probe-side colstore scan by the keys of its hash table, and dropping repeated rows from the colstore scan that fills a semi or anti join's hash table.",
							 NULL,
							 &colstore_enable_join_filter,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
}
