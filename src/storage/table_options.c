/*-------------------------------------------------------------------------
 *
 * table_options.c
 *	  A colstore table's effective storage options (codec,
 *	  compression_level, row_group_size, chunk_size), with a per-backend
 *	  cache of the stored ones; the server defaults (colstore.default_*).
 *
 * A table's own options are its row of colstore.options
 * (options_store.c); a NULL there, or no row, means the server default.
 * Writers, compaction, rewrites and the planner (at every planning of a
 * query over the table) ask for them through ColstoreGetOptions, so each
 * backend keeps the rows it has read, keyed by relation OID, and fills in
 * the defaults at every call: a changed default applies at once to every
 * table without its own value.  Every change of a row queues a relcache
 * invalidation of its table (options_store.c); TableOptionsInvalidate,
 * called by the relcache callback, drops the cached row.  The changing
 * backend processes the invalidation at its next command, and again if the
 * transaction aborts (PostgreSQL replays a transaction's invalidations
 * locally on abort), other backends once it commits.
 *
 * IDENTIFICATION
 *	  src/storage/table_options.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "encoding/chunk_encoding.h"
#include "storage/options_store.h"
#include "storage/table_options.h"

int			colstore_default_codec = COLSTORE_CODEC_ZSTD;
int			colstore_default_compression_level = 3;
int			colstore_default_row_group_size = 122880;
int			colstore_default_chunk_size = 10240;

static const struct config_enum_entry codec_options[] = {
	{"none", COLSTORE_CODEC_NONE, false},
	{"pglz", COLSTORE_CODEC_PGLZ, false},
	{"lz4", COLSTORE_CODEC_LZ4, false},
	{"zstd", COLSTORE_CODEC_ZSTD, false},
	{NULL, 0, false}
};

/* A cached row of colstore.options; all fields -1 when the table has none. */
typedef struct TableOptionsEntry
{
	Oid			relid;			/* hash key */
	OptionsRow	row;
} TableOptionsEntry;

static HTAB *TableOptionsCache = NULL;

/* Invalidations seen so far: a read that one overlaps is not cached. */
static uint64 TableOptionsInvalidations = 0;

/*
 * The table whose new contents relid is being filled with, or InvalidOid.
 * A rewrite by ALTER TABLE or REFRESH MATERIALIZED VIEW writes the rows
 * into a transient table that make_new_heap names pg_temp_<the table's
 * OID>, in the table's schema, and then swaps the two tables' files: the
 * rows must be written with the table's options.
 */
static Oid
RewrittenTable(Oid relid)
{
	char	   *name = get_rel_name(relid);
	char	   *end;
	unsigned long source;

	if (name == NULL || strncmp(name, "pg_temp_", 8) != 0 ||
		!isdigit((unsigned char) name[8]))
		return InvalidOid;
	errno = 0;
	source = strtoul(name + 8, &end, 10);
	if (errno != 0 || *end != '\0' || source > PG_UINT32_MAX ||
		(Oid) source == relid ||
		get_rel_namespace((Oid) source) != get_rel_namespace(relid))
		return InvalidOid;
	return (Oid) source;
}

/*
 * The stored options of relid (for a rewrite's transient table without a
 * row, the rewritten table's): from the cache, or read and cached.  A
 * transient table's are not cached (it lives for one statement), nor is a
 * row read while an invalidation arrived, which may be about it.
 */
static void
StoredOptions(Oid relid, OptionsRow *row)
{
	uint64		seen = TableOptionsInvalidations;
	TableOptionsEntry *entry;

	if (TableOptionsCache != NULL)
	{
		entry = hash_search(TableOptionsCache, &relid, HASH_FIND, NULL);
		if (entry != NULL)
		{
			*row = entry->row;
			return;
		}
	}
	if (!OptionsRowRead(relid, row))
	{
		Oid			rewritten = RewrittenTable(relid);

		if (OidIsValid(rewritten))
		{
			(void) OptionsRowRead(rewritten, row);
			return;
		}
	}
	if (seen != TableOptionsInvalidations)
		return;
	if (TableOptionsCache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(TableOptionsEntry);
		ctl.hcxt = CacheMemoryContext;
		TableOptionsCache = hash_create("colstore table options", 64, &ctl,
										HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	entry = hash_search(TableOptionsCache, &relid, HASH_ENTER, NULL);
	entry->row = *row;
}

/*
 * ColstoreGetOptions
 *		Effective options of relation relid: its row in colstore.options
 *		(for a rewrite's transient table without one, the rewritten
 *		table's), with NULLs (or no row) filled from the server defaults as
 *		they are now.  May read colstore.options (errors on an unknown codec
 *		name in it); never returns a value an earlier change of the row in
 *		this backend, or a committed one whose invalidation it has
 *		processed, has replaced.
 */
void
ColstoreGetOptions(Oid relid, ColstoreOptions *opts)
{
	OptionsRow	row;

	StoredOptions(relid, &row);
	opts->codec = row.codec >= 0 ? row.codec : colstore_default_codec;
	opts->compression_level = row.compression_level >= 0 ?
		row.compression_level : colstore_default_compression_level;
	opts->row_group_size = row.row_group_size >= 0 ?
		row.row_group_size : colstore_default_row_group_size;
	opts->chunk_size = row.chunk_size >= 0 ?
		row.chunk_size : colstore_default_chunk_size;
}

/*
 * TableOptionsInvalidate
 *		Forget the cached options of relid (InvalidOid: of every table).
 *		Called from the relcache invalidation callback; never errors.
 */
void
TableOptionsInvalidate(Oid relid)
{
	TableOptionsInvalidations++;
	if (TableOptionsCache == NULL)
		return;
	if (OidIsValid(relid))
		(void) hash_search(TableOptionsCache, &relid, HASH_REMOVE, NULL);
	else
	{
		hash_destroy(TableOptionsCache);
		TableOptionsCache = NULL;
	}
}

/* Define the colstore.default_* settings (from _PG_init). */
void
TableOptionsDefineSettings(void)
{
	DefineCustomEnumVariable("colstore.default_codec",
							 "Sets the compression codec of colstore tables without their own.",
							 NULL,
							 &colstore_default_codec,
							 COLSTORE_CODEC_ZSTD,
							 codec_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("colstore.default_compression_level",
							"Sets the zstd compression level of colstore tables without their own.",
							NULL,
							&colstore_default_compression_level,
							3, COLSTORE_MIN_COMPRESSION_LEVEL, COLSTORE_MAX_COMPRESSION_LEVEL,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("colstore.default_row_group_size",
							"Sets the maximum number of rows per row group of colstore tables without their own.",
							NULL,
							&colstore_default_row_group_size,
							122880, COLSTORE_MIN_ROW_GROUP_SIZE, COLSTORE_MAX_ROW_GROUP_SIZE,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("colstore.default_chunk_size",
							"Sets the maximum number of rows per column chunk of colstore tables without their own.",
							NULL,
							&colstore_default_chunk_size,
							10240, COLSTORE_MIN_CHUNK_SIZE, COLSTORE_MAX_CHUNK_SIZE,
							PGC_USERSET, 0, NULL, NULL, NULL);
}
