/*-------------------------------------------------------------------------
 *
 * directory.h
 *	  The row group directory: persistent entries and the backend cache.
 *
 * IDENTIFICATION
 *	  src/storage/directory.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DIRECTORY_H
#define DIRECTORY_H

#include "pg_compat.h"
#include "storage/buf.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"

/*
 * A backend's copy of a relation's directory.  Valid until the next
 * DirectoryGet() for the same relation or a relcache invalidation: callers
 * that need entries longer copy them.
 */
typedef struct ColstoreDirectory
{
	Oid			relid;
	RelFileLocator node;
	uint32		count;			/* entries read (== cm_dir_count) */
	uint32		changes;		/* cm_dir_changes when read */
	uint64		next_row;		/* cm_next_row when read */
	uint64		live_rows;		/* cm_live_rows when read */
	uint64		identity;		/* cm_identity (header_cache.h) */
	RowGroupDirEntry *entries;	/* [count], in append order */
	int			capacity;
	BlockNumber *pages;			/* directory page chain */
	int			npages;
	int			pages_capacity;
	BlockNumber *pages_sorted;	/* the same blocks, ascending */
	int		   *groups;			/* indexes of row groups, by first row */
	int			ngroups;
	int		   *reservations;	/* indexes of reservations, by first row */
	int			nreservations;
	int		   *deltas;			/* indexes of delta pages, by first row */
	int		   *deltas_by_block;	/* the same, by heap block number */
	int			ndeltas;
	int		   *dead_deltas;	/* indexes of invalid delta pages (retired or
								 * freed: delta_retire.c, space_truncate.c),
								 * by first row */
	int			ndead_deltas;
	int		   *retired_by_block;	/* the retired ones not yet freed, by heap
									 * block number */
	int			nretired_deltas;
	bool		reindex;		/* a delta page's flags changed in place: the
								 * index arrays are stale */
	int			nindexed;		/* entries in the index arrays so far */
	int			index_capacity; /* room in each index array */
	MemoryContext cxt;
} ColstoreDirectory;

extern ColstoreDirectory *DirectoryGet(Relation rel);
extern uint64 DirectoryCachedIdentity(Relation rel);
extern int	DirectoryFindRowGroup(ColstoreDirectory *dir, uint64 rownum);
extern int	DirectoryFindReservation(ColstoreDirectory *dir, uint64 rownum);
extern int	DirectoryFindDeltaPage(ColstoreDirectory *dir, uint64 rownum);
extern int	DirectoryFindDeltaBlock(ColstoreDirectory *dir, BlockNumber blkno);
extern bool DirectoryBlockRetired(ColstoreDirectory *dir, BlockNumber blkno);
extern void DirectoryInvalidate(Oid relid);

extern uint32 DirectoryAppend(Relation rel, const RowGroupDirEntry *entry,
							  const ColstoreMetaPageData *newmeta);
extern void DirectoryUpdateEntry(Relation rel, uint32 index,
								 const RowGroupDirEntry *newentry);
extern void DirectoryMoveGroup(Relation rel, uint32 index, StreamPointer header,
							   StreamPointer sources);
extern int	DirectoryPageCount(Relation rel);
extern BlockNumber DirectoryPageBlock(Relation rel, int pageno);
extern void DirectoryMovePage(Relation rel, int pageno, Buffer newbuf);
extern void DirectoryMoveStateRoot(Relation rel, uint32 index, Buffer oldbuf,
								   Buffer newbuf);
extern bool DirectoryPageInChain(Relation rel, BlockNumber blkno);
extern int	DirectoryRewriteGain(Relation rel);
extern int	DirectoryDropFreedDeltas(Relation rel, BlockNumber limit);

#endif							/* DIRECTORY_H */
