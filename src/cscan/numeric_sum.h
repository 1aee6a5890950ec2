/*-------------------------------------------------------------------------
 *
 * numeric_sum.h
 *	  Exact running sums of numeric values for ColstoreAgg's sum and avg.
 *
 * IDENTIFICATION
 *	  src/cscan/numeric_sum.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NUMERIC_SUM_H
#define NUMERIC_SUM_H

#include "postgres.h"

#include "lib/stringinfo.h"

#ifndef HAVE_INT128
#error "ColstoreAgg needs a 128-bit integer type for its sums"
#endif

/*
 * The state of one sum: what PostgreSQL's NumericAggState keeps for sum
 * and avg, with the finite values summed in an int128 where they fit.
 * All zeros is an empty sum.
 */
typedef struct NumericSum
{
	int64		count;			/* finite values (avg's N) */
	int64		nan;			/* NaN values */
	int64		pinf;			/* +Infinity values */
	int64		ninf;			/* -Infinity values */
	int128		sum;			/* finite values times 10^scale */
	int			scale;			/* fractional decimal digits of sum */
	int			max_dscale;		/* largest display scale of a finite value */
	Datum		rest;			/* numeric sum of the finite values that did
								 * not fit in sum, or 0 */
} NumericSum;

extern void NumericSumAdd(NumericSum *acc, Datum value, MemoryContext cxt);
extern void NumericSumAddSlow(NumericSum *acc, int128 value, int scale,
							  MemoryContext cxt);

/*
 * NumericSumAddScaled
 *		Fold the finite numeric value * 10^-scale, of display scale dscale,
 *		into acc (the scaled-integer chunk encoding's form of a value).
 */
static inline void
NumericSumAddScaled(NumericSum *acc, int128 value, int scale, int dscale,
					MemoryContext cxt)
{
	int128		sum;

	acc->count++;
	if (dscale > acc->max_dscale)
		acc->max_dscale = dscale;
	if (likely(scale == acc->scale) &&
		!__builtin_add_overflow(acc->sum, value, &sum))
		acc->sum = sum;
	else
		NumericSumAddSlow(acc, value, scale, cxt);
}

/*
 * NumericSumAddTotal
 *		Add count finite values whose exact sum is total * 10^-scale and
 *		whose largest display scale is dscale: what count calls of
 *		NumericSumAddScaled would do, since the sum is exact either way.
 */
static inline void
NumericSumAddTotal(NumericSum *acc, int128 total, int64 count, int scale,
				   int dscale, MemoryContext cxt)
{
	int128		sum;

	if (count == 0)
		return;
	acc->count += count;
	if (dscale > acc->max_dscale)
		acc->max_dscale = dscale;
	if (likely(scale == acc->scale) &&
		!__builtin_add_overflow(acc->sum, total, &sum))
		acc->sum = sum;
	else
		NumericSumAddSlow(acc, total, scale, cxt);
}

/*
 * The rows of a batch to fold: rows[0 .. nsel - 1] (rows 0 .. nsel - 1 if
 * rows is NULL), row i of group groups[i] (all of group 0 if groups is
 * NULL); by_group, if not NULL, holds the same rows sorted by group (stable),
 * group g's at by_group[group_start[g] .. group_start[g + 1] - 1].
 */
typedef struct NumericFoldRows
{
	const int  *rows;
	int			nsel;
	const uint32 *groups;
	uint32		ngroups;
	const int  *by_group;
	const int  *group_start;	/* [ngroups + 1] */
	uint64		batchno;		/* the batch's number in the scan, from 1 */
} NumericFoldRows;

extern void NumericSumFoldInt64(NumericSum *accs, const NumericFoldRows *fr,
								const int64 *values, const int64 *dscales,
								int dscale, const bool *isnull, int scale,
								MemoryContext cxt);
extern void NumericSumSerialize(const NumericSum *acc, StringInfo buf);
extern void NumericSumMergeSerialized(NumericSum *acc, const char **p,
									  MemoryContext cxt);
extern Datum NumericSumResult(const NumericSum *acc, bool *isnull);
extern Datum NumericAvgResult(const NumericSum *acc, bool *isnull);
extern Datum Int128GetNumeric(int128 value);

#endif							/* NUMERIC_SUM_H */
