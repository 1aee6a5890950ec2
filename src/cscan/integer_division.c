/*-------------------------------------------------------------------------
 *
 * integer_division.c
 *	  Recognizing "x % d" and "x / d" on int2, int4 or int8 whose divisor
 *	  is a constant other than 0 and -1, so that the batch filter can decide
 *	  "column % d <op> value" on int64s (chunk_filter.c).
 *
 * PostgreSQL's int2mod, int4mod and int8mod, and int2div, int4div and
 * int8div, raise an error only for a zero divisor, and treat -1 apart
 * (the remainder is 0; the quotient of the type's minimum overflows); for
 * any other divisor they return what C's truncating "%" and "/" give.  C
 * gives the same results on the values widened to int64, and they fit the
 * type, so a filter computing them on int64s decides exactly what the
 * executor would, and never meets an error the executor would raise.
 *
 * IDENTIFICATION
 *	  src/cscan/integer_division.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/primnodes.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "cscan/integer_division.h"

/*
 * IntegerDivisionOf
 *		If expr is "x % d" or "x / d" computed by int2mod, int4mod, int8mod,
 *		int2div, int4div or int8div with d a non-NULL constant other than 0
 *		and -1, set *dividend to x (any expression of the function's type)
 *		and *division, and return true; otherwise return false.
 */
bool
IntegerDivisionOf(Node *expr, Node **dividend, IntegerDivision *division)
{
	OpExpr	   *op;
	Const	   *divisor;

	if (!IsA(expr, OpExpr) || list_length(((OpExpr *) expr)->args) != 2)
		return false;
	op = (OpExpr *) expr;
	switch (get_opcode(op->opno))
	{
		case F_INT2MOD:
			division->kind = INTEGER_REMAINDER;
			division->type = INT2OID;
			break;
		case F_INT4MOD:
			division->kind = INTEGER_REMAINDER;
			division->type = INT4OID;
			break;
		case F_INT8MOD:
			division->kind = INTEGER_REMAINDER;
			division->type = INT8OID;
			break;
		case F_INT2DIV:
			division->kind = INTEGER_QUOTIENT;
			division->type = INT2OID;
			break;
		case F_INT4DIV:
			division->kind = INTEGER_QUOTIENT;
			division->type = INT4OID;
			break;
		case F_INT8DIV:
			division->kind = INTEGER_QUOTIENT;
			division->type = INT8OID;
			break;
		default:
			return false;
	}
	if (!IsA(lsecond(op->args), Const))
		return false;
	divisor = (Const *) lsecond(op->args);
	if (divisor->constisnull || divisor->consttype != division->type)
		return false;
	switch (division->type)
	{
		case INT2OID:
			division->divisor = DatumGetInt16(divisor->constvalue);
			break;
		case INT4OID:
			division->divisor = DatumGetInt32(divisor->constvalue);
			break;
		default:
			division->divisor = DatumGetInt64(divisor->constvalue);
			break;
	}
	if (division->divisor == 0 || division->divisor == -1)
		return false;
	*dividend = linitial(op->args);
	return true;
}
