/*-------------------------------------------------------------------------
 *
 * colstore.c
 *	  Module entry point: GUC definitions and hook registration.
 *
 * IDENTIFICATION
 *	  src/colstore.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "fmgr.h"
#include "utils/guc.h"
#include <limits.h>

#include "colstore.h"
#include "encoding/chunk_encoding.h"
#include "cscan/agg_exec.h"
#include "cscan/agg_path.h"
#include "cscan/cscan_exec.h"
#include "cscan/cscan_path.h"
#include "cscan/decorrelate.h"
#include "cscan/index_scan.h"
#include "cscan/join_filter.h"
#include "cscan/key_range_join.h"
#include "cscan/relation_info.h"
#include "sqlapi/statement_hooks.h"
#include "storage/colstore_wal.h"
#include "storage/compaction_progress.h"
#include "storage/write_buffer.h"
#include "tableam/am_slot.h"

PG_MODULE_MAGIC;

int			colstore_default_codec = COLSTORE_CODEC_ZSTD;
int			colstore_default_compression_level = 3;
int			colstore_default_row_group_size = 122880;
int			colstore_default_chunk_size = 10240;
int			colstore_chunk_cache_size_kb = 131072;
bool		colstore_enable_custom_scan = true;
bool		colstore_enable_custom_agg = true;
bool		colstore_enable_custom_index_scan = true;
bool		colstore_enable_join_filter = true;
bool		colstore_enable_key_range_join = true;
bool		colstore_enable_decorrelation = true;
int			colstore_delta_insert_rows = 100;
bool		colstore_auto_compaction = true;
int			colstore_max_compaction_workers = 2;
int			colstore_compaction_update_age = 1000000;

static const struct config_enum_entry codec_options[] = {
	{"none", COLSTORE_CODEC_NONE, false},
	{"pglz", COLSTORE_CODEC_PGLZ, false},
	{"lz4", COLSTORE_CODEC_LZ4, false},
	{"zstd", COLSTORE_CODEC_ZSTD, false},
	{NULL, 0, false}
};

void		_PG_init(void);

void
_PG_init(void)
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
	DefineCustomIntVariable("colstore.chunk_cache_size",
							"Sets the memory each backend may use to cache decoded chunks for index lookups.",
							NULL,
							&colstore_chunk_cache_size_kb,
							131072, 0, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomBoolVariable("colstore.enable_custom_scan",
							 "Enables the planner's use of the colstore custom scan (column projection, chunk pruning).",
							 NULL,
							 &colstore_enable_custom_scan,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("colstore.enable_custom_agg",
							 "Enables the planner's use of the colstore aggregate scan (aggregates folded from decoded chunks).",
							 NULL,
							 &colstore_enable_custom_agg,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("colstore.enable_custom_index_scan",
							 "Enables the planner's use of the colstore index scan (fetching only the columns a plan reads).",
							 NULL,
							 &colstore_enable_custom_index_scan,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("colstore.enable_join_filter",
							 "Enables filtering a hash join's probe-side colstore scan by the keys of its hash table, and dropping repeated rows from the colstore scan that fills a semi or anti join's hash table.",
							 NULL,
							 &colstore_enable_join_filter,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("colstore.enable_key_range_join",
							 "Enables the planner's use of the colstore key-range join (a parallel merge join of two colstore tables split into ranges of a key both hold in order).",
							 NULL,
							 &colstore_enable_key_range_join,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("colstore.enable_decorrelation",
							 "Enables the planner's rewrite of correlated aggregate subqueries over colstore tables into joins with grouped aggregates, when cheaper.",
							 NULL,
							 &colstore_enable_decorrelation,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("colstore.delta_insert_rows",
							"Sets the estimated size up to which an INSERT statement's rows become heap tuples, compacted into row groups later.",
							"Also the most rows of one statement that go to one table's heap pages. 0 sends every row to row groups.",
							&colstore_delta_insert_rows,
							100, 0, 1000000,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("colstore.auto_compaction",
							 "Starts background workers that compact colstore tables whose heap pages small inserts have grown.",
							 NULL,
							 &colstore_auto_compaction,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("colstore.max_compaction_workers",
							"Sets the most compaction workers that run at once, across all databases.",
							"They come out of max_worker_processes.",
							&colstore_max_compaction_workers,
							2, 0, 64,
							PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("colstore.compaction_update_age",
							"Sets how many transactions older than every snapshot a row version UPDATE wrote must be before compaction workers move it.",
							"Rows of small INSERTs move as soon as every snapshot sees them; colstore.compact() moves both at once.",
							&colstore_compaction_update_age,
							1000000, 0, 1000000000,
							PGC_SIGHUP, 0, NULL, NULL, NULL);
	MarkGUCPrefixReserved("colstore");

	ColstoreSlotOpsInit();
	ColstoreScanExecInit();
	ColstoreScanPathInit();
	ColstoreRelationInfoInit();
	ColstoreAggExecInit();
	ColstoreAggPathInit();
	KeyRangeJoinExecInit();
	KeyRangeJoinPathInit();
	ColstoreIndexScanExecInit();
	ColstoreIndexScanPathInit();
	JoinFilterInit();
	DecorrelateInit();
	RegisterXactCallback(WriteBufferXactCallback, NULL);
	RegisterSubXactCallback(WriteBufferSubXactCallback, NULL);
	StatementHooksInstall();
	ColstoreWalRegister();
	CompactionProgressShmemInit();
}
