/*-------------------------------------------------------------------------
 *
 * agg_fold.h
 *	  ColstoreAgg's aggregates: per-group states folded from batches.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_fold.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AGG_FOLD_H
#define AGG_FOLD_H

#include "postgres.h"

#include "access/relscan.h"
#include "lib/stringinfo.h"

#include "cscan/agg_classify.h"
#include "cscan/agg_compare.h"
#include "cscan/agg_float.h"
#include "cscan/numeric_expr.h"
#include "cscan/numeric_sum.h"

/* The state of one aggregate in one group (integer kinds). */
typedef struct AggIntState
{
	int64		count;			/* values folded */
	int128		sum;
	int64		minmax;
} AggIntState;

/* Which of AggFold's state arrays an aggregate keeps. */
typedef enum AggStateKind
{
	AGG_STATES_INT,				/* counts, and integer sums, avgs, min/max */
	AGG_STATES_NUMERIC,			/* sum and avg of numeric */
	AGG_STATES_FLOAT,			/* float4/float8 aggregates but counts */
	AGG_STATES_COMPARE			/* min/max by comparison function */
} AggStateKind;

/* One aggregate and its states, one per group. */
typedef struct AggFold
{
	ColstoreAggKind kind;
	int			resno;			/* position in the scan tuple, 0-based */
	int			attno;			/* argument column, 0-based; -1: count(*) or
								 * an expression */
	Oid			type;			/* argument's type */
	NumericExpr *expr;			/* sum or avg of numeric arithmetic, or NULL */
	struct ChunkPruner *filter; /* the FILTER's conditions, or NULL */
	bool	   *filter_mask;	/* rows selected and passing them, in cxt */
	int			filter_mask_size;
	MemoryContext cxt;			/* states and numeric sums' side values */
	MemoryContext batch_cxt;	/* the expression's values for one batch */
	int		   *rows;			/* the batch's selected rows, in cxt */
	int			rows_size;
	AggStateKind states;		/* derived from kind, type and compare */
	uint32		nstates;		/* groups with a state */
	AggIntState *ints;			/* [nstates], integer kinds and counts */
	NumericSum *numerics;		/* [nstates], sum and avg of numeric */
	AggFloatState *floats;		/* [nstates], sum, avg, min, max of floats */
	AggCompare *compare;		/* min or max by comparison function, or NULL */
	AggCompareState *compares;	/* [nstates], its states */
} AggFold;

extern void AggFoldReset(AggFold *agg, MemoryContext cxt);
extern const int *AggFoldRowList(AggFold *agg, int nrows, const bool *selected,
								 int *nsel);
extern void AggFoldBatch(AggFold *agg, TableScanDesc scan, int nrows,
						 const bool *selected, const NumericFoldRows *batch);
extern void AggFoldBatchAll(AggFold *aggs, int naggs, TableScanDesc scan, int nrows,
							const bool *selected, const NumericFoldRows *batch);
extern Datum AggFoldResult(AggFold *agg, uint32 group, bool *isnull);
extern void AggFoldSerialize(AggFold *agg, uint32 group, StringInfo buf);
extern void AggFoldMerge(AggFold *agg, uint32 group, const char **p);

#endif							/* AGG_FOLD_H */
