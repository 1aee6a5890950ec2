/*-------------------------------------------------------------------------
 *
 * page_stream.h
 *	  The append-only byte stream that holds chunk images and row group
 *	  headers across the data pages of a colstore relation.
 *
 * IDENTIFICATION
 *	  src/storage/page_stream.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAGE_STREAM_H
#define PAGE_STREAM_H

#include "access/generic_xlog.h"
#include "storage/page_prefetch.h"
#include "storage/rowgroup_format.h"
#include "utils/rel.h"

typedef struct StreamWriter
{
	Relation	rel;
	StreamPointer pos;			/* where the next byte goes */
	Buffer		buf;			/* current page, or InvalidBuffer */
	GenericXLogState *state;	/* open WAL record for buf */
	Page		page;			/* buf's page image inside state */
	BlockNumber below;			/* new pages only below this block, if valid
								 * (StreamWriterBeginBelow) */
	BlockNumber *below_cursor;	/* where to look for them next */
} StreamWriter;

extern void StreamWriterBegin(StreamWriter *sw, Relation rel,
							  StreamPointer tail);
extern void StreamWriterBeginBelow(StreamWriter *sw, Relation rel, StreamPointer start,
								   BlockNumber below, BlockNumber *cursor);
extern StreamPointer StreamWrite(StreamWriter *sw, const char *data, uint64 len);
extern StreamPointer StreamWriterEnd(StreamWriter *sw);

extern void StreamRead(Relation rel, PagePrefetch *pf, StreamPointer start,
					   uint64 len, char *dest);

#endif							/* PAGE_STREAM_H */
