/*-------------------------------------------------------------------------
 *
 * agg_path.h
 *	  Planner side of ColstoreAgg, and what it computes.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_path.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AGG_PATH_H
#define AGG_PATH_H

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

/* colstore.enable_custom_agg */
extern bool colstore_enable_custom_agg;

extern ColstoreAggKind ColstoreAggClassify(Aggref *aggref, Index relid,
										   AttrNumber *attno);
extern bool ColstoreAggGroupKeyType(Oid type, Oid collation, bool *byval,
									bool *blank_padded);
extern void ColstoreAggPathInit(void);
extern void ColstoreAggPathDefineSettings(void);

#endif							/* AGG_PATH_H */
