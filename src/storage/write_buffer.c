/*-------------------------------------------------------------------------
 *
 * write_buffer.c
 *	  Buffering of inserted rows until they are written as a row group.
 *
 * tuple_insert and multi_insert do not write pages.  Each backend keeps, per
 * relation, the rows it inserted in one (sub)transaction and command, column
 * by column, in its own memory, and writes them as one row group when:
 *	- the buffer reaches the table's row_group_size rows (or a byte limit);
 *	- the command id or subtransaction of the next insert differs (a row
 *	  group has one rg_xmin/rg_cmin);
 *	- anything in this backend is about to read the table (scans, index
 *	  builds, ANALYZE, VACUUM, size estimates: WriteBufferFlush);
 *	- the transaction commits or prepares (XACT_EVENT_PRE_COMMIT/PREPARE).
 * Rows of an aborted (sub)transaction are simply dropped.
 *
 * Each row gets its row number, and so its TID, at insert time, because
 * the executor inserts index entries right away.  Row numbers come from
 * reservations recorded in the directory with the inserting xid, so another
 * backend that meets such a TID in an index (a unique check) knows whom to
 * wait for.  This backend serves its own buffered rows to index fetches
 * directly (WriteBufferFetch).
 *
 * Tables with exclusion constraints need other backends to see the values
 * of in-progress rows at once, so their rows are not buffered: they become
 * heap tuples (storage/delta_insert.c), as speculative insertions (INSERT
 * ... ON CONFLICT) do; WriteBufferRefusesTable says which tables.
 *
 * IDENTIFICATION
 *	  src/storage/write_buffer.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/genam.h"
#include "access/relation.h"
#include "access/table.h"
#include "catalog/index.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/relcache.h"

#include "storage/rowgroup_builder.h"
#include "storage/rowgroup_writer.h"
#include "storage/table_options.h"
#include "storage/write_buffer.h"
#include "storage/row_slot.h"

/* First reservation of a buffer; later ones double up to row_group_size. */
#define INITIAL_RESERVATION		1024
/* Buffered value bytes that force a write. */
#define PENDING_BYTES_LIMIT		((Size) 256 * 1024 * 1024)

typedef struct PendingRows
{
	Oid			relid;			/* hash key */
	RelFileLocator node;		/* storage the rows belong to */
	RowGroupBuilder *builder;	/* the rows */
	ColstoreOptions opts;
	SubTransactionId subid;		/* subtransaction of the buffered rows */
	TransactionId xid;
	CommandId	cid;
	uint64		first_row;		/* row number of the builder's first row */
	uint64		reserved_end;	/* end of the reserved range */
	uint32		next_reservation;
	uint64		seq;			/* order of creation, for WriteBufferFlushAll */
} PendingRows;

static HTAB *PendingTable = NULL;
static MemoryContext PendingContext = NULL;
static uint64 PendingSeq = 0;

static bool
HasExclusionConstraint(Relation rel)
{
	List	   *indexes = RelationGetIndexList(rel);
	ListCell   *lc;
	bool		result = false;

	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), AccessShareLock);

		if (index->rd_index->indisexclusion)
			result = true;
		index_close(index, AccessShareLock);
	}
	list_free(indexes);
	return result;
}

/*
 * What colstore keeps in a relation's rd_amcache, its only user: reset by
 * every relcache invalidation of the table, which creating or dropping an
 * index or constraint sends.
 */
typedef struct ColstoreAmCache
{
	bool		has_exclusion;	/* an index of the table is an exclusion one */
} ColstoreAmCache;

/*
 * WriteBufferRefusesTable
 *		Must rel's inserted rows bypass the buffer (become heap tuples)?
 *		True for a table with an exclusion constraint: other backends'
 *		checks must see each in-progress row's values at once.
 */
bool
WriteBufferRefusesTable(Relation rel)
{
	ColstoreAmCache *cache = (ColstoreAmCache *) rel->rd_amcache;

	if (cache == NULL)
	{
		/* opening the indexes may process invalidations: assign after */
		bool		has_exclusion = HasExclusionConstraint(rel);

		cache = MemoryContextAlloc(CacheMemoryContext, sizeof(ColstoreAmCache));
		cache->has_exclusion = has_exclusion;
		rel->rd_amcache = cache;
	}
	return cache->has_exclusion;
}

static bool
SameShape(TupleDesc a, TupleDesc b)
{
	int			i;

	if (a->natts != b->natts)
		return false;
	for (i = 0; i < a->natts; i++)
	{
		Form_pg_attribute x = TupleDescAttr(a, i);
		Form_pg_attribute y = TupleDescAttr(b, i);

		if (x->atttypid != y->atttypid || x->attisdropped != y->attisdropped ||
			x->attlen != y->attlen)
			return false;
	}
	return true;
}

/*
 * The entry LookupPending found last (dynahash entries stay where they are
 * until removed), so that row-at-a-time inserts do not hash every row.
 * Forgotten whenever an entry is removed or the table dropped.
 */
static PendingRows *LastPending = NULL;

static PendingRows *
LookupPending(Oid relid)
{
	if (PendingTable == NULL)
		return NULL;
	if (LastPending != NULL && LastPending->relid == relid)
		return LastPending;
	LastPending = hash_search(PendingTable, &relid, HASH_FIND, NULL);
	return LastPending;
}

static void
FreePending(PendingRows *pending)
{
	Oid			relid = pending->relid;

	LastPending = NULL;
	RowGroupBuilderFree(pending->builder);
	hash_search(PendingTable, &relid, HASH_REMOVE, NULL);
}

static PendingRows *
CreatePending(Relation rel)
{
	Oid			relid = RelationGetRelid(rel);
	PendingRows *pending;

	if (PendingTable == NULL)
	{
		HASHCTL		ctl;

		PendingContext = AllocSetContextCreate(TopMemoryContext,
											   "colstore pending rows",
											   ALLOCSET_DEFAULT_SIZES);
		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(PendingRows);
		ctl.hcxt = PendingContext;
		PendingTable = hash_create("colstore pending rows", 16, &ctl,
								   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	pending = hash_search(PendingTable, &relid, HASH_ENTER, NULL);
	pending->builder = NULL;
	pending->seq = PendingSeq++;
	pending->node = rel->rd_locator;
	ColstoreGetOptions(relid, &pending->opts);
	pending->subid = GetCurrentSubTransactionId();
	pending->xid = GetCurrentTransactionId();
	pending->cid = InvalidCommandId;
	pending->first_row = pending->reserved_end = 0;
	pending->next_reservation = Min(INITIAL_RESERVATION, pending->opts.row_group_size);
	pending->builder = RowGroupBuilderCreate(RelationGetDescr(rel), PendingContext);
	return pending;
}

/* Write the buffered rows as a row group; the buffer keeps its reservation. */
static void
WritePending(Relation rel, PendingRows *pending)
{
	int			nrows = pending->builder->nrows;

	if (nrows == 0)
		return;
	RowGroupBuilderWrite(pending->builder, rel, pending->first_row,
						 pending->xid, pending->cid, 0, &pending->opts, NULL,
						 ROWGROUP_DECODE_INSERT);
	pending->first_row += nrows;
}

/* Make room for one more row number, writing and reserving as needed. */
static void
EnsureRowNumber(Relation rel, PendingRows *pending)
{
	uint64		start;

	if (pending->first_row + pending->builder->nrows < pending->reserved_end)
		return;
	start = RowNumbersReserve(rel, pending->next_reservation, pending->xid);
	if (start != pending->reserved_end || pending->builder->nrows == 0)
	{
		/* not contiguous: the buffered rows must form their own group */
		WritePending(rel, pending);
		pending->first_row = start;
	}
	pending->reserved_end = start + pending->next_reservation;
	pending->next_reservation = Min((uint64) pending->next_reservation * 2,
									(uint64) pending->opts.row_group_size);
}

/*
 * WriteBufferInsert
 *		Buffer the row in slot as inserted by command cid of the current
 *		(sub)transaction, and set slot->tts_tid to its TID.  Not for tables
 *		with exclusion constraints (WriteBufferRefusesTable).  May write row
 *		groups and take the writer lock; errors on out-of-memory or storage
 *		errors.
 */
void
WriteBufferInsert(Relation rel, TupleTableSlot *slot, CommandId cid)
{
	WriteBufferInsertMulti(rel, &slot, 1, cid);
}

/*
 * WriteBufferInsertMulti
 *		WriteBufferInsert for slots[0..nslots-1], in order; the buffer is
 *		looked up and checked once for the batch (multi_insert: COPY).
 */
void
WriteBufferInsertMulti(Relation rel, TupleTableSlot **slots, int nslots,
					   CommandId cid)
{
	PendingRows *pending = LookupPending(RelationGetRelid(rel));
	Oid			relid = RelationGetRelid(rel);
	int			i;

	if (pending != NULL &&
		(!RelFileLocatorEquals(pending->node, rel->rd_locator) ||
		 !SameShape(pending->builder->tupdesc, RelationGetDescr(rel)) ||
		 pending->subid != GetCurrentSubTransactionId()))
	{
		WriteBufferFlush(rel);
		pending = NULL;
	}
	if (pending == NULL)
		pending = CreatePending(rel);
	if (pending->builder->nrows > 0 &&
		pending->cid != cid)
		WritePending(rel, pending);
	pending->cid = cid;

	/* writing a group keeps the buffer: nothing above changes in the loop */
	for (i = 0; i < nslots; i++)
	{
		TupleTableSlot *slot = slots[i];
		uint64		rownum;

		EnsureRowNumber(rel, pending);
		rownum = pending->first_row + pending->builder->nrows;
		RowGroupBuilderAdd(pending->builder, slot);
		RowNumberToItemPointer(rownum, &slot->tts_tid);
		slot->tts_tableOid = relid;
		ColstoreSlotSetInsertInfo(slot, pending->xid, cid);

		if (pending->builder->nrows >= pending->opts.row_group_size ||
			pending->builder->bytes >= PENDING_BYTES_LIMIT)
			WritePending(rel, pending);
	}
}

/*
 * WriteBufferFlush
 *		Write this backend's buffered rows of rel, if any, and forget the
 *		buffer.  Rows buffered for storage rel no longer has (the table was
 *		truncated or rewritten since) are dropped.
 */
void
WriteBufferFlush(Relation rel)
{
	PendingRows *pending = LookupPending(RelationGetRelid(rel));

	if (pending == NULL)
		return;
	if (RelFileLocatorEquals(pending->node, rel->rd_locator))
		WritePending(rel, pending);
	FreePending(pending);
}

/* Drop this backend's buffered rows of relid (TRUNCATE). */
void
WriteBufferDiscard(Oid relid)
{
	PendingRows *pending = LookupPending(relid);

	if (pending != NULL)
		FreePending(pending);
}

/*
 * WriteBufferFetch
 *		If rownum is one of this backend's buffered rows of rel, set *found,
 *		store the row in slot if snapshot sees it and return whether it did.
 *		Buffered rows belong to the current transaction, so only the command
 *		id matters, and only for MVCC snapshots.
 */
bool
WriteBufferFetch(Relation rel, uint64 rownum, Snapshot snapshot,
				 TupleTableSlot *slot, bool *found)
{
	PendingRows *pending = LookupPending(RelationGetRelid(rel));

	*found = false;
	if (pending == NULL || !RelFileLocatorEquals(pending->node, rel->rd_locator) ||
		rownum < pending->first_row ||
		rownum >= pending->first_row + pending->builder->nrows)
		return false;
	*found = true;
	if (snapshot->snapshot_type == SNAPSHOT_DIRTY)
		snapshot->xmin = snapshot->xmax = InvalidTransactionId;
	if (snapshot->snapshot_type == SNAPSHOT_MVCC && pending->cid >= snapshot->curcid)
		return false;
	RowGroupBuilderGetRow(pending->builder, (int) (rownum - pending->first_row), slot);
	ColstoreSlotSetInsertInfo(slot, pending->xid, pending->cid);
	RowNumberToItemPointer(rownum, &slot->tts_tid);
	slot->tts_tableOid = RelationGetRelid(rel);
	return true;
}

static int
ComparePendingSeq(const ListCell *a, const ListCell *b)
{
	const PendingRows *x = lfirst(a);
	const PendingRows *y = lfirst(b);

	return x->seq < y->seq ? -1 : x->seq > y->seq ? 1 : 0;
}

/*
 * WriteBufferFlushAll
 *		Write every buffered row of this backend, the tables' buffers in the
 *		order they were started (logical decoding sees the rows in that
 *		order: a statement that fills one partition, then another, decodes
 *		as heap's would).  Called before each statement starts (so parallel
 *		plans and utility commands never meet buffered rows) and before
 *		commit and prepare.
 */
void
WriteBufferFlushAll(void)
{
	HASH_SEQ_STATUS status;
	PendingRows *pending;
	List	   *buffers = NIL;
	List	   *relids = NIL;
	ListCell   *lc;

	if (PendingTable == NULL || hash_get_num_entries(PendingTable) == 0)
		return;
	hash_seq_init(&status, PendingTable);
	while ((pending = hash_seq_search(&status)) != NULL)
		buffers = lappend(buffers, pending);
	list_sort(buffers, ComparePendingSeq);
	foreach(lc, buffers)
		relids = lappend_oid(relids, ((PendingRows *) lfirst(lc))->relid);
	list_free(buffers);
	foreach(lc, relids)
	{
		Oid			relid = lfirst_oid(lc);
		Relation	rel = try_relation_open(relid, NoLock);

		if (rel == NULL)
		{
			/* dropped in this transaction: the rows go with it */
			WriteBufferDiscard(relid);
			continue;
		}
		WriteBufferFlush(rel);
		relation_close(rel, NoLock);
	}
	list_free(relids);
}

static void
DiscardAll(void)
{
	if (PendingContext != NULL)
		MemoryContextDelete(PendingContext);
	PendingContext = NULL;
	PendingTable = NULL;
	LastPending = NULL;
}

/* Transaction callback: write buffered rows before commit, drop on abort. */
void
WriteBufferXactCallback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
		case XACT_EVENT_PRE_PREPARE:
			WriteBufferFlushAll();
			break;
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_PREPARE:
			DiscardAll();
			break;
		case XACT_EVENT_PARALLEL_PRE_COMMIT:
			break;
	}
}

/*
 * Subtransaction callback: rows buffered by an aborting subtransaction (or
 * by one of its already-committed children, which have larger ids) die.
 */
void
WriteBufferSubXactCallback(SubXactEvent event, SubTransactionId mySubid,
						   SubTransactionId parentSubid, void *arg)
{
	HASH_SEQ_STATUS status;
	PendingRows *pending;
	List	   *doomed = NIL;
	ListCell   *lc;

	if (event != SUBXACT_EVENT_ABORT_SUB || PendingTable == NULL)
		return;
	hash_seq_init(&status, PendingTable);
	while ((pending = hash_seq_search(&status)) != NULL)
		if (pending->subid >= mySubid)
			doomed = lappend_oid(doomed, pending->relid);
	foreach(lc, doomed)
		WriteBufferDiscard(lfirst_oid(lc));
	list_free(doomed);
}
