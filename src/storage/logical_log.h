/*-------------------------------------------------------------------------
 *
 * logical_log.h
 *	  Logging inserted rows for logical decoding (see logical_log.c).
 *
 * IDENTIFICATION
 *	  src/storage/logical_log.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef LOGICAL_LOG_H
#define LOGICAL_LOG_H

#include "encoding/chunk_encoding.h"
#include "access/htup.h"
#include "utils/rel.h"

extern bool LogicalInsertWanted(Relation rel);
extern void LogicalLogDelete(Relation rel, HeapTuple tuple, TransactionId xid);
extern void LogicalLogRowGroup(Relation rel, TupleDesc tupdesc,
							   TransactionId xid, uint32 nchunks,
							   const uint32 *bounds,
							   const EncodedChunk *images);

#endif							/* LOGICAL_LOG_H */
