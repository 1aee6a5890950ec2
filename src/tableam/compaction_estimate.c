/*-------------------------------------------------------------------------
 *
 * compaction_estimate.c
 *	  Whether rewriting a partly deleted row group makes the table smaller.
 *
 * A chunk is encoded for the rows it holds: a column that follows a rule
 * over consecutive rows (a key counting up, a value cycling with it) costs
 * next to nothing, and loses the rule once a random share of its rows is
 * gone.  Rewriting such a group's live rows can then take many times the
 * group it replaces: bench/write_patterns.sh's seed-000 table, 30% deleted
 * at random, took 6.4 times its size before the DELETE when its live rows
 * were loaded afresh in key order (18.4 bits a row against 1.7), while
 * keeping the groups costs their deleted-rows bitmaps and row state roots.
 * So the compaction worker rewrites a partly deleted group only when the
 * estimated size of its live rows rewritten is below what the group costs
 * kept (GroupRewriteShrinks): its stored bytes and its row state pages
 * (promotion map, deleted-rows bitmap, delete log root), which a rewrite
 * frees with it.  colstore.compact() does not ask: it rewrites what its
 * rule says.
 *
 * The estimate encodes the live rows of the group's first chunk column by
 * column, as the row group writer would (EncodeChunk, with the table's
 * codec), and scales the ratio of that to the chunk's stored size to the
 * group's stored size.
 *
 * IDENTIFICATION
 *	  src/tableam/compaction_estimate.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/transam.h"
#include "storage/procarray.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "encoding/chunk_encoding.h"
#include "storage/chunk_cache.h"
#include "storage/delete_log.h"
#include "storage/promotion_map.h"
#include "storage/rowgroup_reader.h"
#include "storage/table_options.h"
#include "tableam/compaction_estimate.h"

/*
 * Which of the first n rows of group are live as far as a rewrite goes:
 * not deleted for everyone and not deleted by a committed logged delete
 * (rows with a copy count as live).  Returns how many.
 */
static uint32
LiveRows(Relation rel, const RowGroupDirEntry *group, uint32 n, bool *live)
{
	ItemPointerData *copies = palloc(sizeof(ItemPointerData) * n);
	bool	   *deleted = palloc(sizeof(bool) * n);
	DeleteRun  *runs = palloc(sizeof(DeleteRun) * n);
	uint32		nlive = 0;
	uint32		i;

	(void) PromotionMapGetRange(rel, group, 0, n, copies, deleted, runs);
	for (i = 0; i < n; i++)
	{
		live[i] = !deleted[i] &&
			!(TransactionIdIsValid(runs[i].xid) &&
			  !TransactionIdIsInProgress(runs[i].xid) &&
			  TransactionIdDidCommit(runs[i].xid));
		if (live[i])
			nlive++;
	}
	return nlive;
}

/*
 * The bytes the live rows of chunk 0 of group (header h) would take
 * encoded afresh, and in *stored what the chunk takes now.
 */
static uint64
EncodedLiveBytes(Relation rel, const RowGroupHeader *h, const bool *live,
				 uint32 nlive, uint64 *stored)
{
	TupleDesc	desc = RelationGetDescr(rel);
	int			n = RowGroupChunkRows(h, 0);
	Datum	   *values = palloc(sizeof(Datum) * n);
	bool	   *isnull = palloc(sizeof(bool) * n);
	ColstoreOptions opts;
	uint64		bytes = 0;
	int			att;

	ColstoreGetOptions(RelationGetRelid(rel), &opts);
	*stored = 0;
	for (att = 0; att < desc->natts && att < h->natts; att++)
	{
		Form_pg_attribute attr = TupleDescAttr(desc, att);
		ChunkTypeInfo type;
		EncodedChunk img;
		uint32		k = 0;
		int			i;

		*stored += ChunkDescLength(RowGroupChunk(h, att, 0));
		if (attr->attisdropped)
			continue;
		RowGroupReadColumnChunk(rel, h, desc, att, 0, values, isnull);
		for (i = 0; i < n; i++)
			if (live[i])
			{
				values[k] = values[i];
				isnull[k] = isnull[i];
				k++;
			}
		Assert(k == nlive);
		type.typid = attr->atttypid;
		type.typlen = attr->attlen;
		type.typbyval = attr->attbyval;
		type.typalign = attr->attalign;
		EncodeChunk(&type, (int) k, values, isnull, (ColstoreCodec) opts.codec,
					opts.compression_level, &img);
		bytes += img.len;
	}
	return bytes;
}

/*
 * GroupRewriteShrinks
 *		Would rewriting the live rows of row group e (at directory index
 *		dir_index, some of its rows deleted) take less space than keeping
 *		the group with its row state pages?  See the file header.
 */
bool
GroupRewriteShrinks(Relation rel, uint32 dir_index, const RowGroupDirEntry *e)
{
	MemoryContext cxt;
	MemoryContext oldcxt;
	const RowGroupHeader *h;
	BlockNumber *blocks;
	bool	   *live;
	uint32		n;
	uint32		nlive;
	uint64		stored;
	uint64		rewritten;
	uint64		keep;
	bool		shrinks;

	if (e->rg_nrows == 0 || e->rg_state_root == 0)
		return false;
	cxt = AllocSetContextCreate(CurrentMemoryContext, "colstore rewrite estimate",
								ALLOCSET_DEFAULT_SIZES);
	oldcxt = MemoryContextSwitchTo(cxt);
	h = ChunkCacheGetHeader(rel, dir_index, e);
	n = (uint32) RowGroupChunkRows(h, 0);
	live = palloc(sizeof(bool) * n);
	nlive = LiveRows(rel, e, n, live);
	if (nlive == 0)
		rewritten = 0;
	else
		rewritten = EncodedLiveBytes(rel, h, live, nlive, &stored);
	if (nlive > 0 && stored > 0)
		rewritten = (uint64) ((double) rewritten / stored * e->rg_stored_bytes);
	keep = e->rg_stored_bytes +
		(uint64) BLCKSZ * PromotionMapPages(rel, e, &blocks);
	if (DeleteLogRootFind(rel, e, NULL) != InvalidBlockNumber)
		keep += BLCKSZ;
	shrinks = rewritten < keep;
	MemoryContextSwitchTo(oldcxt);
	MemoryContextDelete(cxt);
	return shrinks;
}
