/*-------------------------------------------------------------------------
 *
 * index_scan_exec.c
 *	  Executor side of ColstoreIndexScan: an index scan of a colstore
 *	  table that fetches only the columns its plan reads.
 *
 * The node does what PostgreSQL's IndexScan does without ORDER BY
 * operators (nodeIndexscan.c: the scan keys and run-time keys built by
 * ExecIndexBuildScanKeys, evaluated again on each rescan, the index read
 * with index_getnext_tid, lossy matches rechecked against the original
 * quals), but fetches each row with RowFetchIndexed (which follows a heap
 * page's HOT chain from the entry's TID), decoding only the
 * columns its target list, quals and recheck reference (all of them for a
 * whole-row reference; the recheck's columns only for the entries the index
 * AM says need one) instead of the whole row.  Columns of a by-value type
 * that are columns of the index, which can return them (btree), are taken
 * from the index entry instead, as an index-only scan takes them: an
 * equality probe's key (o_orderkey in TPC-H Q9's nested loop) needs no
 * chunk decoded, and a delta-encoded sorted key's random access decodes up
 * to a block of values.  The entry's row has the entry's values in them,
 * HOT chains included (their members share the indexed columns); a lossy
 * entry (xs_recheck) or an AM that gives no index tuple has them fetched.
 * Per fetched row it does
 * what index_fetch_heap and colstore_index_fetch_tuple do: tell the index
 * AM an entry's row is dead to everyone (kill_prior_tuple), take the
 * relation's predicate lock under SERIALIZABLE, count the fetch.
 *
 * EXPLAIN shows the index, its conditions and the columns fetched;
 * EXPLAIN ANALYZE those the index entries gave and the rows the recheck
 * removed, as IndexScan does.
 * Mark/restore and backward scans go to the index AM (the path offers
 * them only where the AM supports them).
 *
 * IDENTIFICATION
 *	  src/cscan/index_scan_exec.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/amapi.h"
#include "access/genam.h"
#include "access/itup.h"
#include "access/relscan.h"
#include "access/sysattr.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "executor/nodeIndexscan.h"
#include "nodes/extensible.h"
#include "optimizer/optimizer.h"
#include "pgstat.h"
#include "storage/predicate.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "cscan/cscan_exec.h"
#include "cscan/index_scan.h"
#include "cscan/unique_probe.h"
#include "mvcc/row_fetch.h"
#include "storage/row_slot.h"
#include "storage/rowgroup_format.h"

typedef struct ColstoreIndexScanState
{
	CustomScanState css;
	Relation	index;
	ScanDirection direction;	/* the plan's, before es_direction */
	ExprState  *indexqualorig;	/* rechecks of lossy matches */
	ScanKey		keys;
	int			nkeys;
	IndexRuntimeKeyInfo *runtime_keys;
	int			nruntime_keys;
	bool		runtime_keys_ready;
	ExprContext *runtime_cxt;	/* where run-time keys are evaluated */
	IndexScanDesc scan;			/* begun on the first fetch */
	bool	   *needed;			/* per attribute: fetched? */
	bool	   *recheck_needed; /* ... when the index asks for a recheck */
	bool	   *row_needed;		/* needed, less those the index returns */
	AttrNumber *index_column;	/* per attribute: index column to take it
								 * from, or 0 */
	bool		from_index;		/* does some attribute come from the index? */
	UniqueProbe *probe;			/* answers equality probes from the row groups
								 * (unique_probe.c), or NULL */
	int			probe_step;		/* PROBE_* of the current (re)scan */
} ColstoreIndexScanState;

/* What the current (re)scan did with the unique probe */
#define PROBE_PENDING	0		/* not tried yet */
#define PROBE_ANSWERED	1		/* returned the row: the scan is done */
#define PROBE_INDEX		2		/* the index answers */

static Node *ColstoreIndexScan_CreateCustomScanState(CustomScan *cscan);
static void ColstoreIndexScan_BeginCustomScan(CustomScanState *node, EState *estate,
											  int eflags);
static TupleTableSlot *ColstoreIndexScan_ExecCustomScan(CustomScanState *node);
static void ColstoreIndexScan_EndCustomScan(CustomScanState *node);
static void ColstoreIndexScan_ReScanCustomScan(CustomScanState *node);
static void ColstoreIndexScan_MarkPosCustomScan(CustomScanState *node);
static void ColstoreIndexScan_RestrPosCustomScan(CustomScanState *node);
static void ColstoreIndexScan_ExplainCustomScan(CustomScanState *node, List *ancestors,
												ExplainState *es);

static const CustomScanMethods ColstoreIndexScanMethods = {
	.CustomName = "ColstoreIndexScan",
	.CreateCustomScanState = ColstoreIndexScan_CreateCustomScanState,
};

static const CustomExecMethods ColstoreIndexScanExecMethods = {
	.CustomName = "ColstoreIndexScan",
	.BeginCustomScan = ColstoreIndexScan_BeginCustomScan,
	.ExecCustomScan = ColstoreIndexScan_ExecCustomScan,
	.EndCustomScan = ColstoreIndexScan_EndCustomScan,
	.ReScanCustomScan = ColstoreIndexScan_ReScanCustomScan,
	.MarkPosCustomScan = ColstoreIndexScan_MarkPosCustomScan,
	.RestrPosCustomScan = ColstoreIndexScan_RestrPosCustomScan,
	.ExplainCustomScan = ColstoreIndexScan_ExplainCustomScan,
};

const CustomScanMethods *
ColstoreIndexScanPlanMethods(void)
{
	return &ColstoreIndexScanMethods;
}

/* Register the node type, so plans can be copied. */
void
ColstoreIndexScanExecInit(void)
{
	RegisterCustomScanMethods(&ColstoreIndexScanMethods);
}

static Node *
ColstoreIndexScan_CreateCustomScanState(CustomScan *cscan)
{
	ColstoreIndexScanState *state = palloc0(sizeof(ColstoreIndexScanState));

	NodeSetTag(state, T_CustomScanState);
	state->css.methods = &ColstoreIndexScanExecMethods;
	return (Node *) state;
}

/*
 * The columns the target list and the quals read, and with recheck those
 * the original index quals read too; a whole-row reference reads them
 * all.  System columns come from the fetch itself (TID, table OID).
 */
static bool *
NeededColumns(CustomScan *cscan, int natts, bool recheck)
{
	Bitmapset  *attrs = NULL;
	bool	   *needed = palloc0(sizeof(bool) * Max(natts, 1));
	bool		whole_row;
	int			i;

	pull_varattnos((Node *) cscan->scan.plan.targetlist, cscan->scan.scanrelid, &attrs);
	pull_varattnos((Node *) cscan->scan.plan.qual, cscan->scan.scanrelid, &attrs);
	if (recheck)
		pull_varattnos((Node *) ColstoreIndexScanIndexQualOrig(cscan),
					   cscan->scan.scanrelid, &attrs);
	whole_row = bms_is_member(InvalidAttrNumber - FirstLowInvalidHeapAttributeNumber,
							  attrs);
	for (i = 0; i < natts; i++)
		needed[i] = whole_row ||
			bms_is_member(i + 1 - FirstLowInvalidHeapAttributeNumber, attrs);
	return needed;
}

/*
 * Which of the needed attributes can come from the index entry: a plain
 * index column (no expression) that the AM can return, of the table
 * column's own by-value type (a pointer into the entry would not outlive
 * the next one).  Only into a slot whose values are its contents (virtual
 * or colstore's), not one that deforms them from a tuple.  Sets
 * index_column, row_needed and from_index.
 */
static void
IndexReturnedColumns(ColstoreIndexScanState *state, TupleDesc desc,
					 TupleTableSlot *slot)
{
	Relation	index = state->index;
	TupleDesc	idesc = RelationGetDescr(index);
	int			natts = desc->natts;
	int			i;

	state->index_column = palloc0(sizeof(AttrNumber) * Max(natts, 1));
	state->row_needed = palloc(sizeof(bool) * Max(natts, 1));
	memcpy(state->row_needed, state->needed, sizeof(bool) * natts);
	state->from_index = false;
	if (index->rd_indam->amcanreturn == NULL ||
		!(TTS_IS_VIRTUAL(slot) || TTS_IS_COLSTORE(slot)))
		return;
	for (i = 0; i < index->rd_index->indnatts; i++)
	{
		AttrNumber	attno = index->rd_index->indkey.values[i];
		Form_pg_attribute attr;

		if (attno <= 0 || attno > natts || !state->needed[attno - 1] ||
			state->index_column[attno - 1] != 0)
			continue;
		attr = TupleDescAttr(desc, attno - 1);
		if (attr->attisdropped || !attr->attbyval ||
			TupleDescAttr(idesc, i)->atttypid != attr->atttypid ||
			!index_can_return(index, i + 1))
			continue;
		state->index_column[attno - 1] = i + 1;
		state->row_needed[attno - 1] = false;
		state->from_index = true;
	}
}

/* Put the index entry's values of the columns taken from it into slot. */
static void
StoreIndexColumns(ColstoreIndexScanState *state, IndexScanDesc scan,
				  TupleTableSlot *slot)
{
	int			natts = slot->tts_tupleDescriptor->natts;
	int			i;

	for (i = 0; i < natts; i++)
		if (state->index_column[i] != 0)
			slot->tts_values[i] = index_getattr(scan->xs_itup, state->index_column[i],
												scan->xs_itupdesc, &slot->tts_isnull[i]);
}

static void
ColstoreIndexScan_BeginCustomScan(CustomScanState *node, EState *estate, int eflags)
{
	ColstoreIndexScanState *state = (ColstoreIndexScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	Relation	rel = node->ss.ss_currentRelation;
	LOCKMODE	lockmode;

	state->direction = ColstoreIndexScanDirection(cscan);
	state->indexqualorig = ExecInitQual(ColstoreIndexScanIndexQualOrig(cscan),
										&node->ss.ps);
	state->needed = NeededColumns(cscan, RelationGetDescr(rel)->natts, false);
	state->recheck_needed = NeededColumns(cscan, RelationGetDescr(rel)->natts, true);
	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;

	lockmode = exec_rt_fetch(cscan->scan.scanrelid, estate)->rellockmode;
	state->index = index_open(ColstoreIndexScanIndexOid(cscan), lockmode);
	IndexReturnedColumns(state, RelationGetDescr(rel), node->ss.ss_ScanTupleSlot);
	ExecIndexBuildScanKeys(&node->ss.ps, state->index,
						   ColstoreIndexScanIndexQual(cscan), false,
						   &state->keys, &state->nkeys,
						   &state->runtime_keys, &state->nruntime_keys,
						   NULL, NULL);
	if (state->nruntime_keys > 0)
		state->runtime_cxt = CreateExprContext(estate);
	state->runtime_keys_ready = false;
	state->probe = UniqueProbeBegin(rel, state->index, state->keys, state->nkeys,
									estate->es_snapshot, eflags);
	state->probe_step = PROBE_PENDING;
}

/*
 * Answer the (re)scan's probe from the row groups if the unique probe can:
 * true with the row in slot, counted as the index's scan and fetch would
 * have been.
 */
static bool
ProbeRowGroups(ColstoreIndexScanState *state, TupleTableSlot *slot)
{
	bool		found;

	found = UniqueProbeFetch(state->probe, &state->keys[0], slot,
							 state->from_index ? state->row_needed : state->needed,
							 state->from_index);
	state->probe_step = found ? PROBE_ANSWERED : PROBE_INDEX;
	if (found)
	{
		pgstat_count_index_scan(state->index);
		pgstat_count_index_tuples(state->index, 1);
		pgstat_count_heap_fetch(state->index);
	}
	return found;
}

/* Evaluate the run-time keys (nestloop parameters and the like). */
static void
EvaluateRuntimeKeys(ColstoreIndexScanState *state)
{
	if (state->nruntime_keys > 0)
	{
		ResetExprContext(state->runtime_cxt);
		ExecIndexEvalRuntimeKeys(state->runtime_cxt, state->runtime_keys,
								 state->nruntime_keys);
	}
	state->runtime_keys_ready = true;
}

/*
 * Fetch the row of scan's current TID into slot if the snapshot sees it,
 * as index_fetch_heap and colstore_index_fetch_tuple would, but with the
 * needed columns only.
 */
static bool
FetchRow(ColstoreIndexScanState *state, IndexScanDesc scan, TupleTableSlot *slot)
{
	Relation	rel = state->css.ss.ss_currentRelation;
	uint64		rownum;
	RowFetchState result;
	bool		index_values = state->from_index && !scan->xs_recheck &&
		scan->xs_itup != NULL;

	if (!ItemPointerToRowNumber(&scan->xs_heaptid, &rownum))
		return false;
	/* the executor's MVCC snapshot sees at most one member of a HOT chain */
	result = RowFetchIndexed(rel, rownum, scan->xs_snapshot, slot,
							 scan->xs_recheck ? state->recheck_needed :
							 index_values ? state->row_needed : state->needed,
							 true, NULL);
	if (!scan->xactStartedInRecovery)
		scan->kill_prior_tuple = (result == ROW_DEAD);
	if (result != ROW_VISIBLE)
		return false;
	if (index_values)
		StoreIndexColumns(state, scan, slot);
	if (IsMVCCSnapshot(scan->xs_snapshot))
		PredicateLockRelation(rel, scan->xs_snapshot);
	pgstat_count_heap_fetch(scan->indexRelation);
	return true;
}

/* ExecScan's access method: the next row the index returns and the snapshot sees. */
static TupleTableSlot *
IndexNextColumns(ScanState *ss)
{
	ColstoreIndexScanState *state = (ColstoreIndexScanState *) ss;
	EState	   *estate = ss->ps.state;
	ExprContext *econtext = ss->ps.ps_ExprContext;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;
	ScanDirection direction = estate->es_direction;
	ItemPointer tid;

	/* a backward plan runs the index backward when the executor runs forward */
	if (ScanDirectionIsBackward(state->direction))
		direction = ScanDirectionIsForward(direction) ? BackwardScanDirection :
			ScanDirectionIsBackward(direction) ? ForwardScanDirection : direction;
	/* a unique key's row found in the row groups is the scan's only row */
	if (state->probe != NULL)
	{
		if (state->probe_step == PROBE_ANSWERED)
			return ExecClearTuple(slot);
		if (state->probe_step == PROBE_PENDING && ProbeRowGroups(state, slot))
			return slot;
	}
	if (state->scan == NULL)
	{
		state->scan = IndexBeginScan(ss->ss_currentRelation, state->index,
									 estate->es_snapshot, state->nkeys, 0);
		state->scan->xs_want_itup = state->from_index;
		index_rescan(state->scan, state->keys, state->nkeys, NULL, 0);
	}
	while ((tid = index_getnext_tid(state->scan, direction)) != NULL)
	{
		CHECK_FOR_INTERRUPTS();
		if (!FetchRow(state, state->scan, slot))
			continue;
		if (state->scan->xs_recheck)
		{
			econtext->ecxt_scantuple = slot;
			if (!ExecQualAndReset(state->indexqualorig, econtext))
			{
				InstrCountFiltered2(state, 1);
				continue;
			}
		}
		return slot;
	}
	return ExecClearTuple(slot);
}

/* EvalPlanQual: does the substituted row satisfy the index conditions? */
static bool
IndexRecheckColumns(ScanState *ss, TupleTableSlot *slot)
{
	ColstoreIndexScanState *state = (ColstoreIndexScanState *) ss;
	ExprContext *econtext = ss->ps.ps_ExprContext;

	econtext->ecxt_scantuple = slot;
	return ExecQualAndReset(state->indexqualorig, econtext);
}

static TupleTableSlot *
ColstoreIndexScan_ExecCustomScan(CustomScanState *node)
{
	ColstoreIndexScanState *state = (ColstoreIndexScanState *) node;

	if (!state->runtime_keys_ready)
		ColstoreIndexScan_ReScanCustomScan(node);
	return ExecScan(&node->ss, IndexNextColumns, IndexRecheckColumns);
}

/* Rescan, with the run-time keys evaluated again (their parameters changed). */
static void
ColstoreIndexScan_ReScanCustomScan(CustomScanState *node)
{
	ColstoreIndexScanState *state = (ColstoreIndexScanState *) node;

	EvaluateRuntimeKeys(state);
	state->probe_step = PROBE_PENDING;
	if (state->scan != NULL)
		index_rescan(state->scan, state->keys, state->nkeys, NULL, 0);
	ExecScanReScan(&node->ss);
}

static void
ColstoreIndexScan_MarkPosCustomScan(CustomScanState *node)
{
	ColstoreIndexScanState *state = (ColstoreIndexScanState *) node;

	if (state->scan != NULL)
		index_markpos(state->scan);
}

static void
ColstoreIndexScan_RestrPosCustomScan(CustomScanState *node)
{
	ColstoreIndexScanState *state = (ColstoreIndexScanState *) node;

	if (state->scan != NULL)
		index_restrpos(state->scan);
}

static void
ColstoreIndexScan_EndCustomScan(CustomScanState *node)
{
	ColstoreIndexScanState *state = (ColstoreIndexScanState *) node;

	if (state->scan != NULL)
		index_endscan(state->scan);
	if (state->index != NULL)
		index_close(state->index, NoLock);
}

/*
 * EXPLAIN: the index ("Index"), its conditions ("Index Cond", as
 * IndexScan shows them), the columns fetched ("Columns"; a recheck
 * adds those of the original index quals), and under ANALYZE those of
 * them taken from the index entries ("Columns From Index") and the rows
 * the recheck removed.
 */
static void
ColstoreIndexScan_ExplainCustomScan(CustomScanState *node, List *ancestors,
									ExplainState *es)
{
	ColstoreIndexScanState *state = (ColstoreIndexScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	TupleDesc	desc = RelationGetDescr(node->ss.ss_currentRelation);
	List	   *columns = NIL;
	char	   *index_name = get_rel_name(ColstoreIndexScanIndexOid(cscan));
	int			i;

	ExplainPropertyText("Index", index_name ? quote_identifier(index_name) : "?", es);
	if (ScanDirectionIsBackward(state->direction))
		ExplainPropertyText("Scan Direction", "Backward", es);
	if (ColstoreIndexScanIndexQualOrig(cscan) != NIL)
		ColstoreExplainClauses("Index Cond", ColstoreIndexScanIndexQualOrig(cscan),
							   node, ancestors, es);
	for (i = 0; i < desc->natts; i++)
		if (state->needed[i] && !TupleDescAttr(desc, i)->attisdropped)
			columns = lappend(columns,
							  pstrdup(quote_identifier(NameStr(TupleDescAttr(desc, i)->attname))));
	if (columns == NIL)
		ExplainPropertyText("Columns", "none", es);
	else
		ExplainPropertyList("Columns", columns, es);
	/* known once the index is open: not for EXPLAIN without ANALYZE */
	if (state->from_index)
	{
		columns = NIL;
		for (i = 0; i < desc->natts; i++)
			if (state->index_column[i] != 0)
				columns = lappend(columns,
								  pstrdup(quote_identifier(NameStr(TupleDescAttr(desc, i)->attname))));
		ExplainPropertyList("Columns From Index", columns, es);
	}
	if (es->analyze && state->probe != NULL && UniqueProbeAnswered(state->probe) > 0)
		ExplainPropertyUInteger("Rows From Row Groups", NULL,
								UniqueProbeAnswered(state->probe), es);
	if (es->analyze && node->ss.ps.instrument != NULL &&
		node->ss.ps.instrument->nfiltered2 > 0)
		ExplainPropertyFloat("Rows Removed by Index Recheck", NULL,
							 node->ss.ps.instrument->nfiltered2 /
							 Max(node->ss.ps.instrument->nloops, 1), 0, es);
}
