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

/* groups up to which NumericSumFoldInt64 sums a batch on its stack */
#define FOLD_LOCAL_GROUPS 256

/*
 * NumericSumFoldInt64
 *		Fold the listed rows of a batch (rows[0 .. nsel - 1], or rows
 *		0 .. nsel - 1 if rows is NULL) of int64 values times 10^-scale into
 *		accs[groups[i]] (accs[0] if groups is NULL; ngroups states), skipping
 *		rows isnull marks (none if NULL).  Display scales are dscales[i], or
 *		dscale for every row if dscales is NULL.
 *
 * With few groups, each group's rows are summed exactly in an int128 on the
 * stack (a batch's int64s cannot overflow it) and added to its state once,
 * by NumericSumAddTotal: the same sums, counts and display scales as adding
 * value after value, with one addition per row.
 */
void
NumericSumFoldInt64(NumericSum *accs, const uint32 *groups, uint32 ngroups,
					const int64 *values, const int64 *dscales, int dscale,
					const bool *isnull, int scale, const int *rows, int nsel,
					MemoryContext cxt)
{
	int128		sums[FOLD_LOCAL_GROUPS];
	int128		sums2[FOLD_LOCAL_GROUPS];
	int64		counts[FOLD_LOCAL_GROUPS];
	int64		counts2[FOLD_LOCAL_GROUPS];
	int64		maxd[FOLD_LOCAL_GROUPS];
	uint32		g;
	int			i;
	int			j;

#define ROW_OF(j) (rows != NULL ? rows[j] : (j))
	if (groups == NULL)
		ngroups = 1;
	if (ngroups > FOLD_LOCAL_GROUPS)
	{
		for (j = 0; j < nsel; j++)
		{
			i = ROW_OF(j);
			if (isnull == NULL || !isnull[i])
				NumericSumAddScaled(&accs[groups[i]], values[i], scale,
									dscales != NULL ? (int) dscales[i] : dscale,
									cxt);
		}
		return;
	}
	if (dscales != NULL)
	{
		/* a numeric(p, s) column's rows share one display scale */
		int64		first = -1;
		bool		same = true;

		for (j = 0; j < nsel; j++)
		{
			i = ROW_OF(j);
			if (isnull != NULL && isnull[i])
				continue;
			if (first < 0)
				first = dscales[i];
			same &= (dscales[i] == first);
		}
		if (same)
		{
			dscales = NULL;
			dscale = first < 0 ? 0 : (int) first;
		}
	}
	if (isnull == NULL && dscales == NULL)
	{
		if (groups == NULL)
		{
			/* Q6's case: one plain sum */
			int128		sum = 0;

			if (rows == NULL)
			{
				for (j = 0; j < nsel; j++)
					sum += values[j];
			}
			else
			{
				for (j = 0; j < nsel; j++)
					sum += values[rows[j]];
			}
			NumericSumAddTotal(&accs[0], sum, nsel, scale, dscale, cxt);
			return;
		}
		/*
		 * Q1's case: a few groups, no NULLs.  Neighbouring rows are often of
		 * one group: even and odd rows go to sums of their own, so that an
		 * addition does not wait for the one before it.
		 */
		for (g = 0; g < ngroups; g++)
		{
			sums[g] = 0;
			sums2[g] = 0;
			counts[g] = 0;
			counts2[g] = 0;
		}
		for (j = 0; j + 1 < nsel; j += 2)
		{
			int			i2 = ROW_OF(j + 1);
			uint32		g2;

			i = ROW_OF(j);
			g = groups[i];
			g2 = groups[i2];
			Assert(g < ngroups && g2 < ngroups);
			sums[g] += values[i];
			sums2[g2] += values[i2];
			counts[g]++;
			counts2[g2]++;
		}
		if (j < nsel)
		{
			i = ROW_OF(j);
			sums[groups[i]] += values[i];
			counts[groups[i]]++;
		}
		for (g = 0; g < ngroups; g++)
			NumericSumAddTotal(&accs[g], sums[g] + sums2[g], counts[g] + counts2[g], scale,
							   dscale, cxt);
		return;
	}
	for (g = 0; g < ngroups; g++)
	{
		sums[g] = 0;
		counts[g] = 0;
		maxd[g] = dscale;
	}
	for (j = 0; j < nsel; j++)
	{
		i = ROW_OF(j);
		if (isnull != NULL && isnull[i])
			continue;
		g = groups != NULL ? groups[i] : 0;
		Assert(g < ngroups);
		sums[g] += values[i];
		counts[g]++;
		if (dscales != NULL && dscales[i] > maxd[g])
			maxd[g] = dscales[i];
	}
	for (g = 0; g < ngroups; g++)
		NumericSumAddTotal(&accs[g], sums[g], counts[g], scale, (int) maxd[g], cxt);
#undef ROW_OF
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
