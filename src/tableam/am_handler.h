/*-------------------------------------------------------------------------
 *
 * am_handler.h
 *	  The colstore table access method routine.
 *
 * IDENTIFICATION
 *	  src/tableam/am_handler.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AM_HANDLER_H
#define AM_HANDLER_H

#include "access/tableam.h"
#include "utils/rel.h"

extern const TableAmRoutine *ColstoreTableAmRoutine(void);

#define RelationIsColstore(rel) ((rel)->rd_tableam == ColstoreTableAmRoutine())

#endif							/* AM_HANDLER_H */
