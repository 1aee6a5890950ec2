/*-------------------------------------------------------------------------
 *
 * chunk_pruning.h
 *	  Skipping chunks whose min/max or NULL count refute a scan's quals.
 *
 * IDENTIFICATION
 *	  src/cscan/chunk_pruning.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef CHUNK_PRUNING_H
#define CHUNK_PRUNING_H

#include "access/tupdesc.h"
#include "nodes/execnodes.h"
#include "nodes/pathnodes.h"

#include "storage/rowgroup_reader.h"

typedef struct ChunkPruner ChunkPruner;

extern Var *PruningClauseColumn(Expr *clause, Index relid);
extern ChunkPruner *ChunkPrunerCreate(List *clauses, TupleDesc desc,
									  PlanState *parent);
extern void ChunkPrunerEvaluate(ChunkPruner *pruner, ExprContext *econtext);
extern bool ChunkPrunerRefutes(void *arg, const RowGroupHeader *h,
							   uint32 chunkno);

#endif							/* CHUNK_PRUNING_H */
