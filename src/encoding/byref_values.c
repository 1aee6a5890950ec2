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
 * Decoding turns views back into datums in a single huge allocation in
 * CurrentMemoryContext: varlena values get a 4-byte header at an address
 * aligned to the type's alignment (at least int alignment), fixed-length
 * values are aligned per typalign, cstrings are NUL-terminated.  4-byte
 * headers are always used so that types with storage 'plain', which never
 * see short headers, are safe.
 *
 * IDENTIFICATION
 *	  src/encoding/byref_values.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tupmacs.h"
#include "utils/memutils.h"

#include "encoding/byref_values.h"
#include "encoding/integer_encoding.h"

/* Largest content length a decoded value may have. */
#define MAX_VARLENA_CONTENT		((Size) (MaxAllocSize - VARHDRSZ))
#define MAX_CSTRING_CONTENT		((Size) (MaxAllocSize - 1))

/*
 * byref_view
 *		Content bytes of a non-null pass-by-reference datum.
 *
 * Varlena values must not be external or compressed (callers detoast).
 */
ByrefView
byref_view(const ChunkTypeInfo *type, Datum d)
{
	ByrefView	v;
	char	   *p = DatumGetPointer(d);

	if (type->typlen == -1)
	{
		if (VARATT_IS_EXTERNAL(p) || VARATT_IS_COMPRESSED(p))
			elog(ERROR, "colstore cannot encode a toasted value");
		v.ptr = VARDATA_ANY(p);
		v.len = VARSIZE_ANY_EXHDR(p);
	}
	else if (type->typlen == -2)
	{
		v.ptr = p;
		v.len = strlen(p);
	}
	else
	{
		v.ptr = p;
		v.len = (Size) type->typlen;
	}
	return v;
}

/* Bytes a non-null value takes in memory (as given to the encoder). */
Size
byref_raw_size(const ChunkTypeInfo *type, Datum d)
{
	char	   *p = DatumGetPointer(d);

	if (type->typlen == -1)
		return VARSIZE_ANY(p);
	if (type->typlen == -2)
		return strlen(p) + 1;
	return (Size) type->typlen;
}

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
 * byref_decode_plain
 *		Parse the plain form of n values at the reader's position, filling
 *		views[0..n-1] with pointers into the reader's buffer.
 *
 * Checks each length against the largest allocatable value and the total
 * against the bytes available.  Returns false with *detail on corruption.
 */
bool
byref_decode_plain(ChunkReader *r, const ChunkTypeInfo *type, uint64 n,
				   ByrefView *views, const char **detail)
{
	uint64		i;

	if (type->typlen > 0)
	{
		Size		tl = (Size) type->typlen;
		const uint8 *p;

		if (n > reader_remaining(r) / tl)
		{
			*detail = "truncated fixed-length values";
			return false;
		}
		p = reader_take(r, n * tl);
		for (i = 0; i < n; i++)
		{
			views[i].ptr = (const char *) p + i * tl;
			views[i].len = tl;
		}
		return true;
	}
	else
	{
		uint64	   *lens = alloc_array(n, sizeof(uint64));
		Size		maxlen = type->typlen == -1 ? MAX_VARLENA_CONTENT : MAX_CSTRING_CONTENT;
		Size		avail;
		Size		off = 0;
		const uint8 *base;

		if (!intenc_decode(r, n, lens, detail))
		{
			pfree(lens);
			return false;
		}
		avail = reader_remaining(r);
		base = r->data + r->pos;
		for (i = 0; i < n; i++)
		{
			if (lens[i] > maxlen || lens[i] > avail - off)
			{
				pfree(lens);
				*detail = "value length out of range";
				return false;
			}
			views[i].ptr = (const char *) base + off;
			views[i].len = (Size) lens[i];
			off += (Size) lens[i];
		}
		pfree(lens);
		(void) reader_take(r, off);
		return true;
	}
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
	char		align = type->typalign;
	Size		hdr = 0;
	Size		total = 0;
	char	   *mem;
	uint64		i;

	if (type->typlen == -1)
	{
		hdr = VARHDRSZ;
		if (align == TYPALIGN_CHAR || align == TYPALIGN_SHORT)
			align = TYPALIGN_INT;
	}
	else if (type->typlen == -2)
	{
		hdr = 0;
		align = TYPALIGN_CHAR;
	}

	/* first pass: size */
	for (i = 0; i < n; i++)
	{
		total = att_align_nominal(total, align);
		total += hdr + views[i].len + (type->typlen == -2 ? 1 : 0);
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
		if (type->typlen == -1)
		{
			SET_VARSIZE(p, views[i].len + VARHDRSZ);
			memcpy(p + VARHDRSZ, views[i].ptr, views[i].len);
			total += VARHDRSZ + views[i].len;
		}
		else if (type->typlen == -2)
		{
			memcpy(p, views[i].ptr, views[i].len);
			p[views[i].len] = '\0';
			total += views[i].len + 1;
		}
		else
		{
			memcpy(p, views[i].ptr, views[i].len);
			total += views[i].len;
		}
		out[i] = PointerGetDatum(p);
	}
}
