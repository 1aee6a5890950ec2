/*-------------------------------------------------------------------------
 *
 * options.h
 *	  Per-table storage options of colstore tables.
 *
 * IDENTIFICATION
 *	  src/sqlapi/options.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef OPTIONS_H
#define OPTIONS_H

#include "nodes/nodes.h"

typedef struct ColstoreOptions
{
	int			codec;			/* ColstoreCodec */
	int			compression_level;
	int			row_group_size;
	int			chunk_size;
} ColstoreOptions;

/*
 * Options taken out of a CREATE/ALTER TABLE statement: an ALTER's are
 * stored before it runs, a CREATE's after.
 */
typedef struct ColstoreUtilityOptions ColstoreUtilityOptions;

extern void ColstoreGetOptions(Oid relid, ColstoreOptions *opts);
extern bool OptionsStatementNeedsCopy(Node *stmt);
extern ColstoreUtilityOptions *OptionsExtractFromStatement(Node *stmt);
extern void OptionsApplyBeforeStatement(ColstoreUtilityOptions *extracted);
extern void OptionsApplyAfterStatement(ColstoreUtilityOptions *extracted);
extern ColstoreUtilityOptions *OptionsEnterStatement(ColstoreUtilityOptions *extracted);
extern void OptionsLeaveStatement(ColstoreUtilityOptions *outer);

#endif							/* OPTIONS_H */
