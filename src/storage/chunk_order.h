/*-------------------------------------------------------------------------
 *
 * chunk_order.h
 *	  Do row groups hold a column in ascending order?  (chunk_order.c)
 *
 * IDENTIFICATION
 *	  src/storage/chunk_order.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef CHUNK_ORDER_H
#define CHUNK_ORDER_H

#include "fmgr.h"
#include "storage/rowgroup_reader.h"
#include "utils/rel.h"

/* A walk over row groups in row order, checking one column's order. */
typedef struct ChunkOrderCheck
{
	Form_pg_attribute att;
	int			attno;			/* 0-based */
	FmgrInfo   *cmp;			/* the type's default btree comparison */
	bool		have_prev;
	Datum		prev_max;		/* largest value so far, in prev_cxt */
	MemoryContext prev_cxt;
	MemoryContext tmp_cxt;
} ChunkOrderCheck;

extern bool ChunkOrderBegin(ChunkOrderCheck *check, Form_pg_attribute att, int attno);
extern bool ChunkOrderNextGroup(ChunkOrderCheck *check, const RowGroupHeader *h);
extern void ChunkOrderEnd(ChunkOrderCheck *check);

#endif							/* CHUNK_ORDER_H */
