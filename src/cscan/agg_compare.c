/*-------------------------------------------------------------------------
 *
 * agg_compare.c
 *	  ColstoreAgg's min and max of types compared by a btree comparison
 *	  function (numeric, text, varchar, char(n)).
 *
 * The aggregates' transition functions keep the state when it compares
 * below (min) or above (max) the new value.  On ties they differ:
 * numeric_smaller/larger and text_smaller/larger take the new value, so
 * among equal values (1.5 and 1.50, strings a collation finds equal) the
 * last one read wins, while bpchar_smaller/larger keep the state, so the
 * first one wins ('c1' before 'c1  ').  This file decides the same way with
 * the type's default btree comparison function under the aggregate's input
 * collation, reading rows in the order a sequential scan does.  Parallel participants' states are merged
 * with the same rule, as the aggregates' combine functions (the same
 * functions) merge them.  Values are detoasted and copied into the
 * aggregate's memory; a replaced copy is freed.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_compare.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

#include "cscan/agg_compare.h"

/* Set up cmp for a min or max (kind) of type under collation. */
void
AggCompareInit(AggCompare *cmp, ColstoreAggKind kind, Oid type, Oid collation)
{
	TypeCacheEntry *tce = lookup_type_cache(type, TYPECACHE_CMP_PROC_FINFO);

	if (!OidIsValid(tce->cmp_proc_finfo.fn_oid))
		elog(ERROR, "no comparison function for type %u", type);
	fmgr_info_copy(&cmp->cmp, &tce->cmp_proc_finfo, CurrentMemoryContext);
	cmp->kind = kind;
	cmp->collation = collation;
	cmp->ties_keep_state = type == BPCHAROID;
	get_typlenbyval(type, &cmp->typlen, &cmp->typbyval);
}

/* Does the state keep its value against value, as the smaller/larger functions decide? */
static bool
StateWins(const AggCompare *cmp, Datum state, Datum value)
{
	int32		c = DatumGetInt32(FunctionCall2Coll((FmgrInfo *) &cmp->cmp,
													cmp->collation, state, value));

	if (c == 0)
		return cmp->ties_keep_state;
	return cmp->kind == COLSTORE_AGG_MIN ? c < 0 : c > 0;
}

/* Make value (detoasted, copied into cxt) the state's. */
static void
TakeValue(const AggCompare *cmp, AggCompareState *state, Datum value, MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);

	if (state->set && !cmp->typbyval)
		pfree(DatumGetPointer(state->value));
	if (cmp->typlen == -1)
		value = PointerGetDatum(PG_DETOAST_DATUM_COPY(value));
	else
		value = datumCopy(value, cmp->typbyval, cmp->typlen);
	state->value = value;
	state->set = true;
	MemoryContextSwitchTo(old);
}

/*
 * AggCompareAdd
 *		Fold a non-NULL value into state; the comparison's own allocations
 *		(detoasting) go to the current memory context.
 */
void
AggCompareAdd(const AggCompare *cmp, AggCompareState *state, Datum value,
			  MemoryContext cxt)
{
	if (!state->set || !StateWins(cmp, state->value, value))
		TakeValue(cmp, state, value, cxt);
}

/* Append state to buf for AggCompareMerge in another process. */
void
AggCompareSerialize(const AggCompare *cmp, const AggCompareState *state,
					StringInfo buf)
{
	Size		size = datumEstimateSpace(state->value, !state->set, cmp->typbyval,
										  cmp->typlen);
	char	   *p;

	enlargeStringInfo(buf, size);
	p = buf->data + buf->len;
	datumSerialize(state->value, !state->set, cmp->typbyval, cmp->typlen, &p);
	buf->len += size;
	buf->data[buf->len] = '\0';
}

/* Fold a state AggCompareSerialize wrote at *p into state; advance *p. */
void
AggCompareMerge(const AggCompare *cmp, AggCompareState *state, const char **p,
				MemoryContext cxt)
{
	bool		isnull;
	Datum		value = datumRestore((char **) p, &isnull);

	if (!isnull)
		AggCompareAdd(cmp, state, value, cxt);
}
