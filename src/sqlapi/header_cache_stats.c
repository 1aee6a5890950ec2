/*-------------------------------------------------------------------------
 *
 * header_cache_stats.c
 *	  colstore.header_cache_stats(): what the shared row group header cache
 *	  (storage/header_cache.h) holds, and how often this backend found
 *	  headers there.
 *
 * The hit and miss counts are the calling backend's own, since its server
 * start, so a test can tell whether its own scans were served from the
 * cache whatever other sessions do; the entries and bytes are the whole
 * cache's.  Without the cache (colstore not preloaded, or
 * colstore.header_cache_size = 0) size_bytes is 0 and so are the entries.
 *
 * IDENTIFICATION
 *	  src/sqlapi/header_cache_stats.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"

#include "storage/header_cache.h"

#define STATS_COLUMNS	5

PG_FUNCTION_INFO_V1(colstore_header_cache_stats);

Datum
colstore_header_cache_stats(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	HeaderCacheStats stats;
	Datum		values[STATS_COLUMNS];
	bool		nulls[STATS_COLUMNS];

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "unexpected result type of colstore.header_cache_stats()");
	desc = BlessTupleDesc(desc);
	HeaderCacheGetStats(&stats);
	memset(nulls, 0, sizeof(nulls));
	values[0] = Int64GetDatum(stats.backend_hits);
	values[1] = Int64GetDatum(stats.backend_misses);
	values[2] = Int64GetDatum(stats.entries);
	values[3] = Int64GetDatum(stats.used_bytes);
	values[4] = Int64GetDatum(stats.size_bytes);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}
