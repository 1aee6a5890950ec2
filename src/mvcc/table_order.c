/*-------------------------------------------------------------------------
 *
 * table_order.c
 *	  Is a column of a whole table stored in ascending order?  The
 *	  planner's question, answered from the row groups whose rows a scan
 *	  may return and remembered per backend.
 *
 * The check of each row group is storage/chunk_order.c's; which row
 * groups count is a visibility decision (the rows of an aborted insert are
 * never returned, mvcc/visibility.c), and so is this file's.
 *
 * IDENTIFICATION
 *	  src/mvcc/table_order.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "mvcc/table_order.h"
#include "mvcc/visibility.h"
#include "storage/chunk_cache.h"
#include "storage/chunk_order.h"
#include "storage/delta_heap.h"
#include "storage/directory.h"

/*
 * What the planner learned of one column of one table: whether the row
 * groups checked so far (the first `checked` of the directory's, by row
 * number) hold it in order, and the largest value they hold, so that row
 * groups appended since are checked alone.  Valid while the relfilenode
 * and the directory's in-place change count stay the same.
 */
typedef struct OrderCacheKey
{
	Oid			relid;
	int			attno;
} OrderCacheKey;

typedef struct OrderCacheEntry
{
	OrderCacheKey key;			/* hash key */
	RelFileLocator node;
	uint32		changes;		/* directory in-place changes when checked */
	uint32		count;			/* directory entries when checked */
	int			checked;		/* row groups checked, by row number */
	uint64		end_row;		/* end of the last of them */
	bool		sorted;
	bool		has_max;
	Datum		max;			/* in TopMemoryContext when by reference */
	bool		max_byval;
} OrderCacheEntry;

static HTAB *OrderCache = NULL;

static void
ForgetMax(OrderCacheEntry *entry)
{
	if (entry->has_max && !entry->max_byval)
		pfree(DatumGetPointer(entry->max));
	entry->has_max = false;
}

/* End row of the i-th row group of the directory, by row number. */
static inline uint64
GroupEnd(ColstoreDirectory *dir, int i)
{
	const RowGroupDirEntry *e = &dir->entries[dir->groups[i]];

	return e->rg_first_row + e->rg_nrows;
}

/*
 * Continue entry's check of column attno over the directory's row groups
 * from the first unchecked one (heap pages are the caller's).
 */
static void
CheckNewGroups(Relation rel, ColstoreDirectory *dir, OrderCacheEntry *entry)
{
	int			attno = entry->key.attno;
	Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), attno);
	ChunkOrderCheck check;
	MemoryContext oldcxt;
	int			i;

	if (!ChunkOrderBegin(&check, att, attno))
	{
		entry->sorted = false;
		return;
	}
	if (entry->has_max)
	{
		oldcxt = MemoryContextSwitchTo(check.prev_cxt);
		check.prev_max = datumCopy(entry->max, att->attbyval, att->attlen);
		check.have_prev = true;
		MemoryContextSwitchTo(oldcxt);
	}
	for (i = entry->checked; i < dir->ngroups && entry->sorted; i++)
	{
		RowGroupDirEntry group = dir->entries[dir->groups[i]];

		/* rows of an aborted insert are never returned */
		if (!RowGroupInsertAborted(&group))
			entry->sorted = ChunkOrderNextGroup(&check,
												ChunkCacheGetHeader(rel, dir->groups[i],
																	&group));
	}
	entry->checked = dir->ngroups;
	entry->end_row = dir->ngroups > 0 ? GroupEnd(dir, dir->ngroups - 1) : 0;
	ForgetMax(entry);
	if (entry->sorted && check.have_prev)
	{
		oldcxt = MemoryContextSwitchTo(TopMemoryContext);
		entry->max = datumCopy(check.prev_max, att->attbyval, att->attlen);
		MemoryContextSwitchTo(oldcxt);
		entry->max_byval = att->attbyval;
		entry->has_max = true;
	}
	ChunkOrderEnd(&check);
}

/* More heap pages than this are assumed to hold tuples, without reading them. */
#define ORDER_MAX_HEAP_PAGES	1024

/*
 * ColstoreColumnStoredInOrder
 *		Are the values of column attno (0-based) of every row the table holds
 *		now (visible or not, aborted ones aside) in ascending order of row
 *		number, without NULLs, and without heap tuples (which scans read
 *		in between, in no order; heap pages that VACUUM emptied, after
 *		compaction moved their rows into row groups, do not count)?  False
 *		for a table without row groups, or with more than
 *		ORDER_MAX_HEAP_PAGES heap pages (not read, assumed to hold some).
 *		The heap pages are read on every call (the answer for them is not
 *		remembered: rows arrive on them without a directory change).
 *
 *		The answer is remembered per backend.  Row groups appended since are
 *		checked alone, continuing from the largest value seen, as long as
 *		they all come after the ones checked (a transaction that reserved its
 *		row numbers early may write its group among older ones: then all are
 *		checked again, as after an in-place directory change or a relcache
 *		invalidation, which ALTER COLUMN ... TYPE or COLLATE without a
 *		rewrite sends).  A scan that relies on the answer must check its own
 *		row groups again (ColstoreScanReturnsSortedBy): rows may arrive
 *		after planning.
 */
bool
ColstoreColumnStoredInOrder(Relation rel, int attno)
{
	ColstoreDirectory *dir;
	OrderCacheKey key;
	OrderCacheEntry *entry;
	bool		found;

	if (DeltaPagesHoldTuples(rel, ORDER_MAX_HEAP_PAGES))
		return false;
	dir = DirectoryGet(rel);
	if (OrderCache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(OrderCacheKey);
		ctl.entrysize = sizeof(OrderCacheEntry);
		ctl.hcxt = TopMemoryContext;
		OrderCache = hash_create("colstore column order cache", 16, &ctl,
								 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	memset(&key, 0, sizeof(key));
	key.relid = RelationGetRelid(rel);
	key.attno = attno;
	entry = hash_search(OrderCache, &key, HASH_ENTER, &found);
	if (found && entry->count == dir->count && entry->changes == dir->changes &&
		RelFileLocatorEquals(entry->node, rel->rd_locator))
		return entry->sorted && dir->ngroups > 0;
	/* start over unless only row groups after the checked ones came */
	if (!found || !RelFileLocatorEquals(entry->node, rel->rd_locator) ||
		entry->changes != dir->changes || entry->checked > dir->ngroups ||
		(entry->checked > 0 && GroupEnd(dir, entry->checked - 1) != entry->end_row))
	{
		if (found)
			ForgetMax(entry);
		entry->node = rel->rd_locator;
		entry->changes = dir->changes;
		entry->count = 0;		/* set once a check has finished */
		entry->checked = 0;
		entry->end_row = 0;
		entry->sorted = true;
		entry->has_max = false;
	}
	/* groups added to an unordered table leave it unordered */
	if (entry->sorted)
		CheckNewGroups(rel, dir, entry);
	entry->count = dir->count;
	return entry->sorted && dir->ngroups > 0;
}

/*
 * ColumnOrderForget
 *		Drop what ColstoreColumnStoredInOrder remembers of relid (relcache
 *		invalidation).
 */
void
ColumnOrderForget(Oid relid)
{
	HASH_SEQ_STATUS status;
	OrderCacheEntry *entry;

	if (OrderCache == NULL)
		return;
	hash_seq_init(&status, OrderCache);
	while ((entry = hash_seq_search(&status)) != NULL)
	{
		if (entry->key.relid != relid)
			continue;
		ForgetMax(entry);
		(void) hash_search(OrderCache, &entry->key, HASH_REMOVE, NULL);
	}
}
