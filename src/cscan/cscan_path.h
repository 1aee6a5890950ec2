/*-------------------------------------------------------------------------
 *
 * cscan_path.h
 *	  Planner side of the colstore custom scan.
 *
 * IDENTIFICATION
 *	  src/cscan/cscan_path.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef CSCAN_PATH_H
#define CSCAN_PATH_H

extern void ColstoreScanPathInit(void);

#endif							/* CSCAN_PATH_H */
