/*-------------------------------------------------------------------------
 *
 * hot_chain.c
 *	  Following a HOT chain of a colstore heap page from the item an index
 *	  entry names to the version a snapshot sees: heap_hot_search_buffer
 *	  for colstore.
 *
 * An UPDATE that changes no index-relevant column and whose new version
 * fits on the old one's page makes no index entries (tableam/am_dml.c):
 * the chain's first item holds them for every member.  Index fetches,
 * unique checks and bitmap heap scans' exact TIDs therefore start at that
 * item and walk the chain (storage/delta_chain.c says which items start
 * chains and how they link), returning the member the snapshot sees with
 * its own TID.  As in heap:
 *	- a redirect is followed only at the start;
 *	- an item that starts no chain (a heap-only version some item links to)
 *	  finds nothing: index entries that name one are left over from before
 *	  colstore kept HOT chains, when every version had its own (the chain's
 *	  start has them too);
 *	- for snapshots that may see more than one member (non-MVCC), the
 *	  caller asks again with first_call false and the member last returned,
 *	  and the walk goes on after it;
 *	- a chain may start at a promoted copy (its row's root): the row's
 *	  index entries name the row-group TID, and a reader that finds the
 *	  row's own version hidden goes on into the copy's chain
 *	  (HotChainSearchFromCopy), also when VACUUM made the dead copy a
 *	  redirect; an index build takes the member such a chain indexes under
 *	  its row's TID (HotChainMemberForScan), and an UPDATE that must name
 *	  the row from a member finds it (HotChainRootRow);
 *	- all_dead says whether every member is dead to everyone, so that the
 *	  index AM may kill the entry.  A start item that VACUUM made LP_DEAD
 *	  counts as dead; an unused item does not (colstore never reported
 *	  those, see tableam/am_index.c's conflict horizon).
 *
 * IDENTIFICATION
 *	  src/mvcc/hot_chain.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"

#include "mvcc/hot_chain.h"
#include "mvcc/row_state.h"
#include "storage/copy_positions.h"
#include "storage/delta_chain.h"
#include "storage/delta_heap.h"

/*
 * Walk the HOT chain of the locked heap page in buf from item off (the
 * chain's start if at_start, else a member; skip: do not return off itself)
 * to the first member snapshot sees: HotChainSearch's loop, see there.
 */
static bool
ChainWalk(Relation rel, Buffer buf, OffsetNumber off, bool at_start, bool skip,
		  Snapshot snapshot, ItemPointer phys, HeapTuple *copy, bool *all_dead)
{
	BlockNumber blkno = BufferGetBlockNumber(buf);

	for (;;)
	{
		HeapTupleData tuple;
		OffsetNumber next;

		if (!HeapVersionRead(rel, buf, off, &tuple))
		{
			next = at_start ? DeltaRedirectTarget(rel, buf, off) : InvalidOffsetNumber;
			if (next != InvalidOffsetNumber)
			{
				off = next;
				at_start = false;
				continue;
			}
			/* the chain ends; a start that is no pruned item is no dead row */
			if (at_start && all_dead != NULL && !HeapItemIsDead(buf, off))
				*all_dead = false;
			return false;
		}
		if (HeapTupleHeaderIsPromotedCopy(tuple.t_data))
		{
			if (all_dead != NULL)
				*all_dead = false;
			return false;
		}
		/* an entry left over from before HOT chains were kept (see header) */
		if (at_start && HeapTupleHeaderIsHeapOnly(tuple.t_data) &&
			!DeltaItemIsChainStart(rel, buf, off))
			return false;
		if (!skip &&
			VersionLiveness(rel, &tuple, buf, snapshot, InvalidTransactionId) != ROW_HIDDEN)
		{
			if (copy != NULL)
				*copy = heap_copytuple(&tuple);
			ItemPointerSet(phys, blkno, off);
			if (all_dead != NULL)
				*all_dead = false;
			return true;
		}
		skip = false;
		if (all_dead != NULL && *all_dead && !VersionSurelyDead(rel, &tuple))
			*all_dead = false;
		next = DeltaChainNext(rel, buf, &tuple);
		if (next == InvalidOffsetNumber)
			return false;
		off = next;
		at_start = false;
	}
}

/*
 * HotChainSearch
 *		Search the HOT chain of the heap page item *phys for a member
 *		snapshot sees.  first_call: *phys is the item an index entry names;
 *		else the member this returned last, and the search goes on after
 *		it.  Returns true with *phys set to the member and *copy to a
 *		palloc'd copy of it, or false.  all_dead (may be NULL) is set, on
 *		first calls only, when no member can be seen by anyone.  Promoted
 *		copies are never found (they are read through their rows), nor is
 *		anything from a copy's position (HotChainSearchFromCopy is the row's
 *		way into its chain).
 */
bool
HotChainSearch(Relation rel, ItemPointer phys, Snapshot snapshot,
			   bool first_call, HeapTuple *copy, bool *all_dead)
{
	Buffer		buf;
	bool		found;

	if (all_dead != NULL)
		*all_dead = first_call;
	buf = ReadBuffer(rel, ItemPointerGetBlockNumber(phys));
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	HeapPageCheck(rel, buf);
	found = ChainWalk(rel, buf, ItemPointerGetOffsetNumber(phys), first_call,
					  !first_call, snapshot, phys, copy, all_dead);
	UnlockReleaseBuffer(buf);
	return found;
}

/*
 * The first member of the HOT chain rooted at item off of the locked page
 * in buf, a promoted copy or the redirect VACUUM made of a dead one, after
 * the copy; InvalidOffsetNumber if there is none.
 */
static OffsetNumber
MemberAfterCopy(Relation rel, Buffer buf, OffsetNumber off)
{
	HeapTupleData tuple;

	if (!HeapVersionRead(rel, buf, off, &tuple))
		return DeltaRedirectTarget(rel, buf, off);
	return HeapTupleHeaderIsPromotedCopy(tuple.t_data) ?
		DeltaChainNext(rel, buf, &tuple) : InvalidOffsetNumber;
}

/*
 * HotChainSearchFromCopy
 *		Search the HOT chain rooted at the promoted copy at *phys (a copy,
 *		or the redirect VACUUM made of a dead one) for a member snapshot
 *		sees, the copy itself excluded: the row's own version is judged by
 *		its row group and the copy (mvcc/row_state.c), and a caller that
 *		comes here has found it hidden, or returned it already (non-MVCC
 *		snapshots).  Returns true with *phys set to the member and *copy to
 *		a palloc'd copy of it, or false.
 */
bool
HotChainSearchFromCopy(Relation rel, ItemPointer phys, Snapshot snapshot,
					   HeapTuple *copy)
{
	OffsetNumber off = ItemPointerGetOffsetNumber(phys);
	OffsetNumber first;
	Buffer		buf;
	bool		found = false;

	buf = ReadBuffer(rel, ItemPointerGetBlockNumber(phys));
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	HeapPageCheck(rel, buf);
	first = MemberAfterCopy(rel, buf, off);
	if (first != InvalidOffsetNumber)
		found = ChainWalk(rel, buf, first, false, false, snapshot, phys, copy, NULL);
	UnlockReleaseBuffer(buf);
	return found;
}

/*
 * HotChainMemberForScan
 *		For a scan that indexes rows (an index build): the member of the HOT
 *		chain rooted at the promoted copy at *copy (the copy excluded) to
 *		index under the copy's row's TID, judged for snapshot (NULL or
 *		SnapshotAny: against oldest_xmin), as heap's build judges a chain's
 *		members: hidden ones are skipped, and so are HOT-updated ones not
 *		alive (setting *broken: snapshots that still see them must not use
 *		the index).  Returns its RowLiveness, with *member a palloc'd copy,
 *		or ROW_HIDDEN if no member is to be indexed.
 */
RowLiveness
HotChainMemberForScan(Relation rel, ItemPointer copy, Snapshot snapshot,
					  TransactionId oldest_xmin, HeapTuple *member, bool *broken)
{
	OffsetNumber off = ItemPointerGetOffsetNumber(copy);
	RowLiveness result = ROW_HIDDEN;
	HeapTupleData tuple;
	Buffer		buf;

	buf = ReadBuffer(rel, ItemPointerGetBlockNumber(copy));
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	HeapPageCheck(rel, buf);
	off = MemberAfterCopy(rel, buf, off);
	while (off != InvalidOffsetNumber && HeapVersionRead(rel, buf, off, &tuple))
	{
		RowLiveness live = VersionLiveness(rel, &tuple, buf, snapshot, oldest_xmin);
		OffsetNumber next = DeltaChainNext(rel, buf, &tuple);

		if (live != ROW_HIDDEN)
		{
			if (next == InvalidOffsetNumber || live == ROW_LIVE)
			{
				*member = heap_copytuple(&tuple);
				result = live;
				break;
			}
			*broken = true;
		}
		off = next;
	}
	UnlockReleaseBuffer(buf);
	return result;
}

/* The promoted copies' positions, read once per command (HotChainRootRow). */
static CopyPositions *RootCopies = NULL;
static Oid	RootCopiesRelid = InvalidOid;
static CommandId RootCopiesCid = InvalidCommandId;

/* TopTransactionContext's reset callback: RootCopies lived in it. */
static void
ForgetRootCopies(void *arg)
{
	RootCopies = NULL;
	RootCopiesRelid = InvalidOid;
}

/*
 * HotChainRootRow
 *		If the HOT chain the heap version at phys belongs to starts at a
 *		row's promoted copy (or at the redirect VACUUM made of a dead one),
 *		set *row to that row's TID and return true.  Reads the promotion maps
 *		(storage/copy_positions.c), once per command and relation: every copy
 *		a version this command can change descends from was promoted before.
 */
bool
HotChainRootRow(Relation rel, ItemPointer phys, ItemPointer row)
{
	OffsetNumber starts[MaxHeapTuplesPerPage + 1];
	OffsetNumber off = ItemPointerGetOffsetNumber(phys);
	OffsetNumber root;
	ItemPointerData pos;
	HeapTupleData tuple;
	Buffer		buf;
	bool		maybe_copy;
	CommandId	cid = GetCurrentCommandId(false);

	buf = ReadBuffer(rel, ItemPointerGetBlockNumber(phys));
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	HeapPageCheck(rel, buf);
	DeltaChainStarts(rel, buf, starts);
	root = off <= PageGetMaxOffsetNumber(BufferGetPage(buf)) ?
		starts[off] : InvalidOffsetNumber;
	maybe_copy = root != InvalidOffsetNumber &&
		(!HeapVersionRead(rel, buf, root, &tuple) ||
		 HeapTupleHeaderIsPromotedCopy(tuple.t_data));
	UnlockReleaseBuffer(buf);
	if (!maybe_copy)
		return false;
	if (RootCopies == NULL || RootCopiesRelid != RelationGetRelid(rel) ||
		RootCopiesCid != cid)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(TopTransactionContext);

		if (RootCopies == NULL)
		{
			MemoryContextCallback *cb = palloc(sizeof(MemoryContextCallback));

			cb->func = ForgetRootCopies;
			cb->arg = NULL;
			MemoryContextRegisterResetCallback(TopTransactionContext, cb);
		}
		else
			CopyPositionsFree(RootCopies);
		RootCopies = CopyPositionsBuild(rel);
		RootCopiesRelid = RelationGetRelid(rel);
		RootCopiesCid = cid;
		MemoryContextSwitchTo(oldcxt);
	}
	ItemPointerSet(&pos, ItemPointerGetBlockNumber(phys), root);
	return CopyPositionsLookup(RootCopies, &pos, row);
}
