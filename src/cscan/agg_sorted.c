/*-------------------------------------------------------------------------
 *
 * agg_sorted.c
 *	  ColstoreAgg's sorted (streaming) grouping: groups closed as the keys
 *	  change, over a table that holds every grouping column in order.
 *
 * The planner offers this mode (agg_sorted_path.c) when every GROUP BY key
 * is a plain column the table holds in ascending order without NULLs (the
 * ordered ColstoreScan's rule, ordered_path.c).  If each key column is
 * ascending in scan order, the rows are in ascending order of the keys
 * taken together, in any order of the keys, so rows of one group are
 * adjacent: a group ends where a row's keys differ from the previous
 * selected row's.  Keys are compared as agg_groups.c compares them (by
 * datum, by bytes, bpchar without trailing blanks, or through the grouping
 * operator's equality function), which the planner made sure is the
 * equality of the order's btree operator family.
 *
 * Each batch (one chunk, ColstoreScanNextBatch) numbers its groups from 0:
 * group 0 is the group left open by the batches before (its key copied into
 * carry memory), if any.  After the batch is folded (agg_fold.c), all its
 * groups but the last are complete and are returned one by one, in order,
 * before the next batch is read (their keys point into the batch); then the
 * last group's states move to 0, its key is copied, and the next batch
 * continues it.  At the end of the scan the open group is returned.  So
 * groups span batches, chunks and row groups; memory holds one batch's
 * groups, not the table's, and there is no hash table and no hash_mem limit.
 *
 * Rows may arrive between planning and execution, so before the first batch
 * the scan's own row groups are checked for every key column
 * (ColstoreScanReturnsSortedBy: in order, no NULLs, no heap tuples), as the
 * ordered ColstoreScan checks them (scan_order.c).  If any is not in order,
 * the node falls back: it groups the whole table in a hash table as the
 * hashed mode does (agg_groups.c), then returns the groups sorted by the
 * keys (the type's default btree order, the column's collation, NULLs
 * last), which keeps the order the plan promised.  That fallback holds all
 * groups in memory, as the hashed mode does.
 *
 * Serial only: the planner offers no parallel sorted path.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_sorted.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tableam.h"
#include "miscadmin.h"
#include "utils/datum.h"
#include "utils/fmgrprotos.h"
#include "utils/memutils.h"
#include "utils/sortsupport.h"
#include "utils/typcache.h"

#include "cscan/agg_sorted.h"

struct SortedAgg
{
	Relation	rel;
	TableScanDesc scan;			/* NULL once ended */
	ChunkPruner *pruner;
	bool		filtered;		/* the pruner has conditions */
	AggFold    *aggs;
	int			naggs;
	const GroupKeySpec *keys;
	int			nkeys;
	MemoryContext parent;		/* the node's: this struct, batch arrays */
	MemoryContext fold_cxt;		/* states, and the fallback's groups */
	MemoryContext batch_cxt;	/* scratch memory of one batch */
	MemoryContext carry_cxt[2]; /* the open group's key, alternately */
	int			carry_index;	/* the one holding open_key */
	ColstoreScanCounters counters;

	/* batch arrays */
	int			batch_size;
	bool	   *selected;
	uint32	   *row_groups;
	int		   *first_row;		/* [batch_size + 1]: a group's first row */
	int		   *rows;			/* the selected rows' numbers, for the folds */
	Datum	   *values[INDEX_MAX_KEYS]; /* the batch's key columns */
	bool	   *isnull[INDEX_MAX_KEYS];

	/* streaming */
	bool		have_open;		/* some row was grouped: a group is open */
	bool		group0_carried; /* group 0's key is open_key, not a row's */
	Datum		open_key[INDEX_MAX_KEYS];
	bool		open_null[INDEX_MAX_KEYS];
	uint32		last_group;		/* the batch's last (open) group */
	uint32		nclosed;		/* groups 0 .. nclosed - 1 are to return */
	uint32		next_group;		/* the next of them to return */
	bool		done;			/* the scan has ended */

	/* fallback: hash all, then sort */
	bool		fallback;
	GroupTable *table;
	uint32	   *order;			/* groups in key order */
	uint32		norder;
	SortSupport sort_keys;		/* [nkeys] */
};

/* Are two non-NULL values of key spec equal, as agg_groups.c compares them? */
static bool
KeyValuesEqual(const GroupKeySpec *spec, Datum a, Datum b)
{
	struct varlena *va;
	struct varlena *vb;
	const char *da;
	const char *db;
	int32		la;
	int32		lb;

	if (spec->by_function)
		return DatumGetBool(FunctionCall2Coll((FmgrInfo *) &spec->eq_fn,
											  spec->collation, a, b));
	if (spec->byval || a == b)
		return a == b;
	va = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(a));
	vb = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(b));
	da = VARDATA_ANY(va);
	db = VARDATA_ANY(vb);
	la = VARSIZE_ANY_EXHDR(va);
	lb = VARSIZE_ANY_EXHDR(vb);
	if (spec->blank_padded)
	{
		while (la > 0 && da[la - 1] == ' ')
			la--;
		while (lb > 0 && db[lb - 1] == ' ')
			lb--;
	}
	return la == lb && memcmp(da, db, la) == 0;
}

/* Does row i of the batch have the keys of row prev (-1: the open key)? */
static inline bool
SameKeys(SortedAgg *sa, int i, int prev)
{
	int			k;

	for (k = 0; k < sa->nkeys; k++)
	{
		bool		anull = sa->isnull[k][i];
		bool		bnull = prev >= 0 ? sa->isnull[k][prev] : sa->open_null[k];
		Datum		b = prev >= 0 ? sa->values[k][prev] : sa->open_key[k];

		if (anull != bnull)
			return false;
		if (!anull && !KeyValuesEqual(&sa->keys[k], sa->values[k][i], b))
			return false;
	}
	return true;
}

/*
 * Number the selected rows' groups in row_groups: group 0 continues the
 * open group (if any), a new group starts where the keys change.  Sets
 * last_group and first_row.
 */
static void
AssignSortedGroups(SortedAgg *sa, int nrows, const bool *selected)
{
	uint32		g = 0;
	int			prev = -1;
	int			i;

	/* one pass-by-value key compared as a datum: the common case */
	bool		one_datum = sa->nkeys == 1 && sa->keys[0].byval &&
		!sa->keys[0].by_function;

	for (i = 0; i < nrows; i++)
	{
		if (selected != NULL && !selected[i])
			continue;
		if (!sa->have_open)
		{
			sa->have_open = true;
			sa->group0_carried = false;
			sa->first_row[0] = i;
		}
		else if (one_datum && prev >= 0 && !sa->isnull[0][i] && !sa->isnull[0][prev])
		{
			if (sa->values[0][i] != sa->values[0][prev])
				sa->first_row[++g] = i;
		}
		else if (!SameKeys(sa, i, prev))
			sa->first_row[++g] = i;
		sa->row_groups[i] = g;
		prev = i;
	}
	sa->last_group = g;
}

/* Room for a batch of nrows rows in the per-row arrays. */
static void
EnsureBatchArrays(SortedAgg *sa, int nrows)
{
	if (nrows <= sa->batch_size)
		return;
	if (sa->selected != NULL)
	{
		pfree(sa->selected);
		pfree(sa->row_groups);
		pfree(sa->first_row);
		pfree(sa->rows);
	}
	sa->selected = MemoryContextAlloc(sa->parent, nrows);
	sa->rows = MemoryContextAlloc(sa->parent, sizeof(int) * nrows);
	sa->row_groups = MemoryContextAlloc(sa->parent, sizeof(uint32) * nrows);
	sa->first_row = MemoryContextAlloc(sa->parent, sizeof(int) * (nrows + 1));
	sa->batch_size = nrows;
}

/*
 * Read the next batch that has a selected row, mark its selected rows
 * (deleted rows and the conditions), and read its key columns; returns its
 * row count and *selected (NULL: every row), or -1 at the end of the scan.
 */
static int
ReadBatch(SortedAgg *sa, const bool **selected)
{
	TupleDesc	desc = RelationGetDescr(sa->rel);
	int			nrows;
	int			k;

	while ((nrows = ColstoreScanNextBatch(sa->scan, desc)) >= 0)
	{
		bool		select;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(sa->batch_cxt);
		EnsureBatchArrays(sa, nrows);
		/* deleted rows are in the batch but not returned by the scan */
		select = ColstoreScanBatchSelect(sa->scan, sa->selected);
		if (sa->filtered)
		{
			if (!select)
				memset(sa->selected, true, nrows);
			ChunkPrunerFilterRows(sa->pruner, sa->scan, nrows, sa->selected);
			select = true;
		}
		if (select && memchr(sa->selected, true, nrows) == NULL)
			continue;
		for (k = 0; k < sa->nkeys; k++)
			ColstoreScanBatchColumn(sa->scan, sa->keys[k].attno, &sa->values[k],
									&sa->isnull[k]);
		*selected = select ? sa->selected : NULL;
		return nrows;
	}
	return -1;
}

/*
 * Batch numbers of the folds (NumericFoldRows.batchno): equal numeric
 * subexpressions of the aggregates keep their result for one batch number,
 * so a number is never given twice in a backend, across rescans and nodes.
 */
static uint64 SortedAggBatchNo = 0;

/*
 * Fold the batch's selected rows (all if selected is NULL) into the
 * aggregates' states of their groups (AggFoldBatchAll, as agg_exec.c folds
 * a batch).
 */
static void
FoldBatch(SortedAgg *sa, int nrows, const bool *selected, const uint32 *groups,
		  uint32 ngroups)
{
	NumericFoldRows fr;
	int			i;

	memset(&fr, 0, sizeof(fr));
	fr.groups = groups;
	fr.ngroups = ngroups;
	fr.batchno = ++SortedAggBatchNo;
	if (selected == NULL)
		fr.nsel = nrows;
	else
	{
		for (i = 0; i < nrows; i++)
		{
			sa->rows[fr.nsel] = i;
			fr.nsel += selected[i];
		}
		fr.rows = sa->rows;
	}
	AggFoldBatchAll(sa->aggs, sa->naggs, sa->scan, nrows, selected, &fr);
}

/* Move an aggregate's state of group from to group 0; zero 1 .. from. */
static void
MoveState(AggFold *agg, uint32 from)
{
#define MOVE(array) \
	do { \
		(array)[0] = (array)[from]; \
		memset(&(array)[1], 0, sizeof((array)[0]) * from); \
	} while (0)

	Assert(from < agg->nstates);
	switch (agg->states)
	{
		case AGG_STATES_INT:
			MOVE(agg->ints);
			break;
		case AGG_STATES_NUMERIC:
			MOVE(agg->numerics);
			break;
		case AGG_STATES_FLOAT:
			MOVE(agg->floats);
			break;
		case AGG_STATES_COMPARE:
			MOVE(agg->compares);
			break;
	}
#undef MOVE
}

/*
 * After a batch's complete groups were returned: the open (last) group
 * becomes group 0, its key copied out of the batch before the next one.
 */
static void
CarryOpenGroup(SortedAgg *sa)
{
	uint32		last = sa->last_group;
	int			k;

	if (!sa->have_open)
		return;
	if (last > 0 || !sa->group0_carried)
	{
		int			row = sa->first_row[last];
		MemoryContext cxt = sa->carry_cxt[1 - sa->carry_index];

		/* the other context held a key returned before the last one */
		MemoryContextReset(cxt);
		for (k = 0; k < sa->nkeys; k++)
		{
			sa->open_null[k] = sa->isnull[k][row];
			sa->open_key[k] = sa->open_null[k] ? (Datum) 0 :
				datumCopy(sa->values[k][row], sa->keys[k].byval,
						  sa->keys[k].byval ? sizeof(Datum) : -1);
		}
		sa->carry_index = 1 - sa->carry_index;
		sa->group0_carried = true;
	}
	if (last > 0)
	{
		int			i;

		for (i = 0; i < sa->naggs; i++)
			MoveState(&sa->aggs[i], last);
	}
	sa->last_group = 0;
}

/* The key values of group g of the current batch. */
static void
GroupKeys(SortedAgg *sa, uint32 g, Datum *values, bool *nulls)
{
	int			k;

	for (k = 0; k < sa->nkeys; k++)
	{
		if (g == 0 && sa->group0_carried)
		{
			values[k] = sa->open_key[k];
			nulls[k] = sa->open_null[k];
		}
		else
		{
			values[k] = sa->values[k][sa->first_row[g]];
			nulls[k] = sa->isnull[k][sa->first_row[g]];
		}
	}
}

/* The scan is over: keep its counters and end it. */
static void
EndScan(SortedAgg *sa)
{
	if (sa->scan == NULL)
		return;
	ColstoreScanAddCounters(sa->scan, &sa->counters);
	table_endscan(sa->scan);
	sa->scan = NULL;
}

/* qsort_arg comparator of the fallback: groups by their keys. */
static int
CompareGroups(const void *a, const void *b, void *arg)
{
	SortedAgg  *sa = (SortedAgg *) arg;
	uint32		ga = *(const uint32 *) a;
	uint32		gb = *(const uint32 *) b;
	int			k;

	for (k = 0; k < sa->nkeys; k++)
	{
		bool		na;
		bool		nb;
		Datum		va = GroupTableKey(sa->table, ga, k, &na);
		Datum		vb = GroupTableKey(sa->table, gb, k, &nb);
		int			c = ApplySortComparator(va, na, vb, nb, &sa->sort_keys[k]);

		if (c != 0)
			return c;
	}
	return 0;
}

/*
 * The fallback: every batch into a hash table of all groups (as the hashed
 * mode groups), then the groups sorted by their keys.
 */
static void
HashAndSort(SortedAgg *sa)
{
	TupleDesc	desc = RelationGetDescr(sa->rel);
	MemoryContext old;
	const bool *selected;
	uint32		g;
	int			nrows;
	int			k;

	old = MemoryContextSwitchTo(sa->fold_cxt);
	sa->table = GroupTableCreate(sa->nkeys, sa->keys);
	sa->sort_keys = palloc0(sizeof(SortSupportData) * sa->nkeys);
	for (k = 0; k < sa->nkeys; k++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, sa->keys[k].attno);
		TypeCacheEntry *tce = lookup_type_cache(att->atttypid, TYPECACHE_LT_OPR);

		if (!OidIsValid(tce->lt_opr))
			elog(ERROR, "could not find ordering operator for type %u", att->atttypid);
		sa->sort_keys[k].ssup_cxt = CurrentMemoryContext;
		sa->sort_keys[k].ssup_collation = att->attcollation;
		sa->sort_keys[k].ssup_nulls_first = false;
		PrepareSortSupportFromOrderingOp(tce->lt_opr, &sa->sort_keys[k]);
	}
	MemoryContextSwitchTo(old);
	while ((nrows = ReadBatch(sa, &selected)) >= 0)
	{
		old = MemoryContextSwitchTo(sa->batch_cxt);
		GroupTableAssign(sa->table, nrows, sa->values, sa->isnull, selected,
						 sa->row_groups);
		FoldBatch(sa, nrows, selected, sa->row_groups, GroupTableSize(sa->table));
		MemoryContextSwitchTo(old);
	}
	MemoryContextReset(sa->batch_cxt);
	EndScan(sa);
	sa->norder = GroupTableSize(sa->table);
	sa->order = MemoryContextAllocHuge(sa->fold_cxt, sizeof(uint32) * Max(sa->norder, 1));
	for (g = 0; g < sa->norder; g++)
		sa->order[g] = g;
	qsort_arg(sa->order, sa->norder, sizeof(uint32), CompareGroups, sa);
	sa->next_group = 0;
}

/*
 * SortedAggBegin
 *		Start the scan (serial, with the node's snapshot and conditions),
 *		reset the aggregates' states, and decide between streaming and the
 *		fallback (the scan's row groups checked for every key column).
 *		Memory lives under parent; the caller evaluated nothing yet.
 */
SortedAgg *
SortedAggBegin(Relation rel, Snapshot snapshot, ChunkPruner *pruner,
			   ExprContext *econtext, AggFold *aggs, int naggs,
			   const GroupKeySpec *keys, int nkeys, MemoryContext parent)
{
	SortedAgg  *sa = MemoryContextAllocZero(parent, sizeof(SortedAgg));
	MemoryContext old;
	int			i;

	Assert(nkeys > 0 && nkeys <= INDEX_MAX_KEYS);
	sa->rel = rel;
	sa->parent = parent;
	sa->pruner = pruner;
	sa->filtered = ChunkPrunerNumKeys(pruner) > 0;
	sa->aggs = aggs;
	sa->naggs = naggs;
	sa->keys = keys;
	sa->nkeys = nkeys;
	sa->fold_cxt = AllocSetContextCreate(parent, "ColstoreAgg sorted",
										 ALLOCSET_DEFAULT_SIZES);
	sa->batch_cxt = AllocSetContextCreate(parent, "ColstoreAgg sorted batch",
										  ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < 2; i++)
		sa->carry_cxt[i] = AllocSetContextCreate(parent, "ColstoreAgg sorted key",
												 ALLOCSET_SMALL_SIZES);
	for (i = 0; i < naggs; i++)
		AggFoldReset(&aggs[i], sa->fold_cxt);
	ChunkPrunerEvaluate(pruner, econtext);
	for (i = 0; i < naggs; i++)
	{
		if (aggs[i].filter != NULL)
			ChunkPrunerEvaluate(aggs[i].filter, econtext);
	}
	/* the scan lives across calls: in the node's memory */
	old = MemoryContextSwitchTo(parent);
	sa->scan = table_beginscan(rel, snapshot, 0, NULL);
	ColstoreScanConfigure(sa->scan, NULL, 0, sa->filtered ? ChunkPrunerRefutes : NULL,
						  pruner);
	for (i = 0; i < nkeys && !sa->fallback; i++)
		sa->fallback = !ColstoreScanReturnsSortedBy(sa->scan, keys[i].attno);
	MemoryContextSwitchTo(old);
	if (sa->fallback)
		HashAndSort(sa);
	return sa;
}

/*
 * SortedAggNext
 *		The next group in key order: its number for AggFoldResult and its
 *		key values (valid until the next call); false after the last.
 */
bool
SortedAggNext(SortedAgg *sa, uint32 *group, Datum *key_values, bool *key_nulls)
{
	if (sa->fallback)
	{
		int			k;

		if (sa->next_group >= sa->norder)
			return false;
		*group = sa->order[sa->next_group++];
		for (k = 0; k < sa->nkeys; k++)
			key_values[k] = GroupTableKey(sa->table, *group, k, &key_nulls[k]);
		return true;
	}
	for (;;)
	{
		const bool *selected;
		MemoryContext old;
		int			nrows;

		if (sa->next_group < sa->nclosed)
		{
			*group = sa->next_group++;
			GroupKeys(sa, *group, key_values, key_nulls);
			return true;
		}
		if (sa->done)
			return false;
		CarryOpenGroup(sa);
		nrows = ReadBatch(sa, &selected);
		if (nrows < 0)
		{
			/* the open group, if any, is complete: group 0, its key carried */
			MemoryContextReset(sa->batch_cxt);
			EndScan(sa);
			sa->done = true;
			sa->nclosed = sa->have_open ? 1 : 0;
			sa->next_group = 0;
			continue;
		}
		old = MemoryContextSwitchTo(sa->batch_cxt);
		AssignSortedGroups(sa, nrows, selected);
		FoldBatch(sa, nrows, selected, sa->row_groups, sa->last_group + 1);
		MemoryContextSwitchTo(old);
		/* all but the last group are complete */
		sa->nclosed = sa->last_group;
		sa->next_group = 0;
	}
}

/* Did the scan's row groups fail the order check (EXPLAIN ANALYZE)? */
bool
SortedAggFellBack(const SortedAgg *sa)
{
	return sa->fallback;
}

/*
 * SortedAggAddCounters
 *		Add the scan's row group and chunk counts so far to *counters (for
 *		EXPLAIN ANALYZE, which prints before the node ends).
 */
void
SortedAggAddCounters(const SortedAgg *sa, ColstoreScanCounters *counters)
{
	ColstoreScanCounters c = sa->counters;

	if (sa->scan != NULL)
		ColstoreScanAddCounters(sa->scan, &c);
	counters->groups_read += c.groups_read;
	counters->groups_skipped += c.groups_skipped;
	counters->chunks_read += c.chunks_read;
	counters->chunks_skipped += c.chunks_skipped;
}

/*
 * SortedAggEnd
 *		End the scan if it is still open (a LIMIT, a rescan), add its
 *		counters to *counters and free the memory.
 */
void
SortedAggEnd(SortedAgg *sa, ColstoreScanCounters *counters)
{
	int			i;

	EndScan(sa);
	SortedAggAddCounters(sa, counters);
	MemoryContextDelete(sa->fold_cxt);
	MemoryContextDelete(sa->batch_cxt);
	for (i = 0; i < 2; i++)
		MemoryContextDelete(sa->carry_cxt[i]);
	if (sa->selected != NULL)
	{
		pfree(sa->selected);
		pfree(sa->row_groups);
		pfree(sa->first_row);
	}
	pfree(sa);
}
