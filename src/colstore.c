/*-------------------------------------------------------------------------
 *
 * colstore.c
 *	  Module entry point: defining the settings and registering the hooks.
 *
 * Each setting (GUC) is defined by the module that reads it; _PG_init only
 * calls each module's ...DefineSettings() and ...Init().
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

#include "cscan/agg_exec.h"
#include "cscan/agg_path.h"
#include "cscan/cscan_exec.h"
#include "cscan/cscan_path.h"
#include "cscan/decorrelate.h"
#include "cscan/eager_aggregate.h"
#include "cscan/index_scan.h"
#include "cscan/join_filter.h"
#include "cscan/key_range_join.h"
#include "cscan/merge_skip.h"
#include "cscan/query_alternatives.h"
#include "cscan/relation_info.h"
#include "cscan/unique_probe.h"
#include "sqlapi/statement_hooks.h"
#include "storage/all_visible.h"
#include "storage/chunk_cache.h"
#include "storage/colstore_wal.h"
#include "storage/compaction_progress.h"
#include "storage/delta_insert.h"
#include "storage/header_cache.h"
#include "storage/table_options.h"
#include "storage/write_buffer.h"
#include "tableam/am_slot.h"
#include "tableam/compaction_worker.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

void
_PG_init(void)
{
	TableOptionsDefineSettings();
	ChunkCacheDefineSettings();
	HeaderCacheDefineSettings();
	ColstoreScanPathDefineSettings();
	ColstoreAggPathDefineSettings();
	ColstoreIndexScanPathDefineSettings();
	UniqueProbeDefineSettings();
	ColstoreRelationInfoDefineSettings();
	JoinFilterDefineSettings();
	MergeSkipDefineSettings();
	KeyRangeJoinPathDefineSettings();
	DecorrelateDefineSettings();
	EagerAggregateDefineSettings();
	DeltaInsertDefineSettings();
	CompactionWorkerDefineSettings();
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
	QueryAlternativesInit();
	RegisterXactCallback(WriteBufferXactCallback, NULL);
	RegisterSubXactCallback(WriteBufferSubXactCallback, NULL);
	AllVisibleInit();
	StatementHooksInstall();
	ColstoreWalRegister();
	CompactionProgressShmemInit();
	HeaderCacheShmemInit();
}
