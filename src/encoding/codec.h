/*-------------------------------------------------------------------------
 *
 * codec.h
 *	  General-purpose compression of a byte buffer (none, pglz, lz4, zstd).
 *
 * IDENTIFICATION
 *	  src/encoding/codec.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_CODEC_H
#define COLSTORE_CODEC_H

#include "postgres.h"

#include "encoding/chunk_encoding.h"

extern bool codec_compress(ColstoreCodec codec, int level,
						   const char *src, Size srclen,
						   char **dst, Size *dstlen);
extern bool codec_compress_split(ColstoreCodec codec, int level,
								 const char *src, Size srclen, char **dst,
								 Size *dstlen);
extern bool codec_check_rawlen(ColstoreCodec codec,
							   const char *src, Size srclen, uint64 rawlen,
							   const char **detail);
extern bool codec_decompress(ColstoreCodec codec,
							 const char *src, Size srclen,
							 char *dst, Size rawlen,
							 const char **detail);

#endif							/* COLSTORE_CODEC_H */
