/*-------------------------------------------------------------------------
 *
 * fuzz_common.c
 *	  Shared parts of the fuzzing harnesses; see fuzz_common.h.
 *
 * IDENTIFICATION
 *	  fuzz/fuzz_common.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include "catalog/pg_class.h"
#include "catalog/pg_type_d.h"
#include "storage/smgr.h"

#include "fuzz_common.h"

/* The column types chunk harnesses decode as (an input byte picks one). */
const ChunkTypeInfo fuzz_types[FUZZ_NTYPES] = {
	{INT2OID, 2, true, TYPALIGN_SHORT},
	{INT4OID, 4, true, TYPALIGN_INT},
	{INT8OID, 8, true, TYPALIGN_DOUBLE},
	{CHAROID, 1, true, TYPALIGN_CHAR},
	{FLOAT8OID, 8, true, TYPALIGN_DOUBLE},
	{TEXTOID, -1, false, TYPALIGN_INT},
	{NUMERICOID, -1, false, TYPALIGN_INT},
	{NAMEOID, NAMEDATALEN, false, TYPALIGN_CHAR},
	{UUIDOID, 16, false, TYPALIGN_CHAR},
	{CSTRINGOID, -2, false, TYPALIGN_CHAR},
	{BYTEAOID, -1, false, TYPALIGN_INT},
	{BOXOID, 32, false, TYPALIGN_DOUBLE},
};

const char *const fuzz_type_names[FUZZ_NTYPES] = {
	"int2", "int4", "int8", "char", "float8", "text", "numeric", "name",
	"uuid", "cstring", "bytea", "box"
};

/* The relation every storage-level harness reads ("fuzz_table"). */
Relation
fuzz_relation(void)
{
	static RelationData rel;
	static FormData_pg_class form;
	static int	dummy_smgr;

	if (rel.rd_rel == NULL)
	{
		strcpy(NameStr(form.relname), "fuzz_table");
		form.relpersistence = RELPERSISTENCE_PERMANENT;
		rel.rd_rel = &form;
		rel.rd_id = 16384;
		rel.rd_node.spcNode = 1663;
		rel.rd_node.dbNode = 5;
		rel.rd_node.relNode = 16384;
		rel.rd_backend = InvalidBackendId;
		/* RelationGetSmgr must not open a file: smgrnblocks is emulated */
		rel.rd_smgr = (SMgrRelation) &dummy_smgr;
	}
	return &rel;
}

void
fuzz_fail(const char *target, const char *what)
{
	fprintf(stderr, "fuzz %s: check failed: %s\n", target, what);
	abort();
}

/*
 * fuzz_refusal_ok
 *		Called in PG_CATCH: accept the error if it is a deliberate refusal
 *		(see fuzz_common.h) that names the object, else abort.
 */
void
fuzz_refusal_ok(const char *target)
{
	bool		ok = false;

	if (fuzz_error_level == ERROR)
	{
		if (fuzz_error_code == ERRCODE_DATA_CORRUPTED)
			ok = strstr(fuzz_error_message, "\"fuzz_table\"") != NULL ||
				strstr(fuzz_error_message, "\"fuzz\"") != NULL ||
				strstr(fuzz_error_message, "relation fuzz") != NULL;
		else if (fuzz_error_code == ERRCODE_FEATURE_NOT_SUPPORTED)
			ok = strstr(fuzz_error_message, "storage format version") != NULL;
	}
	if (!ok)
	{
		char		state[6];
		int			code = fuzz_error_code;
		int			i;

		for (i = 0; i < 5; i++)
		{
			state[i] = PGUNSIXBIT(code);
			code >>= 6;
		}
		state[5] = '\0';
		fprintf(stderr, "fuzz %s: not a deliberate refusal: level %d, SQLSTATE %s: %s (%s)\n",
				target, fuzz_error_level, state, fuzz_error_message,
				fuzz_error_detail);
		abort();
	}
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz %s: refused: %s (%s)\n", target, fuzz_error_message,
				fuzz_error_detail);
	fuzz_error_code = 0;
	fuzz_error_level = 0;
}

/* Datum equality for the fuzz types (byte-wise, as DecodeChunk promises). */
bool
fuzz_datum_equal(const ChunkTypeInfo *type, Datum a, Datum b)
{
	const char *pa = DatumGetPointer(a);
	const char *pb = DatumGetPointer(b);

	if (type->typbyval)
		return a == b;
	if (type->typlen > 0)
		return memcmp(pa, pb, type->typlen) == 0;
	if (type->typlen == -2)
		return strcmp(pa, pb) == 0;
	return VARSIZE_ANY_EXHDR(pa) == VARSIZE_ANY_EXHDR(pb) &&
		memcmp(VARDATA_ANY(pa), VARDATA_ANY(pb), VARSIZE_ANY_EXHDR(pa)) == 0;
}

/* Read every byte of a decoded datum (so ASan checks its extent). */
uint64
fuzz_touch_datum(const ChunkTypeInfo *type, Datum d)
{
	const unsigned char *p = (const unsigned char *) DatumGetPointer(d);
	Size		len;
	uint64		h = 0;
	Size		i;

	if (type->typbyval)
		return (uint64) d;
	if (type->typlen > 0)
		len = type->typlen;
	else if (type->typlen == -2)
		len = strlen((const char *) p) + 1;
	else
	{
		if (VARATT_IS_EXTERNAL(p) || VARATT_IS_COMPRESSED(p))
			fuzz_fail("decoder", "decoded varlena is external or compressed");
		len = VARSIZE_ANY(p);
	}
	for (i = 0; i < len; i++)
		h = h * 31 + p[i];
	return h;
}

/* Write one corpus file (the seed generator). */
void
fuzz_write_file(const char *dir, const char *name, const void *data, Size len)
{
	char		path[MAXPGPATH];
	FILE	   *f;

	mkdir(dir, 0777);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0)
	{
		fprintf(stderr, "could not write %s\n", path);
		exit(1);
	}
}
