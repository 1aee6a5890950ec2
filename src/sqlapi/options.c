/*-------------------------------------------------------------------------
 *
 * options.c
 *	  Per-table storage options: codec, compression_level, row_group_size,
 *	  chunk_size.
 *
 * PostgreSQL 15 gives table access methods no reloptions of their own, so
 * the options live in the extension's configuration table
 * colstore.options, keyed by relation OID.  That keeps them across
 * TRUNCATE, VACUUM FULL and CLUSTER (which change the relfilenode, not the
 * OID); a copy in pg_class.reloptions carries them where a table's
 * definition goes (pg_dump, Citus's shards; options_mirror.c).  A NULL
 * column means the server default (the colstore.default_* GUC).
 *
 * Users set them with CREATE TABLE ... USING colstore WITH (codec = 'lz4',
 * ...), ALTER TABLE ... SET (...) / RESET (...), or colstore.set_options();
 * the utility hook takes the options out of the statement before core
 * validates it (core would reject them as unknown heap options) and stores
 * them: a CREATE's once the table exists (at the statement's ddl_command_end
 * event, or after it), an ALTER's before it runs, so that
 * ALTER TABLE ... SET ACCESS METHOD colstore, SET (...) converts the table
 * with them.  Integer options may be quoted, as reloptions may.  The rows are read and written by
 * storage/options_store.c, so that logical decoding never sees an options
 * change; storage/table_options.c resolves a table's effective options
 * (with the server defaults) for the code that writes and plans.
 *
 * IDENTIFICATION
 *	  src/sqlapi/options.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/relation.h"
#include "catalog/namespace.h"
#include "commands/defrem.h"
#include "commands/event_trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/rel.h"

#include "encoding/chunk_encoding.h"
#include "sqlapi/options.h"
#include "sqlapi/options_mirror.h"
#include "storage/options_store.h"
#include "storage/table_options.h"
#include "tableam/am_handler.h"

/* One set of option values; has_* say which were given. */
typedef struct OptionValues
{
	bool		has_codec;
	int			codec;
	bool		has_level;
	int			level;
	bool		has_row_group_size;
	int			row_group_size;
	bool		has_chunk_size;
	int			chunk_size;
	bool		reset;			/* RESET: given ones become NULL */
} OptionValues;

struct ColstoreUtilityOptions
{
	RangeVar   *relation;		/* the table the statement names */
	bool		created;		/* CREATE: the table is new */
	bool		before;			/* ALTER: store before the statement runs */
	bool		stored;			/* CREATE: stored by the event trigger */
	OptionValues values;
};

/*
 * The CREATE statement whose options wait for its table to exist (the
 * innermost one running), or NULL.
 */
static ColstoreUtilityOptions *RunningCreate = NULL;

static void
CheckRange(const char *name, int value, int min, int max)
{
	if (value < min || value > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value %d for colstore option \"%s\"", value, name),
				 errhint("Valid values are between %d and %d.", min, max)));
}

/*
 * An integer option's value, written as a number or quoted ('11000'), as
 * PostgreSQL's reloptions accept it.
 */
static int32
OptionInt32(DefElem *def)
{
	int			value;

	if (def->arg != NULL && IsA(def->arg, String))
	{
		if (!parse_int(strVal(def->arg), &value, 0, NULL))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid value for integer option \"%s\": %s",
							def->defname, strVal(def->arg))));
		return value;
	}
	return defGetInt32(def);
}

static int
ParseCodec(const char *name)
{
	ColstoreCodec codec;

	if (!ColstoreCodecFromName(name, &codec))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value \"%s\" for colstore option \"codec\"", name),
				 errhint("Valid values are \"none\", \"pglz\", \"lz4\", and \"zstd\".")));
	return (int) codec;
}

/*
 * Store values for relid in colstore.options: the given ones replace (or,
 * for RESET, clear) the stored ones.  The caller has checked that the
 * current user owns relid.
 */
static void
StoreOptions(Oid relid, const OptionValues *v)
{
	OptionsRow	row;

	(void) OptionsRowRead(relid, &row);
	if (v->has_codec)
		row.codec = v->reset ? -1 : v->codec;
	if (v->has_level)
		row.compression_level = v->reset ? -1 : v->level;
	if (v->has_row_group_size)
		row.row_group_size = v->reset ? -1 : v->row_group_size;
	if (v->has_chunk_size)
		row.chunk_size = v->reset ? -1 : v->chunk_size;
	OptionsRowWrite(relid, &row);
}

/*
 * Check that relid is a table (or materialized view) the current user owns
 * and, if require_colstore, that it uses colstore.
 */
static void
CheckTableOptionsTarget(Oid relid, bool require_colstore)
{
	Relation	rel = relation_open(relid, AccessShareLock);

	if (rel->rd_rel->relkind != RELKIND_RELATION &&
		rel->rd_rel->relkind != RELKIND_MATVIEW)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table", RelationGetRelationName(rel))));
	if (require_colstore && !RelationIsColstore(rel))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("table \"%s\" does not use access method colstore",
						RelationGetRelationName(rel))));
	if (!RelationOwnedBy(relid, GetOuterUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_TABLE, RelationGetRelationName(rel));
	relation_close(rel, AccessShareLock);
}

PG_FUNCTION_INFO_V1(colstore_set_options);

/*
 * colstore.set_options(rel, codec, compression_level, row_group_size,
 * chunk_size): set the given (non-NULL) options of a colstore table the
 * caller owns.
 */
Datum
colstore_set_options(PG_FUNCTION_ARGS)
{
	Oid			relid;
	OptionValues v;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("table must not be NULL")));
	relid = PG_GETARG_OID(0);
	memset(&v, 0, sizeof(v));
	if (!PG_ARGISNULL(1))
	{
		v.has_codec = true;
		v.codec = ParseCodec(text_to_cstring(PG_GETARG_TEXT_PP(1)));
	}
	if (!PG_ARGISNULL(2))
	{
		v.has_level = true;
		v.level = PG_GETARG_INT32(2);
		CheckRange("compression_level", v.level, COLSTORE_MIN_COMPRESSION_LEVEL,
				   COLSTORE_MAX_COMPRESSION_LEVEL);
	}
	if (!PG_ARGISNULL(3))
	{
		v.has_row_group_size = true;
		v.row_group_size = PG_GETARG_INT32(3);
		CheckRange("row_group_size", v.row_group_size, COLSTORE_MIN_ROW_GROUP_SIZE,
				   COLSTORE_MAX_ROW_GROUP_SIZE);
	}
	if (!PG_ARGISNULL(4))
	{
		v.has_chunk_size = true;
		v.chunk_size = PG_GETARG_INT32(4);
		CheckRange("chunk_size", v.chunk_size, COLSTORE_MIN_CHUNK_SIZE,
				   COLSTORE_MAX_CHUNK_SIZE);
	}
	CheckTableOptionsTarget(relid, true);
	StoreOptions(relid, &v);
	OptionsMirrorWrite(relid);
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(colstore_reset_options);

/* colstore.reset_options(rel): every option back to the server default. */
Datum
colstore_reset_options(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	OptionValues v;

	memset(&v, 0, sizeof(v));
	v.has_codec = v.has_level = v.has_row_group_size = v.has_chunk_size = true;
	v.reset = true;
	CheckTableOptionsTarget(relid, true);
	StoreOptions(relid, &v);
	OptionsMirrorWrite(relid);
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(colstore_forget_dropped_options);

/*
 * Event trigger on sql_drop: delete the options of dropped relations.  It
 * runs for any user's DROP, so the delete runs as the options table's
 * owner; it only ever removes rows of relations that no longer exist.
 */
Datum
colstore_forget_dropped_options(PG_FUNCTION_ARGS)
{
	MemoryContext caller = CurrentMemoryContext;
	List	   *relids = NIL;
	ListCell   *lc;
	uint64		i;

	if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("function \"forget_dropped_options\" must be called as an event trigger")));
	SPI_connect();
	if (SPI_execute("SELECT d.objid FROM pg_catalog.pg_event_trigger_dropped_objects() d "
					"WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass "
					"AND d.objsubid = 0", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not list the dropped relations");
	for (i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc,
									  1, &isnull);

		if (!isnull)
		{
			MemoryContext spi = MemoryContextSwitchTo(caller);

			relids = lappend_oid(relids, DatumGetObjectId(d));
			MemoryContextSwitchTo(spi);
		}
	}
	SPI_finish();
	foreach(lc, relids)
		OptionsRowForget(lfirst_oid(lc));
	list_free(relids);
	PG_RETURN_VOID();
}

/* ----------------------------------------------------------------
 * WITH (...) in CREATE TABLE and ALTER TABLE SET/RESET
 * ----------------------------------------------------------------
 */

static bool
IsColstoreOptionName(const DefElem *def)
{
	return def->defnamespace == NULL &&
		(strcmp(def->defname, "codec") == 0 ||
		 strcmp(def->defname, "compression_level") == 0 ||
		 strcmp(def->defname, "row_group_size") == 0 ||
		 strcmp(def->defname, "chunk_size") == 0);
}

/* Take colstore options out of *options into v; validate their values. */
static bool
ExtractOptions(List **options, OptionValues *v, bool reset)
{
	List	   *kept = NIL;
	ListCell   *lc;
	bool		found = false;

	foreach(lc, *options)
	{
		DefElem    *def = lfirst_node(DefElem, lc);

		if (!IsColstoreOptionName(def))
		{
			kept = lappend(kept, def);
			continue;
		}
		found = true;
		if (strcmp(def->defname, "codec") == 0)
		{
			v->has_codec = true;
			if (!reset)
				v->codec = ParseCodec(defGetString(def));
		}
		else if (strcmp(def->defname, "compression_level") == 0)
		{
			v->has_level = true;
			if (!reset)
			{
				v->level = OptionInt32(def);
				CheckRange(def->defname, v->level, COLSTORE_MIN_COMPRESSION_LEVEL,
						   COLSTORE_MAX_COMPRESSION_LEVEL);
			}
		}
		else if (strcmp(def->defname, "row_group_size") == 0)
		{
			v->has_row_group_size = true;
			if (!reset)
			{
				v->row_group_size = OptionInt32(def);
				CheckRange(def->defname, v->row_group_size,
						   COLSTORE_MIN_ROW_GROUP_SIZE, COLSTORE_MAX_ROW_GROUP_SIZE);
			}
		}
		else
		{
			v->has_chunk_size = true;
			if (!reset)
			{
				v->chunk_size = OptionInt32(def);
				CheckRange(def->defname, v->chunk_size, COLSTORE_MIN_CHUNK_SIZE,
						   COLSTORE_MAX_CHUNK_SIZE);
			}
		}
	}
	*options = kept;
	v->reset = reset;
	return found;
}

static bool
CreatesColstore(const char *accessMethod)
{
	const char *am = accessMethod ? accessMethod : default_table_access_method;

	return am != NULL && strcmp(am, "colstore") == 0;
}

/*
 * Is the table an ALTER TABLE statement is about a colstore table once it
 * has run: does it SET ACCESS METHOD colstore, or is the table colstore
 * and the statement sets no other access method?
 */
static bool
AlterTargetsColstore(AlterTableStmt *stmt)
{
	Oid			relid;
	Relation	rel;
	bool		result;
	ListCell   *lc;

	foreach(lc, stmt->cmds)
	{
		AlterTableCmd *cmd = lfirst_node(AlterTableCmd, lc);

		if (cmd->subtype == AT_SetAccessMethod)
			return cmd->name != NULL && strcmp(cmd->name, "colstore") == 0;
	}
	relid = RangeVarGetRelid(stmt->relation, NoLock, true);
	if (!OidIsValid(relid))
		return false;
	rel = try_relation_open(relid, AccessShareLock);
	if (rel == NULL)
		return false;
	result = RelationIsColstore(rel);
	relation_close(rel, AccessShareLock);
	return result;
}

/*
 * Will a CREATE ... IF NOT EXISTS of relation do nothing, the relation
 * existing?  Its options are then left in the statement, which core skips
 * without looking at them, and never applied to the existing relation.
 */
static bool
SkippedAsExisting(bool if_not_exists, RangeVar *relation)
{
	return if_not_exists && OidIsValid(RangeVarGetRelid(relation, NoLock, true));
}

/* Could OptionsExtractFromStatement modify stmt (so it must be copied)? */
bool
OptionsStatementNeedsCopy(Node *stmt)
{
	return stmt != NULL &&
		(IsA(stmt, CreateStmt) || IsA(stmt, CreateTableAsStmt) ||
		 IsA(stmt, AlterTableStmt));
}

/*
 * OptionsExtractFromStatement
 *		Remove colstore options from a CREATE TABLE / CREATE TABLE AS /
 *		ALTER TABLE SET|RESET statement about a colstore table, validating
 *		them.  Returns what to apply after the statement, or NULL.
 */
ColstoreUtilityOptions *
OptionsExtractFromStatement(Node *stmt)
{
	ColstoreUtilityOptions *result = palloc0(sizeof(ColstoreUtilityOptions));

	if (stmt == NULL)
		return NULL;
	if (IsA(stmt, CreateStmt))
	{
		CreateStmt *cs = (CreateStmt *) stmt;

		if (cs->partspec != NULL || !CreatesColstore(cs->accessMethod) ||
			SkippedAsExisting(cs->if_not_exists, cs->relation) ||
			!ExtractOptions(&cs->options, &result->values, false))
			return NULL;
		result->relation = cs->relation;
		result->created = true;
		return result;
	}
	if (IsA(stmt, CreateTableAsStmt))
	{
		IntoClause *into = ((CreateTableAsStmt *) stmt)->into;

		if (into == NULL || !CreatesColstore(into->accessMethod) ||
			SkippedAsExisting(((CreateTableAsStmt *) stmt)->if_not_exists, into->rel) ||
			!ExtractOptions(&into->options, &result->values, false))
			return NULL;
		result->relation = into->rel;
		result->created = true;
		return result;
	}
	if (IsA(stmt, AlterTableStmt))
	{
		AlterTableStmt *as = (AlterTableStmt *) stmt;
		List	   *cmds = NIL;
		ListCell   *lc;
		bool		found = false;

		bool		targets_colstore;

		if (as->objtype != OBJECT_TABLE && as->objtype != OBJECT_MATVIEW)
			return NULL;
		targets_colstore = AlterTargetsColstore(as);
		foreach(lc, as->cmds)
		{
			AlterTableCmd *cmd = lfirst_node(AlterTableCmd, lc);

			if ((cmd->subtype == AT_SetRelOptions || cmd->subtype == AT_ResetRelOptions) &&
				targets_colstore)
			{
				List	   *defs = (List *) cmd->def;

				if (ExtractOptions(&defs, &result->values,
								   cmd->subtype == AT_ResetRelOptions))
					found = true;
				cmd->def = (Node *) defs;
				if (defs == NIL)
					continue;	/* nothing left for core */
			}
			cmds = lappend(cmds, cmd);
		}
		if (!found)
			return NULL;
		as->cmds = cmds;
		result->relation = as->relation;
		result->before = true;
		return result;
	}
	return NULL;
}

/*
 * OptionsApplyBeforeStatement
 *		Store the options taken out of an ALTER TABLE before it runs, so that
 *		a rewrite in the same statement (SET ACCESS METHOD colstore, ALTER
 *		COLUMN ... TYPE) writes with them; the table may not be colstore
 *		yet.  If the statement fails, its transaction takes them back.
 */
void
OptionsApplyBeforeStatement(ColstoreUtilityOptions *extracted)
{
	Oid			relid;

	if (!extracted->before)
		return;
	relid = RangeVarGetRelid(extracted->relation, NoLock, true);
	if (!OidIsValid(relid))
		return;					/* ALTER TABLE IF EXISTS: the statement skips
								 * it */
	CheckTableOptionsTarget(relid, false);
	StoreOptions(relid, &extracted->values);
}

/* Store a CREATE's options for its new table, and copy them to pg_class. */
static void
StoreCreatedOptions(ColstoreUtilityOptions *extracted)
{
	Oid			relid = RangeVarGetRelid(extracted->relation, NoLock, true);

	if (!OidIsValid(relid))
		return;					/* e.g. CREATE TABLE IF NOT EXISTS skipped */
	CheckTableOptionsTarget(relid, true);
	StoreOptions(relid, &extracted->values);
	OptionsMirrorWrite(relid);
	extracted->stored = true;
}

/*
 * OptionsEnterStatement
 *		Note that the statement extracted came from (NULL: none) is about to
 *		run; returns what OptionsLeaveStatement must restore, which the caller
 *		does however the statement ends.
 */
ColstoreUtilityOptions *
OptionsEnterStatement(ColstoreUtilityOptions *extracted)
{
	ColstoreUtilityOptions *outer = RunningCreate;

	if (extracted != NULL && extracted->created)
		RunningCreate = extracted;
	return outer;
}

void
OptionsLeaveStatement(ColstoreUtilityOptions *outer)
{
	RunningCreate = outer;
}

PG_FUNCTION_INFO_V1(colstore_store_created_options);

/*
 * Event trigger on ddl_command_end of CREATE TABLE (AS), SELECT INTO and
 * CREATE MATERIALIZED VIEW: store the options the running statement
 * carried, now that its table exists.  It fires inside the statement, before
 * the utility hooks of other extensions that run around colstore's return:
 * Citus makes the shards of a new partition of a distributed table there,
 * from the table's pg_class.reloptions, which must hold the options by
 * then.  Statements that fire no event trigger (inside functions, or with
 * event triggers disabled) have their options stored by
 * OptionsApplyAfterStatement.
 */
Datum
colstore_store_created_options(PG_FUNCTION_ARGS)
{
	if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("function \"store_created_options\" must be called as an event trigger")));
	if (RunningCreate != NULL && !RunningCreate->stored)
		StoreCreatedOptions(RunningCreate);
	PG_RETURN_VOID();
}

/*
 * OptionsApplyAfterStatement
 *		Store the options taken out of a CREATE TABLE (AS), now that it has
 *		run, unless the event trigger has.  (An ALTER's were stored before it
 *		ran; the utility hook copies them to pg_class after it, through
 *		OptionsMirrorHide and OptionsMirrorWrite.)
 */
void
OptionsApplyAfterStatement(ColstoreUtilityOptions *extracted)
{
	if (extracted->created && !extracted->stored)
		StoreCreatedOptions(extracted);
}
