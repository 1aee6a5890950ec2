/*-------------------------------------------------------------------------
 *
 * unique_probe.c
 *	  Equality probes of a unique btree index answered from the row groups:
 *	  the row whose stored key equals the probe's, found by the key column's
 *	  chunk statistics and values, returned if the snapshot sees it.
 *
 * A nested loop that probes a table by its primary key (TPC-H Q9 probes
 * `orders` and `supplier` 319,404 times each) spends about half of each
 * probe descending the btree.  When the table holds the key in ascending
 * order in its row groups (a load in key order, compaction of such rows),
 * the key's position can be found without the index: the chunks' min/max
 * give the chunk, a binary search of its decoded values the row.
 *
 * Why the row found this way is the answer: the index is unique and its
 * constraint immediate, so an MVCC snapshot sees at most one row with a
 * given key (a row with the key can only be inserted once the one before
 * it is deleted by a committed transaction).  If the row at the position
 * found is visible to the scan's snapshot (RowFetchIndexed, as for an
 * index entry naming it) and is that row itself, not a later member of a
 * HOT chain its promoted copy roots (whose key is not the one stored in the
 * chunk when the index was built after such an update), it is the one row
 * the index scan would return.  Every other case goes to the index: no
 * usable chunk holds the key, the row found is deleted, updated or not yet
 * visible, or it is in a row group the snapshot does not see; rows on heap
 * pages are found through the index only.  So the order of the table only
 * decides how often the index is skipped, never the result.
 *
 * Used only where that argument holds and nothing else depends on the
 * index being read: a btree of the integer operator family on one column
 * of type smallint, integer or bigint (no expression, no predicate), unique
 * and immediate; one equality scan key, compared as a signed integer; an
 * MVCC snapshot; not SERIALIZABLE (a scan reading the index takes no
 * predicate lock on its pages here, but relations reading row groups
 * judge SSI conflicts per group: simpler to leave such scans alone); no
 * mark/restore or backward fetches.  Decoded key chunks are kept for
 * later probes, decoded at most one per 16 probes and up to work_mem in
 * all (ChunkValues), so a scan of few probes reads the index only and one
 * of many pays for the decodes at most what the index would have cost for
 * a sixteenth of them.  `colstore.enable_unique_probe` turns it off.
 *
 * IDENTIFICATION
 *	  src/cscan/unique_probe.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/htup_details.h"
#include "access/nbtree.h"
#include "access/xact.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_index.h"
#include "catalog/pg_opfamily_d.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "cscan/unique_probe.h"
#include "mvcc/row_fetch.h"
#include "mvcc/visibility.h"
#include "storage/chunk_cache.h"
#include "storage/directory.h"
#include "storage/integer_order.h"
#include "storage/rowgroup_reader.h"

/* colstore.enable_unique_probe */
bool		colstore_enable_unique_probe = true;

/* a chunk is decoded for at most one probe in this many, the others go to the index */
#define PROBES_PER_DECODE	16
/* the directory is listed again, if it changed, at most once per this many probes */
#define PROBES_PER_LIST		1024

/* One chunk of the key column the lookup may search. */
typedef struct ProbeChunk
{
	int			group;			/* index into UniqueProbe.groups */
	uint32		chunkno;
	uint64		first_row;		/* row number of its first row */
	int			nrows;
	int64		min;
	int64		max;
} ProbeChunk;

struct UniqueProbe
{
	Relation	rel;
	Snapshot	snapshot;
	int			attno;			/* the key's table column, 0-based */
	Oid			column_type;
	Oid			key_type;		/* the scan key argument's type */
	MemoryContext list_cxt;		/* groups and chunks */
	MemoryContext chunk_cxt;	/* the decoded chunks */
	/* the directory the list was made from */
	bool		listed;
	uint64		listed_at;		/* probes when it was made */
	uint64		dir_identity;
	uint32		dir_count;
	uint32		dir_changes;
	/* visible row groups whose key chunks are usable, and those chunks */
	RowGroupDirEntry *groups;
	uint32	   *group_dir_index;
	ProbeChunk *chunks;			/* by row number, ascending keys */
	int			nchunks;
	/* decoded chunks, per listed chunk (NULL: not decoded), in chunk_cxt */
	int64	  **values;
	Size		decoded_bytes;
	/* counters */
	uint64		probes;
	uint64		decodes;
	uint64		answered;
	bool		stopped;		/* the keys do not fit in work_mem */
};

/* Is typid an integer type whose datums SignedIntegerDatum reads? */
static bool
ProbeIntegerType(Oid typid)
{
	return typid == INT2OID || typid == INT4OID || typid == INT8OID;
}

/*
 * UniqueProbeBegin
 *		A probe state for a scan of rel through index with the given scan
 *		keys, snapshot and executor flags, or NULL when the conditions in the
 *		file header do not hold (the scan then reads the index only).
 *		Allocated in CurrentMemoryContext (the executor's).
 */
UniqueProbe *
UniqueProbeBegin(Relation rel, Relation index, ScanKey keys, int nkeys,
				 Snapshot snapshot, int eflags)
{
	Form_pg_index ind = index->rd_index;
	UniqueProbe *probe;
	AttrNumber	attnum;
	Oid			column_type;
	Oid			key_type;

	if (!colstore_enable_unique_probe || nkeys != 1 ||
		(eflags & (EXEC_FLAG_BACKWARD | EXEC_FLAG_MARK)) ||
		snapshot == NULL || !IsMVCCSnapshot(snapshot) || IsolationIsSerializable())
		return NULL;
	if (index->rd_rel->relam != BTREE_AM_OID || !ind->indisunique ||
		!ind->indimmediate || IndexRelationGetNumberOfKeyAttributes(index) != 1 ||
		index->rd_opfamily[0] != INTEGER_BTREE_FAM_OID ||
		!heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL))
		return NULL;
	attnum = ind->indkey.values[0];
	if (attnum <= 0 || attnum > RelationGetDescr(rel)->natts)
		return NULL;
	column_type = TupleDescAttr(RelationGetDescr(rel), attnum - 1)->atttypid;
	key_type = OidIsValid(keys[0].sk_subtype) ? keys[0].sk_subtype : column_type;
	if (keys[0].sk_attno != 1 || keys[0].sk_strategy != BTEqualStrategyNumber ||
		(keys[0].sk_flags & (SK_ROW_HEADER | SK_SEARCHARRAY | SK_SEARCHNULL |
							 SK_SEARCHNOTNULL)) ||
		!ProbeIntegerType(column_type) || !ProbeIntegerType(key_type))
		return NULL;

	probe = palloc0(sizeof(UniqueProbe));
	probe->rel = rel;
	probe->snapshot = snapshot;
	probe->attno = attnum - 1;
	probe->column_type = column_type;
	probe->key_type = key_type;
	probe->list_cxt = AllocSetContextCreate(CurrentMemoryContext,
											"colstore unique probe chunks",
											ALLOCSET_DEFAULT_SIZES);
	probe->chunk_cxt = AllocSetContextCreate(CurrentMemoryContext,
											 "colstore unique probe values",
											 ALLOCSET_DEFAULT_SIZES);
	return probe;
}

/*
 * Add group's usable key chunks to the list, or none if one of them is not
 * ascending with statistics of the column's current type, or the group
 * does not store the column.
 */
static void
ListGroupChunks(UniqueProbe *probe, int group, int *capacity)
{
	Relation	rel = probe->rel;
	Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), probe->attno);
	const RowGroupDirEntry *entry = &probe->groups[group];
	const RowGroupHeader *h;
	int			first = probe->nchunks;
	uint32		c;

	if (probe->attno >= entry->rg_natts)
		return;
	h = ChunkCacheGetHeader(rel, probe->group_dir_index[group], entry);
	for (c = 0; c < h->nchunks; c++)
	{
		const ChunkDesc *cd = RowGroupChunk(h, probe->attno, c);
		ProbeChunk *pc;
		Datum		min;
		Datum		max;

		if (!(cd->cd_flags & CHUNK_ASCENDING) ||
			!RowGroupChunkStatsMatch(h, att, probe->attno, c) ||
			!RowGroupChunkMinMax(h, att, probe->attno, c, &min, &max))
		{
			probe->nchunks = first;
			return;
		}
		if (probe->nchunks == *capacity)
		{
			*capacity *= 2;
			probe->chunks = repalloc(probe->chunks, sizeof(ProbeChunk) * *capacity);
		}
		pc = &probe->chunks[probe->nchunks++];
		pc->group = group;
		pc->chunkno = c;
		pc->first_row = entry->rg_first_row + h->chunk_first_row[c];
		pc->nrows = RowGroupChunkRows(h, c);
		pc->min = SignedIntegerDatum(probe->column_type, min);
		pc->max = SignedIntegerDatum(probe->column_type, max);
	}
}

/*
 * Make the list of chunks from dir: those of the row groups the snapshot
 * sees, in row order.  If their key ranges are not ascending (the table
 * is not in key order), the list is left empty and every probe goes to
 * the index until the directory changes.  A list stays safe to read while
 * the scan runs: a row group retired after the scan's snapshot was taken
 * is freed only once no snapshot that old is left, and its pages are
 * moved or truncated only under a lock that conflicts with the scan's.
 */
static void
ListChunks(UniqueProbe *probe, ColstoreDirectory *dir)
{
	MemoryContext oldcxt;
	int			capacity = 64;
	int			i;

	MemoryContextReset(probe->list_cxt);
	MemoryContextReset(probe->chunk_cxt);
	probe->decoded_bytes = 0;
	probe->nchunks = 0;
	probe->listed = true;
	probe->listed_at = probe->probes;
	probe->dir_identity = dir->identity;
	probe->dir_count = dir->count;
	probe->dir_changes = dir->changes;
	oldcxt = MemoryContextSwitchTo(probe->list_cxt);
	probe->groups = palloc(sizeof(RowGroupDirEntry) * Max(dir->ngroups, 1));
	probe->group_dir_index = palloc(sizeof(uint32) * Max(dir->ngroups, 1));
	probe->chunks = palloc(sizeof(ProbeChunk) * capacity);
	for (i = 0; i < dir->ngroups; i++)
	{
		const RowGroupDirEntry *entry = &dir->entries[dir->groups[i]];

		if (RowGroupInsertAborted(entry) || !RowGroupIsVisible(entry, probe->snapshot))
			continue;
		probe->groups[i] = *entry;
		probe->group_dir_index[i] = dir->groups[i];
		ListGroupChunks(probe, i, &capacity);
	}
	for (i = 1; i < probe->nchunks; i++)
		if (probe->chunks[i - 1].max > probe->chunks[i].min)
		{
			probe->nchunks = 0;
			break;
		}
	probe->values = palloc0(sizeof(int64 *) * Max(probe->nchunks, 1));
	MemoryContextSwitchTo(oldcxt);
}

/*
 * The decoded values of chunk i of the list, decoding it unless it is kept
 * from an earlier probe, or NULL if the index should answer this probe:
 * chunks are decoded for at most one probe in PROBES_PER_DECODE (a decode
 * of a 10,000-value chunk costs about what that many btree descents do),
 * and kept while they take at most work_mem; a chunk that would not fit
 * stops the probing for the scan (the outer side may probe the keys in any
 * order: TPC-H Q9's `orders`, 1,500,000 keys, takes 12 MB).
 */
static const int64 *
ChunkValues(UniqueProbe *probe, int i)
{
	Relation	rel = probe->rel;
	ProbeChunk *pc = &probe->chunks[i];
	const RowGroupDirEntry *entry = &probe->groups[pc->group];
	const RowGroupHeader *h;
	MemoryContext oldcxt;
	Datum	   *datums;
	bool	   *isnull;
	int64	   *values;
	Size		bytes = sizeof(int64) * pc->nrows;
	int			r;

	if (probe->values[i] != NULL)
		return probe->values[i];
	if ((probe->decodes + 1) * PROBES_PER_DECODE > probe->probes)
		return NULL;
	if (probe->decoded_bytes + bytes > (Size) work_mem * 1024)
	{
		/* the keys do not fit: the index answers from now on */
		MemoryContextReset(probe->chunk_cxt);
		probe->stopped = true;
		return NULL;
	}
	probe->decodes++;
	h = ChunkCacheGetHeader(rel, probe->group_dir_index[pc->group], entry);
	oldcxt = MemoryContextSwitchTo(probe->chunk_cxt);
	values = palloc(bytes);
	MemoryContextSwitchTo(oldcxt);
	datums = palloc(sizeof(Datum) * pc->nrows);
	isnull = palloc(sizeof(bool) * pc->nrows);
	RowGroupReadColumnChunk(rel, h, RelationGetDescr(rel), probe->attno, pc->chunkno,
							datums, isnull);
	for (r = 0; r < pc->nrows; r++)
	{
		/* an ascending chunk has no NULLs; one that had would go to the index */
		values[r] = isnull[r] ? PG_INT64_MAX :
			SignedIntegerDatum(probe->column_type, datums[r]);
	}
	pfree(datums);
	pfree(isnull);
	probe->values[i] = values;
	probe->decoded_bytes += bytes;
	return values;
}

/*
 * The row number of a row-group row whose stored key is key, if a listed
 * chunk holds one (the first such chunk, by row number).
 */
static bool
FindKey(UniqueProbe *probe, int64 key, uint64 *rownum)
{
	const int64 *values;
	int			lo = 0;
	int			hi;
	int			i;

	/*
	 * List the chunks once the scan has probed enough to pay for reading
	 * every row group's header, and again when the directory changed, at most
	 * once per PROBES_PER_LIST probes.  An older list is still right to use
	 * (see ListChunks): it may only miss newer row groups.
	 */
	if (!probe->listed ? probe->probes >= PROBES_PER_DECODE :
		probe->probes - probe->listed_at >= PROBES_PER_LIST)
	{
		ColstoreDirectory *dir = DirectoryGet(probe->rel);

		if (!probe->listed || dir->identity != probe->dir_identity ||
			dir->count != probe->dir_count || dir->changes != probe->dir_changes)
			ListChunks(probe, dir);
		else
			probe->listed_at = probe->probes;
	}
	if (!probe->listed)
		return false;
	/* the first chunk whose max is at least key */
	hi = probe->nchunks;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (probe->chunks[mid].max < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == probe->nchunks || probe->chunks[lo].min > key)
		return false;
	i = lo;
	values = ChunkValues(probe, i);
	if (values == NULL)
		return false;
	lo = 0;
	hi = probe->chunks[i].nrows;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (values[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == probe->chunks[i].nrows || values[lo] != key)
		return false;
	*rownum = probe->chunks[i].first_row + lo;
	return true;
}

/*
 * UniqueProbeFetch
 *		Answer the probe for key (the scan's one equality key, run-time keys
 *		evaluated) from the row groups: true with slot holding the row, its
 *		needed columns fetched (and the key column set from the stored key
 *		when key_from_index, as the index entry would have given it), if the
 *		row found is visible and is the row itself (see the file header);
 *		false, with slot cleared, when the index must answer.
 */
bool
UniqueProbeFetch(UniqueProbe *probe, ScanKey key, TupleTableSlot *slot,
				 const bool *needed, bool key_from_index)
{
	int64		value;
	uint64		rownum;
	ItemPointerData tid;

	if (probe->stopped || (key->sk_flags & SK_ISNULL))
		return false;
	value = SignedIntegerDatum(probe->key_type, key->sk_argument);
	probe->probes++;
	if (!FindKey(probe, value, &rownum))
		return false;
	if (RowFetchIndexed(probe->rel, rownum, probe->snapshot, slot, needed,
						true, NULL) != ROW_VISIBLE)
	{
		ExecClearTuple(slot);
		return false;
	}
	RowNumberToItemPointer(rownum, &tid);
	if (!ItemPointerEquals(&slot->tts_tid, &tid))
	{
		ExecClearTuple(slot);
		return false;
	}
	if (key_from_index)
	{
		slot->tts_values[probe->attno] = SignedIntegerToDatum(probe->column_type, value);
		slot->tts_isnull[probe->attno] = false;
	}
	probe->answered++;
	return true;
}

/* UniqueProbeAnswered: probes answered from the row groups so far. */
uint64
UniqueProbeAnswered(const UniqueProbe *probe)
{
	return probe->answered;
}

void
UniqueProbeDefineSettings(void)
{
	DefineCustomBoolVariable("colstore.enable_unique_probe",
							 "Lets colstore index scans answer an equality probe of a unique integer key from the row groups when the table holds the key in order.",
							 NULL,
							 &colstore_enable_unique_probe,
							 true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
}
