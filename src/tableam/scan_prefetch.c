/*-------------------------------------------------------------------------
 *
 * scan_prefetch.c
 *	  What a forward sequential scan tells the page prefetcher
 *	  (storage/page_prefetch.h) it will read.
 *
 * Sequential scans (SO_TYPE_SEQSCAN: the executor's, the custom scans',
 * index builds' and rewrites') get a prefetcher; the pages they read for
 * row group headers, chunk images and delta pages go through it.  As a
 * forward walk claims a unit, it queues:
 *
 *	- the unit's first pages: a row group's header (unless the shared header
 *	  cache has it: storage/header_cache.h), or the delta page;
 *	- once a row group's header is read, the chunk images it will decode:
 *	  the chunks the chunk filter does not rule out, of the columns it will
 *	  read, chunk after chunk;
 *	- for serial scans, the first pages of the next units, up to
 *	  SCAN_PREFETCH_AHEAD units and up to the next row group, whose chunks
 *	  come before the units after it (parallel participants cannot know
 *	  which unit they claim next).
 *
 * Which columns a scan reads is known ahead only for the custom scan's
 * columns without a row filter; otherwise it is learned: a column is
 * queued for a row group if the scan decoded it in every chunk it read of
 * the last row group it read chunks of, in the order the scan first read
 * them there (ColstoreAgg and row filters read the columns of their groups
 * and conditions first).  A column read only now and then (rows a row
 * filter rarely keeps) is read when needed, not ahead.  The queue is a hint
 * (page_prefetch.h): a wrong guess, or a scan ended early (LIMIT), costs
 * reads of pages not used, never a result.  Rescans, backward steps and a
 * walk returning to an earlier unit (merge join's restore) drop the queue.
 *
 * IDENTIFICATION
 *	  src/tableam/scan_prefetch.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tableam.h"
#include "utils/rel.h"

#include "storage/header_cache.h"
#include "storage/page_prefetch.h"
#include "storage/rowgroup_reader.h"
#include "tableam/scan_engine_internal.h"

/* later units whose first pages a serial scan queues ahead */
#define SCAN_PREFETCH_AHEAD		32

/*
 * ScanPrefetchBegin
 *		Give a sequential scan its prefetcher, in CurrentMemoryContext (the
 *		descriptor's).  Other scans read directly.
 */
void
ScanPrefetchBegin(ColstoreScanDesc s)
{
	s->prefetch = NULL;
	s->pf_fed = -1;
	s->pf_stop = -1;
	s->pf_claimed = -1;
	s->pf_natts = RelationGetDescr(s->rs_base.rs_rd)->natts;
	s->pf_col_reads = palloc0(sizeof(int) * Max(s->pf_natts, 1));
	s->pf_first_read = palloc0(sizeof(int) * Max(s->pf_natts, 1));
	s->pf_order = palloc0(sizeof(int) * Max(s->pf_natts, 1));
	s->pf_npredict = 0;
	s->pf_nread = 0;
	s->pf_learned = false;
	if (s->rs_base.rs_flags & SO_TYPE_SEQSCAN)
		s->prefetch = PagePrefetchBegin(s->rs_base.rs_rd, NULL, false);
}

/*
 * Drop the queue and the pages read ahead (rescans, turns, positions); new
 * pages of the relation may be queued from now on.
 */
void
ScanPrefetchReset(ColstoreScanDesc s)
{
	if (s->prefetch == NULL)
		return;
	PagePrefetchReset(s->prefetch);
	s->pf_fed = -1;
	s->pf_stop = -1;
	s->pf_claimed = -1;
}

/* Release everything read ahead and the prefetcher (scan_end). */
void
ScanPrefetchEnd(ColstoreScanDesc s)
{
	if (s->prefetch != NULL)
		PagePrefetchEnd(s->prefetch);
	s->prefetch = NULL;
	pfree(s->pf_col_reads);
	pfree(s->pf_first_read);
	pfree(s->pf_order);
}

/*
 * The column att of the current row group was decoded for one chunk; the
 * order of the columns' first reads in the group is the order they are
 * queued in for the next one.
 */
void
ScanPrefetchNoteColumn(ColstoreScanDesc s, int att)
{
	if (att >= s->pf_natts)
		return;
	if (s->pf_col_reads[att]++ == 0)
		s->pf_first_read[att] = s->pf_nread++;
}

/* Queue the first pages of unit i, once. */
static void
QueueUnit(ColstoreScanDesc s, int i)
{
	const ScanGroup *g = &s->groups[i];

	if (i <= s->pf_fed)
		return;
	s->pf_fed = i;
	if (g->is_delta)
		PagePrefetchQueue(s->prefetch, g->entry.rg_header.sp_block);
	else if (!HeaderCacheContains(s->rs_base.rs_rd, s->identity, &g->entry))
		PagePrefetchQueueStream(s->prefetch, g->entry.rg_header,
								g->entry.rg_header_len);
}

/*
 * ScanPrefetchUnit
 *		A forward walk is about to open unit i (ScanOpenGroup): queue its
 *		first pages, unless queued already.
 */
void
ScanPrefetchUnit(ColstoreScanDesc s, int i)
{
	if (s->prefetch == NULL)
		return;
	if (i <= s->pf_claimed)
		ScanPrefetchReset(s);	/* back to an earlier unit: not what is queued */
	s->pf_claimed = i;
	QueueUnit(s, i);
}

/*
 * Decide, from what the scan decoded in the row group it read chunks of
 * last, which columns to queue for the next one, in which order (pf_order),
 * and start
 * counting afresh.
 */
static void
LearnColumns(ColstoreScanDesc s)
{
	uint64		chunks = s->counters.chunks_read - s->pf_chunks_at_open;
	int			att;

	if (chunks > 0)
	{
		int			n = 0;
		int			i;

		/* in the order of their first reads (few columns: insertion) */
		for (att = 0; att < s->pf_natts; att++)
		{
			if (s->pf_col_reads[att] < (int) chunks)
				continue;
			for (i = n; i > 0 &&
				 s->pf_first_read[s->pf_order[i - 1]] > s->pf_first_read[att]; i--)
				s->pf_order[i] = s->pf_order[i - 1];
			s->pf_order[i] = att;
			n++;
		}
		s->pf_npredict = n;
		s->pf_learned = true;
	}
	else if (!s->pf_learned && s->needed != NULL && s->row_filter == NULL)
	{
		/* the custom scan reads exactly these, in every chunk */
		s->pf_npredict = 0;
		for (att = 0; att < s->pf_natts && att < s->needed_natts; att++)
			if (s->needed[att])
				s->pf_order[s->pf_npredict++] = att;
	}
	memset(s->pf_col_reads, 0, sizeof(int) * s->pf_natts);
	s->pf_nread = 0;
	s->pf_chunks_at_open = s->counters.chunks_read;
}

/*
 * ScanPrefetchChunks
 *		A forward walk has opened unit cur_group: queue the chunk images it
 *		will decode (a row group), then, for a serial scan, the first pages
 *		of the next units it will claim.
 */
void
ScanPrefetchChunks(ColstoreScanDesc s)
{
	const RowGroupHeader *h = s->header;

	if (s->prefetch == NULL)
		return;
	if (h != NULL)
	{
		uint32		c;

		LearnColumns(s);
		for (c = 0; c < h->nchunks; c++)
		{
			int			i;

			if (s->filter != NULL && s->filter(s->filter_arg, h, c))
				continue;
			for (i = 0; i < s->pf_npredict; i++)
			{
				int			att = s->pf_order[i];
				const ChunkDesc *cd;

				if (att >= h->natts)
					continue;
				cd = RowGroupChunk(h, att, c);
				PagePrefetchQueueStream(s->prefetch, cd->cd_location,
										ChunkDescLength(cd));
			}
		}
	}
	if (s->rs_base.rs_parallel != NULL)
		return;

	/*
	 * The next units in the order the walk claims them, stopping after a row
	 * group: its chunks are queued when it opens, and come before the units
	 * after it.
	 */
	while (s->pf_fed + 1 < s->ngroups &&
		   s->pf_fed - s->cur_group < SCAN_PREFETCH_AHEAD)
	{
		int			i = s->pf_fed + 1;

		if (s->pf_stop > s->cur_group)
			break;
		if (!ScanUnitWanted(s, i))
		{
			s->pf_fed = i;
			continue;
		}
		QueueUnit(s, i);
		if (!s->groups[i].is_delta)
			s->pf_stop = i;
	}
}
