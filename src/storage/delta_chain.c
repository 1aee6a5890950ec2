/*-------------------------------------------------------------------------
 *
 * delta_chain.c
 *	  HOT chains on the heap pages inside a colstore relation: the links
 *	  between a HOT-updated version and its successor, and the item each
 *	  chain starts at, which is the one that holds the chain's index
 *	  entries.
 *
 * heap_update makes a HOT update whenever heap would (the new version fits
 * on the old one's page and no index-relevant column changed): the old
 * version gets HEAP_HOT_UPDATED, the new one HEAP_ONLY_TUPLE, and colstore
 * makes no index entries for it (tableam/am_dml.c).  Readers that arrive by
 * an index entry start at the chain's first item and follow the links
 * (mvcc/hot_chain.c), as heap_hot_search_buffer does.  Which item starts a
 * chain is decided here, from the page alone, the same way for every
 * reader and for VACUUM (delta_vacuum.c):
 *
 *	- a redirect (VACUUM made the chain's dead first version one);
 *	- an ordinary version that is not heap-only;
 *	- a heap-only version no other item links to.  Heap has none of those;
 *	  colstore has them in tables VACUUMed before colstore kept HOT chains:
 *	  a heap-only version whose first version that VACUUM removed (every
 *	  version then had index entries), or whose predecessor was a promoted
 *	  copy VACUUM made LP_DEAD;
 *	- a promoted copy (mvcc/row_state.c), or the redirect VACUUM made of a
 *	  dead one.  Such a chain's index entries are its row's, naming the
 *	  row-group TID: the row is the chain's root, and readers reach the
 *	  members through it (mvcc/hot_chain.c), never through the copy's own
 *	  position, which no index entry names.  The page does not tell a
 *	  copy's redirect from another; the promotion maps do
 *	  (copy_positions.c).
 *
 * A link goes from a HOT-updated version or promoted copy to the item its
 * t_ctid names on the same page, if that holds a heap-only version (never
 * a copy) whose raw xmin is the updater.  The raw xmin, not
 * HeapTupleHeaderGetXmin: a VACUUM with INDEX_CLEANUP off freezes a chain's
 * live member without removing its dead predecessor, and the link must
 * survive that.  A link to
 * an item that was reused finds another xmin and ends the chain there.
 *
 * Nothing here decides visibility; items are read with HeapVersionRead,
 * which checks a damaged page's item bounds.
 *
 * IDENTIFICATION
 *	  src/storage/delta_chain.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "storage/bufpage.h"
#include "storage/bufmgr.h"

#include "storage/delta_chain.h"
#include "storage/delta_heap.h"

/* Is tuple a version that can be a chain's member: not a promoted copy? */
static inline bool
IsChainVersion(HeapTuple tuple)
{
	return !HeapTupleHeaderIsPromotedCopy(tuple->t_data);
}

/*
 * DeltaChainNext
 *		The item of the locked heap page in buf that continues tuple's HOT
 *		chain (tuple is on that page, a version or a promoted copy), or
 *		InvalidOffsetNumber if the chain ends at tuple.
 */
OffsetNumber
DeltaChainNext(Relation rel, Buffer buf, HeapTuple tuple)
{
	HeapTupleHeader htup = tuple->t_data;
	HeapTupleData next;
	OffsetNumber off;

	if (!HeapTupleHeaderIsHotUpdated(htup) ||
		ItemPointerGetBlockNumberNoCheck(&htup->t_ctid) != BufferGetBlockNumber(buf))
		return InvalidOffsetNumber;
	off = ItemPointerGetOffsetNumberNoCheck(&htup->t_ctid);
	if (off == ItemPointerGetOffsetNumber(&tuple->t_self) ||
		!HeapVersionRead(rel, buf, off, &next) ||
		!IsChainVersion(&next) || !HeapTupleHeaderIsHeapOnly(next.t_data) ||
		!TransactionIdEquals(HeapTupleHeaderGetRawXmin(next.t_data),
							 HeapTupleHeaderGetUpdateXid(htup)))
		return InvalidOffsetNumber;
	return off;
}

/*
 * DeltaRedirectTarget
 *		If item off of the locked heap page in buf is a redirect to a row
 *		version, that version's item; else InvalidOffsetNumber.
 */
OffsetNumber
DeltaRedirectTarget(Relation rel, Buffer buf, OffsetNumber off)
{
	Page		page = BufferGetPage(buf);
	ItemId		lp;
	OffsetNumber target;
	HeapTupleData tuple;

	if (off < FirstOffsetNumber || off > PageGetMaxOffsetNumber(page))
		return InvalidOffsetNumber;
	lp = PageGetItemId(page, off);
	if (!ItemIdIsRedirected(lp))
		return InvalidOffsetNumber;
	target = ItemIdGetRedirect(lp);
	if (target == off || !HeapVersionRead(rel, buf, target, &tuple) ||
		!IsChainVersion(&tuple))
		return InvalidOffsetNumber;
	return target;
}

/* Does an item of the locked page link to item off (see the file header)? */
static bool
HasPredecessor(Relation rel, Buffer buf, OffsetNumber off)
{
	OffsetNumber maxoff = PageGetMaxOffsetNumber(BufferGetPage(buf));
	OffsetNumber i;

	for (i = FirstOffsetNumber; i <= maxoff; i++)
	{
		HeapTupleData tuple;

		if (i == off)
			continue;
		if (HeapVersionRead(rel, buf, i, &tuple))
		{
			/* the link's other checks only for a t_ctid naming off */
			if (ItemPointerGetOffsetNumberNoCheck(&tuple.t_data->t_ctid) == off &&
				DeltaChainNext(rel, buf, &tuple) == off)
				return true;
		}
		else if (DeltaRedirectTarget(rel, buf, i) == off)
			return true;
	}
	return false;
}

/*
 * DeltaItemIsChainStart
 *		Does a HOT chain start at item off of the locked heap page in buf,
 *		so that an index entry naming it leads to the chain?  A promoted
 *		copy's chain is reached through its row, never through the copy's
 *		position (false); an item without a version or a redirect starts
 *		nothing.
 */
bool
DeltaItemIsChainStart(Relation rel, Buffer buf, OffsetNumber off)
{
	HeapTupleData tuple;

	if (!HeapVersionRead(rel, buf, off, &tuple))
		return DeltaRedirectTarget(rel, buf, off) != InvalidOffsetNumber;
	if (!IsChainVersion(&tuple))
		return false;
	if (!HeapTupleHeaderIsHeapOnly(tuple.t_data))
		return true;
	return !HasPredecessor(rel, buf, off);
}

/*
 * DeltaChainStarts
 *		For every item off of the locked heap page in buf, starts[off] (an
 *		array of MaxHeapTuplesPerPage + 1) is the item its HOT chain starts
 *		at, or InvalidOffsetNumber for items that are no chain's (unused,
 *		dead, a redirect to nothing).  A version's index entries name its
 *		chain's start (heap_get_root_tuples for colstore), or, when that is
 *		a promoted copy or a copy's redirect, the copy's row.  A promoted
 *		copy starts a chain of its own (starts[off] == off).
 */
void
DeltaChainStarts(Relation rel, Buffer buf, OffsetNumber *starts)
{
	OffsetNumber maxoff = PageGetMaxOffsetNumber(BufferGetPage(buf));
	bool		linked[MaxHeapTuplesPerPage + 1];
	OffsetNumber off;

	memset(linked, 0, sizeof(linked));
	for (off = FirstOffsetNumber; off <= maxoff; off++)
	{
		HeapTupleData tuple;

		starts[off] = InvalidOffsetNumber;
		if (HeapVersionRead(rel, buf, off, &tuple))
			linked[DeltaChainNext(rel, buf, &tuple)] = true;
		else
			linked[DeltaRedirectTarget(rel, buf, off)] = true;
	}
	for (off = FirstOffsetNumber; off <= maxoff; off++)
	{
		HeapTupleData tuple;
		OffsetNumber cur;

		if (HeapVersionRead(rel, buf, off, &tuple))
		{
			if (linked[off])
				continue;
			cur = off;
		}
		else if ((cur = DeltaRedirectTarget(rel, buf, off)) != InvalidOffsetNumber)
			starts[off] = off;
		else
			continue;

		/* the chain's members; a damaged page's cycle stops at a seen item */
		while (cur != InvalidOffsetNumber && starts[cur] == InvalidOffsetNumber)
		{
			starts[cur] = off;
			if (!HeapVersionRead(rel, buf, cur, &tuple))
				break;
			cur = DeltaChainNext(rel, buf, &tuple);
		}
	}
}
