/*-------------------------------------------------------------------------
 *
 * rowgroup_writer.h
 *	  Turning buffered rows into a row group, and reserving row numbers.
 *
 * IDENTIFICATION
 *	  src/storage/rowgroup_writer.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ROWGROUP_WRITER_H
#define ROWGROUP_WRITER_H

#include "fmgr.h"
#include "storage/rowgroup_format.h"
#include "storage/table_options.h"
#include "utils/rel.h"

/*
 * What logical decoding sees of a row group (storage/logical_log.c): rows a
 * user inserted, or nothing (rows that compaction or a rewrite moved or
 * copied).
 */
typedef enum RowGroupDecoding
{
	ROWGROUP_DECODE_NONE,
	ROWGROUP_DECODE_INSERT
} RowGroupDecoding;

extern uint32 RowGroupWrite(Relation rel, TupleDesc tupdesc,
							uint64 first_row, int nrows,
							Datum **values, bool **isnull, const Size *row_bytes,
							TransactionId xmin, CommandId cmin, uint16 flags,
							const ColstoreOptions *opts,
							const ItemPointerData *sources,
							RowGroupDecoding decoding);
extern FmgrInfo *RowGroupColumnComparison(Form_pg_attribute att);
extern uint64 RowNumbersReserve(Relation rel, uint32 count, TransactionId xid);
extern uint64 AppendRowRange(Relation rel, RowGroupDirEntry *entry, uint32 count,
							 uint32 align);

#endif							/* ROWGROUP_WRITER_H */
