/*-------------------------------------------------------------------------
 *
 * statement_hooks.h
 *	  Executor, utility and relcache hooks of colstore.
 *
 * IDENTIFICATION
 *	  src/sqlapi/statement_hooks.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef STATEMENT_HOOKS_H
#define STATEMENT_HOOKS_H

extern void StatementHooksInstall(void);

#endif							/* STATEMENT_HOOKS_H */
