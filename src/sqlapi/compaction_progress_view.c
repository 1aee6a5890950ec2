/*-------------------------------------------------------------------------
 *
 * compaction_progress_view.c
 *	  colstore.compaction_progress(): one row per running compaction, the
 *	  function behind the colstore.compaction_progress view.
 *
 * As pg_stat_progress_vacuum does, every role sees which backends compact
 * which tables and in what phase; the counters only members of the
 * compacting backend's role and of pg_read_all_stats see (the worker runs
 * as the bootstrap superuser), others get NULLs.
 *
 * IDENTIFICATION
 *	  src/sqlapi/compaction_progress_view.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_authid.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "storage/compaction_progress.h"

#define PROGRESS_COLUMNS	(7 + COMPACTION_NCOUNTERS)

PG_FUNCTION_INFO_V1(colstore_compaction_progress);

Datum
colstore_compaction_progress(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	CompactionProgressEntry *entries;
	int			n;
	int			i;

	InitMaterializedSRF(fcinfo, 0);
	n = CompactionProgressCopy(&entries);
	for (i = 0; i < n; i++)
	{
		CompactionProgressEntry *e = &entries[i];
		Datum		values[PROGRESS_COLUMNS];
		bool		nulls[PROGRESS_COLUMNS];
		bool		may_see = has_privs_of_role(GetUserId(), e->userid) ||
			has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_STATS);
		int			c;

		memset(nulls, 0, sizeof(nulls));
		values[0] = Int32GetDatum(e->pid);
		values[1] = ObjectIdGetDatum(e->dbid);
		values[2] = ObjectIdGetDatum(e->relid);
		values[3] = CStringGetTextDatum(e->command == COMPACTION_WORKER ?
										"worker" : "compact");
		values[4] = CStringGetTextDatum(CompactionPhaseName(e->phase));
		values[5] = Int32GetDatum(e->round);
		values[6] = TimestampTzGetDatum(e->started);
		for (c = 0; c < COMPACTION_NCOUNTERS; c++)
		{
			values[7 + c] = Int64GetDatum(e->counters[c]);
			nulls[7 + c] = !may_see;
		}
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
