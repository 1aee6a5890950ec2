/*-------------------------------------------------------------------------
 *
 * am_vacuum.h
 *	  VACUUM of colstore tables.
 *
 * IDENTIFICATION
 *	  src/tableam/am_vacuum.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AM_VACUUM_H
#define AM_VACUUM_H

#include "access/tableam.h"
#include "commands/vacuum.h"

extern void colstore_relation_vacuum(Relation rel, VacuumParams *params,
									 BufferAccessStrategy bstrategy);

#endif							/* AM_VACUUM_H */
