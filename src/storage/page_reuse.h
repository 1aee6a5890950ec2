/*-------------------------------------------------------------------------
 *
 * page_reuse.h
 *	  New pages for colstore's own structures: freed pages taken back from
 *	  the free space map, or the relation extended; and pages given to
 *	  the free space map.
 *
 * IDENTIFICATION
 *	  src/storage/page_reuse.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAGE_REUSE_H
#define PAGE_REUSE_H

#include "storage/buf.h"
#include "utils/rel.h"

extern Buffer ColstoreNewPage(Relation rel);
struct ColstoreDirectory;
extern bool ColstoreFreedPageListed(Relation rel, struct ColstoreDirectory *dir,
									BlockNumber blkno);
extern Buffer ColstoreNewPageBelow(Relation rel, BlockNumber *cursor, BlockNumber limit);
extern void PageGiveToHeap(Relation rel, Buffer buf);

#endif							/* PAGE_REUSE_H */
