/*-------------------------------------------------------------------------
 *
 * chunk_filter.c
 *	  Deciding a scan's pruning keys (chunk_pruning.c) row by row over a
 *	  decoded batch: ColstoreAgg's conditions (it has no executor quals) and
 *	  ColstoreScan's batch filter (rows that fail never become tuples).
 *
 * ChunkPrunerFilterRows clears the selection of every row a key fails, as
 * the executor would decide the clause the key was built from (the caller
 * uses only clauses PruningClauseIsExact accepts).  The common cases run
 * without function calls: integer and date comparisons and IN lists on
 * int64s (branch-free loops), numeric comparisons on the scaled-integer
 * encoding as int128s, text equality as bytes, LIKE and NOT LIKE by byte
 * search (like_match.c) or, for patterns with '_', their literal prefix;
 * the rest calls the btree comparison function with the clause's
 * collation; a comparison of two columns (PRUNE_COLUMNS) likewise, row
 * against row.  AND applies its arguments in turn; OR filters a copy of the
 * selection per argument and keeps the rows any of them passes.
 *
 * IDENTIFICATION
 *	  src/cscan/chunk_filter.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "cscan/chunk_pruning.h"
#include "cscan/prune_key.h"
#include "encoding/numeric_view.h"
#include "tableam/scan_engine.h"

/* Does a comparison function's result cmp satisfy strategy? */
static inline bool
StrategyPasses(int strategy, int32 cmp)
{
	switch (strategy)
	{
		case BTLessStrategyNumber:
			return cmp < 0;
		case BTLessEqualStrategyNumber:
			return cmp <= 0;
		case BTEqualStrategyNumber:
			return cmp == 0;
		case BTGreaterEqualStrategyNumber:
			return cmp >= 0;
		case BTGreaterStrategyNumber:
			return cmp > 0;
		case NOT_EQUAL_STRATEGY:
			return cmp != 0;
	}
	return false;
}

/* Does value pass "column <strategy> key value"? */
static inline bool
ComparePasses(PruneKey *key, Datum value)
{
	return StrategyPasses(key->strategy,
						  DatumGetInt32(FunctionCall2Coll(&key->cmp, key->collation,
														  value, key->value)));
}

/*
 * selected[i] &= row i is not NULL and GET(values[i]) OP c, for all rows:
 * branch-free, so rows that were already dropped cost as little as others.
 */
#define FILTER_LOOP(GET, OP, C) \
	for (i = 0; i < nrows; i++) \
		selected[i] &= !isnull[i] & ((GET(values[i])) OP (C))

/* One loop per comparison strategy for a value reader GET. */
#define FILTER_BY_STRATEGY(GET, C) \
	switch (strategy) \
	{ \
		case BTLessStrategyNumber: FILTER_LOOP(GET, <, C); break; \
		case BTLessEqualStrategyNumber: FILTER_LOOP(GET, <=, C); break; \
		case BTEqualStrategyNumber: FILTER_LOOP(GET, ==, C); break; \
		case BTGreaterEqualStrategyNumber: FILTER_LOOP(GET, >=, C); break; \
		case BTGreaterStrategyNumber: FILTER_LOOP(GET, >, C); break; \
		case NOT_EQUAL_STRATEGY: FILTER_LOOP(GET, !=, C); break; \
		default: memset(selected, 0, nrows); break; \
	}

#define GET_INT16(v)	((int64) DatumGetInt16(v))
#define GET_INT32(v)	((int64) DatumGetInt32(v))
#define GET_INT64(v)	DatumGetInt64(v)
#define GET_INT64_VALUE(v)	(v)
#define GET_SCALED(v)	((int128) (v))
#define GET_RESCALED(v)	((int128) (v) * factor)

/* ChunkPrunerFilterRows for a comparison of integers: no function calls. */
static void
FilterIntegerKey(const PruneKey *key, int nrows, const Datum *values,
				 const bool *isnull, bool *selected)
{
	int			strategy = key->strategy;
	int64		c = key->int_value;
	int			i;

	switch (key->int_column_type)
	{
		case INT2OID:
			FILTER_BY_STRATEGY(GET_INT16, c);
			break;
		case INT4OID:
		case DATEOID:
			FILTER_BY_STRATEGY(GET_INT32, c);
			break;
		default:
			FILTER_BY_STRATEGY(GET_INT64, c);
			break;
	}
}

/*
 * selected[i] &= neither row i's value is NULL and GET(a[i]) OP GET(b[i]):
 * branch-free, as FILTER_LOOP.
 */
#define PAIR_LOOP(GET, OP) \
	for (i = 0; i < nrows; i++) \
		selected[i] &= !a_null[i] & !b_null[i] & ((GET(a[i])) OP (GET(b[i])))

#define PAIR_BY_STRATEGY(GET) \
	switch (key->strategy) \
	{ \
		case BTLessStrategyNumber: PAIR_LOOP(GET, <); break; \
		case BTLessEqualStrategyNumber: PAIR_LOOP(GET, <=); break; \
		case BTEqualStrategyNumber: PAIR_LOOP(GET, ==); break; \
		case BTGreaterEqualStrategyNumber: PAIR_LOOP(GET, >=); break; \
		case BTGreaterStrategyNumber: PAIR_LOOP(GET, >); break; \
		case NOT_EQUAL_STRATEGY: PAIR_LOOP(GET, !=); break; \
		default: memset(selected, 0, nrows); break; \
	}

/*
 * ChunkPrunerFilterRows for "column op column2": integer-ordered types in
 * branch-free loops, others through the comparison function (NULL on
 * either side fails, as the strict operator yields NULL).
 */
static void
FilterColumnPair(ChunkPruner *pruner, PruneKey *key, int nrows, TableScanDesc scan,
				 bool *selected)
{
	Datum	   *a;
	Datum	   *b;
	bool	   *a_null;
	bool	   *b_null;
	int			i;

	ColstoreScanBatchColumn(scan, key->attno, &a, &a_null);
	ColstoreScanBatchColumn(scan, key->attno2, &b, &b_null);
	switch (key->int_column_type)
	{
		case INT2OID:
			PAIR_BY_STRATEGY(GET_INT16);
			return;
		case InvalidOid:
			break;
		case INT4OID:
		case DATEOID:
			PAIR_BY_STRATEGY(GET_INT32);
			return;
		default:
			PAIR_BY_STRATEGY(GET_INT64);
			return;
	}
	for (i = 0; i < nrows; i++)
	{
		if (!selected[i])
			continue;
		if (a_null[i] || b_null[i])
			selected[i] = false;
		else
			selected[i] = StrategyPasses(key->strategy,
										 DatumGetInt32(FunctionCall2Coll(&key->cmp, InvalidOid,
																		 a[i], b[i])));
		MemoryContextReset(pruner->tmp_cxt);
	}
}

/* Are two text values the same bytes (equality under a deterministic collation)? */
static inline bool
TextBytesEqual(Datum a, Datum b)
{
	text	   *ta = DatumGetTextPP(a);
	text	   *tb = DatumGetTextPP(b);

	return VARSIZE_ANY_EXHDR(ta) == VARSIZE_ANY_EXHDR(tb) &&
		memcmp(VARDATA_ANY(ta), VARDATA_ANY(tb), VARSIZE_ANY_EXHDR(ta)) == 0;
}

/*
 * Does a text, varchar or bpchar value pass a LIKE or NOT LIKE key?  By byte
 * search where the pattern allows it (like_match.c); otherwise a value
 * without the pattern's literal prefix cannot match, and LIKE's function
 * decides the others.
 */
static bool
LikePasses(PruneKey *key, Datum value)
{
	text	   *t = DatumGetTextPP(value);
	const LikePattern *pattern = &key->like_pattern;
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	bool		matches;

	if (pattern->searchable)
		matches = LikePatternMatches(pattern, s, len);
	else if (len < pattern->prefix_len || memcmp(s, pattern->prefix, pattern->prefix_len) != 0)
		matches = false;
	else
		matches = DatumGetBool(FunctionCall2Coll(&key->like, key->collation,
												 PointerGetDatum(t), key->value));
	return matches != key->like_negated;
}

/* Does value equal an element of an IN key's list? */
static bool
InListPasses(PruneKey *key, Datum value)
{
	int			j;

	if (key->bytes_equal)
	{
		for (j = 0; j < key->nelems; j++)
		{
			if (TextBytesEqual(value, key->elems[j]))
				return true;
		}
		return false;
	}
	for (j = 0; j < key->nelems; j++)
	{
		if (DatumGetInt32(FunctionCall2Coll(&key->cmp, key->collation,
											value, key->elems[j])) == 0)
			return true;
	}
	return false;
}

/*
 * selected[i] &= row i is not NULL and GET(values[i]) is in the list; the
 * column type's switch is outside the loop.
 */
#define IN_LIST_LOOP(GET) \
	for (i = 0; i < nrows; i++) \
	{ \
		bool		found = false; \
		if (!selected[i] || isnull[i]) \
		{ \
			selected[i] = false; \
			continue; \
		} \
		for (j = 0; j < key->nelems && !found; j++) \
			found = GET(values[i]) == key->int_elems[j]; \
		selected[i] = found; \
	}

/* ChunkPrunerFilterRows for an IN list of integers: no function calls. */
static void
FilterIntegerInList(const PruneKey *key, int nrows, const Datum *values,
					const bool *isnull, bool *selected)
{
	int			i;
	int			j;

	switch (key->int_column_type)
	{
		case INT2OID:
			IN_LIST_LOOP(GET_INT16);
			break;
		case INT4OID:
		case DATEOID:
			IN_LIST_LOOP(GET_INT32);
			break;
		default:
			IN_LIST_LOOP(GET_INT64);
			break;
	}
}

/*
 * ChunkPrunerFilterRows for a comparison of a numeric column with a numeric
 * value, when the batch's chunk stores the column as scaled integers: both
 * sides as int128s at the larger scale, no numerics built.  Returns false
 * (and changes nothing) if the batch is in another form or a side would
 * not fit.
 */
static bool
FilterScaledKey(const PruneKey *key, int nrows, TableScanDesc scan,
				bool *selected)
{
	int64	   *values;
	int64	   *dscales;
	bool	   *isnull;
	int			scale;
	int			common;
	int128		factor = 1;
	int128		c;
	int			strategy = key->strategy;
	int			i;

	if (!key->scaled_ok ||
		!ColstoreScanBatchScaled(scan, key->attno, &values, &dscales, &isnull, &scale))
		return false;
	common = Max(scale, key->scaled_scale);
	c = key->scaled_value;
	/* an int64 times 10^18 always fits an int128 */
	if (common - scale > 18 || !Int128MulPow10(&factor, common - scale) ||
		!Int128MulPow10(&c, common - key->scaled_scale))
		return false;
	if (factor == 1 && c == (int64) c)
	{
		/* the chunk's scale is the larger and c fits: int64 compares */
		int64		c64 = (int64) c;

		FILTER_BY_STRATEGY(GET_INT64_VALUE, c64);
	}
	else if (factor == 1)
	{
		FILTER_BY_STRATEGY(GET_SCALED, c);
	}
	else
	{
		FILTER_BY_STRATEGY(GET_RESCALED, c);
	}
	return true;
}

/*
 * selected[i] &= row i passes key, for the nrows rows of a batch; see
 * ChunkPrunerFilterRows.  An OR passes the rows any argument passes: each
 * argument filters its own copy of the selection.
 */
static void
FilterKey(ChunkPruner *pruner, PruneKey *key, int nrows, TableScanDesc scan,
		  bool *selected)
{
	MemoryContext oldcxt;
	Datum	   *values;
	bool	   *isnull;
	int			i;

	if (key->kind == PRUNE_AND)
	{
		for (i = 0; i < key->nsubkeys; i++)
			FilterKey(pruner, &key->subkeys[i], nrows, scan, selected);
		return;
	}
	if (key->kind == PRUNE_OR)
	{
		int			j;

		if (nrows > key->rows_capacity)
		{
			key->arm_rows = MemoryContextAlloc(pruner->cxt, nrows);
			key->any_rows = MemoryContextAlloc(pruner->cxt, nrows);
			key->rows_capacity = nrows;
		}
		memset(key->any_rows, 0, nrows);
		for (j = 0; j < key->nsubkeys; j++)
		{
			memcpy(key->arm_rows, selected, nrows);
			FilterKey(pruner, &key->subkeys[j], nrows, scan, key->arm_rows);
			for (i = 0; i < nrows; i++)
				key->any_rows[i] |= key->arm_rows[i];
		}
		memcpy(selected, key->any_rows, nrows);
		return;
	}
	if (key->kind == PRUNE_COLUMNS)
	{
		oldcxt = MemoryContextSwitchTo(pruner->tmp_cxt);
		FilterColumnPair(pruner, key, nrows, scan, selected);
		MemoryContextSwitchTo(oldcxt);
		return;
	}
	if (key->kind == PRUNE_COMPARE && key->numeric_key &&
		FilterScaledKey(key, nrows, scan, selected))
		return;
	ColstoreScanBatchColumn(scan, key->attno, &values, &isnull);
	if (key->kind == PRUNE_IN && !key->value_isnull && key->int_ok)
	{
		FilterIntegerInList(key, nrows, values, isnull, selected);
		return;
	}
	if (key->kind == PRUNE_COMPARE && !key->value_isnull && key->int_ok)
	{
		FilterIntegerKey(key, nrows, values, isnull, selected);
		return;
	}
	/* comparison functions may allocate (detoasting): per batch memory */
	oldcxt = MemoryContextSwitchTo(pruner->tmp_cxt);
	for (i = 0; i < nrows; i++)
	{
		if (!selected[i])
			continue;
		switch (key->kind)
		{
			case PRUNE_IS_NULL:
				selected[i] = isnull[i];
				break;
			case PRUNE_IS_NOT_NULL:
				selected[i] = !isnull[i];
				break;
			case PRUNE_COMPARE:
				selected[i] = !isnull[i] && !key->value_isnull &&
					(key->bytes_equal ?
					 TextBytesEqual(values[i], key->value) ==
					 (key->strategy == BTEqualStrategyNumber) :
					 ComparePasses(key, values[i]));
				break;
			case PRUNE_LIKE:
				selected[i] = !isnull[i] && !key->value_isnull &&
					LikePasses(key, values[i]);
				break;
			case PRUNE_IN:
				selected[i] = !isnull[i] && !key->value_isnull &&
					InListPasses(key, values[i]);
				break;
			case PRUNE_AND:
			case PRUNE_OR:
			case PRUNE_COLUMNS:
				break;			/* handled above */
		}
	}
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(pruner->tmp_cxt);
}

/*
 * ChunkPrunerFilterRows
 *		Clear selected[i] for each of the nrows rows of scan's current batch
 *		(ColstoreScanNextBatch, or the chunk a row filter is given) that
 *		fails a key; the key columns are read with ColstoreScanBatchColumn
 *		(numeric ones with ColstoreScanBatchScaled where the chunk stores
 *		them so), which decodes them for the batch.
 *		Exact only for keys built from clauses PruningClauseIsExact accepts
 *		(the caller checks that at plan time); values must have been
 *		evaluated (ChunkPrunerEvaluate).
 */
void
ChunkPrunerFilterRows(ChunkPruner *pruner, TableScanDesc scan, int nrows,
					  bool *selected)
{
	int			k;

	for (k = 0; k < pruner->nkeys; k++)
		FilterKey(pruner, &pruner->keys[k], nrows, scan, selected);
}
