/*-------------------------------------------------------------------------
 *
 * codec.c
 *	  General-purpose compression of a byte buffer (none, pglz, lz4, zstd).
 *
 * The chunk encoder hands the encoded payload of a chunk to codec_compress,
 * which returns a compressed copy only if it is strictly smaller than the
 * input; otherwise the chunk is stored uncompressed.  The compressed form is
 * the codec's own raw format (pglz stream, LZ4 block, one zstd frame); the
 * uncompressed length is recorded by the caller in the chunk header, and
 * codec_decompress insists on reproducing exactly that many bytes, so a
 * corrupt stream is reported instead of being trusted.  pglz and lz4 take
 * int lengths, so inputs beyond their limits are simply not compressed.
 * zstd contexts are created once per backend and reused, which avoids a
 * large malloc/free pair per chunk.
 *
 * IDENTIFICATION
 *	  src/encoding/codec.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <lz4.h>
#include <zstd.h>

#include "common/pg_lzcompress.h"
#include "utils/memutils.h"

#include "encoding/codec.h"

/* pglz strategy that always tries hard: chunks are often highly regular. */
static const PGLZ_Strategy colstore_pglz_strategy = {
	32,							/* min_input_size */
	INT_MAX,					/* max_input_size */
	0,							/* min_comp_rate */
	INT_MAX,					/* first_success_by */
	128,						/* match_size_good */
	10							/* match_size_drop */
};

static ZSTD_CCtx *zstd_cctx = NULL;
static ZSTD_DCtx *zstd_dctx = NULL;

/*
 * zstd's block splitter (ZSTD_c_useBlockSplitter, an experimental parameter
 * of zstd 1.5, by number: its name needs ZSTD_STATIC_LINKING_ONLY).  It
 * cuts a block where the data's statistics change, so that each part gets
 * its own entropy tables; the frame stays a standard one.  An older zstd
 * refuses the parameter and compresses without it.
 */
#define COLSTORE_ZSTD_C_BLOCK_SPLITTER	((ZSTD_cParameter) 1010)
#define COLSTORE_ZSTD_PS_ENABLE			1

static bool codec_compress_internal(ColstoreCodec codec, int level,
									bool split, const char *src,
									Size srclen, char **dst, Size *dstlen);

/*
 * codec_compress
 *		Compress src[0..srclen-1] with codec at level (zstd only).
 *
 * Returns true and sets *dst (palloc'd, huge allowed) and *dstlen when the
 * compressed form is strictly smaller than srclen; returns false when the
 * codec is NONE, the input is too large for the codec, or there is no gain.
 */
bool
codec_compress(ColstoreCodec codec, int level, const char *src, Size srclen,
			   char **dst, Size *dstlen)
{
	return codec_compress_internal(codec, level, false, src, srclen, dst,
								   dstlen);
}

/*
 * codec_compress_split
 *		codec_compress for a region whose parts differ in kind (the word
 *		encoding's vocabulary, counts and byte codes): zstd splits its
 *		blocks where their statistics change (see above).  Other codecs
 *		compress as codec_compress does.
 */
bool
codec_compress_split(ColstoreCodec codec, int level, const char *src,
					 Size srclen, char **dst, Size *dstlen)
{
	return codec_compress_internal(codec, level, true, src, srclen, dst,
								   dstlen);
}

static bool
codec_compress_internal(ColstoreCodec codec, int level, bool split,
						const char *src, Size srclen, char **dst, Size *dstlen)
{
	char	   *out;
	Size		outlen = 0;

	if (srclen == 0)
		return false;

	switch (codec)
	{
		case COLSTORE_CODEC_NONE:
			return false;

		case COLSTORE_CODEC_PGLZ:
			{
				int32		r;

				if (srclen > (Size) (PG_INT32_MAX - 4))
					return false;
				out = MemoryContextAllocHuge(CurrentMemoryContext,
											 PGLZ_MAX_OUTPUT(srclen));
				r = pglz_compress(src, (int32) srclen, out,
								  &colstore_pglz_strategy);
				if (r < 0)
				{
					pfree(out);
					return false;
				}
				outlen = (Size) r;
				break;
			}

		case COLSTORE_CODEC_LZ4:
			{
				int			bound;
				int			r;

				if (srclen > (Size) LZ4_MAX_INPUT_SIZE)
					return false;
				bound = LZ4_compressBound((int) srclen);
				out = MemoryContextAllocHuge(CurrentMemoryContext, bound);
				r = LZ4_compress_default(src, out, (int) srclen, bound);
				if (r <= 0)
				{
					pfree(out);
					return false;
				}
				outlen = (Size) r;
				break;
			}

		case COLSTORE_CODEC_ZSTD:
			{
				size_t		bound = ZSTD_compressBound(srclen);
				size_t		r;

				if (ZSTD_isError(bound) || bound > MaxAllocHugeSize)
					return false;
				if (zstd_cctx == NULL)
				{
					zstd_cctx = ZSTD_createCCtx();
					if (zstd_cctx == NULL)
						ereport(ERROR,
								(errcode(ERRCODE_OUT_OF_MEMORY),
								 errmsg("out of memory"),
								 errdetail("Could not create zstd compression context.")));
				}
				if (level < 1)
					level = 1;
				if (level > ZSTD_maxCLevel())
					level = ZSTD_maxCLevel();
				out = MemoryContextAllocHuge(CurrentMemoryContext, bound);
				if (split)
				{
					ZSTD_CCtx_reset(zstd_cctx, ZSTD_reset_session_and_parameters);
					r = ZSTD_CCtx_setParameter(zstd_cctx, ZSTD_c_compressionLevel, level);
					if (!ZSTD_isError(r))
						(void) ZSTD_CCtx_setParameter(zstd_cctx,
													  COLSTORE_ZSTD_C_BLOCK_SPLITTER,
													  COLSTORE_ZSTD_PS_ENABLE);
					if (!ZSTD_isError(r))
						r = ZSTD_compress2(zstd_cctx, out, bound, src, srclen);
					ZSTD_CCtx_reset(zstd_cctx, ZSTD_reset_session_and_parameters);
				}
				else
					r = ZSTD_compressCCtx(zstd_cctx, out, bound, src, srclen, level);
				if (ZSTD_isError(r))
				{
					pfree(out);
					return false;
				}
				outlen = r;
				break;
			}

		default:
			return false;
	}

	if (outlen >= srclen)
	{
		pfree(out);
		return false;
	}
	*dst = out;
	*dstlen = outlen;
	return true;
}

/*
 * codec_check_rawlen
 *		Check, before allocating anything, that srclen compressed bytes can
 *		plausibly decompress to rawlen bytes.
 *
 * Uses each codec's maximum expansion ratio (pglz: a control byte and eight
 * 3-byte tags yield at most 8 * 273 bytes; lz4: one extra length byte per
 * 255 bytes of match; zstd: the frame header must record exactly rawlen).
 * Returns false with *detail set if not, so that a corrupt length cannot
 * trigger a huge allocation.
 */
bool
codec_check_rawlen(ColstoreCodec codec, const char *src, Size srclen,
				   uint64 rawlen, const char **detail)
{
	uint64		limit;

	switch (codec)
	{
		case COLSTORE_CODEC_NONE:
			limit = srclen;
			break;
		case COLSTORE_CODEC_PGLZ:
			limit = (uint64) srclen * 88 + 8 * 273;
			break;
		case COLSTORE_CODEC_LZ4:
			limit = (uint64) srclen * 256 + 64;
			break;
		case COLSTORE_CODEC_ZSTD:
			{
				unsigned long long fsize = ZSTD_getFrameContentSize(src, srclen);

				if (fsize == ZSTD_CONTENTSIZE_ERROR ||
					fsize == ZSTD_CONTENTSIZE_UNKNOWN)
				{
					*detail = "invalid zstd frame";
					return false;
				}
				if (fsize != (unsigned long long) rawlen)
				{
					*detail = "decompressed length does not match";
					return false;
				}
				/* a zstd block of 128 kB can be stored in 4 bytes (RLE) */
				limit = (uint64) srclen * 32768 + 131072;
				break;
			}
		default:
			*detail = "unknown codec";
			return false;
	}
	if (rawlen > limit || rawlen > (uint64) MaxAllocHugeSize)
	{
		*detail = "decompressed length out of range";
		return false;
	}
	return true;
}

/*
 * codec_decompress
 *		Decompress src[0..srclen-1] into dst, which has room for rawlen bytes.
 *
 * Returns true only if the stream is well-formed and decompresses to
 * exactly rawlen bytes; otherwise returns false with *detail set.  Never
 * writes past dst[rawlen-1] nor reads past src[srclen-1].
 */
bool
codec_decompress(ColstoreCodec codec, const char *src, Size srclen,
				 char *dst, Size rawlen, const char **detail)
{
	switch (codec)
	{
		case COLSTORE_CODEC_NONE:
			if (srclen != rawlen)
			{
				*detail = "decompressed length does not match";
				return false;
			}
			memcpy(dst, src, rawlen);
			return true;

		case COLSTORE_CODEC_PGLZ:
			{
				int32		r;

				if (srclen > (Size) PG_INT32_MAX || rawlen > (Size) PG_INT32_MAX)
				{
					*detail = "compressed length out of range";
					return false;
				}
				r = pglz_decompress(src, (int32) srclen, dst, (int32) rawlen, true);
				if (r < 0 || (Size) r != rawlen)
				{
					*detail = "decompressed length does not match";
					return false;
				}
				return true;
			}

		case COLSTORE_CODEC_LZ4:
			{
				int			r;

				if (srclen > (Size) INT_MAX || rawlen > (Size) INT_MAX)
				{
					*detail = "compressed length out of range";
					return false;
				}
				r = LZ4_decompress_safe(src, dst, (int) srclen, (int) rawlen);
				if (r < 0 || (Size) r != rawlen)
				{
					*detail = "decompressed length does not match";
					return false;
				}
				return true;
			}

		case COLSTORE_CODEC_ZSTD:
			{
				unsigned long long fsize;
				size_t		r;

				fsize = ZSTD_getFrameContentSize(src, srclen);
				if (fsize == ZSTD_CONTENTSIZE_ERROR ||
					fsize == ZSTD_CONTENTSIZE_UNKNOWN)
				{
					*detail = "invalid zstd frame";
					return false;
				}
				if (fsize != (unsigned long long) rawlen)
				{
					*detail = "decompressed length does not match";
					return false;
				}
				if (ZSTD_findFrameCompressedSize(src, srclen) != srclen)
				{
					*detail = "invalid zstd frame";
					return false;
				}
				if (zstd_dctx == NULL)
				{
					zstd_dctx = ZSTD_createDCtx();
					if (zstd_dctx == NULL)
						ereport(ERROR,
								(errcode(ERRCODE_OUT_OF_MEMORY),
								 errmsg("out of memory"),
								 errdetail("Could not create zstd decompression context.")));
				}
				r = ZSTD_decompressDCtx(zstd_dctx, dst, rawlen, src, srclen);
				if (ZSTD_isError(r) || r != rawlen)
				{
					*detail = "decompressed length does not match";
					return false;
				}
				return true;
			}

		default:
			*detail = "unknown codec";
			return false;
	}
}
