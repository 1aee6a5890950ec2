/*-------------------------------------------------------------------------
 *
 * rowgroup_writer.c
 *	  Encode buffered rows into chunks and publish them as a row group.
 *
 * A row group is written in two phases.  First, without any lock, every
 * column is cut into chunks at common row boundaries (at most chunk_size
 * rows, or fewer when the values of a chunk exceed CHUNK_BYTE_LIMIT bytes),
 * each chunk is encoded into a checksummed image, and min/max are computed
 * with the type's default btree comparison.  Then, holding the writer lock,
 * the images and the row group header are appended to the page stream and
 * the directory entry is published together with the new stream tail in
 * one WAL record.  A crash before that record leaves only unreferenced
 * stream bytes behind; after it, the row group is complete.
 *
 * Row numbers are reserved separately (RowNumbersReserve), before the rows
 * are written, because index entries need TIDs at insert time.
 *
 * IDENTIFICATION
 *	  src/storage/rowgroup_writer.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "port/pg_crc32c.h"
#include "storage/bufmgr.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "encoding/chunk_encoding.h"
#include "storage/all_visible.h"
#include "storage/directory.h"
#include "storage/integer_order.h"
#include "storage/logical_log.h"
#include "storage/metapage.h"
#include "storage/page_stream.h"
#include "storage/rowgroup_writer.h"

/* A chunk is closed early when its values exceed this many bytes. */
#define CHUNK_BYTE_LIMIT		(16 * 1024 * 1024)
/* min/max values larger than this are not kept. */
#define MAX_STATS_VALUE_BYTES	64

/* Bytes a value occupies in memory (for chunk boundaries and stats). */
static Size
ValueSize(Form_pg_attribute att, Datum value)
{
	if (att->attbyval)
		return att->attlen;
	if (att->attlen > 0)
		return att->attlen;
	if (att->attlen == -1)
		return VARSIZE_ANY(DatumGetPointer(value));
	return strlen(DatumGetCString(value)) + 1;
}

/*
 * Cut [0, nrows) into chunks; returns count, fills (*bounds)[0..count].
 * row_bytes, if not NULL, holds each row's sum of ValueSize over its
 * non-null values (the builder adds them up as it copies the values), so
 * no value needs to be looked at again; if NULL, the sizes are computed.
 */
static uint32
ChooseChunkBoundaries(TupleDesc tupdesc, int nrows, Datum **values,
					  bool **isnull, const Size *row_bytes, int chunk_size,
					  uint32 **bounds)
{
	uint32		capacity = nrows / chunk_size + 2;
	uint32		nchunks = 0;
	Size		bytes = 0;
	int			start = 0;
	int			row;

	*bounds = palloc(sizeof(uint32) * (capacity + 1));
	(*bounds)[0] = 0;
	for (row = 0; row < nrows; row++)
	{
		int			att;

		if (row_bytes != NULL)
		{
#ifdef USE_ASSERT_CHECKING
			Size		check = 0;

			for (att = 0; att < tupdesc->natts; att++)
				if (!isnull[att][row])
					check += ValueSize(TupleDescAttr(tupdesc, att), values[att][row]);
			Assert(check == row_bytes[row]);
#endif
			bytes += row_bytes[row];
		}
		else
			for (att = 0; att < tupdesc->natts; att++)
				if (!isnull[att][row])
					bytes += ValueSize(TupleDescAttr(tupdesc, att), values[att][row]);
		if (row + 1 - start >= chunk_size || bytes >= CHUNK_BYTE_LIMIT ||
			row + 1 == nrows)
		{
			if (nchunks + 1 >= capacity)
			{
				capacity *= 2;
				*bounds = repalloc(*bounds, sizeof(uint32) * (capacity + 1));
			}
			(*bounds)[++nchunks] = row + 1;
			start = row + 1;
			bytes = 0;
		}
	}
#ifdef USE_ASSERT_CHECKING
	/* chunks cover [0, nrows) in order, each of 1 to chunk_size rows */
	Assert(nchunks >= 1 && (*bounds)[0] == 0 && (*bounds)[nchunks] == (uint32) nrows);
	for (row = 0; row < (int) nchunks; row++)
		Assert((*bounds)[row + 1] > (*bounds)[row] &&
			   (*bounds)[row + 1] - (*bounds)[row] <= (uint32) chunk_size);
#endif
	return nchunks;
}

/* Append a serialized datum (uint32 length, then bytes) to buf. */
static void
AppendStatsValue(StringInfo buf, Form_pg_attribute att, Datum value)
{
	uint32		len = (uint32) ValueSize(att, value);

	appendBinaryStringInfo(buf, (char *) &len, sizeof(len));
	if (att->attbyval)
	{
		Datum		copy = value;

		appendBinaryStringInfo(buf, (char *) &copy, sizeof(Datum));
	}
	else
		appendBinaryStringInfo(buf, DatumGetPointer(value), len);
}

/*
 * Find min and max of the non-null values of one chunk (each at its first
 * occurrence); false if all are NULL.  If rows is not NULL, only
 * values[rows[0..nrows-1]] (ascending) are looked at: the encoder found
 * that they hold the chunk's min and max at their first occurrences
 * (EncodedChunk.stats_rows), so the result is the same.
 */
static bool
ChunkMinMax(Form_pg_attribute att, FmgrInfo *cmp, int n,
			const Datum *values, const bool *isnull,
			const uint32 *rows, uint32 nrows, Datum *minp, Datum *maxp)
{
	Datum		min = 0,
				max = 0;
	bool		found = false;
	bool		integer_order = TypeHasSignedIntegerOrder(att->atttypid);
	int			k;

	if (rows != NULL)
		n = (int) nrows;
	for (k = 0; k < n; k++)
	{
		int			i = rows != NULL ? (int) rows[k] : k;

		if (isnull[i])
			continue;
		if (!found)
		{
			min = max = values[i];
			found = true;
		}
		else if (integer_order)
		{
			int64		v = SignedIntegerDatum(att->atttypid, values[i]);

			if (v < SignedIntegerDatum(att->atttypid, min))
				min = values[i];
			else if (v > SignedIntegerDatum(att->atttypid, max))
				max = values[i];
		}
		else if (DatumGetInt32(FunctionCall2Coll(cmp, att->attcollation, values[i], min)) < 0)
			min = values[i];
		else if (DatumGetInt32(FunctionCall2Coll(cmp, att->attcollation, values[i], max)) > 0)
			max = values[i];
	}
	*minp = min;
	*maxp = max;
	return found;
}

/*
 * Compute min and max of the non-null values of one chunk (ChunkMinMax) and
 * append them, followed by the column's type and collation, to stats;
 * returns false (nothing appended) if the type has no default btree
 * ordering or a value is too large to keep.
 */
static bool
ComputeChunkMinMax(Form_pg_attribute att, FmgrInfo *cmp, int n,
				   const Datum *values, const bool *isnull,
				   const uint32 *rows, uint32 nrows, StringInfo stats)
{
	Datum		min,
				max;
	bool		found;

	if (cmp == NULL)
		return false;
	found = ChunkMinMax(att, cmp, n, values, isnull, rows, nrows, &min, &max);
#ifdef USE_ASSERT_CHECKING
	if (rows != NULL)
	{
		/* the encoder's rows give the very datums a full pass picks */
		Datum		amin,
					amax;

		Assert(ChunkMinMax(att, cmp, n, values, isnull, NULL, 0,
						   &amin, &amax) == found);
		Assert(!found || (amin == min && amax == max));
	}
#endif
	if (!found)
		return false;
	if (!att->attbyval &&
		(ValueSize(att, min) > MAX_STATS_VALUE_BYTES ||
		 ValueSize(att, max) > MAX_STATS_VALUE_BYTES))
		return false;
	AppendStatsValue(stats, att, min);
	AppendStatsValue(stats, att, max);
	/* the ordering they were computed under (see RowGroupChunkStatsMatch) */
	appendBinaryStringInfo(stats, (const char *) &att->atttypid, sizeof(Oid));
	appendBinaryStringInfo(stats, (const char *) &att->attcollation, sizeof(Oid));
	return true;
}

/*
 * Are the n values of a chunk free of NULLs and in non-decreasing order
 * under cmp (the ordering its min/max use)?  Stops at the first descent, so
 * an unordered column costs a few comparisons per chunk.
 */
static bool
ChunkIsAscending(Form_pg_attribute att, FmgrInfo *cmp, int n,
				 const Datum *values, const bool *isnull)
{
	bool		integer_order = TypeHasSignedIntegerOrder(att->atttypid);
	int			k;

	for (k = 0; k < n; k++)
		if (isnull[k])
			return false;
	for (k = 1; k < n; k++)
	{
		if (integer_order)
		{
			if (SignedIntegerDatum(att->atttypid, values[k]) <
				SignedIntegerDatum(att->atttypid, values[k - 1]))
				return false;
		}
		else if (DatumGetInt32(FunctionCall2Coll(cmp, att->attcollation,
												 values[k - 1], values[k])) > 0)
			return false;
	}
	return true;
}

/*
 * RowGroupColumnComparison
 *		The comparison function chunk min/max, CHUNK_ASCENDING and
 *		chunk_order.c order a column's values by: its type's default btree
 *		one (used under the column's collation), or NULL if it has none or
 *		the column is dropped.  Lives in the type cache.
 */
FmgrInfo *
RowGroupColumnComparison(Form_pg_attribute att)
{
	TypeCacheEntry *tce;

	if (att->attisdropped)
		return NULL;
	tce = lookup_type_cache(att->atttypid, TYPECACHE_CMP_PROC_FINFO);
	if (!OidIsValid(tce->cmp_proc_finfo.fn_oid))
		return NULL;
	return &tce->cmp_proc_finfo;
}

/*
 * Take the writer lock and copy the metapage (creating it if the table has
 * no blocks yet).  Nobody else changes the metapage while we hold the lock.
 */
static void
LockWriterAndReadMeta(Relation rel, ColstoreMetaPageData *meta)
{
	Buffer		metabuf;

	ColstoreLockWriter(rel);
	metabuf = ColstoreLockMetaForUpdate(rel);
	memcpy(meta, ColstorePageGetMeta(BufferGetPage(metabuf)), sizeof(*meta));
	UnlockReleaseBuffer(metabuf);
}

/*
 * The heap positions compaction moved a group's rows from, as a bigint
 * chunk image (ascending keys: delta encoded to about a byte a row).
 */
static void
EncodeSources(const ItemPointerData *sources, int nrows, EncodedChunk *image)
{
	ChunkTypeInfo type = {INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE};
	Datum	   *keys = palloc(sizeof(Datum) * nrows);
	bool	   *isnull = palloc0(sizeof(bool) * nrows);
	int			i;

	for (i = 0; i < nrows; i++)
		keys[i] = Int64GetDatum(HeapPositionKey(&sources[i]));
	EncodeChunk(&type, nrows, keys, isnull, COLSTORE_CODEC_ZSTD, 1, image);
	pfree(keys);
	pfree(isnull);
}

/*
 * RowGroupWrite
 *		Encode and write rows [first_row, first_row + nrows) whose column
 *		values are values[att][row] / isnull[att][row] (row_bytes: each
 *		row's in-memory size, or NULL; see ChooseChunkBoundaries), typed by tupdesc
 *		(the descriptor the values were captured with, which may be older
 *		than the relation's if ALTER TABLE ran since), inserted by xmin in
 *		command cmin, with directory flags (RG_FLAG_FROZEN for rewrites), and
 *		publish the row group.  sources, if not NULL, are the nrows heap
 *		positions compaction moved the rows from (ascending); they are stored
 *		with the group (RG_FLAG_MOVED_ROWS).  decoding says how logical
 *		decoding sees the rows (logged only if the table is logically
 *		logged; the images are logged before the group is published, which
 *		is the same to decoding: both are in the transaction).  Returns its
 *		directory index.  Takes the writer lock for the publishing phase
 *		only.  Uses a
 *		temporary memory context; errors on corruption of existing pages or
 *		out-of-memory.
 */
uint32
RowGroupWrite(Relation rel, TupleDesc tupdesc, uint64 first_row, int nrows,
			  Datum **values, bool **isnull, const Size *row_bytes,
			  TransactionId xmin, CommandId cmin, uint16 flags,
			  const ColstoreOptions *opts, const ItemPointerData *sources,
			  RowGroupDecoding decoding)
{
	int			natts = tupdesc->natts;
	MemoryContext cxt;
	MemoryContext oldcxt;
	uint32	   *bounds;
	uint32		nchunks;
	EncodedChunk *images;
	ChunkDesc  *descs;
	StringInfoData stats;
	StringInfoData header;
	RowGroupHeaderData *hdr;
	RowGroupDirEntry entry;
	ColstoreMetaPageData meta;
	StreamWriter sw;
	StreamPointer tail;
	StreamPointer sources_at = {0, 0};
	EncodedChunk sources_image = {0};
	uint64		raw_bytes = 0;
	uint64		stored_bytes = 0;
	uint32		index;
	int			att;
	uint32		c;
	pg_crc32c	crc;

	Assert(nrows > 0);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "colstore row group write",
								ALLOCSET_DEFAULT_SIZES);
	oldcxt = MemoryContextSwitchTo(cxt);

	/* Phase 1: encode, without locks. */
	nchunks = ChooseChunkBoundaries(tupdesc, nrows, values, isnull,
									row_bytes, opts->chunk_size, &bounds);
	images = palloc0(sizeof(EncodedChunk) * natts * nchunks);
	descs = palloc0(sizeof(ChunkDesc) * natts * nchunks);
	initStringInfo(&stats);
	for (att = 0; att < natts; att++)
	{
		Form_pg_attribute attr = TupleDescAttr(tupdesc, att);
		FmgrInfo   *cmp = RowGroupColumnComparison(attr);
		ChunkTypeInfo type;

		type.typid = attr->atttypid;
		type.typlen = attr->attlen;
		type.typbyval = attr->attbyval;
		type.typalign = attr->attalign;
		for (c = 0; c < nchunks; c++)
		{
			int			start = bounds[c];
			int			n = bounds[c + 1] - bounds[c];
			EncodedChunk *img = &images[att * nchunks + c];
			ChunkDesc  *cd = &descs[att * nchunks + c];
			uint32		stats_start = stats.len;

			EncodeChunk(&type, n, values[att] + start, isnull[att] + start,
						(ColstoreCodec) opts->codec, opts->compression_level, img);
			cd->cd_len = (uint32) img->len;
			cd->cd_len_hi = (uint32) ((uint64) img->len >> 32);
			cd->cd_nnulls = img->nnulls;
			cd->cd_encoding = img->encoding;
			cd->cd_codec = img->codec;
			cd->cd_raw_bytes = img->raw_bytes;
			if (ComputeChunkMinMax(attr, cmp, n, values[att] + start,
								   isnull[att] + start, img->stats_rows,
								   img->nstats, &stats))
			{
				cd->cd_flags |= CHUNK_HAS_MINMAX | CHUNK_STATS_TYPED;
				cd->cd_stats_offset = stats_start;
				cd->cd_stats_len = stats.len - stats_start;
				if (img->nnulls == 0 &&
					ChunkIsAscending(attr, cmp, n, values[att] + start,
									 isnull[att] + start))
					cd->cd_flags |= CHUNK_ASCENDING;
			}
			raw_bytes += img->raw_bytes;
			stored_bytes += img->len;
		}
	}

	if (sources != NULL)
		EncodeSources(sources, nrows, &sources_image);
	if (decoding != ROWGROUP_DECODE_NONE && LogicalInsertWanted(rel))
		LogicalLogRowGroup(rel, tupdesc, xmin, nchunks, bounds, images);

	/* Phase 2: write and publish, under the writer lock. */
	LockWriterAndReadMeta(rel, &meta);

	tail.sp_block = meta.cm_stream_tail;
	tail.sp_offset = meta.cm_stream_offset;
	StreamWriterBegin(&sw, rel, tail);
	for (c = 0; c < (uint32) (natts * nchunks); c++)
	{
		descs[c].cd_location = StreamWrite(&sw, images[c].data, images[c].len);
		pfree(images[c].data);
	}

	if (sources != NULL)
	{
		sources_at = StreamWrite(&sw, sources_image.data, sources_image.len);
		stored_bytes += sources_image.len;
		flags |= RG_FLAG_MOVED_ROWS;
	}

	/* header: fixed part, chunk bounds, chunk descriptors, stats bytes */
	initStringInfo(&header);
	appendStringInfoSpaces(&header, sizeof(RowGroupHeaderData));
	appendBinaryStringInfo(&header, (char *) bounds, sizeof(uint32) * (nchunks + 1));
	appendBinaryStringInfo(&header, (char *) descs, sizeof(ChunkDesc) * natts * nchunks);
	appendBinaryStringInfo(&header, stats.data, stats.len);
	hdr = (RowGroupHeaderData *) header.data;
	hdr->rh_magic = ROWGROUP_HEADER_MAGIC;
	hdr->rh_crc = 0;
	hdr->rh_len = header.len;
	hdr->rh_nrows = nrows;
	hdr->rh_natts = natts;
	hdr->rh_nchunks = nchunks;
	INIT_CRC32C(crc);
	COMP_CRC32C(crc, header.data, header.len);
	FIN_CRC32C(crc);
	hdr->rh_crc = crc;

	memset(&entry, 0, sizeof(entry));
	entry.rg_first_row = first_row;
	entry.rg_nrows = nrows;
	entry.rg_kind = RG_KIND_ROWGROUP;
	entry.rg_flags = flags;
	entry.rg_xmin = xmin;
	entry.rg_cmin = cmin;
	entry.rg_header = StreamWrite(&sw, header.data, header.len);
	entry.rg_header_len = header.len;
	entry.rg_natts = natts;
	entry.rg_nchunks = nchunks;
	entry.rg_stored_bytes = stored_bytes + header.len;
	entry.rg_raw_bytes = raw_bytes;
	entry.rg_sources = sources_at;
	entry.rg_sources_len = (uint32) sources_image.len;
	tail = StreamWriterEnd(&sw);

	meta.cm_stream_tail = tail.sp_block;
	meta.cm_stream_offset = tail.sp_offset;
	meta.cm_live_rows += nrows;
	index = DirectoryAppend(rel, &entry, &meta);
	ColstoreUnlockWriter(rel);

	MemoryContextSwitchTo(oldcxt);
	MemoryContextDelete(cxt);
	return index;
}

/*
 * AppendRowRange
 *		Give *entry (its kind, xmin and the rest filled in by the caller) the
 *		next count row numbers, starting at the first one nobody has reserved
 *		yet rounded up to a multiple of align, and append it to the
 *		directory.  Returns the first row number.  Caller holds the writer
 *		lock.
 */
uint64
AppendRowRange(Relation rel, RowGroupDirEntry *entry, uint32 count, uint32 align)
{
	ColstoreMetaPageData meta;
	Buffer		metabuf;
	uint64		start;

	Assert(ColstoreWriterLockHeld(rel));
	Assert(count > 0 && align > 0);
	metabuf = ColstoreLockMetaForUpdate(rel);
	memcpy(&meta, ColstorePageGetMeta(BufferGetPage(metabuf)), sizeof(meta));
	UnlockReleaseBuffer(metabuf);
	start = (meta.cm_next_row + align - 1) / align * align;
	Assert(start >= meta.cm_next_row && start % align == 0);
	if (start + count > COLSTORE_MAX_ROW_NUMBER)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("colstore table \"%s\" has run out of row numbers",
						RelationGetRelationName(rel)),
				 errhint("Rewrite the table with VACUUM FULL.")));
	entry->rg_first_row = start;
	entry->rg_nrows = count;
	meta.cm_next_row = start + count;
	DirectoryAppend(rel, entry, &meta);

	/*
	 * A range that starts inside a pseudo-block takes numbers VACUUM may have
	 * counted as never handed out when it marked that block all-visible
	 * (mvcc/visible_blocks.c): clear the bit now that the metapage shows them
	 * taken, before any of them can have an index entry
	 * (storage/all_visible.c's interlock).
	 */
	if (start % ROWS_PER_TID_BLOCK != 0)
		AllVisibleClearRows(rel, start, 1);
	return start;
}

/*
 * RowNumbersReserve
 *		Reserve count row numbers for transaction xid and record the
 *		reservation in the directory.  The range starts at the first row
 *		number nobody has reserved yet, so a writer whose previous range ended
 *		there can keep growing its row group.  Returns the first reserved row
 *		number.  Takes the writer lock.
 */
uint64
RowNumbersReserve(Relation rel, uint32 count, TransactionId xid)
{
	RowGroupDirEntry entry;
	uint64		start;

	memset(&entry, 0, sizeof(entry));
	entry.rg_kind = RG_KIND_RESERVATION;
	entry.rg_xmin = xid;
	entry.rg_cmin = InvalidCommandId;
	entry.rg_header.sp_block = InvalidBlockNumber;
	ColstoreLockWriter(rel);
	start = AppendRowRange(rel, &entry, count, 1);
	ColstoreUnlockWriter(rel);
	return start;
}
