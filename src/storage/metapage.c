/*-------------------------------------------------------------------------
 *
 * metapage.c
 *	  The metapage (block 0), relation extension, and the writer lock.
 *
 * A colstore relation is created empty: its main fork has no blocks until
 * the first writer initialises the metapage.  That keeps
 * relation_set_new_filelocator, TRUNCATE and the init fork of UNLOGGED tables
 * trivial (an empty fork is a valid empty table), and it means readers must
 * treat "no blocks" as "no rows".
 *
 * All changes to the metapage, the directory and the page stream are made by
 * a backend holding the relation's writer lock: a heavyweight tuple lock on
 * a TID no row can have.  It serialises the short critical part of a flush
 * (copying already-encoded chunks into pages and publishing the directory
 * entry), so at most one backend extends the relation or moves the stream
 * tail at a time.  It is never held while acquiring another heavyweight lock
 * and is released right after the publishing step, so it cannot deadlock.
 *
 * IDENTIFICATION
 *	  src/storage/metapage.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "access/generic_xlog.h"
#include "access/xlog.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "storage/smgr.h"
#include "utils/rel.h"

#include "storage/metapage.h"

/* The writer lock's tag: block InvalidBlockNumber never holds a row. */
static void
WriterLockTid(ItemPointer tid)
{
	ItemPointerSet(tid, InvalidBlockNumber, 1);
}

void
ColstoreLockWriter(Relation rel)
{
	ItemPointerData tid;

	WriterLockTid(&tid);
	LockTuple(rel, &tid, ExclusiveLock);
}

void
ColstoreUnlockWriter(Relation rel)
{
	ItemPointerData tid;

	WriterLockTid(&tid);
	UnlockTuple(rel, &tid, ExclusiveLock);
}

/* Does this backend hold rel's writer lock?  For assertions. */
bool
ColstoreWriterLockHeld(Relation rel)
{
	LOCKTAG		tag;

	SET_LOCKTAG_TUPLE(tag, rel->rd_lockInfo.lockRelId.dbId,
					  rel->rd_lockInfo.lockRelId.relId, InvalidBlockNumber, 1);
	return LockHeldByMeInMode(&tag, ExclusiveLock);
}

/*
 * Number of blocks really present in the main fork.  RelationGetNumberOfBlocks
 * must not be used for this: for table AMs it returns the TID space size
 * reported by colstore_relation_size.
 */
BlockNumber
ColstorePhysicalBlocks(Relation rel)
{
	return smgrnblocks(RelationGetSmgr(rel), MAIN_FORKNUM);
}

/*
 * ColstoreInitPage
 *		Make page an empty colstore page of page_type.  Its pd_upper equals
 *		its pd_lower (ColstorePageSetLower keeps them equal), so heapam, which
 *		judges a page it got from the free space map by PageGetHeapFreeSpace,
 *		sees no room on it: a colstore page taken from the free space map
 *		(page_reuse.c) may still be named there to a backend that read the
 *		map before the page was taken.
 */
void
ColstoreInitPage(Page page, uint16 page_type)
{
	ColstorePageOpaque opaque;

	PageInit(page, BLCKSZ, sizeof(ColstorePageOpaqueData));
	opaque = ColstorePageGetOpaque(page);
	opaque->cp_page_type = page_type;
	opaque->cp_flags = 0;
	opaque->cp_next = InvalidBlockNumber;
	((PageHeader) page)->pd_upper = ((PageHeader) page)->pd_lower;
}

/*
 * ColstorePageSetLower
 *		Set the end of the bytes used on a colstore page, with pd_upper at
 *		the same place: no free space for heapam (ColstoreInitPage), and no
 *		"hole" for full-page images to leave out.
 */
void
ColstorePageSetLower(Page page, uint32 lower)
{
	Assert(lower >= SizeOfPageHeaderData && lower <= ((PageHeader) page)->pd_special);
	((PageHeader) page)->pd_lower = (LocationIndex) lower;
	((PageHeader) page)->pd_upper = (LocationIndex) lower;
}

/*
 * ColstoreCheckPage
 *		Raise ERRCODE_DATA_CORRUPTED unless the page is a colstore page of the
 *		expected type.
 */
void
ColstoreCheckPage(Relation rel, BlockNumber blkno, Page page,
				  uint16 expected_type)
{
	if (PageIsNew(page) ||
		PageGetSpecialSize(page) != MAXALIGN(sizeof(ColstorePageOpaqueData)) ||
		ColstorePageGetOpaque(page)->cp_page_type != expected_type)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("colstore table \"%s\" has an unexpected page at block %u",
								 RelationGetRelationName(rel), blkno),
				 errdetail_internal("Expected page type 0x%04X.", expected_type)));
}

/*
 * ColstoreBlockIsValid
 *		Can blkno, a block number read from a page, name a page of rel other
 *		than its metapage?  ReadBuffer itself reports a block past the end of
 *		the file's first segment as data_corrupted, but one in a segment that
 *		does not exist with whatever errno is left (an internal error, or
 *		"could not open file"): so only block numbers from the second segment
 *		on cost asking the kernel for the file's size.
 */
bool
ColstoreBlockIsValid(Relation rel, BlockNumber blkno)
{
	return blkno != COLSTORE_METAPAGE_BLKNO &&
		(blkno < RELSEG_SIZE || blkno < ColstorePhysicalBlocks(rel));
}

static void
CheckMeta(Relation rel, Page page)
{
	ColstoreMetaPage meta;

	ColstoreCheckPage(rel, COLSTORE_METAPAGE_BLKNO, page, COLSTORE_PAGE_META);
	meta = ColstorePageGetMeta(page);
	if (meta->cm_magic != COLSTORE_MAGIC)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("colstore table \"%s\" has a corrupted metapage",
								 RelationGetRelationName(rel))));
	if (meta->cm_version != COLSTORE_FORMAT_VERSION)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("colstore table \"%s\" has storage format version %u, but this build supports version %u",
						RelationGetRelationName(rel), meta->cm_version,
						COLSTORE_FORMAT_VERSION)));
	/* every row number handed out makes a TID (RowNumberToItemPointer) */
	if (meta->cm_next_row > COLSTORE_MAX_ROW_NUMBER)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("colstore table \"%s\" has a corrupted metapage",
								 RelationGetRelationName(rel)),
				 errdetail_internal("Next row number %llu is beyond the TID space.",
									(unsigned long long) meta->cm_next_row)));
}

static void
EmptyMeta(ColstoreMetaPageData *meta)
{
	memset(meta, 0, sizeof(*meta));
	meta->cm_magic = COLSTORE_MAGIC;
	meta->cm_version = COLSTORE_FORMAT_VERSION;
	meta->cm_dir_head = InvalidBlockNumber;
	meta->cm_dir_tail = InvalidBlockNumber;
	meta->cm_stream_tail = InvalidBlockNumber;
}

/*
 * ColstoreReadMeta
 *		Copy the metapage contents into *meta (an empty table's if the fork
 *		has no blocks yet).  Takes and releases a share lock on block 0.
 */
void
ColstoreReadMeta(Relation rel, ColstoreMetaPageData *meta)
{
	if (ColstorePhysicalBlocks(rel) == 0)
	{
		EmptyMeta(meta);
		return;
	}
	ColstoreReadExistingMeta(rel, meta);
}

/*
 * ColstoreReadRecent
 *		ReadBuffer(rel, blkno), trying first the buffer *recent (the one the
 *		caller found a block in last, or InvalidBuffer): ReadRecentBuffer
 *		pins it without the buffer table's lookup if it still holds rel's
 *		block blkno, and any other answer falls back to ReadBuffer.  Sets
 *		*recent to the buffer returned.  For a block read once per row.
 *		Local buffers only from PostgreSQL 17 (fixes to ReadRecentBuffer's
 *		local-buffer branch reached older minor releases at different times).
 */
Buffer
ColstoreReadRecent(Relation rel, BlockNumber blkno, Buffer *recent)
{
	/*
	 * a local buffer's tag does not say whose temporary relation it holds (a
	 * temporary and a permanent relation may share a file number), so a
	 * recent buffer is tried only for a relation of its own kind
	 */
	if (BufferIsValid(*recent) &&
		BufferIsLocal(*recent) == RelationUsesLocalBuffers(rel) &&
		(PG_VERSION_NUM >= 170000 || !RelationUsesLocalBuffers(rel)) &&
		ReadRecentBuffer(rel->rd_locator, MAIN_FORKNUM, blkno, *recent))
		return *recent;
	*recent = ReadBuffer(rel, blkno);
	return *recent;
}

/* the buffers ColstoreReadCached found blocks in last, by block number */
#define READ_CACHED_SLOTS	64
static Buffer CachedShared[READ_CACHED_SLOTS];
static Buffer CachedLocal[READ_CACHED_SLOTS];

/*
 * ColstoreReadCached
 *		ReadBuffer(rel, blkno) through ColstoreReadRecent, with the recent
 *		buffer of slot blkno % READ_CACHED_SLOTS: for the small pages read
 *		once or more per changed or fetched row (promotion map roots and
 *		leaves, delete log and deleted-rows roots, heap versions), which a
 *		bulk UPDATE or DELETE reads again and again.  Only buffer numbers
 *		are remembered, never pins, and ReadRecentBuffer checks the
 *		buffer's tag, so a stale slot only costs the fallback.
 */
Buffer
ColstoreReadCached(Relation rel, BlockNumber blkno)
{
	Buffer	   *slots = RelationUsesLocalBuffers(rel) ? CachedLocal : CachedShared;

	return ColstoreReadRecent(rel, blkno, &slots[blkno % READ_CACHED_SLOTS]);
}

/*
 * ColstoreReadExistingMeta
 *		ColstoreReadMeta for a caller that knows the metapage exists (a
 *		relation file keeps its blocks until it is replaced), which saves
 *		asking the kernel for the file's size.
 */
void
ColstoreReadExistingMeta(Relation rel, ColstoreMetaPageData *meta)
{
	/* read for every directory check: several per row DML changes */
	static Buffer recent = InvalidBuffer;
	Buffer		buf = ColstoreReadRecent(rel, COLSTORE_METAPAGE_BLKNO, &recent);
	Page		page;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	CheckMeta(rel, page);
	memcpy(meta, ColstorePageGetMeta(page), sizeof(*meta));
	UnlockReleaseBuffer(buf);
}

/*
 * ColstoreExtend
 *		Add one block at the end of the main fork and return it pinned and
 *		exclusively locked, not yet initialised.  Caller holds the writer
 *		lock; the extension lock is taken anyway so that other code that
 *		follows the usual protocol stays safe.
 */
Buffer
ColstoreExtend(Relation rel)
{
	Buffer		buf;
	bool		local = RELATION_IS_LOCAL(rel);

	if (!local)
		LockRelationForExtension(rel, ExclusiveLock);
	buf = ReadBufferExtended(rel, MAIN_FORKNUM, P_NEW, RBM_NORMAL, NULL);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	if (!local)
		UnlockRelationForExtension(rel, ExclusiveLock);
	return buf;
}

/*
 * ColstoreLockMetaForUpdate
 *		Return block 0 pinned and exclusively locked, creating and WAL-logging
 *		an empty metapage, with a new cm_identity, first if the fork is
 *		empty.  Caller holds the writer lock.
 */
Buffer
ColstoreLockMetaForUpdate(Relation rel)
{
	Buffer		buf;

	if (ColstorePhysicalBlocks(rel) == 0)
	{
		GenericXLogState *state;
		Page		page;

		buf = ColstoreExtend(rel);
		Assert(BufferGetBlockNumber(buf) == COLSTORE_METAPAGE_BLKNO);
		state = GenericXLogStart(rel);
		page = GenericXLogRegisterBuffer(state, buf, GENERIC_XLOG_FULL_IMAGE);
		ColstoreInitPage(page, COLSTORE_PAGE_META);
		EmptyMeta(ColstorePageGetMeta(page));

		/*
		 * The file's identity for the shared header cache: the WAL insert
		 * position only grows while the server runs, and at least this record
		 * and the dropping transaction's lie between two metapages of one
		 * relation file number (header_cache.c).
		 */
		ColstorePageGetMeta(page)->cm_identity = Max(GetXLogInsertRecPtr(), 1);
		ColstorePageSetLower(page, (char *) ColstorePageGetMeta(page) +
							 sizeof(ColstoreMetaPageData) - (char *) page);
		GenericXLogFinish(state);
		return buf;
	}
	buf = ReadBuffer(rel, COLSTORE_METAPAGE_BLKNO);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	CheckMeta(rel, BufferGetPage(buf));
	return buf;
}
