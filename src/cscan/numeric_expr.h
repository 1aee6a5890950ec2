/*-------------------------------------------------------------------------
 *
 * numeric_expr.h
 *	  Numeric arithmetic (+, -, *) over columns and constants, evaluated a
 *	  batch at a time for ColstoreAgg's sum and avg arguments.
 *
 * IDENTIFICATION
 *	  src/cscan/numeric_expr.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NUMERIC_EXPR_H
#define NUMERIC_EXPR_H

#include "postgres.h"

#include "access/relscan.h"
#include "nodes/primnodes.h"

typedef struct NumericExpr NumericExpr;

/*
 * One batch's values of an expression: value * 10^-scale per row, as int64s
 * of one display scale (values64 set; isnull NULL if no listed row is NULL),
 * else as int128s with a display scale per row (values, dscales, isnull),
 * else as numeric datums (datums, isnull).
 */
typedef struct NumericBatch
{
	int64	   *values64;		/* int64 values, all of display scale dscale */
	int			dscale;
	int128	   *values;
	int16	   *dscales;		/* display scale per row */
	bool	   *isnull;
	int			scale;
	Datum	   *datums;			/* instead of the above: numeric datums */
} NumericBatch;

extern bool NumericExprIsSupported(Node *expr, Index relid, int *ncolumns);
extern NumericExpr *NumericExprCompile(Node *expr, List **pool);
extern void NumericExprEvaluate(NumericExpr *expr, TableScanDesc scan, int nrows,
								const int *rows, int nsel, uint64 batchno,
								NumericBatch *out);

#endif							/* NUMERIC_EXPR_H */
