/*-------------------------------------------------------------------------
 *
 * key_range_exec.c
 *	  Executor side of the key-range join (ColstoreKeyRangeJoin).
 *
 * The node runs its child, a merge join of two ColstoreScans that each
 * return only the rows whose key lies between two executor parameters
 * (key_range_path.c), once per range of the key: it takes the next range,
 * sets the parameters to its bounds, rescans the child and returns the
 * child's rows until it runs out, then takes the next range.  The planner
 * never sees the scans' use of the parameters (cscan_exec.h), so no plan
 * node under this one lists them among the parameters it depends on: the
 * node marks them changed in every node of its child's tree itself before
 * the rescan, which is what the executor does for nodes that list them, so
 * that no node replays what it kept from the last range (a Materialize
 * over the merge join's inner side would).
 *
 * Parallel query: the node is parallel aware; participants take ranges
 * from an atomic counter in the DSM segment, in ascending order, so each
 * one's rows come out in key order.  Run without a DSM segment (a Gather
 * that got no parallel context), the leader takes every range itself.
 * Rescanning the node starts the ranges again (the Gather above resets the
 * shared counter first).
 *
 * The node is planned only for parallel-safe queries, which have no row
 * marks and never run EvalPlanQual rechecks; the recheck method refuses.
 *
 * IDENTIFICATION
 *	  src/cscan/key_range_exec.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/parallel.h"
#include "access/stratnum.h"
#include "catalog/pg_type.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "nodes/extensible.h"
#include "nodes/nodeFuncs.h"
#include "port/atomics.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

#include "cscan/key_range_join.h"
#include "storage/integer_order.h"

/* Shared by the participants: the next range to take. */
typedef struct KeyRangeShared
{
	pg_atomic_uint32 next_range;
} KeyRangeShared;

typedef struct KeyRangeJoinState
{
	CustomScanState css;
	PlanState  *child;			/* the merge join */
	int			lo_param;
	int			hi_param;
	Oid			key_type;
	int			nsplits;
	int64	   *splits;			/* [nsplits], ascending */
	int64		least;			/* the key type's least and greatest value */
	int64		greatest;
	int			current;		/* range being joined, or -1 */
	Bitmapset  *params;			/* lo_param and hi_param */
	uint32		local_next;		/* next range, without a DSM segment */
	KeyRangeShared *shared;		/* parallel: in the DSM segment */
	int			ranges_joined;	/* by this process, for EXPLAIN ANALYZE */
} KeyRangeJoinState;

static Node *KeyRangeJoin_CreateCustomScanState(CustomScan *cscan);
static void KeyRangeJoin_BeginCustomScan(CustomScanState *node, EState *estate,
										 int eflags);
static TupleTableSlot *KeyRangeJoin_ExecCustomScan(CustomScanState *node);
static void KeyRangeJoin_EndCustomScan(CustomScanState *node);
static void KeyRangeJoin_ReScanCustomScan(CustomScanState *node);
static Size KeyRangeJoin_EstimateDSMCustomScan(CustomScanState *node,
											   ParallelContext *pcxt);
static void KeyRangeJoin_InitializeDSMCustomScan(CustomScanState *node,
												 ParallelContext *pcxt,
												 void *coordinate);
static void KeyRangeJoin_ReInitializeDSMCustomScan(CustomScanState *node,
												   ParallelContext *pcxt,
												   void *coordinate);
static void KeyRangeJoin_InitializeWorkerCustomScan(CustomScanState *node,
													shm_toc *toc,
													void *coordinate);
static void KeyRangeJoin_ExplainCustomScan(CustomScanState *node, List *ancestors,
										   ExplainState *es);

static const CustomScanMethods KeyRangeJoinMethods = {
	.CustomName = "ColstoreKeyRangeJoin",
	.CreateCustomScanState = KeyRangeJoin_CreateCustomScanState,
};

static const CustomExecMethods KeyRangeJoinExecMethods = {
	.CustomName = "ColstoreKeyRangeJoin",
	.BeginCustomScan = KeyRangeJoin_BeginCustomScan,
	.ExecCustomScan = KeyRangeJoin_ExecCustomScan,
	.EndCustomScan = KeyRangeJoin_EndCustomScan,
	.ReScanCustomScan = KeyRangeJoin_ReScanCustomScan,
	.EstimateDSMCustomScan = KeyRangeJoin_EstimateDSMCustomScan,
	.InitializeDSMCustomScan = KeyRangeJoin_InitializeDSMCustomScan,
	.ReInitializeDSMCustomScan = KeyRangeJoin_ReInitializeDSMCustomScan,
	.InitializeWorkerCustomScan = KeyRangeJoin_InitializeWorkerCustomScan,
	.ExplainCustomScan = KeyRangeJoin_ExplainCustomScan,
};

/* Is ps a key-range join's state (join_filter.c traces keys through it)? */
bool
IsKeyRangeJoinState(PlanState *ps)
{
	return IsA(ps, CustomScanState) &&
		((CustomScanState *) ps)->methods == &KeyRangeJoinExecMethods;
}

const CustomScanMethods *
KeyRangeJoinPlanMethods(void)
{
	return &KeyRangeJoinMethods;
}

/* Register the node's methods; called from _PG_init. */
void
KeyRangeJoinExecInit(void)
{
	RegisterCustomScanMethods(&KeyRangeJoinMethods);
}

/*
 * KeyRangeComparisons
 *		The ">=" and "<=" of type's default btree operator family, which the
 *		scans of a key-range join test their range with.  False if type's
 *		datums do not order as signed integers (integer_order.h: ranges are
 *		cut as int64s) or it lacks them.  The planner (key_range_path.c)
 *		offers the join only for key types that have them; the scans
 *		(cscan_exec.c) build their range conditions with them.
 */
bool
KeyRangeComparisons(Oid type, Oid *ge_opno, Oid *le_opno)
{
	TypeCacheEntry *tce;

	if (!TypeHasSignedIntegerOrder(type))
		return false;
	tce = lookup_type_cache(type, TYPECACHE_BTREE_OPFAMILY);
	if (!OidIsValid(tce->btree_opf))
		return false;
	*ge_opno = get_opfamily_member(tce->btree_opf, type, type,
								   BTGreaterEqualStrategyNumber);
	*le_opno = get_opfamily_member(tce->btree_opf, type, type,
								   BTLessEqualStrategyNumber);
	return OidIsValid(*ge_opno) && OidIsValid(*le_opno);
}

static Node *
KeyRangeJoin_CreateCustomScanState(CustomScan *cscan)
{
	KeyRangeJoinState *state = palloc0(sizeof(KeyRangeJoinState));

	NodeSetTag(state, T_CustomScanState);
	state->css.methods = &KeyRangeJoinExecMethods;
	return (Node *) state;
}

static void
KeyRangeJoin_BeginCustomScan(CustomScanState *node, EState *estate, int eflags)
{
	KeyRangeJoinState *state = (KeyRangeJoinState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *private = cscan->custom_private;
	List	   *splits = (List *) list_nth(private, KEY_RANGE_SPLITS);
	ListCell   *lc;
	int			i = 0;

	state->lo_param = intVal(list_nth(private, KEY_RANGE_LO_PARAM));
	state->hi_param = intVal(list_nth(private, KEY_RANGE_HI_PARAM));
	state->key_type = (Oid) intVal(list_nth(private, KEY_RANGE_TYPE));
	SignedIntegerBounds(state->key_type, &state->least, &state->greatest);
	state->nsplits = list_length(splits);
	state->splits = palloc(sizeof(int64) * Max(state->nsplits, 1));
	foreach(lc, splits)
		state->splits[i++] = DatumGetInt64(lfirst_node(Const, lc)->constvalue);
	state->current = -1;
	state->params = bms_make_singleton(state->lo_param);
	state->params = bms_add_member(state->params, state->hi_param);
	state->child = ExecInitNode(linitial(cscan->custom_plans), estate, eflags);
	node->custom_ps = list_make1(state->child);
}

/* Set one of the parameters the child's scans read. */
static void
SetKeyParam(EState *estate, int paramid, Datum value)
{
	ParamExecData *prm = &estate->es_param_exec_vals[paramid];

	prm->execPlan = NULL;
	prm->value = value;
	prm->isnull = false;
}

/* planstate_tree_walker callback: mark the parameters changed in ps and below. */
static bool
MarkParamsChanged(PlanState *ps, void *params)
{
	ps->chgParam = bms_add_members(ps->chgParam, (Bitmapset *) params);
	return planstate_tree_walker(ps, MarkParamsChanged, params);
}

/*
 * Take the next range, if one is left: set the parameters to its bounds
 * and rescan the child.
 */
static bool
TakeRange(KeyRangeJoinState *state)
{
	EState	   *estate = state->css.ss.ps.state;
	uint32		range;
	int64		lo;
	int64		hi;

	if (state->shared != NULL)
		range = pg_atomic_fetch_add_u32(&state->shared->next_range, 1);
	else
		range = state->local_next++;
	if (range > (uint32) state->nsplits)
		return false;
	lo = range == 0 ? state->least : state->splits[range - 1];
	hi = range == state->nsplits ? state->greatest : state->splits[range] - 1;
	SetKeyParam(estate, state->lo_param, SignedIntegerToDatum(state->key_type, lo));
	SetKeyParam(estate, state->hi_param, SignedIntegerToDatum(state->key_type, hi));
	(void) MarkParamsChanged(state->child, state->params);
	ExecReScan(state->child);
	state->current = (int) range;
	state->ranges_joined++;
	return true;
}

/* The child's next row, through the ranges left. */
static TupleTableSlot *
KeyRangeJoinNext(ScanState *ss)
{
	KeyRangeJoinState *state = (KeyRangeJoinState *) ss;

	for (;;)
	{
		TupleTableSlot *slot;

		if (state->current < 0 && !TakeRange(state))
			return NULL;
		slot = ExecProcNode(state->child);
		if (!TupIsNull(slot))
			return slot;
		state->current = -1;
	}
}

/*
 * Never called: the node is planned only in parallel plans, and no plan
 * whose rows are rechecked (UPDATE, DELETE, MERGE, row locks) is parallel.
 */
static bool
KeyRangeJoinRecheck(ScanState *ss, TupleTableSlot *slot)
{
	elog(ERROR, "unexpected recheck of a key-range join row");
	return false;
}

static TupleTableSlot *
KeyRangeJoin_ExecCustomScan(CustomScanState *node)
{
	return ExecScan(&node->ss, (ExecScanAccessMtd) KeyRangeJoinNext,
					(ExecScanRecheckMtd) KeyRangeJoinRecheck);
}

static void
KeyRangeJoin_EndCustomScan(CustomScanState *node)
{
	ExecEndNode(((KeyRangeJoinState *) node)->child);
}

static void
KeyRangeJoin_ReScanCustomScan(CustomScanState *node)
{
	KeyRangeJoinState *state = (KeyRangeJoinState *) node;

	state->current = -1;
	state->local_next = 0;
	ExecScanReScan(&node->ss);
}

static Size
KeyRangeJoin_EstimateDSMCustomScan(CustomScanState *node, ParallelContext *pcxt)
{
	return sizeof(KeyRangeShared);
}

static void
KeyRangeJoin_InitializeDSMCustomScan(CustomScanState *node, ParallelContext *pcxt,
									 void *coordinate)
{
	KeyRangeJoinState *state = (KeyRangeJoinState *) node;

	state->shared = (KeyRangeShared *) coordinate;
	pg_atomic_init_u32(&state->shared->next_range, 0);
}

static void
KeyRangeJoin_ReInitializeDSMCustomScan(CustomScanState *node, ParallelContext *pcxt,
									   void *coordinate)
{
	pg_atomic_write_u32(&((KeyRangeShared *) coordinate)->next_range, 0);
}

static void
KeyRangeJoin_InitializeWorkerCustomScan(CustomScanState *node, shm_toc *toc,
										void *coordinate)
{
	((KeyRangeJoinState *) node)->shared = (KeyRangeShared *) coordinate;
}

static void
KeyRangeJoin_ExplainCustomScan(CustomScanState *node, List *ancestors,
							   ExplainState *es)
{
	KeyRangeJoinState *state = (KeyRangeJoinState *) node;
	List	   *private = ((CustomScan *) node->ss.ps.plan)->custom_private;

	ExplainPropertyText("Range Key", strVal(list_nth(private, KEY_RANGE_LABEL)), es);
	ExplainPropertyInteger("Key Ranges", NULL, state->nsplits + 1, es);
	if (es->analyze && es->verbose)
		ExplainPropertyInteger("Ranges Joined by Leader", NULL, state->ranges_joined, es);
}
