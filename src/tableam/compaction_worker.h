/*-------------------------------------------------------------------------
 *
 * compaction_worker.h
 *	  Automatic compaction of colstore tables by a background worker.
 *
 * IDENTIFICATION
 *	  src/tableam/compaction_worker.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COMPACTION_WORKER_H
#define COMPACTION_WORKER_H

#include "utils/rel.h"

/* colstore.auto_compaction, max_compaction_workers, compaction_update_age */
extern bool colstore_auto_compaction;
extern int	colstore_max_compaction_workers;
extern int	colstore_compaction_update_age;

extern void CompactionWorkerMaybeLaunch(Relation rel, int heap_pages,
										double live_rows, double sparse_rows,
										bool look_quiet, bool reclaim);
extern void CompactionWorkerNoteVacuum(bool left_reclaim);
extern void CompactionWorkerDefineSettings(void);

#endif							/* COMPACTION_WORKER_H */
