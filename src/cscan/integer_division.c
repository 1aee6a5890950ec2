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

/* The functions recognized, with what each computes. */
static const struct
{
	Oid			func;
	IntegerDivisionKind kind;
	Oid			type;
}			division_functions[] =

{
	{F_INT2MOD, INTEGER_REMAINDER, INT2OID},
	{F_INT4MOD, INTEGER_REMAINDER, INT4OID},
	{F_INT8MOD, INTEGER_REMAINDER, INT8OID},
	{F_INT2DIV, INTEGER_QUOTIENT, INT2OID},
	{F_INT4DIV, INTEGER_QUOTIENT, INT4OID},
	{F_INT8DIV, INTEGER_QUOTIENT, INT8OID},
};

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
	Oid			func;
	int			i;

	if (!IsA(expr, OpExpr) || list_length(((OpExpr *) expr)->args) != 2)
		return false;
	op = (OpExpr *) expr;
	func = get_opcode(op->opno);
	for (i = 0; i < lengthof(division_functions); i++)
	{
		if (division_functions[i].func == func)
			break;
	}
	if (i == lengthof(division_functions) || !IsA(lsecond(op->args), Const))
		return false;
	division->kind = division_functions[i].kind;
	division->type = division_functions[i].type;
	divisor = (Const *) lsecond(op->args);
	if (divisor->constisnull || divisor->consttype != division->type)
		return false;
	if (division->type == INT2OID)
		division->divisor = DatumGetInt16(divisor->constvalue);
	else if (division->type == INT4OID)
		division->divisor = DatumGetInt32(divisor->constvalue);
	else
		division->divisor = DatumGetInt64(divisor->constvalue);
	if (division->divisor == 0 || division->divisor == -1)
		return false;
	*dividend = linitial(op->args);
	return true;
}
