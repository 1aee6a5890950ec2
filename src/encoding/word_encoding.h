/*-------------------------------------------------------------------------
 *
 * word_encoding.h
 *	  Word encoding of variable-length values: a vocabulary of the words
 *	  the values are made of, and the words of each value as byte codes.
 *
 * IDENTIFICATION
 *	  src/encoding/word_encoding.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_WORD_ENCODING_H
#define COLSTORE_WORD_ENCODING_H

#include "postgres.h"

#include "encoding/byref_values.h"

/*
 * Largest total content of a chunk in the word encoding: the encoder does
 * not try it beyond, the parser refuses it (a few bytes of codes can name a
 * long word many times, so the decoded size is bounded here, not by the
 * image's size).
 */
#define WORDS_MAX_CONTENT	((uint64) 64 * 1024 * 1024)
/* Largest vocabulary (codes of one to three bytes). */
#define WORDS_MAX_VOCAB		32768

typedef struct WordPlan
{
	uint32		nvocab;
	ByrefView  *vocab;			/* the words, first-seen order */
	uint16	   *codes;			/* each value's words, then 0 */
	uint64		ntokens;		/* codes, the ends included */
	uint64		code_size;		/* bytes of the codes */
	uint64		size;			/* bytes word_encode will append */
} WordPlan;

/* A word payload as parsed (word_parse): validated. */
typedef struct WordPayload
{
	uint64		n;				/* values */
	uint32		nvocab;
	ByrefPlain	vocab;			/* the words */
	const uint8 *codes;			/* each value's codes, then a 0 */
	uint64		code_bytes;		/* bytes of the codes */
	uint64		content;		/* total content bytes of the n values */
	uint32	   *value_start;	/* random access: offset of each value's first
								 * code */
} WordPayload;

extern bool word_build(const ChunkTypeInfo *type, const ByrefView *views,
					   uint64 n, uint64 limit, WordPlan *plan);
extern void word_encode(EncBuf *buf, const ChunkTypeInfo *type,
						const WordPlan *plan, uint64 n);
extern void word_free(WordPlan *plan);
extern bool word_parse(ByteReader *r, const ChunkTypeInfo *type, uint64 n,
					   bool keep, WordPayload *wp, const char **detail);
extern void word_release(WordPayload *wp);
extern void word_decode(const ChunkTypeInfo *type, WordPayload *wp,
						Datum *out);
extern Size word_build_index(const ChunkTypeInfo *type, WordPayload *wp);
extern Datum word_get(const ChunkTypeInfo *type, const WordPayload *wp,
					  uint64 index);

#endif							/* COLSTORE_WORD_ENCODING_H */
