/*-------------------------------------------------------------------------
 *
 * pg_stubs.c
 *	  The few backend services colstore's decoders use, emulated so that the
 *	  decoders can run in a standalone fuzzing process without a server.
 *
 * What is emulated, and how:
 *
 *	memory contexts		palloc/pfree/repalloc and the MemoryContext* calls,
 *						on malloc.  Every chunk has a header naming its
 *						context, so MemoryContextDelete/Reset free whole
 *						contexts, GetMemoryChunkSpace works and nothing
 *						leaks between inputs.  Size limits are PostgreSQL's
 *						(1 GB, huge: MaxAllocHugeSize), raised as its
 *						elog(ERROR); a request above FUZZ_MAX_ALLOC aborts
 *						instead (a decoder trusting a length it read).
 *	ereport / elog		errstart .. errfinish record the level, the errcode
 *						and the message; at ERROR errfinish siglongjmps to
 *						PG_exception_stack, i.e. into the harness's PG_TRY,
 *						exactly like the backend.  The harness then checks
 *						fuzz_error_code (fuzz_common.h).
 *	buffer manager		a "relation" is an array of fuzz_npages page images
 *						(fuzz_pages).  ReadBuffer(rel, blk) returns blk + 1,
 *						BufferGetPage works through BufferBlocks, locks and
 *						pins are no-ops.  Like mdread() and PageIsVerified-
 *						Extended(), a block past the end or a page whose
 *						header is insane raises ERRCODE_DATA_CORRUPTED.
 *						smgrnblocks() returns fuzz_npages.
 *	dynahash			hash_create/hash_search/hash_seq_* over a small
 *						linear array (the directory cache holds one entry
 *						per relation; the harness uses one relation).
 *	page stream			StreamRead() copies fuzz_stream (the bytes the
 *						harness hands the row group header reader).
 *
 * Anything else the linked objects reference but the decoders never call is
 * defined to abort, so reaching it is reported as a crash.
 *
 * IDENTIFICATION
 *	  fuzz/pg_stubs.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdio.h>
#include <stdlib.h>

#include "access/generic_xlog.h"
#include "access/tupdesc.h"
#include "access/xlog.h"
#include "access/xloginsert.h"
#include "access/xlogutils.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/lmgr.h"
#include "storage/smgr.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "pg_compat.h"
#include "fuzz_common.h"
#include "storage/deleted_rows.h"
#include "storage/header_cache.h"
#include "storage/page_stream.h"
#include "storage/page_reuse.h"

/* ---- memory contexts ---- */

typedef struct FuzzChunk FuzzChunk;

typedef struct FuzzContext
{
	const char *name;
	struct FuzzContext *parent;
	struct FuzzContext *firstchild;
	struct FuzzContext *nextsibling;
	FuzzChunk  *chunks;
} FuzzContext;

struct FuzzChunk
{
	FuzzContext *ctx;
	FuzzChunk  *prev;
	FuzzChunk  *next;
	Size		size;
};

StaticAssertDecl(sizeof(FuzzChunk) % MAXIMUM_ALIGNOF == 0,
				 "chunk header keeps MAXALIGN");

static FuzzContext top_context = {"TopMemoryContext"};

MemoryContext TopMemoryContext = (MemoryContext) &top_context;
MemoryContext CurrentMemoryContext = (MemoryContext) &top_context;
MemoryContext ErrorContext = (MemoryContext) &top_context;

#define FUZZ_MAX_ALLOC	((Size) 256 * 1024 * 1024)

static void *
chunk_alloc(MemoryContext context, Size size, bool huge, bool zero)
{
	FuzzContext *ctx = (FuzzContext *) context;
	FuzzChunk  *c;

	if (huge ? !AllocHugeSizeIsValid(size) : !AllocSizeIsValid(size))
		elog(ERROR, "invalid memory alloc request size %zu", size);
	if (size > FUZZ_MAX_ALLOC)
	{
		fprintf(stderr, "fuzz: allocation of %zu bytes (limit %zu): a decoder trusts a length\n",
				size, FUZZ_MAX_ALLOC);
		abort();
	}
	c = zero ? calloc(1, sizeof(FuzzChunk) + size) : malloc(sizeof(FuzzChunk) + size);
	if (c == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	c->ctx = ctx;
	c->size = size;
	c->prev = NULL;
	c->next = ctx->chunks;
	if (ctx->chunks)
		ctx->chunks->prev = c;
	ctx->chunks = c;
	return c + 1;
}

static void
chunk_unlink(FuzzChunk *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		c->ctx->chunks = c->next;
	if (c->next)
		c->next->prev = c->prev;
}

void *
palloc(Size size)
{
	return chunk_alloc(CurrentMemoryContext, size, false, false);
}

void *
palloc0(Size size)
{
	return chunk_alloc(CurrentMemoryContext, size, false, true);
}

void *
palloc_extended(Size size, int flags)
{
	return chunk_alloc(CurrentMemoryContext, size,
					   (flags & MCXT_ALLOC_HUGE) != 0, (flags & MCXT_ALLOC_ZERO) != 0);
}

void *
MemoryContextAlloc(MemoryContext context, Size size)
{
	return chunk_alloc(context, size, false, false);
}

void *
MemoryContextAllocZero(MemoryContext context, Size size)
{
	return chunk_alloc(context, size, false, true);
}

void *
MemoryContextAllocZeroAligned(MemoryContext context, Size size)
{
	return chunk_alloc(context, size, false, true);
}

void *
MemoryContextAllocExtended(MemoryContext context, Size size, int flags)
{
	return chunk_alloc(context, size,
					   (flags & MCXT_ALLOC_HUGE) != 0, (flags & MCXT_ALLOC_ZERO) != 0);
}

void *
MemoryContextAllocHuge(MemoryContext context, Size size)
{
	return chunk_alloc(context, size, true, false);
}

void
pfree(void *pointer)
{
	FuzzChunk  *c = ((FuzzChunk *) pointer) - 1;

	chunk_unlink(c);
	free(c);
}

static void *
chunk_realloc(void *pointer, Size size, bool huge)
{
	FuzzChunk  *c = ((FuzzChunk *) pointer) - 1;
	void	   *n;

	n = chunk_alloc((MemoryContext) c->ctx, size, huge, false);
	memcpy(n, pointer, Min(size, c->size));
	pfree(pointer);
	return n;
}

void *
repalloc(void *pointer, Size size)
{
	return chunk_realloc(pointer, size, false);
}

void *
repalloc_huge(void *pointer, Size size)
{
	return chunk_realloc(pointer, size, true);
}

Size
GetMemoryChunkSpace(void *pointer)
{
	return (((FuzzChunk *) pointer) - 1)->size + sizeof(FuzzChunk);
}

char *
pstrdup(const char *in)
{
	Size		len = strlen(in) + 1;
	char	   *out = palloc(len);

	memcpy(out, in, len);
	return out;
}

MemoryContext
AllocSetContextCreateInternal(MemoryContext parent, const char *name,
							  Size minContextSize, Size initBlockSize,
							  Size maxBlockSize)
{
	FuzzContext *p = (FuzzContext *) parent;
	FuzzContext *ctx = calloc(1, sizeof(FuzzContext));

	if (ctx == NULL)
		abort();
	ctx->name = name;
	ctx->parent = p;
	ctx->nextsibling = p->firstchild;
	p->firstchild = ctx;
	return (MemoryContext) ctx;
}

static void
context_free_contents(FuzzContext *ctx)
{
	while (ctx->firstchild)
		MemoryContextDelete((MemoryContext) ctx->firstchild);
	while (ctx->chunks)
	{
		FuzzChunk  *c = ctx->chunks;

		ctx->chunks = c->next;
		free(c);
	}
}

void
MemoryContextReset(MemoryContext context)
{
	context_free_contents((FuzzContext *) context);
}

void
MemoryContextDelete(MemoryContext context)
{
	FuzzContext *ctx = (FuzzContext *) context;
	FuzzContext **link;

	context_free_contents(ctx);
	for (link = &ctx->parent->firstchild; *link != ctx; link = &(*link)->nextsibling)
		;
	*link = ctx->nextsibling;
	if ((MemoryContext) ctx == CurrentMemoryContext)
		CurrentMemoryContext = (MemoryContext) ctx->parent;
	free(ctx);
}

/* ---- ereport / elog ---- */

sigjmp_buf *PG_exception_stack = NULL;
ErrorContextCallback *error_context_stack = NULL;

int			fuzz_error_code = 0;
int			fuzz_error_level = 0;
char		fuzz_error_message[1024];
char		fuzz_error_detail[1024];

static int	pending_level;

bool
errstart(int elevel, const char *domain)
{
	if (elevel < ERROR)
		return false;			/* nothing below ERROR matters here */
	pending_level = elevel;
	fuzz_error_code = ERRCODE_INTERNAL_ERROR;	/* elog's default */
	fuzz_error_message[0] = '\0';
	fuzz_error_detail[0] = '\0';
	return true;
}

bool
errstart_cold(int elevel, const char *domain)
{
	return errstart(elevel, domain);
}

void
errfinish(const char *filename, int lineno, const char *funcname)
{
	fuzz_error_level = pending_level;
	if (pending_level > ERROR || PG_exception_stack == NULL)
	{
		fprintf(stderr, "fuzz: level %d error outside a PG_TRY at %s:%d: %s\n",
				pending_level, filename, lineno, fuzz_error_message);
		abort();
	}
	siglongjmp(*PG_exception_stack, 1);
}

void
pg_re_throw(void)
{
	if (PG_exception_stack == NULL)
		abort();
	siglongjmp(*PG_exception_stack, 1);
}

int
errcode(int sqlerrcode)
{
	fuzz_error_code = sqlerrcode;
	return 0;
}

#define FORMAT_INTO(buf) \
	do { \
		va_list		ap; \
		va_start(ap, fmt); \
		vsnprintf(buf, sizeof(buf), fmt, ap); \
		va_end(ap); \
	} while (0)

int
errmsg(const char *fmt,...)
{
	FORMAT_INTO(fuzz_error_message);
	return 0;
}

int
errmsg_internal(const char *fmt,...)
{
	FORMAT_INTO(fuzz_error_message);
	return 0;
}

int
errdetail(const char *fmt,...)
{
	FORMAT_INTO(fuzz_error_detail);
	return 0;
}

int
errdetail_internal(const char *fmt,...)
{
	FORMAT_INTO(fuzz_error_detail);
	return 0;
}

int
errhint(const char *fmt,...)
{
	return 0;
}

/* ---- buffer manager, smgr ---- */

char	   *BufferBlocks = NULL;
Block	   *LocalBufferBlockPointers = NULL;
int			NBuffers = 0;

char	   *fuzz_pages = NULL;
BlockNumber fuzz_npages = 0;

/* The header checks PageIsVerifiedExtended makes (checksums are off). */
static bool
page_header_sane(const char *page)
{
	PageHeader	p = (PageHeader) page;
	int			i;

	if ((p->pd_flags & ~PD_VALID_FLAG_BITS) == 0 &&
		p->pd_lower <= p->pd_upper && p->pd_upper <= p->pd_special &&
		p->pd_special <= BLCKSZ && p->pd_special == MAXALIGN(p->pd_special))
		return true;
	for (i = 0; i < BLCKSZ; i++)
		if (page[i] != 0)
			return false;
	return true;
}

Buffer
ReadBuffer(Relation reln, BlockNumber blockNum)
{
	if (blockNum >= fuzz_npages)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("could not read block %u in file \"fuzz\": read only 0 of %d bytes",
						blockNum, BLCKSZ)));
	if (!page_header_sane(fuzz_pages + (Size) blockNum * BLCKSZ))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid page in block %u of relation fuzz", blockNum)));
	BufferBlocks = fuzz_pages;
	return (Buffer) blockNum + 1;
}

void
LockBuffer(Buffer buffer, int mode)
{
}

void
ReleaseBuffer(Buffer buffer)
{
}

void
UnlockReleaseBuffer(Buffer buffer)
{
}

BlockNumber
BufferGetBlockNumber(Buffer buffer)
{
	return (BlockNumber) buffer - 1;
}

BlockNumber
smgrnblocks(SMgrRelation reln, ForkNumber forknum)
{
	return fuzz_npages;
}

/* ---- dynahash ---- */

#define FUZZ_HASH_SLOTS	8

struct HTAB
{
	Size		keysize;
	Size		entrysize;
	bool		used[FUZZ_HASH_SLOTS];
	char	   *entries;
};

HTAB *
hash_create(const char *tabname, long nelem, const HASHCTL *info, int flags)
{
	HTAB	   *h = calloc(1, sizeof(HTAB));

	h->keysize = info->keysize;
	h->entrysize = info->entrysize;
	h->entries = calloc(FUZZ_HASH_SLOTS, info->entrysize);
	return h;
}

void *
hash_search(HTAB *hashp, const void *keyPtr, HASHACTION action, bool *foundPtr)
{
	int			i;
	int			freeslot = -1;

	for (i = 0; i < FUZZ_HASH_SLOTS; i++)
	{
		char	   *e = hashp->entries + i * hashp->entrysize;

		if (!hashp->used[i])
		{
			if (freeslot < 0)
				freeslot = i;
			continue;
		}
		if (memcmp(e, keyPtr, hashp->keysize) == 0)
		{
			if (foundPtr)
				*foundPtr = true;
			if (action == HASH_REMOVE)
				hashp->used[i] = false;
			return e;
		}
	}
	if (foundPtr)
		*foundPtr = false;
	if (action != HASH_ENTER || freeslot < 0)
		return NULL;
	hashp->used[freeslot] = true;
	memcpy(hashp->entries + freeslot * hashp->entrysize, keyPtr, hashp->keysize);
	return hashp->entries + freeslot * hashp->entrysize;
}

void
hash_seq_init(HASH_SEQ_STATUS *status, HTAB *hashp)
{
	status->hashp = hashp;
	status->curBucket = 0;
}

void *
hash_seq_search(HASH_SEQ_STATUS *status)
{
	while (status->curBucket < FUZZ_HASH_SLOTS)
	{
		uint32		i = status->curBucket++;

		if (status->hashp->used[i])
			return status->hashp->entries + i * status->hashp->entrysize;
	}
	return NULL;
}

void
hash_seq_term(HASH_SEQ_STATUS *status)
{
}

/* ---- page stream ---- */

const char *fuzz_stream = NULL;
Size		fuzz_stream_len = 0;

void
StreamRead(Relation rel, PagePrefetch *pf, StreamPointer start, uint64 len,
		   char *dest)
{
	if (len > fuzz_stream_len)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("fuzz stream read past its end")));
	memcpy(dest, fuzz_stream, len);
}

/* ---- referenced by the linked objects, never called by the decoders ---- */

#define NOT_EXPECTED(name) \
	do { \
		fprintf(stderr, "fuzz: unexpected call of %s\n", name); \
		abort(); \
	} while (0)

void
LockTuple(Relation relation, ItemPointer tid, LOCKMODE lockmode)
{
	NOT_EXPECTED("LockTuple");
}

void
UnlockTuple(Relation relation, ItemPointer tid, LOCKMODE lockmode)
{
	NOT_EXPECTED("UnlockTuple");
}

void
LockRelationForExtension(Relation relation, LOCKMODE lockmode)
{
	NOT_EXPECTED("LockRelationForExtension");
}

void
UnlockRelationForExtension(Relation relation, LOCKMODE lockmode)
{
	NOT_EXPECTED("UnlockRelationForExtension");
}

Buffer
ReadBufferExtended(Relation reln, ForkNumber forkNum, BlockNumber blockNum,
				   ReadBufferMode mode, BufferAccessStrategy strategy)
{
	NOT_EXPECTED("ReadBufferExtended");
	return InvalidBuffer;
}

void
PageInit(Page page, Size pageSize, Size specialSize)
{
	/* the seed generator builds pages with it: PostgreSQL's layout */
	PageHeader	p = (PageHeader) page;

	specialSize = MAXALIGN(specialSize);
	memset(p, 0, pageSize);
	p->pd_flags = 0;
	p->pd_lower = SizeOfPageHeaderData;
	p->pd_upper = pageSize - specialSize;
	p->pd_special = pageSize - specialSize;
	PageSetPageSizeAndVersion(page, pageSize, PG_PAGE_LAYOUT_VERSION);
}

GenericXLogState *
GenericXLogStart(Relation relation)
{
	NOT_EXPECTED("GenericXLogStart");
	return NULL;
}

Page
GenericXLogRegisterBuffer(GenericXLogState *state, Buffer buffer, int flags)
{
	NOT_EXPECTED("GenericXLogRegisterBuffer");
	return NULL;
}

XLogRecPtr
GenericXLogFinish(GenericXLogState *state)
{
	NOT_EXPECTED("GenericXLogFinish");
	return 0;
}

void
GenericXLogAbort(GenericXLogState *state)
{
	NOT_EXPECTED("GenericXLogAbort");
}

/* the delete log's writers and VACUUM ask these; its readers do not */
bool
TransactionIdIsCurrentTransactionId(TransactionId xid)
{
	NOT_EXPECTED("TransactionIdIsCurrentTransactionId");
	return false;
}

bool
TransactionIdIsInProgress(TransactionId xid)
{
	NOT_EXPECTED("TransactionIdIsInProgress");
	return false;
}

bool
TransactionIdDidCommit(TransactionId xid)
{
	NOT_EXPECTED("TransactionIdDidCommit");
	return false;
}

bool
TransactionIdPrecedes(TransactionId id1, TransactionId id2)
{
	NOT_EXPECTED("TransactionIdPrecedes");
	return false;
}

Datum
getmissingattr(TupleDesc tupleDesc, int attnum, bool *isnull)
{
	NOT_EXPECTED("getmissingattr");
	return (Datum) 0;
}

SMgrRelation
smgropen(RelFileNode rnode, BackendId backend)
{
	NOT_EXPECTED("smgropen");
	return NULL;
}

void
smgrsetowner(SMgrRelation *owner, SMgrRelation reln)
{
	NOT_EXPECTED("smgrsetowner");
}

/* metapage.c's ColstoreWriterLockHeld, for assertions of the writers */
bool
LockHeldByMe(const LOCKTAG *locktag, LOCKMODE lockmode)
{
	NOT_EXPECTED("LockHeldByMe");
	return false;
}

/* page_reuse.c's, which directory.c and promotion_map.c call to add pages */
Buffer
ColstoreNewPage(Relation rel)
{
	NOT_EXPECTED("ColstoreNewPage");
	return InvalidBuffer;
}

/* page_reuse.c's, which promotion_map.c calls to move a root page down */
Buffer
ColstoreNewPageBelow(Relation rel, BlockNumber *cursor, BlockNumber limit)
{
	NOT_EXPECTED("ColstoreNewPageBelow");
	return InvalidBuffer;
}

/* page_reuse.c's, which directory.c calls when VACUUM rewrites the directory */
void
PageGiveToHeap(Relation rel, Buffer buf)
{
	NOT_EXPECTED("PageGiveToHeap");
}

/*
 * header_cache.c's, which rowgroup_reader.c asks: the harnesses run without
 * shared memory, so every header is read from its pages and checked
 */
bool
HeaderCacheRead(Relation rel, uint64 identity, const RowGroupDirEntry *entry,
				char *dest)
{
	return false;
}

void
HeaderCacheStore(Relation rel, uint64 identity, const RowGroupDirEntry *entry,
				 const char *src)
{
}

/*
 * metapage.c's ColstoreReadRecent tries the buffer a block was found in
 * last: the harnesses' buffers are the fuzz input's pages, so it always
 * falls back to ReadBuffer
 */
bool
ReadRecentBuffer(RelFileLocator rlocator, ForkNumber forkNum, BlockNumber blockNum,
				 Buffer recent_buffer)
{
	return false;
}

/* metapage.c's, for a new metapage's identity: the harnesses make none */
XLogRecPtr
GetXLogInsertRecPtr(void)
{
	NOT_EXPECTED("GetXLogInsertRecPtr");
	return InvalidXLogRecPtr;
}

/*
 * delete_log.c's write path and redo, which the harnesses never reach (they
 * read logs): the globals it reads and the WAL and buffer calls it makes
 */
volatile uint32 CritSectionCount = 0;
PGPROC	   *MyProc = NULL;
int			wal_level = WAL_LEVEL_MINIMAL;

void
XLogBeginInsert(void)
{
	NOT_EXPECTED("XLogBeginInsert");
}

void
XLogRegisterData(char *data, int len)
{
	NOT_EXPECTED("XLogRegisterData");
}

void
XLogRegisterBuffer(uint8 block_id, Buffer buffer, uint8 flags)
{
	NOT_EXPECTED("XLogRegisterBuffer");
}

XLogRecPtr
XLogInsert(RmgrId rmid, uint8 info)
{
	NOT_EXPECTED("XLogInsert");
	return InvalidXLogRecPtr;
}

XLogRedoAction
XLogReadBufferForRedo(XLogReaderState *record, uint8 block_id, Buffer *buf)
{
	NOT_EXPECTED("XLogReadBufferForRedo");
	return BLK_NOTFOUND;
}

void
MarkBufferDirty(Buffer buffer)
{
	NOT_EXPECTED("MarkBufferDirty");
}

/* deleted_rows_vacuum.c's, which delete_log.c calls to add a log's root */
void
DeletedRowsAddRoot(Relation rel, const RowGroupDirEntry *group)
{
	NOT_EXPECTED("DeletedRowsAddRoot");
}
