/*-------------------------------------------------------------------------
 *
 * agg_key_expr.h
 *	  ColstoreAgg's grouping expressions (GROUP BY date_trunc('month', d),
 *	  k % 10, lower(t), ...), evaluated over a batch's columns.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_key_expr.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AGG_KEY_EXPR_H
#define AGG_KEY_EXPR_H

#include "access/relscan.h"
#include "nodes/execnodes.h"

typedef struct GroupKeyExpr GroupKeyExpr;

extern GroupKeyExpr *GroupKeyExprCreate(Expr *expr, Index relid, TupleDesc desc,
										EState *estate);
extern void GroupKeyExprEvaluate(GroupKeyExpr *key, TableScanDesc scan,
								 ExprContext *econtext, int nrows,
								 const bool *selected, Datum **values,
								 bool **isnull);

#endif							/* AGG_KEY_EXPR_H */
