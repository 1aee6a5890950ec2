/*-------------------------------------------------------------------------
 *
 * query_alternatives.h
 *	  The planner hook that plans a query as written and as rewritten by
 *	  colstore's query rewrites, and keeps the cheaper plan
 *	  (query_alternatives.c).
 *
 * IDENTIFICATION
 *	  src/cscan/query_alternatives.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef QUERY_ALTERNATIVES_H
#define QUERY_ALTERNATIVES_H

extern void QueryAlternativesInit(void);

#endif							/* QUERY_ALTERNATIVES_H */
