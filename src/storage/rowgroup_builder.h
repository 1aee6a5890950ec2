/*-------------------------------------------------------------------------
 *
 * rowgroup_builder.h
 *	  Accumulating rows column by column before they become a row group.
 *
 * IDENTIFICATION
 *	  src/storage/rowgroup_builder.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ROWGROUP_BUILDER_H
#define ROWGROUP_BUILDER_H

#include "executor/tuptable.h"
#include "storage/rowgroup_writer.h"
#include "storage/table_options.h"
#include "utils/rel.h"

/* Where one column's small value copies go (rowgroup_builder.c). */
typedef struct ValueArena
{
	char	   *next;			/* current block's free space */
	Size		free;			/* bytes left in it */
	Size		block;			/* size of the last block, 0 before the first */
} ValueArena;

typedef struct RowGroupBuilder
{
	TupleDesc	tupdesc;		/* descriptor the values are captured with */
	MemoryContext cxt;			/* the arrays */
	MemoryContext data_cxt;		/* copies of pass-by-reference values */
	ValueArena *arenas;			/* [natts] */
	int			nrows;
	int			capacity;
	Size		bytes;			/* in-memory size of the buffered values */
	Size	   *row_bytes;		/* [capacity]: each row's part of bytes */
	Datum	  **values;			/* [natts][capacity] */
	bool	  **isnull;
} RowGroupBuilder;

extern RowGroupBuilder *RowGroupBuilderCreate(TupleDesc tupdesc,
											  MemoryContext parent);
extern void RowGroupBuilderAdd(RowGroupBuilder *b, TupleTableSlot *slot);
extern void RowGroupBuilderGetRow(RowGroupBuilder *b, int row,
								  TupleTableSlot *slot);
extern uint32 RowGroupBuilderWrite(RowGroupBuilder *b, Relation rel,
								   uint64 first_row, TransactionId xmin,
								   CommandId cmin, uint16 flags,
								   const ColstoreOptions *opts,
								   const ItemPointerData *sources,
								   RowGroupDecoding decoding);
extern void RowGroupBuilderFree(RowGroupBuilder *b);
extern void StoreFilledSlot(TupleTableSlot *slot);

#endif							/* ROWGROUP_BUILDER_H */
