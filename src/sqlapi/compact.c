/*-------------------------------------------------------------------------
 *
 * compact.c
 *	  colstore.compact(regclass): move a colstore table's heap tuples into
 *	  row groups on demand.
 *
 * Runs storage/compaction.c in the caller's transaction, holding
 * ShareUpdateExclusiveLock as VACUUM does: DML goes on meanwhile, and
 * VACUUM, ANALYZE, index builds and other compactions wait.  Only the
 * table's owner may compact it, as for VACUUM.
 *
 * IDENTIFICATION
 *	  src/sqlapi/compact.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/xact.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/rel.h"

#include "storage/compaction.h"
#include "storage/write_buffer.h"
#include "tableam/am_handler.h"

PG_FUNCTION_INFO_V1(colstore_compact);

Datum
colstore_compact(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	Relation	rel;
	uint64		moved;

	PreventCommandIfReadOnly("colstore.compact()");
	PreventCommandDuringRecovery("colstore.compact()");
	rel = relation_open(relid, ShareUpdateExclusiveLock);
	if (!RelationIsColstore(rel))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("table \"%s\" does not use access method colstore",
						RelationGetRelationName(rel))));
	if (RELATION_IS_OTHER_TEMP(rel))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot compact temporary tables of other sessions")));
	if (!pg_class_ownercheck(relid, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_TABLE, RelationGetRelationName(rel));

	WriteBufferFlush(rel);
	moved = ColstoreCompact(rel, 1);
	relation_close(rel, NoLock);
	PG_RETURN_INT64((int64) moved);
}
