/*-------------------------------------------------------------------------
 *
 * fuzz_promotion_map.c
 *	  libFuzzer target: promotion maps (root and leaf pages), through
 *	  PromotionMapPages, PromotionMapGetRange and PromotionMapLookup, and the
 *	  deleted-rows bitmap they read (storage/deleted_rows.c).
 *
 * Input: bytes 0-3 the row group's row count, 4-7 its first root block
 * (rg_state_root), 8-11 a row to look up, then the relation's blocks,
 * BLCKSZ bytes each (at most 8, the last padded with zeros).  A copy the
 * map returns must be a valid heap TID; the single and the range lookup
 * agree, also on which rows the bitmap marks deleted.
 *
 * IDENTIFICATION
 *	  fuzz/fuzz_promotion_map.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"

#include "storage/promotion_map.h"

#include "fuzz_common.h"

#define MAX_PAGES	8
#define MAX_RANGE	4096

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *pages = NULL;
	RowGroupDirEntry group;
	uint32		row;

	if (size < 13 || size > 12 + MAX_PAGES * BLCKSZ)
		return 0;
	if (pages == NULL)
		pages = malloc(MAX_PAGES * BLCKSZ);
	memset(&group, 0, sizeof(group));
	group.rg_kind = RG_KIND_ROWGROUP;
	memcpy(&group.rg_nrows, data, 4);
	memcpy(&group.rg_state_root, data + 4, 4);
	memcpy(&row, data + 8, 4);
	memset(pages, 0, MAX_PAGES * BLCKSZ);
	memcpy(pages, data + 12, size - 12);
	fuzz_pages = pages;
	fuzz_npages = (size - 12 + BLCKSZ - 1) / BLCKSZ;

	FUZZ_BEGIN("promotion_map");
	{
		Relation	rel = fuzz_relation();
		BlockNumber *blocks;
		int			n;
		int			i;

		n = PromotionMapPages(rel, &group, &blocks);
		for (i = 0; i < n; i++)
			FUZZ_ASSERT(blocks[i] < fuzz_npages, "map page beyond the relation");
		if (group.rg_nrows > 0)
		{
			uint32		first;
			uint32		cnt;
			ItemPointerData copy;
			ItemPointerData *copies;
			bool	   *deleted;
			DeleteRun	run;
			DeleteRun  *runs;
			PromotionSlot slot;
			bool		found;

			row %= group.rg_nrows;
			slot = PromotionMapLookup(rel, &group, row, &copy, &run);
			found = slot == PROMOTION_COPY;
			FUZZ_ASSERT(found == ItemPointerIsValid(&copy), "lookup's copy and answer disagree");
			if (found)
				FUZZ_ASSERT(ItemPointerGetOffsetNumberNoCheck(&copy) >= FirstOffsetNumber &&
							ItemPointerGetOffsetNumberNoCheck(&copy) <= MaxHeapTuplesPerPage,
							"copy TID offset out of range");
			first = row > MAX_RANGE / 2 ? row - MAX_RANGE / 2 : 0;
			cnt = Min(group.rg_nrows - first, MAX_RANGE);
			copies = palloc(sizeof(ItemPointerData) * cnt);
			deleted = palloc(sizeof(bool) * cnt);
			runs = palloc(sizeof(DeleteRun) * cnt);
			if (!PromotionMapGetRange(rel, &group, first, cnt, copies, deleted, runs))
				memset(deleted, 0, sizeof(bool) * cnt);
			FUZZ_ASSERT(deleted[row - first] == (slot == PROMOTION_DELETED),
						"single and range lookups disagree on the deleted-rows bit");
			for (i = 0; i < (int) cnt; i++)
				FUZZ_ASSERT(!deleted[i] || !ItemPointerIsValid(&copies[i]),
							"a bitmapped row has a copy");
			for (i = 0; i < (int) cnt; i++)
				FUZZ_ASSERT(!TransactionIdIsValid(runs[i].xid) ||
							(!deleted[i] && !ItemPointerIsValid(&copies[i])),
							"a run reported for a row with a copy or a bit");
			FUZZ_ASSERT((slot == PROMOTION_LOGGED) == TransactionIdIsValid(runs[row - first].xid),
						"single and range lookups disagree on the run");
			FUZZ_ASSERT(ItemPointerIsValid(&copies[row - first]) == found &&
						(!found || memcmp(&copies[row - first], &copy, sizeof(copy)) == 0),
						"single and range lookups disagree");
			for (i = 0; i < (int) cnt; i++)
				if (ItemPointerIsValid(&copies[i]))
					FUZZ_ASSERT(ItemPointerGetOffsetNumberNoCheck(&copies[i]) <= MaxHeapTuplesPerPage,
								"copy TID offset out of range");
		}
	}
	FUZZ_END();
	return 0;
}
