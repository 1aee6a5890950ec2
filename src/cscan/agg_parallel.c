/*-------------------------------------------------------------------------
 *
 * agg_parallel.c
 *	  Parallel ColstoreAgg: participants fold their share of the table, and
 *	  the last one to finish merges everybody's groups and returns them.
 *
 * Under a Gather, every participant (the leader too, unless
 * parallel_leader_participation is off) runs ColstoreAgg over the table
 * AM's parallel scan, which hands out whole row groups and delta pages, so
 * each row is folded by exactly one participant.  The participants then
 * meet in the DSM segment (AggShared):
 *
 *	1. Before scanning, a participant attaches (attached++), unless the
 *	   results were already taken (emitted): then it returns nothing.
 *	2. After its scan, it serializes its groups (keys and aggregate states)
 *	   into the query's DSA area, links them into the shared list, adds its
 *	   scan counters, and counts itself finished.  If then finished ==
 *	   attached and nobody emitted yet, it is the last: it sets emitted,
 *	   merges every other participant's groups into its own and returns all
 *	   groups (without GROUP BY, the one row).  The others return nothing.
 *
 * The last participant to finish always finds finished == attached:
 * everybody who attached before it has finished, and nobody attaches
 * after emitted is set.  A participant finishes only when the parallel
 * scan has handed out everything, so by then every row has been folded by
 * a participant that attached.  Gather passes the one participant's rows
 * through.  Merging adds counts and exact sums and combines minima and
 * maxima, so the results are the serial node's.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_parallel.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tableam.h"
#include "storage/spin.h"
#include "utils/datum.h"

#include "cscan/agg_parallel.h"

/* One participant's groups, serialized, in the DSA area. */
typedef struct AggPartial
{
	dsa_pointer next;			/* the next participant's, or invalid */
	Size		len;			/* bytes of data */
	char		data[FLEXIBLE_ARRAY_MEMBER];
} AggPartial;

/* In the DSM segment; the table AM's parallel scan descriptor follows. */
struct AggShared
{
	slock_t		mutex;
	int			attached;		/* participants that began folding */
	int			finished;		/* of those, the ones that published */
	bool		emitted;		/* a participant took the results */
	dsa_pointer partials;		/* published groups, a list */
	ColstoreScanCounters counters;	/* all participants' scans */
};

#define AGG_SHARED_SIZE	MAXALIGN(sizeof(AggShared))

/* Bytes of DSM the node needs for a parallel scan of rel. */
Size
AggParallelEstimate(Relation rel, Snapshot snapshot)
{
	return add_size(AGG_SHARED_SIZE, table_parallelscan_estimate(rel, snapshot));
}

/* The table AM's parallel scan descriptor in the segment. */
ParallelTableScanDesc
AggParallelScan(AggShared *shared)
{
	return (ParallelTableScanDesc) ((char *) shared + AGG_SHARED_SIZE);
}

static void
ResetShared(AggShared *shared)
{
	shared->attached = 0;
	shared->finished = 0;
	shared->emitted = false;
	shared->partials = InvalidDsaPointer;
	memset(&shared->counters, 0, sizeof(ColstoreScanCounters));
}

/* Set up the segment (the leader, before workers start). */
void
AggParallelInitialize(AggShared *shared, Relation rel, Snapshot snapshot)
{
	SpinLockInit(&shared->mutex);
	ResetShared(shared);
	table_parallelscan_initialize(rel, AggParallelScan(shared), snapshot);
}

/* Before a rescan: forget the last run's groups (freed from dsa). */
void
AggParallelReinitialize(AggShared *shared, Relation rel, dsa_area *dsa)
{
	dsa_pointer p = shared->partials;

	while (DsaPointerIsValid(p) && dsa != NULL)
	{
		dsa_pointer next = ((AggPartial *) dsa_get_address(dsa, p))->next;

		dsa_free(dsa, p);
		p = next;
	}
	ResetShared(shared);
	table_parallelscan_reinitialize(rel, AggParallelScan(shared));
}

/*
 * AggParallelAttach
 *		Join the participants before scanning; false if the results were
 *		taken already (then scan nothing and return nothing).
 */
bool
AggParallelAttach(AggShared *shared)
{
	bool		joined;

	SpinLockAcquire(&shared->mutex);
	joined = !shared->emitted;
	if (joined)
		shared->attached++;
	SpinLockRelease(&shared->mutex);
	return joined;
}

/* Serialize every group: count, then per group keys and states. */
static void
SerializeGroups(GroupTable *groups, AggFold *aggs, int naggs, int nkeys,
				StringInfo buf)
{
	uint32		ngroups = groups != NULL ? GroupTableSize(groups) : 1;
	uint32		g;
	int			k;
	int			a;

	appendBinaryStringInfo(buf, (const char *) &ngroups, sizeof(uint32));
	for (g = 0; g < ngroups; g++)
	{
		for (k = 0; k < nkeys; k++)
		{
			bool		isnull;
			Datum		value = GroupTableKey(groups, g, k, &isnull);
			bool		byval = GroupTableKeyByVal(groups, k);
			uint32		len = isnull ? 0 : byval ? sizeof(Datum) :
				VARSIZE_ANY(DatumGetPointer(value));

			appendBinaryStringInfo(buf, (const char *) &isnull, sizeof(bool));
			if (isnull)
				continue;
			appendBinaryStringInfo(buf, (const char *) &len, sizeof(uint32));
			appendBinaryStringInfo(buf, byval ? (const char *) &value :
								   (const char *) DatumGetPointer(value), len);
		}
		for (a = 0; a < naggs; a++)
			AggFoldSerialize(&aggs[a], g, buf);
	}
}

/* Merge one participant's serialized groups into groups and aggs. */
static void
MergeGroups(const char *p, GroupTable *groups, AggFold *aggs, int naggs, int nkeys)
{
	uint32		ngroups;
	uint32		i;
	int			k;
	int			a;

	memcpy(&ngroups, p, sizeof(uint32));
	p += sizeof(uint32);
	for (i = 0; i < ngroups; i++)
	{
		Datum		values[INDEX_MAX_KEYS];
		bool		nulls[INDEX_MAX_KEYS];
		Datum	   *value_ptrs[INDEX_MAX_KEYS];
		bool	   *null_ptrs[INDEX_MAX_KEYS];
		uint32		group = 0;

		for (k = 0; k < nkeys; k++)
		{
			uint32		len;

			memcpy(&nulls[k], p, sizeof(bool));
			p += sizeof(bool);
			values[k] = (Datum) 0;
			if (!nulls[k])
			{
				memcpy(&len, p, sizeof(uint32));
				p += sizeof(uint32);
				if (GroupTableKeyByVal(groups, k))
					memcpy(&values[k], p, sizeof(Datum));
				else
				{
					/* copied: the bytes in the segment are not aligned */
					char	   *copy = palloc(len);

					memcpy(copy, p, len);
					values[k] = PointerGetDatum(copy);
				}
				p += len;
			}
			value_ptrs[k] = &values[k];
			null_ptrs[k] = &nulls[k];
		}
		if (groups != NULL)
			GroupTableAssign(groups, 1, value_ptrs, null_ptrs, NULL, &group);
		for (a = 0; a < naggs; a++)
			AggFoldMerge(&aggs[a], group, &p);
	}
}

/*
 * AggParallelFinish
 *		Publish this participant's groups (groups, NULL without GROUP BY, and
 *		the aggregates' states) and scan counters.  Returns true if it is the
 *		last participant: then everybody else's groups have been merged into
 *		groups and aggs, and it returns them all; false: it returns nothing.
 */
bool
AggParallelFinish(AggShared *shared, dsa_area *dsa, GroupTable *groups,
				  AggFold *aggs, int naggs, const ColstoreScanCounters *counters)
{
	int			nkeys = groups != NULL ? GroupTableNumKeys(groups) : 0;
	StringInfoData buf;
	dsa_pointer mine;
	AggPartial *partial;
	bool		last;
	dsa_pointer p;

	/*
	 * Without a DSA area the parallel context got no DSM segment, so no
	 * worker runs and this (the leader) is the only participant: nothing to
	 * publish.
	 */
	mine = InvalidDsaPointer;
	if (dsa != NULL)
	{
		initStringInfo(&buf);
		SerializeGroups(groups, aggs, naggs, nkeys, &buf);
		mine = dsa_allocate(dsa, offsetof(AggPartial, data) + buf.len);
		partial = dsa_get_address(dsa, mine);
		partial->len = buf.len;
		memcpy(partial->data, buf.data, buf.len);
		pfree(buf.data);
	}

	SpinLockAcquire(&shared->mutex);
	if (dsa != NULL)
	{
		partial->next = shared->partials;
		shared->partials = mine;
	}
	shared->counters.groups_read += counters->groups_read;
	shared->counters.groups_skipped += counters->groups_skipped;
	shared->counters.chunks_read += counters->chunks_read;
	shared->counters.chunks_skipped += counters->chunks_skipped;
	shared->finished++;
	last = shared->finished == shared->attached && !shared->emitted;
	if (last)
		shared->emitted = true;
	p = shared->partials;
	SpinLockRelease(&shared->mutex);

	if (!last)
		return false;
	/* nobody publishes any more: the list is complete and stable */
	for (; dsa != NULL && DsaPointerIsValid(p); p = partial->next)
	{
		partial = dsa_get_address(dsa, p);
		if (p != mine)
			MergeGroups(partial->data, groups, aggs, naggs, nkeys);
	}
	return true;
}

/* Add the scan counters of all participants (after they finished). */
void
AggParallelAddCounters(AggShared *shared, ColstoreScanCounters *totals)
{
	SpinLockAcquire(&shared->mutex);
	totals->groups_read += shared->counters.groups_read;
	totals->groups_skipped += shared->counters.groups_skipped;
	totals->chunks_read += shared->counters.chunks_read;
	totals->chunks_skipped += shared->counters.chunks_skipped;
	memset(&shared->counters, 0, sizeof(ColstoreScanCounters));
	SpinLockRelease(&shared->mutex);
}
