/*-------------------------------------------------------------------------
 *
 * rowgroup_reader.c
 *	  Read a row group's header from the page stream and decode its chunks.
 *
 * Every byte read from disk is checked before use: the row group header by
 * its CRC and by the consistency of its counts and offsets, chunk images by
 * DecodeChunk (CRC and bounds).  Failures raise ERRCODE_DATA_CORRUPTED
 * naming the table, the row group (its directory index, as shown by
 * colstore.row_groups) and the column.
 *
 * Columns are decoded with the descriptor the caller passes (the scan
 * slot's), not the relation's: during ALTER TABLE rewrites the executor
 * reads old rows through the old descriptor.  Attributes beyond those the
 * row group stored were added later and read as their missing value;
 * dropped attributes read as NULL.
 *
 * IDENTIFICATION
 *	  src/storage/rowgroup_reader.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tupdesc_details.h"
#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "port/pg_crc32c.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "encoding/chunk_encoding.h"
#include "storage/header_cache.h"
#include "storage/page_stream.h"
#include "storage/rowgroup_reader.h"

void
RowGroupReportCorruption(Relation rel, uint32 dir_index, const char *column,
						 const char *detail)
{
	if (column != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("colstore table \"%s\" has corrupted data in row group %u, column \"%s\"",
								 RelationGetRelationName(rel), dir_index, column),
				 errdetail_internal("%s", detail)));
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg_internal("colstore table \"%s\" has a corrupted header in row group %u",
							 RelationGetRelationName(rel), dir_index),
			 errdetail_internal("%s", detail)));
}

/*
 * RowGroupReadHeader
 *		Read and validate the header of the row group described by entry.
 *		The result is allocated in CurrentMemoryContext.
 */
RowGroupHeader *
RowGroupReadHeader(Relation rel, uint32 dir_index, const RowGroupDirEntry *entry)
{
	return RowGroupReadHeaderPrefetched(rel, NULL, 0, dir_index, entry);
}

/*
 * RowGroupReadHeaderPrefetched
 *		RowGroupReadHeader, reading the header's pages and later those of
 *		the chunks decoded through it (h->prefetch) through pf, which must
 *		outlive the result; pf NULL reads directly.  identity is the
 *		relation file's cm_identity: with one (not 0) the header is copied
 *		from the shared header cache if it is there, and put there after it
 *		was read and checked if not (storage/header_cache.h).  A copy from
 *		the cache had its checksum checked when it was read; the structure
 *		is checked again either way.
 */
RowGroupHeader *
RowGroupReadHeaderPrefetched(Relation rel, PagePrefetch *pf, uint64 identity,
							 uint32 dir_index, const RowGroupDirEntry *entry)
{
	RowGroupHeaderData *hdr;
	RowGroupHeader *h;
	char	   *raw;
	uint32		len = entry->rg_header_len;
	Size		shift;
	uint64		fixed;
	pg_crc32c	crc;
	pg_crc32c	stored;
	uint32		c;
	bool		cached;

	if (len < sizeof(RowGroupHeaderData) || len > MaxAllocSize - 2 * MAXIMUM_ALIGNOF)
		RowGroupReportCorruption(rel, dir_index, NULL, "header length out of range");

	/*
	 * The chunk descriptors follow nchunks + 1 uint32s without padding, so
	 * place the header such that they land MAXALIGNed (the header's own
	 * fields need only 4-byte alignment); a header whose count differs from
	 * the entry's is refused below.
	 */
	shift = (sizeof(RowGroupHeaderData) +
			 sizeof(uint32) * ((Size) entry->rg_nchunks + 1)) % MAXIMUM_ALIGNOF;
	if (shift != 0)
		shift = MAXIMUM_ALIGNOF - shift;
	raw = palloc(MAXALIGN(sizeof(RowGroupHeader)) + shift + len);
	h = (RowGroupHeader *) raw;
	raw += MAXALIGN(sizeof(RowGroupHeader)) + shift;
	hdr = (RowGroupHeaderData *) raw;
	cached = HeaderCacheRead(rel, identity, entry, raw);
	if (!cached)
	{
		StreamRead(rel, pf, entry->rg_header, len, raw);
		stored = hdr->rh_crc;
		hdr->rh_crc = 0;
		INIT_CRC32C(crc);
		COMP_CRC32C(crc, raw, len);
		FIN_CRC32C(crc);
		hdr->rh_crc = stored;
		if (hdr->rh_magic != ROWGROUP_HEADER_MAGIC || !EQ_CRC32C(crc, stored))
			RowGroupReportCorruption(rel, dir_index, NULL, "header checksum mismatch");
	}
	if (hdr->rh_len != len || hdr->rh_nrows != entry->rg_nrows ||
		hdr->rh_natts != entry->rg_natts || hdr->rh_nchunks != entry->rg_nchunks ||
		hdr->rh_nchunks == 0)
		RowGroupReportCorruption(rel, dir_index, NULL, "header does not match the directory");

	fixed = sizeof(RowGroupHeaderData) +
		sizeof(uint32) * ((uint64) hdr->rh_nchunks + 1) +
		sizeof(ChunkDesc) * (uint64) hdr->rh_natts * hdr->rh_nchunks;
	if (fixed > len)
		RowGroupReportCorruption(rel, dir_index, NULL, "header is truncated");

	h->dir_index = dir_index;
	h->prefetch = pf;
	h->nrows = hdr->rh_nrows;
	h->natts = hdr->rh_natts;
	h->nchunks = hdr->rh_nchunks;
	h->chunk_first_row = (uint32 *) (raw + sizeof(RowGroupHeaderData));
	h->chunks = (ChunkDesc *) (h->chunk_first_row + h->nchunks + 1);
	h->stats = raw + fixed;
	h->stats_len = len - fixed;

	if (h->chunk_first_row[0] != 0 || h->chunk_first_row[h->nchunks] != h->nrows)
		RowGroupReportCorruption(rel, dir_index, NULL, "chunk boundaries are inconsistent");
	for (c = 0; c < h->nchunks; c++)
		if (h->chunk_first_row[c + 1] <= h->chunk_first_row[c])
			RowGroupReportCorruption(rel, dir_index, NULL, "chunk boundaries are inconsistent");
	for (c = 0; c < (uint32) h->natts * h->nchunks; c++)
	{
		ChunkDesc  *cd = &h->chunks[c];

		if ((cd->cd_flags & CHUNK_HAS_MINMAX) &&
			((uint64) cd->cd_stats_offset + cd->cd_stats_len > h->stats_len))
			RowGroupReportCorruption(rel, dir_index, NULL, "chunk statistics out of range");
	}
	if (!cached)
		HeaderCacheStore(rel, identity, entry, raw);
	return h;
}

/* Chunk number holding row (an offset within the row group). */
uint32
RowGroupFindChunk(const RowGroupHeader *h, uint32 row)
{
	uint32		lo = 0,
				hi = h->nchunks - 1;

	Assert(h->nchunks > 0 && row < h->nrows);
	while (lo < hi)
	{
		uint32		mid = (lo + hi + 1) / 2;

		if (h->chunk_first_row[mid] <= row)
			lo = mid;
		else
			hi = mid - 1;
	}
	/* RowGroupReadHeader checked the boundaries: they ascend from 0 to nrows */
	Assert(h->chunk_first_row[lo] <= row && row < h->chunk_first_row[lo + 1]);
	return lo;
}

static void
SetTypeInfo(ChunkTypeInfo *type, Form_pg_attribute att)
{
	type->typid = att->atttypid;
	type->typlen = att->attlen;
	type->typbyval = att->attbyval;
	type->typalign = att->attalign;
}

/* Read the image of a chunk into a huge palloc'd buffer. */
static char *
ReadChunkImage(Relation rel, const RowGroupHeader *h, Form_pg_attribute att,
			   int attno, uint32 chunkno, uint64 *len)
{
	const ChunkDesc *cd = RowGroupChunk(h, attno, chunkno);
	char	   *image;

	*len = ChunkDescLength(cd);
	if (*len == 0 || *len > MaxAllocHugeSize)
		RowGroupReportCorruption(rel, h->dir_index, NameStr(att->attname),
								 "chunk length out of range");
	image = MemoryContextAllocHuge(CurrentMemoryContext, *len);
	StreamRead(rel, h->prefetch, cd->cd_location, *len, image);
	return image;
}

/*
 * RowGroupOpenChunkReader
 *		Open random access to chunk chunkno of attribute attno (0-based) of
 *		desc, which must be a stored, non-dropped attribute (attno <
 *		h->natts).  The reader lives in CurrentMemoryContext; the image read
 *		from disk is freed.  Raises ERRCODE_DATA_CORRUPTED on a bad image.
 */
ChunkReader *
RowGroupOpenChunkReader(Relation rel, const RowGroupHeader *h, TupleDesc desc,
						int attno, uint32 chunkno)
{
	Form_pg_attribute att = TupleDescAttr(desc, attno);
	ChunkTypeInfo type;
	ChunkReader *reader;
	const char *detail = NULL;
	uint64		len;
	char	   *image;

	Assert(attno < h->natts && !att->attisdropped);
	image = ReadChunkImage(rel, h, att, attno, chunkno, &len);
	SetTypeInfo(&type, att);
	reader = ChunkReaderOpen(&type, image, len, RowGroupChunkRows(h, chunkno), &detail);
	if (reader == NULL)
		RowGroupReportCorruption(rel, h->dir_index, NameStr(att->attname),
								 detail ? detail : "chunk could not be decoded");
	pfree(image);
	return reader;
}

/*
 * RowGroupReadColumnChunk
 *		Decode chunk chunkno of attribute attno (0-based) of desc into
 *		values/isnull, which must have room for RowGroupChunkRows(h, chunkno)
 *		entries.  Pass-by-reference results are allocated in
 *		CurrentMemoryContext.
 */
void
RowGroupReadColumnChunk(Relation rel, const RowGroupHeader *h, TupleDesc desc,
						int attno, uint32 chunkno, Datum *values, bool *isnull)
{
	Form_pg_attribute att = TupleDescAttr(desc, attno);
	int			n = RowGroupChunkRows(h, chunkno);
	ChunkTypeInfo type;
	uint64		len;
	char	   *image;
	const char *detail = NULL;
	int			i;

	if (att->attisdropped || attno >= h->natts)
	{
		Datum		value = (Datum) 0;
		bool		null = true;

		if (!att->attisdropped)
			value = getmissingattr(desc, attno + 1, &null);
		for (i = 0; i < n; i++)
		{
			values[i] = value;
			isnull[i] = null;
		}
		return;
	}

	image = ReadChunkImage(rel, h, att, attno, chunkno, &len);
	SetTypeInfo(&type, att);
	if (!DecodeChunk(&type, image, len, n, values, isnull, &detail))
		RowGroupReportCorruption(rel, h->dir_index, NameStr(att->attname),
								 detail ? detail : "chunk could not be decoded");
	/* values may point into image for pass-by-reference types: keep it */
}

/*
 * RowGroupReadScaledChunk
 *		If chunk chunkno of attribute attno (0-based) of desc is a stored
 *		numeric chunk in the scaled-integer encoding, decode it without
 *		building numerics (DecodeChunkScaled: *values and *dscales allocated
 *		in CurrentMemoryContext; isnull must have room for
 *		RowGroupChunkRows(h, chunkno) entries), and return true; else return
 *		false without reading anything.
 */
bool
RowGroupReadScaledChunk(Relation rel, const RowGroupHeader *h, TupleDesc desc,
						int attno, uint32 chunkno, int64 **values,
						int64 **dscales, bool *isnull, int *scale)
{
	Form_pg_attribute att = TupleDescAttr(desc, attno);
	ChunkTypeInfo type;
	const char *detail = NULL;
	uint64		len;
	char	   *image;

	if (att->attisdropped || attno >= h->natts || att->atttypid != NUMERICOID ||
		RowGroupChunk(h, attno, chunkno)->cd_encoding != CHUNK_ENCODING_SCALED_NUMERIC)
		return false;
	image = ReadChunkImage(rel, h, att, attno, chunkno, &len);
	SetTypeInfo(&type, att);
	if (!DecodeChunkScaled(&type, image, len, RowGroupChunkRows(h, chunkno),
						   values, dscales, isnull, scale, &detail))
		RowGroupReportCorruption(rel, h->dir_index, NameStr(att->attname),
								 detail ? detail : "chunk could not be decoded");
	pfree(image);
	return true;
}

static Datum
ReadStatsValue(Form_pg_attribute att, const char **p, const char *end, bool *ok)
{
	uint32		len;
	Datum		value;

	if (end - *p < (ptrdiff_t) sizeof(uint32))
	{
		*ok = false;
		return (Datum) 0;
	}
	memcpy(&len, *p, sizeof(uint32));
	*p += sizeof(uint32);
	if (att->attbyval)
	{
		if (end - *p < (ptrdiff_t) sizeof(Datum))
		{
			*ok = false;
			return (Datum) 0;
		}
		memcpy(&value, *p, sizeof(Datum));
		*p += sizeof(Datum);
		return value;
	}
	if (len > end - *p || len == 0 ||
		(att->attlen > 0 && len != (uint32) att->attlen))
	{
		*ok = false;
		return (Datum) 0;
	}
	/* the stats bytes are unaligned: look at the value in its copy */
	value = PointerGetDatum(palloc(len));
	memcpy(DatumGetPointer(value), *p, len);

	/*
	 * A varlena is read only as far as its length allows, and must be the
	 * plain in-line datum the writer keeps (never a TOAST pointer, which
	 * would be dereferenced, nor compressed); a cstring must end in its NUL.
	 */
	if ((att->attlen == -1 &&
		 (VARATT_IS_EXTERNAL(DatumGetPointer(value)) ||
		  (!VARATT_IS_1B(DatumGetPointer(value)) &&
		   (len < VARHDRSZ || VARATT_IS_COMPRESSED(DatumGetPointer(value)))) ||
		  VARSIZE_ANY(DatumGetPointer(value)) != len)) ||
		(att->attlen == -2 && DatumGetCString(value)[len - 1] != '\0'))
	{
		pfree(DatumGetPointer(value));
		*ok = false;
		return (Datum) 0;
	}
	*p += len;
	return value;
}

/*
 * RowGroupChunkMinMax
 *		Fetch the stored min and max of a chunk; false if none were kept (all
 *		NULL, no ordering, values too large, or the column was added later).
 *		Pass-by-reference results are palloc'd in CurrentMemoryContext.
 */
bool
RowGroupChunkMinMax(const RowGroupHeader *h, Form_pg_attribute att, int attno,
					uint32 chunkno, Datum *min, Datum *max)
{
	const ChunkDesc *cd;
	const char *p;
	const char *end;
	bool		ok = true;

	if (attno >= h->natts || att->attisdropped)
		return false;
	cd = RowGroupChunk(h, attno, chunkno);
	if (!(cd->cd_flags & CHUNK_HAS_MINMAX))
		return false;
	p = h->stats + cd->cd_stats_offset;
	end = p + cd->cd_stats_len;
	*min = ReadStatsValue(att, &p, end, &ok);
	if (ok)
		*max = ReadStatsValue(att, &p, end, &ok);
	return ok;
}

/*
 * RowGroupChunkStatsMatch
 *		True if the chunk's min/max were computed for the column's current
 *		type and collation.  ALTER COLUMN ... TYPE between binary-compatible
 *		types (int4 and oid, say) and ALTER COLUMN ... COLLATE keep the data
 *		without a rewrite, so stats of older row groups may be ordered
 *		differently from what the column's operators now mean; only
 *		matching stats may be used to skip chunks.
 */
bool
RowGroupChunkStatsMatch(const RowGroupHeader *h, Form_pg_attribute att,
						int attno, uint32 chunkno)
{
	const ChunkDesc *cd;
	Oid			typid;
	Oid			collid;
	const char *trailer;

	if (attno >= h->natts || att->attisdropped)
		return false;
	cd = RowGroupChunk(h, attno, chunkno);
	if (!(cd->cd_flags & CHUNK_HAS_MINMAX) || !(cd->cd_flags & CHUNK_STATS_TYPED) ||
		cd->cd_stats_len < 2 * sizeof(Oid))
		return false;
	trailer = h->stats + cd->cd_stats_offset + cd->cd_stats_len - 2 * sizeof(Oid);
	memcpy(&typid, trailer, sizeof(Oid));
	memcpy(&collid, trailer + sizeof(Oid), sizeof(Oid));
	return typid == att->atttypid && collid == att->attcollation;
}
