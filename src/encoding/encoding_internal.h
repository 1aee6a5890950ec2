/*-------------------------------------------------------------------------
 *
 * encoding_internal.h
 *	  Growable output buffer and bounds-checked reader shared by the
 *	  chunk encoders.
 *
 * Encoders append to an EncBuf, which grows with repalloc_huge so that
 * images above 1 GB work.  Parsers read through a ByteReader that checks
 * every access against the end of the input and reports failure instead of
 * reading past it; all parsers are written so that a false return simply
 * propagates up to the chunk parser shared by DecodeChunk and
 * ChunkReaderOpen (chunk_parse.h).  Multi-byte fields are stored in native byte
 * order (like the rest of PostgreSQL's on-disk data) and accessed with
 * memcpy, so no alignment is assumed.
 *
 * IDENTIFICATION
 *	  src/encoding/encoding_internal.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_ENCODING_INTERNAL_H
#define COLSTORE_ENCODING_INTERNAL_H

#include "postgres.h"

#include "utils/memutils.h"

/* Growable byte buffer in CurrentMemoryContext. */
typedef struct EncBuf
{
	char	   *data;
	Size		len;
	Size		cap;
} EncBuf;

static inline void
encbuf_init(EncBuf *buf, Size initial)
{
	if (initial < 64)
		initial = 64;
	buf->data = MemoryContextAllocHuge(CurrentMemoryContext, initial);
	buf->len = 0;
	buf->cap = initial;
}

/* Make room for extra more bytes; returns where they go. */
static inline char *
encbuf_reserve(EncBuf *buf, Size extra)
{
	if (extra > MaxAllocHugeSize - buf->len)
		elog(ERROR, "colstore chunk image too large");
	if (buf->len + extra > buf->cap)
	{
		Size		newcap = Max(buf->cap * 2, buf->len + extra);

		if (newcap > MaxAllocHugeSize)
			newcap = MaxAllocHugeSize;
		buf->data = repalloc_huge(buf->data, newcap);
		buf->cap = newcap;
	}
	return buf->data + buf->len;
}

static inline void
encbuf_append(EncBuf *buf, const void *src, Size n)
{
	if (n == 0)
		return;
	memcpy(encbuf_reserve(buf, n), src, n);
	buf->len += n;
}

static inline void
encbuf_u8(EncBuf *buf, uint8 v)
{
	encbuf_append(buf, &v, 1);
}

static inline void
encbuf_u16(EncBuf *buf, uint16 v)
{
	encbuf_append(buf, &v, 2);
}

static inline void
encbuf_u32(EncBuf *buf, uint32 v)
{
	encbuf_append(buf, &v, 4);
}

static inline void
encbuf_u64(EncBuf *buf, uint64 v)
{
	encbuf_append(buf, &v, 8);
}

static inline void
encbuf_free(EncBuf *buf)
{
	if (buf->data)
		pfree(buf->data);
	buf->data = NULL;
	buf->len = buf->cap = 0;
}

/* Bounds-checked reader over an untrusted byte range. */
typedef struct ByteReader
{
	const uint8 *data;
	Size		len;
	Size		pos;
} ByteReader;

static inline void
reader_init(ByteReader *r, const char *data, Size len)
{
	r->data = (const uint8 *) data;
	r->len = len;
	r->pos = 0;
}

static inline Size
reader_remaining(const ByteReader *r)
{
	return r->len - r->pos;
}

/* Return a pointer to the next n bytes and skip them, or NULL. */
static inline const uint8 *
reader_take(ByteReader *r, uint64 n)
{
	const uint8 *p;

	if (n > (uint64) (r->len - r->pos))
		return NULL;
	p = r->data + r->pos;
	r->pos += (Size) n;
	return p;
}

static inline bool
reader_u8(ByteReader *r, uint8 *v)
{
	const uint8 *p = reader_take(r, 1);

	if (p == NULL)
		return false;
	*v = *p;
	return true;
}

static inline bool
reader_u16(ByteReader *r, uint16 *v)
{
	const uint8 *p = reader_take(r, 2);

	if (p == NULL)
		return false;
	memcpy(v, p, 2);
	return true;
}

static inline bool
reader_u32(ByteReader *r, uint32 *v)
{
	const uint8 *p = reader_take(r, 4);

	if (p == NULL)
		return false;
	memcpy(v, p, 4);
	return true;
}

static inline bool
reader_u64(ByteReader *r, uint64 *v)
{
	const uint8 *p = reader_take(r, 8);

	if (p == NULL)
		return false;
	memcpy(v, p, 8);
	return true;
}

/* Allocation helpers for scratch arrays of n elements (huge allowed). */
static inline void *
alloc_array(uint64 n, Size elsize)
{
	if (n == 0)
		n = 1;
	if (n > MaxAllocHugeSize / elsize)
		elog(ERROR, "colstore chunk array too large");
	return MemoryContextAllocHuge(CurrentMemoryContext, (Size) n * elsize);
}

#endif							/* COLSTORE_ENCODING_INTERNAL_H */
