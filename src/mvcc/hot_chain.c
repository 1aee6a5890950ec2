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
#include "storage/bufmgr.h"

#include "mvcc/hot_chain.h"
#include "mvcc/row_state.h"
#include "storage/delta_chain.h"
#include "storage/delta_heap.h"

/*
 * HotChainSearch
 *		Search the HOT chain of the heap page item *phys for a member
 *		snapshot sees.  first_call: *phys is the item an index entry names;
 *		else the member this returned last, and the search goes on after
 *		it.  Returns true with *phys set to the member and *copy to a
 *		palloc'd copy of it, or false.  all_dead (may be NULL) is set, on
 *		first calls only, when no member can be seen by anyone.  Promoted
 *		copies are never found (they are read through their rows).
 */
bool
HotChainSearch(Relation rel, ItemPointer phys, Snapshot snapshot,
			   bool first_call, HeapTuple *copy, bool *all_dead)
{
	BlockNumber blkno = ItemPointerGetBlockNumber(phys);
	OffsetNumber off = ItemPointerGetOffsetNumber(phys);
	bool		at_start = first_call;
	bool		skip = !first_call;
	bool		found = false;
	Buffer		buf;

	if (all_dead != NULL)
		*all_dead = first_call;
	buf = ReadBuffer(rel, blkno);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	HeapPageCheck(rel, buf);
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
			break;
		}
		if (HeapTupleHeaderIsPromotedCopy(tuple.t_data))
		{
			if (all_dead != NULL)
				*all_dead = false;
			break;
		}
		/* an entry left over from before HOT chains were kept (see header) */
		if (at_start && HeapTupleHeaderIsHeapOnly(tuple.t_data) &&
			!DeltaItemIsChainStart(rel, buf, off))
			break;
		if (!skip &&
			VersionLiveness(rel, &tuple, buf, snapshot, InvalidTransactionId) != ROW_HIDDEN)
		{
			found = true;
			if (copy != NULL)
				*copy = heap_copytuple(&tuple);
			ItemPointerSet(phys, blkno, off);
			if (all_dead != NULL)
				*all_dead = false;
			break;
		}
		skip = false;
		if (all_dead != NULL && *all_dead && !VersionSurelyDead(rel, &tuple))
			*all_dead = false;
		next = DeltaChainNext(rel, buf, &tuple);
		if (next == InvalidOffsetNumber)
			break;
		off = next;
		at_start = false;
	}
	UnlockReleaseBuffer(buf);
	return found;
}
