/*-------------------------------------------------------------------------
 *
 * chunk_order.c
 *	  Is a column stored in ascending order?
 *
 * The row group writer flags a chunk CHUNK_ASCENDING when it has no NULLs
 * and each value is at least the one before under the type's default btree
 * ordering (the ordering of its typed min/max).  A sequence of row groups,
 * in row order, then holds the column in ascending order when every chunk
 * is so flagged, its stats were computed for the column's current type and
 * collation, and each chunk's minimum is at least the previous chunk's
 * maximum.  The planner asks this of the whole table, to offer ordered
 * ColstoreScan paths (merge joins and ORDER BY without a sort); the
 * executor asks it of the row groups one scan will return, and sorts if
 * the answer changed since planning.
 *
 * IDENTIFICATION
 *	  src/storage/chunk_order.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "mvcc/visibility.h"
#include "storage/chunk_cache.h"
#include "storage/chunk_order.h"
#include "storage/directory.h"
#include "storage/rowgroup_writer.h"

/*
 * ChunkOrderBegin
 *		Start a check of column attno (0-based, described by att) over row
 *		groups given in row order.  Returns false if the type has no default
 *		btree ordering (then nothing needs ending).
 */
bool
ChunkOrderBegin(ChunkOrderCheck *check, Form_pg_attribute att, int attno)
{
	check->cmp = RowGroupColumnComparison(att);
	if (check->cmp == NULL)
		return false;
	check->att = att;
	check->attno = attno;
	check->have_prev = false;
	check->prev_max = (Datum) 0;
	check->prev_cxt = AllocSetContextCreate(CurrentMemoryContext, "colstore order check",
											ALLOCSET_SMALL_SIZES);
	check->tmp_cxt = AllocSetContextCreate(CurrentMemoryContext, "colstore order stats",
										   ALLOCSET_SMALL_SIZES);
	return true;
}

/*
 * ChunkOrderNextGroup
 *		Continue the check with the next row group's header; returns false as
 *		soon as the column is known not to be in order.
 */
bool
ChunkOrderNextGroup(ChunkOrderCheck *check, const RowGroupHeader *h)
{
	uint32		c;

	for (c = 0; c < h->nchunks; c++)
	{
		const ChunkDesc *cd;
		Datum		min;
		Datum		max;
		bool		in_order;
		MemoryContext oldcxt;

		/* a column added later reads as its missing value: no stats */
		if (check->attno >= h->natts ||
			!RowGroupChunkStatsMatch(h, check->att, check->attno, c))
			return false;
		cd = RowGroupChunk(h, check->attno, c);
		if (!(cd->cd_flags & CHUNK_ASCENDING) || cd->cd_nnulls != 0)
			return false;
		MemoryContextReset(check->tmp_cxt);
		oldcxt = MemoryContextSwitchTo(check->tmp_cxt);
		in_order = RowGroupChunkMinMax(h, check->att, check->attno, c, &min, &max) &&
			(!check->have_prev ||
			 DatumGetInt32(FunctionCall2Coll(check->cmp, check->att->attcollation,
											 check->prev_max, min)) <= 0);
		MemoryContextSwitchTo(oldcxt);
		if (!in_order)
			return false;
		MemoryContextReset(check->prev_cxt);
		oldcxt = MemoryContextSwitchTo(check->prev_cxt);
		check->prev_max = datumCopy(max, check->att->attbyval, check->att->attlen);
		MemoryContextSwitchTo(oldcxt);
		check->have_prev = true;
	}
	return true;
}

/* Free what ChunkOrderBegin allocated; the check is over. */
void
ChunkOrderEnd(ChunkOrderCheck *check)
{
	MemoryContextDelete(check->prev_cxt);
	MemoryContextDelete(check->tmp_cxt);
}

/* What the planner learned of one table, valid while its directory is. */
typedef struct OrderCacheEntry
{
	Oid			relid;			/* hash key */
	RelFileNode node;
	uint32		count;			/* directory entries when checked */
	uint32		changes;		/* directory in-place changes when checked */
	uint64		known[4];		/* bit per attno < 256: checked */
	uint64		sorted[4];		/* ... and found in order */
} OrderCacheEntry;

static HTAB *OrderCache = NULL;

#define ORDER_CACHE_ATTS	256
#define BitGet(a, i)	(((a)[(i) / 64] >> ((i) % 64)) & 1)
#define BitSet(a, i)	((a)[(i) / 64] |= UINT64CONST(1) << ((i) % 64))

/* The whole table in directory order: are attno's values in order? */
static bool
CheckTable(Relation rel, ColstoreDirectory *dir, int attno)
{
	ChunkOrderCheck check;
	bool		sorted = true;
	int			i;

	/* heap tuples of changed rows are read in between, in no order */
	if (dir->ndeltas > 0 || dir->ngroups == 0)
		return false;
	if (!ChunkOrderBegin(&check, TupleDescAttr(RelationGetDescr(rel), attno), attno))
		return false;
	for (i = 0; i < dir->ngroups && sorted; i++)
	{
		RowGroupDirEntry entry = dir->entries[dir->groups[i]];

		/* rows of an aborted insert are never returned */
		if (RowGroupInsertAborted(&entry))
			continue;
		sorted = ChunkOrderNextGroup(&check,
									 ChunkCacheGetHeader(rel, dir->groups[i], &entry));
	}
	ChunkOrderEnd(&check);
	return sorted;
}

/*
 * ColstoreColumnStoredInOrder
 *		Are the values of column attno (0-based) of every row the table holds
 *		now (visible or not, aborted ones aside) in ascending order of row
 *		number, without NULLs, and without heap tuples of changed rows?  The
 *		answer is remembered until the directory changes or the relcache
 *		entry is invalidated (ALTER COLUMN ... TYPE or COLLATE without a
 *		rewrite changes what the stats mean); a scan that relies
 *		on it must check its own row groups again (ColstoreScanReturnsSortedBy),
 *		since rows may arrive after planning.
 */
bool
ColstoreColumnStoredInOrder(Relation rel, int attno)
{
	ColstoreDirectory *dir = DirectoryGet(rel);
	Oid			relid = RelationGetRelid(rel);
	OrderCacheEntry *entry;
	bool		found;

	if (attno >= ORDER_CACHE_ATTS)
		return CheckTable(rel, dir, attno);
	if (OrderCache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(OrderCacheEntry);
		ctl.hcxt = TopMemoryContext;
		OrderCache = hash_create("colstore column order cache", 16, &ctl,
								 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	entry = hash_search(OrderCache, &relid, HASH_ENTER, &found);
	if (!found ||
		!RelFileNodeEquals(entry->node, rel->rd_node) ||
		entry->count != dir->count || entry->changes != dir->changes)
	{
		entry->node = rel->rd_node;
		entry->count = dir->count;
		entry->changes = dir->changes;
		memset(entry->known, 0, sizeof(entry->known));
		memset(entry->sorted, 0, sizeof(entry->sorted));
	}
	if (!BitGet(entry->known, attno))
	{
		/* (dynahash entries stay where they are while others are added) */
		if (CheckTable(rel, dir, attno))
			BitSet(entry->sorted, attno);
		BitSet(entry->known, attno);
	}
	return BitGet(entry->sorted, attno);
}

/*
 * ColumnOrderForget
 *		Drop what ColstoreColumnStoredInOrder remembers of relid (relcache
 *		invalidation).
 */
void
ColumnOrderForget(Oid relid)
{
	if (OrderCache != NULL)
		(void) hash_search(OrderCache, &relid, HASH_REMOVE, NULL);
}
