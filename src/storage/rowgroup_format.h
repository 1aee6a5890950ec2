/*-------------------------------------------------------------------------
 *
 * rowgroup_format.h
 *	  On-disk structures of a colstore relation's main fork.
 *
 * Block 0 is the metapage.  Every other block is either a directory page
 * (a linked list of fixed-size RowGroupDirEntry slots) or a data page of
 * the "page stream": an append-only byte stream that holds chunk images and
 * row group headers packed back to back, crossing page boundaries, with no
 * alignment per transaction.  Every page has the standard page header (so
 * checksums, LSNs and full-page images work) and a ColstorePageOpaque in its
 * special space saying what it is.  See src/README.md for the full picture.
 *
 * IDENTIFICATION
 *	  src/storage/rowgroup_format.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ROWGROUP_FORMAT_H
#define ROWGROUP_FORMAT_H

#include "postgres.h"

#include "access/htup_details.h"
#include "storage/block.h"
#include "storage/bufpage.h"
#include "storage/itemptr.h"

#define COLSTORE_MAGIC				0x434F4C53	/* "COLS" */
#define COLSTORE_FORMAT_VERSION		1
#define COLSTORE_METAPAGE_BLKNO		0

/* Page types, in ColstorePageOpaqueData.cp_page_type */
#define COLSTORE_PAGE_META			0xC001
#define COLSTORE_PAGE_DIRECTORY		0xC002
#define COLSTORE_PAGE_DATA			0xC003
#define COLSTORE_PAGE_STATE_ROOT	0xC004	/* promotion map: leaf pages */
#define COLSTORE_PAGE_STATE_LEAF	0xC005	/* promotion map: TIDs per row */
#define COLSTORE_PAGE_DELETED_ROOT	0xC006	/* deleted-rows bitmap: its pages */
#define COLSTORE_PAGE_DELETED_BITS	0xC007	/* deleted-rows bitmap: a bit a
											 * row */
#define COLSTORE_PAGE_DELETE_LOG_ROOT	0xC008	/* delete log: its pages */
#define COLSTORE_PAGE_DELETE_LOG	0xC009	/* delete log: runs of a segment */

typedef struct ColstorePageOpaqueData
{
	uint16		cp_page_type;	/* COLSTORE_PAGE_* */
	uint16		cp_flags;		/* COLSTORE_PAGE_F_*, else zero */
	BlockNumber cp_next;		/* directory: next directory page; data: next
								 * block of the page stream; else Invalid */
} ColstorePageOpaqueData;

typedef ColstorePageOpaqueData *ColstorePageOpaque;

/*
 * cp_flags of a promotion map leaf that VACUUM detached from its root page
 * (storage/deleted_rows.c): its slots are read as unset, and a promoter
 * that finds it so looks for its row's leaf again.
 */
#define COLSTORE_PAGE_F_RETIRED		0x0001

/*
 * cp_flags of a directory or stream page whose contents VACUUM copied to a
 * page lower in the file (storage/space_relocate.c): nothing links to it
 * any more, readers that followed an older link still find its contents
 * intact, and truncation gives it back (storage/space_truncate.c).  It is
 * never reused in place.
 */
#define COLSTORE_PAGE_F_MOVED		0x0002

#define ColstorePageGetOpaque(page) \
	((ColstorePageOpaque) PageGetSpecialPointer(page))

/* Usable byte range of a data page: [COLSTORE_DATA_START, COLSTORE_DATA_END) */
#define COLSTORE_DATA_START		MAXALIGN(SizeOfPageHeaderData)
#define COLSTORE_DATA_END		(BLCKSZ - MAXALIGN(sizeof(ColstorePageOpaqueData)))
#define COLSTORE_DATA_PER_PAGE	(COLSTORE_DATA_END - COLSTORE_DATA_START)

/*
 * Metapage contents, stored right after the page header of block 0.
 *
 * cm_next_row is the first row number never handed out.  Row numbers are
 * reserved in ranges by writers (see write_buffer.c) and map to TIDs through
 * RowNumberToItemPointer.  cm_dir_count counts directory entries ever
 * appended; cm_dir_changes counts in-place changes of existing entries, so a
 * backend's cached copy of the directory is current iff both match.
 */
typedef struct ColstoreMetaPageData
{
	uint32		cm_magic;
	uint32		cm_version;
	uint64		cm_next_row;	/* next row number to reserve */
	uint64		cm_live_rows;	/* rows in written row groups (estimate) */
	BlockNumber cm_dir_head;	/* first directory page, or Invalid */
	BlockNumber cm_dir_tail;	/* last directory page, or Invalid */
	uint32		cm_dir_count;	/* directory entries appended so far */
	uint32		cm_dir_changes; /* in-place entry changes so far */
	BlockNumber cm_stream_tail; /* block the stream continues in, or Invalid */
	uint32		cm_stream_offset;	/* next free byte in that block */
	uint64		cm_identity;	/* names this relation file among all files
								 * that have had its number since the server
								 * started: the WAL insert position when the
								 * metapage was created; 0 in metapages
								 * created before it existed
								 * (storage/header_cache.c) */
} ColstoreMetaPageData;

typedef ColstoreMetaPageData *ColstoreMetaPage;

#define ColstorePageGetMeta(page) \
	((ColstoreMetaPage) PageGetContents(page))

/* A location in the page stream. */
typedef struct StreamPointer
{
	BlockNumber sp_block;
	uint32		sp_offset;		/* byte offset within the page */
} StreamPointer;

/*
 * Directory entry kinds.
 *
 * A RESERVATION records that transaction rg_xmin reserved row numbers
 * [rg_first_row, rg_first_row + rg_nrows) for rows it is still buffering in
 * its own memory.  Index entries may already point there, so other backends
 * need it to know whom to wait for (see am_index.c).  A ROWGROUP holds
 * written rows [rg_first_row, rg_first_row + rg_nrows).  A DELTA_PAGE says
 * that the pseudo-block of rows [rg_first_row, rg_first_row +
 * ROWS_PER_TID_BLOCK) names the line pointers of heap page rg_header.sp_block
 * (storage/delta_heap.c): row rg_first_row + i is its item i + 1.
 */
#define RG_KIND_ROWGROUP		1
#define RG_KIND_RESERVATION		2
#define RG_KIND_DELTA_PAGE		3

/* Flags */
#define RG_FLAG_FROZEN			0x0001	/* inserted by a committed xact that
										 * every snapshot sees */
#define RG_FLAG_INVALID			0x0002	/* inserter aborted, or speculative
										 * insertion killed: rows are dead */
#define RG_FLAG_MOVED_ROWS		0x0004	/* written by compaction: rg_sources
										 * lists the heap positions its rows
										 * were moved from */
#define RG_FLAG_EMPTIED			0x0008	/* with INVALID: VACUUM found every
										 * row deleted for everyone; rg_xmin
										 * is then the next xid at that time */
#define RG_FLAG_FREED			0x0010	/* with INVALID: VACUUM gave the
										 * group's pages and its copies' items
										 * to new heap tuples and row groups;
										 * only the entry is left.  On a delta
										 * page: VACUUM truncated its empty
										 * block away; its pseudo-block holds
										 * no rows, and a new page at that
										 * block gets a new entry */

/*
 * A row-group row that compaction moved through its group's delete log (a
 * moved run, storage/delete_log.c) is listed in rg_sources by its own TID
 * with this bit set in the offset (MovedRowSourceOfRow): heap positions'
 * offsets are at most MaxHeapTuplesPerPage, so the two kinds never meet.
 */
#define MOVED_ROW_SOURCE_BIT	0x8000

/*
 * A heap position as a sortable bigint, as rg_sources stores them; a row's
 * TID flagged with MOVED_ROW_SOURCE_BIT sorts after every heap position.
 */
#define HeapPositionKey(tid) \
	(((ItemPointerGetOffsetNumberNoCheck(tid) & MOVED_ROW_SOURCE_BIT) ? \
	  (INT64CONST(1) << 62) : 0) + \
	 (int64) ItemPointerGetBlockNumberNoCheck(tid) * 65536 + \
	 ItemPointerGetOffsetNumberNoCheck(tid))

typedef struct RowGroupDirEntry
{
	uint64		rg_first_row;
	uint32		rg_nrows;
	uint16		rg_kind;		/* RG_KIND_* */
	uint16		rg_flags;		/* RG_FLAG_* */
	TransactionId rg_xmin;		/* inserting (sub)transaction */
	CommandId	rg_cmin;		/* inserting command */
	StreamPointer rg_header;	/* row group header in the stream */
	uint32		rg_header_len;
	uint16		rg_natts;		/* attributes stored (later ones: missing) */
	uint16		rg_padding;
	uint32		rg_nchunks;		/* chunks per column */
	uint64		rg_stored_bytes;	/* header + all chunk images */
	uint64		rg_raw_bytes;	/* in-memory size of the values */
	BlockNumber rg_state_root;	/* first root page of the group's promotion
								 * map (storage/promotion_map.c), or 0 */
	StreamPointer rg_sources;	/* RG_FLAG_MOVED_ROWS: the heap positions the
								 * rows came from, row i's at index i,
								 * ascending, as a bigint chunk image of block *
								 * 65536 + offset */
	uint32		rg_sources_len; /* its length */
} RowGroupDirEntry;

#define DIR_ENTRIES_PER_PAGE \
	((int) ((COLSTORE_DATA_END - COLSTORE_DATA_START) / sizeof(RowGroupDirEntry)))

/*
 * Row group header, written to the stream after the row group's chunks.
 *
 *	RowGroupHeaderData
 *	uint32 chunk_first_row[rh_nchunks + 1]	(row offsets within the group)
 *	ChunkDesc chunks[rh_natts][rh_nchunks]
 *	min/max bytes, addressed by ChunkDesc.cd_stats_offset
 *
 * rh_crc is a CRC-32C over the whole header with rh_crc taken as zero.
 */
typedef struct RowGroupHeaderData
{
	uint32		rh_magic;
	uint32		rh_crc;
	uint32		rh_len;			/* total length including stats bytes */
	uint32		rh_nrows;
	uint16		rh_natts;
	uint16		rh_padding;
	uint32		rh_nchunks;
} RowGroupHeaderData;

#define ROWGROUP_HEADER_MAGIC	0x52474844	/* "RGHD" */

/* Chunk flags */
#define CHUNK_HAS_MINMAX		0x01	/* cd_stats holds min and max */
#define CHUNK_STATS_TYPED		0x02	/* ... followed by the column's type
										 * and collation OIDs at write time */
#define CHUNK_ASCENDING			0x04	/* no NULLs, and every value is at
										 * least the one before under the
										 * ordering of the typed stats */

typedef struct ChunkDesc
{
	StreamPointer cd_location;	/* first byte of the chunk image */
	uint32		cd_len;			/* image length (high bits in cd_len_hi) */
	uint32		cd_len_hi;
	uint32		cd_nnulls;
	uint8		cd_encoding;
	uint8		cd_codec;
	uint8		cd_flags;
	uint8		cd_padding;
	uint64		cd_raw_bytes;
	uint32		cd_stats_offset;	/* min then max, each uint32 len + bytes;
									 * then Oid type, Oid collation if
									 * CHUNK_STATS_TYPED */
	uint32		cd_stats_len;
} ChunkDesc;

#define ChunkDescLength(cd) \
	(((uint64) (cd)->cd_len_hi << 32) | (uint64) (cd)->cd_len)

/*
 * Row numbers <-> TIDs.  Row number r lives at block r / ROWS_PER_TID_BLOCK,
 * offset r % ROWS_PER_TID_BLOCK + 1, so TID bitmaps (which allow at most
 * MaxHeapTuplesPerPage offsets per block) work.  Row groups and the
 * pseudo-blocks of heap pages (storage/delta_heap.c) alike take row numbers
 * from one sequence, below COLSTORE_TID_BLOCK_LIMIT: TIDs in the upper half
 * of the TID space are never handed out, and ItemPointerToRowNumber
 * rejects them.
 */
#define ROWS_PER_TID_BLOCK			MaxHeapTuplesPerPage
#define COLSTORE_TID_BLOCK_LIMIT	((BlockNumber) 0x80000000)
#define COLSTORE_MAX_ROW_NUMBER \
	((uint64) COLSTORE_TID_BLOCK_LIMIT * ROWS_PER_TID_BLOCK)

static inline void
RowNumberToItemPointer(uint64 rownum, ItemPointer tid)
{
	ItemPointerSet(tid, (BlockNumber) (rownum / ROWS_PER_TID_BLOCK),
				   (OffsetNumber) (rownum % ROWS_PER_TID_BLOCK + 1));
}

/* Returns false for TIDs that cannot name a row-group row. */
static inline bool
ItemPointerToRowNumber(ItemPointer tid, uint64 *rownum)
{
	BlockNumber blk = ItemPointerGetBlockNumberNoCheck(tid);
	OffsetNumber off = ItemPointerGetOffsetNumberNoCheck(tid);

	if (blk >= COLSTORE_TID_BLOCK_LIMIT || off < 1 || off > ROWS_PER_TID_BLOCK)
		return false;
	*rownum = (uint64) blk * ROWS_PER_TID_BLOCK + (off - 1);
	return true;
}

#endif							/* ROWGROUP_FORMAT_H */
