/*-------------------------------------------------------------------------
 *
 * semi_join_distinct.c
 *	  Dropping repeated rows of the ColstoreScan that fills a semi or anti
 *	  hash join's hash table.
 *
 * A semi join (EXISTS, IN) or anti join (NOT EXISTS) asks of its hash table
 * only whether some row matches an outer row: a row equal in every column
 * to one already in the table can change no answer.  Yet PostgreSQL hashes
 * every inner row; TPC-H Q22 builds a table of all 1,500,000 orders to ask
 * which of 100,000 customers have one.  When the Hash node of a semi or
 * anti HashJoin reads a ColstoreScan directly, the scan drops, a batch at a
 * time after its filters, every row whose values in all the columns the
 * scan's plan reads (target list and quals: so the rows it would return,
 * and the quals' verdicts on them, are the same) equal a row it already
 * returned since its last rescan.  The set of rows returned is kept as a
 * hash set of their values, so only columns of fixed-length pass-by-value
 * types (integers, dates, timestamps, ...; at most DISTINCT_MAX_COLUMNS),
 * compared bit for bit (equal bits are equal values; values that are equal
 * with different bits, such as -0 and 0, are kept both, which is harmless),
 * NULLs included.  Plans whose scan quals or target list call volatile
 * functions, or read a system column (ctid differs between equal rows),
 * are left alone.
 *
 * The link is made after ExecutorStart by join_filter.c's hook, which
 * visits every hash join (SemiJoinDistinctLink), in parallel workers too:
 * each participant of a parallel hash build drops its own repeats.  A rescan of the scan empties the set (the join rebuilds its
 * table).  The set stops growing at work_mem, and a filter that has dropped
 * under a tenth of the first DISTINCT_TRIAL_ROWS rows it tested stops for
 * good: it costs a hash lookup per row.  colstore.enable_join_filter turns
 * it off with the hash join filters.
 *
 * IDENTIFICATION
 *	  src/cscan/semi_join_distinct.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "miscadmin.h"
#include "optimizer/optimizer.h"
#include "utils/memutils.h"

#include "cscan/cscan_exec.h"
#include "cscan/semi_join_distinct.h"
#include "tableam/scan_engine.h"

#define DISTINCT_MAX_COLUMNS	4
/* Rows tested before deciding whether the filter drops enough. */
#define DISTINCT_TRIAL_ROWS		65536

/* One row's values in the columns the filter compares, and their NULLs. */
typedef struct DistinctKey
{
	int64		values[DISTINCT_MAX_COLUMNS];
	uint8		nulls;			/* bit i: column i is NULL */
} DistinctKey;

typedef struct DistinctEntry
{
	DistinctKey key;
	uint32		hash;
	char		status;
} DistinctEntry;

static inline uint32
DistinctKeyHash(const DistinctKey *key)
{
	return hash_bytes((const unsigned char *) key, sizeof(DistinctKey));
}

#define SH_PREFIX		distinct_set
#define SH_ELEMENT_TYPE	DistinctEntry
#define SH_KEY_TYPE		DistinctKey
#define SH_KEY			key
#define SH_HASH_KEY(tb, k)	DistinctKeyHash(&(k))
#define SH_EQUAL(tb, a, b)	(memcmp(&(a), &(b), sizeof(DistinctKey)) == 0)
#define SH_SCOPE		static inline
#define SH_STORE_HASH
#define SH_GET_HASH(tb, a)	((a)->hash)
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

struct DistinctFilter
{
	int			ncolumns;
	int			attnos[DISTINCT_MAX_COLUMNS];	/* 0-based */
	int16		typlens[DISTINCT_MAX_COLUMNS];
	MemoryContext cxt;			/* the set */
	distinct_set_hash *set;
	uint64		max_entries;	/* work_mem's worth */
	bool		full;			/* the set reached max_entries */
	bool		useless;		/* dropped too few rows: off for good */
	uint64		rows_tested;
	uint64		rows_removed;
};

/*
 * DistinctFilterCreate
 *		A filter comparing the columns needed[] marks of a relation
 *		described by desc, or NULL if they are none, more than
 *		DISTINCT_MAX_COLUMNS, or not all of fixed-length pass-by-value types.
 *		Allocated in CurrentMemoryContext.
 */
DistinctFilter *
DistinctFilterCreate(TupleDesc desc, const bool *needed)
{
	DistinctFilter *filter = palloc0(sizeof(DistinctFilter));
	int			att;

	for (att = 0; att < desc->natts; att++)
	{
		Form_pg_attribute a = TupleDescAttr(desc, att);

		if (!needed[att])
			continue;
		if (!a->attbyval || a->attlen <= 0 || a->attlen > 8 ||
			filter->ncolumns == DISTINCT_MAX_COLUMNS)
		{
			pfree(filter);
			return NULL;
		}
		filter->attnos[filter->ncolumns] = att;
		filter->typlens[filter->ncolumns++] = a->attlen;
	}
	if (filter->ncolumns == 0)
	{
		pfree(filter);
		return NULL;
	}
	filter->cxt = AllocSetContextCreate(CurrentMemoryContext, "colstore semi join distinct",
										ALLOCSET_DEFAULT_SIZES);
	filter->max_entries = (uint64) work_mem * 1024 / (sizeof(DistinctEntry) * 2);
	return filter;
}

/* A value of a column of length typlen as an int64, from its Datum. */
static inline int64
ColumnValue(Datum d, int16 typlen)
{
	switch (typlen)
	{
		case 1:
			return (int64) DatumGetChar(d);
		case 2:
			return (int64) DatumGetInt16(d);
		case 4:
			return (int64) DatumGetInt32(d);
		default:
			return DatumGetInt64(d);
	}
}

/*
 * DistinctFilterApply
 *		Clear selected[i] for each of the nrows rows of scan's current batch
 *		whose values equal a row kept before (since the last reset), and
 *		remember the others.
 */
void
DistinctFilterApply(DistinctFilter *filter, TableScanDesc scan, int nrows, bool *selected)
{
	Datum	   *values[DISTINCT_MAX_COLUMNS];
	bool	   *isnull[DISTINCT_MAX_COLUMNS];
	int			c;
	int			i;

	if (filter->useless || filter->full || memchr(selected, true, nrows) == NULL)
		return;
	if (filter->set == NULL)
		filter->set = distinct_set_create(filter->cxt, 1024, NULL);
	for (c = 0; c < filter->ncolumns; c++)
		ColstoreScanBatchColumn(scan, filter->attnos[c], &values[c], &isnull[c]);
	for (i = 0; i < nrows; i++)
	{
		DistinctKey key;
		bool		found;

		if (!selected[i])
			continue;
		memset(&key, 0, sizeof(key));
		for (c = 0; c < filter->ncolumns; c++)
		{
			if (isnull[c][i])
				key.nulls |= (uint8) (1 << c);
			else
				key.values[c] = ColumnValue(values[c][i], filter->typlens[c]);
		}
		filter->rows_tested++;
		(void) distinct_set_insert(filter->set, key, &found);
		if (found)
		{
			selected[i] = false;
			filter->rows_removed++;
		}
		else if (filter->set->members >= filter->max_entries)
		{
			/* the rows kept so far are in the set; later ones all pass */
			filter->full = true;
			break;
		}
	}
	if (filter->rows_tested >= DISTINCT_TRIAL_ROWS &&
		filter->rows_removed < filter->rows_tested / 10)
		filter->useless = true;
}

/* DistinctFilterReset: the scan starts again, so every row may be kept again. */
void
DistinctFilterReset(DistinctFilter *filter)
{
	filter->set = NULL;
	filter->full = false;
	MemoryContextReset(filter->cxt);
}

uint64
DistinctFilterRowsRemoved(const DistinctFilter *filter)
{
	return filter->rows_removed;
}

/*
 * SemiJoinDistinctLink
 *		If hj is a semi or anti join whose Hash node reads a ColstoreScan
 *		directly, have that scan drop repeated rows (ColstoreScanSetDistinct
 *		decides whether the columns it reads allow it).  Called by
 *		join_filter.c's ExecutorStart_hook for each hash join, with the
 *		executor's per-query memory current.
 */
void
SemiJoinDistinctLink(HashJoinState *hj)
{
	PlanState  *hash = innerPlanState(hj);
	PlanState  *scan = hash != NULL ? outerPlanState(hash) : NULL;

	if ((hj->js.jointype == JOIN_SEMI || hj->js.jointype == JOIN_ANTI) &&
		scan != NULL && IsColstoreScanState(scan) &&
		!contain_volatile_functions((Node *) scan->plan->targetlist) &&
		!contain_volatile_functions((Node *) scan->plan->qual))
		ColstoreScanSetDistinct(scan);
}
