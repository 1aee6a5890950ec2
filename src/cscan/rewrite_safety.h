/*-------------------------------------------------------------------------
 *
 * rewrite_safety.h
 *	  What colstore's query rewrites may compute that the original query
 *	  did not (rewrite_safety.c).
 *
 * IDENTIFICATION
 *	  src/cscan/rewrite_safety.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef REWRITE_SAFETY_H
#define REWRITE_SAFETY_H

#include "nodes/primnodes.h"

extern bool RewriteAggregateExact(Aggref *agg);
extern bool RewriteAggregateIsCount(Aggref *agg);
extern bool RewriteUnsafeOnAnyRow(Node *node);
extern bool RewriteGroupingEquality(OpExpr *op, Var *grouped, Var *other);

#endif							/* REWRITE_SAFETY_H */
