/*-------------------------------------------------------------------------
 *
 * numeric_sum.c
 *	  Exact running sums of numeric values for ColstoreAgg's sum and avg.
 *
 * PostgreSQL's sum(numeric) and avg(numeric) count NaN and infinite inputs
 * apart, sum the finite ones exactly, and give the sum the largest display
 * scale among them (accum_sum_add, numeric_sum, numeric_avg in numeric.c).
 * A NumericSum does the same without building a NumericVar per value: a
 * finite value comes either as the scaled-integer chunk encoding's int64
 * and scale (NumericSumAddScaled, inline) or as a datum whose base-10000
 * digits are read straight from its bytes (numeric_view.h), and is added
 * to an int128 kept at the largest scale seen so far.  A value with more
 * than 9 base-10000 digits or scale above 36, or one that would overflow
 * the int128, goes to a numeric sum on the side (numeric_add), which the
 * result adds back, so the sum is always exact.
 *
 * The results are built the way numeric_sum and numeric_avg build theirs:
 * NULL without inputs, NaN if any input is NaN or both infinities occur,
 * the infinity that occurs, else the exact sum with the largest display
 * scale (digits are never lost: a numeric has no non-zero digits past its
 * display scale), and avg = numeric_div(sum, count).
 *
 * IDENTIFICATION
 *	  src/cscan/numeric_sum.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

#include "cscan/numeric_sum.h"
#include "encoding/numeric_view.h"


/*
 * numeric of value * 10^-scale, with at least dscale fractional digits and
 * no trailing fractional zeros beyond them, built by numeric_in from text.
 */
static Datum
ScaledInt128GetNumeric(int128 value, int scale, int dscale)
{
	int			len = 48 + Max(scale, dscale);
	char	   *buf = palloc(len + 1);
	char	   *p = buf + len;
	char	   *out = palloc(len + 4);
	char	   *q = out;
	bool		negative = value < 0;
	uint128		u = negative ? -(uint128) value : (uint128) value;
	int			ndigits = 0;
	int			keep;
	Datum		result;

	/* right-aligned digits of u, at least scale + 1 of them */
	*p = '\0';
	do
	{
		*--p = '0' + (int) (u % 10);
		u /= 10;
		ndigits++;
	} while (u > 0 || ndigits <= scale);

	/* drop fractional zeros beyond dscale, then add zeros up to it */
	keep = scale;
	while (keep > dscale && buf[len - 1 - (scale - keep)] == '0')
		keep--;
	if (negative)
		*q++ = '-';
	memcpy(q, p, ndigits - scale);
	q += ndigits - scale;
	if (Max(keep, dscale) > 0)
	{
		*q++ = '.';
		memcpy(q, p + ndigits - scale, keep);
		q += keep;
		for (; keep < dscale; keep++)
			*q++ = '0';
	}
	*q = '\0';
	result = DirectFunctionCall3(numeric_in, CStringGetDatum(out),
								 ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	pfree(out);
	pfree(buf);
	return result;
}

/* numeric of an integer (sums of integers) */
Datum
Int128GetNumeric(int128 value)
{
	return ScaledInt128GetNumeric(value, 0, 0);
}

/* Add a numeric to acc->rest, allocated in cxt. */
static void
AddToRest(NumericSum *acc, Datum value, MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	Datum		previous = acc->rest;

	acc->rest = previous == (Datum) 0 ? datumCopy(value, false, -1) :
		DirectFunctionCall2(numeric_add, previous, value);
	if (previous != (Datum) 0)
		pfree(DatumGetPointer(previous));
	MemoryContextSwitchTo(old);
}

/*
 * Fold values[idx[0 .. n - 1]] (values[0 .. n - 1] if idx is NULL) into one
 * state: their exact sum in an int128 (n int64s cannot overflow it), their
 * count and largest display scale in registers, then NumericSumAddTotal
 * once.  NULL rows (isnull, if not NULL) are skipped; display scales are
 * dscales[i], or dscale for every row if dscales is NULL.
 */
static void
FoldRange(NumericSum *acc, const int64 *values, const int64 *dscales, int dscale,
		  const bool *isnull, int scale, const int *idx, int n, MemoryContext cxt)
{
	int128		sum = 0;
	int64		count = n;
	int64		maxd = dscale;
	int			j;

#define IDX(j) (idx != NULL ? idx[j] : (j))
	if (isnull == NULL && dscales == NULL)
	{
		if (idx == NULL)
		{
			for (j = 0; j < n; j++)
				sum += values[j];
		}
		else
		{
			for (j = 0; j < n; j++)
				sum += values[idx[j]];
		}
	}
	else if (isnull == NULL)
	{
		for (j = 0; j < n; j++)
		{
			int			i = IDX(j);

			sum += values[i];
			maxd = Max(maxd, dscales[i]);
		}
	}
	else
	{
		count = 0;
		for (j = 0; j < n; j++)
		{
			int			i = IDX(j);
			bool		valid = !isnull[i];

			/* a NULL row's value and display scale may be anything */
			sum += valid ? values[i] : 0;
			count += valid;
			if (dscales != NULL)
				maxd = Max(maxd, valid ? dscales[i] : 0);
		}
	}
#undef IDX
	NumericSumAddTotal(acc, sum, count, scale, (int) maxd, cxt);
}

/*
 * NumericSumFoldInt64
 *		Fold int64 values times 10^-scale of a batch's listed rows into
 *		their groups' states (see NumericFoldRows), skipping rows isnull
 *		marks (none if NULL).  Display scales are dscales[i], or dscale for
 *		every row if dscales is NULL.
 *
 * Each group's rows are summed exactly in an int128 and added to its state
 * once (FoldRange): the same sums, counts and display scales as adding value
 * after value, with one addition per row and no state in memory per row.
 * Without the rows sorted by group, value after value.
 */
void
NumericSumFoldInt64(NumericSum *accs, const NumericFoldRows *fr,
					const int64 *values, const int64 *dscales, int dscale,
					const bool *isnull, int scale, MemoryContext cxt)
{
	const int  *rows = fr->rows;
	uint32		g;
	int			i;
	int			j;

	if (fr->groups == NULL)
	{
		FoldRange(&accs[0], values, dscales, dscale, isnull, scale, rows,
				  fr->nsel, cxt);
		return;
	}
	if (fr->by_group != NULL)
	{
		for (g = 0; g < fr->ngroups; g++)
		{
			int			first = fr->group_start[g];

			if (fr->group_start[g + 1] > first)
				FoldRange(&accs[g], values, dscales, dscale, isnull, scale,
						  fr->by_group + first, fr->group_start[g + 1] - first,
						  cxt);
		}
		return;
	}
	for (j = 0; j < fr->nsel; j++)
	{
		i = rows != NULL ? rows[j] : j;
		if (isnull == NULL || !isnull[i])
			NumericSumAddScaled(&accs[fr->groups[i]], values[i], scale,
								dscales != NULL ? (int) dscales[i] : dscale,
								cxt);
	}
}

/*
 * NumericSumAddSlow
 *		Add the finite value * 10^-scale to acc's sum (already counted):
 *		the sum's scale grows to the value's (up to
 *		NUMERIC_INT128_MAX_SCALE), and what does not fit in the int128 goes
 *		to acc->rest.
 */
void
NumericSumAddSlow(NumericSum *acc, int128 value, int scale, MemoryContext cxt)
{
	int128		sum;

	if (scale > NUMERIC_INT128_MAX_SCALE)
	{
		/* a tiny fraction would make every later value's scale too large */
		AddToRest(acc, ScaledInt128GetNumeric(value, scale, 0), cxt);
		return;
	}
	if (scale > acc->scale)
	{
		int128		rescaled = acc->sum;

		if (!Int128MulPow10(&rescaled, scale - acc->scale))
		{
			AddToRest(acc, ScaledInt128GetNumeric(acc->sum, acc->scale, 0), cxt);
			rescaled = 0;
		}
		acc->sum = rescaled;
		acc->scale = scale;
	}
	else if (scale < acc->scale)
	{
		int128		v = value;

		if (!Int128MulPow10(&v, acc->scale - scale))
		{
			AddToRest(acc, ScaledInt128GetNumeric(value, scale, 0), cxt);
			return;
		}
		value = v;
	}
	if (__builtin_add_overflow(acc->sum, value, &sum))
	{
		AddToRest(acc, ScaledInt128GetNumeric(acc->sum, acc->scale, 0), cxt);
		sum = value;
	}
	acc->sum = sum;
}

/*
 * NumericSumAdd
 *		Fold one non-null numeric datum into acc; anything acc->rest
 *		allocates lives in cxt.
 */
void
NumericSumAdd(NumericSum *acc, Datum value, MemoryContext cxt)
{
	NumericView view;
	int128		v;
	int			scale;

	if (!NumericViewOf(value, &view))
	{
		/* compressed or external (a heap tuple's value): detoast it */
		value = PointerGetDatum(PG_DETOAST_DATUM_PACKED(value));
		if (!NumericViewOf(value, &view))
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("invalid numeric value in a colstore table")));
	}
	switch (view.kind)
	{
		case NUMERIC_VIEW_NAN:
			acc->nan++;
			return;
		case NUMERIC_VIEW_PINF:
			acc->pinf++;
			return;
		case NUMERIC_VIEW_NINF:
			acc->ninf++;
			return;
		case NUMERIC_VIEW_FINITE:
			break;
	}
	acc->count++;
	acc->max_dscale = Max(acc->max_dscale, view.dscale);
	if (NumericViewScaled(&view, NUMERIC_INT128_MAX_SCALE, &v, &scale))
		NumericSumAddSlow(acc, v, scale, cxt);
	else
		AddToRest(acc, value, cxt);
}

/*
 * NumericSumSerialize
 *		Append acc to buf: the struct without its rest pointer, then the
 *		rest's length (0: none) and bytes.
 */
void
NumericSumSerialize(const NumericSum *acc, StringInfo buf)
{
	NumericSum	copy = *acc;
	uint32		len = 0;

	copy.rest = (Datum) 0;
	appendBinaryStringInfo(buf, (const char *) &copy, sizeof(NumericSum));
	if (acc->rest != (Datum) 0)
		len = VARSIZE_ANY(DatumGetPointer(acc->rest));
	appendBinaryStringInfo(buf, (const char *) &len, sizeof(uint32));
	if (len > 0)
		appendBinaryStringInfo(buf, DatumGetPointer(acc->rest), len);
}

/*
 * NumericSumMergeSerialized
 *		Add the sum NumericSumSerialize wrote at *p to acc (counts, exact
 *		sums, largest display scale), and advance *p past it.
 */
void
NumericSumMergeSerialized(NumericSum *acc, const char **p, MemoryContext cxt)
{
	NumericSum	other;
	uint32		len;

	memcpy(&other, *p, sizeof(NumericSum));
	*p += sizeof(NumericSum);
	memcpy(&len, *p, sizeof(uint32));
	*p += sizeof(uint32);
	if (len > 0)
	{
		/* copied: the bytes in *p are not aligned */
		char	   *rest = palloc(len);

		memcpy(rest, *p, len);
		*p += len;
		AddToRest(acc, PointerGetDatum(rest), cxt);
		pfree(rest);
	}
	acc->count += other.count;
	acc->nan += other.nan;
	acc->pinf += other.pinf;
	acc->ninf += other.ninf;
	acc->max_dscale = Max(acc->max_dscale, other.max_dscale);
	if (other.sum != 0)
		NumericSumAddSlow(acc, other.sum, other.scale, cxt);
}

/* The finite values' exact sum as numeric (count > 0). */
static Datum
FiniteSum(const NumericSum *acc)
{
	Datum		sum = ScaledInt128GetNumeric(acc->sum, acc->scale, acc->max_dscale);

	if (acc->rest != (Datum) 0)
		sum = DirectFunctionCall2(numeric_add, sum, acc->rest);
	return sum;
}

/* NaN or an infinity if that is the result, else 0. */
static Datum
SpecialResult(const NumericSum *acc)
{
	if (acc->nan > 0 || (acc->pinf > 0 && acc->ninf > 0))
		return DirectFunctionCall3(numeric_in, CStringGetDatum("NaN"),
								   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	if (acc->pinf > 0)
		return DirectFunctionCall3(numeric_in, CStringGetDatum("Infinity"),
								   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	if (acc->ninf > 0)
		return DirectFunctionCall3(numeric_in, CStringGetDatum("-Infinity"),
								   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	return (Datum) 0;
}

/* sum(numeric) of what acc holds, as numeric_sum returns it. */
Datum
NumericSumResult(const NumericSum *acc, bool *isnull)
{
	Datum		special;

	*isnull = acc->count + acc->nan + acc->pinf + acc->ninf == 0;
	if (*isnull)
		return (Datum) 0;
	special = SpecialResult(acc);
	return special != (Datum) 0 ? special : FiniteSum(acc);
}

/* avg(numeric) of what acc holds, as numeric_avg returns it. */
Datum
NumericAvgResult(const NumericSum *acc, bool *isnull)
{
	Datum		sum = NumericSumResult(acc, isnull);

	/* NULL, NaN and the infinities are their own average */
	if (*isnull || acc->nan > 0 || acc->pinf > 0 || acc->ninf > 0)
		return sum;
	return DirectFunctionCall2(numeric_div, sum,
							   NumericGetDatum(int64_to_numeric(acc->count)));
}
