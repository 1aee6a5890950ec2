/*-------------------------------------------------------------------------
 *
 * publication_check.c
 *	  Refusing to publish colstore tables for logical replication.
 *
 * Logical decoding does not decode colstore's row groups: they are written
 * with generic WAL records, which carry no logical information.  A
 * publication of a colstore table would replicate the UPDATEs and DELETEs
 * of its changed rows (heap tuples) but none of its inserted rows, so with
 * wal_level = logical, CREATE PUBLICATION ... FOR TABLE and ALTER
 * PUBLICATION ... ADD/SET TABLE naming a colstore table fail instead.
 * Below that level nothing is decoded at all (PostgreSQL warns about it
 * itself), so they pass; raising wal_level later is not caught.  Publications FOR ALL TABLES or
 * FOR TABLES IN SCHEMA, and partitioned tables with colstore partitions,
 * are not caught here (see the README's limitations).  A colstore table
 * can still be the target of logical replication.
 *
 * IDENTIFICATION
 *	  src/sqlapi/publication_check.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "nodes/parsenodes.h"
#include "utils/rel.h"

#include "sqlapi/publication_check.h"
#include "tableam/am_handler.h"

/*
 * PublicationRefuseColstore
 *		Raise ERRCODE_FEATURE_NOT_SUPPORTED if stmt publishes a colstore
 *		table by name while wal_level is logical; anything else passes.
 */
void
PublicationRefuseColstore(Node *stmt)
{
	List	   *objects;
	ListCell   *lc;

	if (!XLogLogicalInfoActive())
		return;
	if (IsA(stmt, CreatePublicationStmt))
		objects = ((CreatePublicationStmt *) stmt)->pubobjects;
	else if (IsA(stmt, AlterPublicationStmt) &&
			 ((AlterPublicationStmt *) stmt)->action != AP_DropObjects)
		objects = ((AlterPublicationStmt *) stmt)->pubobjects;
	else
		return;

	foreach(lc, objects)
	{
		PublicationObjSpec *obj = (PublicationObjSpec *) lfirst(lc);
		Relation	rel;
		Oid			relid;

		if (obj->pubobjtype != PUBLICATIONOBJ_TABLE || obj->pubtable == NULL)
			continue;
		relid = RangeVarGetRelid(obj->pubtable->relation, AccessShareLock, true);
		if (!OidIsValid(relid))
			continue;			/* core reports the missing table */
		rel = relation_open(relid, NoLock);
		if (RelationIsColstore(rel))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("colstore table \"%s\" cannot be published",
							RelationGetRelationName(rel)),
					 errdetail("Logical decoding does not decode the rows colstore stores in row groups."),
					 errhint("A colstore table can be the target of logical replication, not its source.")));
		relation_close(rel, NoLock);
	}
}
