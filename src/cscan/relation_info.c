/*-------------------------------------------------------------------------
 *
 * relation_info.c
 *	  Planner facts about colstore tables (get_relation_info_hook).
 *
 * Index-only scans are turned off for indexes on colstore tables.  An
 * index-only scan skips fetching a row when the visibility map marks the
 * block of the row's TID all-visible.  A colstore TID's block is a
 * pseudo-block of row numbers, while the visibility map of the relation
 * describes its physical blocks, and heapam sets bits there for the heap
 * pages it fills (storage/delta_heap.c): the answer would be about an
 * unrelated page.  So every index scan of a colstore table fetches its rows.
 *
 * IDENTIFICATION
 *	  src/cscan/relation_info.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "nodes/pathnodes.h"
#include "optimizer/plancat.h"
#include "utils/rel.h"

#include "cscan/relation_info.h"
#include "tableam/am_handler.h"

static get_relation_info_hook_type prev_get_relation_info_hook = NULL;

static void
ColstoreGetRelationInfo(PlannerInfo *root, Oid relationObjectId, bool inhparent,
						RelOptInfo *rel)
{
	Relation	relation;
	ListCell   *lc;

	if (prev_get_relation_info_hook)
		prev_get_relation_info_hook(root, relationObjectId, inhparent, rel);
	if (rel->indexlist == NIL)
		return;
	relation = table_open(relationObjectId, NoLock);
	if (RelationIsColstore(relation))
	{
		foreach(lc, rel->indexlist)
		{
			IndexOptInfo *index = (IndexOptInfo *) lfirst(lc);

			memset(index->canreturn, 0, sizeof(bool) * index->ncolumns);
		}
	}
	table_close(relation, NoLock);
}

void
ColstoreRelationInfoInit(void)
{
	prev_get_relation_info_hook = get_relation_info_hook;
	get_relation_info_hook = ColstoreGetRelationInfo;
}
