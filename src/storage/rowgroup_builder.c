/*-------------------------------------------------------------------------
 *
 * rowgroup_builder.c
 *	  Accumulate rows column by column, then write them as a row group.
 *
 * Values are copied into the builder's memory when a row is added, each
 * column's into its own arena blocks, so that the encoder's passes over a
 * column read contiguous memory rather than every row's other values too;
 * TOASTed and compressed values are expanded, because colstore compresses
 * chunks itself and keeps no TOAST table.  The builder keeps its own copy of
 * the tuple descriptor: the values were captured with it, and the
 * relation's descriptor may have changed by the time they are written
 * (ALTER TABLE in the same transaction).
 *
 * IDENTIFICATION
 *	  src/storage/rowgroup_builder.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/detoast.h"
#include "access/htup_details.h"
#include "access/tupdesc_details.h"
#include "utils/datum.h"
#include "utils/memutils.h"

#include "storage/row_slot.h"
#include "storage/rowgroup_builder.h"
#include "storage/rowgroup_writer.h"

RowGroupBuilder *
RowGroupBuilderCreate(TupleDesc tupdesc, MemoryContext parent)
{
	MemoryContext cxt = AllocSetContextCreate(parent, "colstore row group builder",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext oldcxt = MemoryContextSwitchTo(cxt);
	RowGroupBuilder *b = palloc0(sizeof(RowGroupBuilder));
	int			natts = tupdesc->natts;
	int			i;

	b->cxt = cxt;
	b->data_cxt = AllocSetContextCreate(cxt, "colstore row group values",
										ALLOCSET_DEFAULT_SIZES);
	b->tupdesc = CreateTupleDescCopy(tupdesc);
	b->capacity = 64;
	b->arenas = palloc0(sizeof(ValueArena) * Max(natts, 1));
	b->row_bytes = palloc(sizeof(Size) * b->capacity);
	b->values = palloc(sizeof(Datum *) * Max(natts, 1));
	b->isnull = palloc(sizeof(bool *) * Max(natts, 1));
	for (i = 0; i < natts; i++)
	{
		b->values[i] = palloc(sizeof(Datum) * b->capacity);
		b->isnull[i] = palloc(sizeof(bool) * b->capacity);
	}
	MemoryContextSwitchTo(oldcxt);
	return b;
}

void
RowGroupBuilderFree(RowGroupBuilder *b)
{
	MemoryContextDelete(b->cxt);
}

static void
GrowArrays(RowGroupBuilder *b)
{
	int			i;

	b->capacity *= 2;
	b->row_bytes = repalloc_huge(b->row_bytes, sizeof(Size) * b->capacity);
	for (i = 0; i < b->tupdesc->natts; i++)
	{
		b->values[i] = repalloc_huge(b->values[i], sizeof(Datum) * b->capacity);
		b->isnull[i] = repalloc_huge(b->isnull[i], sizeof(bool) * b->capacity);
	}
}

/* Values at most this large are copied into a column's arena blocks. */
#define ARENA_VALUE_MAX		1024
#define ARENA_BLOCK_MIN		1024
#define ARENA_BLOCK_MAX		(256 * 1024)

/* a value AllocValue packs always fits in a fresh block */
StaticAssertDecl(ARENA_BLOCK_MIN >= ARENA_VALUE_MAX,
				 "a column's first arena block must hold any packed value");

/*
 * Room for a copy of len bytes of column att, MAXALIGNed, in data_cxt.
 * Small values are packed into the column's arena blocks (one palloc per
 * block instead of per value); large ones get their own allocation.
 * Blocks start small and double up to ARENA_BLOCK_MAX, so a builder that
 * buffers a few rows (one per partition of a partitioned insert, say)
 * stays small.
 */
static char *
AllocValue(RowGroupBuilder *b, int att, Size len)
{
	ValueArena *a = &b->arenas[att];
	Size		need = MAXALIGN(len);
	char	   *p;

	if (need > ARENA_VALUE_MAX)
		return MemoryContextAllocHuge(b->data_cxt, len);
	if (need > a->free)
	{
		a->block = (a->block == 0) ? ARENA_BLOCK_MIN :
			Min(a->block * 2, ARENA_BLOCK_MAX);
		a->next = MemoryContextAlloc(b->data_cxt, a->block);
		a->free = a->block;
	}
	p = a->next;
	a->next += need;
	a->free -= need;
	return p;
}

/* Copy one value of column att into data_cxt, detoasting; returns its size. */
static Size
CopyValue(RowGroupBuilder *b, int attnum, Form_pg_attribute att, Datum value,
		  Datum *dest)
{
	Size		len;
	char	   *copy;

	if (att->attbyval)
	{
		*dest = value;
		return att->attlen;
	}
	if (att->attlen == -1)
	{
		struct varlena *v = (struct varlena *) DatumGetPointer(value);

		if (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v))
		{
			MemoryContext oldcxt = MemoryContextSwitchTo(b->data_cxt);

			v = detoast_attr(v);
			MemoryContextSwitchTo(oldcxt);
			*dest = PointerGetDatum(v);
			return VARSIZE_ANY(v);
		}
		len = VARSIZE_ANY(v);
	}
	else if (att->attlen > 0)
		len = att->attlen;
	else
		len = strlen(DatumGetCString(value)) + 1;
	copy = AllocValue(b, attnum, len);
	memcpy(copy, DatumGetPointer(value), len);
	*dest = PointerGetDatum(copy);
	return len;
}

/*
 * RowGroupBuilderAdd
 *		Append the row in slot (whose descriptor must have the builder's
 *		shape).  Dropped attributes are stored as NULL.
 */
void
RowGroupBuilderAdd(RowGroupBuilder *b, TupleTableSlot *slot)
{
	TupleDesc	tupdesc = b->tupdesc;
	int			row = b->nrows;
	Size		bytes = 0;
	int			i;

	if (b->nrows == b->capacity)
		GrowArrays(b);
	slot_getallattrs(slot);
	for (i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (att->attisdropped || slot->tts_isnull[i])
		{
			b->values[i][row] = (Datum) 0;
			b->isnull[i][row] = true;
			continue;
		}
		b->isnull[i][row] = false;
		bytes += CopyValue(b, i, att, slot->tts_values[i],
						   &b->values[i][row]);
	}
	b->row_bytes[row] = bytes;
	b->bytes += bytes;
	b->nrows++;
}

/*
 * StoreFilledSlot
 *		Finish storing a row whose values the caller wrote into
 *		slot->tts_values/tts_isnull after clearing the slot.  Virtual slots
 *		take them as they are; other slot types get a formed heap tuple.
 */
void
StoreFilledSlot(TupleTableSlot *slot)
{
	HeapTuple	tuple;

	if (TTS_IS_VIRTUAL(slot) || TTS_IS_COLSTORE(slot))
	{
		ExecStoreVirtualTuple(slot);
		return;
	}
	tuple = heap_form_tuple(slot->tts_tupleDescriptor, slot->tts_values,
							slot->tts_isnull);
	ExecForceStoreHeapTuple(tuple, slot, true);
}

/*
 * RowGroupBuilderGetRow
 *		Store buffered row row in slot (materialised).  Attributes the
 *		builder does not have read as their missing values.
 */
void
RowGroupBuilderGetRow(RowGroupBuilder *b, int row, TupleTableSlot *slot)
{
	TupleDesc	desc = slot->tts_tupleDescriptor;
	int			i;

	ExecClearTuple(slot);
	for (i = 0; i < desc->natts; i++)
	{
		if (i >= b->tupdesc->natts)
			slot->tts_values[i] = getmissingattr(desc, i + 1, &slot->tts_isnull[i]);
		else
		{
			slot->tts_values[i] = b->values[i][row];
			slot->tts_isnull[i] = b->isnull[i][row];
		}
	}
	StoreFilledSlot(slot);
	ExecMaterializeSlot(slot);
}

/*
 * RowGroupBuilderWrite
 *		Write the buffered rows as row group [first_row, first_row + nrows)
 *		and empty the builder; sources and decoding as for RowGroupWrite.
 *		Returns the
 *		directory index.
 */
uint32
RowGroupBuilderWrite(RowGroupBuilder *b, Relation rel, uint64 first_row,
					 TransactionId xmin, CommandId cmin, uint16 flags,
					 const ColstoreOptions *opts, const ItemPointerData *sources,
					 RowGroupDecoding decoding)
{
	uint32		index;

	Assert(b->nrows > 0);
	index = RowGroupWrite(rel, b->tupdesc, first_row, b->nrows, b->values,
						  b->isnull, b->row_bytes, xmin, cmin, flags, opts, sources,
						  decoding);
	b->nrows = 0;
	b->bytes = 0;
	MemoryContextReset(b->data_cxt);
	memset(b->arenas, 0, sizeof(ValueArena) * Max(b->tupdesc->natts, 1));
	return index;
}
