/*-------------------------------------------------------------------------
 *
 * delta_wal.h
 *	  WAL of VACUUM's item changes on colstore's heap pages and of recovery
 *	  conflicts (delta_wal.c).
 *
 * IDENTIFICATION
 *	  src/storage/delta_wal.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTA_WAL_H
#define DELTA_WAL_H

#include "access/transam.h"
#include "storage/buf.h"
#include "storage/off.h"
#include "utils/rel.h"

extern void LogDeltaPrune(Relation rel, Buffer buf, TransactionId conflict_xid,
						  OffsetNumber *redirected, int nredirected,
						  OffsetNumber *dead, int ndead,
						  OffsetNumber *unused, int nunused);
extern void LogStandbyConflict(Relation rel, TransactionId xid);
extern void LogPageImage(Relation rel, Buffer buf, TransactionId conflict_xid);

#endif							/* DELTA_WAL_H */
