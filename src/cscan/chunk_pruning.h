/*-------------------------------------------------------------------------
 *
 * chunk_pruning.h
 *	  Skipping chunks whose min/max or NULL count refute a scan's quals,
 *	  and deciding the same quals row by row over decoded batches.
 *
 * IDENTIFICATION
 *	  src/cscan/chunk_pruning.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef CHUNK_PRUNING_H
#define CHUNK_PRUNING_H

#include "access/relscan.h"
#include "access/tupdesc.h"
#include "nodes/execnodes.h"
#include "nodes/pathnodes.h"

#include "storage/rowgroup_reader.h"

typedef struct ChunkPruner ChunkPruner;

extern Var *PruningClauseColumn(Expr *clause, Index relid);
extern bool PruningClauseIsExact(Expr *clause, Index relid);
extern ChunkPruner *ChunkPrunerCreate(List *clauses, Index relid, TupleDesc desc,
									  PlanState *parent);
extern void ChunkPrunerEvaluate(ChunkPruner *pruner, ExprContext *econtext);
extern bool ChunkPrunerRefutes(void *arg, const RowGroupHeader *h,
							   uint32 chunkno);
extern int	ChunkPrunerNumKeys(const ChunkPruner *pruner);
extern const int *ChunkPrunerFilterRowList(ChunkPruner *pruner,
										   TableScanDesc scan, int nrows,
										   bool *selected, int *nsel);
extern void ChunkPrunerFilterRows(ChunkPruner *pruner, TableScanDesc scan,
								  int nrows, bool *selected);

#endif							/* CHUNK_PRUNING_H */
