/*-------------------------------------------------------------------------
 *
 * introspection.h
 *	  Helpers shared by colstore's SQL-callable inspection functions.
 *
 * IDENTIFICATION
 *	  src/sqlapi/introspection.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef INTROSPECTION_H
#define INTROSPECTION_H

#include "storage/rowgroup_format.h"
#include "storage/lockdefs.h"
#include "utils/rel.h"

extern Relation OpenColstoreTable(Oid relid, LOCKMODE lockmode);
extern Relation OpenColstoreForReading(Oid relid);
extern int	CopyRowGroups(Relation rel, RowGroupDirEntry **entries, int **order);
extern bool RowGroupMayHoldRows(const RowGroupDirEntry *e);

#endif							/* INTROSPECTION_H */
