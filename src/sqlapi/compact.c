/*-------------------------------------------------------------------------
 *
 * compact.c
 *	  colstore.compact(regclass): move a colstore table's heap tuples into
 *	  row groups on demand.
 *
 * Runs tableam/compaction.c in the caller's transaction, holding
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

#include "pg_compat.h"

#include "access/relation.h"
#include "access/xact.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/rel.h"

#include "sqlapi/introspection.h"
#include "storage/compaction_progress.h"
#include "tableam/compaction.h"

PG_FUNCTION_INFO_V1(colstore_compact);

/*
 * colstore_compact
 *		colstore.compact(rel regclass) returns bigint: take
 *		ShareUpdateExclusiveLock on rel, which must be a colstore table the
 *		current user may VACUUM (owns; from 17, or holds MAINTAIN on), and
 *		move its heap tuples into row groups in the
 *		current transaction; returns the rows moved.  Refused in read-only
 *		transactions and during recovery.
 */
Datum
colstore_compact(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	Relation	rel;
	uint64		moved;

	PreventCommandIfReadOnly("colstore.compact()");
	PreventCommandDuringRecovery("colstore.compact()");
	rel = OpenColstoreTable(relid, ShareUpdateExclusiveLock);
	if (!MayMaintainRelation(relid, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_TABLE, RelationGetRelationName(rel));

	/*
	 * A command of its own, as a statement of a function would get: if the
	 * calling statement changes the table too, it then finds the rows moved
	 * by a later command and fails as on heap, instead of skipping them as
	 * changed by itself.
	 */
	CommandCounterIncrement();
	CompactionProgressStart(COMPACTION_FUNCTION, relid);
	moved = ColstoreCompact(rel, 1, 0, NULL);
	CompactionProgressEnd();
	relation_close(rel, NoLock);
	PG_RETURN_INT64((int64) moved);
}
