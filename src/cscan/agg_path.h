/*-------------------------------------------------------------------------
 *
 * agg_path.h
 *	  Planner side of ColstoreAgg.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_path.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AGG_PATH_H
#define AGG_PATH_H

/* colstore.enable_custom_agg */
extern bool colstore_enable_custom_agg;
extern bool colstore_enable_sorted_agg;

extern void ColstoreAggPathInit(void);
extern void ColstoreAggPathDefineSettings(void);

#endif							/* AGG_PATH_H */
