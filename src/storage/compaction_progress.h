/*-------------------------------------------------------------------------
 *
 * compaction_progress.h
 *	  Progress of compactions, colstore.compact()'s and the background
 *	  worker's, in shared memory, for the colstore.compaction_progress view.
 *
 * One slot per backend (indexed by its PGPROC number).  A backend writes
 * only its own slot; readers copy every slot.  With colstore not in
 * shared_preload_libraries there are no slots: reporting does nothing and
 * the view is empty.
 *
 * IDENTIFICATION
 *	  src/storage/compaction_progress.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COMPACTION_PROGRESS_H
#define COMPACTION_PROGRESS_H

#include "datatype/timestamp.h"

typedef enum CompactionCommand
{
	COMPACTION_NONE = 0,
	COMPACTION_FUNCTION,		/* colstore.compact() */
	COMPACTION_WORKER			/* the background worker */
} CompactionCommand;

typedef enum CompactionPhase
{
	COMPACTION_PHASE_STARTING = 0,
	COMPACTION_PHASE_SCANNING_HEAP, /* finding movable heap tuples */
	COMPACTION_PHASE_MOVING_HEAP,	/* moving them into row groups */
	COMPACTION_PHASE_REWRITING_GROUPS,	/* moving rows of mostly deleted or
										 * small row groups */
	COMPACTION_PHASE_MOVING_BULK,	/* worker: a batch of a bulk write's
									 * versions */
	COMPACTION_PHASE_WAITING_WRITERS,	/* worker: until no writer holds the
										 * table, for the bulk versions */
	COMPACTION_PHASE_WAITING_SNAPSHOTS, /* worker: until the moved tuples are
										 * dead */
	COMPACTION_PHASE_VACUUMING, /* worker: VACUUM of the table */
	COMPACTION_PHASE_SLEEPING	/* worker: between rounds */
} CompactionPhase;

typedef enum CompactionCounter
{
	COMPACTION_HEAP_TUPLES_FOUND = 0,	/* movable heap tuples found */
	COMPACTION_HEAP_TUPLES_MOVED,	/* of those, moved */
	COMPACTION_GROUPS_REWRITTEN,	/* mostly deleted row groups emptied */
	COMPACTION_GROUPS_MERGED,	/* small row groups merged */
	COMPACTION_GROUP_ROWS_MOVED,	/* rows moved out of those groups */
	COMPACTION_GROUPS_WRITTEN,	/* new row groups */
	COMPACTION_NCOUNTERS
} CompactionCounter;

/* A copy of one busy slot. */
typedef struct CompactionProgressEntry
{
	int			pid;
	Oid			dbid;
	Oid			userid;			/* whose backend: the view shows its counters
								 * only to that role's members and
								 * pg_read_all_stats */
	Oid			relid;
	CompactionCommand command;
	CompactionPhase phase;
	int			round;			/* worker: rounds done; compact(): 0 */
	TimestampTz started;
	int64		counters[COMPACTION_NCOUNTERS];
} CompactionProgressEntry;

extern void CompactionProgressShmemInit(void);
extern void CompactionProgressStart(CompactionCommand command, Oid relid);
extern void CompactionProgressSetPhase(CompactionPhase phase);
extern void CompactionProgressSetRound(int round);
extern void CompactionProgressAdd(CompactionCounter counter, int64 delta);
extern void CompactionProgressEnd(void);
extern int	CompactionProgressCopy(CompactionProgressEntry **entries);
extern const char *CompactionPhaseName(CompactionPhase phase);

#endif							/* COMPACTION_PROGRESS_H */
