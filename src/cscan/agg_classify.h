/*-------------------------------------------------------------------------
 *
 * agg_classify.h
 *	  Which aggregates and grouping keys ColstoreAgg computes itself: what
 *	  its planner (agg_path.c) and its executor (agg_exec.c) agree on.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_classify.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AGG_CLASSIFY_H
#define AGG_CLASSIFY_H

#include "nodes/primnodes.h"

/* The aggregates ColstoreAgg computes itself. */
typedef enum ColstoreAggKind
{
	COLSTORE_AGG_NONE,			/* not supported */
	COLSTORE_AGG_COUNT_STAR,
	COLSTORE_AGG_COUNT,
	COLSTORE_AGG_SUM,
	COLSTORE_AGG_AVG,
	COLSTORE_AGG_MIN,
	COLSTORE_AGG_MAX
} ColstoreAggKind;

/* resname of the scan tuple entry that names the table */
#define COLSTORE_AGG_TABLE_ENTRY	"colstore_table"

extern ColstoreAggKind ColstoreAggClassify(Aggref *aggref, Index relid,
										   AttrNumber *attno);
extern bool ColstoreAggGroupKeyType(Oid type, Oid collation, bool *byval,
									bool *blank_padded);

#endif							/* AGG_CLASSIFY_H */
