/*-------------------------------------------------------------------------
 *
 * delta_vacuum.h
 *	  VACUUM of the heap pages inside a colstore relation: pruning dead
 *	  versions, freezing, and reusing the items whose index entries are gone.
 *
 * IDENTIFICATION
 *	  src/storage/delta_vacuum.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTA_VACUUM_H
#define DELTA_VACUUM_H

#include "commands/vacuum.h"
#include "pg_compat.h"
#include "storage/buf.h"
#include "storage/directory.h"
#include "utils/rel.h"

/*
 * TIDs whose index entries VACUUM removes, kept sorted for the bulk delete
 * (colstore's own array: heap's changed from an array to a TidStore in 17).
 */
typedef struct DeadTids
{
	int			max_items;
	int			num_items;
	ItemPointerData items[FLEXIBLE_ARRAY_MEMBER];
} DeadTids;

typedef struct DeltaVacuumState
{
	/* set by the caller */
	TransactionId oldest_xmin;	/* versions dead before it are removed */
	TransactionId freeze_limit; /* xids before it are frozen */
	MultiXactId multi_cutoff;	/* multixacts before it are frozen */
#if PG_HAS_VACUUM_CUTOFFS
	struct VacuumCutoffs cutoffs;	/* the same, as heap's freezing takes them */
#endif
	bool		may_prune;		/* false: remove nothing (INDEX_CLEANUP off) */
	bool		wait_for_pins;	/* aggressive: wait for every page's cleanup
								 * lock */
	BufferAccessStrategy strategy;
	struct PagePrefetch *prefetch;	/* DeltaVacuumReadAhead's, or NULL */

	/* lowered to the oldest xid and multixact that stay in the heap pages */
	TransactionId new_frozen_xid;
	MultiXactId new_min_mxid;

	/* TIDs whose index entries must go, then be made reusable */
	DeadTids   *dead_items;
	/* heap positions of promoted copies pruned in this VACUUM */
	ItemPointerData *dead_copies;
	int			ndead_copies;
	/* the promoted copies' positions, read when first needed, or NULL */
	struct CopyPositions *copy_positions;

	/* counts for the statistics (rows, not items) */
	double		live_versions;	/* versions of delta pages that stay alive */
	double		dead_versions;	/* versions that stay, dead to some snapshot */
	double		removed_versions;	/* versions removed */
	double		pruned_copies;	/* deleted rows' copies pruned */
	double		deleted_rows;	/* row-group rows whose copy says deleted */
} DeltaVacuumState;

extern void DeltaVacuumBegin(DeltaVacuumState *vs, uint32 ndeltas,
							 double extra_items);
extern void DeltaVacuumReadAhead(Relation rel, DeltaVacuumState *vs,
								 const RowGroupDirEntry *pages, int n);
extern void DeltaVacuumEnd(DeltaVacuumState *vs);
extern bool DeltaVacuumPage(Relation rel, const RowGroupDirEntry *page,
							DeltaVacuumState *vs);
extern void DeltaVacuumReuseItems(Relation rel, DeltaVacuumState *vs);
extern IndexBulkDeleteResult *DeadTidsBulkDelete(IndexVacuumInfo *ivinfo,
												 IndexBulkDeleteResult *stats,
												 DeadTids *dead);
extern void DeltaVacuumReusePageItems(Relation rel, BlockNumber blkno, OffsetNumber *offsets,
									  int n, BufferAccessStrategy strategy);

#endif							/* DELTA_VACUUM_H */
