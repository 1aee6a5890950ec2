/*-------------------------------------------------------------------------
 *
 * compaction_worker.h
 *	  Automatic compaction of colstore tables by a background worker.
 *
 * IDENTIFICATION
 *	  src/storage/compaction_worker.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COMPACTION_WORKER_H
#define COMPACTION_WORKER_H

#include "utils/rel.h"

extern void CompactionWorkerMaybeLaunch(Relation rel, int heap_pages,
										double live_rows, double sparse_rows);

#endif							/* COMPACTION_WORKER_H */
