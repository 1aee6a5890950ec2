/*-------------------------------------------------------------------------
 *
 * decorrelate.h
 *	  Correlated aggregate subqueries rewritten into joins (decorrelate.c).
 *
 * IDENTIFICATION
 *	  src/cscan/decorrelate.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DECORRELATE_H
#define DECORRELATE_H

#include "nodes/parsenodes.h"

/* colstore.enable_decorrelation */
extern bool colstore_enable_decorrelation;

extern bool DecorrelateLevel(Query *q);
extern void DecorrelateDefineSettings(void);

#endif							/* DECORRELATE_H */
