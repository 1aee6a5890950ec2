/*-------------------------------------------------------------------------
 *
 * am_handler.c
 *	  The colstore table access method routine and its handler function.
 *
 * This file only lists the callbacks; each lives in the am_*.c file of its
 * group in tableam.h: am_scan.c (scans), am_index.c (index support),
 * am_modify.c (row changes), am_ddl.c (storage management), am_vacuum.c.
 *
 * IDENTIFICATION
 *	  src/tableam/am_handler.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/tableam.h"
#include "executor/tuptable.h"
#include "fmgr.h"

#include "tableam/am_ddl.h"
#include "tableam/am_dml.h"
#include "tableam/am_handler.h"
#include "tableam/am_index.h"
#include "tableam/am_modify.h"
#include "tableam/am_scan.h"
#include "tableam/am_slot.h"
#include "tableam/am_vacuum.h"

static const TupleTableSlotOps *
colstore_slot_callbacks(Relation rel)
{
	return &TTSOpsColstore;
}

static const TableAmRoutine colstore_methods = {
	.type = T_TableAmRoutine,

	.slot_callbacks = colstore_slot_callbacks,

	.scan_begin = colstore_scan_begin,
	.scan_end = colstore_scan_end,
	.scan_rescan = colstore_scan_rescan,
	.scan_getnextslot = colstore_scan_getnextslot,

	.parallelscan_estimate = colstore_parallelscan_estimate,
	.parallelscan_initialize = colstore_parallelscan_initialize,
	.parallelscan_reinitialize = colstore_parallelscan_reinitialize,

	.index_fetch_begin = colstore_index_fetch_begin,
	.index_fetch_reset = colstore_index_fetch_reset,
	.index_fetch_end = colstore_index_fetch_end,
	.index_fetch_tuple = colstore_index_fetch_tuple,

	.tuple_insert = colstore_tuple_insert,
	.tuple_insert_speculative = colstore_tuple_insert_speculative,
	.tuple_complete_speculative = colstore_tuple_complete_speculative,
	.multi_insert = colstore_multi_insert,
	.tuple_delete = colstore_tuple_delete,
	.tuple_update = colstore_tuple_update,
	.tuple_lock = colstore_tuple_lock,
	.finish_bulk_insert = colstore_finish_bulk_insert,

	.tuple_fetch_row_version = colstore_tuple_fetch_row_version,
	.tuple_get_latest_tid = colstore_tuple_get_latest_tid,
	.tuple_tid_valid = colstore_tuple_tid_valid,
	.tuple_satisfies_snapshot = colstore_tuple_satisfies_snapshot,
	.index_delete_tuples = colstore_index_delete_tuples,

	.relation_set_new_filelocator = colstore_relation_set_new_filelocator,
	.relation_nontransactional_truncate = colstore_relation_nontransactional_truncate,
	.relation_copy_data = colstore_relation_copy_data,
	.relation_copy_for_cluster = colstore_relation_copy_for_cluster,
	.relation_vacuum = colstore_relation_vacuum,
	.scan_analyze_next_block = colstore_scan_analyze_next_block,
	.scan_analyze_next_tuple = colstore_scan_analyze_next_tuple,
	.index_build_range_scan = colstore_index_build_range_scan,
	.index_validate_scan = colstore_index_validate_scan,

	.relation_size = colstore_relation_size,
	.relation_needs_toast_table = colstore_relation_needs_toast_table,
	.relation_toast_am = colstore_relation_toast_am,
	.relation_fetch_toast_slice = colstore_relation_fetch_toast_slice,

	.relation_estimate_size = colstore_relation_estimate_size,

#if !PG_BITMAP_SCAN_IN_AM
	.scan_bitmap_next_block = colstore_scan_bitmap_next_block,
#endif
	.scan_bitmap_next_tuple = colstore_scan_bitmap_next_tuple,
	.scan_sample_next_block = colstore_scan_sample_next_block,
	.scan_sample_next_tuple = colstore_scan_sample_next_tuple
};

/* The routine, for code that must recognise colstore relations. */
const TableAmRoutine *
ColstoreTableAmRoutine(void)
{
	return &colstore_methods;
}

PG_FUNCTION_INFO_V1(colstore_handler);

Datum
colstore_handler(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(&colstore_methods);
}
