/*-------------------------------------------------------------------------
 *
 * space_relocate.h
 *	  VACUUM's moving of the row groups, directory pages and deleted-rows
 *	  pages that hold up the end of a colstore relation into freed pages
 *	  lower in the file, so that truncation can give the end back.
 *
 * IDENTIFICATION
 *	  src/storage/space_relocate.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SPACE_RELOCATE_H
#define SPACE_RELOCATE_H

#include "storage/buf.h"
#include "utils/rel.h"

extern BlockNumber SpaceRelocateEnd(Relation rel, BufferAccessStrategy strategy,
									int *moved_groups, int *moved_dir_pages,
									int *moved_state_pages);

#endif							/* SPACE_RELOCATE_H */
