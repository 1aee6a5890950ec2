/*-------------------------------------------------------------------------
 *
 * integer_division.h
 *	  "x % d" and "x / d" on int2, int4 or int8 with a constant divisor
 *	  that cannot make them raise an error (integer_division.c).
 *
 * IDENTIFICATION
 *	  src/cscan/integer_division.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef INTEGER_DIVISION_H
#define INTEGER_DIVISION_H

#include "nodes/nodes.h"

typedef enum IntegerDivisionKind
{
	INTEGER_REMAINDER,			/* x % d */
	INTEGER_QUOTIENT			/* x / d */
} IntegerDivisionKind;

typedef struct IntegerDivision
{
	IntegerDivisionKind kind;
	Oid			type;			/* INT2OID, INT4OID or INT8OID: x's and the
								 * result's */
	int64		divisor;		/* never 0 or -1 */
} IntegerDivision;

extern bool IntegerDivisionOf(Node *expr, Node **dividend, IntegerDivision *division);

#endif							/* INTEGER_DIVISION_H */
