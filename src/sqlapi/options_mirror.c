/*-------------------------------------------------------------------------
 *
 * options_mirror.c
 *	  A copy of each colstore table's storage options in pg_class.reloptions.
 *
 * colstore reads a table's options from its row in colstore.options
 * (storage/options_store.c).  The copy in pg_class.reloptions is for whatever
 * rebuilds a table from its catalog definition: pg_dump writes it in the
 * table's CREATE TABLE ... WITH (...), Citus in the definition of every
 * shard it creates (create_distributed_table, shard moves and splits, new
 * partitions), and psql's \d+ shows it.  Those CREATE statements pass
 * through colstore's utility hook, which takes the options out and stores
 * them for the new table (options.c), so they travel with the definition.
 * The copy is always written from the row, never read back.
 *
 * Core parses pg_class.reloptions without validating them when it builds a
 * relcache entry or reads autovacuum settings, and ignores names it does
 * not know.  It validates the old list only when ALTER TABLE merges new
 * storage parameters into it (SET, RESET), and SET ACCESS METHOD copies it
 * into the rewritten table.  So before such an ALTER TABLE the copy is
 * taken out (OptionsMirrorHide), and after it written again
 * (OptionsMirrorWrite), which for a table that is no longer colstore writes
 * nothing.  Partitioned tables have no reloptions and get no copy.
 *
 * IDENTIFICATION
 *	  src/sqlapi/options_mirror.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/tablecmds.h"
#include "storage/lmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "encoding/chunk_encoding.h"
#include "sqlapi/options_mirror.h"
#include "storage/options_store.h"
#include "tableam/am_handler.h"

/* Is reloption "name=value" one of colstore's? */
static bool
IsColstoreReloption(const char *option)
{
	static const char *const names[] = {
		"codec", "compression_level", "row_group_size", "chunk_size"
	};

	for (int i = 0; i < lengthof(names); i++)
	{
		size_t		len = strlen(names[i]);

		if (strncmp(option, names[i], len) == 0 && option[len] == '=')
			return true;
	}
	return false;
}

/* The elements of a text[] reloptions datum as a list of C strings. */
static List *
ReloptionStrings(Datum reloptions, bool isnull)
{
	List	   *result = NIL;
	Datum	   *elems;
	int			n;

	if (isnull)
		return NIL;
	deconstruct_array(DatumGetArrayTypeP(reloptions), TEXTOID, -1, false,
					  TYPALIGN_INT, &elems, NULL, &n);
	for (int i = 0; i < n; i++)
		result = lappend(result, TextDatumGetCString(elems[i]));
	return result;
}

static bool
SameStrings(List *a, List *b)
{
	ListCell   *la;
	ListCell   *lb;

	if (list_length(a) != list_length(b))
		return false;
	forboth(la, a, lb, b)
	{
		if (strcmp(lfirst(la), lfirst(lb)) != 0)
			return false;
	}
	return true;
}

/*
 * Replace colstore's entries in relid's pg_class.reloptions by mirrored
 * ("name=value" strings; NIL removes them), keeping every other entry, and
 * make the change visible.  No update when nothing changes.
 */
static void
ReplaceColstoreReloptions(Oid relid, List *mirrored)
{
	Relation	pg_class = table_open(RelationRelationId, RowExclusiveLock);
	HeapTuple	tuple = SearchSysCacheCopy1(RELOID, ObjectIdGetDatum(relid));
	List	   *old;
	List	   *new = NIL;
	ListCell   *lc;
	Datum		values[Natts_pg_class] = {0};
	bool		nulls[Natts_pg_class] = {0};
	bool		replace[Natts_pg_class] = {0};
	bool		isnull;
	Datum		datum;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	datum = SysCacheGetAttr(RELOID, tuple, Anum_pg_class_reloptions, &isnull);
	old = ReloptionStrings(datum, isnull);
	foreach(lc, old)
	{
		if (!IsColstoreReloption(lfirst(lc)))
			new = lappend(new, lfirst(lc));
	}
	new = list_concat(new, mirrored);
	if (!SameStrings(old, new))
	{
		HeapTuple	newtuple;

		replace[Anum_pg_class_reloptions - 1] = true;
		if (new == NIL)
			nulls[Anum_pg_class_reloptions - 1] = true;
		else
		{
			Datum	   *elems = palloc(sizeof(Datum) * list_length(new));
			int			i = 0;

			foreach(lc, new)
				elems[i++] = CStringGetTextDatum(lfirst(lc));
			values[Anum_pg_class_reloptions - 1] =
				PointerGetDatum(construct_array(elems, i, TEXTOID, -1, false, TYPALIGN_INT));
		}
		newtuple = heap_modify_tuple(tuple, RelationGetDescr(pg_class), values, nulls, replace);
		CatalogTupleUpdate(pg_class, &newtuple->t_self, newtuple);
		CommandCounterIncrement();
	}
	table_close(pg_class, RowExclusiveLock);
}

/*
 * OptionsMirrorWrite
 *		Make relid's pg_class.reloptions hold its colstore options as stored
 *		in colstore.options (the ones set; the others are the server
 *		defaults and are not written), or none if relid is not a colstore
 *		table or materialized view; a table or materialized view of another
 *		access method (converted by SET ACCESS METHOD) also loses its row of
 *		colstore.options.  Takes ShareUpdateExclusiveLock, as ALTER TABLE
 *		SET does.
 */
void
OptionsMirrorWrite(Oid relid)
{
	Relation	rel;
	List	   *mirrored = NIL;
	OptionsRow	row;

	LockRelationOid(relid, ShareUpdateExclusiveLock);
	rel = try_relation_open(relid, NoLock);
	if (rel == NULL)
		return;
	if ((rel->rd_rel->relkind == RELKIND_RELATION ||
		 rel->rd_rel->relkind == RELKIND_MATVIEW) && !RelationIsColstore(rel))
	{
		/*
		 * Converted to another access method: its colstore options go, as
		 * they do from pg_class.reloptions (a dump of the table has none), so
		 * converting it back starts from the server defaults.
		 */
		OptionsRowForget(relid);
	}
	else if ((rel->rd_rel->relkind == RELKIND_RELATION ||
			  rel->rd_rel->relkind == RELKIND_MATVIEW) &&
			 OptionsRowRead(relid, &row))
	{
		if (row.codec >= 0)
			mirrored = lappend(mirrored, psprintf("codec=%s", ColstoreCodecName(row.codec)));
		if (row.compression_level >= 0)
			mirrored = lappend(mirrored, psprintf("compression_level=%d", row.compression_level));
		if (row.row_group_size >= 0)
			mirrored = lappend(mirrored, psprintf("row_group_size=%d", row.row_group_size));
		if (row.chunk_size >= 0)
			mirrored = lappend(mirrored, psprintf("chunk_size=%d", row.chunk_size));
	}
	relation_close(rel, NoLock);
	ReplaceColstoreReloptions(relid, mirrored);
}

/*
 * OptionsMirrorHide
 *		Before an ALTER TABLE that sets, resets or replaces storage
 *		parameters, or sets an access method, take colstore's entries out of
 *		its table's pg_class.reloptions, so that core neither rejects them
 *		nor copies them into another access method's table.  Locks and
 *		checks the table as ALTER TABLE itself does.  Returns the table, for
 *		OptionsMirrorWrite once the statement has run, or InvalidOid (not
 *		such a statement, or ALTER TABLE IF EXISTS of a missing table).
 */
Oid
OptionsMirrorHide(Node *stmt)
{
	AlterTableStmt *alter;
	ListCell   *lc;
	bool		touches_reloptions = false;
	Oid			relid;

	if (stmt == NULL || !IsA(stmt, AlterTableStmt))
		return InvalidOid;
	alter = (AlterTableStmt *) stmt;
	if (alter->objtype != OBJECT_TABLE && alter->objtype != OBJECT_MATVIEW)
		return InvalidOid;
	foreach(lc, alter->cmds)
	{
		AlterTableCmd *cmd = lfirst_node(AlterTableCmd, lc);

		if (cmd->subtype == AT_SetRelOptions || cmd->subtype == AT_ResetRelOptions ||
			cmd->subtype == AT_ReplaceRelOptions || cmd->subtype == AT_SetAccessMethod)
			touches_reloptions = true;
	}
	if (!touches_reloptions)
		return InvalidOid;
	relid = AlterTableLookupRelation(alter, AlterTableGetLockLevel(alter->cmds));
	if (OidIsValid(relid))
		ReplaceColstoreReloptions(relid, NIL);
	return relid;
}
