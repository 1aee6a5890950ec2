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

extern void DecorrelateInit(void);

#endif							/* DECORRELATE_H */
