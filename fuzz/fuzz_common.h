/*-------------------------------------------------------------------------
 *
 * fuzz_common.h
 *	  What the fuzzing harnesses share: the emulated backend's state
 *	  (pg_stubs.c), the refusal check, a fake relation and the column types
 *	  the chunk decoders are fed with.
 *
 * Every harness runs one input inside FUZZ_BEGIN / FUZZ_END: a fresh
 * memory context that is deleted afterwards (so nothing leaks between
 * inputs), and a PG_TRY whose PG_CATCH accepts an ERROR only if its
 * errcode is a deliberate one (fuzz_refusal_ok): ERRCODE_DATA_CORRUPTED,
 * or ERRCODE_FEATURE_NOT_SUPPORTED for a newer storage format version.
 * Anything else, in particular an elog(ERROR) (XX000, "cannot happen"),
 * aborts the process, which the fuzzer reports as a crash with the input.
 *
 * IDENTIFICATION
 *	  fuzz/fuzz_common.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include "postgres.h"

#include <stdio.h>
#include <stdlib.h>

#include "encoding/chunk_encoding.h"
#include "storage/rowgroup_format.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* pg_stubs.c */
extern int	fuzz_error_code;
extern int	fuzz_error_level;
extern char fuzz_error_message[1024];
extern char fuzz_error_detail[1024];
extern char *fuzz_pages;
extern BlockNumber fuzz_npages;
extern const char *fuzz_stream;
extern Size fuzz_stream_len;

/* fuzz_common.c */
extern Relation fuzz_relation(void);
extern void fuzz_refusal_ok(const char *target);
extern void fuzz_fail(const char *target, const char *what);
extern void fuzz_write_file(const char *dir, const char *name,
							const void *data, Size len);

#define FUZZ_NTYPES 12
extern const ChunkTypeInfo fuzz_types[FUZZ_NTYPES];
extern const char *const fuzz_type_names[FUZZ_NTYPES];
extern bool fuzz_datum_equal(const ChunkTypeInfo *type, Datum a, Datum b);
extern uint64 fuzz_touch_datum(const ChunkTypeInfo *type, Datum d);

/* Run one input in a fresh memory context, catching deliberate refusals. */
#define FUZZ_BEGIN(target) \
	do { \
		const char *fuzz_target_ = (target); \
		MemoryContext fuzz_cxt_ = AllocSetContextCreate(TopMemoryContext, \
														"fuzz input", \
														ALLOCSET_DEFAULT_SIZES); \
		MemoryContextSwitchTo(fuzz_cxt_); \
		PG_TRY(); \
		{

#define FUZZ_END() \
		} \
		PG_CATCH(); \
		{ \
			fuzz_refusal_ok(fuzz_target_); \
		} \
		PG_END_TRY(); \
		MemoryContextSwitchTo(TopMemoryContext); \
		MemoryContextDelete(fuzz_cxt_); \
	} while (0)

#define FUZZ_ASSERT(cond, what) \
	do { \
		if (!(cond)) \
			fuzz_fail(fuzz_target_, (what)); \
	} while (0)

#endif							/* FUZZ_COMMON_H */
