/*-------------------------------------------------------------------------
 *
 * compaction_estimate.h
 *	  Whether rewriting a partly deleted row group makes the table smaller.
 *
 * IDENTIFICATION
 *	  src/tableam/compaction_estimate.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COMPACTION_ESTIMATE_H
#define COMPACTION_ESTIMATE_H

#include "storage/rowgroup_format.h"
#include "utils/rel.h"

extern bool GroupRewriteShrinks(Relation rel, uint32 dir_index,
								const RowGroupDirEntry *e);

#endif							/* COMPACTION_ESTIMATE_H */
