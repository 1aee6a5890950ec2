/*-------------------------------------------------------------------------
 *
 * agg_float.h
 *	  ColstoreAgg's sum, avg, min and max of float4 and float8, computed as
 *	  PostgreSQL's own transition functions compute them.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_float.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AGG_FLOAT_H
#define AGG_FLOAT_H

#include "cscan/agg_classify.h"

/* The state of one float aggregate in one group. */
typedef struct AggFloatState
{
	double		n;				/* values folded (float8_accum's N) */
	double		sum;			/* sum, or avg's Sx; a float4 sum holds a
								 * float4 */
	double		sumsq;			/* avg's Sxx, kept for its overflow checks */
	double		minmax;
} AggFloatState;

extern void AggFloatAdd(ColstoreAggKind kind, Oid type, AggFloatState *state,
						double value);
extern void AggFloatMerge(ColstoreAggKind kind, Oid type, AggFloatState *state,
						  const AggFloatState *other);
extern Datum AggFloatResult(ColstoreAggKind kind, Oid type,
							const AggFloatState *state, bool *isnull);

#endif							/* AGG_FLOAT_H */
