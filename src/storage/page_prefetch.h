/*-------------------------------------------------------------------------
 *
 * page_prefetch.h
 *	  Reading ahead the pages of a colstore relation that a reader has
 *	  announced it will read.
 *
 * Contract.  A reader that knows which blocks of the main fork it will read
 * next queues them, in the order it expects to read them
 * (PagePrefetchQueue, PagePrefetchQueueStream), then reads every page it
 * reads through PagePrefetchReadBuffer instead of ReadBuffer: that returns
 * the block's buffer pinned and unlocked, exactly as ReadBufferExtended
 * would, and the reader locks, checks and releases it as before.  On
 * PostgreSQL 17 and later the queued blocks feed a read stream, which reads
 * ahead (advice, combined reads, and on 18 asynchronous I/O); on 15 the
 * next blocks are advised with PrefetchBuffer.  The queue is only a hint:
 * a block read that was not queued, or read in another order, is read
 * directly, and queued blocks never read cost at most a wasted read.  So
 * correctness never depends on the queue, and no page is looked at here.
 *
 * The module holds pins on pages read ahead (a few, bounded by the read
 * stream's own limits and PREFETCH_MAX_HELD).  PagePrefetchReset drops them
 * and the queue (rescans, changes of direction); PagePrefetchEnd releases
 * everything and must be called when the reader is done.  On an error the
 * resource owner releases the pins and the memory goes with its context.
 *
 * IDENTIFICATION
 *	  src/storage/page_prefetch.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAGE_PREFETCH_H
#define PAGE_PREFETCH_H

#include "storage/buf.h"
#include "storage/bufmgr.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"

typedef struct PagePrefetch PagePrefetch;

extern PagePrefetch *PagePrefetchBegin(Relation rel, BufferAccessStrategy strategy,
									   bool maintenance);
extern void PagePrefetchQueue(PagePrefetch *pf, BlockNumber blkno);
extern void PagePrefetchQueueStream(PagePrefetch *pf, StreamPointer start, uint64 len);
extern Buffer PagePrefetchReadBuffer(PagePrefetch *pf, BlockNumber blkno);
extern int	PagePrefetchQueued(const PagePrefetch *pf);
extern void PagePrefetchReset(PagePrefetch *pf);
extern void PagePrefetchEnd(PagePrefetch *pf);

#endif							/* PAGE_PREFETCH_H */
