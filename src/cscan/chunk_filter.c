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
 * encoding as int128s, text, varchar and char(n) equality as bytes (the
 * verdicts remembered per batch by datum), LIKE and NOT LIKE by byte
 * search (like_match.c) or, for patterns with '_', their literal prefix;
 * integer columns' remainders and quotients by a constant likewise, once
 * computed (integer_division.c); the rest calls the btree comparison
 * function with the clause's collation; a comparison of two columns (PRUNE_COLUMNS) likewise, row
 * against row.  AND applies its arguments in turn; OR filters a copy of the
 * row list per argument and keeps the rows any of them passes.
 *
 * The selection is a row list that each key shortens, so a key reads only
 * the rows the keys before it kept; the top-level keys run in the order
 * OrderKeys learns from the batches read so far (cheap keys first, keys on
 * one column together, the groups that keep fewest rows first).  Numeric
 * keys on scaled-integer chunks read just the listed rows when they are few
 * (ColstoreScanBatchScaledRows), after the chunk was validated whole.
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

static int	FilterKey(ChunkPruner *pruner, PruneKey *key, int nrows,
					  TableScanDesc scan, int *rows, int n);

/* Does value pass "column <strategy> key value"? */
static inline bool
ComparePasses(PruneKey *key, Datum value)
{
	return StrategyPasses(key->strategy,
						  DatumGetInt32(FunctionCall2Coll(&key->cmp, key->collation,
														  value, key->value)));
}

/*
 * The filter works on a row list: rows[0 .. n - 1], ascending row numbers
 * of the batch's nrows rows still selected.  Each key keeps the rows it
 * passes, in place, and returns their count, so a key after a selective one
 * reads only the few rows left.  While every row is selected (n == nrows,
 * the list is 0 .. nrows - 1) the loops read the columns straight, without
 * the list.  PASS(i) is 0 or 1 for row i: branch-free.
 */
#define LIST_LOOP(PASS) \
	do { \
		int			m_ = 0; \
		if (n == nrows) \
		{ \
			for (i = 0; i < nrows; i++) \
			{ \
				rows[m_] = i; \
				m_ += (PASS); \
			} \
		} \
		else \
		{ \
			for (j = 0; j < n; j++) \
			{ \
				i = rows[j]; \
				rows[m_] = i; \
				m_ += (PASS); \
			} \
		} \
		n = m_; \
	} while (0)

/* Row i passes GET(values[i]) OP c and is not NULL (unless none is). */
#define FILTER_LOOP(GET, OP, C) \
	do { \
		if (nonull) \
			LIST_LOOP((GET(values[i])) OP (C)); \
		else \
			LIST_LOOP(!isnull[i] & ((GET(values[i])) OP (C))); \
	} while (0)

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
		default: n = 0; break; \
	}

#define GET_INT16(v)	((int64) DatumGetInt16(v))
#define GET_INT32(v)	((int64) DatumGetInt32(v))
#define GET_INT64(v)	DatumGetInt64(v)
#define GET_INT64_VALUE(v)	(v)
#define GET_SCALED(v)	((int128) (v))
#define GET_RESCALED(v)	((int128) (v) * factor)

/* FilterKey for a comparison of integers: no function calls. */
static int
FilterIntegerKey(const PruneKey *key, int nrows, const Datum *values,
				 const bool *isnull, bool nonull, int *rows, int n)
{
	int			strategy = key->strategy;
	int64		c = key->int_value;
	int			i;
	int			j;

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
	return n;
}

/* quotients[i] = GET(column[i]) OP divisor for the listed rows */
#define DIVIDE_LOOP(GET, OP) \
	for (j = 0; j < n; j++) \
	{ \
		i = rows[j]; \
		values[i] = GET(column[i]) OP divisor; \
	}

#define DIVIDE_BY_TYPE(OP) \
	switch (key->division.type) \
	{ \
		case INT2OID: DIVIDE_LOOP(GET_INT16, OP); break; \
		case INT4OID: DIVIDE_LOOP(GET_INT32, OP); break; \
		default: DIVIDE_LOOP(GET_INT64, OP); break; \
	}

/*
 * FilterKey for "column % d <op> value" or "column / d <op> value": the
 * listed rows' remainders or quotients, computed on int64s (with the
 * divisors IntegerDivisionOf accepts they are the executor's and raise no
 * error; NULL rows' garbage values divide harmlessly and fail), then
 * compared as FilterIntegerKey does.
 */
static int
FilterDivisionKey(ChunkPruner *pruner, const PruneKey *key, int nrows,
				  const Datum *column, const bool *isnull, bool nonull,
				  int *rows, int n)
{
	int64	   *values;
	int64		divisor = key->division.divisor;
	int			strategy = key->strategy;
	int64		c = key->int_value;
	int			i;
	int			j;

	if (pruner->quotients == NULL)
		pruner->quotients = MemoryContextAlloc(pruner->cxt,
											   sizeof(int64) * pruner->rows_capacity);
	values = pruner->quotients;

	if (key->division.kind == INTEGER_REMAINDER)
	{
		DIVIDE_BY_TYPE(%);
	}
	else
	{
		DIVIDE_BY_TYPE(/);
	}
	FILTER_BY_STRATEGY(GET_INT64_VALUE, c);
	return n;
}

/*
 * Row i passes if neither value is NULL and GET(a[i]) OP GET(b[i]):
 * branch-free, as FILTER_LOOP.
 */
#define PAIR_LOOP(GET, OP) \
	LIST_LOOP(!a_null[i] & !b_null[i] & ((GET(a[i])) OP (GET(b[i]))))

#define PAIR_BY_STRATEGY(GET) \
	switch (key->strategy) \
	{ \
		case BTLessStrategyNumber: PAIR_LOOP(GET, <); break; \
		case BTLessEqualStrategyNumber: PAIR_LOOP(GET, <=); break; \
		case BTEqualStrategyNumber: PAIR_LOOP(GET, ==); break; \
		case BTGreaterEqualStrategyNumber: PAIR_LOOP(GET, >=); break; \
		case BTGreaterStrategyNumber: PAIR_LOOP(GET, >); break; \
		case NOT_EQUAL_STRATEGY: PAIR_LOOP(GET, !=); break; \
		default: n = 0; break; \
	}

/*
 * FilterKey for "column op column2": integer-ordered types in branch-free
 * loops, others through the comparison function (NULL on either side
 * fails, as the strict operator yields NULL).
 */
static int
FilterColumnPair(ChunkPruner *pruner, PruneKey *key, int nrows, TableScanDesc scan,
				 int *rows, int n)
{
	Datum	   *a;
	Datum	   *b;
	bool	   *a_null;
	bool	   *b_null;
	int			i;
	int			j;
	int			m = 0;

	ColstoreScanBatchColumn(scan, key->attno, &a, &a_null);
	ColstoreScanBatchColumn(scan, key->attno2, &b, &b_null);
	switch (key->int_column_type)
	{
		case INT2OID:
			PAIR_BY_STRATEGY(GET_INT16);
			return n;
		case InvalidOid:
			break;
		case INT4OID:
		case DATEOID:
			PAIR_BY_STRATEGY(GET_INT32);
			return n;
		default:
			PAIR_BY_STRATEGY(GET_INT64);
			return n;
	}
	for (j = 0; j < n; j++)
	{
		i = rows[j];
		if (a_null[i] || b_null[i])
			continue;
		if (StrategyPasses(key->strategy,
						   DatumGetInt32(FunctionCall2Coll(&key->cmp, InvalidOid,
														   a[i], b[i]))))
			rows[m++] = i;
		MemoryContextReset(pruner->tmp_cxt);
	}
	return m;
}

/* The length of bpchar bytes s[0 .. len - 1] without trailing spaces (bcTruelen). */
static inline int
BpcharTrimmedLength(const char *s, int len)
{
	while (len > 0 && s[len - 1] == ' ')
		len--;
	return len;
}

/*
 * Are two text values the same bytes (equality under a deterministic
 * collation)?  padded: bpchar values, whose trailing spaces do not count
 * (bpchareq).
 */
static inline bool
TextBytesEqual(Datum a, Datum b, bool padded)
{
	text	   *ta = DatumGetTextPP(a);
	text	   *tb = DatumGetTextPP(b);
	int			la = VARSIZE_ANY_EXHDR(ta);
	int			lb = VARSIZE_ANY_EXHDR(tb);

	if (padded)
	{
		la = BpcharTrimmedLength(VARDATA_ANY(ta), la);
		lb = BpcharTrimmedLength(VARDATA_ANY(tb), lb);
	}
	return la == lb && memcmp(VARDATA_ANY(ta), VARDATA_ANY(tb), la) == 0;
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
			if (TextBytesEqual(value, key->elems[j], key->bytes_padded))
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
 * Keep the rows that are not NULL and whose GET(values[i]) is in the list;
 * the column type's switch is outside the loop.
 */
#define IN_LIST_LOOP(GET) \
	for (j = 0; j < n; j++) \
	{ \
		int64		v; \
		int			e; \
		i = rows[j]; \
		if (isnull[i]) \
			continue; \
		v = GET(values[i]); \
		for (e = 0; e < key->nelems; e++) \
		{ \
			if (v == key->int_elems[e]) \
			{ \
				rows[m++] = i; \
				break; \
			} \
		} \
	}

/* FilterKey for an IN list of integers: no function calls. */
static int
FilterIntegerInList(const PruneKey *key, const Datum *values,
					const bool *isnull, int *rows, int n)
{
	int			i;
	int			j;
	int			m = 0;

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
	return m;
}

/*
 * FilterKey for a comparison of a numeric column with a numeric value, when
 * the batch's chunk stores the column as scaled integers: both sides as
 * int128s at the larger scale, no numerics built.  Only the listed rows are
 * read from the chunk when they are few (ColstoreScanBatchScaledRows).
 * Returns -1 (and changes nothing) if the batch is in another form or a
 * side would not fit.
 */
static int
FilterScaledKey(const PruneKey *key, int nrows, TableScanDesc scan,
				int *rows, int n)
{
	ColstoreScaledValues sv;
	int64	   *values;
	bool	   *isnull;
	bool		nonull;
	int			common;
	int128		factor = 1;
	int128		c;
	int			strategy = key->strategy;
	int			i;
	int			j;

	if (!key->scaled_ok ||
		!ColstoreScanBatchScaledRows(scan, key->attno, n == nrows ? NULL : rows,
									 n, n, &sv))
		return -1;
	values = sv.values;
	isnull = sv.isnull;
	nonull = sv.nonull;
	common = Max(sv.scale, key->scaled_scale);
	c = key->scaled_value;
	/* an int64 times 10^18 always fits an int128 */
	if (common - sv.scale > 18 || !Int128MulPow10(&factor, common - sv.scale) ||
		!Int128MulPow10(&c, common - key->scaled_scale))
		return -1;
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
	return n;
}

/*
 * FilterKey for an OR: each argument filters its own copy of the row list;
 * the rows any of them keeps stay.
 */
static int
FilterOr(ChunkPruner *pruner, PruneKey *key, int nrows, TableScanDesc scan,
		 int *rows, int n)
{
	int			a;
	int			j;
	int			m = 0;

	if (nrows > key->rows_capacity)
	{
		key->arm_rows = MemoryContextAlloc(pruner->cxt, sizeof(int) * nrows);
		key->any_rows = MemoryContextAlloc(pruner->cxt, nrows);
		key->rows_capacity = nrows;
	}
	for (j = 0; j < n; j++)
		key->any_rows[rows[j]] = false;
	for (a = 0; a < key->nsubkeys; a++)
	{
		int			kept;

		memcpy(key->arm_rows, rows, sizeof(int) * n);
		kept = FilterKey(pruner, &key->subkeys[a], nrows, scan, key->arm_rows, n);
		for (j = 0; j < kept; j++)
			key->any_rows[key->arm_rows[j]] = true;
	}
	for (j = 0; j < n; j++)
	{
		rows[m] = rows[j];
		m += key->any_rows[rows[j]];
	}
	return m;
}

/* Verdicts FilterBytesEqual remembers per batch, by datum (a power of 2). */
#define BYTES_VERDICT_SLOTS		64

/*
 * FilterKey for "=", "<>" or an IN list of a text, varchar or bpchar column
 * decided as bytes (key->bytes_equal).  Verdicts are remembered for the
 * batch in a small direct-mapped table keyed by the datum: within a batch,
 * equal pointers are equal values (a dictionary-encoded chunk gives every
 * row of one distinct value the same pointer), so a low-cardinality
 * column's bytes are compared about once per distinct value; a slot taken
 * by another datum is just decided again.
 */
static int
FilterBytesEqual(PruneKey *key, const Datum *values, const bool *isnull,
				 int *rows, int n)
{
	Datum		seen[BYTES_VERDICT_SLOTS];
	bool		verdict[BYTES_VERDICT_SLOTS];
	int			i;
	int			j;
	int			m = 0;

	memset(seen, 0, sizeof(seen));	/* no varlena pointer is 0 */
	for (j = 0; j < n; j++)
	{
		Datum		v;
		uint32		slot;

		i = rows[j];
		if (isnull[i])
			continue;
		v = values[i];
		slot = (uint32) (((uint64) v * UINT64CONST(0x9E3779B97F4A7C15)) >> 58);
		if (seen[slot] != v)
		{
			if (key->kind == PRUNE_IN)
				verdict[slot] = InListPasses(key, v);
			else
				verdict[slot] = TextBytesEqual(v, key->value, key->bytes_padded) ==
					(key->strategy == BTEqualStrategyNumber);
			seen[slot] = v;
		}
		rows[m] = i;
		m += verdict[slot];
	}
	return m;
}

/*
 * FilterKey
 *		Keep the rows of the row list rows[0 .. n - 1] of the batch (nrows
 *		rows) that pass key, in order; returns how many.  See
 *		ChunkPrunerFilterRows.
 */
static int
FilterKey(ChunkPruner *pruner, PruneKey *key, int nrows, TableScanDesc scan,
		  int *rows, int n)
{
	MemoryContext oldcxt;
	Datum	   *values;
	bool	   *isnull;
	int			i;
	int			j;
	int			m = 0;

	if (n == 0)
		return 0;
	if (key->kind == PRUNE_AND)
	{
		for (i = 0; i < key->nsubkeys && n > 0; i++)
			n = FilterKey(pruner, &key->subkeys[i], nrows, scan, rows, n);
		return n;
	}
	if (key->kind == PRUNE_OR)
		return FilterOr(pruner, key, nrows, scan, rows, n);
	if (key->kind == PRUNE_COLUMNS)
	{
		oldcxt = MemoryContextSwitchTo(pruner->tmp_cxt);
		n = FilterColumnPair(pruner, key, nrows, scan, rows, n);
		MemoryContextSwitchTo(oldcxt);
		return n;
	}
	if (key->kind == PRUNE_COMPARE && key->numeric_key)
	{
		int			kept = FilterScaledKey(key, nrows, scan, rows, n);

		if (kept >= 0)
			return kept;
	}
	ColstoreScanBatchColumn(scan, key->attno, &values, &isnull);
	if (key->kind == PRUNE_IN && !key->value_isnull && key->int_ok)
		return FilterIntegerInList(key, values, isnull, rows, n);
	if (key->kind == PRUNE_COMPARE && !key->value_isnull && key->int_ok)
		return FilterIntegerKey(key, nrows, values, isnull,
								ColstoreScanBatchNoNulls(scan, key->attno),
								rows, n);
	if (key->kind == PRUNE_DIVISION)
		return key->value_isnull || !key->int_ok ? 0 :
			FilterDivisionKey(pruner, key, nrows, values, isnull,
							  ColstoreScanBatchNoNulls(scan, key->attno), rows, n);
	/* comparison functions may allocate (detoasting): per batch memory */
	oldcxt = MemoryContextSwitchTo(pruner->tmp_cxt);
	if (key->bytes_equal && !key->value_isnull)
	{
		m = FilterBytesEqual(key, values, isnull, rows, n);
		MemoryContextSwitchTo(oldcxt);
		MemoryContextReset(pruner->tmp_cxt);
		return m;
	}
	for (j = 0; j < n; j++)
	{
		bool		passes = false;

		i = rows[j];
		switch (key->kind)
		{
			case PRUNE_IS_NULL:
				passes = isnull[i];
				break;
			case PRUNE_IS_NOT_NULL:
				passes = !isnull[i];
				break;
			case PRUNE_COMPARE:
				passes = !isnull[i] && !key->value_isnull &&
					(key->bytes_equal ?
					 TextBytesEqual(values[i], key->value, key->bytes_padded) ==
					 (key->strategy == BTEqualStrategyNumber) :
					 ComparePasses(key, values[i]));
				break;
			case PRUNE_LIKE:
				passes = !isnull[i] && !key->value_isnull &&
					LikePasses(key, values[i]);
				break;
			case PRUNE_IN:
				passes = !isnull[i] && !key->value_isnull &&
					InListPasses(key, values[i]);
				break;
			case PRUNE_AND:
			case PRUNE_OR:
			case PRUNE_COLUMNS:
			case PRUNE_DIVISION:
				break;			/* handled above */
		}
		if (passes)
			rows[m++] = i;
	}
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(pruner->tmp_cxt);
	return m;
}

/*
 * Can key be part of a range (FilterRange): a comparison other than "<>"
 * with a value, decided on int64s (integer columns) or scaled integers?
 */
static bool
KeyIsRangeBound(const PruneKey *key)
{
	return key->kind == PRUNE_COMPARE && !key->value_isnull &&
		key->strategy != NOT_EQUAL_STRATEGY &&
		(key->int_ok || (key->numeric_key && key->scaled_ok));
}

/*
 * Narrow [*lo, *hi] by "value <strategy> c"; false if no value passes.
 */
static bool
NarrowRange(int strategy, int64 c, int64 *lo, int64 *hi)
{
	switch (strategy)
	{
		case BTLessStrategyNumber:
			if (c == PG_INT64_MIN)
				return false;
			*hi = Min(*hi, c - 1);
			break;
		case BTLessEqualStrategyNumber:
			*hi = Min(*hi, c);
			break;
		case BTEqualStrategyNumber:
			*lo = Max(*lo, c);
			*hi = Min(*hi, c);
			break;
		case BTGreaterEqualStrategyNumber:
			*lo = Max(*lo, c);
			break;
		case BTGreaterStrategyNumber:
			if (c == PG_INT64_MAX)
				return false;
			*lo = Max(*lo, c + 1);
			break;
		default:
			return false;
	}
	return *lo <= *hi;
}

/* Row i's value v lies in [lo, hi] (lo <= hi): one unsigned comparison. */
#define IN_RANGE(v) ((uint64) (v) - (uint64) lo <= span)

/* Keep the rows that are not NULL (unless none is) and in the range. */
#define RANGE_LOOP(GET) \
	do { \
		if (nonull) \
			LIST_LOOP(IN_RANGE(GET(values[i]))); \
		else \
			LIST_LOOP(!isnull[i] & IN_RANGE(GET(values[i]))); \
	} while (0)

/*
 * Keys keys[0 .. nkeys - 1], all on one column and KeyIsRangeBound, of one
 * kind (integer or scaled numeric), decided together in one pass as the
 * range of values they all pass.  Returns -1 (nothing done) if a scaled
 * chunk's scale or the values do not allow it: the caller runs the keys
 * one by one then.
 */
static int
FilterRange(PruneKey **keys, int nkeys, int nrows, TableScanDesc scan,
			int *rows, int n)
{
	PruneKey   *first = keys[0];
	int64		lo = PG_INT64_MIN;
	int64		hi = PG_INT64_MAX;
	uint64		span;
	bool		empty = false;
	int			i;
	int			j;
	int			k;

	if (first->int_ok)
	{
		Datum	   *values;
		bool	   *isnull;
		bool		nonull;

		for (k = 0; k < nkeys && !empty; k++)
			empty = !NarrowRange(keys[k]->strategy, keys[k]->int_value, &lo, &hi);
		if (empty)
			return 0;			/* no value passes every key */
		span = (uint64) hi - (uint64) lo;
		ColstoreScanBatchColumn(scan, first->attno, &values, &isnull);
		nonull = ColstoreScanBatchNoNulls(scan, first->attno);
		switch (first->int_column_type)
		{
			case INT2OID:
				RANGE_LOOP(GET_INT16);
				break;
			case INT4OID:
			case DATEOID:
				RANGE_LOOP(GET_INT32);
				break;
			default:
				RANGE_LOOP(GET_INT64);
				break;
		}
		return n;
	}
	else
	{
		ColstoreScaledValues sv;
		int64	   *values;
		bool	   *isnull;
		bool		nonull;

		if (!ColstoreScanBatchScaledRows(scan, first->attno, n == nrows ? NULL : rows,
										 n, n, &sv))
			return -1;
		for (k = 0; k < nkeys && !empty; k++)
		{
			int128		c = keys[k]->scaled_value;

			/* the value at the chunk's scale, if the chunk's is the larger */
			if (keys[k]->scaled_scale > sv.scale ||
				!Int128MulPow10(&c, sv.scale - keys[k]->scaled_scale) ||
				c != (int64) c)
				return -1;
			empty = !NarrowRange(keys[k]->strategy, (int64) c, &lo, &hi);
		}
		if (empty)
			return 0;
		span = (uint64) hi - (uint64) lo;
		values = sv.values;
		isnull = sv.isnull;
		nonull = sv.nonull;
		RANGE_LOOP(GET_INT64_VALUE);
		return n;
	}
}

/*
 * Does a key run without function calls (integer or scaled-numeric
 * comparisons, integer lists, NULL tests, integer column pairs)?  Such
 * keys go first.
 */
static bool
KeyIsCheap(const PruneKey *key)
{
	switch (key->kind)
	{
		case PRUNE_IS_NULL:
		case PRUNE_IS_NOT_NULL:
			return true;
		case PRUNE_COMPARE:
			return key->int_ok || key->scaled_ok;
		case PRUNE_IN:
		case PRUNE_DIVISION:
			return key->int_ok;
		case PRUNE_COLUMNS:
			return OidIsValid(key->int_column_type);
		default:
			return false;
	}
}

/* Share of the rows key was given that it kept so far (1/2 before any). */
static double
KeyPassRate(const PruneKey *key)
{
	return (key->rows_out + 1.0) / (key->rows_in + 2.0);
}

/*
 * The column a key reads, grouping it with the other keys on that column
 * (they share its decoding, and together pass as few rows as their product
 * of pass rates), or a group of its own (ANDs, ORs, column pairs).
 */
static int
KeyGroup(const ChunkPruner *pruner, int k)
{
	const PruneKey *key = &pruner->keys[k];

	if (key->kind == PRUNE_AND || key->kind == PRUNE_OR || key->kind == PRUNE_COLUMNS)
		return pruner->desc->natts + k;
	return key->attno;
}

/*
 * Order the top-level keys for the next batch: cheap keys first, then by
 * group (keys on the same column together) from the group that keeps the
 * fewest rows, within a group from the key that keeps the fewest.  Pass
 * rates are those seen so far in this scan; all keys must pass, so their
 * order changes only how many rows each one reads.
 */
static void
OrderKeys(ChunkPruner *pruner)
{
	int			nkeys = pruner->nkeys;
	int			a;
	int			b;

	for (a = 0; a < nkeys; a++)
	{
		double		rate = 1.0;
		bool		cheap = true;

		for (b = 0; b < nkeys; b++)
		{
			if (KeyGroup(pruner, b) != KeyGroup(pruner, a))
				continue;
			rate *= KeyPassRate(&pruner->keys[b]);
			cheap &= KeyIsCheap(&pruner->keys[b]);
		}
		pruner->group_rate[a] = cheap ? rate : 1.0 + rate;
	}
	/* insertion sort of a handful of keys */
	for (a = 1; a < nkeys; a++)
	{
		int			k = pruner->order[a];

		for (b = a; b > 0; b--)
		{
			int			o = pruner->order[b - 1];
			bool		before;

			if (pruner->group_rate[k] != pruner->group_rate[o])
				before = pruner->group_rate[k] < pruner->group_rate[o];
			else if (KeyGroup(pruner, k) != KeyGroup(pruner, o))
				before = KeyGroup(pruner, k) < KeyGroup(pruner, o);
			else
				before = KeyPassRate(&pruner->keys[k]) <
					KeyPassRate(&pruner->keys[o]);
			if (!before)
				break;
			pruner->order[b] = o;
		}
		pruner->order[b] = k;
	}
}

/*
 * ChunkPrunerFilterRows
 *		Clear selected[i] for each of the nrows rows of scan's current batch
 *		(ColstoreScanNextBatch, or the chunk a row filter is given) that
 *		fails a key; the key columns are read with ColstoreScanBatchColumn
 *		(numeric ones with ColstoreScanBatchScaledRows where the chunk
 *		stores them so), which decodes them for the batch, or, for scaled
 *		numerics when few rows are left, reads just those rows.
 *		Exact only for keys built from clauses PruningClauseIsExact accepts
 *		(the caller checks that at plan time); values must have been
 *		evaluated (ChunkPrunerEvaluate).
 *
 * The selected rows become a row list that each key in turn shortens, in
 * the order OrderKeys chose from the batches before.
 */
void
ChunkPrunerFilterRows(ChunkPruner *pruner, TableScanDesc scan, int nrows,
					  bool *selected)
{
	int			nsel;

	(void) ChunkPrunerFilterRowList(pruner, scan, nrows, selected, &nsel);
}

/*
 * ChunkPrunerFilterRowList
 *		ChunkPrunerFilterRows, which also returns the row list of the rows
 *		left selected: rows[0 .. *nsel - 1], ascending, in the pruner's
 *		memory until its next call; NULL if the pruner has no keys (selected
 *		is left as it was).
 */
const int  *
ChunkPrunerFilterRowList(ChunkPruner *pruner, TableScanDesc scan, int nrows,
						 bool *selected, int *nsel)
{
	int		   *rows;
	int			n = 0;
	int			i;
	int			k;

	*nsel = 0;
	if (pruner->nkeys == 0 || nrows <= 0)
		return pruner->nkeys == 0 ? NULL : pruner->rows;
	if (pruner->order == NULL)
	{
		pruner->order = MemoryContextAlloc(pruner->cxt, sizeof(int) * pruner->nkeys);
		pruner->group_rate = MemoryContextAlloc(pruner->cxt,
												sizeof(double) * pruner->nkeys);
		for (k = 0; k < pruner->nkeys; k++)
			pruner->order[k] = k;
	}
	if (nrows > pruner->rows_capacity)
	{
		if (pruner->rows != NULL)
			pfree(pruner->rows);
		if (pruner->quotients != NULL)
			pfree(pruner->quotients);
		pruner->rows = MemoryContextAlloc(pruner->cxt, sizeof(int) * nrows);
		pruner->quotients = NULL;	/* made by the first division key */
		pruner->rows_capacity = nrows;
	}
	rows = pruner->rows;
	if (memchr(selected, false, nrows) == NULL)
	{
		/* every row: a loop without the dependency on n, which vectorizes */
		for (i = 0; i < nrows; i++)
			rows[i] = i;
		n = nrows;
	}
	else
	{
		for (i = 0; i < nrows; i++)
		{
			rows[n] = i;
			n += selected[i];
		}
	}
	for (k = 0; k < pruner->nkeys && n > 0; k++)
	{
		PruneKey   *key = &pruner->keys[pruner->order[k]];
		PruneKey   *range[8];
		int			nrange = 0;
		int			kept = -1;

		/* the keys after it on its column that make a range with it */
		while (k + nrange < pruner->nkeys && nrange < lengthof(range))
		{
			PruneKey   *next = &pruner->keys[pruner->order[k + nrange]];

			if (!KeyIsRangeBound(next) || next->attno != key->attno ||
				next->int_ok != key->int_ok)
				break;
			range[nrange++] = next;
		}
		if (nrange > 1)
			kept = FilterRange(range, nrange, nrows, scan, rows, n);
		if (kept >= 0)
		{
			/* all the pass rate to the first: OrderKeys multiplies them */
			key->rows_in += n;
			key->rows_out += kept;
			for (i = 1; i < nrange; i++)
			{
				range[i]->rows_in += kept;
				range[i]->rows_out += kept;
			}
			n = kept;
			k += nrange - 1;
			continue;
		}
		key->rows_in += n;
		n = FilterKey(pruner, key, nrows, scan, rows, n);
		key->rows_out += n;
	}
	memset(selected, false, nrows);
	for (i = 0; i < n; i++)
		selected[rows[i]] = true;
	OrderKeys(pruner);
	*nsel = n;
	return rows;
}
