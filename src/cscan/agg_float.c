/*-------------------------------------------------------------------------
 *
 * agg_float.c
 *	  ColstoreAgg's sum, avg, min and max of float4 and float8, computed as
 *	  PostgreSQL's own transition functions compute them.
 *
 * Float arithmetic depends on the order of the values, so each state
 * follows the transition function of the aggregate step by step, in the
 * order the rows are read (a sequential scan's order, which is what
 * PostgreSQL's Agg sees over the same table):
 *
 *	sum(float8)		float8pl; the first value is the state as it is (a lone
 *					-0 stays -0)
 *	sum(float4)		float4pl, in float4 arithmetic
 *	avg(float4/8)	float8_accum / float4_accum: N, Sx and Sxx (Youngs-
 *					Cramer), whose overflow checks raise "value out of
 *					range" where PostgreSQL does; the result is Sx / N
 *	min/max			float8smaller / float8larger (and float4's): NaN above
 *					every number, ties keep the later value
 *
 * Parallel participants' states are merged as the aggregates' combine
 * functions merge them (float8pl, float8_combine, float8smaller, ...), in
 * the order the participants finish, as a parallel Agg does.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_float.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/float.h"

#include "cscan/agg_float.h"

/* The smaller (MIN) or larger (MAX) of state and value, as float8smaller/larger pick. */
static inline double
PickMinMax(ColstoreAggKind kind, double state, double value)
{
	if (kind == COLSTORE_AGG_MIN)
		return float8_lt(state, value) ? state : value;
	return float8_gt(state, value) ? state : value;
}

/*
 * AggFloatAdd
 *		Fold one non-NULL value (a float4's, widened, for float4 columns)
 *		into state.
 */
void
AggFloatAdd(ColstoreAggKind kind, Oid type, AggFloatState *state, double value)
{
	double		n_old = state->n;
	double		sx_old = state->sum;

	switch (kind)
	{
		case COLSTORE_AGG_SUM:
			if (n_old == 0)
				state->sum = value;
			else if (type == FLOAT4OID)
				state->sum = float4_pl((float4) state->sum, (float4) value);
			else
				state->sum = float8_pl(state->sum, value);
			break;
		case COLSTORE_AGG_AVG:
			/* float8_accum, step by step */
			state->sum += value;
			if (n_old > 0.0)
			{
				double		tmp = value * (n_old + 1.0) - state->sum;

				state->sumsq += tmp * tmp / ((n_old + 1.0) * n_old);
				if (isinf(state->sum) || isinf(state->sumsq))
				{
					if (!isinf(sx_old) && !isinf(value))
						float_overflow_error();
					state->sumsq = get_float8_nan();
				}
			}
			else if (isnan(value) || isinf(value))
				state->sumsq = get_float8_nan();
			break;
		case COLSTORE_AGG_MIN:
		case COLSTORE_AGG_MAX:
			state->minmax = n_old == 0 ? value : PickMinMax(kind, state->minmax, value);
			break;
		default:
			break;
	}
	state->n = n_old + 1.0;
}

/*
 * AggFloatMerge
 *		Fold another participant's state into state, as the aggregate's
 *		combine function does.
 */
void
AggFloatMerge(ColstoreAggKind kind, Oid type, AggFloatState *state,
			  const AggFloatState *other)
{
	if (other->n == 0)
		return;
	if (state->n == 0)
	{
		*state = *other;
		return;
	}
	switch (kind)
	{
		case COLSTORE_AGG_SUM:
			state->sum = type == FLOAT4OID ?
				float4_pl((float4) state->sum, (float4) other->sum) :
				float8_pl(state->sum, other->sum);
			break;
		case COLSTORE_AGG_AVG:
			{
				/* float8_combine */
				double		n = state->n + other->n;
				double		tmp = state->sum / state->n - other->sum / other->n;
				double		sumsq = state->sumsq + other->sumsq +
					state->n * other->n * tmp * tmp / n;

				if (unlikely(isinf(sumsq)) && !isinf(state->sumsq) && !isinf(other->sumsq))
					float_overflow_error();
				state->sum = float8_pl(state->sum, other->sum);
				state->sumsq = sumsq;
			}
			break;
		case COLSTORE_AGG_MIN:
		case COLSTORE_AGG_MAX:
			state->minmax = PickMinMax(kind, state->minmax, other->minmax);
			break;
		default:
			break;
	}
	state->n += other->n;
}

/* The aggregate's result for a state: NULL when it saw no value. */
Datum
AggFloatResult(ColstoreAggKind kind, Oid type, const AggFloatState *state, bool *isnull)
{
	double		result;

	*isnull = state->n == 0;
	if (*isnull)
		return (Datum) 0;
	switch (kind)
	{
		case COLSTORE_AGG_AVG:
			return Float8GetDatum(state->sum / state->n);
		case COLSTORE_AGG_SUM:
			result = state->sum;
			break;
		default:
			result = state->minmax;
			break;
	}
	return type == FLOAT4OID ? Float4GetDatum((float4) result) : Float8GetDatum(result);
}
