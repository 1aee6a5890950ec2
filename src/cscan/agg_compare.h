/*-------------------------------------------------------------------------
 *
 * agg_compare.h
 *	  ColstoreAgg's min and max of types compared by a btree comparison
 *	  function (numeric, text, varchar, char(n)).
 *
 * IDENTIFICATION
 *	  src/cscan/agg_compare.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AGG_COMPARE_H
#define AGG_COMPARE_H

#include "fmgr.h"
#include "lib/stringinfo.h"

#include "cscan/agg_classify.h"

/* The type and comparison of one such aggregate. */
typedef struct AggCompare
{
	ColstoreAggKind kind;		/* COLSTORE_AGG_MIN or COLSTORE_AGG_MAX */
	FmgrInfo	cmp;			/* the type's default btree comparison */
	Oid			collation;		/* the aggregate's input collation */
	bool		ties_keep_state;	/* char(n): an equal value does not
									 * replace */
	int16		typlen;
	bool		typbyval;
} AggCompare;

/* The state of one such aggregate in one group. */
typedef struct AggCompareState
{
	Datum		value;			/* in the aggregate's memory */
	bool		set;
} AggCompareState;

extern void AggCompareInit(AggCompare *cmp, ColstoreAggKind kind, Oid type,
						   Oid collation);
extern void AggCompareAdd(const AggCompare *cmp, AggCompareState *state,
						  Datum value, MemoryContext cxt);
extern void AggCompareSerialize(const AggCompare *cmp, const AggCompareState *state,
								StringInfo buf);
extern void AggCompareMerge(const AggCompare *cmp, AggCompareState *state,
							const char **p, MemoryContext cxt);

#endif							/* AGG_COMPARE_H */
