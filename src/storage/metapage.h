/*-------------------------------------------------------------------------
 *
 * metapage.h
 *	  Metapage access, the per-relation writer lock, and physical size.
 *
 * IDENTIFICATION
 *	  src/storage/metapage.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef METAPAGE_H
#define METAPAGE_H

#include "storage/rowgroup_format.h"
#include "utils/rel.h"

extern BlockNumber ColstorePhysicalBlocks(Relation rel);
extern void ColstoreReadMeta(Relation rel, ColstoreMetaPageData *meta);
extern void ColstoreReadExistingMeta(Relation rel, ColstoreMetaPageData *meta);
extern Buffer ColstoreReadRecent(Relation rel, BlockNumber blkno, Buffer *recent);
extern Buffer ColstoreReadCached(Relation rel, BlockNumber blkno);
extern Buffer ColstoreLockMetaForUpdate(Relation rel);
extern void ColstoreInitPage(Page page, uint16 page_type);
extern void ColstorePageSetLower(Page page, uint32 lower);
extern Buffer ColstoreExtend(Relation rel);
extern bool ColstoreBlockIsValid(Relation rel, BlockNumber blkno);
extern void ColstoreCheckPage(Relation rel, BlockNumber blkno, Page page,
							  uint16 expected_type);

extern void ColstoreLockWriter(Relation rel);
extern void ColstoreUnlockWriter(Relation rel);
extern bool ColstoreWriterLockHeld(Relation rel);

#endif							/* METAPAGE_H */
