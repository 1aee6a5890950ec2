/*-------------------------------------------------------------------------
 *
 * page_stream.c
 *	  Append-only byte stream over data pages.
 *
 * Chunk images and row group headers are written back to back into data
 * pages, between the page header and the special space; pd_lower marks the
 * end of the bytes written so far.  A record that does not fit continues at
 * the block named by the page's cp_next: any block, a later one when the
 * relation was extended for it, an earlier one when a freed page was taken
 * again (page_reuse.c); nothing orders stream positions by block.  Small writes
 * from different transactions therefore share pages: nothing is aligned to
 * a page per transaction.
 *
 * WAL: a page the writer creates is logged as a full image once it is
 * filled (or the write ends); appending to the existing tail page is logged
 * as a generic delta.  GenericXLog skips WAL for relations that do not need
 * it (UNLOGGED, TEMP, wal_level=minimal in the creating transaction).
 *
 * Only a backend holding the writer lock (metapage.c) writes to the stream.
 * Readers take a share lock on each page while copying from it; they never
 * read past pd_lower, so they cannot see half-written bytes.
 *
 * IDENTIFICATION
 *	  src/storage/page_stream.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "storage/metapage.h"
#include "storage/page_prefetch.h"
#include "storage/page_reuse.h"
#include "storage/page_stream.h"

static void
OpenNewPage(StreamWriter *sw)
{
	sw->buf = InvalidBuffer;
	if (sw->below != InvalidBlockNumber)
		sw->buf = ColstoreNewPageBelow(sw->rel, sw->below_cursor, sw->below);
	if (!BufferIsValid(sw->buf))
		sw->buf = ColstoreNewPage(sw->rel);
	sw->state = GenericXLogStart(sw->rel);
	sw->page = GenericXLogRegisterBuffer(sw->state, sw->buf,
										 GENERIC_XLOG_FULL_IMAGE);
	ColstoreInitPage(sw->page, COLSTORE_PAGE_DATA);
	sw->pos.sp_block = BufferGetBlockNumber(sw->buf);
	sw->pos.sp_offset = COLSTORE_DATA_START;
	ColstorePageSetLower(sw->page, COLSTORE_DATA_START);
}

/*
 * Open the stream's tail page to append at sw->pos.  Bytes past the
 * metapage's tail offset belong to a write that never published its
 * directory entry (its transaction failed, or the server crashed after the
 * page's WAL record reached disk and before the publishing one did):
 * nothing references them, nor the page its cp_next names (leaked), so the
 * page is cut back to the tail offset.  A page that ends before it lost
 * published bytes: ERRCODE_DATA_CORRUPTED.
 */
static void
OpenTailPage(StreamWriter *sw)
{
	PageHeader	phdr;

	sw->buf = ReadBuffer(sw->rel, sw->pos.sp_block);
	LockBuffer(sw->buf, BUFFER_LOCK_EXCLUSIVE);
	ColstoreCheckPage(sw->rel, sw->pos.sp_block, BufferGetPage(sw->buf),
					  COLSTORE_PAGE_DATA);
	sw->state = GenericXLogStart(sw->rel);
	sw->page = GenericXLogRegisterBuffer(sw->state, sw->buf, 0);
	phdr = (PageHeader) sw->page;
	if (phdr->pd_lower > sw->pos.sp_offset && phdr->pd_lower <= COLSTORE_DATA_END &&
		sw->pos.sp_offset >= COLSTORE_DATA_START)
	{
		memset((char *) sw->page + sw->pos.sp_offset, 0,
			   phdr->pd_lower - sw->pos.sp_offset);
		ColstorePageSetLower(sw->page, sw->pos.sp_offset);
		ColstorePageGetOpaque(sw->page)->cp_next = InvalidBlockNumber;
	}
	if (phdr->pd_lower != sw->pos.sp_offset)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("colstore table \"%s\": stream tail block %u ends at %u, metapage says %u",
								 RelationGetRelationName(sw->rel), sw->pos.sp_block,
								 ((PageHeader) sw->page)->pd_lower, sw->pos.sp_offset)));
}

static void
ClosePage(StreamWriter *sw)
{
	GenericXLogFinish(sw->state);
	UnlockReleaseBuffer(sw->buf);
	sw->buf = InvalidBuffer;
	sw->state = NULL;
	sw->page = NULL;
}

/*
 * StreamWriterBegin
 *		Start appending at tail (sp_block Invalid: the stream is empty).
 *		Caller holds the writer lock until StreamWriterEnd.
 */
void
StreamWriterBegin(StreamWriter *sw, Relation rel, StreamPointer tail)
{
	sw->rel = rel;
	sw->pos = tail;
	sw->buf = InvalidBuffer;
	sw->state = NULL;
	sw->page = NULL;
	sw->below = InvalidBlockNumber;
	sw->below_cursor = NULL;
}

/*
 * StreamWriterBeginBelow
 *		Write a run of pages apart from the stream's tail: continue at start
 *		(where an earlier such run ended), or on a new page if start's block
 *		is Invalid, taking freed pages below block below (looked for from
 *		*cursor on, ColstoreNewPageBelow) while there are any, and any new
 *		page after that.  For moving row groups down the file
 *		(space_relocate.c); the metapage's tail does not change.  Caller
 *		holds the writer lock until StreamWriterEnd.
 */
void
StreamWriterBeginBelow(StreamWriter *sw, Relation rel, StreamPointer start,
					   BlockNumber below, BlockNumber *cursor)
{
	StreamWriterBegin(sw, rel, start);
	sw->below = below;
	sw->below_cursor = cursor;
}

/*
 * StreamWrite
 *		Append len bytes; returns where they start.  Pages are locked, filled
 *		and WAL-logged one at a time; at most one page is locked on return.
 */
StreamPointer
StreamWrite(StreamWriter *sw, const char *data, uint64 len)
{
	StreamPointer start;
	bool		started = false;

	memset(&start, 0, sizeof(start));
	for (;;)
	{
		uint32		room;
		uint32		n;

		if (sw->buf == InvalidBuffer)
		{
			if (sw->pos.sp_block == InvalidBlockNumber ||
				sw->pos.sp_offset >= COLSTORE_DATA_END)
				OpenNewPage(sw);
			else
				OpenTailPage(sw);
		}
		room = COLSTORE_DATA_END - sw->pos.sp_offset;
		if (room == 0)
		{
			/* Page full: chain a new page and continue there. */
			StreamWriter next = *sw;

			OpenNewPage(&next);
			ColstorePageGetOpaque(sw->page)->cp_next = next.pos.sp_block;
			ClosePage(sw);
			*sw = next;
			continue;
		}
		if (!started)
		{
			start = sw->pos;
			started = true;
		}
		if (len == 0)
			break;
		n = (uint32) Min((uint64) room, len);
		memcpy((char *) sw->page + sw->pos.sp_offset, data, n);
		sw->pos.sp_offset += n;
		ColstorePageSetLower(sw->page, sw->pos.sp_offset);
		data += n;
		len -= n;
		if (len == 0)
			break;
	}
	return start;
}

/*
 * StreamWriterEnd
 *		Log and release the last page; returns the new stream tail for the
 *		metapage.
 */
StreamPointer
StreamWriterEnd(StreamWriter *sw)
{
	if (sw->buf != InvalidBuffer)
		ClosePage(sw);
	return sw->pos;
}

/*
 * StreamRead
 *		Copy len bytes starting at start into dest, reading the pages
 *		through pf (page_prefetch.h) if not NULL.  Raises
 *		ERRCODE_DATA_CORRUPTED if the pages do not hold that many bytes.
 */
void
StreamRead(Relation rel, PagePrefetch *pf, StreamPointer start, uint64 len,
		   char *dest)
{
	BlockNumber blkno = start.sp_block;
	uint32		offset = start.sp_offset;
	BlockNumber nblocks = ColstorePhysicalBlocks(rel);

	while (len > 0)
	{
		Buffer		buf;
		Page		page;
		uint32		lower;
		uint32		n;

		if (blkno == InvalidBlockNumber || blkno == COLSTORE_METAPAGE_BLKNO ||
			blkno >= nblocks)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg_internal("colstore table \"%s\": stream points to block %u of %u",
									 RelationGetRelationName(rel), blkno, nblocks)));
		buf = pf != NULL ? PagePrefetchReadBuffer(pf, blkno) : ReadBuffer(rel, blkno);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		ColstoreCheckPage(rel, blkno, page, COLSTORE_PAGE_DATA);
		lower = ((PageHeader) page)->pd_lower;
		if (offset < COLSTORE_DATA_START || lower > COLSTORE_DATA_END ||
			offset > lower || (offset == lower && offset < COLSTORE_DATA_END))
		{
			UnlockReleaseBuffer(buf);
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg_internal("colstore table \"%s\": stream offset %u out of range in block %u",
									 RelationGetRelationName(rel), offset, blkno)));
		}
		n = (uint32) Min((uint64) (lower - offset), len);
		memcpy(dest, (char *) page + offset, n);
		dest += n;
		len -= n;
		blkno = ColstorePageGetOpaque(page)->cp_next;
		offset = COLSTORE_DATA_START;
		UnlockReleaseBuffer(buf);
	}
}
