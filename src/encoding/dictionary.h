/*-------------------------------------------------------------------------
 *
 * dictionary.h
 *	  Dictionary encoding of pass-by-reference values: distinct values plus
 *	  one integer code per value.
 *
 * IDENTIFICATION
 *	  src/encoding/dictionary.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_DICTIONARY_H
#define COLSTORE_DICTIONARY_H

#include "postgres.h"

#include "encoding/byref_values.h"

typedef struct DictPlan
{
	uint64		ndistinct;
	ByrefView  *entries;		/* distinct values, first-seen order */
	uint64	   *codes;			/* one code per value */
	uint64		size;			/* bytes dict_encode will append */
} DictPlan;

/* A dictionary payload as parsed (dict_parse): validated. */
typedef struct DictPayload
{
	uint64		ndistinct;
	ByrefPlain	entries;		/* the distinct values */
	IntStream	codes;			/* one code per value */
	uint64	   *codes_all;		/* codes kept by the parse, or NULL */
} DictPayload;

extern bool dict_build(const ChunkTypeInfo *type, const ByrefView *views,
					   uint64 n, uint64 limit, DictPlan *plan);
extern void dict_encode(EncBuf *buf, const ChunkTypeInfo *type,
						const DictPlan *plan, uint64 n);
extern void dict_free(DictPlan *plan);
extern bool dict_parse(ByteReader *r, const ChunkTypeInfo *type, uint64 n,
					   bool keep, DictPayload *dp, const char **detail);
extern void dict_decode(const ChunkTypeInfo *type, DictPayload *dp,
						Datum *out);
extern Size dict_build_index(const ChunkTypeInfo *type, DictPayload *dp);
extern Datum dict_get(const ChunkTypeInfo *type, const DictPayload *dp,
					  uint64 index);

#endif							/* COLSTORE_DICTIONARY_H */
