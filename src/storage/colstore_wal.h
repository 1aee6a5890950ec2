/*-------------------------------------------------------------------------
 *
 * colstore_wal.h
 *	  colstore's custom WAL resource manager: its records and their layout.
 *
 * Most of colstore's WAL is generic (GenericXLog) or heapam's own.  The
 * custom resource manager carries what neither can:
 *
 *	- XLOG_COLSTORE_INSERT: the rows of a row group as logical decoding must
 *	  see them (written only when the table is logically logged, i.e. under
 *	  wal_level = logical).  Its redo does nothing: the row group's pages
 *	  are logged separately.  Its decode callback hands one INSERT per row to
 *	  the reorder buffer (logical_decode.c).
 *	- XLOG_COLSTORE_SPEC_CONFIRM / XLOG_COLSTORE_SPEC_ABORT: the outcome of
 *	  a speculative insertion (INSERT ... ON CONFLICT) logged as an
 *	  XLOG_COLSTORE_INSERT with COLSTORE_INSERT_SPECULATIVE; decoded as
 *	  heap's confirmation and super-delete are.  Only earlier builds wrote
 *	  these three (speculative insertions are heap tuples now); they are
 *	  still decoded and replayed.
 *	- XLOG_COLSTORE_DELETE: a heap tuple deleted as heap's delete would
 *	  (with the "moved to another partition" marker for the tuples
 *	  compaction moved into row groups), and replayed like it, but ignored
 *	  by logical decoding: a move, or a change of colstore's own options
 *	  table, is not a change of user data (undecoded_delete.c).
 *	- XLOG_COLSTORE_PRUNE, XLOG_COLSTORE_FREEZE: VACUUM of the heap pages
 *	  inside a colstore relation (delta_vacuum.c), which makes removed
 *	  heap-only versions LP_DEAD (tables from before HOT chains were kept
 *	  have index entries on them) and so cannot use heap's records (their
 *	  redo asserts HOT invariants colstore does not keep, and their layout
 *	  changed in 16 and 17): items made redirects, dead or unused, tuples
 *	  frozen (delta_wal.c, delta_freeze.c).  Without the resource manager they
 *	  are logged as full page images instead.
 *	- XLOG_COLSTORE_VISIBLE, XLOG_COLSTORE_VISIBLE_CLEAR: the all-visible
 *	  bits of pseudo-blocks in the relation's visibility map fork, which
 *	  index-only scans read (all_visible.c): VACUUM's setting (and clearing
 *	  of bits it finds wrong), with a snapshot conflict horizon for hot
 *	  standby queries, and a writer's clearing of the bit of a row it
 *	  deleted or updated.  heap's visibility record cannot be used: its redo
 *	  reads a heap page at the block number, and a pseudo-block is none.
 *
 * The records need the resource manager registered in every process that
 * writes or replays them, so colstore must be in shared_preload_libraries;
 * ColstoreWalAvailable() says whether it is.
 *
 * IDENTIFICATION
 *	  src/storage/colstore_wal.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_WAL_H
#define COLSTORE_WAL_H

#include "access/xlogreader.h"
#include "pg_compat.h"
#include "encoding/chunk_encoding.h"
#include "lib/stringinfo.h"
#include "storage/itemptr.h"
#include "utils/rel.h"

/*
 * The resource manager id.  Ids 128 to 255 are for extensions; 128 is
 * PostgreSQL's RM_EXPERIMENTAL_ID.  WAL written with this id must be
 * replayed with it, so it never changes.
 */
#define COLSTORE_RMGR_ID			153
#define COLSTORE_RMGR_NAME			"colstore"

/* Record kinds (the high bits of the record's info byte). */
#define XLOG_COLSTORE_INSERT		0x00
#define XLOG_COLSTORE_SPEC_CONFIRM	0x10
#define XLOG_COLSTORE_SPEC_ABORT	0x20
#define XLOG_COLSTORE_DELETE		0x30
#define XLOG_COLSTORE_PRUNE			0x40
#define XLOG_COLSTORE_FREEZE		0x50
#define XLOG_COLSTORE_LOGGED_DELETE	0x60
#define XLOG_COLSTORE_LOG_APPEND	0x70
#define XLOG_COLSTORE_OPMASK		0x70

/*
 * The high bit (0x80) is a flag of XLOG_COLSTORE_PRUNE only
 * (XLOG_COLSTORE_PRUNE_REDIRECTS); with any other kind it selects a second
 * set of kinds.  ColstoreRecordKind() gives a record's kind.
 */
#define XLOG_COLSTORE_HIGH			0x80
#define XLOG_COLSTORE_VISIBLE		(XLOG_COLSTORE_HIGH | 0x00)
#define XLOG_COLSTORE_VISIBLE_CLEAR	(XLOG_COLSTORE_HIGH | 0x10)

static inline uint8
ColstoreRecordKind(uint8 info)
{
	uint8		kind = info & XLOG_COLSTORE_OPMASK;

	if ((info & XLOG_COLSTORE_HIGH) && kind != 0x40)	/* not PRUNE */
		return kind | XLOG_COLSTORE_HIGH;
	return kind;
}

/* xl_colstore_insert.flags */
#define COLSTORE_INSERT_SPECULATIVE	0x0001	/* one row, awaiting its outcome */

/*
 * XLOG_COLSTORE_INSERT: rows [0, nrows) of one chunk range of a row group.
 * Followed by natts xl_colstore_column, then natts uint64 image lengths,
 * then the natts chunk images (encoding/chunk_encoding.h) back to back.
 * xid is the rows' inserting (sub)transaction, which can differ from the
 * record's own: rows are written when their buffer is flushed.
 */
typedef struct xl_colstore_insert
{
	RelFileLocator node;
	TransactionId xid;
	uint32		nrows;
	uint16		natts;
	uint16		flags;
} xl_colstore_insert;

/* What decoding a column's image and forming a heap tuple need. */
typedef struct xl_colstore_column
{
	Oid			typid;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	char		typstorage;
	char		pad[3];
} xl_colstore_column;

/* XLOG_COLSTORE_SPEC_CONFIRM and XLOG_COLSTORE_SPEC_ABORT */
typedef struct xl_colstore_spec_outcome
{
	RelFileLocator node;
	TransactionId xid;
} xl_colstore_spec_outcome;

/*
 * XLOG_COLSTORE_LOGGED_DELETE: a row-group row deleted by xid through the
 * delete log (storage/delete_log.c), for logical decoding only (the log's
 * page is changed by a generic WAL record).  If COLSTORE_LOGGED_DELETE_OLD,
 * followed by the old key tuple as heap_delete logs it: the header fields
 * below, then the tuple from its null bitmap on.
 */
typedef struct xl_colstore_logged_delete
{
	RelFileLocator node;
	TransactionId xid;
	uint16		t_infomask2;
	uint16		t_infomask;
	uint8		t_hoff;
	uint8		flags;
	uint16		pad;
} xl_colstore_logged_delete;

#define COLSTORE_LOGGED_DELETE_OLD	0x01

/*
 * XLOG_COLSTORE_LOG_APPEND: block 0 is a delete log segment page
 * (storage/delete_log.c); row's bit is set in its last run, or in a new run
 * of xid and cid if new_run, a compaction's move if moved.
 */
typedef struct xl_colstore_log_append
{
	TransactionId xid;
	CommandId	cid;
	uint32		row;
	uint8		new_run;
	uint8		moved;			/* a new run is a compaction's (RUN_MOVED; 0
								 * in older builds' records) */
	uint8		pad[2];
} xl_colstore_log_append;

/*
 * XLOG_COLSTORE_DELETE: block 0 is the heap page; the tuple at offnum gets
 * xmax as an exclusive (keys updated) delete, and the moved marker if
 * COLSTORE_DELETE_MOVED (heap's xl_heap_delete without an old key, which
 * decoding never needs here).
 */
typedef struct xl_colstore_delete
{
	TransactionId xmax;
	OffsetNumber offnum;
	uint8		flags;
	uint8		pad;
} xl_colstore_delete;

#define COLSTORE_DELETE_ALL_VISIBLE_CLEARED	0x01
#define COLSTORE_DELETE_MOVED				0x02

/*
 * XLOG_COLSTORE_PRUNE: block 0 is a heap page, its data ndead offsets of
 * items made LP_DEAD (their storage freed, which needs the cleanup lock),
 * then nunused offsets of LP_DEAD items made LP_UNUSED.  Standby queries
 * whose snapshots may see a version older than conflict_xid are cancelled
 * first (InvalidTransactionId: none).
 *
 * With XLOG_COLSTORE_PRUNE_REDIRECTS in the record's info bits (written
 * since colstore keeps HOT chains), the main data goes on with a uint16
 * count of redirects, and the block data starts with that many pairs of
 * offsets (item, the item it now redirects to), applied before the dead
 * items, as heap's prune record orders them.  Records without the bit
 * carry no redirects, so WAL written before replays as it did.
 */
typedef struct xl_colstore_prune
{
	TransactionId conflict_xid;
	uint16		ndead;
	uint16		nunused;
} xl_colstore_prune;

#define XLOG_COLSTORE_PRUNE_REDIRECTS	0x80

/*
 * XLOG_COLSTORE_FREEZE: block 0 is a heap page, its data nplans
 * xl_colstore_freeze_plan, each what heap_execute_freeze_tuple sets on the
 * tuple at offset.
 */
typedef struct xl_colstore_freeze
{
	TransactionId conflict_xid;
	uint16		nplans;
} xl_colstore_freeze;

typedef struct xl_colstore_freeze_plan
{
	TransactionId xmax;
	OffsetNumber offset;
	uint16		t_infomask2;
	uint16		t_infomask;
	uint8		frzflags;
	uint8		pad;
} xl_colstore_freeze_plan;

/*
 * XLOG_COLSTORE_VISIBLE: block 0 is a visibility map page (registered
 * without REGBUF_STANDARD: its bits lie between pd_lower and pd_upper);
 * pseudo-blocks [first, first + n) take the all-visible bits that follow
 * the struct, one bit per pseudo-block (1: all-visible; 0: both bits
 * cleared).  Standby queries whose snapshots may not see the rows'
 * inserters as committed are cancelled first (conflict_xid; Invalid:
 * none).  With COLSTORE_VISIBLE_MARK in flags (and n = 0), the map page
 * (the fork's first) gets the mark that says every bit of the fork is
 * VACUUM's (all_visible.c: AllVisibleTrusted).
 */
typedef struct xl_colstore_visible
{
	TransactionId conflict_xid;
	BlockNumber first;
	uint32		n;
	uint32		flags;
	/* then (n + 7) / 8 bytes of bits */
} xl_colstore_visible;

#define COLSTORE_VISIBLE_MARK		0x0001

/*
 * XLOG_COLSTORE_VISIBLE_CLEAR: pseudo-block block of relation node has its
 * visibility map bits cleared (by a writer, after the change that made a
 * row of it not visible to everyone); no block is registered, as heap's
 * delete record clears the map without one.
 */
typedef struct xl_colstore_visible_clear
{
	RelFileLocator node;
	BlockNumber block;
} xl_colstore_visible_clear;

/* colstore_wal.c */
extern void ColstoreWalRegister(void);
extern bool ColstoreWalAvailable(void);
extern void ColstoreWalRequire(const char *relname);

/* logical_decode.c: the decode callback */
struct LogicalDecodingContext;
struct XLogRecordBuffer;
extern void ColstoreDecode(struct LogicalDecodingContext *ctx,
						   struct XLogRecordBuffer *buf);

/* delta_wal.c and delta_freeze.c: redo */
extern void DeltaPruneRedo(XLogReaderState *record);
extern void DeltaFreezeRedo(XLogReaderState *record);

/* delete_log.c */
extern void DeleteLogAppendRedo(XLogReaderState *record);

/* all_visible.c */
extern void AllVisibleRedo(XLogReaderState *record);
extern void AllVisibleDesc(StringInfo buf, XLogReaderState *record);

/* undecoded_delete.c */
extern bool DeleteUndecoded(Relation rel, ItemPointer tid, CommandId cid,
							bool moved);
extern void DeleteUndecodedRedo(XLogReaderState *record);
extern void PromotedCopySetDeleter(Relation rel, ItemPointer tid,
								   TransactionId xid, CommandId cid, bool moved);

#endif							/* COLSTORE_WAL_H */
