/*-------------------------------------------------------------------------
 *
 * am_ddl.c
 *	  Storage management of colstore tables: new storage (CREATE, TRUNCATE,
 *	  rewrites), copying (SET TABLESPACE), CLUSTER / VACUUM FULL, sizes.
 *
 * New storage is created empty: the metapage is written by the first
 * writer (storage/metapage.c), so an UNLOGGED table's init fork is an empty
 * fork too, and crash reset makes the table empty as for heap.
 *
 * CLUSTER and VACUUM FULL copy the rows that are still live, in the
 * index's order for CLUSTER.  Rows of row groups whose inserter committed
 * before every running snapshot are written as frozen row groups; rows of
 * younger row groups keep their inserting transaction (a row group is cut
 * where the visibility of consecutive rows differs), so older snapshots in
 * other sessions keep seeing exactly what they saw, as with heap's
 * rewrite.
 *
 * relation_size reports the main fork as the size of the TID space (row
 * numbers handed out, in pseudo-blocks), because the executor and index
 * AMs (BRIN, bitmap scans, ANALYZE, TABLESAMPLE) treat it as the block
 * range of TIDs.  pg_relation_size and friends read the files and report
 * the real size.
 *
 * IDENTIFICATION
 *	  src/tableam/am_ddl.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "pg_compat.h"

#include "access/generic_xlog.h"
#include "access/genam.h"
#include "access/heapam.h"
#include "catalog/pg_am_d.h"
#include "access/multixact.h"
#include "access/tableam.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/storage.h"
#include "catalog/storage_xlog.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/smgr.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "mvcc/row_state.h"
#include "mvcc/visibility.h"
#include "storage/chunk_cache.h"
#include "storage/delta_heap.h"
#include "storage/directory.h"
#include "storage/metapage.h"
#include "storage/options_store.h"
#include "storage/rowgroup_builder.h"
#include "storage/rowgroup_reader.h"
#include "storage/rowgroup_writer.h"
#include "storage/table_options.h"
#include "storage/write_buffer.h"
#include "tableam/am_ddl.h"

static void
ForgetRelation(Relation rel)
{
	WriteBufferDiscard(RelationGetRelid(rel));
	DirectoryInvalidate(RelationGetRelid(rel));
	RowStateForget(RelationGetRelid(rel));
	ChunkCacheInvalidate(RelationGetRelid(rel));
}

void
colstore_relation_set_new_filelocator(Relation rel, const RelFileLocator *newrlocator,
									  char persistence, TransactionId *freezeXid,
									  MultiXactId *minmulti)
{
	SMgrRelation srel;

	*freezeXid = RecentXmin;
	*minmulti = GetOldestMultiXactId();
	srel = RelationCreateStorage(*newrlocator, persistence, true);
	if (persistence == RELPERSISTENCE_UNLOGGED)
	{
		Assert(rel->rd_rel->relkind == RELKIND_RELATION ||
			   rel->rd_rel->relkind == RELKIND_MATVIEW ||
			   rel->rd_rel->relkind == RELKIND_TOASTVALUE);
		smgrcreate(srel, INIT_FORKNUM, false);
		log_smgrcreate(newrlocator, INIT_FORKNUM);
		smgrimmedsync(srel, INIT_FORKNUM);
	}
	smgrclose(srel);
	ForgetRelation(rel);

	/* a new relation takes no options from a dead one of its OID */
	if (rel->rd_createSubid != InvalidSubTransactionId)
		OptionsRowForgetStale(RelationGetRelid(rel));
}

void
colstore_relation_nontransactional_truncate(Relation rel)
{
	ForgetRelation(rel);
	RelationTruncate(rel, 0);
}

/* ALTER TABLE SET TABLESPACE: copy every fork block by block. */
void
colstore_relation_copy_data(Relation rel, const RelFileLocator *newrlocator)
{
	SMgrRelation dstrel;
	ForkNumber	fork;

	WriteBufferFlush(rel);
	FlushRelationBuffers(rel);
	dstrel = smgropen(*newrlocator, rel->rd_backend);
	RelationCreateStorage(*newrlocator, rel->rd_rel->relpersistence, true);
	RelationCopyStorage(RelationGetSmgr(rel), dstrel, MAIN_FORKNUM,
						rel->rd_rel->relpersistence);
	for (fork = MAIN_FORKNUM + 1; fork <= MAX_FORKNUM; fork++)
	{
		if (smgrexists(RelationGetSmgr(rel), fork))
		{
			smgrcreate(dstrel, fork, false);
			if (RelationIsPermanent(rel) ||
				(rel->rd_rel->relpersistence == RELPERSISTENCE_UNLOGGED &&
				 fork == INIT_FORKNUM))
				log_smgrcreate(newrlocator, fork);
			RelationCopyStorage(RelationGetSmgr(rel), dstrel, fork,
								rel->rd_rel->relpersistence);
		}
	}
	RelationDropStorage(rel);
	smgrclose(dstrel);
	ForgetRelation(rel);
}

/*
 * Write b's rows, if any, to rel as a new row group inserted by xmin and
 * cmin: a frozen one if xmin is FrozenTransactionId (every snapshot sees
 * its rows).
 */
static void
WriteCopied(Relation rel, RowGroupBuilder *b, TransactionId xmin,
			CommandId cmin, const ColstoreOptions *opts)
{
	uint64		first;

	if (b->nrows == 0)
		return;
	first = RowNumbersReserve(rel, b->nrows, GetCurrentTransactionId());
	RowGroupBuilderWrite(b, rel, first, xmin, cmin,
						 xmin == FrozenTransactionId ? RG_FLAG_FROZEN : 0, opts, NULL,
						 ROWGROUP_DECODE_NONE);
}

/* The scan of a table being rewritten: in index order if an index is given. */
typedef struct CopyScan
{
	IndexScanDesc iscan;
	TableScanDesc tscan;
} CopyScan;

/* Start a scan of every row version of table (SnapshotAny). */
static void
CopyScanBegin(CopyScan *cs, Relation table, Relation index)
{
	cs->iscan = NULL;
	cs->tscan = NULL;
	if (index != NULL)
	{
		cs->iscan = IndexBeginScan(table, index, SnapshotAny, 0, 0);
		index_rescan(cs->iscan, NULL, 0, NULL, 0);
	}
	else
		cs->tscan = table_beginscan(table, SnapshotAny, 0, NULL);
}

static bool
CopyScanNext(CopyScan *cs, TupleTableSlot *slot)
{
	CHECK_FOR_INTERRUPTS();
	if (cs->iscan != NULL)
		return index_getnext_slot(cs->iscan, ForwardScanDirection, slot);
	return table_scan_getnextslot(cs->tscan, ForwardScanDirection, slot);
}

static void
CopyScanEnd(CopyScan *cs)
{
	if (cs->iscan != NULL)
		index_endscan(cs->iscan);
	else
		table_endscan(cs->tscan);
}

/*
 * Copy the rows of the row groups marked in copy, in index order if
 * OldIndex is given, else in table order.  Rows of old row groups (is_old)
 * go into frozen row groups; rows of younger ones keep their inserting
 * transaction and command.  A row group is cut where the next row's
 * visibility differs, so the new table holds every row in order; rows of
 * different visibility that interleave in the index make smaller row
 * groups (only while some snapshot is older than their inserter).
 */
static double
CopyRows(Relation OldTable, Relation NewTable, Relation OldIndex,
		 const RowGroupDirEntry *entries, const bool *copy, const bool *is_old,
		 ColstoreDirectory *dir, const ColstoreOptions *opts)
{
	TupleTableSlot *slot = table_slot_create(OldTable, NULL);
	RowGroupBuilder *b = RowGroupBuilderCreate(RelationGetDescr(OldTable),
											   CurrentMemoryContext);
	double		copied = 0;
	TransactionId cur_xmin = InvalidTransactionId;	/* inserter of b's rows */
	CommandId	cur_cmin = FirstCommandId;
	CopyScan	cs;

	CopyScanBegin(&cs, OldTable, OldIndex);
	while (CopyScanNext(&cs, slot))
	{
		uint64		rownum;
		int			g;
		TransactionId xmin;
		CommandId	cmin;

		if (!ItemPointerToRowNumber(&slot->tts_tid, &rownum))
			continue;
		g = DirectoryFindRowGroup(dir, rownum);
		if (g < 0 || !copy[g])
			continue;
		xmin = is_old[g] ? FrozenTransactionId : entries[g].rg_xmin;
		cmin = is_old[g] ? FirstCommandId : entries[g].rg_cmin;
		if (b->nrows >= opts->row_group_size || xmin != cur_xmin || cmin != cur_cmin)
			WriteCopied(NewTable, b, cur_xmin, cur_cmin, opts);
		cur_xmin = xmin;
		cur_cmin = cmin;
		RowGroupBuilderAdd(b, slot);
		copied += 1;
	}
	WriteCopied(NewTable, b, cur_xmin, cur_cmin, opts);
	CopyScanEnd(&cs);
	ExecDropSingleTupleTableSlot(slot);
	RowGroupBuilderFree(b);
	return copied;
}

/*
 * Insert the row in slot into NewTable as a heap tuple whose header says
 * inserted by xmin (FrozenTransactionId: by a transaction every snapshot
 * sees) and, if xmax is valid, deleted by xmax: a row version that only
 * some snapshots see, copied with exactly that visibility.  The header is set after heap_insert, in the
 * same page, logged as a generic WAL record.
 */
static void
CopyVersion(Relation NewTable, TupleTableSlot *slot, TransactionId xmin,
			TransactionId xmax)
{
	HeapTuple	tuple = ExecCopySlotHeapTuple(slot);
	GenericXLogState *state;
	HeapTupleHeader htup;
	Buffer		buf;
	Page		page;

	tuple->t_tableOid = RelationGetRelid(NewTable);
	/* a copy, not a change: logical decoding must not see it */
	DeltaHeapInsert(NewTable, tuple, GetCurrentCommandId(true),
					HEAP_INSERT_NO_LOGICAL);
	buf = ReadBuffer(NewTable, ItemPointerGetBlockNumber(&tuple->t_self));
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(NewTable);
	page = GenericXLogRegisterBuffer(state, buf, 0);
	htup = (HeapTupleHeader) PageGetItem(page,
										 PageGetItemId(page, ItemPointerGetOffsetNumber(&tuple->t_self)));
	/* no hint bits: visibility checks ask pg_xact, as for any new tuple */
	htup->t_infomask &= ~(HEAP_XMIN_COMMITTED | HEAP_XMIN_INVALID);
	HeapTupleHeaderSetXmin(htup, xmin);
	if (TransactionIdIsValid(xmax))
	{
		htup->t_infomask &= ~(HEAP_XMAX_INVALID | HEAP_XMAX_COMMITTED |
							  HEAP_XMAX_BITS | HEAP_XMAX_IS_MULTI);
		HeapTupleHeaderSetXmax(htup, xmax);
	}
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
	heap_freetuple(tuple);
}

/*
 * Rewrite a table that has changed rows (heap tuples), keeping what older
 * snapshots see as heap's rewrite does: every row version not dead to
 * everyone is copied, in index order if OldIndex is given.  Live versions
 * go into row groups, frozen if every snapshot sees them, else inserted by
 * their (committed) inserting transaction, a row group being cut where
 * consecutive versions' inserters differ, so that they stay in order.
 * Versions deleted by a transaction some snapshot does not see become heap
 * tuples of NewTable carrying their inserting and deleting transactions
 * (outside the order: only those older snapshots see them).  Row locks are
 * not kept (a rewrite holds an exclusive lock, so no locker is left).
 */
static double
CopyChangedTable(Relation OldTable, Relation NewTable, Relation OldIndex,
				 TransactionId OldestXmin, const ColstoreOptions *opts,
				 double *tups_vacuumed, double *tups_recently_dead)
{
	TupleTableSlot *slot = table_slot_create(OldTable, NULL);
	RowGroupBuilder *b = RowGroupBuilderCreate(RelationGetDescr(OldTable),
											   CurrentMemoryContext);
	TransactionId current = InvalidTransactionId;	/* inserter of b's rows */
	CopyScan	cs;
	double		copied = 0;

	CopyScanBegin(&cs, OldTable, OldIndex);
	while (CopyScanNext(&cs, slot))
	{
		RewriteVersion v;
		TransactionId inserter;

		RowStateForRewrite(OldTable, &slot->tts_tid, OldestXmin, &v);
		if (v.dead)
		{
			*tups_vacuumed += 1;
			continue;
		}
		copied += 1;
		if (TransactionIdIsValid(v.xmax))
		{
			*tups_recently_dead += 1;
			CopyVersion(NewTable, slot, v.settled ? FrozenTransactionId : v.xmin, v.xmax);
			continue;
		}
		inserter = v.settled ? FrozenTransactionId : v.xmin;
		if (b->nrows >= opts->row_group_size || inserter != current)
			WriteCopied(NewTable, b, current, FirstCommandId, opts);
		current = inserter;
		RowGroupBuilderAdd(b, slot);
	}
	WriteCopied(NewTable, b, current, FirstCommandId, opts);
	CopyScanEnd(&cs);
	ExecDropSingleTupleTableSlot(slot);
	RowGroupBuilderFree(b);
	return copied;
}

void
colstore_relation_copy_for_cluster(Relation OldTable, Relation NewTable,
								   Relation OldIndex, bool use_sort,
								   TransactionId OldestXmin,
								   TransactionId *xid_cutoff,
								   MultiXactId *multi_cutoff,
								   double *num_tuples, double *tups_vacuumed,
								   double *tups_recently_dead)
{
	ColstoreDirectory *dir;
	ColstoreOptions opts;
	RowGroupDirEntry *entries;
	bool	   *is_old;
	bool	   *copy;
	int			count;
	int			i;

	WriteBufferFlush(OldTable);
	ColstoreGetOptions(RelationGetRelid(OldTable), &opts);
	dir = DirectoryGet(OldTable);
	count = dir->count;
	entries = palloc(sizeof(RowGroupDirEntry) * (count + 1));
	memcpy(entries, dir->entries, sizeof(RowGroupDirEntry) * count);
	is_old = palloc0(sizeof(bool) * (count + 1));
	copy = palloc0(sizeof(bool) * (count + 1));
	*num_tuples = *tups_vacuumed = *tups_recently_dead = 0;

	if (dir->ndeltas > 0)
	{
		*num_tuples = CopyChangedTable(OldTable, NewTable, OldIndex, OldestXmin,
									   &opts, tups_vacuumed, tups_recently_dead);
		return;
	}

	for (i = 0; i < count; i++)
	{
		RowGroupDirEntry *e = &entries[i];

		if (e->rg_kind != RG_KIND_ROWGROUP)
			continue;
		if (RowGroupInsertAborted(e))
			*tups_vacuumed += e->rg_nrows;
		else
		{
			copy[i] = true;
			is_old[i] = (e->rg_flags & RG_FLAG_FROZEN) ||
				(RowGroupInsertCommitted(e) &&
				 TransactionIdPrecedes(e->rg_xmin, OldestXmin));
		}
	}
	*num_tuples = CopyRows(OldTable, NewTable, OldIndex, entries, copy, is_old,
						   DirectoryGet(OldTable), &opts);
}

uint64
colstore_relation_size(Relation rel, ForkNumber forkNumber)
{
	ColstoreMetaPageData meta;

	/* heap code inside a colstore heap call must find no "last page" */
	if (DeltaHeapHidesSize(RelationGetRelid(rel)))
		return 0;

	if (forkNumber != MAIN_FORKNUM)
	{
		if (forkNumber == InvalidForkNumber)
		{
			uint64		total = 0;
			ForkNumber	f;

			for (f = 0; f <= MAX_FORKNUM; f++)
				total += colstore_relation_size(rel, f);
			return total;
		}
		if (!smgrexists(RelationGetSmgr(rel), forkNumber))
			return 0;
		return (uint64) smgrnblocks(RelationGetSmgr(rel), forkNumber) * BLCKSZ;
	}
	ColstoreReadMeta(rel, &meta);
	return ((meta.cm_next_row + ROWS_PER_TID_BLOCK - 1) / ROWS_PER_TID_BLOCK) *
		(uint64) BLCKSZ;
}

/*
 * Row groups store values compressed in chunks, never in a TOAST table; but
 * heap tuples of changed rows (storage/delta_heap.c) are heap's, and wide
 * ones need a TOAST table exactly when a heap table's would.
 */
bool
colstore_relation_needs_toast_table(Relation rel)
{
	return GetHeapamTableAmRoutine()->relation_needs_toast_table(rel);
}

Oid
colstore_relation_toast_am(Relation rel)
{
	return HEAP_TABLE_AM_OID;
}

void
colstore_relation_fetch_toast_slice(Relation toastrel, Oid valueid,
									int32 attrsize, int32 sliceoffset,
									int32 slicelength, struct varlena *result)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("colstore tables cannot be TOAST tables")));
}

/*
 * Planner estimates.  Tuples are the rows written so far (the metapage
 * counts them exactly, so no density guess is needed).  Pages are the
 * volume a scan processes: the decoded size of the live row groups in
 * blocks, or the real pages if more.  A colstore scan's cost is decoding,
 * which grows with the decoded size, not with the few compressed pages
 * read.  Sized this way, sequential, bitmap and index scans are costed
 * roughly as for a heap table holding the same values (a little cheaper:
 * heap's pages also hold tuple headers and line pointers, which the raw
 * byte count leaves out), and PostgreSQL's own rule for the parallel
 * degree (min_parallel_table_scan_size, parallel_workers,
 * max_parallel_workers_per_gather) applies to the work to be shared rather
 * than to the compressed size.  The same page count feeds index scan
 * costing (index_pages_fetched), where it stands for the chunks an index
 * scan may have to decode.  The all-visible fraction, which index-only
 * scans are costed by, is that of the pseudo-blocks of row numbers handed
 * out (storage/all_visible.c) that VACUUM last counted marked
 * (pg_class.relallvisible).
 */
void
colstore_relation_estimate_size(Relation rel, int32 *attr_widths,
								BlockNumber *pages, double *tuples,
								double *allvisfrac)
{
	ColstoreMetaPageData meta;
	ColstoreDirectory *dir;
	uint64		raw_bytes = 0;
	uint64		raw_pages;
	uint32		i;

	ColstoreReadMeta(rel, &meta);
	dir = DirectoryGet(rel);
	for (i = 0; i < dir->count; i++)
	{
		const RowGroupDirEntry *e = &dir->entries[i];

		/* groups of aborted inserters not yet marked INVALID still count */
		if (e->rg_kind == RG_KIND_ROWGROUP && !(e->rg_flags & RG_FLAG_INVALID))
			raw_bytes += e->rg_raw_bytes;
	}
	raw_pages = (raw_bytes + BLCKSZ - 1) / BLCKSZ;
	*pages = Max(ColstorePhysicalBlocks(rel),
				 (BlockNumber) Min(raw_pages, (uint64) MaxBlockNumber));
	*tuples = (double) meta.cm_live_rows;
	*allvisfrac = 0;
	if (rel->rd_rel->relallvisible > 0 && meta.cm_next_row > 0)
	{
		double		tid_blocks = ceil((double) meta.cm_next_row / ROWS_PER_TID_BLOCK);

		*allvisfrac = Min(1.0, (double) rel->rd_rel->relallvisible / tid_blocks);
	}
}
