/*-------------------------------------------------------------------------
 *
 * options.h
 *	  Per-table storage options of colstore tables: taking them out of
 *	  CREATE/ALTER TABLE statements and storing them.
 *
 * IDENTIFICATION
 *	  src/sqlapi/options.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef OPTIONS_H
#define OPTIONS_H

#include "nodes/nodes.h"

/*
 * Options taken out of a CREATE/ALTER TABLE statement: an ALTER's are
 * stored before it runs, a CREATE's after.
 */
typedef struct ColstoreUtilityOptions ColstoreUtilityOptions;

extern bool OptionsStatementNeedsCopy(Node *stmt);
extern ColstoreUtilityOptions *OptionsExtractFromStatement(Node *stmt);
extern void OptionsApplyBeforeStatement(ColstoreUtilityOptions *extracted);
extern void OptionsApplyAfterStatement(ColstoreUtilityOptions *extracted);
extern ColstoreUtilityOptions *OptionsEnterStatement(ColstoreUtilityOptions *extracted);
extern void OptionsLeaveStatement(ColstoreUtilityOptions *outer);

#endif							/* OPTIONS_H */
