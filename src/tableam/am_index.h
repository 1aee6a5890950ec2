/*-------------------------------------------------------------------------
 *
 * am_index.h
 *	  Table AM callbacks of colstore that serve indexes.
 *
 * IDENTIFICATION
 *	  src/tableam/am_index.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AM_INDEX_H
#define AM_INDEX_H

#include "access/relscan.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "nodes/execnodes.h"

extern IndexFetchTableData *colstore_index_fetch_begin(Relation rel);
extern void colstore_index_fetch_reset(IndexFetchTableData *scan);
extern void colstore_index_fetch_end(IndexFetchTableData *scan);
extern bool colstore_index_fetch_tuple(IndexFetchTableData *scan,
									   ItemPointer tid, Snapshot snapshot,
									   TupleTableSlot *slot, bool *call_again,
									   bool *all_dead);
extern bool colstore_tuple_fetch_row_version(Relation rel, ItemPointer tid,
											 Snapshot snapshot,
											 TupleTableSlot *slot);
extern bool colstore_tuple_satisfies_snapshot(Relation rel,
											  TupleTableSlot *slot,
											  Snapshot snapshot);
extern TransactionId colstore_index_delete_tuples(Relation rel,
												  TM_IndexDeleteOp *delstate);
extern double colstore_index_build_range_scan(Relation table_rel,
											  Relation index_rel,
											  IndexInfo *index_info,
											  bool allow_sync, bool anyvisible,
											  bool progress,
											  BlockNumber start_blockno,
											  BlockNumber numblocks,
											  IndexBuildCallback callback,
											  void *callback_state,
											  TableScanDesc scan);
extern void colstore_index_validate_scan(Relation table_rel, Relation index_rel,
										 IndexInfo *index_info,
										 Snapshot snapshot,
										 ValidateIndexState *state);

#endif							/* AM_INDEX_H */
