/*-------------------------------------------------------------------------
 *
 * integer_order.h
 *	  Types whose datums compare as signed integers.
 *
 * For these types the default btree order is the order of the datum read
 * as a signed integer of the type's width, so min/max, pruning and
 * aggregation can compare int64s instead of calling the comparison
 * function.
 *
 * IDENTIFICATION
 *	  src/storage/integer_order.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef INTEGER_ORDER_H
#define INTEGER_ORDER_H

#include "catalog/pg_type.h"

/* Does typid's default btree order equal its datums' signed order? */
static inline bool
TypeHasSignedIntegerOrder(Oid typid)
{
	switch (typid)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case DATEOID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			return true;
		default:
			return false;
	}
}

/* A datum of a type TypeHasSignedIntegerOrder accepts, as int64. */
static inline int64
SignedIntegerDatum(Oid typid, Datum value)
{
	switch (typid)
	{
		case INT2OID:
			return DatumGetInt16(value);
		case INT4OID:
		case DATEOID:
			return DatumGetInt32(value);
		default:
			return DatumGetInt64(value);
	}
}

/*
 * The least and greatest value of a type TypeHasSignedIntegerOrder accepts,
 * as int64s (its datum's width: -infinity and infinity of date and the
 * timestamps are the ends).
 */
static inline void
SignedIntegerBounds(Oid typid, int64 *least, int64 *greatest)
{
	switch (typid)
	{
		case INT2OID:
			*least = PG_INT16_MIN;
			*greatest = PG_INT16_MAX;
			break;
		case INT4OID:
		case DATEOID:
			*least = PG_INT32_MIN;
			*greatest = PG_INT32_MAX;
			break;
		default:
			*least = PG_INT64_MIN;
			*greatest = PG_INT64_MAX;
			break;
	}
}

/* The datum of a type TypeHasSignedIntegerOrder accepts holding value. */
static inline Datum
SignedIntegerToDatum(Oid typid, int64 value)
{
	switch (typid)
	{
		case INT2OID:
			return Int16GetDatum((int16) value);
		case INT4OID:
		case DATEOID:
			return Int32GetDatum((int32) value);
		default:
			return Int64GetDatum(value);
	}
}

#endif							/* INTEGER_ORDER_H */
