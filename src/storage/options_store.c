/*-------------------------------------------------------------------------
 *
 * options_store.c
 *	  Reading and writing the rows of colstore.options, the extension's
 *	  table of per-table storage options, invisibly to logical decoding.
 *
 * An options change is not a change of user data: as heap's reloptions
 * live in pg_class, which logical decoding never emits, a change of a
 * colstore table's options must not reach a subscriber or a CDC stream as
 * a row of colstore.options (whose relation OIDs mean nothing elsewhere).
 * So rows are written without the executor: a new row is inserted with
 * HEAP_INSERT_NO_LOGICAL (its WAL record carries no tuple for decoding)
 * and given its index entries; a replaced or forgotten row is deleted with
 * DeleteUndecoded (storage/undecoded_delete.c), whose record decoding
 * ignores.  A change is a delete of the old row and an insert of the new.
 *
 * Writers of one table's row are serialised by a ShareUpdateExclusiveLock
 * on that table (ALTER TABLE holds at least that; DROP holds more), so the
 * delete never meets a concurrent one.  Readers use SnapshotSelf: the rows
 * change only by committed transactions and our own, and it works in
 * parallel mode, where taking a new snapshot does not.
 *
 * Every change queues a relcache invalidation of the table whose row it
 * is, in the changing transaction: backends cache the rows they read
 * (table_options.c) and drop them on that invalidation, which this backend
 * processes at its next command (and again if the transaction aborts) and
 * the others once it commits.  So the rows must be written only through
 * this file, never by hand.
 *
 * The rows still arrive as data where the table's contents are copied:
 * pg_dump's configuration data, and a publication FOR ALL TABLES's initial
 * sync (as for any extension's table).
 *
 * IDENTIFICATION
 *	  src/storage/options_store.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "executor/executor.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "encoding/chunk_encoding.h"
#include "storage/colstore_wal.h"
#include "storage/options_store.h"

/* Columns of colstore.options */
#define Anum_options_relid				1
#define Anum_options_codec				2
#define Anum_options_compression_level	3
#define Anum_options_row_group_size		4
#define Anum_options_chunk_size			5
#define Natts_options					5

/*
 * OID of colstore.options, or InvalidOid (extension not installed).  Found
 * by schema and name, never through search_path, which PostgreSQL 17
 * restricts for VACUUM, ANALYZE and index builds.
 */
static Oid
OptionsTableOid(void)
{
	Oid			nsp = get_namespace_oid("colstore", true);

	if (!OidIsValid(nsp))
		return InvalidOid;
	return get_relname_relid("options", nsp);
}

/* The row of relid in the open options table (a copy), or NULL. */
static HeapTuple
FindRow(Relation optrel, Oid relid)
{
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tuple;

	ScanKeyInit(&key, Anum_options_relid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(optrel, InvalidOid, false, SnapshotSelf, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
		tuple = heap_copytuple(tuple);
	systable_endscan(scan);
	return tuple;
}

static int
IntColumn(HeapTuple tuple, TupleDesc desc, int attnum)
{
	bool		isnull;
	Datum		d = heap_getattr(tuple, attnum, desc, &isnull);

	return isnull ? -1 : DatumGetInt32(d);
}

/*
 * OptionsRowRead
 *		Fill *row with relid's row of colstore.options; returns false (all
 *		fields -1) if there is none.  An unknown codec name in the row (only
 *		possible by writing the table by hand) is an error.
 */
bool
OptionsRowRead(Oid relid, OptionsRow *row)
{
	Oid			tableoid = OptionsTableOid();
	Relation	optrel;
	HeapTuple	tuple;

	row->codec = row->compression_level = row->row_group_size = row->chunk_size = -1;
	if (!OidIsValid(tableoid))
		return false;
	optrel = table_open(tableoid, AccessShareLock);
	tuple = FindRow(optrel, relid);
	if (tuple != NULL)
	{
		TupleDesc	desc = RelationGetDescr(optrel);
		bool		isnull;
		Datum		d = heap_getattr(tuple, Anum_options_codec, desc, &isnull);

		if (!isnull)
		{
			char	   *name = TextDatumGetCString(d);
			ColstoreCodec codec;

			if (!ColstoreCodecFromName(name, &codec))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("invalid value \"%s\" for colstore option \"codec\" of table with OID %u",
								name, relid)));
			row->codec = (int) codec;
		}
		row->compression_level = IntColumn(tuple, desc, Anum_options_compression_level);
		row->row_group_size = IntColumn(tuple, desc, Anum_options_row_group_size);
		row->chunk_size = IntColumn(tuple, desc, Anum_options_chunk_size);
		heap_freetuple(tuple);
	}
	table_close(optrel, AccessShareLock);
	return tuple != NULL;
}

/* Delete an existing row without decoding; errors if somebody else is. */
static void
DeleteRow(Relation optrel, HeapTuple tuple, Oid relid)
{
	if (!DeleteUndecoded(optrel, &tuple->t_self, GetCurrentCommandId(true), false))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("options of colstore table with OID %u are being changed by another transaction",
						relid)));
}

/* Insert a row without decoding, with its index entries. */
static void
InsertRow(Relation optrel, HeapTuple tuple)
{
	EState	   *estate = CreateExecutorState();
	ResultRelInfo *rri = makeNode(ResultRelInfo);
	TupleTableSlot *slot;

	heap_insert(optrel, tuple, GetCurrentCommandId(true),
				HEAP_INSERT_NO_LOGICAL, NULL);
	InitResultRelInfo(rri, optrel, 1, NULL, 0);
	ExecOpenIndices(rri, false);
	slot = MakeSingleTupleTableSlot(RelationGetDescr(optrel), &TTSOpsHeapTuple);
	ExecStoreHeapTuple(tuple, slot, false);
	list_free(ExecInsertIndexTuplesCompat(rri, slot, estate, false, false, NULL, NIL));
	ExecDropSingleTupleTableSlot(slot);
	ExecCloseIndices(rri);
	FreeExecutorState(estate);
}

/* Serialise the writers of relid's row (see the file header). */
static Relation
OpenForWrite(Oid relid)
{
	Oid			tableoid = OptionsTableOid();

	if (!OidIsValid(tableoid))
		elog(ERROR, "could not find table colstore.options");
	LockRelationOid(relid, ShareUpdateExclusiveLock);
	CommandCounterIncrement();	/* see our own earlier changes */
	return table_open(tableoid, RowExclusiveLock);
}

/*
 * OptionsRowWrite
 *		Make *row relid's row of colstore.options (replacing any), and
 *		invalidate relid's relcache entry (so every backend's cached row).
 *		The caller has checked that the current user owns relid.
 */
void
OptionsRowWrite(Oid relid, const OptionsRow *row)
{
	Relation	optrel = OpenForWrite(relid);
	HeapTuple	old = FindRow(optrel, relid);
	Datum		values[Natts_options];
	bool		isnull[Natts_options];
	HeapTuple	tuple;

	if (old != NULL)
		DeleteRow(optrel, old, relid);
	memset(isnull, 0, sizeof(isnull));
	values[Anum_options_relid - 1] = ObjectIdGetDatum(relid);
	isnull[Anum_options_codec - 1] = row->codec < 0;
	if (row->codec >= 0)
		values[Anum_options_codec - 1] = CStringGetTextDatum(ColstoreCodecName(row->codec));
	isnull[Anum_options_compression_level - 1] = row->compression_level < 0;
	values[Anum_options_compression_level - 1] = Int32GetDatum(row->compression_level);
	isnull[Anum_options_row_group_size - 1] = row->row_group_size < 0;
	values[Anum_options_row_group_size - 1] = Int32GetDatum(row->row_group_size);
	isnull[Anum_options_chunk_size - 1] = row->chunk_size < 0;
	values[Anum_options_chunk_size - 1] = Int32GetDatum(row->chunk_size);
	tuple = heap_form_tuple(RelationGetDescr(optrel), values, isnull);
	InsertRow(optrel, tuple);
	CacheInvalidateRelcacheByRelid(relid);
	CommandCounterIncrement();	/* also processes the invalidation here */
	table_close(optrel, RowExclusiveLock);
}

/*
 * Delete relid's row of colstore.options, if any and, with only_earlier,
 * only if an earlier transaction wrote it; invalidate relid's relcache
 * entry (so every backend's cached row) if relid is in pg_class.  Without
 * only_earlier, our own earlier changes are made visible first; with it,
 * the caller is inside the creation of relid, where no command counter
 * increment belongs (SnapshotSelf sees the row the earlier transaction
 * wrote, and later readers use SnapshotSelf too, which skips our delete).
 */
static void
ForgetRow(Oid relid, bool only_earlier)
{
	Oid			tableoid = OptionsTableOid();
	Relation	optrel;
	HeapTuple	old;

	if (!OidIsValid(tableoid))
		return;
	if (!only_earlier)
		CommandCounterIncrement();
	optrel = table_open(tableoid, RowExclusiveLock);
	old = FindRow(optrel, relid);
	if (old != NULL &&
		!(only_earlier &&
		  TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin(old->t_data))))
	{
		DeleteRow(optrel, old, relid);
		if (SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)))
			CacheInvalidateRelcacheByRelid(relid);
	}
	table_close(optrel, RowExclusiveLock);
}

/*
 * OptionsRowForget
 *		Delete relid's row of colstore.options, if any: relid was dropped
 *		(dropping it invalidated its relcache entry, so the cached rows), or
 *		converted to another access method.
 */
void
OptionsRowForget(Oid relid)
{
	ForgetRow(relid, false);
}

/*
 * OptionsRowForgetStale
 *		relid was created by the current transaction: delete a row of
 *		colstore.options for relid that an earlier transaction wrote.  Such
 *		a row belonged to a dropped relation of the same OID whose drop did
 *		not reach the row (a temporary table removed when its session ended,
 *		which fires no event trigger), and must not give the new relation
 *		its options.  A row this transaction wrote is the new relation's.
 */
void
OptionsRowForgetStale(Oid relid)
{
	ForgetRow(relid, true);
}
