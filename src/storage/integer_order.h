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
