/*-------------------------------------------------------------------------
 *
 * relation_info.c
 *	  Planner facts about colstore tables (get_relation_info_hook).
 *
 * Index-only scans: an index-only scan skips fetching a row when the
 * visibility map marks the block of the row's TID all-visible.  A colstore
 * TID's block is a pseudo-block of row numbers, whose bits VACUUM keeps
 * (storage/all_visible.c, mvcc/visible_blocks.c).  Indexes keep their
 * canreturn (so the planner offers index-only scans, costed by the
 * all-visible fraction am_ddl.c's estimate gives) only with
 * colstore.enable_index_only_scan on and once VACUUM has marked a block
 * (pg_class.relallvisible > 0; until then an index-only scan would fetch
 * every row whole, where ColstoreIndexScan (cscan/index_scan_path.c,
 * which replaces plain index scans only) fetches only the columns the plan
 * reads) after rewriting every bit of the map (AllVisibleTrusted: bits
 * older builds let heapam set are gone).
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
#include "utils/guc.h"
#include "utils/rel.h"

#include "cscan/relation_info.h"
#include "storage/all_visible.h"
#include "tableam/am_handler.h"

static get_relation_info_hook_type prev_get_relation_info_hook = NULL;

/* colstore.enable_index_only_scan */
static bool colstore_enable_index_only_scan = true;

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
	if (RelationIsColstore(relation) &&
		!(colstore_enable_index_only_scan && relation->rd_rel->relallvisible > 0 &&
		  AllVisibleTrusted(relation)))
	{
		foreach(lc, rel->indexlist)
		{
			IndexOptInfo *index = (IndexOptInfo *) lfirst(lc);

			memset(index->canreturn, 0, sizeof(bool) * index->ncolumns);
		}
	}
	table_close(relation, NoLock);
}

/* Define colstore.enable_index_only_scan. */
void
ColstoreRelationInfoDefineSettings(void)
{
	DefineCustomBoolVariable("colstore.enable_index_only_scan",
							 "Enables index-only scans of colstore tables that VACUUM marked all-visible pseudo-blocks of.",
							 NULL,
							 &colstore_enable_index_only_scan,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
}

void
ColstoreRelationInfoInit(void)
{
	prev_get_relation_info_hook = get_relation_info_hook;
	get_relation_info_hook = ColstoreGetRelationInfo;
}
