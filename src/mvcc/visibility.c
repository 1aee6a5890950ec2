/*-------------------------------------------------------------------------
 *
 * visibility.c
 *	  Visibility rules for colstore rows.
 *
 * All rows of a row group were inserted by one (sub)transaction and one
 * command, recorded in the directory entry as rg_xmin/rg_cmin, so the
 * insert half of heap's visibility rules (HeapTupleSatisfies* in
 * heapam_visibility.c) is applied once per row group.  There are no deletes
 * or updates yet, so there is no xmax half.  RG_FLAG_FROZEN means the
 * insert is committed and older than every snapshot; RG_FLAG_INVALID means
 * the rows are dead to everybody (aborted inserter, killed speculative
 * insertion).
 *
 * As in heap, the current transaction is checked first, then the snapshot
 * or the proc array, and only then the commit log, so a transaction that is
 * committed in pg_xact but still in the proc array is treated as running.
 *
 * IDENTIFICATION
 *	  src/mvcc/visibility.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/subtrans.h"
#include "access/transam.h"
#include "access/xact.h"
#include "storage/predicate.h"
#include "storage/procarray.h"
#include "utils/snapmgr.h"

#include "mvcc/visibility.h"

/* True if the inserting transaction committed (or the group is frozen). */
bool
RowGroupInsertCommitted(const RowGroupDirEntry *entry)
{
	if (entry->rg_flags & RG_FLAG_INVALID)
		return false;
	if (entry->rg_flags & RG_FLAG_FROZEN)
		return true;
	if (TransactionIdIsCurrentTransactionId(entry->rg_xmin) ||
		TransactionIdIsInProgress(entry->rg_xmin))
		return false;
	return TransactionIdDidCommit(entry->rg_xmin);
}

/* True if the rows can never become visible to anyone. */
bool
RowGroupInsertAborted(const RowGroupDirEntry *entry)
{
	if (entry->rg_flags & RG_FLAG_INVALID)
		return true;
	if (entry->rg_flags & RG_FLAG_FROZEN)
		return false;
	if (TransactionIdIsCurrentTransactionId(entry->rg_xmin) ||
		TransactionIdIsInProgress(entry->rg_xmin))
		return false;
	return !TransactionIdDidCommit(entry->rg_xmin);
}

static bool
SatisfiesMVCC(const RowGroupDirEntry *entry, Snapshot snapshot)
{
	TransactionId xmin = entry->rg_xmin;

	if (TransactionIdIsCurrentTransactionId(xmin))
		return entry->rg_cmin < snapshot->curcid;
	if (XidInMVCCSnapshot(xmin, snapshot))
		return false;
	return TransactionIdDidCommit(xmin);
}

/* SnapshotSelf: everything committed plus all of our own changes. */
static bool
SatisfiesSelf(const RowGroupDirEntry *entry)
{
	TransactionId xmin = entry->rg_xmin;

	if (TransactionIdIsCurrentTransactionId(xmin))
		return true;
	if (TransactionIdIsInProgress(xmin))
		return false;
	return TransactionIdDidCommit(xmin);
}

/*
 * SnapshotDirty: like Self, but rows of running transactions are returned
 * too, with the inserter reported in snapshot->xmin so the caller (unique
 * and exclusion checks) can wait for it.
 */
static bool
SatisfiesDirty(const RowGroupDirEntry *entry, Snapshot snapshot)
{
	TransactionId xmin = entry->rg_xmin;

	if (TransactionIdIsCurrentTransactionId(xmin))
		return true;
	if (TransactionIdIsInProgress(xmin))
	{
		snapshot->xmin = xmin;
		return true;
	}
	return TransactionIdDidCommit(xmin);
}

/*
 * RowGroupIsVisible
 *		Are the rows of this row group visible to snapshot?  For a dirty
 *		snapshot, snapshot->xmin/xmax are reset and xmin is set to the
 *		inserter if it is still running.  May consult pg_xact; takes no locks.
 */
bool
RowGroupIsVisible(const RowGroupDirEntry *entry, Snapshot snapshot)
{
	if (snapshot->snapshot_type == SNAPSHOT_DIRTY)
	{
		snapshot->xmin = snapshot->xmax = InvalidTransactionId;
		snapshot->speculativeToken = 0;
	}
	if (entry->rg_flags & RG_FLAG_INVALID)
		return false;

	switch (snapshot->snapshot_type)
	{
		case SNAPSHOT_MVCC:
			return (entry->rg_flags & RG_FLAG_FROZEN) || SatisfiesMVCC(entry, snapshot);
		case SNAPSHOT_SELF:
			return (entry->rg_flags & RG_FLAG_FROZEN) || SatisfiesSelf(entry);
		case SNAPSHOT_ANY:
		case SNAPSHOT_TOAST:
			return true;
		case SNAPSHOT_DIRTY:
			return (entry->rg_flags & RG_FLAG_FROZEN) || SatisfiesDirty(entry, snapshot);
		case SNAPSHOT_NON_VACUUMABLE:
			/* not removable unless the inserter aborted */
			return !RowGroupInsertAborted(entry);
		case SNAPSHOT_HISTORIC_MVCC:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("colstore tables cannot be used as catalog tables in logical decoding")));
	}
	return false;				/* keep compiler quiet */
}

/*
 * RowGroupCheckConflictOut
 *		For SERIALIZABLE: report the rw-conflict of reading past rows that
 *		snapshot does not see because their inserter is concurrent with it
 *		(still running, or committed after the snapshot was taken), as
 *		HeapCheckForSerializableConflictOut does for such heap tuples.
 *		Call it for entries (row groups or reservations) that are not
 *		visible to an MVCC snapshot; it returns at once unless the
 *		transaction is serializable.  It may raise a serialization failure
 *		(ERRCODE_T_R_SERIALIZATION_FAILURE), as heap's check does.
 *
 *		The cheap tests come first: an inserter older than TransactionXmin,
 *		our own transaction, or one the snapshot already sees cannot be a
 *		concurrent writer, and pg_subtrans must not be asked about xids
 *		older than TransactionXmin.
 */
void
RowGroupCheckConflictOut(Relation rel, const RowGroupDirEntry *entry,
						 Snapshot snapshot)
{
	TransactionId xid = entry->rg_xmin;

	if (!CheckForSerializableConflictOutNeeded(rel, snapshot))
		return;
	if (entry->rg_flags & (RG_FLAG_FROZEN | RG_FLAG_INVALID) ||
		!TransactionIdIsNormal(xid))
		return;
	if (TransactionIdPrecedes(xid, TransactionXmin))
		return;
	if (TransactionIdIsCurrentTransactionId(xid))
		return;
	if (!XidInMVCCSnapshot(xid, snapshot))
		return;
	if (RowGroupInsertAborted(entry))
		return;
	xid = SubTransGetTopmostTransaction(xid);
	if (TransactionIdPrecedes(xid, TransactionXmin))
		return;
	CheckForSerializableConflictOut(rel, xid, snapshot);
}

/*
 * The rw-conflict of reading a row whose delete by xid the MVCC snapshot
 * does not see, as HeapCheckForSerializableConflictOut reports it for a
 * visible tuple whose xmax is running or recently committed: nothing for
 * an aborted deleter, our own, or one older than TransactionXmin.
 */
static void
DeleteRunCheckConflictOut(Relation rel, TransactionId xid, Snapshot snapshot)
{
	if (!CheckForSerializableConflictOutNeeded(rel, snapshot))
		return;
	if (TransactionIdPrecedes(xid, TransactionXmin) ||
		TransactionIdIsCurrentTransactionId(xid))
		return;
	if (!TransactionIdIsInProgress(xid) && !TransactionIdDidCommit(xid))
		return;
	xid = SubTransGetTopmostTransaction(xid);
	if (TransactionIdPrecedes(xid, TransactionXmin))
		return;
	CheckForSerializableConflictOut(rel, xid, snapshot);
}

/*
 * DeleteRunLiveness
 *		The RowLiveness of a visible row-group row whose delete is run (no
 *		copy: storage/delete_log.c) for snapshot; snapshot NULL or
 *		SnapshotAny: for a scan that sees every version, against
 *		oldest_xmin.  The rules are heap's for a tuple whose xmin is frozen
 *		and whose xmax is run->xid, a plain delete (HeapTupleSatisfiesMVCC,
 *		Self, Dirty, NonVacuumable, and HeapTupleSatisfiesVacuum as
 *		row_state.c's LivenessForAll reads it), checked in heap's order;
 *		no hint bit is set anywhere.  A dirty snapshot gets a running
 *		deleter in snapshot->xmax, as HeapTupleSatisfiesDirty reports it.
 *		MVCC snapshots report SSI conflicts as heap's readers do.
 */
RowLiveness
DeleteRunLiveness(Relation rel, const DeleteRun *run, Snapshot snapshot,
				  TransactionId oldest_xmin)
{
	TransactionId xid = run->xid;
	bool		visible;

	Assert(TransactionIdIsValid(xid));
	if (snapshot == NULL || snapshot->snapshot_type == SNAPSHOT_ANY)
	{
		if (TransactionIdIsInProgress(xid))
			return TransactionIdIsCurrentTransactionId(xid) ?
				ROW_RECENTLY_DEAD : ROW_LIVE;
		if (!TransactionIdDidCommit(xid))
			return ROW_LIVE;
		return TransactionIdPrecedes(xid, oldest_xmin) ? ROW_HIDDEN : ROW_RECENTLY_DEAD;
	}
	switch (snapshot->snapshot_type)
	{
		case SNAPSHOT_MVCC:
			if (TransactionIdIsCurrentTransactionId(xid))
				visible = run->cid >= snapshot->curcid;
			else if (XidInMVCCSnapshot(xid, snapshot))
				visible = true;
			else
				visible = !TransactionIdDidCommit(xid);
			if (visible)
				DeleteRunCheckConflictOut(rel, xid, snapshot);
			return visible ? ROW_LIVE : ROW_HIDDEN;
		case SNAPSHOT_SELF:
			if (TransactionIdIsCurrentTransactionId(xid))
				return ROW_HIDDEN;
			if (TransactionIdIsInProgress(xid))
				return ROW_LIVE;
			return TransactionIdDidCommit(xid) ? ROW_HIDDEN : ROW_LIVE;
		case SNAPSHOT_DIRTY:
			if (TransactionIdIsCurrentTransactionId(xid))
				return ROW_HIDDEN;
			if (TransactionIdIsInProgress(xid))
			{
				snapshot->xmax = xid;
				return ROW_LIVE;
			}
			return TransactionIdDidCommit(xid) ? ROW_HIDDEN : ROW_LIVE;
		case SNAPSHOT_NON_VACUUMABLE:
			if (TransactionIdIsInProgress(xid) || !TransactionIdDidCommit(xid))
				return ROW_LIVE;
			return GlobalVisTestIsRemovableXid(snapshot->vistest, xid) ?
				ROW_HIDDEN : ROW_LIVE;
		case SNAPSHOT_ANY:
		case SNAPSHOT_TOAST:
			return ROW_LIVE;
		case SNAPSHOT_HISTORIC_MVCC:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("colstore tables cannot be used as catalog tables in logical decoding")));
	}
	return ROW_LIVE;			/* keep compiler quiet */
}
