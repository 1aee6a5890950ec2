/*-------------------------------------------------------------------------
 *
 * space_truncate.h
 *	  VACUUM's truncation of the empty end of a colstore relation.
 *
 * IDENTIFICATION
 *	  src/storage/space_truncate.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SPACE_TRUNCATE_H
#define SPACE_TRUNCATE_H

#include "storage/buf.h"
#include "storage/bufpage.h"
#include "utils/rel.h"

extern bool PageIsUnreferenced(Page page);
extern bool SpaceTruncatePays(BlockNumber nblocks, BlockNumber end);
extern BlockNumber SpaceTruncateEnd(Relation rel, BufferAccessStrategy strategy,
									BlockNumber *old_blocks);
extern int	SpaceRewriteDirectory(Relation rel);

#endif							/* SPACE_TRUNCATE_H */
