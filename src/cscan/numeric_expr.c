/*-------------------------------------------------------------------------
 *
 * numeric_expr.c
 *	  Numeric arithmetic (+, -, *) over columns and constants, evaluated a
 *	  batch at a time for ColstoreAgg's sum and avg arguments.
 *
 * An argument such as l_extendedprice * (1 - l_discount) is a tree of
 * numeric_add, numeric_sub and numeric_mul over numeric columns of the
 * table and non-NULL numeric constants.  PostgreSQL computes these exactly:
 * the result of + and - has the larger display scale of its inputs, the
 * result of * the sum of theirs (numeric_add, numeric_sub, numeric_mul).
 * So where every column of a batch is stored in the scaled-integer
 * encoding, the tree is evaluated on int128s: each node's values share a
 * scale (the scales of + and - aligned to the larger, those of * added),
 * and each row carries its display scale by the same rules.  The sum of
 * those values, with the largest display scale, is exactly what sum() over
 * PostgreSQL's numerics gives.
 *
 * Nearly always every value of such a tree fits in an int64 and every row
 * of a column has the same display scale (a numeric(p, s) column), so the
 * tree is first evaluated on int64s of one display scale
 * (EvaluateInt64): one multiplication or addition per row and node with
 * an overflow flag, no per-row scales, and a column's values read where
 * the scan keeps them, not copied.  A batch where that does not hold (an
 * int64 overflows, display scales differ) is evaluated on int128s instead.
 *
 * When a column of the batch is in another form (another encoding, a delta
 * page), a constant does not fit (NaN, more than 36 fractional digits), a
 * node's scale would exceed 36 digits, a product's display scale would
 * exceed numeric's largest (numeric_mul rounds there), or an int128 would
 * overflow, the batch is
 * evaluated with PostgreSQL's own numeric functions instead, row by row,
 * which also gives NaN and infinities their meaning.  Operators are strict:
 * a NULL input gives a NULL row, which sum and avg skip.
 *
 * IDENTIFICATION
 *	  src/cscan/numeric_expr.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"

#include "cscan/numeric_expr.h"
#include "encoding/numeric_view.h"
#include "tableam/scan_engine.h"


typedef enum NumericExprKind
{
	NEXPR_COLUMN,
	NEXPR_CONST,
	NEXPR_ADD,
	NEXPR_SUB,
	NEXPR_MUL
} NumericExprKind;

struct NumericExpr
{
	NumericExprKind kind;
	int			attno;			/* NEXPR_COLUMN: 0-based */
	Datum		constant;		/* NEXPR_CONST */
	bool		const_fits;		/* the constant as value * 10^-scale: */
	int128		const_value;
	int			const_scale;
	int			const_dscale;
	NumericExpr *left;			/* operators */
	NumericExpr *right;
	/* this node's values for the current batch, kept across batches */
	MemoryContext cxt;
	int			capacity;		/* rows the arrays hold */
	NumericBatch batch;
	/* the same on int64s of one display scale (EvaluateInt64) */
	int			capacity64;		/* rows v64 and null64 hold */
	int64	   *v64;
	bool	   *null64;
	NumericBatch batch64;
	/* batch64 holds the values of this batch and row list (if memo_valid) */
	bool		memo_valid;
	uint64		memo_batch;
	const int  *memo_rows;
	int			memo_nsel;
};

/* The operator kind of an OpExpr, or NEXPR_COLUMN if it is none of ours. */
static NumericExprKind
OperatorKind(OpExpr *op)
{
	switch (op->opfuncid)
	{
		case F_NUMERIC_ADD:
			return NEXPR_ADD;
		case F_NUMERIC_SUB:
			return NEXPR_SUB;
		case F_NUMERIC_MUL:
			return NEXPR_MUL;
	}
	return NEXPR_COLUMN;
}

static bool OperandIsSupported(Node *arg, Index relid, int *ncolumns);

/*
 * NumericExprIsSupported
 *		Whether expr is +, -, * over numeric columns of relid and non-NULL
 *		numeric constants (an operator at the top); *ncolumns is increased
 *		by the number of column references.
 */
bool
NumericExprIsSupported(Node *expr, Index relid, int *ncolumns)
{
	OpExpr	   *op = (OpExpr *) expr;

	return IsA(expr, OpExpr) && OperatorKind(op) != NEXPR_COLUMN &&
		list_length(op->args) == 2 &&
		OperandIsSupported(linitial(op->args), relid, ncolumns) &&
		OperandIsSupported(lsecond(op->args), relid, ncolumns);
}

/* An operand: a supported operator, a numeric column or constant. */
static bool
OperandIsSupported(Node *arg, Index relid, int *ncolumns)
{
	if (IsA(arg, Var))
	{
		Var		   *var = (Var *) arg;

		(*ncolumns)++;
		return var->varno == relid && var->varattno > 0 &&
			var->varlevelsup == 0 && var->vartype == NUMERICOID;
	}
	if (IsA(arg, Const))
		return ((Const *) arg)->consttype == NUMERICOID &&
			!((Const *) arg)->constisnull;
	return NumericExprIsSupported(arg, relid, ncolumns);
}

/* A constant as value * 10^-scale, if it is finite and small enough. */
static void
CompileConstant(NumericExpr *node)
{
	NumericView view;

	node->const_fits = false;
	if (!NumericViewOf(node->constant, &view) || view.kind != NUMERIC_VIEW_FINITE)
		return;
	node->const_fits = NumericViewScaled(&view, NUMERIC_INT128_MAX_SCALE,
										 &node->const_value, &node->const_scale);
	node->const_dscale = view.dscale;
}

/*
 * NumericExprCompile
 *		The evaluation tree of an expression NumericExprIsSupported
 *		accepted (Vars of the table), in CurrentMemoryContext.  *pool lists
 *		the subexpressions compiled before (pairs of the expression and its
 *		node; NIL at first): an equal subexpression gets the same node, so
 *		that within a batch it is evaluated once for all the aggregates
 *		(TPC-H Q1's l_extendedprice * (1 - l_discount)), and the new ones
 *		are added.
 */
NumericExpr *
NumericExprCompile(Node *expr, List **pool)
{
	NumericExpr *node;
	ListCell   *lc;

	foreach(lc, *pool)
	{
		List	   *pair = lfirst(lc);

		if (equal(linitial(pair), expr))
			return (NumericExpr *) lsecond(pair);
	}
	node = palloc0(sizeof(NumericExpr));
	*pool = lappend(*pool, list_make2(expr, node));

	node->cxt = CurrentMemoryContext;
	if (IsA(expr, Var))
	{
		node->kind = NEXPR_COLUMN;
		node->attno = ((Var *) expr)->varattno - 1;
	}
	else if (IsA(expr, Const))
	{
		node->kind = NEXPR_CONST;
		node->constant = PointerGetDatum(PG_DETOAST_DATUM_COPY(((Const *) expr)->constvalue));
		CompileConstant(node);
	}
	else
	{
		OpExpr	   *op = castNode(OpExpr, expr);

		node->kind = OperatorKind(op);
		if (node->kind == NEXPR_COLUMN || list_length(op->args) != 2)
			elog(ERROR, "unexpected operator in a ColstoreAgg numeric argument");
		node->left = NumericExprCompile(linitial(op->args), pool);
		node->right = NumericExprCompile(lsecond(op->args), pool);
	}
	return node;
}

/*
 * *result = a * b; false on overflow.  Products of values that fit in 64
 * bits (nearly all) take one multiplication, not the overflow-checking
 * 128-bit routine.
 */
static inline bool
MulInt128(int128 a, int128 b, int128 *result)
{
	if (likely(a == (int64) a && b == (int64) b))
	{
		*result = (int128) (int64) a * (int64) b;
		return true;
	}
	return !__builtin_mul_overflow(a, b, result);
}

/* Room for nrows rows in the node's arrays (a constant's are filled). */
static void
EnsureCapacity(NumericExpr *e, int nrows)
{
	NumericBatch *b = &e->batch;
	int			i;

	if (nrows <= e->capacity)
		return;
	if (e->capacity > 0)
	{
		pfree(b->values);
		pfree(b->dscales);
		pfree(b->isnull);
	}
	b->values = MemoryContextAlloc(e->cxt, sizeof(int128) * nrows);
	b->dscales = MemoryContextAlloc(e->cxt, sizeof(int16) * nrows);
	b->isnull = MemoryContextAllocZero(e->cxt, sizeof(bool) * nrows);
	e->capacity = nrows;
	if (e->kind == NEXPR_CONST && e->const_fits)
	{
		for (i = 0; i < nrows; i++)
		{
			b->values[i] = e->const_value;
			b->dscales[i] = (int16) e->const_dscale;
		}
		b->scale = e->const_scale;
	}
}

/* Row j of a row list: rows[j], or j itself for all rows (rows NULL). */
#define ROW(j) (rows != NULL ? rows[j] : (j))

/*
 * Evaluate on int128s into the node's arrays for the nsel rows of the row
 * list (see NumericExprEvaluate); NULL if the batch needs the fallback.
 * Entries of other rows are left unset.  Children's arrays are only read.
 */
static NumericBatch *
EvaluateScaled(NumericExpr *e, TableScanDesc scan, int nrows, const int *rows,
			   int nsel)
{
	NumericBatch *out = &e->batch;
	NumericBatch *l;
	NumericBatch *r;
	int128		lf = 1;
	int128		rf = 1;
	int			j;

	if (e->kind == NEXPR_CONST && !e->const_fits)
		return NULL;
	EnsureCapacity(e, nrows);
	if (e->kind == NEXPR_CONST)
		return out;
	if (e->kind == NEXPR_COLUMN)
	{
		ColstoreScaledValues sv;

		/* a few selected rows are read alone, not the chunk decoded */
		if (!ColstoreScanBatchScaledRows(scan, e->attno, rows, nsel, nsel, &sv))
			return NULL;
		out->scale = sv.scale;
		for (j = 0; j < nsel; j++)
		{
			int			i = ROW(j);

			out->values[i] = sv.values[i];
			out->dscales[i] = (int16) sv.dscales[i];
			out->isnull[i] = sv.isnull[i];
		}
		return out;
	}
	if ((l = EvaluateScaled(e->left, scan, nrows, rows, nsel)) == NULL ||
		(r = EvaluateScaled(e->right, scan, nrows, rows, nsel)) == NULL)
		return NULL;
	if (e->kind == NEXPR_MUL)
	{
		if (l->scale + r->scale > NUMERIC_INT128_MAX_SCALE)
			return NULL;
		for (j = 0; j < nsel; j++)
		{
			int			i = ROW(j);

			/* numeric_mul rounds past the largest display scale: fall back */
			if (!MulInt128(l->values[i], r->values[i], &out->values[i]) ||
				l->dscales[i] + r->dscales[i] > NUM_DSCALE_MASK)
				return NULL;
			out->dscales[i] = l->dscales[i] + r->dscales[i];
			out->isnull[i] = l->isnull[i] || r->isnull[i];
		}
		out->scale = l->scale + r->scale;
		return out;
	}
	/* + and -: align the scales to the larger */
	out->scale = Max(l->scale, r->scale);
	if (out->scale > NUMERIC_INT128_MAX_SCALE)
		return NULL;
	if (!Int128MulPow10(&lf, out->scale - l->scale) ||
		!Int128MulPow10(&rf, out->scale - r->scale))
		return NULL;
	for (j = 0; j < nsel; j++)
	{
		int			i = ROW(j);
		int128		a;
		int128		b;

		if (!MulInt128(l->values[i], lf, &a) || !MulInt128(r->values[i], rf, &b) ||
			(e->kind == NEXPR_ADD ? __builtin_add_overflow(a, b, &out->values[i]) :
			 __builtin_sub_overflow(a, b, &out->values[i])))
			return NULL;
		out->dscales[i] = Max(l->dscales[i], r->dscales[i]);
		out->isnull[i] = l->isnull[i] || r->isnull[i];
	}
	return out;
}

/* Room for nrows rows in the node's int64 arrays. */
static void
EnsureCapacity64(NumericExpr *e, int nrows)
{
	if (nrows <= e->capacity64)
		return;
	if (e->capacity64 > 0)
	{
		pfree(e->v64);
		pfree(e->null64);
	}
	e->v64 = MemoryContextAlloc(e->cxt, sizeof(int64) * nrows);
	e->null64 = MemoryContextAlloc(e->cxt, sizeof(bool) * nrows);
	e->capacity64 = nrows;
	if (e->kind == NEXPR_CONST)
	{
		int			i;

		for (i = 0; i < nrows; i++)
			e->v64[i] = (int64) e->const_value;
	}
}

/*
 * For every row of the row list (rows[0 .. nsel - 1], or 0 .. nsel - 1 if
 * rows is NULL), BODY with i the row: two loops, so that the common all-rows
 * case reads no list.
 */
#define ROWS_LOOP(BODY) \
	do { \
		if (rows == NULL) \
		{ \
			for (j = 0; j < nsel; j++) \
			{ \
				i = j; \
				BODY; \
			} \
		} \
		else \
		{ \
			for (j = 0; j < nsel; j++) \
			{ \
				i = rows[j]; \
				BODY; \
			} \
		} \
	} while (0)

/*
 * A column's display scale for the listed rows, if every non-NULL one has
 * the same (0 if all are NULL); -1 if they differ.
 */
static int
UniformDscale(const int64 *dscales, const bool *isnull, const int *rows, int nsel)
{
	int64		first = -1;
	bool		same = true;
	int			i;
	int			j;

	if (isnull == NULL)
	{
		if (nsel == 0)
			return 0;
		first = dscales[rows != NULL ? rows[0] : 0];
		ROWS_LOOP(same &= (dscales[i] == first));
	}
	else
	{
		for (j = 0; j < nsel; j++)
		{
			i = rows != NULL ? rows[j] : j;
			if (isnull[i])
				continue;
			if (first < 0)
				first = dscales[i];
			same &= (dscales[i] == first);
		}
	}
	if (!same || first > NUM_DSCALE_MASK)
		return -1;
	return first < 0 ? 0 : (int) first;
}

/* Note that e->batch64 holds the values of batch batchno's row list. */
static NumericBatch *
Remember(NumericExpr *e, uint64 batchno, const int *rows, int nsel)
{
	e->memo_valid = true;
	e->memo_batch = batchno;
	e->memo_rows = rows;
	e->memo_nsel = nsel;
	return &e->batch64;
}

/*
 * Evaluate on int64s of one display scale into the node's batch64 for the
 * nsel rows of the row list (see NumericExprEvaluate); NULL if the batch
 * needs EvaluateScaled: a column not in the scaled-integer encoding or with
 * display scales that differ, a constant beyond an int64, a scale above 36
 * digits, a product's display scale above numeric's largest, an overflow.
 * A column's values are the scan's own arrays (read only); entries of rows
 * not listed, and of NULL rows, are unset.
 */
static NumericBatch *
EvaluateInt64(NumericExpr *e, TableScanDesc scan, int nrows, const int *rows,
			  int nsel, uint64 batchno)
{
	NumericBatch *out = &e->batch64;
	NumericBatch *l;
	NumericBatch *r;
	int64	   *v;
	const int64 *lv;
	const int64 *rv;
	bool		overflow = false;
	int			i;
	int			j;

	/* a node shared with an aggregate evaluated before, for the same rows */
	if (e->memo_valid && e->memo_batch == batchno && e->memo_rows == rows &&
		e->memo_nsel == nsel)
		return out;
	e->memo_valid = false;
	memset(out, 0, sizeof(NumericBatch));
	if (e->kind == NEXPR_CONST)
	{
		if (!e->const_fits || e->const_value != (int64) e->const_value)
			return NULL;
		EnsureCapacity64(e, nrows);
		out->values64 = e->v64;
		out->scale = e->const_scale;
		out->dscale = e->const_dscale;
		return out;
	}
	if (e->kind == NEXPR_COLUMN)
	{
		ColstoreScaledValues sv;

		if (!ColstoreScanBatchScaledRows(scan, e->attno, rows, nsel, nsel, &sv))
			return NULL;
		out->isnull = sv.nonull ? NULL : sv.isnull;
		out->dscale = UniformDscale(sv.dscales, out->isnull, rows, nsel);
		if (out->dscale < 0)
			return NULL;
		out->values64 = sv.values;
		out->scale = sv.scale;
		if (out->scale > NUMERIC_INT128_MAX_SCALE)
			return NULL;
		return Remember(e, batchno, rows, nsel);
	}
	if ((l = EvaluateInt64(e->left, scan, nrows, rows, nsel, batchno)) == NULL ||
		(r = EvaluateInt64(e->right, scan, nrows, rows, nsel, batchno)) == NULL)
		return NULL;
	EnsureCapacity64(e, nrows);
	v = e->v64;
	lv = l->values64;
	rv = r->values64;
	if (e->kind == NEXPR_MUL)
	{
		/* numeric_mul rounds past the largest display scale: not here */
		if (l->scale + r->scale > NUMERIC_INT128_MAX_SCALE ||
			l->dscale + r->dscale > NUM_DSCALE_MASK)
			return NULL;
		out->scale = l->scale + r->scale;
		out->dscale = l->dscale + r->dscale;
		ROWS_LOOP(overflow |= __builtin_mul_overflow(lv[i], rv[i], &v[i]));
	}
	else
	{
		int64		lf = 1;
		int64		rf = 1;

		/* + and -: align the scales to the larger */
		out->scale = Max(l->scale, r->scale);
		out->dscale = Max(l->dscale, r->dscale);
		if (out->scale - l->scale > 18 || out->scale - r->scale > 18)
			return NULL;
		for (i = l->scale; i < out->scale; i++)
			lf *= 10;
		for (i = r->scale; i < out->scale; i++)
			rf *= 10;
		if (lf == 1 && rf == 1)
		{
			if (e->kind == NEXPR_ADD)
				ROWS_LOOP(overflow |= __builtin_add_overflow(lv[i], rv[i], &v[i]));
			else
				ROWS_LOOP(overflow |= __builtin_sub_overflow(lv[i], rv[i], &v[i]));
		}
		else
		{
			int64		a;
			int64		b;

			for (j = 0; j < nsel; j++)
			{
				i = rows != NULL ? rows[j] : j;
				overflow |= __builtin_mul_overflow(lv[i], lf, &a);
				overflow |= __builtin_mul_overflow(rv[i], rf, &b);
				overflow |= (e->kind == NEXPR_ADD ?
							 __builtin_add_overflow(a, b, &v[i]) :
							 __builtin_sub_overflow(a, b, &v[i]));
			}
		}
	}

	/*
	 * NULL rows may hold anything: an overflow there sends the batch to
	 * EvaluateScaled too, which is only slower
	 */
	if (l->isnull != NULL || r->isnull != NULL)
	{
		bool	   *n = e->null64;
		const bool *ln = l->isnull;
		const bool *rn = r->isnull;

		if (ln != NULL && rn != NULL)
			ROWS_LOOP(n[i] = ln[i] | rn[i]);
		else
			ROWS_LOOP(n[i] = ln != NULL ? ln[i] : rn[i]);
		out->isnull = n;
	}
	if (overflow)
		return NULL;
	out->values64 = v;
	return Remember(e, batchno, rows, nsel);
}

/*
 * Evaluate row by row with PostgreSQL's numeric functions into datums and
 * isnull for the rows of the row list; other rows read as NULL.
 */
static void
EvaluateDatums(NumericExpr *e, TableScanDesc scan, int nrows, const int *rows,
			   int nsel, Datum *datums, bool *isnull)
{
	Datum	   *left;
	bool	   *left_null;
	Datum	   *right;
	bool	   *right_null;
	int			j;

	if (e->kind == NEXPR_COLUMN)
	{
		Datum	   *values;
		bool	   *nulls;

		ColstoreScanBatchColumn(scan, e->attno, &values, &nulls);
		memcpy(datums, values, sizeof(Datum) * nrows);
		memcpy(isnull, nulls, sizeof(bool) * nrows);
		return;
	}
	if (e->kind == NEXPR_CONST)
	{
		for (j = 0; j < nrows; j++)
		{
			datums[j] = e->constant;
			isnull[j] = false;
		}
		return;
	}
	left = palloc(sizeof(Datum) * nrows);
	left_null = palloc(sizeof(bool) * nrows);
	right = palloc(sizeof(Datum) * nrows);
	right_null = palloc(sizeof(bool) * nrows);
	EvaluateDatums(e->left, scan, nrows, rows, nsel, left, left_null);
	EvaluateDatums(e->right, scan, nrows, rows, nsel, right, right_null);
	memset(isnull, true, sizeof(bool) * nrows);
	for (j = 0; j < nsel; j++)
	{
		int			i = ROW(j);

		isnull[i] = left_null[i] || right_null[i];
		if (isnull[i])
			continue;
		switch (e->kind)
		{
			case NEXPR_ADD:
				datums[i] = DirectFunctionCall2(numeric_add, left[i], right[i]);
				break;
			case NEXPR_SUB:
				datums[i] = DirectFunctionCall2(numeric_sub, left[i], right[i]);
				break;
			default:
				datums[i] = DirectFunctionCall2(numeric_mul, left[i], right[i]);
				break;
		}
	}
}

/*
 * NumericExprEvaluate
 *		The values of expr for the rows of the scan's current batch (nrows
 *		rows) in the row list: rows[0 .. nsel - 1], or all rows if rows is
 *		NULL (nsel = nrows); entries of other rows are unset.  batchno
 *		numbers the scan's batches: nodes shared among expressions
 *		(NumericExprCompile) keep their int64 values for the batch's row
 *		list, so the next expression needing them does not compute them
 *		again.  On int128s
 *		where it can (out->datums NULL; the arrays belong to expr and stay
 *		valid until the next call), else as numeric datums (out->datums and
 *		out->isnull set, allocated in CurrentMemoryContext, which the caller
 *		resets per batch).
 */
void
NumericExprEvaluate(NumericExpr *expr, TableScanDesc scan, int nrows,
					const int *rows, int nsel, uint64 batchno, NumericBatch *out)
{
	NumericBatch *scaled = EvaluateInt64(expr, scan, nrows, rows, nsel, batchno);

	if (scaled != NULL)
	{
		*out = *scaled;
		return;
	}
	scaled = EvaluateScaled(expr, scan, nrows, rows, nsel);
	if (scaled != NULL)
	{
		*out = *scaled;
		out->datums = NULL;
		return;
	}
	memset(out, 0, sizeof(NumericBatch));
	out->datums = palloc(sizeof(Datum) * nrows);
	out->isnull = palloc(sizeof(bool) * nrows);
	EvaluateDatums(expr, scan, nrows, rows, nsel, out->datums, out->isnull);
}
