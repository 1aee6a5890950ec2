/*-------------------------------------------------------------------------
 *
 * agg_fold.c
 *	  ColstoreAgg's aggregates: per-group states folded from batches.
 *
 * Each aggregate keeps one state per group and folds the selected rows of
 * a batch (decoded column arrays of one chunk) into the states of their
 * groups:
 *
 *	count(*)		rows
 *	count(col)		rows whose value is not NULL; without conditions or
 *					grouping, the chunk's row count minus the header's NULL
 *					count, with no decoding
 *	sum(int2/int4)	int128 accumulator, result bigint; "bigint out of range"
 *					if it does not fit, where PostgreSQL's serial int4_sum
 *					would wrap around silently (it takes over four billion
 *					rows of large values to get there)
 *	sum(int8)		int128 accumulator, result numeric
 *	avg(int2/4/8)	int128 sum and count, result numeric_div(sum, count),
 *					as int8_avg and numeric_poly_avg compute it
 *	sum/avg(numeric) NumericSum (numeric_sum.c): exact, with PostgreSQL's
 *					display scale and NaN/infinity rules; the argument may
 *					be arithmetic over numeric columns (numeric_expr.c)
 *	min/max			int2, int4, int8, date, time, timestamp, timestamptz as
 *					signed integers (their datums' order)
 *	float4/float8	sum, avg, min, max as PostgreSQL's transition functions
 *					compute them, value after value (agg_float.c)
 *	min/max			numeric, text, varchar, char(n) by the type's comparison
 *					function, as their transition functions pick
 *					(agg_compare.c)
 *
 * Results are what Agg returns for the same rows: 0 for counts and NULL for
 * the others when a group saw no values.  Values of one group are folded in
 * row order; for integers and exact numerics the order does not matter, and
 * floats are folded in the order PostgreSQL's Agg would see them.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_fold.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/date.h"
#include "utils/fmgrprotos.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

#include "cscan/agg_fold.h"
#include "cscan/chunk_pruning.h"
#include "storage/integer_order.h"
#include "tableam/scan_engine.h"

/* Forget every state; later states are allocated in cxt. */
void
AggFoldReset(AggFold *agg, MemoryContext cxt)
{
	agg->cxt = cxt;
	agg->batch_cxt = NULL;		/* was a child of cxt, which was reset */
	agg->filter_mask = NULL;	/* was in cxt */
	agg->filter_mask_size = 0;
	agg->rows = NULL;			/* was in cxt */
	agg->rows_size = 0;
	agg->nstates = 0;
	agg->ints = NULL;
	agg->numerics = NULL;
	agg->floats = NULL;
	agg->compares = NULL;
	if (agg->compare != NULL)
		agg->states = AGG_STATES_COMPARE;
	else if (agg->kind == COLSTORE_AGG_COUNT || agg->kind == COLSTORE_AGG_COUNT_STAR)
		agg->states = AGG_STATES_INT;
	else if (agg->type == FLOAT4OID || agg->type == FLOAT8OID)
		agg->states = AGG_STATES_FLOAT;
	else if (agg->type == NUMERICOID)
		agg->states = AGG_STATES_NUMERIC;
	else
		agg->states = AGG_STATES_INT;
}

/* Grow *array of elements of size bytes from nstates to n, zeroing the new ones. */
static void
GrowStates(void **array, Size size, uint32 nstates, uint32 n, MemoryContext cxt)
{
	*array = *array == NULL ? MemoryContextAllocHuge(cxt, size * n) :
		repalloc_huge(*array, size * n);
	memset((char *) *array + size * nstates, 0, size * (n - nstates));
}

/* Make sure groups 0 .. ngroups - 1 have (zeroed) states. */
static void
EnsureStates(AggFold *agg, uint32 ngroups)
{
	uint32		n;

	if (ngroups <= agg->nstates)
		return;
	n = Max(ngroups, Max(agg->nstates * 2, 16));
	switch (agg->states)
	{
		case AGG_STATES_COMPARE:
			GrowStates((void **) &agg->compares, sizeof(AggCompareState), agg->nstates, n,
					   agg->cxt);
			break;
		case AGG_STATES_FLOAT:
			GrowStates((void **) &agg->floats, sizeof(AggFloatState), agg->nstates, n,
					   agg->cxt);
			break;
		case AGG_STATES_NUMERIC:
			GrowStates((void **) &agg->numerics, sizeof(NumericSum), agg->nstates, n,
					   agg->cxt);
			break;
		case AGG_STATES_INT:
			GrowStates((void **) &agg->ints, sizeof(AggIntState), agg->nstates, n, agg->cxt);
			break;
	}
	agg->nstates = n;
}

/*
 * Sum, minimum and maximum of all nrows values of a batch without NULLs
 * into one state: the common ungrouped case, in a loop per type that the
 * compiler can unroll.
 */
#define FOLD_ALL(GET) \
	do { \
		int64		lo = GET(values[0]); \
		int64		hi = lo; \
		for (i = 0; i < nrows; i++) \
		{ \
			int64		v = GET(values[i]); \
			sum += v; \
			lo = Min(lo, v); \
			hi = Max(hi, v); \
		} \
		min = lo; \
		max = hi; \
	} while (0)

static void
FoldAllValues(AggFold *agg, AggIntState *state, const Datum *values, int nrows)
{
	int128		sum = 0;
	int64		min;
	int64		max;
	int			i;

	switch (agg->type)
	{
		case INT2OID:
			FOLD_ALL(DatumGetInt16);
			break;
		case INT4OID:
			FOLD_ALL(DatumGetInt32);
			break;
		case DATEOID:
			FOLD_ALL(DatumGetDateADT);
			break;
		default:
			FOLD_ALL(DatumGetInt64);
			break;
	}
	if (agg->kind == COLSTORE_AGG_SUM || agg->kind == COLSTORE_AGG_AVG)
		state->sum += sum;
	else if (agg->kind == COLSTORE_AGG_MIN)
		state->minmax = state->count == 0 ? min : Min(state->minmax, min);
	else
		state->minmax = state->count == 0 ? max : Max(state->minmax, max);
	state->count += nrows;
}

/* Fold one non-null integer value into a state. */
static inline void
FoldInteger(AggFold *agg, AggIntState *state, int64 v)
{
	state->count++;
	switch (agg->kind)
	{
		case COLSTORE_AGG_SUM:
		case COLSTORE_AGG_AVG:
			state->sum += v;
			break;
		case COLSTORE_AGG_MIN:
			if (state->count == 1 || v < state->minmax)
				state->minmax = v;
			break;
		case COLSTORE_AGG_MAX:
			if (state->count == 1 || v > state->minmax)
				state->minmax = v;
			break;
		default:
			break;
	}
}

/*
 * AggFoldRowList
 *		The row list of a batch's selection: rows[0 .. *nsel - 1], ascending,
 *		in the aggregate's memory until the next call; NULL (and *nsel =
 *		nrows) for every row (selected NULL).
 */
const int  *
AggFoldRowList(AggFold *agg, int nrows, const bool *selected, int *nsel)
{
	int			n = 0;
	int			i;

	*nsel = nrows;
	if (selected == NULL)
		return NULL;
	if (nrows > agg->rows_size)
	{
		if (agg->rows != NULL)
			pfree(agg->rows);
		agg->rows = MemoryContextAlloc(agg->cxt, sizeof(int) * nrows);
		agg->rows_size = nrows;
	}
	for (i = 0; i < nrows; i++)
	{
		agg->rows[n] = i;
		n += selected[i];
	}
	*nsel = n;
	return agg->rows;
}

/*
 * Fold a numeric column stored in the scaled-integer encoding without
 * building numerics (few selected rows are read alone, not the chunk
 * decoded); false if the batch's chunk is in another form.
 */
static bool
FoldScaledNumerics(AggFold *agg, TableScanDesc scan, const NumericFoldRows *fr)
{
	ColstoreScaledValues sv;

	if (!ColstoreScanBatchScaledRows(scan, agg->attno, fr->rows, fr->nsel,
									 fr->nsel, &sv))
		return false;
	NumericSumFoldInt64(agg->numerics, fr, sv.values, sv.dscales, 0,
						sv.nonull ? NULL : sv.isnull, sv.scale, agg->cxt);
	return true;
}

/*
 * Fold the values of the aggregate's numeric expression over a batch.  The
 * selected rows are listed first, so that few selected rows cost little.
 */
static void
FoldNumericExpr(AggFold *agg, TableScanDesc scan, int nrows,
				const NumericFoldRows *fr)
{
	NumericBatch batch;
	MemoryContext old;
	const int  *rows = fr->rows;
	int			i;
	int			j;

	if (agg->batch_cxt == NULL)
		agg->batch_cxt = AllocSetContextCreate(agg->cxt, "ColstoreAgg expression",
											   ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(agg->batch_cxt);
	NumericExprEvaluate(agg->expr, scan, nrows, rows, fr->nsel, fr->batchno,
						&batch);
	MemoryContextSwitchTo(old);
	if (batch.values64 != NULL)
		NumericSumFoldInt64(agg->numerics, fr, batch.values64, NULL,
							batch.dscale, batch.isnull, batch.scale, agg->cxt);
	else
	{
		for (j = 0; j < fr->nsel; j++)
		{
			NumericSum *acc;

			i = rows != NULL ? rows[j] : j;
			if (batch.isnull[i])
				continue;
			acc = &agg->numerics[fr->groups != NULL ? fr->groups[i] : 0];
			if (batch.datums != NULL)
				NumericSumAdd(acc, batch.datums[i], agg->cxt);
			else
				NumericSumAddScaled(acc, batch.values[i], batch.scale,
									batch.dscales[i], agg->cxt);
		}
	}
	MemoryContextReset(agg->batch_cxt);
}

/*
 * Fold a batch into min or max states kept by comparison; the comparisons'
 * allocations (detoasting) go to a per-batch context.
 */
static void
FoldCompared(AggFold *agg, TableScanDesc scan, int nrows, const bool *selected,
			 const uint32 *groups)
{
	Datum	   *values;
	bool	   *isnull;
	MemoryContext old;
	int			i;

	if (agg->batch_cxt == NULL)
		agg->batch_cxt = AllocSetContextCreate(agg->cxt, "ColstoreAgg comparisons",
											   ALLOCSET_DEFAULT_SIZES);
	ColstoreScanBatchColumn(scan, agg->attno, &values, &isnull);
	old = MemoryContextSwitchTo(agg->batch_cxt);
	for (i = 0; i < nrows; i++)
	{
		if ((selected != NULL && !selected[i]) || isnull[i])
			continue;
		AggCompareAdd(agg->compare, &agg->compares[groups != NULL ? groups[i] : 0],
					  values[i], agg->cxt);
	}
	MemoryContextSwitchTo(old);
	MemoryContextReset(agg->batch_cxt);
}

/*
 * AggFoldBatch
 *		Fold the rows of the scan's current batch (nrows rows) that selected
 *		marks (all if NULL) into the states of their groups: groups[i] for
 *		row i, or group 0 for every row if groups is NULL, where
 *		groups = batch->groups; batch->ngroups is the number of groups there
 *		are so far.  batch's row list and rows by group describe selected
 *		(all rows if NULL), unless batch->rows is NULL while selected is not
 *		(a FILTER's mask): then the row list is made here.
 */
void
AggFoldBatch(AggFold *agg, TableScanDesc scan, int nrows, const bool *selected,
			 const NumericFoldRows *batch)
{
	NumericFoldRows fr = *batch;
	const uint32 *groups = batch->groups;
	const int  *rows;
	int			nsel;
	Datum	   *values;
	bool	   *isnull;
	int			i;

	EnsureStates(agg, Max(batch->ngroups, 1));
	if (selected == NULL)
	{
		fr.rows = NULL;
		fr.nsel = nrows;
	}
	else if (fr.rows == NULL)
	{
		fr.rows = AggFoldRowList(agg, nrows, selected, &fr.nsel);
		fr.by_group = NULL;
		fr.group_start = NULL;
	}
	fr.ngroups = Max(fr.ngroups, 1);
	rows = fr.rows;
	nsel = fr.nsel;
#define ROW_SKIPPED(i) (selected != NULL && !selected[i])
#define ROW_GROUP(i) (groups != NULL ? groups[i] : 0)
	if (agg->expr != NULL)
	{
		FoldNumericExpr(agg, scan, nrows, &fr);
		return;
	}
	if (agg->kind == COLSTORE_AGG_COUNT_STAR)
	{
		/* groups[i] is unset for rows not selected: never read it there */
		if (groups == NULL)
			agg->ints[0].count += nsel;
		else if (fr.by_group != NULL)
		{
			uint32		g;

			for (g = 0; g < fr.ngroups; g++)
				agg->ints[g].count += fr.group_start[g + 1] - fr.group_start[g];
		}
		else
		{
			int			j;

			for (j = 0; j < nsel; j++)
				agg->ints[groups[rows != NULL ? rows[j] : j]].count++;
		}
		return;
	}
	if (agg->kind == COLSTORE_AGG_COUNT && selected == NULL && groups == NULL)
	{
		int			nulls = ColstoreScanBatchNulls(scan, agg->attno);

		if (nulls >= 0)
		{
			agg->ints[0].count += nrows - nulls;
			return;
		}
	}
	if (agg->states == AGG_STATES_COMPARE)
	{
		FoldCompared(agg, scan, nrows, selected, groups);
		return;
	}
	if (agg->states == AGG_STATES_NUMERIC &&
		FoldScaledNumerics(agg, scan, &fr))
		return;
	ColstoreScanBatchColumn(scan, agg->attno, &values, &isnull);
	if (agg->kind == COLSTORE_AGG_COUNT)
	{
		for (i = 0; i < nrows; i++)
		{
			if (!(ROW_SKIPPED(i) || isnull[i]))
				agg->ints[ROW_GROUP(i)].count++;
		}
		return;
	}
	if (agg->states == AGG_STATES_NUMERIC)
	{
		for (i = 0; i < nrows; i++)
		{
			if (!(ROW_SKIPPED(i) || isnull[i]))
				NumericSumAdd(&agg->numerics[ROW_GROUP(i)], values[i], agg->cxt);
		}
		return;
	}
	if (agg->states == AGG_STATES_FLOAT)
	{
		bool		is_float4 = agg->type == FLOAT4OID;

		for (i = 0; i < nrows; i++)
		{
			if (!(ROW_SKIPPED(i) || isnull[i]))
				AggFloatAdd(agg->kind, agg->type, &agg->floats[ROW_GROUP(i)],
							is_float4 ? (double) DatumGetFloat4(values[i]) :
							DatumGetFloat8(values[i]));
		}
		return;
	}
	if (selected == NULL && groups == NULL && nrows > 0 &&
		ColstoreScanBatchNulls(scan, agg->attno) == 0)
	{
		FoldAllValues(agg, &agg->ints[0], values, nrows);
		return;
	}
	for (i = 0; i < nrows; i++)
	{
		if (!(ROW_SKIPPED(i) || isnull[i]))
			FoldInteger(agg, &agg->ints[ROW_GROUP(i)],
						SignedIntegerDatum(agg->type, values[i]));
	}
#undef ROW_SKIPPED
#undef ROW_GROUP
}

/* The aggregate's result for a group, as Agg would return it. */
Datum
AggFoldResult(AggFold *agg, uint32 group, bool *isnull)
{
	AggIntState empty = {0};
	AggIntState *state;

	*isnull = false;
	if (agg->states == AGG_STATES_COMPARE)
	{
		*isnull = group >= agg->nstates || !agg->compares[group].set;
		return *isnull ? (Datum) 0 : agg->compares[group].value;
	}
	if (agg->states == AGG_STATES_FLOAT)
	{
		AggFloatState none = {0};

		return AggFloatResult(agg->kind, agg->type,
							  group < agg->nstates ? &agg->floats[group] : &none, isnull);
	}
	if (agg->states == AGG_STATES_NUMERIC)
	{
		NumericSum	none = {0};
		NumericSum *acc = group < agg->nstates ? &agg->numerics[group] : &none;

		if (agg->kind == COLSTORE_AGG_AVG)
			return NumericAvgResult(acc, isnull);
		return NumericSumResult(acc, isnull);
	}
	state = group < agg->nstates ? &agg->ints[group] : &empty;
	switch (agg->kind)
	{
		case COLSTORE_AGG_COUNT_STAR:
		case COLSTORE_AGG_COUNT:
			return Int64GetDatum(state->count);
		case COLSTORE_AGG_SUM:
			if (state->count == 0)
				break;
			if (agg->type == INT8OID)
				return Int128GetNumeric(state->sum);
			if (state->sum < PG_INT64_MIN || state->sum > PG_INT64_MAX)
				ereport(ERROR,
						(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						 errmsg("bigint out of range")));
			return Int64GetDatum((int64) state->sum);
		case COLSTORE_AGG_AVG:
			if (state->count == 0)
				break;
			return DirectFunctionCall2(numeric_div, Int128GetNumeric(state->sum),
									   NumericGetDatum(int64_to_numeric(state->count)));
		case COLSTORE_AGG_MIN:
		case COLSTORE_AGG_MAX:
			if (state->count == 0)
				break;
			return SignedIntegerToDatum(agg->type, state->minmax);
		case COLSTORE_AGG_NONE:
			break;
	}
	*isnull = true;
	return (Datum) 0;
}

/*
 * AggFoldSerialize
 *		Append the state of group to buf, for AggFoldMerge in another
 *		process (parallel ColstoreAgg).
 */
void
AggFoldSerialize(AggFold *agg, uint32 group, StringInfo buf)
{
	if (agg->states == AGG_STATES_COMPARE)
	{
		AggCompareState none = {0};

		AggCompareSerialize(agg->compare,
							group < agg->nstates ? &agg->compares[group] : &none, buf);
	}
	else if (agg->states == AGG_STATES_FLOAT)
	{
		AggFloatState state = {0};

		if (group < agg->nstates)
			state = agg->floats[group];
		appendBinaryStringInfo(buf, (const char *) &state, sizeof(AggFloatState));
	}
	else if (agg->states == AGG_STATES_NUMERIC)
	{
		NumericSum	acc = {0};

		if (group < agg->nstates)
			acc = agg->numerics[group];
		NumericSumSerialize(&acc, buf);
	}
	else
	{
		AggIntState state = {0};

		if (group < agg->nstates)
			state = agg->ints[group];
		appendBinaryStringInfo(buf, (const char *) &state, sizeof(AggIntState));
	}
}

/*
 * AggFoldMerge
 *		Fold a state AggFoldSerialize wrote at *p into group's state, and
 *		advance *p past it.
 */
void
AggFoldMerge(AggFold *agg, uint32 group, const char **p)
{
	EnsureStates(agg, group + 1);
	if (agg->states == AGG_STATES_COMPARE)
		AggCompareMerge(agg->compare, &agg->compares[group], p, agg->cxt);
	else if (agg->states == AGG_STATES_FLOAT)
	{
		AggFloatState other;

		memcpy(&other, *p, sizeof(AggFloatState));
		*p += sizeof(AggFloatState);
		AggFloatMerge(agg->kind, agg->type, &agg->floats[group], &other);
	}
	else if (agg->states == AGG_STATES_NUMERIC)
	{
		NumericSumMergeSerialized(&agg->numerics[group], p, agg->cxt);
	}
	else
	{
		AggIntState other;
		AggIntState *state = &agg->ints[group];

		memcpy(&other, *p, sizeof(AggIntState));
		*p += sizeof(AggIntState);
		if (other.count == 0)
			return;
		if (agg->kind == COLSTORE_AGG_MIN)
			state->minmax = state->count == 0 ? other.minmax : Min(state->minmax, other.minmax);
		else if (agg->kind == COLSTORE_AGG_MAX)
			state->minmax = state->count == 0 ? other.minmax : Max(state->minmax, other.minmax);
		state->count += other.count;
		state->sum += other.sum;
	}
}

/*
 * The rows of the batch an aggregate folds: those selected (all if NULL)
 * that pass its FILTER, if it has one.
 */
static const bool *
FilterMask(AggFold *agg, TableScanDesc scan, int nrows, const bool *selected)
{
	if (agg->filter == NULL)
		return selected;
	if (nrows > agg->filter_mask_size)
	{
		agg->filter_mask = MemoryContextAlloc(agg->cxt, nrows);
		agg->filter_mask_size = nrows;
	}
	if (selected != NULL)
		memcpy(agg->filter_mask, selected, nrows);
	else
		memset(agg->filter_mask, true, nrows);
	ChunkPrunerFilterRows(agg->filter, scan, nrows, agg->filter_mask);
	return agg->filter_mask;
}

/*
 * AggFoldBatchAll
 *		Fold the scan's current batch into each of the naggs aggregates:
 *		batch describes the rows selected marks (all if NULL), and an
 *		aggregate with a FILTER folds those of them that pass it, listed by
 *		AggFoldBatch from its own mask (so not batch's row list nor its rows
 *		by group).  What ColstoreAgg's hashed and sorted modes do per batch.
 */
void
AggFoldBatchAll(AggFold *aggs, int naggs, TableScanDesc scan, int nrows,
				const bool *selected, const NumericFoldRows *batch)
{
	NumericFoldRows filtered = *batch;
	int			i;

	filtered.rows = NULL;
	filtered.by_group = NULL;
	filtered.group_start = NULL;
	for (i = 0; i < naggs; i++)
		AggFoldBatch(&aggs[i], scan, nrows, FilterMask(&aggs[i], scan, nrows, selected),
					 aggs[i].filter == NULL ? batch : &filtered);
}
