/*-------------------------------------------------------------------------
 *
 * byref_values.c
 *	  Plain encoding of pass-by-reference values (varlena, cstring, fixed
 *	  length) and materialization of decoded values as aligned datums.
 *
 * Every pass-by-reference value is reduced to a ByrefView: its content
 * bytes without the varlena header (1-byte short or 4-byte) or the cstring
 * terminator.  Equal content means equal value, so views are also what the
 * dictionary encoder hashes and compares.
 *
 * The plain form of n values is, for fixed-length types, the n * typlen
 * content bytes back to back; for varlena and cstring types an integer
 * stream (integer_encoding.c) of the n content lengths followed by the
 * concatenated content bytes.  Lengths are usually constant or narrow, so
 * they cost a few bits per value.
 *
 * Parsing validates a plain form once; it can then be turned into views
 * of all values (DecodeChunk) or read at random through an offset array
 * (ChunkReader).  Decoding turns views back into datums in a single huge
 * allocation in CurrentMemoryContext, or one value into its own allocation:
 * varlena values get a 4-byte header at an address aligned to the type's
 * alignment (at least int alignment), fixed-length values are aligned per
 * typalign, cstrings are NUL-terminated.  4-byte headers are always used so
 * that types with storage 'plain', which never see short headers, are safe.
 *
 * IDENTIFICATION
 *	  src/encoding/byref_values.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/tupmacs.h"
#include "utils/memutils.h"

#include "encoding/byref_values.h"
#include "encoding/integer_encoding.h"

/* Largest content length a decoded value may have. */
#define MAX_VARLENA_CONTENT		((Size) (MaxAllocSize - VARHDRSZ))
#define MAX_CSTRING_CONTENT		((Size) (MaxAllocSize - 1))

static uint64 *
collect_lengths(const ByrefView *views, uint64 n, uint64 *total)
{
	uint64	   *lens = alloc_array(n, sizeof(uint64));
	uint64		sum = 0;
	uint64		i;

	for (i = 0; i < n; i++)
	{
		lens[i] = views[i].len;
		sum += views[i].len;
	}
	*total = sum;
	return lens;
}

/*
 * byref_plain_size
 *		Bytes byref_encode_plain would append for views[0..n-1].
 */
uint64
byref_plain_size(const ChunkTypeInfo *type, const ByrefView *views, uint64 n)
{
	uint64	   *lens;
	uint64		total;
	uint64		size;

	if (type->typlen > 0)
		return n * (uint64) type->typlen;
	lens = collect_lengths(views, n, &total);
	size = intenc_best_size(lens, n, NULL) + total;
	pfree(lens);
	return size;
}

/*
 * byref_encode_plain
 *		Append the plain form of views[0..n-1] to buf.
 */
void
byref_encode_plain(EncBuf *buf, const ChunkTypeInfo *type,
				   const ByrefView *views, uint64 n)
{
	uint64		i;

	if (type->typlen < 0)
	{
		uint64		total;
		uint64	   *lens = collect_lengths(views, n, &total);
		char	   *dst;

		intenc_encode(buf, lens, n);
		pfree(lens);
		dst = encbuf_reserve(buf, total);
		for (i = 0; i < n; i++)
		{
			memcpy(dst, views[i].ptr, views[i].len);
			dst += views[i].len;
		}
		buf->len += total;
	}
	else
	{
		for (i = 0; i < n; i++)
			encbuf_append(buf, views[i].ptr, views[i].len);
	}
}

/*
 * byref_parse_plain
 *		Parse and validate the plain form of n values at the reader's
 *		position into *bp, advancing the reader past it.
 *
 * Checks each length against the largest allocatable value and the total
 * against the bytes available.  With keep, the lengths of varlena and
 * cstring values are also left in bp->lens_all (palloc'd; the caller frees
 * it), saving a second pass to callers that decode everything.  Returns
 * false with *detail on corruption.
 */
bool
byref_parse_plain(ByteReader *r, const ChunkTypeInfo *type, uint64 n,
				  bool keep, ByrefPlain *bp, const char **detail)
{
	memset(bp, 0, sizeof(*bp));
	bp->n = n;
	if (type->typlen > 0)
	{
		Size		tl = (Size) type->typlen;

		if (n > reader_remaining(r) / tl)
		{
			*detail = "truncated fixed-length values";
			return false;
		}
		bp->bytes = (const char *) reader_take(r, n * tl);
		return true;
	}
	else
	{
		Size		maxlen = type->typlen == -1 ? MAX_VARLENA_CONTENT : MAX_CSTRING_CONTENT;
		Size		avail;
		Size		off = 0;
		IntStreamIter it;
		uint64		buf[INTENC_BLOCK];
		uint64	   *lens;
		uint64		count;
		uint64		i;

		if (!intenc_parse(r, n, &bp->lens, detail))
			return false;
		if (keep)
			bp->lens_all = alloc_array(n, sizeof(uint64));
		avail = reader_remaining(r);
		intenc_iter_init(&it, &bp->lens);
		while ((count = intenc_iter_batch(&it, bp->lens_all, buf, &lens)) > 0)
		{
			for (i = 0; i < count; i++)
			{
				if (lens[i] > maxlen || lens[i] > avail - off)
				{
					if (bp->lens_all)
						pfree(bp->lens_all);
					bp->lens_all = NULL;
					*detail = "value length out of range";
					return false;
				}
				off += (Size) lens[i];
			}
		}
		bp->bytes = (const char *) reader_take(r, off);
		return true;
	}
}

/*
 * byref_plain_views
 *		Fill views[0..n-1] from a plain form parsed with keep, and release
 *		the kept lengths.
 */
void
byref_plain_views(const ChunkTypeInfo *type, ByrefPlain *bp, ByrefView *views)
{
	Size		off = 0;
	uint64		i;

	for (i = 0; i < bp->n; i++)
	{
		Size		len = type->typlen > 0 ? (Size) type->typlen : (Size) bp->lens_all[i];

		views[i].ptr = bp->bytes + off;
		views[i].len = len;
		off += len;
	}
	if (bp->lens_all)
		pfree(bp->lens_all);
	bp->lens_all = NULL;
}

/*
 * byref_decode_plain
 *		Parse the plain form of n values at the reader's position, filling
 *		views[0..n-1] with pointers into the reader's buffer.  Returns false
 *		with *detail on corruption.
 */
bool
byref_decode_plain(ByteReader *r, const ChunkTypeInfo *type, uint64 n,
				   ByrefView *views, const char **detail)
{
	ByrefPlain	bp;

	if (!byref_parse_plain(r, type, n, true, &bp, detail))
		return false;
	byref_plain_views(type, &bp, views);
	return true;
}

/*
 * byref_build_offsets
 *		Build the content offsets of a parsed varlena or cstring plain form
 *		(4 bytes per value while the content stays below 4 GB) in
 *		CurrentMemoryContext, for byref_plain_get.  Returns the bytes
 *		allocated (none for fixed-length types).
 */
Size
byref_build_offsets(const ChunkTypeInfo *type, ByrefPlain *bp)
{
	IntStreamIter it;
	uint64		buf[INTENC_BLOCK];
	uint64	   *lens;
	uint64		count;
	uint64		total = 0;
	uint64		pos = 0;
	uint64		i;

	if (type->typlen > 0)
		return 0;
	/* a first pass for the total decides the offsets' width */
	intenc_iter_init(&it, &bp->lens);
	while ((count = intenc_iter_batch(&it, NULL, buf, &lens)) > 0)
		for (i = 0; i < count; i++)
			total += lens[i];
	if (total <= PG_UINT32_MAX)
		bp->off32 = alloc_array(bp->n + 1, sizeof(uint32));
	else
		bp->off64 = alloc_array(bp->n + 1, sizeof(uint64));

	total = 0;
	intenc_iter_init(&it, &bp->lens);
	while ((count = intenc_iter_batch(&it, NULL, buf, &lens)) > 0)
	{
		for (i = 0; i < count; i++, pos++)
		{
			if (bp->off32)
				bp->off32[pos] = (uint32) total;
			else
				bp->off64[pos] = total;
			total += lens[i];
		}
	}
	if (bp->off32)
	{
		bp->off32[pos] = (uint32) total;
		return GetMemoryChunkSpace(bp->off32);
	}
	bp->off64[pos] = total;
	return GetMemoryChunkSpace(bp->off64);
}

/*
 * byref_plain_get
 *		Content of value index (< n) of a parsed plain form; varlena and
 *		cstring forms need byref_build_offsets first.
 */
ByrefView
byref_plain_get(const ChunkTypeInfo *type, const ByrefPlain *bp, uint64 index)
{
	ByrefView	v;

	Assert(index < bp->n);
	if (type->typlen > 0)
	{
		v.ptr = bp->bytes + index * (Size) type->typlen;
		v.len = (Size) type->typlen;
	}
	else if (bp->off32)
	{
		v.ptr = bp->bytes + bp->off32[index];
		v.len = bp->off32[index + 1] - bp->off32[index];
	}
	else
	{
		v.ptr = bp->bytes + bp->off64[index];
		v.len = (Size) (bp->off64[index + 1] - bp->off64[index]);
	}
	return v;
}

/* Alignment a materialized value gets (see the file header). */
static char
materialized_align(const ChunkTypeInfo *type)
{
	if (type->typlen == -1 &&
		(type->typalign == TYPALIGN_CHAR || type->typalign == TYPALIGN_SHORT))
		return TYPALIGN_INT;
	if (type->typlen == -2)
		return TYPALIGN_CHAR;
	return type->typalign;
}

/* Bytes a materialized value takes (without alignment padding). */
static inline Size
materialized_size(const ChunkTypeInfo *type, Size len)
{
	if (type->typlen == -1)
		return VARHDRSZ + len;
	if (type->typlen == -2)
		return len + 1;
	return len;
}

/* Write the datum for view at p: 4-byte varlena header, cstring NUL. */
static void
materialize_at(const ChunkTypeInfo *type, ByrefView view, char *p)
{
	if (type->typlen == -1)
	{
		SET_VARSIZE(p, view.len + VARHDRSZ);
		memcpy(p + VARHDRSZ, view.ptr, view.len);
	}
	else if (type->typlen == -2)
	{
		memcpy(p, view.ptr, view.len);
		p[view.len] = '\0';
	}
	else
		memcpy(p, view.ptr, view.len);
}

/*
 * byref_materialize
 *		Build datums for views[0..n-1] in one allocation in
 *		CurrentMemoryContext and store them in out[0..n-1].
 */
void
byref_materialize(const ChunkTypeInfo *type, const ByrefView *views,
				  uint64 n, Datum *out)
{
	char		align = materialized_align(type);
	Size		total = 0;
	char	   *mem;
	uint64		i;

	/* first pass: size */
	for (i = 0; i < n; i++)
	{
		total = att_align_nominal(total, align);
		total += materialized_size(type, views[i].len);
	}
	if (total == 0)
		total = 1;
	if (!AllocHugeSizeIsValid(total))
		elog(ERROR, "colstore decoded chunk too large");
	mem = MemoryContextAllocHuge(CurrentMemoryContext, total);

	/* second pass: copy */
	total = 0;
	for (i = 0; i < n; i++)
	{
		char	   *p;

		total = att_align_nominal(total, align);
		p = mem + total;
		materialize_at(type, views[i], p);
		total += materialized_size(type, views[i].len);
		out[i] = PointerGetDatum(p);
	}
}

/*
 * byref_materialize_one
 *		Build the datum byref_materialize would build for one value, in its
 *		own (maximally aligned) allocation in CurrentMemoryContext.
 */
Datum
byref_materialize_one(const ChunkTypeInfo *type, ByrefView view)
{
	Size		size = materialized_size(type, view.len);
	char	   *p = MemoryContextAllocHuge(CurrentMemoryContext, Max(size, 1));

	materialize_at(type, view, p);
	return PointerGetDatum(p);
}
