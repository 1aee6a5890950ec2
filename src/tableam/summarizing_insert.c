/*-------------------------------------------------------------------------
 *
 * summarizing_insert.c
 *	  Inserting a row version into the summarizing indexes (BRIN) of a
 *	  colstore table under a TID that is not its own: the TID of the
 *	  row-group row whose promoted copy roots the version's HOT chain.
 *
 * From PostgreSQL 16 an UPDATE that changes only columns of summarizing
 * indexes is still a HOT update, and heap asks for entries in those indexes
 * only (TU_Summarizing), under the new version's TID: a summarizing index
 * describes ranges of blocks, and heap's HOT versions share their root's
 * block.  A chain rooted at a row's promoted copy does not: the row's
 * index entries name its row-group TID, readers reach the chain through it,
 * and a lossy bitmap page of the heap page returns no member of such a
 * chain (it comes back through its row, tableam/scan_position.c).  So the
 * member's summarizing entries must describe the row's range: made here,
 * under the row's TID, and the executor is told to make none
 * (tableam/am_dml.c).
 *
 * IDENTIFICATION
 *	  src/tableam/summarizing_insert.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amapi.h"
#include "access/genam.h"
#include "catalog/index.h"
#include "executor/executor.h"
#include "nodes/pg_list.h"
#include "utils/rel.h"
#include "utils/relcache.h"

#include "tableam/summarizing_insert.h"

/*
 * SummarizingIndexesInsert
 *		Insert the row version in slot into every summarizing index of rel
 *		that takes inserts, under tid, as ExecInsertIndexTuples would for
 *		TU_Summarizing (partial indexes' predicates checked).
 */
void
SummarizingIndexesInsert(Relation rel, TupleTableSlot *slot, ItemPointer tid)
{
#if PG_VERSION_NUM >= 160000
	List	   *indexes = RelationGetIndexList(rel);
	EState	   *estate = NULL;
	ExprContext *econtext = NULL;
	ListCell   *lc;

	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), RowExclusiveLock);
		IndexInfo  *info;
		Datum		values[INDEX_MAX_KEYS];
		bool		isnull[INDEX_MAX_KEYS];

		if (!index->rd_indam->amsummarizing)
		{
			index_close(index, RowExclusiveLock);
			continue;
		}
		info = BuildIndexInfo(index);
		if (!info->ii_ReadyForInserts)
		{
			index_close(index, RowExclusiveLock);
			continue;
		}
		if (estate == NULL)
		{
			estate = CreateExecutorState();
			econtext = GetPerTupleExprContext(estate);
			econtext->ecxt_scantuple = slot;
		}
		ResetExprContext(econtext);
		if (info->ii_Predicate != NIL &&
			!ExecQual(ExecPrepareQual(info->ii_Predicate, estate), econtext))
		{
			index_close(index, RowExclusiveLock);
			continue;
		}
		FormIndexDatum(info, slot, estate, values, isnull);
		index_insert(index, values, isnull, tid, rel, UNIQUE_CHECK_NO, false, info);
#if PG_VERSION_NUM >= 170000
		/* BRIN keeps its revmap pinned in the insert state until then */
		index_insert_cleanup(index, info);
#endif
		index_close(index, RowExclusiveLock);
	}
	if (estate != NULL)
		FreeExecutorState(estate);
	list_free(indexes);
#endif
}
