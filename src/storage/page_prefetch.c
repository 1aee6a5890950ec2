/*-------------------------------------------------------------------------
 *
 * page_prefetch.c
 *	  Read-ahead of announced pages: a read stream on PostgreSQL 17 and
 *	  later, PrefetchBuffer advice on 15 (contract in page_prefetch.h).
 *
 * The queue holds the announced block numbers in the order the reader
 * expects to read them; queue[0 .. taken) are behind the reader.  With a
 * read stream, the stream's callback hands out queue[handed], and every
 * buffer the stream returns is that of the next block handed out, so the
 * buffer taken from the stream is always queue[taken] (checked).  A read of
 * block b takes buffers from the stream until b's comes out; the ones before
 * it (the reader reads them later, or not at all) are held, up to
 * PREFETCH_MAX_HELD, where a later read finds them.  A block that is neither
 * held nor among the next PREFETCH_SEARCH queued ones is read directly.
 *
 * When the callback finds the queue empty the stream ends; blocks queued
 * later restart it (read_stream_reset), after which it hands out the queue
 * again from the first block not taken.
 *
 * Blocks at or past the relation's size when the prefetcher began or was
 * last reset, block 0 (the metapage) and invalid ones are never queued: the
 * stream must not read past the end, and a reader that asks for such a block
 * reads it directly, where its own checks report it.
 *
 * IDENTIFICATION
 *	  src/storage/page_prefetch.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#if PG_HAS_READ_STREAM
#include "storage/read_stream.h"
#endif

#include "storage/metapage.h"
#include "storage/page_prefetch.h"

/* buffers taken from the stream ahead of their read */
#define PREFETCH_MAX_HELD	16
/* how far into the queue a read looks for its block */
#define PREFETCH_SEARCH		64

struct PagePrefetch
{
	Relation	rel;
	BufferAccessStrategy strategy;
	MemoryContext cxt;			/* where the queue and the stream live */
	BlockNumber nblocks;		/* size when begun or reset: none at or past
								 * it is queued */
	BlockNumber *queue;
	int			qlen;
	int			qsize;
	int			taken;			/* queue[0 .. taken) are behind the reader */
	int			handed;			/* queue[0 .. handed) handed to the stream or
								 * advised */
#if PG_HAS_READ_STREAM
	ReadStream *stream;			/* NULL until the first read from the queue */
	int			flags;
	int			nheld;
	BlockNumber held_block[PREFETCH_MAX_HELD];
	Buffer		held_buf[PREFETCH_MAX_HELD];
#else
	int			distance;		/* blocks advised ahead of the reader */
#endif
};

/*
 * PagePrefetchBegin
 *		A prefetcher for the main fork of rel, allocated in
 *		CurrentMemoryContext, reading with strategy (NULL: the default);
 *		maintenance says whose I/O concurrency setting applies (VACUUM's).
 *		Nothing is read yet.
 */
PagePrefetch *
PagePrefetchBegin(Relation rel, BufferAccessStrategy strategy, bool maintenance)
{
	PagePrefetch *pf = palloc0(sizeof(PagePrefetch));

	pf->rel = rel;
	pf->strategy = strategy;
	pf->cxt = CurrentMemoryContext;
	pf->nblocks = ColstorePhysicalBlocks(rel);
	pf->qsize = 64;
	pf->queue = palloc(sizeof(BlockNumber) * pf->qsize);
#if PG_HAS_READ_STREAM
	pf->flags = maintenance ? READ_STREAM_MAINTENANCE : READ_STREAM_DEFAULT;
#else
	pf->distance = maintenance ? maintenance_io_concurrency : effective_io_concurrency;
#endif
	return pf;
}

/* Drop the queue entries behind the reader, once they are half of it. */
static void
CompactQueue(PagePrefetch *pf)
{
	int			drop = Min(pf->taken, pf->handed);

	if (drop < pf->qsize / 2)
		return;
	memmove(pf->queue, pf->queue + drop, sizeof(BlockNumber) * (pf->qlen - drop));
	pf->qlen -= drop;
	pf->taken -= drop;
	pf->handed -= drop;
}

/*
 * PagePrefetchQueue
 *		Announce that block blkno will be read after the blocks queued
 *		before it.  A block equal to the last one queued is not queued again
 *		(consecutive stream records share pages).
 */
void
PagePrefetchQueue(PagePrefetch *pf, BlockNumber blkno)
{
	if (blkno == InvalidBlockNumber || blkno == COLSTORE_METAPAGE_BLKNO ||
		blkno >= pf->nblocks)
		return;
	if (pf->qlen > pf->taken && pf->queue[pf->qlen - 1] == blkno)
		return;
	CompactQueue(pf);
	if (pf->qlen == pf->qsize)
	{
		pf->qsize *= 2;
		pf->queue = repalloc(pf->queue, sizeof(BlockNumber) * pf->qsize);
	}
	pf->queue[pf->qlen++] = blkno;
#if !PG_HAS_READ_STREAM
	while (pf->handed < pf->qlen && pf->handed < pf->taken + pf->distance)
		(void) PrefetchBuffer(pf->rel, MAIN_FORKNUM, pf->queue[pf->handed++]);
#endif
}

/*
 * PagePrefetchQueueStream
 *		Announce the pages of len bytes of the page stream from start
 *		(page_stream.c).  A record continues on the page its page's cp_next
 *		names, which is nearly always the next block: this assumes so,
 *		without reading any page; where it is not, the reader reads the
 *		real page directly.
 */
void
PagePrefetchQueueStream(PagePrefetch *pf, StreamPointer start, uint64 len)
{
	BlockNumber blkno = start.sp_block;
	uint64		first;

	if (len == 0 || start.sp_offset < COLSTORE_DATA_START ||
		start.sp_offset > COLSTORE_DATA_END)
		return;
	first = COLSTORE_DATA_END - start.sp_offset;
	PagePrefetchQueue(pf, blkno);
	len -= Min(len, first);
	while (len > 0 && blkno + 1 < pf->nblocks)
	{
		blkno++;
		PagePrefetchQueue(pf, blkno);
		len -= Min(len, (uint64) COLSTORE_DATA_PER_PAGE);
	}
}

/* Blocks queued and not yet read (for callers deciding when to queue more). */
int
PagePrefetchQueued(const PagePrefetch *pf)
{
	return pf->qlen - pf->taken;
}

/* The queue position of blkno among the next queued blocks, or -1. */
static int
FindQueued(const PagePrefetch *pf, BlockNumber blkno)
{
	int			j;

	for (j = pf->taken; j < pf->qlen && j < pf->taken + PREFETCH_SEARCH; j++)
		if (pf->queue[j] == blkno)
			return j;
	return -1;
}

#if PG_HAS_READ_STREAM

/* The read stream's callback: the next queued block, or the end. */
static BlockNumber
NextQueuedBlock(ReadStream *stream, void *callback_private_data,
				void *per_buffer_data)
{
	PagePrefetch *pf = (PagePrefetch *) callback_private_data;

	if (pf->handed >= pf->qlen)
		return InvalidBlockNumber;
	return pf->queue[pf->handed++];
}

/* Release the held buffers and the stream's pins; nothing is handed out. */
static void
ReleaseAhead(PagePrefetch *pf)
{
	while (pf->nheld > 0)
		ReleaseBuffer(pf->held_buf[--pf->nheld]);
	if (pf->stream != NULL)
		read_stream_reset(pf->stream);
	pf->handed = pf->taken;
}

/*
 * The buffer of queue[taken] from the stream, which is started or restarted
 * as needed, or InvalidBuffer if the stream returns something else (then
 * everything read ahead is dropped).
 */
static Buffer
TakeFromStream(PagePrefetch *pf)
{
	Buffer		buf;

	if (pf->stream == NULL)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(pf->cxt);

		pf->stream = read_stream_begin_relation(pf->flags, pf->strategy, pf->rel,
												MAIN_FORKNUM, NextQueuedBlock, pf, 0);
		MemoryContextSwitchTo(oldcxt);
	}
	buf = read_stream_next_buffer(pf->stream, NULL);
	if (buf == InvalidBuffer)
	{
		/* the stream ended at the queue's end then; blocks came since */
		read_stream_reset(pf->stream);
		pf->handed = pf->taken;
		buf = read_stream_next_buffer(pf->stream, NULL);
	}
	if (buf == InvalidBuffer || BufferGetBlockNumber(buf) != pf->queue[pf->taken])
	{
		if (buf != InvalidBuffer)
			ReleaseBuffer(buf);
		ReleaseAhead(pf);
		return InvalidBuffer;
	}
	pf->taken++;
	return buf;
}

/* Keep a buffer read ahead for a later read; the oldest goes if full. */
static void
Hold(PagePrefetch *pf, Buffer buf)
{
	if (pf->nheld == PREFETCH_MAX_HELD)
	{
		ReleaseBuffer(pf->held_buf[0]);
		memmove(pf->held_buf, pf->held_buf + 1, sizeof(Buffer) * (PREFETCH_MAX_HELD - 1));
		memmove(pf->held_block, pf->held_block + 1,
				sizeof(BlockNumber) * (PREFETCH_MAX_HELD - 1));
		pf->nheld--;
	}
	pf->held_block[pf->nheld] = BufferGetBlockNumber(buf);
	pf->held_buf[pf->nheld++] = buf;
}

/* A held buffer of blkno, removed from the held ones, or InvalidBuffer. */
static Buffer
TakeHeld(PagePrefetch *pf, BlockNumber blkno)
{
	int			i;

	for (i = 0; i < pf->nheld; i++)
	{
		if (pf->held_block[i] == blkno)
		{
			Buffer		buf = pf->held_buf[i];

			memmove(pf->held_buf + i, pf->held_buf + i + 1,
					sizeof(Buffer) * (pf->nheld - i - 1));
			memmove(pf->held_block + i, pf->held_block + i + 1,
					sizeof(BlockNumber) * (pf->nheld - i - 1));
			pf->nheld--;
			return buf;
		}
	}
	return InvalidBuffer;
}

/*
 * PagePrefetchReadBuffer
 *		Block blkno of the main fork, pinned and not locked, as
 *		ReadBufferExtended(RBM_NORMAL) returns it (and with its errors): from
 *		the buffers read ahead if blkno was queued, else read now.
 */
Buffer
PagePrefetchReadBuffer(PagePrefetch *pf, BlockNumber blkno)
{
	Buffer		buf = TakeHeld(pf, blkno);
	int			at;

	if (buf != InvalidBuffer)
		return buf;
	at = FindQueued(pf, blkno);
	while (at >= pf->taken)
	{
		bool		wanted = (pf->taken == at);

		buf = TakeFromStream(pf);
		if (buf == InvalidBuffer)
			break;
		if (wanted)
		{
			CompactQueue(pf);
			return buf;
		}
		Hold(pf, buf);
	}
	return ReadBufferExtended(pf->rel, MAIN_FORKNUM, blkno, RBM_NORMAL, pf->strategy);
}

/*
 * Forget the queue, releasing every page read ahead (rescans, turns), and
 * take the relation's size again.
 */
void
PagePrefetchReset(PagePrefetch *pf)
{
	pf->taken = pf->qlen;
	ReleaseAhead(pf);
	pf->qlen = pf->taken = pf->handed = 0;
	pf->nblocks = ColstorePhysicalBlocks(pf->rel);
}

/* Release everything and free the prefetcher. */
void
PagePrefetchEnd(PagePrefetch *pf)
{
	while (pf->nheld > 0)
		ReleaseBuffer(pf->held_buf[--pf->nheld]);
	if (pf->stream != NULL)
		read_stream_end(pf->stream);
	pfree(pf->queue);
	pfree(pf);
}

#else							/* !PG_HAS_READ_STREAM */

/*
 * PagePrefetchReadBuffer
 *		Block blkno of the main fork, pinned and not locked, as
 *		ReadBufferExtended(RBM_NORMAL) returns it (and with its errors).
 *		If blkno was queued, the reader has passed it, and the next distance
 *		queued blocks are advised to the kernel.
 */
Buffer
PagePrefetchReadBuffer(PagePrefetch *pf, BlockNumber blkno)
{
	int			at = FindQueued(pf, blkno);

	if (at >= 0)
	{
		pf->taken = at + 1;
		pf->handed = Max(pf->handed, pf->taken);
		while (pf->handed < pf->qlen && pf->handed < pf->taken + pf->distance)
			(void) PrefetchBuffer(pf->rel, MAIN_FORKNUM, pf->queue[pf->handed++]);
		CompactQueue(pf);
	}
	return ReadBufferExtended(pf->rel, MAIN_FORKNUM, blkno, RBM_NORMAL, pf->strategy);
}

/* Forget the queue (rescans, turns), and take the relation's size again. */
void
PagePrefetchReset(PagePrefetch *pf)
{
	pf->qlen = pf->taken = pf->handed = 0;
	pf->nblocks = ColstorePhysicalBlocks(pf->rel);
}

/* Free the prefetcher. */
void
PagePrefetchEnd(PagePrefetch *pf)
{
	pfree(pf->queue);
	pfree(pf);
}

#endif							/* PG_HAS_READ_STREAM */
